//! `diskdash compare BASE NEW`: two directories of records compared
//! through the binary, its table, JSON and exit status.

use std::path::Path;

use assert_cmd::Command;

use crate::report_common::{record, write_record};

/// Base figures of three runs: 4 KiB random-read IOPS and p99 latency,
/// both judged.
const IOPS: [f64; 3] = [980.0, 1000.0, 1020.0];
const P99: [f64; 3] = [0.00098, 0.001, 0.00102];

/// Writes three runs of `P fast` (study `study`) into `dir`, the IOPS
/// and p99 latency of each scaled by `iops` and `lat`.
fn write_side(dir: &Path, study: &str, iops: f64, lat: f64) {
    for (i, (v, p)) in IOPS.iter().zip(P99).enumerate() {
        let id = format!("{study}-{i}");
        let r = record(
            &id,
            study,
            "P",
            "fast",
            Some(0.1),
            "fio-randread-4k-qd64",
            i as u32 + 1,
            &[
                ("read_iops", v * iops, "IOPS"),
                ("read_clat_p99", p * lat, "s"),
                // shown for a random read, never judged: not compared
                ("read_bw", v * iops * 4096.0, "B/s"),
            ],
        );
        write_record(dir, &format!("{id}.json"), &r);
    }
}

/// Runs `diskdash compare` with `args`; (exit code, stdout, stderr).
pub(crate) fn compare<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> (i32, String, String) {
    let out = Command::cargo_bin("diskdash")
        .unwrap()
        .arg("compare")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A base and a new directory; `new` scaled as [`write_side`] takes it.
fn sides(iops: f64, lat: f64) -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base");
    let new = dir.path().join("new");
    write_side(&base, "january", 1.0, 1.0);
    // another study name: configurations match by what makes them
    write_side(&new, "june", iops, lat);
    let s = |p: &Path| p.to_str().unwrap().to_string();
    (dir, s(&base), s(&new))
}

#[test]
fn a_thirty_percent_drop_in_iops_regresses_and_exits_one() {
    let (_dir, base, new) = sides(0.7, 1.0);
    let (code, out, err) = compare(&[&base, &new]);
    assert_eq!(code, 1, "{out}{err}");
    // 686..714 against 980..1020: 0.67x to 0.73x
    assert_eq!(
        err.trim_end(),
        "regressed: P fast · 100 GB, fio-randread-4k-qd64, read_iops: 0.70x (0.67x to 0.73x), \
         below the threshold of 0.90x"
    );
    let row = |metric: &str| -> Vec<String> {
        out.lines()
            .find(|l| l.split_whitespace().any(|w| w == metric))
            .unwrap_or_else(|| panic!("no {metric} in\n{out}"))
            .split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        row("read_iops"),
        [
            "P fast · 100 GB",
            "fio-randread-4k-qd64",
            "read_iops",
            "1,000 IOPS",
            "700 IOPS",
            "0.70x",
            "0.67x to 0.73x",
            "regressed"
        ]
    );
    assert_eq!(
        row("read_clat_p99")[3..],
        ["1.00 ms", "1.00 ms", "1.00x", "0.96x to 1.04x", "ok"]
    );
    assert!(!out.contains("read_bw"), "read_bw is not judged:\n{out}");
    assert!(
        out.ends_with(
            "compare: 2 metrics compared at a threshold of 0.90x: 1 regressed, 0 within uncertainty, 1 ok\n"
        ),
        "{out}"
    );
}

#[test]
fn an_unchanged_set_exits_zero() {
    let (_dir, base, new) = sides(1.0, 1.0);
    let (code, out, err) = compare(&[&base, &new]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(err, "");
    assert!(
        out.ends_with("0 regressed, 0 within uncertainty, 2 ok\n"),
        "{out}"
    );
    // within the spread: 5% lower with a 4% spread is not a regression
    let (_dir, base, new) = sides(0.95, 1.0);
    let (code, out, _) = compare(&[&base, &new]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0.95x  "), "{out}");
}

#[test]
fn a_thirty_percent_higher_latency_is_a_regression() {
    let (_dir, base, new) = sides(1.0, 1.3);
    let (code, out, err) = compare(&[&base, &new]);
    assert_eq!(code, 1, "{out}{err}");
    // base / new: 1 / 1.3 = 0.77x; 0.98 / 1.326 to 1.02 / 1.274
    assert_eq!(
        err.trim_end(),
        "regressed: P fast · 100 GB, fio-randread-4k-qd64, read_clat_p99: 0.77x (0.74x to 0.80x), \
         below the threshold of 0.90x"
    );
    assert!(out.contains("  1.00 ms     1.30 ms     0.77x  "), "{out}");
}

#[test]
fn a_lower_threshold_lets_the_drop_pass() {
    let (_dir, base, new) = sides(0.7, 1.0);
    let (code, out, err) = compare(&["--threshold", "0.6", &base, &new]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("at a threshold of 0.60x: 0 regressed"),
        "{out}"
    );
    // at 0.7 the range 0.67x to 0.73x straddles it
    let (code, out, _) = compare(&["--threshold", "0.7", &base, &new]);
    assert_eq!(code, 0);
    assert!(out.contains("0.67x to 0.73x  within uncertainty"), "{out}");
}

#[test]
fn json_holds_the_ratio_and_its_range() {
    let (_dir, base, new) = sides(0.7, 1.0);
    let (code, out, _) = compare(&["--json", &base, &new]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schema"], "diskdash.compare/1");
    assert_eq!(v["threshold"], 0.9);
    assert_eq!(v["regressed"], 1);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    let iops = rows.iter().find(|r| r["metric"] == "read_iops").unwrap();
    assert!(
        (iops["ratio"].as_f64().unwrap() - 0.7).abs() < 1e-9,
        "{iops}"
    );
    assert!((iops["low"].as_f64().unwrap() - 686.0 / 1020.0).abs() < 1e-9);
    assert!((iops["high"].as_f64().unwrap() - 714.0 / 980.0).abs() < 1e-9);
    assert_eq!(iops["verdict"], "regressed");
    assert_eq!(iops["unit"], "IOPS");
    assert_eq!(iops["base"]["study"], "january");
    assert_eq!(iops["new"]["study"], "june");
    assert_eq!(iops["base"]["runs"], 3);
    assert_eq!(iops["new"]["median"], 700.0);
    assert_eq!(iops["size_gb"], 100.0);
    let p99 = rows
        .iter()
        .find(|r| r["metric"] == "read_clat_p99")
        .unwrap();
    assert_eq!(p99["higher_is_better"], false);
    assert_eq!(p99["verdict"], "ok");
}

#[test]
fn what_one_side_holds_alone_is_listed_not_compared() {
    let (dir, base, new) = sides(1.0, 1.0);
    let mut other = record(
        "gone-1",
        "january",
        "P",
        "slow",
        Some(0.05),
        "ioping-seek",
        1,
        &[("iops", 300.0, "IOPS")],
    );
    other.test.tool = diskdash::record::Tool::Ioping;
    write_record(&dir.path().join("base"), "gone-1.json", &other);
    let (code, out, _) = compare(&[&base, &new]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("\nOnly in base, not compared:\n  P slow · 100 GB\n"),
        "{out}"
    );
    let (_, json, _) = compare(&["--json", &base, &new]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["only_in_base"][0]["configuration"], "P slow · 100 GB");
    assert_eq!(v["only_in_base"][0]["test"], serde_json::Value::Null);
    assert_eq!(v["only_in_new"], serde_json::json!([]));
}

#[test]
fn usage_errors_exit_two_naming_what_was_wrong() {
    let (dir, base, new) = sides(1.0, 1.0);
    let missing = dir.path().join("nowhere");
    let missing = missing.to_str().unwrap();
    let (code, _, err) = compare(&[missing, &new]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        format!("error: BASE `{missing}`: no such directory (expected a directory of records)")
    );
    for bad in ["abc", "0", "-1", "11", "NaN"] {
        let (code, _, err) = compare(&[&format!("--threshold={bad}"), &base, &new]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(
            err.contains(&format!(
                "invalid value '{bad}' for '--threshold <R>': expected a ratio above 0 and at most 10"
            )),
            "{err}"
        );
    }
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let (code, _, err) = compare(&[&base, empty.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("error: NEW: no records found under `"),
        "{err}"
    );
    // records, but no configuration in common
    let elsewhere = dir.path().join("elsewhere");
    let mut r = record(
        "x-1",
        "s",
        "Q",
        "other",
        None,
        "fio-randread-4k-qd64",
        1,
        &[("read_iops", 5.0, "IOPS")],
    );
    r.repetition = 1;
    write_record(&elsewhere, "x-1.json", &r);
    let (code, _, err) = compare(&[&base, elsewhere.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("error: nothing to compare: `")
            && err.contains("hold no configuration, test and judged metric in common"),
        "{err}"
    );
}

#[test]
fn names_from_records_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    for (side, scale) in [("base", 1.0), ("new", 0.5)] {
        let r = record(
            &format!("{side}-1"),
            side,
            "P",
            "evil\u{1b}[31m\u{202e}",
            None,
            "fio-randread-4k-qd64",
            1,
            &[("read_iops", 1000.0 * scale, "IOPS")],
        );
        write_record(&dir.path().join(side), "r.json", &r);
    }
    let base = dir.path().join("base");
    let new = dir.path().join("new");
    let (code, out, err) = compare(&[base.to_str().unwrap(), new.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    for text in [&out, &err] {
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{202e}'),
            "{text}"
        );
        assert!(
            text.contains("P evil\\u{1b}[31m\\u{202e} · 100 GB"),
            "{text}"
        );
    }
    let (_, json, _) = compare(&["--json", base.to_str().unwrap(), new.to_str().unwrap()]);
    assert!(!json.contains('\u{1b}') && !json.contains('\u{202e}'));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["rows"][0]["offering"], "evil\u{1b}[31m\u{202e}");
    assert_eq!(v["rows"][0]["ratio"], 0.5);
}
