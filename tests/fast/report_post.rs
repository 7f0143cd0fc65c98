//! `data/<study>.md` as a post to paste: the study's title, summary,
//! author and date from its `study.toml` or `--study-title`, front matter
//! for Jekyll and Hugo, a one-configuration study's table of medians; and
//! the index's titles and dates.

use crate::report_common;

use std::path::{Path, PathBuf};

/// `sample-results/` copied to a temporary directory, with `study_toml`
/// (if any) written beside the ec2-m1small records.
fn samples(study_toml: Option<&str>) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let records = tmp.path().join("records");
    copy_dir(&report_common::sample_results(), &records);
    if let Some(text) = study_toml {
        std::fs::write(records.join("ec2-m1small/study.toml"), text).unwrap();
    }
    (tmp, records)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// Builds the site of `records` with `flags`; (ok, the site, stderr).
fn report(records: &Path, flags: &[&str]) -> (bool, PathBuf, String) {
    let site = records.parent().unwrap().join("site");
    let mut args: Vec<&std::ffi::OsStr> =
        vec![records.as_os_str(), "--out".as_ref(), site.as_os_str()];
    args.extend(flags.iter().map(std::ffi::OsStr::new));
    let (ok, _, stderr) = report_common::report(&args);
    (ok, site, stderr)
}

fn read(site: &Path, rel: &str) -> String {
    std::fs::read_to_string(site.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

const STUDY_TOML: &str = r#"study = "ec2-m1small"
title = "EC2 m1.small's disk, 2009"
summary = "What bonnie++ measured on the *instance storage* of an m1.small."
author = "A. Blogger"
date = "2009-07-02"
"#;

#[test]
fn a_study_file_gives_the_post_page_and_index_their_title_summary_author_and_date() {
    let (_tmp, records) = samples(Some(STUDY_TOML));
    let (ok, site, stderr) = report(&records, &["--front-matter"]);
    assert!(ok, "{stderr}");
    let md = read(&site, "data/ec2-m1small.md");
    assert!(
        md.starts_with(
            "---\ntitle: \"EC2 m1.small's disk, 2009\"\ndate: 2009-07-02\n---\n\n# EC2 m1.small's disk, 2009\n\n"
        ),
        "{md}"
    );
    // the summary as text: its asterisks are not emphasis
    assert!(
        md.contains("What bonnie++ measured on the \\*instance storage\\* of an m1.small."),
        "{md}"
    );
    assert!(md.contains("By A. Blogger, 2009-07-02."), "{md}");
    let page = read(&site, "studies/ec2-m1small.html");
    assert!(
        page.contains("Study: EC2 m1.small&#39;s disk, 2009"),
        "{page}"
    );
    let index = read(&site, "index.html");
    assert!(
        index.contains(">EC2 m1.small&#39;s disk, 2009</a></h2>"),
        "{index}"
    );
    // the date it was measured, from the records, and who by
    assert!(
        index.contains(
            "<p class=\"dateline\">Measured <time datetime=\"2009-06\">2009-06</time> · A. Blogger</p>"
        ),
        "{index}"
    );
    // a study without a file keeps its name as its title, and gets its date
    assert!(index.contains(">rackspace-2013</a></h2>"), "{index}");
    assert!(index.contains("Measured <time datetime=\"2013-01\">2013-01</time>"));
}

#[test]
fn study_title_overrides_the_study_file_and_front_matter_quotes_it_for_yaml() {
    let (_tmp, records) = samples(Some(STUDY_TOML));
    let (ok, site, stderr) = report(
        &records,
        &[
            "--front-matter",
            "--study-title",
            r#"ec2-m1small=The "small" one: \o/ <script>alert(1)</script>"#,
            "--study-title",
            "linode-2017=Linode, 2017",
        ],
    );
    assert!(ok, "{stderr}");
    let md = read(&site, "data/ec2-m1small.md");
    // YAML: a double-quoted string, its quotes and backslash escaped
    assert!(
        md.starts_with(
            "---\ntitle: \"The \\\"small\\\" one: \\\\o/ <script>alert(1)</script>\"\ndate: 2009-07-02\n---\n"
        ),
        "{md}"
    );
    // Markdown: the markup is text
    assert!(
        md.contains("\n# The \"small\" one: \\\\o/ &lt;script&gt;alert(1)&lt;/script&gt;\n"),
        "{md}"
    );
    assert!(!md.contains("\n# EC2"), "{md}");
    let index = read(&site, "index.html");
    assert!(!index.contains("<script>alert"), "{index}");
    assert!(index.contains(">Linode, 2017</a></h2>"), "{index}");
    // without a study file's date, the front matter's is the newest
    // measurement's where that is a whole day, else none
    let linode = read(&site, "data/linode-2017.md");
    assert!(
        linode.starts_with("---\ntitle: \"Linode, 2017\"\n---\n\n# Linode, 2017\n"),
        "{linode}"
    );
    // without --front-matter, none
    let (_tmp2, records2) = samples(None);
    let (ok, site2, _) = report(&records2, &[]);
    assert!(ok);
    assert!(read(&site2, "data/ec2-m1small.md").starts_with("# ec2-m1small\n\n"));
}

#[test]
fn a_bad_study_file_or_title_flag_is_an_error_naming_it() {
    let (_tmp, records) = samples(Some("study = \"ec2-m1small\"\ntitel = \"typo\"\n"));
    let (ok, _, stderr) = report(&records, &[]);
    assert!(!ok);
    assert!(stderr.contains("study file `"), "{stderr}");
    assert!(
        stderr.contains("ec2-m1small/study.toml`: unknown field `titel`"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    let (_tmp, records) = samples(None);
    let (ok, _, stderr) = report(&records, &["--study-title", "no equals sign"]);
    assert!(!ok);
    assert!(
        stderr.contains("--study-title `no equals sign`: expected SLUG=TITLE"),
        "{stderr}"
    );
    // a study no record names is said, and the site is still built
    let (ok, _, stderr) = report(&records, &["--study-title", "ec2-m1smal=Typo"]);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains(
            "warning: study `ec2-m1smal` of a study file or --study-title is in no record"
        ),
        "{stderr}"
    );
}

#[test]
fn a_one_configuration_study_s_post_has_a_table_of_its_medians() {
    let (_tmp, records) = samples(None);
    let (ok, site, stderr) = report(&records, &[]);
    assert!(ok, "{stderr}");
    let md = read(&site, "data/ec2-m1small.md");
    assert!(
        md.contains("Measured on AWS EC2 m1.small instance storage, the median over its runs:"),
        "{md}"
    );
    assert!(md.contains("| test | metric | median | runs |\n"), "{md}");
    // bonnie++'s judged figures of the transcribed post, not its CPU use
    assert!(
        md.contains("| bonnie | random seeks | 940 ops/s | 1 |"),
        "{md}"
    );
    assert!(
        md.contains("| bonnie | sequential block read | 67.1 MB/s | 1 |"),
        "{md}"
    );
    assert!(!md.contains("CPU"), "{md}");
}
