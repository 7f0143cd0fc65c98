//! Data exports for posts: `data/summary.csv`, `data/summary.json`,
//! `data/summary.md` and `data/value.csv`.

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use serde::Serialize;

use crate::analysis::value;
use crate::analysis::Analysis;
use crate::metrics::{human_name, metric_order};
use crate::report::format::{self, display_unit};
use crate::report::site::Site;

/// The columns of `data/value.csv` (DESIGN.md).
pub const VALUE_COLUMNS: [&str; 9] = [
    "study",
    "test",
    "metric",
    "offering",
    "baseline",
    "price_ratio",
    "performance_ratio",
    "value_ratio",
    "verdict",
];

/// The columns of `data/summary.csv`.
pub const SUMMARY_COLUMNS: [&str; 15] = [
    "study",
    "provider",
    "offering",
    "test",
    "metric",
    "unit",
    "runs",
    "median",
    "min",
    "max",
    "cv",
    "large_spread",
    "price_per_gb_month",
    "currency",
    "monthly_cost",
];

/// Adds the four data files to `site`.
pub fn add_exports(site: &mut Site, a: &Analysis) -> Result<()> {
    site.add("data/value.csv", value_csv(a)?);
    site.add("data/summary.csv", summary_csv(a)?);
    site.add("data/summary.json", summary_json(a)?);
    site.add("data/summary.md", summary_md(a));
    Ok(())
}

fn opt_ratio(r: Option<f64>) -> String {
    r.map(format::ratio_data).unwrap_or_default()
}

/// `data/value.csv`: one row per study, test, metric and offering, in the
/// order of the value page; ratios with three decimals, empty when unknown.
pub fn value_csv(a: &Analysis) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(VALUE_COLUMNS)?;
    for sv in &a.values {
        for t in &sv.tables {
            let baseline = t
                .baseline_row()
                .map(|r| r.offering.as_str())
                .or(sv.baseline.as_deref())
                .unwrap_or("");
            for r in &t.rows {
                w.write_record(format::csv_row([
                    sv.study.as_str(),
                    t.test.as_str(),
                    t.metric.as_str(),
                    r.offering.as_str(),
                    baseline,
                    &opt_ratio(r.price_ratio),
                    &opt_ratio(r.performance_ratio),
                    &opt_ratio(r.value_ratio),
                    r.verdict.unwrap_or(""),
                ]))?;
            }
        }
    }
    w.into_inner().context("failed to write value.csv")
}

/// `data/summary.csv`: statistics per study, offering, test and metric in
/// canonical units.
pub fn summary_csv(a: &Analysis) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(SUMMARY_COLUMNS)?;
    for sv in &a.values {
        let Some(study) = a.data.studies.get(&sv.study) else {
            continue;
        };
        for o in study.offerings.values() {
            let price = sv.prices.get(&o.name).and_then(Option::as_ref);
            let cost = sv.monthly_costs.get(&o.name).copied().flatten();
            for (test, t) in &o.tests {
                let mut ms: Vec<_> = t.metrics.iter().collect();
                ms.sort_by_key(|(m, _)| metric_order(m));
                for (metric, st) in ms {
                    let s = &st.summary;
                    w.write_record(format::csv_row([
                        sv.study.as_str(),
                        o.provider.as_deref().unwrap_or(""),
                        o.offering.as_deref().unwrap_or(""),
                        test.as_str(),
                        metric.as_str(),
                        st.unit.as_str(),
                        &s.n.to_string(),
                        &format::data(s.median),
                        &format::data(s.min),
                        &format::data(s.max),
                        &s.cv.map(format::data).unwrap_or_default(),
                        if s.large_spread() { "true" } else { "false" },
                        &price
                            .and_then(|p| p.per_gb_month())
                            .map(format::data)
                            .unwrap_or_default(),
                        price.map(|p| p.currency.as_str()).unwrap_or(""),
                        &cost.map(format::data).unwrap_or_default(),
                    ]))?;
                }
            }
        }
    }
    w.into_inner().context("failed to write summary.csv")
}

#[derive(Serialize)]
struct JsonSummary<'a> {
    generator: String,
    studies: Vec<JsonStudy<'a>>,
}

#[derive(Serialize)]
struct JsonStudy<'a> {
    study: &'a str,
    baseline: Option<&'a str>,
    offerings: Vec<JsonOffering<'a>>,
    value: Vec<JsonValue<'a>>,
}

#[derive(Serialize)]
struct JsonOffering<'a> {
    name: &'a str,
    provider: Option<&'a str>,
    offering: Option<&'a str>,
    price_per_gb_month: Option<f64>,
    currency: Option<&'a str>,
    price_note: Option<&'a str>,
    size_gb: Option<f64>,
    monthly_cost: Option<f64>,
    records: usize,
    tests: BTreeMap<&'a str, BTreeMap<&'a str, JsonStat<'a>>>,
}

#[derive(Serialize)]
struct JsonStat<'a> {
    unit: &'a str,
    runs: usize,
    median: f64,
    min: f64,
    max: f64,
    cv: Option<f64>,
    large_spread: bool,
}

#[derive(Serialize)]
struct JsonValue<'a> {
    test: &'a str,
    metric: &'a str,
    offering: &'a str,
    price_ratio: Option<f64>,
    performance_ratio: Option<f64>,
    value_ratio: Option<f64>,
    verdict: Option<&'a str>,
}

/// `data/summary.json`: the statistics and value rows, canonical units.
pub fn summary_json(a: &Analysis) -> Result<Vec<u8>> {
    let mut studies = Vec::new();
    for sv in &a.values {
        let Some(study) = a.data.studies.get(&sv.study) else {
            continue;
        };
        let offerings = study
            .offerings
            .values()
            .map(|o| {
                let price = sv.prices.get(&o.name).and_then(Option::as_ref);
                JsonOffering {
                    name: &o.name,
                    provider: o.provider.as_deref(),
                    offering: o.offering.as_deref(),
                    price_per_gb_month: price.and_then(|p| p.per_gb_month()),
                    currency: price.map(|p| p.currency.as_str()),
                    price_note: price.and_then(|p| p.note.as_deref()),
                    size_gb: o.size_gb,
                    monthly_cost: sv.monthly_costs.get(&o.name).copied().flatten(),
                    records: o.records.len(),
                    tests: o
                        .tests
                        .iter()
                        .map(|(t, r)| {
                            let ms = r
                                .metrics
                                .iter()
                                .map(|(m, st)| {
                                    (
                                        m.as_str(),
                                        JsonStat {
                                            unit: st.unit.as_str(),
                                            runs: st.summary.n,
                                            median: st.summary.median,
                                            min: st.summary.min,
                                            max: st.summary.max,
                                            cv: st.summary.cv,
                                            large_spread: st.summary.large_spread(),
                                        },
                                    )
                                })
                                .collect();
                            (t.as_str(), ms)
                        })
                        .collect(),
                }
            })
            .collect();
        let value = sv
            .tables
            .iter()
            .flat_map(|t| {
                t.rows.iter().map(move |r| JsonValue {
                    test: &t.test,
                    metric: &t.metric,
                    offering: &r.offering,
                    price_ratio: r.price_ratio,
                    performance_ratio: r.performance_ratio,
                    value_ratio: r.value_ratio,
                    verdict: r.verdict,
                })
            })
            .collect();
        studies.push(JsonStudy {
            study: &sv.study,
            baseline: sv.baseline.as_deref(),
            offerings,
            value,
        });
    }
    let doc = JsonSummary {
        generator: format!("diskdash {}", env!("CARGO_PKG_VERSION")),
        studies,
    };
    let mut out = serde_json::to_vec_pretty(&doc).context("failed to write summary.json")?;
    out.push(b'\n');
    Ok(out)
}

/// Escapes text for a Markdown table cell: pipes, HTML markup, and the
/// Markdown punctuation (emphasis, code, links) that a blog engine would
/// otherwise render.
fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '|' | '\\' | '`' | '*' | '_' | '[' | ']' | '~' | '!' | '#' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// `data/summary.md`: per study, a value table of the headline verdicts and
/// a table of medians per test, ready to paste into a post.
pub fn summary_md(a: &Analysis) -> Vec<u8> {
    let mut s = String::new();
    for sv in &a.values {
        s.push_str(&format!("## {}\n\n", md(&sv.study)));
        match &sv.baseline {
            Some(b) => s.push_str(&format!(
                "Baseline: {} ({}).\n\n",
                md(b),
                sv.baseline_reason
            )),
            None => s.push_str("No offering has a price: no ratios.\n\n"),
        }
        let base_price = sv
            .baseline
            .as_ref()
            .and_then(|b| sv.prices.get(b))
            .and_then(Option::as_ref);
        let mut tests: Vec<&str> = sv.tables.iter().map(|t| t.test.as_str()).collect();
        tests.dedup();
        for test in tests {
            s.push_str(&format!("### {}\n\n", md(test)));
            s.push_str("| metric | offering | median | runs | price ratio | performance ratio | verdict |\n");
            s.push_str("|---|---|---:|---:|---:|---:|---|\n");
            for t in sv.tables.iter().filter(|t| t.test == test) {
                let du = display_unit(t.unit, t.rows.iter().map(|r| r.median).fold(0.0, f64::max));
                let human = human_name(&t.metric);
                for r in &t.rows {
                    s.push_str(&format!(
                        "| {} | {} | {} | {} | {} | {} | {} |\n",
                        md(&human),
                        md(&r.offering),
                        format::with_unit(r.median, du),
                        r.runs,
                        r.price_ratio.map(format::ratio).unwrap_or_default(),
                        r.performance_ratio.map(format::ratio).unwrap_or_default(),
                        r.verdict
                            .map(str::to_string)
                            .or_else(|| value::why_no_verdict(r, t, base_price))
                            .unwrap_or_default(),
                    ));
                }
            }
            s.push('\n');
        }
    }
    s.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_cells_render_as_the_text_they_hold() {
        assert_eq!(
            md("**fast** [x](javascript:alert(1)) `c` a|b <i>"),
            "\\*\\*fast\\*\\* \\[x\\](javascript:alert(1)) \\`c\\` a\\|b &lt;i&gt;"
        );
        assert_eq!(md("Local SSD (1 GB plan)"), "Local SSD (1 GB plan)");
        assert_eq!(md("my_metric\\"), "my\\_metric\\\\");
    }
}
