//! Regenerates `sample-results/` from `sample-results/published/figures.csv`:
//! one pretty-printed JSON record per test execution, at
//! `sample-results/<study>/<offering-slug>/<id>.json`.
//!
//! Run with `cargo run --example transcribe`. Not shipped in the diskdash
//! binary; `tests/sample_results.rs` includes `figures.rs` and checks that
//! the committed records are exactly what it gives.

// a maintainer's tool: it says what it wrote
#![allow(clippy::print_stdout)]

mod figures;

use std::path::Path;

use anyhow::{Context, Result};
use diskdash::fsio;

fn main() -> Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-results");
    let csv_path = root.join("published").join("figures.csv");
    let text = std::fs::read_to_string(&csv_path)
        .with_context(|| format!("failed to read `{}`", csv_path.display()))?;
    let records = figures::records_from_figures(&text)
        .with_context(|| format!("failed to transcribe `{}`", csv_path.display()))?;
    for record in &records {
        let path = root.join(figures::record_path(record));
        fsio::write_atomic(&path, diskdash::record::to_json(record)?.as_bytes())?;
    }
    println!("wrote {} records under {}", records.len(), root.display());
    Ok(())
}
