//! diskdash: run the classic storage benchmarks, keep every result as a
//! self-describing record, and publish price/performance comparisons.
//!
//! The pipeline, one folder or file per stage:
//! `run` (and `import`) → `record` → `ingest` → `analysis` → `report`.

pub mod analysis;
pub mod bounded;
pub mod catalogue;
pub mod check;
pub mod cmd;
pub mod digest;
pub mod error;
pub mod format;
pub mod fsio;
pub mod import;
pub mod ingest;
#[cfg(test)]
mod layering;
pub mod metrics;
pub mod plausible;
pub mod record;
pub mod report;
pub mod run;
pub mod term;
pub mod timeline;
pub mod tools;
pub mod units;
pub mod walk;
