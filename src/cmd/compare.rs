//! `diskdash compare BASE NEW`: two directories of records compared
//! configuration by configuration ([`crate::analysis::compare`]), printed
//! as a table or as JSON; exit 1 when a ratio fell below the threshold
//! beyond its uncertainty, so that a CI job can gate on it.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context, Result};
use clap::Args;
use serde::Serialize;

use crate::analysis::compare::{self, Comparison, Row, Side, Unmatched, Verdict};
use crate::analysis::limits::Limits;
use crate::analysis::stats::Dataset;
use crate::error::usage;
use crate::format;
use crate::term::{shown, shown_line};

#[derive(Args, Debug, Clone)]
pub struct CompareArgs {
    /// Directory (or file) of the records to compare against.
    #[arg(value_name = "BASE")]
    pub base: PathBuf,
    /// Directory (or file) of the records compared.
    #[arg(value_name = "NEW")]
    pub new: PathBuf,
    /// The lowest ratio new/base (above 1 is better) that is not a
    /// regression; a ratio whose whole range is below it exits 1.
    #[arg(long, value_name = "R", default_value = "0.9", value_parser = threshold)]
    pub threshold: f64,
    /// Print the comparison as JSON (shape in docs/compare.md) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Published performance limits (CSV), as `report --limits` takes them:
    /// they tell the runs left out of a sustained level.
    #[arg(long, value_name = "FILE")]
    pub limits: Option<PathBuf>,
    /// Leave the built-in catalogue's limits out.
    #[arg(long)]
    pub no_catalogue: bool,
}

/// `--threshold`: a number in (0, 10].
fn threshold(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 10.0 => Ok(v),
        _ => Err("expected a ratio above 0 and at most 10, such as 0.9".to_string()),
    }
}

/// The records under `path` grouped as a site groups them; `which` names
/// the side (`BASE`, `NEW`) in errors.
fn load(which: &str, path: &Path, limits: &Limits) -> Result<Dataset> {
    if !path.exists() {
        return Err(usage(anyhow!(
            "{which} `{}`: no such directory (expected a directory of records)",
            path.display()
        )));
    }
    let loaded = crate::ingest::load_with(&[path.to_path_buf()], false)?;
    let mut problems = loaded.problems;
    problems.extend(loaded.unreadable);
    problems.sort();
    for p in &problems {
        crate::tell!("left out: {}", shown(crate::check::problem_line(p)));
    }
    if loaded.records.is_empty() {
        return Err(usage(anyhow!(
            "{which}: no records found under `{}` (expected *.json or *.jsonl written by \
             `diskdash run` or `diskdash import`)",
            path.display()
        )));
    }
    Ok(compare::dataset(
        loaded.records.iter().map(|f| &f.summary),
        limits,
    ))
}

/// Runs the command; returns 1 when a ratio regressed, else 0.
pub fn execute(args: &CompareArgs) -> Result<u8> {
    let limits = match &args.limits {
        Some(p) => Limits::load(p)?,
        None => Limits::default(),
    };
    let limits = if args.no_catalogue {
        limits
    } else {
        limits.with_catalogue(crate::catalogue::limits()?, &super::build_day()?)
    };
    let base = load("BASE", &args.base, &limits)?;
    let new = load("NEW", &args.new, &limits)?;
    let side = |which: &str, path: &Path, data| {
        Side::of(data)
            .with_context(|| format!("{which} `{}`", path.display()))
            .map_err(usage)
    };
    let c = compare::compare(
        &side("BASE", &args.base, &base)?,
        &side("NEW", &args.new, &new)?,
        args.threshold,
    );
    if c.rows.is_empty() {
        return Err(usage(anyhow!(
            "nothing to compare: `{}` and `{}` hold no configuration, test and judged metric \
             in common",
            args.base.display(),
            args.new.display()
        )));
    }
    if args.json {
        let text = serde_json::to_string_pretty(&Json::of(&c, &args.base, &args.new))
            .context("failed to write the comparison as JSON")?;
        // a line at a time: serde_json escapes the newlines within strings,
        // and `term::json` what would act on a terminal
        for line in text.lines() {
            crate::say!("{}", shown(crate::term::json(line)));
        }
    } else {
        print_table(&c);
    }
    let mut status = 0;
    for r in c.regressed() {
        crate::tell!(
            "regressed: {}, {}, {}: {} ({}), below the threshold of {}",
            shown_line(&r.configuration),
            shown_line(&r.test),
            shown_line(&r.metric),
            shown(ratio_text(r.ratio)),
            shown(range_text(r)),
            shown(format::ratio_to(c.threshold, 2))
        );
        status = 1;
    }
    Ok(status)
}

fn ratio_text(r: Option<f64>) -> String {
    r.map_or_else(|| "no ratio".to_string(), |r| format::ratio_to(r, 2))
}

/// The ratio's range as the table says it: `0.67x to 0.73x`, `single run`.
fn range_text(r: &Row) -> String {
    match r.range {
        Some((lo, hi)) => format!("{} to {}", format::ratio_to(lo, 2), format::ratio_to(hi, 2)),
        None if r.single_run() => "single run".to_string(),
        None => "-".to_string(),
    }
}

/// What one side holds alone, as a line: `P x · 100 GB, fio-randread, read_clat_p99`.
fn unmatched_text(u: &Unmatched) -> String {
    [Some(&u.configuration), u.test.as_ref(), u.metric.as_ref()]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The comparison as a table, what was not compared, and a summary line.
fn print_table(c: &Comparison) {
    let mut rows = vec![[
        "configuration",
        "test",
        "metric",
        "base",
        "new",
        "ratio",
        "range",
        "verdict",
    ]
    .map(str::to_string)];
    for r in &c.rows {
        rows.push([
            r.configuration.clone(),
            r.test.clone(),
            r.metric.clone(),
            format::value(r.base.summary.median, r.unit),
            format::value(r.new.summary.median, r.unit),
            ratio_text(r.ratio),
            range_text(r),
            r.verdict.words().to_string(),
        ]);
    }
    let widths: Vec<usize> = (0..8)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    for r in &rows {
        let mut line = String::new();
        for (cell, w) in r.iter().zip(&widths) {
            line.push_str(cell);
            line.extend(std::iter::repeat_n(' ', w + 2 - cell.chars().count()));
        }
        crate::say!("{}", shown_line(line.trim_end()));
    }
    for (side, list) in [("base", &c.only_in_base), ("new", &c.only_in_new)] {
        if !list.is_empty() {
            crate::say!("");
            crate::say!("Only in {}, not compared:", side);
            for u in list {
                crate::say!("  {}", shown_line(unmatched_text(u)));
            }
        }
    }
    let count = |v: Verdict| c.rows.iter().filter(|r| r.verdict == v).count();
    crate::say!("");
    crate::say!(
        "compare: {} compared at a threshold of {}: {} regressed, {} within uncertainty, {} ok",
        shown(format::count_of(c.rows.len(), "metric", "metrics")),
        shown(format::ratio_to(c.threshold, 2)),
        count(Verdict::Regressed),
        count(Verdict::WithinUncertainty),
        count(Verdict::Ok)
    );
}

/// `compare --json`: the shape docs/compare.md documents
/// (`diskdash.compare/1`).
#[derive(Serialize)]
struct Json<'a> {
    schema: &'static str,
    base: String,
    new: String,
    threshold: f64,
    regressed: usize,
    rows: Vec<JsonRow<'a>>,
    only_in_base: Vec<JsonUnmatched<'a>>,
    only_in_new: Vec<JsonUnmatched<'a>>,
}

#[derive(Serialize)]
struct JsonUnmatched<'a> {
    configuration: &'a str,
    test: Option<&'a str>,
    metric: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonRow<'a> {
    configuration: &'a str,
    provider: Option<&'a str>,
    offering: Option<&'a str>,
    size_gb: Option<f64>,
    provisioned_iops: Option<f64>,
    provisioned_mbps: Option<f64>,
    test: &'a str,
    metric: &'a str,
    unit: &'static str,
    higher_is_better: bool,
    base: JsonSide<'a>,
    new: JsonSide<'a>,
    ratio: Option<f64>,
    low: Option<f64>,
    high: Option<f64>,
    verdict: &'static str,
}

#[derive(Serialize)]
struct JsonSide<'a> {
    study: &'a str,
    runs: usize,
    median: f64,
    min: f64,
    max: f64,
    cv: Option<f64>,
}

impl<'a> Json<'a> {
    fn of(c: &'a Comparison, base: &Path, new: &Path) -> Json<'a> {
        let unmatched = |u: &'a Unmatched| JsonUnmatched {
            configuration: &u.configuration,
            test: u.test.as_deref(),
            metric: u.metric.as_deref(),
        };
        let side = |f: &'a compare::Figures| JsonSide {
            study: &f.study,
            runs: f.summary.n,
            median: f.summary.median,
            min: f.summary.min,
            max: f.summary.max,
            cv: f.summary.cv,
        };
        Json {
            schema: "diskdash.compare/1",
            base: base.display().to_string(),
            new: new.display().to_string(),
            threshold: c.threshold,
            regressed: c.regressed().count(),
            rows: c
                .rows
                .iter()
                .map(|r| JsonRow {
                    configuration: &r.configuration,
                    provider: r.provider.as_deref(),
                    offering: r.offering.as_deref(),
                    size_gb: r.size_gb,
                    provisioned_iops: r.provisioned_iops,
                    provisioned_mbps: r.provisioned_mbps,
                    test: &r.test,
                    metric: &r.metric,
                    unit: r.unit.as_str(),
                    higher_is_better: r.higher_is_better,
                    base: side(&r.base),
                    new: side(&r.new),
                    ratio: r.ratio,
                    low: r.range.map(|(lo, _)| lo),
                    high: r.range.map(|(_, hi)| hi),
                    verdict: r.verdict.words(),
                })
                .collect(),
            only_in_base: c.only_in_base.iter().map(unmatched).collect(),
            only_in_new: c.only_in_new.iter().map(unmatched).collect(),
        }
    }
}
