//! How long the pages of a study as large as a real one are: a sustained
//! test's page stays under 1 MB of HTML, and the per-run command variations
//! (54 scratch directories) fold away so that the first chart comes early.
//! The heights in a phone-sized browser are measured in `tests/browser.rs`.

mod report_common;

use std::path::{Path, PathBuf};

use report_common::*;

fn build_real() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    assert_eq!(write_realistic_study(&records), 18 * 16);
    let site = dir.path().join("site");
    build(&records, &site);
    (dir, site)
}

fn read(site: &Path, rel: &str) -> String {
    std::fs::read_to_string(site.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Writes the realistic records to `$DISKDASH_REAL_RECORDS`, to look at
/// the site they make: `cargo test --test report_length -- --ignored`.
#[test]
#[ignore]
fn write_realistic_records() {
    let dir = std::env::var_os("DISKDASH_REAL_RECORDS").expect("set DISKDASH_REAL_RECORDS");
    write_realistic_study(Path::new(&dir));
}
