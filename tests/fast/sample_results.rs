//! `sample-results/`: the committed records are exactly what the committed
//! published figures give, hold every published number, and pin the values
//! the studies' conclusions rest on.
//!
//! The generator is not in the shipped crate: it is the `transcribe` example
//! (`cargo run --example transcribe`), whose module this test compiles in,
//! together with that module's own unit tests.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use diskdash::record::{self, Record, Source};

#[path = "../../examples/transcribe/figures.rs"]
mod transcribe;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-results")
}

fn figures_csv() -> String {
    std::fs::read_to_string(root().join("published/figures.csv")).unwrap()
}

fn records() -> Vec<Record> {
    transcribe::records_from_figures(&figures_csv()).unwrap()
}

fn by_id(records: &[Record]) -> BTreeMap<&str, &Record> {
    records.iter().map(|r| (r.id.as_str(), r)).collect()
}

fn metric(records: &[Record], id: &str, name: &str) -> (f64, String) {
    let r = by_id(records)
        .get(id)
        .copied()
        .unwrap_or_else(|| panic!("no record `{id}`"));
    let m = r
        .metrics
        .get(name)
        .unwrap_or_else(|| panic!("`{id}` has no metric `{name}`"));
    (m.value, m.unit.to_string())
}

fn assert_close(actual: f64, expected: f64) {
    let rel = ((actual - expected) / expected).abs();
    assert!(
        rel <= 1e-12,
        "{actual} is not {expected} (relative error {rel})"
    );
}

fn figures(r: &Record) -> &[record::PublishedFigure] {
    match &r.source {
        Source::Transcribed { figures, .. } => figures,
        other => panic!("`{}` is not transcribed: {other:?}", r.id),
    }
}

#[test]
fn committed_records_are_exactly_what_the_figures_give() {
    let root = root();
    let mut expected = BTreeSet::new();
    for r in records() {
        let rel = transcribe::record_path(&r);
        let path = root.join(&rel);
        let on_disk = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (run `cargo run --example transcribe`)",
                path.display()
            )
        });
        assert_eq!(
            on_disk,
            diskdash::record::to_json(&r).unwrap(),
            "{} drifted from figures.csv (run `cargo run --example transcribe`)",
            rel.display()
        );
        // and it reads back as the same record
        let back: Record = serde_json::from_str(&on_disk).unwrap();
        assert_eq!(back, r);
        expected.insert(rel);
    }
    let found: BTreeSet<PathBuf> = walkdir::WalkDir::new(&root)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().strip_prefix(&root).unwrap().to_path_buf())
        .filter(|p| !p.starts_with("published"))
        .collect();
    assert_eq!(
        found, expected,
        "stray or missing files under sample-results/"
    );
    assert_eq!(expected.len(), 27);
}

#[test]
fn every_published_row_is_one_metric() {
    let records = records();
    let text = figures_csv();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let mut rows = 0;
    for row in reader.deserialize::<BTreeMap<String, String>>() {
        let row = row.unwrap();
        rows += 1;
        let matches: Vec<(&Record, &record::PublishedFigure)> = records
            .iter()
            .filter(|r| {
                r.subject.study.as_deref() == Some(&row["study"])
                    && r.subject.provider.as_deref() == Some(&row["provider"])
                    && r.subject.offering.as_deref() == Some(&row["offering"])
                    && r.test.tool.name() == row["tool"]
                    && r.test.command.as_deref() == Some(&row["command"])
            })
            .flat_map(|r| figures(r).iter().map(move |f| (r, f)))
            .filter(|(_, f)| {
                f.label == row["metric"] && f.value == row["value"] && f.unit == row["unit"]
            })
            .collect();
        assert_eq!(
            matches.len(),
            1,
            "row {row:?} found {} times",
            matches.len()
        );
        let (r, f) = matches[0];
        assert!(
            r.metrics.contains_key(&f.metric),
            "`{}`: figure {f:?} names a missing metric",
            r.id
        );
        if !row["note"].is_empty() {
            assert!(f.note.as_deref().unwrap().starts_with(&row["note"]));
        }
    }
    assert_eq!(rows, 61);
    // figures and metrics match one to one: no metric without its printed number
    let mut total_figures = 0;
    for r in &records {
        let names: Vec<&str> = figures(r).iter().map(|f| f.metric.as_str()).collect();
        let unique: BTreeSet<&str> = names.iter().copied().collect();
        assert_eq!(
            names.len(),
            unique.len(),
            "`{}` maps two figures to one metric",
            r.id
        );
        let metric_names: BTreeSet<&str> = r.metrics.keys().collect();
        assert_eq!(unique, metric_names, "`{}`", r.id);
        total_figures += names.len();
    }
    // the 61 rows plus the four CPU shares stated in EC2's notes
    assert_eq!(total_figures, 65);
}

#[test]
fn pinned_values() {
    let rs = records();
    let sata = "rackspace-2013.cloud-block-storage-standard-sata.bonnie";
    let ssd = "rackspace-2013.cloud-block-storage-high-performance-ssd.bonnie";
    assert_eq!(
        metric(&rs, sata, "random_seeks"),
        (473.4, "ops/s".to_string())
    );
    assert_eq!(metric(&rs, ssd, "random_seeks"), (1969.0, "ops/s".into()));
    assert_eq!(
        metric(&rs, sata, "seq_block_read_bw"),
        (95981.0 * 1024.0, "B/s".into())
    );
    // the unnamed bonnie++ column is not guessed
    assert_eq!(
        metric(&rs, sata, "seq_write_bw"),
        (16564.0 * 1024.0, "B/s".into())
    );
    assert!(!by_id(&rs)[sata].metrics.contains_key("seq_block_write_bw"));
    assert_eq!(
        metric(
            &rs,
            "linode-2017.local-ssd-1-gb-plan.fio-randread-4k-qd64",
            "read_bw"
        ),
        (272635.0 * 1024.0, "B/s".into())
    );
    let (v, unit) = metric(&rs, "linode-2017.block-storage.ioping-seq-cached", "bw");
    assert_eq!(unit, "B/s");
    assert_close(v, 4.03 * 1073741824.0);
    let (v, unit) = metric(
        &rs,
        "linode-2017.local-ssd-1-gb-plan.ioping-latency",
        "lat_avg",
    );
    assert_eq!(unit, "s");
    assert_close(v, 309.7e-6);
    let (v, unit) = metric(
        &rs,
        "linode-2017.block-storage.dd-write-8k-dsync",
        "write_bw",
    );
    assert_eq!(unit, "B/s");
    assert_close(v, 1.6e6);
    // dd's MB/s is SI
    assert_eq!(
        metric(&rs, "rackspace-2013.local-vm-disk.dd-write-1m", "write_bw"),
        (135e6, "B/s".into())
    );
    // EC2's "~52 MB/s" from bonnie++ is read as binary, and its CPU share kept
    let ec2 = "ec2-m1small.m1-small-instance-storage.bonnie";
    assert_eq!(
        metric(&rs, ec2, "seq_block_write_bw"),
        (52.0 * 1048576.0, "B/s".into())
    );
    assert_eq!(
        metric(&rs, ec2, "seq_block_write_bw_cpu"),
        (6.0, "%".into())
    );
    assert_eq!(metric(&rs, ec2, "seq_stat_cpu"), (39.0, "%".into()));
    let note = figures(by_id(&rs)[ec2])[0].note.clone().unwrap();
    assert!(note.contains("1048576"), "{note}");
}

#[test]
fn test_ids_follow_design() {
    let rs = records();
    let ids: BTreeSet<(&str, &str)> = rs.iter().map(|r| (r.study(), r.test.id.as_str())).collect();
    let expected: BTreeSet<(&str, &str)> = [
        ("ec2-m1small", "bonnie"),
        ("rackspace-2013", "bonnie"),
        ("rackspace-2013", "dd-write-1m"),
        ("linode-2017", "dd-write-128k-fdatasync"),
        ("linode-2017", "dd-write-8k-fdatasync"),
        ("linode-2017", "dd-write-128k-dsync"),
        ("linode-2017", "dd-write-8k-dsync"),
        ("linode-2017", "fio-randread-4k-qd64"),
        ("linode-2017", "fio-randwrite-4k-qd64"),
        ("linode-2017", "ioping-latency"),
        ("linode-2017", "ioping-seek"),
        ("linode-2017", "ioping-seq"),
        ("linode-2017", "ioping-seq-cached"),
    ]
    .into_iter()
    .collect();
    assert_eq!(ids, expected);
}

#[test]
fn prices_are_given_or_absent_never_zero() {
    let rs = records();
    for r in &rs {
        let offering = r.subject.offering.as_deref().unwrap();
        let expected = match offering {
            "Cloud Block Storage Standard (SATA)" => Some(0.15),
            "Cloud Block Storage High-Performance (SSD)" => Some(0.70),
            "Local SSD (1 GB plan)" => Some(0.25),
            "Block Storage" => Some(0.10),
            "Local VM disk" | "m1.small instance storage" => None,
            other => panic!("unexpected offering {other}"),
        };
        match (&r.subject.price, expected) {
            (Some(p), Some(e)) => {
                assert_eq!(p.per_gb_month, e, "`{}`", r.id);
                assert_eq!(p.currency, "USD");
                assert!(p.note.is_some());
                assert!(!r.subject.labels.contains_key("price_note"));
            }
            (None, None) => {
                assert!(r.subject.labels["price_note"].starts_with("included in the"));
            }
            (got, want) => panic!("`{}`: price {got:?}, expected {want:?}", r.id),
        }
    }
}

#[test]
fn ids_are_valid_unique_and_name_the_execution() {
    let rs = records();
    let mut seen = BTreeSet::new();
    for r in &rs {
        assert!(record::is_valid_id(&r.id), "`{}`", r.id);
        assert!(seen.insert(r.id.clone()), "duplicate id `{}`", r.id);
        let offering = record::slug(r.subject.offering.as_deref().unwrap());
        assert_eq!(r.id, format!("{}.{offering}.{}", r.study(), r.test.id));
        assert_eq!(r.run_id.as_deref(), Some(r.study()));
        assert_eq!(r.schema, record::SCHEMA);
        assert_eq!(r.repetition, 1);
        assert!(r.started_at.is_none() && r.duration_s.is_none() && r.raw.is_none());
    }
    let sorted: Vec<&String> = rs.iter().map(|r| &r.id).collect();
    let mut resorted = sorted.clone();
    resorted.sort();
    assert_eq!(sorted, resorted);
}

#[test]
fn setup_facts_are_only_what_the_posts_state() {
    let rs = records();
    let ids = by_id(&rs);
    let sata = ids["rackspace-2013.cloud-block-storage-standard-sata.dd-write-1m"];
    assert_eq!(sata.subject.size_gb, Some(100.0));
    assert_eq!(sata.target.fs_type.as_deref(), Some("xfs"));
    assert_eq!(
        sata.target.mount_options.as_deref(),
        Some("noatime,nodiratime,allocsize=512m")
    );
    assert_eq!(sata.subject.region, None);
    let local_vm = ids["rackspace-2013.local-vm-disk.bonnie"];
    assert_eq!(local_vm.subject.size_gb, None);
    assert_eq!(local_vm.target.fs_type, None);
    let ec2 = ids["ec2-m1small.m1-small-instance-storage.bonnie"];
    assert_eq!(ec2.subject.size_gb, None);
    assert_eq!(ec2.target.device.as_deref(), Some("/dev/sda1"));
    assert!(ec2.host.description.as_deref().unwrap().contains("15 GB"));
    let linode = ids["linode-2017.local-ssd-1-gb-plan.ioping-seek"];
    assert_eq!(linode.host.cpu_model.as_deref(), Some("Xeon E5-2697 v4"));
    assert_eq!(linode.host.cpu_count, Some(1));
    assert_eq!(linode.subject.region.as_deref(), Some("Newark NJ"));
    assert_eq!(linode.subject.size_gb, Some(20.0));
    assert_eq!(linode.target.fs_type.as_deref(), Some("ext4"));
    assert_eq!(linode.host.memory_bytes, None);
    let block = ids["linode-2017.block-storage.ioping-seek"];
    assert_eq!(block.subject.size_gb, Some(20.0));
    assert_eq!(block.target.mount_options, None);
}

#[test]
fn rackspace_answer_is_in_the_numbers() {
    // The README: the SSD volume costs about 4x the SATA one per GB; the post
    // found about 4.2x the random seeks and about 1x the sequential throughput.
    let rs = records();
    let sata = "rackspace-2013.cloud-block-storage-standard-sata.bonnie";
    let ssd = "rackspace-2013.cloud-block-storage-high-performance-ssd.bonnie";
    let seeks = metric(&rs, ssd, "random_seeks").0 / metric(&rs, sata, "random_seeks").0;
    assert!((seeks - 4.159).abs() < 0.001, "{seeks}");
    let reads = metric(&rs, ssd, "seq_block_read_bw").0 / metric(&rs, sata, "seq_block_read_bw").0;
    assert!((reads - 0.99944).abs() < 0.00001, "{reads}");
}

#[test]
fn dd_figures_from_dev_zero_stay_as_published_with_their_caveat() {
    let recs = records();
    let mut dd = 0;
    for r in &recs {
        let zeros = r.test.parameters.get("if").and_then(|v| v.as_str()) == Some("/dev/zero");
        if zeros {
            dd += 1;
            assert_eq!(r.warnings, [diskdash::tools::dd::ZEROS_CAVEAT], "{}", r.id);
            // the published rate itself is kept and still judged
            assert!(r.metrics.get("write_bw").is_some(), "{}", r.id);
        } else {
            assert!(r.warnings.is_empty(), "{}: {:?}", r.id, r.warnings);
        }
    }
    assert_eq!(dd, 11);
}
