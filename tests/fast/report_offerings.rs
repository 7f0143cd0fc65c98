//! Offerings as sold, typed as a publisher types them: a volume named
//! without provisioned figures is priced and promised at what its price
//! includes and says so; one bought with more is held to its own figures;
//! plans priced by the month in the short price list are judged like
//! volumes. Records come from `diskdash import` with the flags a user gives.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use diskdash::record::Record;

use crate::report_common::{report, timeline, timeline_record, write_record};

/// fio's JSON of a 4 KiB random read at queue depth 64 (83,142 IOPS).
const FIO_JSON: &str = "tests/fixtures/fio/randread-4k-qd64.json";

fn diskdash() -> Command {
    Command::cargo_bin("diskdash").unwrap()
}

/// `diskdash import FILE --out OUT ARGS..`; panics with stderr on failure.
fn import(file: &Path, out: &Path, args: &[&str]) {
    let o = diskdash()
        .arg("import")
        .arg(file)
        .arg("--out")
        .arg(out)
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The fio JSON fixture with its read IOPS replaced by `iops`, written
/// under `dir`: plans that measure differently.
fn fio_at(dir: &Path, iops: f64) -> PathBuf {
    let text = std::fs::read_to_string(FIO_JSON).unwrap();
    let changed = text.replace("\"iops\" : 83142.428786", &format!("\"iops\" : {iops:.6}"));
    assert_ne!(changed, text, "the fixture's IOPS line moved");
    let path = dir.join(format!("fio-{iops}.json"));
    std::fs::write(&path, changed).unwrap();
    path
}

fn records_under(dir: &Path) -> Vec<Record> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| serde_json::from_slice(&std::fs::read(e.path()).unwrap()).unwrap())
        .collect()
}

/// Builds the site of `input` with `extra` arguments; panics on failure.
fn site_of(dir: &Path, input: &Path, extra: &[&str]) -> PathBuf {
    let site = dir.join("site");
    let mut args: Vec<&std::ffi::OsStr> =
        vec![input.as_os_str(), "--out".as_ref(), site.as_os_str()];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    let (ok, stdout, stderr) = report(&args);
    assert!(ok, "{stdout}{stderr}");
    site
}

/// The configurations of `study` in `data/summary.json`, by name.
fn offerings(site: &Path, study: &str) -> std::collections::BTreeMap<String, serde_json::Value> {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(site.join("data/summary.json")).unwrap())
            .unwrap();
    let study = json["studies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["study"] == study)
        .unwrap_or_else(|| panic!("no study {study}"));
    study["offerings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["name"].as_str().unwrap().to_string(), o.clone()))
        .collect()
}

/// `data/value.csv` rows as (configuration name as the baseline column
/// spells it is not in the row, so: provider offering @size iops) cells.
fn value_rows(site: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(site.join("data/value.csv")).unwrap();
    let headers: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    r.records()
        .map(|rec| {
            headers
                .iter()
                .cloned()
                .zip(rec.unwrap().iter().map(str::to_string))
                .collect()
        })
        .collect()
}

const INCLUDED: &str =
    "3,000 IOPS and 125 MiB/s included; --provisioned-iops, --provisioned-mbps if you bought more";

#[test]
fn gp3_as_typed_costs_8_usd_at_its_included_level_and_16000_iops_cost_88_usd() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("records");
    // each measured at its own level, as each volume would be
    let fio = |iops: f64| fio_at(dir.path(), iops);
    let study = ["--study", "as-typed"];
    let gp3 = ["--provider", "AWS", "--offering", "gp3", "--size-gb", "100"];
    import(
        &fio(3000.0),
        &input.join("plain"),
        &[&study[..], &gp3[..]].concat(),
    );
    import(
        &fio(16000.0),
        &input.join("bought"),
        &[
            &study[..],
            &gp3[..],
            &["--provisioned-iops", "16000", "--provisioned-mbps", "500"],
        ]
        .concat(),
    );
    import(
        &fio(500.0),
        &input.join("hdd"),
        &[
            &study[..],
            &[
                "--provider",
                "Azure",
                "--offering",
                "Standard HDD",
                "--size-gb",
                "32",
            ],
        ]
        .concat(),
    );
    // io2 typed without its IOPS: priced by the catalogue, but no bill,
    // and import says so as it writes the record
    let o = diskdash()
        .arg("import")
        .arg(fio(40000.0))
        .arg("--out")
        .arg(input.join("io2"))
        .args(study)
        .args(["--provider", "AWS", "--offering", "io2", "--size-gb", "100"])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("warning: AWS io2: provisioned IOPS unknown: billed per provisioned IOPS, none included; give --provisioned-iops N"));
    // the catalogue's list prices, as a publisher who gives none gets them
    let site = site_of(dir.path(), &input, &[]);
    let o = offerings(&site, "as-typed");
    let plain = "AWS gp3 · 100 GB · 3,000 IOPS · 125 MiB/s";
    let bought = "AWS gp3 · 100 GB · 16,000 IOPS · 500 MiB/s";
    let hdd = "Azure Standard HDD · 32 GB";
    let io2 = "AWS io2 · 100 GB";
    assert_eq!(
        o.keys().map(String::as_str).collect::<Vec<_>>(),
        [bought, plain, io2, hdd]
    );
    // 100 × 0.08, at the included 3,000 IOPS and 125 MB/s, and said
    assert_eq!(o[plain]["monthly_cost"], 8.0);
    assert_eq!(o[plain]["monthly_cost_note"], INCLUDED);
    // 8.00 + 13,000 × 0.005 + 375 × 0.04, nothing assumed
    assert_eq!(o[bought]["monthly_cost"], 88.0);
    assert_eq!(o[bought]["provisioned_iops"], 16000.0);
    assert_eq!(o[bought]["monthly_cost_note"], serde_json::Value::Null);
    assert_eq!(o[hdd]["monthly_cost"], 1.54);
    // io2 cannot be priced without its IOPS: the reason names the flag
    assert_eq!(o[io2]["monthly_cost"], serde_json::Value::Null);
    assert_eq!(
        o[io2]["monthly_cost_missing"],
        "provisioned IOPS unknown: billed per provisioned IOPS, none included; give --provisioned-iops N"
    );
    // the cheapest a month is the baseline, and each bill is its ratio
    let rows = value_rows(&site);
    let row = |offering: &str, iops: &str| {
        rows.iter()
            .find(|r| r["offering"] == offering && r["provisioned_iops"] == iops)
            .unwrap_or_else(|| panic!("no row {offering} {iops}: {rows:?}"))
    };
    assert_eq!(row("Standard HDD", "")["verdict"], "baseline");
    assert_eq!(row("gp3", "")["baseline"], hdd);
    assert_eq!(row("gp3", "")["monthly_cost"], "8.00");
    // 8.00 / 1.54 and 88.00 / 1.54
    assert_eq!(row("gp3", "")["price_ratio"], "5.195");
    assert_eq!(row("gp3", "16000")["monthly_cost"], "88.00");
    assert_eq!(row("gp3", "16000")["price_ratio"], "57.143");
    // io2 is not judged, and says why, naming the flag; it does not turn
    // the study's basis to price per GB
    assert_eq!(row("io2", "")["price_ratio"], "");
    assert_eq!(row("io2", "")["verdict"], "");
    assert_eq!(row("gp3", "")["price_basis"], "monthly");
    let value_page = std::fs::read_to_string(site.join("value.html")).unwrap();
    assert!(
        value_page.contains("provisioned IOPS unknown: billed per provisioned IOPS, none included; give --provisioned-iops N: not compared"),
        "{value_page}"
    );
    // every page that shows the price says what it includes
    let page = std::fs::read_to_string(site.join("studies/as-typed.html")).unwrap();
    assert!(page.contains(&format!("8.00 USD ({INCLUDED})")), "{page}");
    assert!(page.contains("<td>88.00 USD</td>"), "{page}");
    let value = std::fs::read_to_string(site.join("value.html")).unwrap();
    assert!(value.contains(&format!("8.00 USD ({INCLUDED})")), "{value}");
    let md = std::fs::read_to_string(site.join("data/as-typed.md")).unwrap();
    // the cost in the post's table, what it assumes said under it
    assert!(
        md.contains("| AWS gp3 · 100 GB · 3,000 IOPS · 125 MiB/s | 8.00 USD |"),
        "{md}"
    );
    assert!(
        md.contains(&format!(
            "AWS gp3 · 100 GB · 3,000 IOPS · 125 MiB/s: {INCLUDED}"
        )),
        "{md}"
    );
    // the cost vs performance chart, drawn at that cost, says it too
    let chart = std::fs::read_to_string(site.join("charts/as-typed/overview.svg")).unwrap();
    assert!(chart.contains(&format!("{plain}: {INCLUDED}.")), "{chart}");
    let csv = std::fs::read_to_string(site.join("data/summary.csv")).unwrap();
    assert!(csv.contains(&format!("; {INCLUDED}")), "{csv}");
    let offering_pages: Vec<String> = walkdir::WalkDir::new(site.join("offerings"))
        .into_iter()
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
        .filter(|p| p.contains("8.00 USD"))
        .collect();
    assert!(
        offering_pages.iter().any(|p| p.contains(INCLUDED)),
        "no configuration page says what 8.00 USD includes"
    );
}

#[test]
fn the_flags_write_the_labels_the_label_flag_writes() {
    let dir = tempfile::tempdir().unwrap();
    let fio = Path::new(FIO_JSON);
    let gp3 = ["--provider", "AWS", "--offering", "gp3", "--size-gb", "100"];
    import(
        fio,
        &dir.path().join("flags"),
        &[
            &gp3[..],
            &["--provisioned-iops", "16000", "--provisioned-mbps", "500"],
        ]
        .concat(),
    );
    import(
        fio,
        &dir.path().join("labels"),
        &[
            &gp3[..],
            &[
                "--label",
                "provisioned_iops=16000",
                "--label",
                "provisioned_mbps=500",
            ],
        ]
        .concat(),
    );
    let flags = records_under(&dir.path().join("flags"));
    let labels = records_under(&dir.path().join("labels"));
    assert_eq!(flags.len(), 1);
    assert_eq!(flags[0].subject, labels[0].subject);
    assert_eq!(flags[0].subject.labels["provisioned_iops"], "16000");
    assert_eq!(flags[0].subject.labels["provisioned_mbps"], "500");
    // both, disagreeing: refused, both named, nothing written
    let out = dir.path().join("both");
    let o = diskdash()
        .arg("import")
        .arg(fio)
        .arg("--out")
        .arg(&out)
        .args(gp3)
        .args([
            "--provisioned-iops",
            "16000",
            "--label",
            "provisioned_iops=3000",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains(
            "--provisioned-iops 16000 and --label provisioned_iops=3000 disagree (give one of them)"
        ),
        "{stderr}"
    );
    assert!(!out.exists(), "nothing written");
    // not a number: clap says so, naming the flag
    let o = diskdash()
        .args(["import", FIO_JSON, "--out"])
        .arg(&out)
        .args(["--provisioned-iops", "lots"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--provisioned-iops"));
}

#[test]
fn a_provisioned_gp3_is_held_to_its_own_16000_iops_never_the_included_3000() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    // flat, as gp3 is: the included 3,000, and 16,000 bought
    for (id, iops, labels) in [
        ("p.gp3", 3000.0, &[][..]),
        (
            "b.gp3",
            16000.0,
            &[("provisioned_iops", "16000"), ("provisioned_mbps", "500")][..],
        ),
    ] {
        let mut r = timeline_record(id, "AWS", "gp3", timeline(iops, 600, iops));
        let s = &mut r.subject;
        s.size_gb = Some(100.0);
        s.price = None;
        s.labels = labels
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        write_record(&input, &format!("{id}.json"), &r);
    }
    let site = site_of(dir.path(), &input, &[]);
    let study = std::fs::read_to_string(site.join("studies/bursts.html")).unwrap();
    assert!(study.contains("16,000 / 16,000 IOPS (100%)"), "{study}");
    assert!(study.contains("3,000 / 3,000 IOPS (100%)"), "{study}");
    assert!(!study.contains("/ 3,000 IOPS (533%)"), "{study}");
    assert!(
        study.contains("16,000 IOPS and 500 MiB/s as provisioned; the rest promised as of"),
        "{study}"
    );
    // the timeline's caption on the test page, the same
    let test_page = walkdir::WalkDir::new(site.join("tests"))
        .into_iter()
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
        .find(|p| p.contains("Measured / promised"))
        .expect("a test page with a timeline caption");
    assert!(
        test_page.contains("Measured / promised: sustained 16,000 / 16,000 IOPS (100%)"),
        "{test_page}"
    );
    assert!(!test_page.contains("16,000 / 3,000"), "{test_page}");
}

#[test]
fn the_dry_run_watches_a_provisioned_volume_against_its_own_figures() {
    let o = diskdash()
        .args(["run", "--dry-run", "--suite", "standard"])
        .args(["--provider", "AWS", "--offering", "io2", "--size-gb", "100"])
        .args(["--provisioned-iops", "40000"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        stdout.contains("burst limits: AWS io2, 40,000 IOPS as provisioned, no burst"),
        "{stdout}"
    );
    // without the figure: said before anything runs, naming the flag
    let o = diskdash()
        .args(["run", "--dry-run", "--suite", "quick"])
        .args(["--provider", "AWS", "--offering", "io2", "--size-gb", "100"])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains(
        "warning: AWS io2: provisioned IOPS unknown: billed per provisioned IOPS, none included; give --provisioned-iops N, or `report` cannot price it"
    ));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("burst limits: no row for AWS io2 in the catalogue"),
        "{stdout}"
    );
}

#[test]
fn plans_priced_by_the_month_are_judged_like_volumes() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("records");
    // three VPS plans, each measured once, no size: a plan is not sold per GB
    for (plan, iops) in [("S", 20000.0), ("M", 40000.0), ("L", 60000.0)] {
        let fio = fio_at(dir.path(), iops);
        import(
            &fio,
            &input.join(plan),
            &[
                "--study",
                "plans",
                "--provider",
                "ExampleVPS",
                "--offering",
                plan,
            ],
        );
    }
    let prices = dir.path().join("prices.csv");
    std::fs::write(
        &prices,
        "provider,offering,per_gb_month,monthly,currency,as_of,source\n\
         ExampleVPS,S,,4.00,USD,2026-12,plan page\n\
         ExampleVPS,M,,8.00,USD,2026-12,plan page\n\
         ExampleVPS,L,,16.00,USD,2026-12,plan page\n",
    )
    .unwrap();
    let site = site_of(dir.path(), &input, &["--prices", prices.to_str().unwrap()]);
    let rows = value_rows(&site);
    let row = |plan: &str| {
        rows.iter()
            .find(|r| r["offering"] == plan && r["metric"] == "read_iops")
            .unwrap_or_else(|| panic!("no row {plan}: {rows:?}"))
    };
    assert_eq!(row("S")["verdict"], "baseline");
    // twice the price for twice the IOPS
    assert_eq!(
        (
            row("M")["price_basis"].as_str(),
            row("M")["price_ratio"].as_str(),
            row("M")["performance_ratio"].as_str(),
            row("M")["value_ratio"].as_str(),
        ),
        ("monthly", "2.000", "2.000", "1.000")
    );
    assert_eq!(row("M")["verdict"], "worth it, single run");
    // four times the price for three times the IOPS
    assert_eq!(row("L")["price_ratio"], "4.000");
    assert_eq!(row("L")["performance_ratio"], "3.000");
    assert_eq!(row("L")["value_ratio"], "0.750");
    assert_eq!(row("L")["verdict"], "not quite, single run");
    assert_eq!(row("L")["monthly_cost"], "16.00");
    let page = std::fs::read_to_string(site.join("studies/plans.html")).unwrap();
    assert!(page.contains("<td>16.00 USD</td>"), "{page}");

    // a row with neither price: the file, the line and the columns named
    std::fs::write(
        &prices,
        "provider,offering,per_gb_month,monthly,currency\n\
         ExampleVPS,S,,4.00,USD\n\
         ExampleVPS,M,,,USD\n",
    )
    .unwrap();
    let (ok, _, stderr) = report(&[
        input.as_os_str(),
        "--out".as_ref(),
        dir.path().join("site2").as_os_str(),
        "--prices".as_ref(),
        prices.as_os_str(),
    ]);
    assert!(!ok);
    assert!(
        stderr.contains(&format!(
            "price list `{}`: line 3: no price for `ExampleVPS M`: give `per_gb_month` (a price per GB-month), `monthly` (a plan's or instance's price per month), or both",
            prices.display()
        )),
        "{stderr}"
    );
}

#[test]
fn yabs_results_of_two_plans_are_judged_on_their_monthly_prices() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("records");
    for (plan, file) in [
        ("S", "v2022-08-15-example.json"),
        ("M", "v2022-08-17-example.json"),
    ] {
        import(
            &Path::new("tests/fixtures/yabs").join(file),
            &input.join(plan),
            &[
                "--study",
                "plans",
                "--provider",
                "ExampleVPS",
                "--offering",
                plan,
            ],
        );
    }
    let prices = dir.path().join("prices.csv");
    std::fs::write(
        &prices,
        "provider,offering,monthly,currency\nExampleVPS,S,5.00,USD\nExampleVPS,M,10.00,USD\n",
    )
    .unwrap();
    let site = site_of(dir.path(), &input, &["--prices", prices.to_str().unwrap()]);
    let rows = value_rows(&site);
    let m = rows
        .iter()
        .find(|r| {
            r["offering"] == "M"
                && r["test"] == "fio-randrw-1m-qd64-j2"
                && r["metric"] == "read_iops"
        })
        .unwrap_or_else(|| panic!("{rows:?}"));
    // twice the plan's price for yabs's 1.05x the 1 MiB read IOPS
    assert_eq!(m["baseline"], "ExampleVPS S");
    assert_eq!(m["price_basis"], "monthly");
    assert_eq!(m["monthly_cost"], "10.00");
    assert_eq!(m["price_ratio"], "2.000");
    assert_eq!(m["performance_ratio"], "1.050");
    assert_eq!(m["value_ratio"], "0.525");
    assert_eq!(m["verdict"], "not quite, single run");
}
