//! The value answer end to end: configurations judged on what they cost with
//! a long-format price list, and only storage metrics judged for records
//! that `run` and `import` make of every tool.

use crate::report_common;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::AtomicUsize;

use assert_cmd::Command;
use clap::Parser;
use diskdash::cmd::{Cli, Command as Sub};
use diskdash::metrics::TestKind;
use diskdash::record::{Pattern, Record, Tool};
use diskdash::run::exec::ReplayExecutor;
use diskdash::timeline;
use report_common::*;

/// `data/value.csv` as maps from column name to cell.
fn value_csv(site: &Path) -> Vec<BTreeMap<String, String>> {
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

const PRICES: &str = "\
provider,offering,currency,as_of,source,component,price,from,to,included
AWS,gp3,USD,2026-11-01,AWS price list,capacity,0.08,,,
AWS,gp3,USD,2026-11-01,AWS price list,iops,0.005,,,3000
AWS,gp3,USD,2026-11-01,AWS price list,throughput,0.04,,,125
AWS,io2,USD,2026-11-01,AWS price list,capacity,0.125,,,
AWS,io2,USD,2026-11-01,AWS price list,iops,0.065,0,32000,
AWS,io2,USD,2026-11-01,AWS price list,iops,0.0455,32000,64000,
AWS,io2,USD,2026-11-01,AWS price list,iops,0.032,64000,,
Azure,Premium SSD,USD,2026-11-01,Azure price list,capacity_tier,19.71,0,128,
Azure,Premium SSD,USD,2026-11-01,Azure price list,capacity_tier,38.02,128,256,
Azure,Premium SSD,USD,2026-11-01,Azure price list,capacity_tier,73.22,256,512,
";

#[test]
fn io2_is_judged_on_its_monthly_bill_and_gp3_sizes_are_two_configurations() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    // (provider, offering, size, provisioned IOPS, MB/s, measured read IOPS)
    let configs = [
        ("AWS", "gp3", 100.0, Some(3000), Some(125), 3000.0),
        ("AWS", "gp3", 500.0, Some(6000), Some(250), 6000.0),
        ("AWS", "io2", 100.0, Some(40000), None, 40000.0),
        ("Azure", "Premium SSD", 200.0, None, None, 2300.0),
    ];
    for (i, (provider, offering, size, iops, mbps, measured)) in configs.into_iter().enumerate() {
        for rep in 1..=3 {
            let mut r = record(
                &format!("c{i}-r{rep}"),
                "cloud",
                provider,
                offering,
                None,
                "fio-randread-4k-qd64",
                rep,
                &[
                    // a little spread over the repetitions
                    ("read_iops", measured * (0.99 + 0.01 * rep as f64), "IOPS"),
                    ("read_bw", measured * 4096.0, "B/s"),
                ],
            );
            r.subject.size_gb = Some(size);
            r.subject.labels.clear();
            if let Some(v) = iops {
                r.subject
                    .labels
                    .insert("provisioned_iops".into(), v.to_string());
            }
            if let Some(v) = mbps {
                r.subject
                    .labels
                    .insert("provisioned_mbps".into(), v.to_string());
            }
            write_record(&input, &format!("c{i}-r{rep}.json"), &r);
        }
    }
    let prices = dir.path().join("prices.csv");
    std::fs::write(&prices, PRICES).unwrap();
    let site = dir.path().join("site");
    let (ok, stdout, stderr) = report(&[
        input.as_os_str(),
        "--out".as_ref(),
        site.as_os_str(),
        "--prices".as_ref(),
        prices.as_os_str(),
    ]);
    assert!(ok, "{stdout}{stderr}");
    let rows = value_csv(&site);
    // only the judged metric: read_bw of a 4 KiB random-read job is not
    assert!(rows.iter().all(|r| r["metric"] == "read_iops"), "{rows:?}");
    assert_eq!(rows.len(), 4);
    // `provider offering @size`
    let row = |name: &str| {
        rows.iter()
            .find(|r| format!("{} {} @{}", r["provider"], r["offering"], r["size_gb"]) == name)
            .unwrap_or_else(|| panic!("no row {name}"))
    };
    // the baseline is the cheapest monthly bill: gp3 at 100 GB, 8.00 USD
    let base = row("AWS gp3 @100");
    assert_eq!(base["monthly_cost"], "8.00");
    assert_eq!(base["verdict"], "baseline");
    assert_eq!(base["baseline"], "AWS gp3 · 100 GB");
    // gp3 at 500 GB: 40 + 15 + 5 = 60.00, 7.5x the bill for 2x the IOPS
    let big = row("AWS gp3 @500");
    assert_eq!(big["monthly_cost"], "60.00");
    assert_eq!(big["provisioned_iops"], "6000");
    assert_eq!(
        (big["price_basis"].as_str(), big["price_ratio"].as_str()),
        ("monthly", "7.500")
    );
    assert_eq!(big["per_gb_ratio"], "1.000");
    assert_eq!(big["performance_ratio"], "2.000");
    assert_eq!(big["value_ratio"], "0.267");
    assert_eq!(big["verdict"], "no");
    // io2 at 40000 IOPS: 12.50 + 2080 + 364 = 2456.50 a month, 307x the
    // baseline's bill (1.6x its price per GB) for 13.3x the IOPS
    let io2 = row("AWS io2 @100");
    assert_eq!(io2["monthly_cost"], "2456.50");
    assert_eq!(io2["price_ratio"], "307.062");
    assert_eq!(io2["per_gb_ratio"], "1.562");
    assert_eq!(io2["performance_ratio"], "13.333");
    assert_eq!(io2["value_ratio"], "0.043");
    assert_eq!(io2["verdict"], "no");
    assert!(!io2["value_ratio_low"].is_empty() && !io2["value_ratio_high"].is_empty());
    // Azure's 200 GB disk bills the (128, 256] tier: 38.02 a month
    let azure = row("Azure Premium SSD @200");
    assert_eq!(azure["monthly_cost"], "38.02");
    assert_eq!(azure["price_ratio"], "4.753");
    assert_eq!(azure["per_gb_ratio"], "");
    // the index says it with the basis, never "6.0x the price ... worth it"
    let value = std::fs::read_to_string(site.join("value.html")).unwrap();
    assert!(
        value.contains("<td class=\"num\">307.1x <span class=\"muted\">monthly</span></td>"),
        "{value}"
    );
    let study = std::fs::read_to_string(site.join("studies/cloud.html")).unwrap();
    assert!(study.contains("<td>2,456.50 USD</td>"), "{study}");
    assert!(study.contains(
        "AWS io2 · 100 GB · 40,000 IOPS: 307.1x the monthly cost: 13.3x the read IOPS (no)"
    ));
}

#[test]
fn a_configuration_without_its_provisioned_iops_says_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    for (i, (offering, iops)) in [("gp3", Some(3000)), ("io2", None)].into_iter().enumerate() {
        let mut r = record(
            &format!("m{i}"),
            "cloud",
            "AWS",
            offering,
            None,
            "fio-randread-4k-qd64",
            1,
            &[("read_iops", 3000.0, "IOPS")],
        );
        r.subject.labels.clear();
        if let Some(v) = iops {
            r.subject
                .labels
                .insert("provisioned_iops".into(), v.to_string());
        }
        write_record(&input, &format!("m{i}.json"), &r);
    }
    let prices = dir.path().join("prices.csv");
    std::fs::write(&prices, PRICES).unwrap();
    let site = dir.path().join("site");
    let (ok, _, stderr) = report(&[
        input.as_os_str(),
        "--out".as_ref(),
        site.as_os_str(),
        "--prices".as_ref(),
        prices.as_os_str(),
    ]);
    assert!(ok, "{stderr}");
    let value = std::fs::read_to_string(site.join("value.html")).unwrap();
    assert!(
        value.contains("provisioned IOPS unknown: billed per provisioned IOPS, none included; give --provisioned-iops N: not compared"),
        "{value}"
    );
    let study = std::fs::read_to_string(site.join("studies/cloud.html")).unwrap();
    assert!(
        study.contains("unknown (provisioned IOPS unknown: billed per provisioned IOPS, none included; give --provisioned-iops N)"),
        "{study}"
    );
}

/// The quick suite through the replay executor: records as `run` makes them.
fn run_records(out: &Path) {
    let target = tempfile::tempdir().unwrap();
    let argv = [
        "diskdash",
        "run",
        "--target",
        target.path().to_str().unwrap(),
        "--suite",
        "quick",
        "--out",
        out.to_str().unwrap(),
        "--study",
        "judged",
        "--provider",
        "local",
        "--offering",
        "disk",
        "--size-gb",
        "100",
        "--price-per-gb-month",
        "0.1",
    ];
    let Sub::Run(args) = Cli::try_parse_from(argv).unwrap().command else {
        panic!("not a run");
    };
    let mut ex = ReplayExecutor::new()
        .load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/replay"))
        .unwrap()
        .version_of(Tool::Dd, "coreutils 9.1")
        .version_of(Tool::Fio, "3.33")
        .version_of(Tool::Ioping, "1.3");
    let code = diskdash::cmd::run::run_with(&args, &mut ex, &AtomicUsize::new(0)).unwrap();
    assert_eq!(code, 0);
}

#[test]
fn bookkeeping_is_never_judged_for_run_and_import_records_of_every_tool() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    run_records(&records);
    // the same tools' output imported, as a second configuration
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let files = [
        "fio/randread-4k-qd64.json",
        "fio/read-1m-qd1-j2.json",
        "fio/randrw-4k-qd16.txt",
        "dd/gnu91-write-128k-fdatasync.txt",
        "ioping/ioping13-c5.txt",
        "ioping/ioping13-R.txt",
        "ioping/ioping13-RL.txt",
        "ioping/ioping13-RLC.txt",
        "bonnie/2.00a-quiet.csv",
    ];
    let mut import = Command::cargo_bin("diskdash").unwrap();
    import.args([
        "import",
        "--study",
        "judged",
        "--provider",
        "other",
        "--offering",
        "disk",
        "--size-gb",
        "100",
        "--price-per-gb-month",
        "0.2",
        "--out",
    ]);
    import.arg(&records);
    for f in files {
        import.arg(fixtures.join(f));
    }
    import.assert().success();
    let site = dir.path().join("site");
    build(&records, &site);
    let rows = value_csv(&site);
    let judged: BTreeMap<&str, &[&str]> = BTreeMap::from([
        (
            "bonnie",
            &[
                "seq_block_write_bw",
                "seq_block_read_bw",
                "rewrite_bw",
                "random_seeks",
                "seq_create",
                "random_create",
            ][..],
        ),
        ("dd", &["write_bw", "read_bw"][..]),
        (
            "fio-rand",
            &["read_iops", "write_iops", "read_clat_p99", "write_clat_p99"][..],
        ),
        ("fio-seq", &["read_bw", "write_bw"][..]),
        // the sustained random reads and writes: judged on what lasts
        // alone, not on the whole run that mixes the burst in, nor on the
        // steady-state flag
        (
            "fio-sustained",
            &["read_iops_sustained", "write_iops_sustained"][..],
        ),
        ("ioping-latency", &["lat_avg"][..]),
        ("ioping-seek", &["iops"][..]),
        ("ioping-seq", &["bw"][..]),
    ]);
    let family = |test: &str| -> &str {
        if test.starts_with("bonnie") {
            "bonnie"
        } else if test.starts_with("dd") {
            "dd"
        } else if test.starts_with("fio-sustained") {
            "fio-sustained"
        } else if test.starts_with("fio-rand") {
            "fio-rand"
        } else if test.starts_with("fio") {
            "fio-seq"
        } else if test == "ioping-seq-cached" {
            "cached"
        } else if test.starts_with("ioping-seq") {
            "ioping-seq"
        } else if test.starts_with("ioping-seek") {
            "ioping-seek"
        } else {
            "ioping-latency"
        }
    };
    let mut seen = std::collections::BTreeSet::new();
    for r in &rows {
        let (test, metric) = (r["test"].as_str(), r["metric"].as_str());
        let allowed = judged.get(family(test)).copied().unwrap_or(&[]);
        assert!(
            allowed.contains(&metric),
            "{test} {metric} is judged but is not a storage metric"
        );
        seen.insert((family(test).to_string(), metric.to_string()));
    }
    // every tool has judged rows, from both configurations
    for f in [
        "bonnie",
        "dd",
        "fio-rand",
        "fio-seq",
        "fio-sustained",
        "ioping-latency",
        "ioping-seek",
        "ioping-seq",
    ] {
        assert!(
            seen.iter().any(|(g, _)| g == f),
            "no judged row for {f}: {seen:?}"
        );
    }
    assert!(rows
        .iter()
        .any(|r| r["offering"] == "disk" && r["provider"] == "other"));
    // run and imported records are tests of their own (one names its suite)
    let page = |prefix: &str| {
        let file = std::fs::read_dir(site.join("tests/judged"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
            .unwrap_or_else(|| panic!("no test page {prefix}*"));
        std::fs::read_to_string(file).unwrap()
    };
    // ioping's cached test is shown with the reason and never judged
    assert!(rows
        .iter()
        .all(|r| !r["test"].starts_with("ioping-seq-cached")));
    let cached = page("ioping-seq-cached-quick");
    assert!(
        cached.contains("measures the machine&#39;s memory, not the storage"),
        "{cached}"
    );
    // quick's bonnie++ (a 64 MiB file on a machine with GiBs of memory)
    // is a test of its own, shown with why and never judged
    assert!(rows.iter().all(|r| !r["test"].starts_with("bonnie (quick")));
    let quick = page("bonnie-quick-");
    assert!(
        quick.contains("Not judged: bonnie++ used a 64 MiB file on a machine with"),
        "{quick}"
    );
    // and bookkeeping stays on the test pages
    let bonnie = page("bonnie-suite-not-recorded-");
    assert!(bonnie.contains("(seq_block_write_bw_cpu, %"), "{bonnie}");
    assert!(bonnie.contains("shown, not judged"));
}

/// A record of the sustained random-read test with the timeline `iops`
/// (per second), classified as `run` classifies it; `None`: imported
/// without logs, so no timeline.
fn sustained_record(id: &str, offering: &str, price: f64, iops: Option<Vec<f64>>) -> Record {
    let whole_run = iops
        .as_ref()
        .map(|v| v.iter().sum::<f64>() / v.len() as f64)
        .unwrap_or(900.0);
    let mut r = record(
        id,
        "burst",
        "AWS",
        offering,
        Some(price),
        "fio-sustained-randread-4k-qd32",
        1,
        &[
            ("read_iops", whole_run, "IOPS"),
            ("read_bw", whole_run * 4096.0, "B/s"),
            ("read_clat_p99", 0.002, "s"),
        ],
    );
    if let Some(iops) = iops {
        let mut tl = read_timeline(iops);
        let found = timeline::classify(&mut tl, TestKind::BlockIo);
        r.metrics.extend(found);
        r.timeline = Some(Box::new(tl));
    }
    r
}

#[test]
fn a_bursting_volume_is_judged_on_what_lasts_and_its_burst_is_said_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    // ten minutes each: gp2 at 4x the flat volume's monthly cost gives
    // 3,000 IOPS for five minutes, then the flat volume's 300
    let flat = vec![300.0; 600];
    let gp2: Vec<f64> = (0..600)
        .map(|i| if i < 300 { 3000.0 } else { 300.0 })
        .collect();
    // still climbing at the end: no sustained level yet
    let climbing: Vec<f64> = (0..600).map(|i| 300.0 + i as f64).collect();
    let records = [
        sustained_record("a-flat", "flat", 0.025, Some(flat)),
        sustained_record("b-gp2", "gp2", 0.10, Some(gp2)),
        sustained_record("c-climbing", "climbing", 0.05, Some(climbing)),
        sustained_record("d-imported", "imported", 0.05, None),
    ];
    assert_eq!(
        records[1].timeline.as_ref().unwrap().pattern,
        Some(Pattern::CreditBurst)
    );
    assert_eq!(
        records[1].metrics.get("read_iops_burst").unwrap().value,
        3000.0
    );
    assert_eq!(
        records[1].metrics.get("read_iops_sustained").unwrap().value,
        300.0
    );
    assert_eq!(
        records[2].timeline.as_ref().unwrap().pattern,
        Some(Pattern::NotExhausted)
    );
    for r in &records {
        write_record(&input, &format!("{}.json", r.id), r);
    }
    let site = dir.path().join("site");
    build(&input, &site);

    // value.csv keeps its 23 columns (19, then the exchange rate's four);
    // the test's only table is what lasts
    let text = std::fs::read_to_string(site.join("data/value.csv")).unwrap();
    assert_eq!(text.lines().next().unwrap().split(',').count(), 23);
    let rows = value_csv(&site);
    let metrics: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r["metric"].as_str()).collect();
    assert_eq!(
        metrics.into_iter().collect::<Vec<_>>(),
        ["read_iops_sustained"]
    );
    let row = |offering: &str| rows.iter().find(|r| r["offering"] == offering).unwrap();
    let gp2 = row("gp2");
    assert_eq!(gp2["price_ratio"], "4.000");
    assert_eq!(gp2["performance_ratio"], "1.000");
    assert_eq!(gp2["value_ratio"], "0.250");
    assert_eq!(gp2["verdict"], "no, single run");
    assert_eq!(
        row("climbing")["verdict"].split(", ").last(),
        Some("sustained level not reached")
    );
    // imported without logs: no sustained level, no row
    assert!(rows.iter().all(|r| r["offering"] != "imported"));

    // the study says the burst beside the verdict
    let answer = "10.0x the read IOPS while credits last, 1.0x after (no, single run)";
    let study = std::fs::read_to_string(site.join("studies/burst.html")).unwrap();
    assert!(
        study.contains(&format!("AWS gp2: 4.0x the monthly cost: {answer}")),
        "{study}"
    );
    assert!(
        study.contains("burst 3,000 while credits last: 10.0x, value 2.50"),
        "{study}"
    );
    assert!(study.contains("no timeline: not compared"), "{study}");
    // the headline, on the index and in the post, judges gp2 on what
    // lasts and names its burst after
    let headline = "the dearest, AWS gp2, costs 4.0x the monthly cost of AWS flat for 1.0x its sustained read IOPS (no, single run), after 10.0x while credits last; 1 more not judged: AWS imported (no timeline).";
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains(headline), "{index}");
    let md = std::fs::read_to_string(site.join("data/burst.md")).unwrap();
    assert!(md.contains(headline), "{md}");
    assert!(
        md.contains("| AWS gp2 | 10.00 USD | 300 · 1.0x · no, single run |"),
        "{md}"
    );
    assert!(md.contains("no timeline: not compared"), "{md}");

    let value = std::fs::read_to_string(site.join("value.html")).unwrap();
    assert!(
        value.contains("<td>3,000 IOPS while credits last: 10.0x, value 2.500</td>"),
        "{value}"
    );
    assert!(
        value.contains("<td>reached (range 0.0%, slope 0.0%)</td>"),
        "{value}"
    );
    assert!(
        value.contains("<td>no timeline: not compared</td>"),
        "{value}"
    );
    assert!(!value.contains("fio-sustained-randread-4k-qd32: read IOPS <"));

    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(site.join("data/summary.json")).unwrap()).unwrap();
    let v = json["studies"][0]["value"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["offering"] == "AWS gp2")
        .unwrap();
    assert_eq!(v["burst"]["pattern"], "credit-burst");
    assert_eq!(v["burst"]["level"], 3000.0);
    assert_eq!(v["burst"]["value_ratio"], 2.5);
    assert_eq!(v["steady_state"]["reached_runs"], 1);

    // the whole run is shown on the test page, not judged
    let test =
        std::fs::read_to_string(site.join("tests/burst/fio-sustained-randread-4k-qd32.html"))
            .unwrap();
    assert!(
        test.contains("(read_iops, IOPS, higher is better; shown, not judged)"),
        "{test}"
    );
    assert!(
        test.contains("(read_iops_sustained, IOPS, higher is better; judged)"),
        "{test}"
    );
}

#[test]
fn value_csv_from_the_extremes_of_every_plausible_range_holds_no_inf_or_nan() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    // (offering, price per GB-month, size GB, read IOPS, p99 latency s):
    // the smallest and largest values `check` accepts, and one between
    let configs = [
        ("cheap", 1e-6, 1e-6, 1e-7, 1e7),
        ("dear", 1e7, 1e7, 1e9, 1e-10),
        ("mid", 0.1, 100.0, 3000.0, 0.001),
    ];
    for (offering, price, size, iops, p99) in configs {
        for rep in 1..=2 {
            let mut r = record(
                &format!("{offering}-r{rep}"),
                "edge",
                "P",
                offering,
                Some(price),
                "fio-randread-4k-qd64",
                rep,
                &[("read_iops", iops, "IOPS"), ("read_clat_p99", p99, "s")],
            );
            r.subject.size_gb = Some(size);
            write_record(&input, &format!("{offering}-r{rep}.json"), &r);
        }
    }
    let site = dir.path().join("site");
    let (ok, _, stderr) = report(&[input.as_os_str(), "--out".as_ref(), site.as_os_str()]);
    assert!(ok, "{stderr}");
    let text = std::fs::read_to_string(site.join("data/value.csv")).unwrap();
    let lower = text.to_lowercase();
    assert!(!lower.contains("inf") && !lower.contains("nan"), "{text}");
    let rows = value_csv(&site);
    assert_eq!(rows.len(), 6, "{text}");
    for row in &rows {
        for (column, cell) in row {
            if let Ok(v) = cell.parse::<f64>() {
                assert!(v.is_finite() && cell.len() < 64, "{column} = {cell}");
            }
        }
    }
    // the ratios are there, finite: the cheapest is the baseline
    let dear = rows
        .iter()
        .find(|r| r["offering"] == "dear" && r["metric"] == "read_iops")
        .unwrap();
    assert!(dear["baseline"].starts_with("P cheap"), "{dear:?}");
    assert!(!dear["price_ratio"].is_empty(), "{dear:?}");
    assert_eq!(dear["monthly_cost"], "100000000000000.00");
}
