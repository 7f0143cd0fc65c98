//! `diskdash report` end to end: the Rackspace answer, links, escaping,
//! determinism, bad records, prices and the output directory guard.

use crate::report_common;

use std::collections::BTreeSet;
use std::path::Path;

use report_common::*;

/// `data/value.csv` with its header checked, each row projected to the
/// columns these tests read: study, test, metric, configuration (provider
/// and offering), baseline, price ratio, performance ratio, value ratio,
/// verdict, price basis, per-GB ratio, monthly cost, value ratio low, high.
fn value_rows(site: &Path) -> Vec<csv::StringRecord> {
    let mut r = csv::Reader::from_path(site.join("data/value.csv")).unwrap();
    assert_eq!(
        r.headers().unwrap(),
        vec![
            "study",
            "test",
            "metric",
            "provider",
            "offering",
            "size_gb",
            "provisioned_iops",
            "provisioned_mbps",
            "baseline",
            "price_basis",
            "price_ratio",
            "per_gb_ratio",
            "monthly_cost",
            "currency",
            "performance_ratio",
            "value_ratio",
            "value_ratio_low",
            "value_ratio_high",
            "verdict",
            "compared_currency",
            "rate",
            "rate_as_of",
            "converted_monthly_cost"
        ]
    );
    r.records()
        .map(Result::unwrap)
        .map(|c| {
            let name = format!("{} {}", &c[3], &c[4]);
            csv::StringRecord::from(vec![
                &c[0], &c[1], &c[2], &name, &c[8], &c[10], &c[14], &c[15], &c[18], &c[9], &c[11],
                &c[12], &c[16], &c[17],
            ])
        })
        .collect()
}

fn row<'a>(
    rows: &'a [csv::StringRecord],
    study: &str,
    metric: &str,
    offering: &str,
) -> &'a csv::StringRecord {
    rows.iter()
        .find(|r| &r[0] == study && &r[2] == metric && &r[3] == offering)
        .unwrap_or_else(|| panic!("no value row for {study} {metric} {offering}"))
}

#[test]
fn rackspace_answer_is_in_value_csv() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let stdout = build(&sample_results(), &site);
    // 27 runs, 13 tests, 6 configurations, 3 studies, index and value
    assert!(
        stdout.contains("27 records read, 0 left out, 51 pages written"),
        "{stdout}"
    );
    let rows = value_rows(&site);
    let sata = "Rackspace Cloud Block Storage Standard (SATA)";
    let ssd = "Rackspace Cloud Block Storage High-Performance (SSD)";
    // SSD costs 0.70 / 0.15 = 4.667x per GB; random seeks 1969 / 473.4 = 4.159x
    let seeks = row(&rows, "rackspace-2013", "random_seeks", ssd);
    assert_eq!(&seeks[1], "bonnie");
    assert_eq!(&seeks[4], sata);
    assert_eq!(&seeks[5], "4.667");
    assert_eq!(&seeks[6], "4.159");
    assert_eq!(&seeks[7], "0.891");
    assert_eq!(&seeks[8], "nearly worth it, single run");
    assert_eq!((&seeks[9], &seeks[11]), ("monthly", "70.00"));
    // sequential block read: 95927 / 95981 = 0.999x: no
    let read = row(&rows, "rackspace-2013", "seq_block_read_bw", ssd);
    assert_eq!(
        (&read[5], &read[6], &read[8]),
        ("4.667", "0.999", "no, single run")
    );
    // the post's dd wrote 20 GiB without a sync flag on an 8 GB server:
    // twice the memory and more passes through the page cache, so it is
    // judged: 103 / 105 MB/s = 0.981x, no
    let dd = row(&rows, "rackspace-2013", "write_bw", ssd);
    assert_eq!(&dd[1], "dd-write-1m");
    assert_eq!(
        (&dd[5], &dd[6], &dd[8]),
        ("4.667", "0.981", "no, single run")
    );
    let base = row(&rows, "rackspace-2013", "random_seeks", sata);
    assert_eq!((&base[5], &base[8]), ("1.000", "baseline"));
    // the local disk has no price: performance ratio, no price or value ratio
    let local = row(
        &rows,
        "rackspace-2013",
        "random_seeks",
        "Rackspace Local VM disk",
    );
    assert_eq!(
        (&local[5], &local[6], &local[7], &local[8]),
        ("", "1.222", "", "")
    );
    // and the index says both answers in one line, leading with it
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    // and names the local disk it cannot judge, with why and the fix
    let answer = "Rackspace Cloud Block Storage High-Performance (SSD) costs 4.7x the monthly cost of Rackspace Cloud Block Storage Standard (SATA) for 4.2x its random seeks (nearly worth it, single run); 1 more not judged: Rackspace Local VM disk (no price: not in the catalogue; give it with --prices).";
    assert!(index.contains(&format!("<p>Random I/O (random seeks, bonnie): one configuration is dearer than Rackspace Cloud Block Storage Standard (SATA); {answer}</p>")), "{index}");
    // sequential on bonnie++'s block reads, before dd's writes
    let sequential = "Sequential (sequential block read, bonnie): one configuration is dearer than Rackspace Cloud Block Storage Standard (SATA); Rackspace Cloud Block Storage High-Performance (SSD) costs 4.7x the monthly cost of Rackspace Cloud Block Storage Standard (SATA) for 1.0x its sequential block read (no, single run); 1 more not judged: Rackspace Local VM disk (no price: not in the catalogue; give it with --prices).";
    assert!(index.contains(sequential), "{index}");
    // newest measurement first: linode-2017, rackspace-2013, ec2-m1small
    let at = |s: &str| index.find(&format!("studies/{s}.html")).unwrap();
    assert!(at("linode-2017") < at("rackspace-2013") && at("rackspace-2013") < at("ec2-m1small"));
    // the study page: the same answer, the value matrix, a Markdown twin
    let study = std::fs::read_to_string(site.join("studies/rackspace-2013.html")).unwrap();
    assert!(study.contains(answer));
    assert!(study.contains("<table class=\"value-matrix sticky\">"));
    assert!(study.contains("<strong>nearly worth it, single run</strong>"));
    assert!(study.contains("4.2x the random seeks (nearly worth it, single run), 1.0x the sequential block read (no, single run), 0.94x the sequential write (no, single run), 0.98x the write throughput (no, single run)."));
    let md = std::fs::read_to_string(site.join("data/rackspace-2013.md")).unwrap();
    // the post's table: one column per headline dimension, one unit each
    assert!(
        md.contains(
            "| configuration | monthly cost | random seeks (ops/s) | sequential block read (MB/s) |"
        ),
        "{md}"
    );
    assert!(md.contains("| Rackspace Cloud Block Storage High-Performance (SSD) | 70.00 USD | 1,969 · 4.2x · nearly worth it, single run | 98.2 · 1.0x · no, single run |"), "{md}");
}

fn attr_values<'a>(html: &'a str, attr: &str) -> Vec<&'a str> {
    let needle = format!("{attr}=\"");
    html.match_indices(&needle)
        .filter_map(|(i, _)| {
            let rest = &html[i + needle.len()..];
            rest.find('"').map(|end| &rest[..end])
        })
        .collect()
}

/// Checks every href and src of every HTML and SVG file in the site.
fn assert_links_resolve(site: &Path) -> usize {
    let files = tree(site);
    let mut checked = 0;
    for (rel, bytes) in &files {
        if !(rel.ends_with(".html") || rel.ends_with(".svg")) {
            continue;
        }
        let text = String::from_utf8(bytes.clone()).unwrap();
        let stripped = text
            .replace("xmlns=\"http://www.w3.org/2000/svg\"", "")
            .replace("xmlns:xlink=\"http://www.w3.org/1999/xlink\"", "");
        assert!(!stripped.contains("http://"), "{rel} has an absolute URL");
        assert!(!stripped.contains("https://"), "{rel} has an absolute URL");
        assert!(!stripped.contains("//cdn"), "{rel} has a CDN reference");
        let base = Path::new(rel).parent().unwrap_or(Path::new(""));
        for attr in ["href", "src", "xlink:href"] {
            for target in attr_values(&text, attr) {
                assert!(!target.starts_with('/'), "{rel}: absolute path {target}");
                assert!(!target.contains("://"), "{rel}: URL {target}");
                let (path, fragment) = target.split_once('#').unwrap_or((target, ""));
                if path.is_empty() {
                    continue;
                }
                let mut resolved = base.to_path_buf();
                for part in path.split('/') {
                    match part {
                        ".." => assert!(resolved.pop(), "{rel}: {target} leaves the site"),
                        "." => {}
                        p => resolved.push(p),
                    }
                }
                let key = resolved.to_string_lossy().replace('\\', "/");
                let page = files
                    .get(&key)
                    .unwrap_or_else(|| panic!("{rel}: dead link {target}"));
                if !fragment.is_empty() && key.ends_with(".html") {
                    let page = String::from_utf8_lossy(page);
                    assert!(
                        page.contains(&format!("id=\"{fragment}\"")),
                        "{rel}: dead anchor {target}"
                    );
                }
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn every_link_resolves_and_nothing_points_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    build(&sample_results(), &site);
    let checked = assert_links_resolve(&site);
    assert!(checked > 300, "only {checked} links checked");
    assert!(site.join(".nojekyll").is_file());
    assert!(site.join("style.css").is_file());
    let files = tree(&site);
    // one page per record, test and offering, plus index and value
    let runs = files.keys().filter(|k| k.starts_with("runs/")).count();
    assert_eq!(runs, 27);
    assert!(files.contains_key("tests/rackspace-2013/bonnie.html"));
    assert!(files.contains_key("offerings/rackspace-2013/rackspace-local-vm-disk.html"));
    for data in [
        "summary.csv",
        "summary.json",
        "summary.md",
        "value.csv",
        "record.schema.json",
    ] {
        assert!(files.contains_key(&format!("data/{data}")));
    }
}

#[test]
fn the_site_publishes_the_record_schema_that_diskdash_schema_prints() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    build(&sample_results(), &site);
    let published = std::fs::read(site.join("data/record.schema.json")).unwrap();
    let printed = std::process::Command::new(env!("CARGO_BIN_EXE_diskdash"))
        .arg("schema")
        .output()
        .unwrap();
    assert_eq!(published, printed.stdout);
    // and says so where it names its data files, on every page
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains(r#"<a href="data/record.schema.json">record.schema.json</a>"#));
    let run = std::fs::read_dir(site.join("runs"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    let run = std::fs::read_to_string(run.path()).unwrap();
    assert!(run.contains(r#"<a href="../data/record.schema.json">record.schema.json</a>"#));
    let schema: serde_json::Value = serde_json::from_slice(&published).unwrap();
    assert_eq!(schema["title"], "Record");
    assert!(schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f == "subject"));
}

const EVIL: &str = "<script>alert(1)</script>";

#[test]
fn hostile_names_are_escaped_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    // near the 200-character limit of a name (its region adds 7), 380 bytes
    let long = "Ü".repeat(190);
    let names = [
        (EVIL.to_string(), format!("\"quoted\" & 'single' {EVIL}")),
        ("Tom & Jerry's <b>".to_string(), long.clone()),
        (
            "日本のクラウド".to_string(),
            "ストレージ <img src=x onerror=alert(2)>".to_string(),
        ),
    ];
    for (i, (provider, offering)) in names.iter().enumerate() {
        for rep in 1..=2 {
            let r = record(
                &format!("evil-{i}-{rep}"),
                EVIL,
                provider,
                offering,
                Some(0.1 * (i + 1) as f64),
                "fio-randread-4k-qd64",
                rep,
                &[
                    ("read_iops", 1000.0 * (i + rep as usize) as f64, "IOPS"),
                    ("read_clat_p50", 1e-4, "s"),
                    ("read_clat_p99", 1e-3, "s"),
                    ("read_clat_p99_9", 1e-2, "s"),
                ],
            );
            write_record(&input, &format!("r{i}-{rep}.json"), &r);
        }
    }
    let site = dir.path().join("site");
    build(&input, &site);
    let files = tree(&site);
    let mut pages = 0;
    for (rel, bytes) in &files {
        // CSV and JSON are data, where names stay as written; markup is escaped
        if rel.ends_with(".csv") || rel.ends_with(".json") {
            continue;
        }
        let text = String::from_utf8(bytes.clone()).unwrap();
        for raw in [EVIL, "<img src=x", "<b>"] {
            assert!(!text.contains(raw), "{rel} contains raw {raw}");
        }
        // quotes matter inside markup attributes: HTML and SVG
        if !rel.ends_with(".md") {
            assert!(!text.contains("\"quoted\""), "{rel} contains raw quotes");
        }
        if rel.ends_with(".html") {
            pages += 1;
            assert!(!text.contains("<script"), "{rel} has a script tag");
            assert!(
                text.contains("&lt;script&gt;alert(1)&lt;/script&gt;")
                    || text.contains("&#60;script&#62;alert(1)&#60;/script&#62;"),
                "{rel} lacks the escaped study name"
            );
        }
    }
    // index, value, 1 study, 1 test, 3 offerings, 6 runs
    assert_eq!(pages, 13);
    let offering_pages: Vec<&String> = files
        .keys()
        .filter(|k| k.starts_with("offerings/"))
        .collect();
    for p in &offering_pages {
        // file names stay short and plain whatever the offering is called
        assert!(p.len() < 120, "{p}");
        assert!(p.bytes().all(|b| b.is_ascii_graphic()), "{p}");
    }
    let study = files
        .iter()
        .find(|(k, _)| k.starts_with("studies/"))
        .map(|(_, v)| String::from_utf8(v.clone()).unwrap())
        .unwrap();
    assert!(
        study.contains("Tom &amp; Jerry&#39;s &lt;b&gt;")
            || study.contains("Tom &#38; Jerry&#39;s &#60;b&#62;")
    );
    assert!(study.contains(&long), "long non-ASCII name kept whole");
    // the index's answer names the dearest configuration, escaped
    let index = String::from_utf8(files["index.html"].clone()).unwrap();
    assert!(
        index.contains("日本のクラウド ストレージ &lt;img src=x onerror=alert(2)&gt;")
            || index.contains("日本のクラウド ストレージ &#60;img src=x onerror=alert(2)&#62;"),
        "{index}"
    );
    assert_links_resolve(&site);
}

#[test]
fn input_order_does_not_change_a_byte() {
    let dir = tempfile::tempdir().unwrap();
    let sample = tree(&sample_results());
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    let records: Vec<(&String, &Vec<u8>)> = sample
        .iter()
        .filter(|(k, _)| k.ends_with(".json"))
        .collect();
    assert!(records.len() >= 27);
    for (i, (rel, bytes)) in records.iter().enumerate() {
        let pa = a.join(rel);
        std::fs::create_dir_all(pa.parent().unwrap()).unwrap();
        std::fs::write(&pa, bytes).unwrap();
        // the other tree: flat, names that sort in reverse, in two directories
        let pb = b
            .join(if i % 2 == 0 { "z" } else { "y" })
            .join(format!("{:03}.json", 999 - i));
        std::fs::create_dir_all(pb.parent().unwrap()).unwrap();
        std::fs::write(&pb, bytes).unwrap();
    }
    build(&a, &dir.path().join("site-a"));
    build(&b, &dir.path().join("site-b"));
    let ta = tree(&dir.path().join("site-a"));
    let tb = tree(&dir.path().join("site-b"));
    assert_eq!(ta.keys().collect::<Vec<_>>(), tb.keys().collect::<Vec<_>>());
    for (k, v) in &ta {
        assert!(tb[k] == *v, "{k} differs");
    }
    // and a rebuild in place changes nothing
    build(&b, &dir.path().join("site-a"));
    assert_eq!(tree(&dir.path().join("site-a")), ta);
}

#[test]
fn bad_records_are_reported_and_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    let good = record(
        "good-1",
        "s",
        "P",
        "ok",
        Some(0.1),
        "t",
        1,
        &[("read_iops", 100.0, "IOPS")],
    );
    write_record(&input, "good.json", &good);
    let text = serde_json::to_string_pretty(&good).unwrap();
    let bad: Vec<(&str, String)> = vec![
        ("truncated.json", text[..text.len() / 2].to_string()),
        (
            "types.json",
            text.replace("\"repetition\": 1", "\"repetition\": \"one\"")
                .replace("good-1", "types-1"),
        ),
        (
            "nan.json",
            text.replace("100.0", "NaN").replace("good-1", "nan-1"),
        ),
        (
            "negative.json",
            text.replace("100.0", "-100.0")
                .replace("good-1", "negative-1"),
        ),
        (
            "absurd.json",
            text.replace("100.0", "1e300").replace("good-1", "absurd-1"),
        ),
        (
            "schema.json",
            text.replace("diskdash.record/1", "diskdash.record/2")
                .replace("good-1", "schema-1"),
        ),
        ("zz-duplicate.json", text.clone()),
    ];
    for (name, body) in &bad {
        std::fs::write(input.join(name), body).unwrap();
    }
    let site = dir.path().join("site");
    let (ok, stdout, stderr) = report(&[input.as_os_str(), "--out".as_ref(), site.as_os_str()]);
    assert!(ok, "{stderr}");
    for (name, _) in &bad {
        assert!(stderr.contains(name), "{name} not reported: {stderr}");
    }
    assert!(stdout.contains("8 records read, 7 left out"), "{stdout}");
    let runs: BTreeSet<String> = tree(&site)
        .into_keys()
        .filter(|k| k.starts_with("runs/"))
        .collect();
    assert_eq!(runs, BTreeSet::from(["runs/good-1.html".to_string()]));
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        index.contains("schema.json:"),
        "index lists what was left out"
    );
    // --strict: the same input is an error, and nothing is written
    let strict = dir.path().join("strict");
    let (ok, _, stderr) = report(&[
        input.as_os_str(),
        "--out".as_ref(),
        strict.as_os_str(),
        "--strict".as_ref(),
    ]);
    assert!(!ok);
    assert!(stderr.contains("--strict"), "{stderr}");
    assert!(!strict.exists());
}

#[test]
fn price_list_overrides_and_bad_lists_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let prices = dir.path().join("prices.csv");
    std::fs::write(
        &prices,
        "provider,offering,per_gb_month,currency,as_of,source\n\
         Rackspace,Cloud Block Storage High-Performance (SSD),0.30,USD,2014-01,price cut\n",
    )
    .unwrap();
    let site = dir.path().join("site");
    let (ok, _, stderr) = report(&[
        sample_results().as_os_str(),
        "--out".as_ref(),
        site.as_os_str(),
        "--prices".as_ref(),
        prices.as_os_str(),
    ]);
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
    let rows = value_rows(&site);
    let seeks = row(
        &rows,
        "rackspace-2013",
        "random_seeks",
        "Rackspace Cloud Block Storage High-Performance (SSD)",
    );
    // 0.30 / 0.15 = 2x the price for 4.159x the seeks
    assert_eq!((&seeks[5], &seeks[8]), ("2.000", "worth it, single run"));
    let offering =
        std::fs::read_to_string(site.join(
            "offerings/rackspace-2013/rackspace-cloud-block-storage-high-performance-ssd.html",
        ))
        .unwrap();
    assert!(offering.contains("price cut, as of 2014-01"));
    assert!(
        offering.contains("30.00 USD"),
        "monthly cost of 100 GB at 0.30"
    );

    // a row with a typo overrides nothing: the build says so
    std::fs::write(
        &prices,
        "provider,offering,per_gb_month,currency\nRackspace,Cloud Block Storage SSD,0.30,USD\n",
    )
    .unwrap();
    let (ok, _, stderr) = report(&[
        sample_results().as_os_str(),
        "--out".as_ref(),
        dir.path().join("site-typo").as_os_str(),
        "--prices".as_ref(),
        prices.as_os_str(),
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains(
            "warning: price list row `Rackspace,Cloud Block Storage SSD` matches no offering"
        ),
        "{stderr}"
    );

    std::fs::write(
        &prices,
        "provider,offering,per_gb_month,currency\nA,b,0.1,USD\nA,c,free,USD\n",
    )
    .unwrap();
    let (ok, _, stderr) = report(&[
        sample_results().as_os_str(),
        "--out".as_ref(),
        dir.path().join("site2").as_os_str(),
        "--prices".as_ref(),
        prices.as_os_str(),
    ]);
    assert!(!ok);
    assert!(
        stderr.contains("prices.csv") && stderr.contains("line 3"),
        "{stderr}"
    );
}

#[test]
fn refuses_a_directory_it_did_not_write() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("docs");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("essay.md"), "mine").unwrap();
    let (ok, _, stderr) = report(&[
        sample_results().as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert!(!ok);
    assert!(stderr.contains("--force"), "{stderr}");
    assert!(!out.join("index.html").exists());
    let (ok, _, _) = report(&[
        sample_results().as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--force".as_ref(),
    ]);
    assert!(ok);
    assert_eq!(
        std::fs::read_to_string(out.join("essay.md")).unwrap(),
        "mine"
    );
    // a second build into its own site needs no --force
    build(&sample_results(), &out);
}

#[test]
fn a_mistyped_or_empty_records_path_fails_and_leaves_the_published_site_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    build(&sample_results(), &out);
    let before = tree(&out);
    assert!(before.len() > 100, "{}", before.len());
    let junk = dir.path().join("notes");
    std::fs::create_dir(&junk).unwrap();
    std::fs::write(junk.join("todo.json"), "{}").unwrap();
    let typo = dir.path().join("sample-resluts");
    for (inputs, says) in [
        (vec![typo.as_os_str()], "error: records path `"),
        // with a good directory beside it, the typo still stops the build
        (
            vec![sample_results().as_os_str(), typo.as_os_str()],
            "error: records path `",
        ),
        // a directory holding no record, only something else
        (vec![junk.as_os_str()], "error: no valid record under `"),
    ] {
        let mut args = inputs.clone();
        args.extend(["--out".as_ref(), out.as_os_str()]);
        let (ok, _, stderr) = report(&args);
        assert!(!ok, "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
        assert!(stderr.contains("nothing was written to `"), "{stderr}");
        assert!(tree(&out) == before, "the site changed after: {stderr}");
    }
}

#[test]
fn the_index_names_at_most_100_files_left_out_and_counts_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("records");
    std::fs::create_dir(&bad).unwrap();
    for i in 0..150 {
        std::fs::write(bad.join(format!("bad-{i:03}.json")), "{}").unwrap();
    }
    // the good records beside them, in the same directory given
    for e in walkdir::WalkDir::new(sample_results()) {
        let e = e.unwrap();
        if e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "json") {
            std::fs::copy(e.path(), bad.join(e.file_name())).unwrap();
        }
    }
    let out = dir.path().join("site");
    let (ok, _, stderr) = report(&[bad.as_os_str(), "--out".as_ref(), out.as_os_str()]);
    assert!(ok, "{stderr}");
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        index.contains("; 150 left out (listed at the end)."),
        "{index}"
    );
    assert_eq!(index.matches("<li>bad-").count(), 100);
    assert!(index.contains("<li>bad-099.json: "));
    assert!(!index.contains("<li>bad-100.json: "));
    assert!(
        index.contains("<li>and 50 more (`diskdash check` on the records lists every one)</li>")
            || index.contains("<li>and 50 more (<code>"),
        "{index}"
    );
}

#[test]
fn a_study_named_summary_never_takes_the_site_wide_summary() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("records");
    std::fs::create_dir(&input).unwrap();
    let mut n = 0;
    for e in walkdir::WalkDir::new(sample_results()) {
        let e = e.unwrap();
        if !(e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "json")) {
            continue;
        }
        let mut r: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap();
        r["subject"]["study"] = "Summary".into();
        std::fs::write(input.join(e.file_name()), r.to_string()).unwrap();
        n += 1;
    }
    assert!(n > 10);
    let out = dir.path().join("site");
    let (ok, _, stderr) = report(&[input.as_os_str(), "--out".as_ref(), out.as_os_str()]);
    assert!(ok, "{stderr}");
    let site_wide = std::fs::read_to_string(out.join("data/summary.md")).unwrap();
    let post = std::fs::read_to_string(out.join("data/summary-2.md")).unwrap();
    assert_ne!(site_wide, post);
    assert!(out.join("studies/summary-2.html").is_file());
    let study = std::fs::read_to_string(out.join("studies/summary-2.html")).unwrap();
    assert!(
        study.contains("href=\"../data/summary-2.md\""),
        "the study page links another post"
    );
}

#[test]
fn baseline_flag_changes_the_reference() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let (ok, _, stderr) = report(&[
        sample_results().as_os_str(),
        "--out".as_ref(),
        site.as_os_str(),
        "--baseline".as_ref(),
        "rackspace-cloud-block-storage-high-performance-ssd".as_ref(),
    ]);
    assert!(ok, "{stderr}");
    let rows = value_rows(&site);
    let sata = row(
        &rows,
        "rackspace-2013",
        "random_seeks",
        "Rackspace Cloud Block Storage Standard (SATA)",
    );
    assert_eq!(
        &sata[4],
        "Rackspace Cloud Block Storage High-Performance (SSD)"
    );
    assert_eq!((&sata[5], &sata[6]), ("0.214", "0.240"));
    let (ok, _, stderr) = report(&[
        sample_results().as_os_str(),
        "--out".as_ref(),
        dir.path().join("x").as_os_str(),
        "--baseline".as_ref(),
        "nobody".as_ref(),
    ]);
    assert!(!ok);
    assert!(stderr.contains("names no offering"), "{stderr}");
}

#[test]
fn another_currency_is_not_compared_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    let offerings = [
        ("usd", 0.10, "USD", 100.0),
        ("usd2", 0.20, "USD", 250.0),
        ("euro", 0.05, "EUR", 300.0),
    ];
    for (name, price, currency, iops) in offerings {
        let mut r = record(
            &format!("m-{name}"),
            "m",
            "P",
            name,
            Some(price),
            "fio-randread-4k-qd64",
            1,
            &[("read_iops", iops, "IOPS")],
        );
        if let Some(p) = r.subject.price.as_mut() {
            p.currency = currency.to_string();
        }
        write_record(&input, &format!("{name}.json"), &r);
    }
    let site = dir.path().join("site");
    build(&input, &site);
    let rows = value_rows(&site);
    // 0.05 EUR is not cheaper than 0.10 USD: the baseline is the cheapest in USD
    let euro = row(&rows, "m", "read_iops", "P euro");
    assert_eq!(&euro[4], "P usd");
    assert_eq!((&euro[5], &euro[6], &euro[8]), ("", "3.000", ""));
    let usd2 = row(&rows, "m", "read_iops", "P usd2");
    assert_eq!(
        (&usd2[5], &usd2[6], &usd2[8]),
        ("2.000", "2.500", "worth it, single run")
    );
    let value = std::fs::read_to_string(site.join("value.html")).unwrap();
    assert!(
        value.contains("<td>priced in EUR, no EUR→USD rate in --rates: not compared</td>"),
        "the reader is told why the EUR offering has no verdict"
    );
    // per-cost figures: the column is in USD, the EUR row says its currency
    assert!(value.contains("<th>per USD per month</th>"));
    assert!(
        value.contains("<td class=\"num\">60.0 IOPS per EUR</td>"),
        "{value}"
    );
    assert!(value.contains("<td class=\"num\">10.0 IOPS</td>"));
    let md = std::fs::read_to_string(site.join("data/summary.md")).unwrap();
    assert!(
        md.contains("| priced in EUR, no EUR→USD rate in --rates: not compared |"),
        "{md}"
    );
    // the study page lists the EUR offering after the USD ones, not as the cheapest
    let study = std::fs::read_to_string(site.join("studies/m.html")).unwrap();
    let table = &study[study.find("<h2 id=\"configurations\">").unwrap()..];
    let at = |name: &str| table.find(&format!(">{name}</a>")).unwrap();
    assert!(at("P usd") < at("P usd2") && at("P usd2") < at("P euro"));
}

#[test]
fn a_failed_run_on_the_cheapest_does_not_blank_a_test() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    let mut failed = record(
        "f-cheap-fio",
        "f",
        "P",
        "cheap",
        Some(0.1),
        "fio-randread-4k-qd64",
        1,
        &[],
    );
    failed.status = diskdash::record::Status::Failed;
    failed.error = Some("fio: engine libaio not loadable".to_string());
    write_record(&input, "cheap-fio.json", &failed);
    let cheap_dd = record(
        "f-cheap-dd",
        "f",
        "P",
        "cheap",
        Some(0.1),
        "dd-write-bulk",
        1,
        &[("write_bw", 1e8, "B/s")],
    );
    write_record(&input, "cheap-dd.json", &cheap_dd);
    for (name, price, iops) in [("mid", 0.2, 1000.0), ("dear", 0.4, 4000.0)] {
        let r = record(
            &format!("f-{name}"),
            "f",
            "P",
            name,
            Some(price),
            "fio-randread-4k-qd64",
            1,
            &[("read_iops", iops, "IOPS")],
        );
        write_record(&input, &format!("{name}.json"), &r);
    }
    let site = dir.path().join("site");
    build(&input, &site);
    let rows = value_rows(&site);
    let dear = row(&rows, "f", "read_iops", "P dear");
    assert_eq!(&dear[4], "P mid");
    assert_eq!(
        (&dear[5], &dear[6], &dear[8]),
        ("2.000", "4.000", "worth it, single run")
    );
    let value = std::fs::read_to_string(site.join("value.html")).unwrap();
    assert!(
        value.contains("Compared with P mid, the cheapest with a result here: P cheap has none.")
    );
    // the dearer one's ratios against P mid, each in its column
    assert!(value.contains("<td class=\"num\">2.0x <span class=\"muted\">monthly</span></td>"));
    assert!(
        value.contains(
            "<td class=\"num\">4.0x</td><td class=\"num\">2.000</td><td>worth it, single run</td>"
        ),
        "{value}"
    );
    // the failure is part of the answer, with the tool's words, wherever
    // verdicts appear; the index counts it
    let failure = "<li>P cheap: fio-randread-4k-qd64 failed: fio: engine libaio not loadable</li>";
    let study = std::fs::read_to_string(site.join("studies/f.html")).unwrap();
    assert!(study.contains(failure), "{study}");
    assert!(value.contains(failure));
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("1 run failed or was skipped"), "{index}");
    // the test page shows the command once, what differs listed per configuration
    let test = std::fs::read_to_string(site.join("tests/f/fio-randread-4k-qd64.html")).unwrap();
    assert_eq!(test.matches("<pre><code>").count(), 1, "{test}");
    assert!(
        test.contains("<pre><code>fio --name=&#60;varies&#62;</code></pre>"),
        "{test}"
    );
    assert!(test.contains(
        "<details class=\"varies\"><summary>name varies: what each configuration ran</summary>"
    ));
    assert!(
        test.contains("<tr><th>P dear</th><td>dear</td></tr>"),
        "{test}"
    );
}

#[test]
fn symlinks_inside_the_site_lead_no_write_or_removal_outside() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    let victim = dir.path().join("victim");
    std::fs::create_dir(&victim).unwrap();
    std::fs::write(victim.join("victim.txt"), "keep").unwrap();
    build(&sample_results(), &out);
    // an earlier build "wrote" ext/victim.txt, and ext now leads outside
    let marker = out.join(".diskdash-site");
    let listed = std::fs::read_to_string(&marker).unwrap() + "ext/victim.txt\n";
    std::fs::write(&marker, listed).unwrap();
    std::os::unix::fs::symlink("../victim", out.join("ext")).unwrap();
    let (ok, _, stderr) = report(&[
        sample_results().as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert!(!ok, "a symlink inside the site was accepted");
    assert!(stderr.contains("symbolic link inside the site"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(victim.join("victim.txt")).unwrap(),
        "keep"
    );
    // a symlinked runs/ does not receive the run pages
    std::fs::remove_file(out.join("ext")).unwrap();
    std::fs::rename(out.join("runs"), dir.path().join("old-runs")).unwrap();
    std::os::unix::fs::symlink("../victim", out.join("runs")).unwrap();
    let (ok, _, stderr) = report(&[
        sample_results().as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--force".as_ref(),
    ]);
    assert!(!ok);
    assert!(stderr.contains("symbolic link inside the site"), "{stderr}");
    let names: Vec<_> = std::fs::read_dir(&victim)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["victim.txt"]);
}

#[test]
fn names_starting_a_formula_reach_no_csv_as_a_live_formula() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    let study = "=HYPERLINK(\"http://evil.example/\",\"click\")";
    for (i, (provider, offering, price)) in [
        ("+cmd|' /C calc'!A0", "@SUM(1+1)", 0.1),
        ("-2+3", "\tTabbed", 0.2),
    ]
    .iter()
    .enumerate()
    {
        let r = record(
            &format!("f-{i}"),
            study,
            provider,
            offering,
            Some(*price),
            "fio-randread-4k-qd64",
            1,
            &[("read_iops", 1000.0 * (i + 1) as f64, "IOPS")],
        );
        write_record(&input, &format!("r{i}.json"), &r);
    }
    let site = dir.path().join("site");
    build(&input, &site);
    for csv_file in ["data/summary.csv", "data/value.csv"] {
        let mut reader = csv::Reader::from_path(site.join(csv_file)).unwrap();
        let mut cells = 0;
        for row in reader.records() {
            for cell in row.unwrap().iter() {
                cells += 1;
                let live = cell.starts_with(['=', '+', '@', '\t', '\r'])
                    || (cell.starts_with('-') && cell.parse::<f64>().is_err());
                assert!(!live, "{csv_file}: live formula {cell:?}");
            }
        }
        assert!(cells > 0, "{csv_file} is empty");
        let text = std::fs::read_to_string(site.join(csv_file)).unwrap();
        assert!(text.contains("'=HYPERLINK("), "{csv_file}: {text}");
    }
}

#[test]
fn an_out_overlapping_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    let r = record(
        "r1",
        "s",
        "p",
        "o",
        Some(0.1),
        "fio-randread-4k-qd64",
        1,
        &[("read_iops", 1000.0, "IOPS")],
    );
    write_record(&input, "r1.json", &r);
    for out in [input.clone(), input.join("site"), dir.path().to_path_buf()] {
        let (ok, _, stderr) = report(&[
            input.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
            "--force".as_ref(),
        ]);
        assert!(!ok, "{}: accepted", out.display());
        assert!(stderr.contains("overlap"), "{stderr}");
    }
    assert!(!input.join(".diskdash-site").exists());
    assert!(!dir.path().join(".diskdash-site").exists());
}

/// Every site tree under `tests/fixtures/hostile/sites/`, copied (links
/// kept) beside a `victim/` directory: no build deletes or writes there.
#[test]
fn hostile_site_trees_touch_nothing_outside() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile/sites");
    let mut names: Vec<_> = std::fs::read_dir(&fixtures)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["ext-link", "runs-link", "tampered-marker"]);
    for name in names {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().join("site");
        let ok = std::process::Command::new("cp")
            .arg("-a")
            .arg(fixtures.join(&name))
            .arg(&site)
            .status()
            .unwrap()
            .success();
        assert!(ok);
        let victim = dir.path().join("victim");
        std::fs::create_dir(&victim).unwrap();
        std::fs::write(victim.join("victim.txt"), "keep").unwrap();
        let (ok, _, stderr) = report(&[
            sample_results().as_os_str(),
            "--out".as_ref(),
            site.as_os_str(),
        ]);
        let links = name.ends_with("-link");
        assert_eq!(ok, !links, "{name}: {stderr}");
        if links {
            assert!(
                stderr.contains("symbolic link inside the site"),
                "{name}: {stderr}"
            );
        }
        let left: Vec<_> = std::fs::read_dir(&victim)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["victim.txt"], "{name}");
        assert_eq!(
            std::fs::read_to_string(victim.join("victim.txt")).unwrap(),
            "keep"
        );
    }
}

#[test]
fn a_run_page_shows_a_bounded_excerpt_of_long_tool_output() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    let mut r = record(
        "long-1",
        "s",
        "p",
        "o",
        Some(0.1),
        "fio-randread-4k-qd64",
        1,
        &[("read_iops", 1000.0, "IOPS")],
    );
    let long = format!("FIRST-LINE\n{}LAST-LINE\n", "x".repeat(1 << 20));
    r.raw.as_mut().unwrap().stdout = Some(long);
    write_record(&input, "long-1.json", &r);
    let site = dir.path().join("site");
    build(&input, &site);
    let page = walkdir::WalkDir::new(site.join("runs"))
        .into_iter()
        .map(|e| e.unwrap())
        .find(|e| e.file_name().to_string_lossy().starts_with("long-1"))
        .unwrap();
    let html = std::fs::read_to_string(page.path()).unwrap();
    assert!(html.len() < 200 << 10, "run page of {} bytes", html.len());
    assert!(html.contains("FIRST-LINE") && html.contains("LAST-LINE"));
    assert!(html.contains("diskdash left out"), "no cut line");
}

#[test]
fn a_records_warnings_are_shown_escaped_on_its_run_page() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    let mut r = record(
        "warned-1",
        "s",
        "p",
        "o",
        Some(0.1),
        "fio-randread-4k-qd64",
        1,
        &[("read_iops", 1000.0, "IOPS")],
    );
    r.warnings = vec!["timeline not attached: fio log `t_iops.1.log`: an empty fio log <b>".into()];
    write_record(&input, "warned-1.json", &r);
    let site = dir.path().join("site");
    build(&input, &site);
    let page = walkdir::WalkDir::new(site.join("runs"))
        .into_iter()
        .map(|e| e.unwrap())
        .find(|e| e.file_name().to_string_lossy().starts_with("warned-1"))
        .unwrap();
    let html = std::fs::read_to_string(page.path()).unwrap();
    assert!(
        html.contains(
            "Warning: timeline not attached: fio log `t_iops.1.log`: an empty fio log &#60;b&#62;"
        ),
        "no warning on the run page"
    );
}

/// Tool output is text that the run page's template escapes: markup in it,
/// a `</pre>` that would end the block, quotes and `&`, on stdout and
/// stderr alike, show as the tool printed them and never as markup.
#[test]
fn hostile_tool_output_is_escaped_on_the_run_page() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    let mut r = record(
        "out-1",
        "s",
        "p",
        "o",
        Some(0.1),
        "fio-randread-4k-qd64",
        1,
        &[("read_iops", 1000.0, "IOPS")],
    );
    let stdout = "{\"jobname\" : \"<rand'read>\", \"a&b\" : 1}\n</pre><script>alert(1)</script>\n";
    let stderr = "fio: </pre><img src=x onerror=alert(2)> \"x\" & 'y' &amp;\n";
    let raw = r.raw.as_mut().unwrap();
    raw.stdout = Some(stdout.into());
    raw.stderr = Some(stderr.into());
    write_record(&input, "out-1.json", &r);
    let site = dir.path().join("site");
    build(&input, &site);
    let page = walkdir::WalkDir::new(site.join("runs"))
        .into_iter()
        .map(|e| e.unwrap())
        .find(|e| e.file_name().to_string_lossy().starts_with("out-1"))
        .unwrap();
    let html = std::fs::read_to_string(page.path()).unwrap();
    for raw in ["<script", "<img", "<rand", "\"a&b\"", "&amp;\n"] {
        assert!(!html.contains(raw), "run page contains raw {raw}");
    }
    // one block per stream (and the command's), each closed by its own `</pre>`
    assert_eq!(html.matches("<pre class=\"raw\">").count(), 2);
    assert_eq!(
        html.matches("</pre>").count(),
        html.matches("<pre").count(),
        "{html}"
    );
    assert!(
        html.contains(
            "<h3>stdout</h3><pre class=\"raw\">{&#34;jobname&#34; : &#34;&#60;rand&#39;read&#62;&#34;, \
             &#34;a&#38;b&#34; : 1}\n&#60;/pre&#62;&#60;script&#62;alert(1)&#60;/script&#62;\n</pre>"
        ),
        "{html}"
    );
    assert!(
        html.contains(
            "<h3>stderr</h3><pre class=\"raw\">fio: &#60;/pre&#62;&#60;img src=x onerror=alert(2)&#62; \
             &#34;x&#34; &#38; &#39;y&#39; &#38;amp;\n</pre>"
        ),
        "{html}"
    );
}
