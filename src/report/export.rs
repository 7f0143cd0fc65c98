//! Data exports for posts: `data/summary.csv`, `data/summary.json`,
//! `data/summary.md`, `data/value.csv`, and the record's JSON Schema,
//! `data/record.schema.json`.

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use serde::Serialize;

use crate::analysis::value;
use crate::analysis::Analysis;
use crate::format;
use crate::metrics::{human_name, metric_order};
use crate::report::story::Story;

pub mod markdown;
pub(crate) use markdown::md;
use markdown::{Align, Table};

/// The columns of `data/value.csv`. `currency` and `monthly_cost` are the
/// configuration's own; the ratios are in `compared_currency`, the
/// baseline's, into which `rate` (from `--rates`, read on `rate_as_of`)
/// converted a price in another currency (`converted_monthly_cost`).
pub const VALUE_COLUMNS: [&str; 23] = [
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
    "converted_monthly_cost",
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

/// A data file: its path in the site, and how it is made from the analysis.
pub type DataFile = (&'static str, fn(&Analysis) -> Result<Vec<u8>>);

/// The data files: the four tables, and the record's JSON Schema (what
/// `diskdash schema` prints) for those who validate records they
/// contribute. Each is made on its own, so that a build makes them beside
/// its pages; the largest first.
pub const DATA_FILES: [DataFile; 5] = [
    ("data/summary.json", summary_json),
    ("data/summary.csv", summary_csv),
    ("data/value.csv", value_csv),
    ("data/summary.md", |a| Ok(summary_md(a))),
    ("data/record.schema.json", |_| {
        Ok(format!("{}\n", crate::record::json_schema()).into_bytes())
    }),
];

fn opt_ratio(r: Option<f64>) -> String {
    r.map(format::ratio_data).unwrap_or_default()
}

/// The verdict column of a value row: its verdict, or for a short test
/// measured on a burst `while bursting` / `against the baseline's burst`
/// (no verdict is given on a burst); empty without either.
fn csv_verdict(r: &value::ValueRow) -> String {
    match (r.verdict_text(), r.measured) {
        (Some(v), _) => v,
        (None, Some(m)) if !m.keeps_verdict() => m.words().to_string(),
        _ => String::new(),
    }
}

/// `data/value.csv`: one row per study, test, judged metric and
/// configuration, in the order of the value page; ratios with three
/// decimals, costs to cents, empty when unknown.
pub fn value_csv(a: &Analysis) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(VALUE_COLUMNS)?;
    let num = |v: Option<f64>| v.map(format::data).unwrap_or_default();
    for sv in &a.values {
        let Some(study) = a.data.studies.get(&sv.study) else {
            continue;
        };
        for t in &sv.tables {
            let baseline = t
                .baseline_row()
                .map(|r| r.offering.as_str())
                .or(sv.baseline.as_deref())
                .unwrap_or("");
            for r in &t.rows {
                let Some(o) = study.offerings.get(&r.offering) else {
                    continue;
                };
                let (lo, hi) = r.value_range.unzip();
                let conversion = r
                    .rate
                    .and_then(|_| crate::report::story::conversion_of(sv, &r.offering));
                w.write_record(format::csv_row([
                    sv.study.as_str(),
                    t.test.as_str(),
                    t.metric.as_str(),
                    o.provider.as_deref().unwrap_or(""),
                    o.offering.as_deref().unwrap_or(""),
                    &num(o.size_gb),
                    &num(o.provisioned_iops),
                    &num(o.provisioned_mbps),
                    baseline,
                    r.price_basis.map(value::PriceBasis::name).unwrap_or(""),
                    &opt_ratio(r.price_ratio),
                    &opt_ratio(r.per_gb_ratio),
                    &r.monthly_cost
                        .map(|c| format::fixed(c, 2))
                        .unwrap_or_default(),
                    r.price.as_ref().map(|p| p.currency.as_str()).unwrap_or(""),
                    &opt_ratio(r.performance_ratio),
                    &opt_ratio(r.value_ratio),
                    &opt_ratio(lo),
                    &opt_ratio(hi),
                    &csv_verdict(r),
                    // a price compared in the baseline's currency: its own
                    // or converted into it
                    if r.price_ratio.is_some() {
                        sv.currency.as_deref().unwrap_or("")
                    } else {
                        ""
                    },
                    &r.rate.map(format::data).unwrap_or_default(),
                    conversion.map(|c| c.rate.as_of.as_str()).unwrap_or(""),
                    &r.rate
                        .and(r.converted_monthly_cost())
                        .map(|c| format::fixed(c, 2))
                        .unwrap_or_default(),
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
                ms.sort_by_cached_key(|(m, _)| metric_order(m));
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
    /// The study's answer, a sentence each, as the study page leads with it.
    headline: Vec<String>,
    baseline: Option<&'a str>,
    /// The baseline's currency: every ratio compares prices in it.
    currency: Option<&'a str>,
    /// The rates (`--rates`) that converted prices in other currencies.
    exchange_rates: Vec<JsonRate<'a>>,
    /// Priced configurations no ratio could compare, and why (no exchange
    /// rate for their currency).
    excluded: Vec<JsonExcluded<'a>>,
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
    provisioned_iops: Option<f64>,
    provisioned_mbps: Option<f64>,
    monthly_cost: Option<f64>,
    /// The monthly cost in the baseline's currency, for a price converted
    /// at an exchange rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    converted_monthly_cost: Option<f64>,
    /// Why the monthly cost is unknown, for a priced configuration.
    monthly_cost_missing: Option<&'a str>,
    records: usize,
    /// Runs that failed or were skipped.
    failures: Vec<JsonFailure<'a>>,
    tests: BTreeMap<&'a str, BTreeMap<&'a str, JsonStat<'a>>>,
}

#[derive(Serialize)]
struct JsonRate<'a> {
    from: &'a str,
    to: &'a str,
    /// Units of `to` per unit of `from`, as applied.
    rate: f64,
    /// Whether `rate` is the inverse of the file's `to,from` row.
    inverse: bool,
    as_of: &'a str,
    source: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonExcluded<'a> {
    offering: &'a str,
    reason: &'a str,
}

#[derive(Serialize)]
struct JsonFailure<'a> {
    test: &'a str,
    status: &'a str,
    error: &'a str,
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
    price_basis: Option<&'a str>,
    price_ratio: Option<f64>,
    per_gb_ratio: Option<f64>,
    performance_ratio: Option<f64>,
    value_ratio: Option<f64>,
    value_ratio_low: Option<f64>,
    value_ratio_high: Option<f64>,
    verdict: Option<&'a str>,
    /// `while bursting`, `against the baseline's burst`, `burst not
    /// measured`: a short test's figure in a study where something bursts.
    #[serde(skip_serializing_if = "Option::is_none")]
    measured: Option<&'static str>,
    uncertain: bool,
    single_run: bool,
    /// What qualifies a sustained verdict (`steady state not reached`).
    #[serde(skip_serializing_if = "Option::is_none")]
    qualifier: Option<&'a str>,
    /// The burst beside a sustained verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    burst: Option<JsonBurst>,
    /// The steady state of a sustained level.
    #[serde(skip_serializing_if = "Option::is_none")]
    steady_state: Option<JsonSteady>,
}

#[derive(Serialize)]
struct JsonBurst {
    /// The configuration's burst level, canonical unit (its sustained
    /// level when it does not burst).
    level: f64,
    /// `credit-burst` or `periodic-burst`.
    pattern: &'static str,
    /// Whether only the baseline bursts.
    baseline_only: bool,
    performance_ratio: Option<f64>,
    value_ratio: Option<f64>,
}

#[derive(Serialize)]
struct JsonSteady {
    reached_runs: usize,
    runs: usize,
    range_pct: Option<f64>,
    slope_pct: Option<f64>,
    not_exhausted: bool,
    /// The runs left out of the level, in words, where any are.
    #[serde(skip_serializing_if = "Option::is_none")]
    left_out: Option<String>,
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
                    provisioned_iops: o.provisioned_iops,
                    provisioned_mbps: o.provisioned_mbps,
                    monthly_cost: sv.monthly_costs.get(&o.name).copied().flatten(),
                    converted_monthly_cost: crate::report::story::conversion_of(sv, &o.name)
                        .zip(sv.monthly_costs.get(&o.name).copied().flatten())
                        .map(|(c, m)| m * c.factor),
                    monthly_cost_missing: sv.cost_missing.get(&o.name).map(String::as_str),
                    records: o.records.len(),
                    failures: sv
                        .failures
                        .get(&o.name)
                        .into_iter()
                        .flatten()
                        .map(|f| JsonFailure {
                            test: &f.test,
                            status: f.status.name(),
                            error: &f.error,
                        })
                        .collect(),
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
                    price_basis: r.price_basis.map(value::PriceBasis::name),
                    price_ratio: r.price_ratio,
                    per_gb_ratio: r.per_gb_ratio,
                    performance_ratio: r.performance_ratio,
                    value_ratio: r.value_ratio,
                    value_ratio_low: r.value_range.map(|(lo, _)| lo),
                    value_ratio_high: r.value_range.map(|(_, hi)| hi),
                    verdict: r.verdict,
                    measured: r.measured.map(value::Measured::words),
                    uncertain: r.uncertain,
                    single_run: r.single_run,
                    qualifier: r.qualifier.as_deref(),
                    burst: r.burst.as_ref().map(|b| JsonBurst {
                        level: b.level,
                        pattern: b.pattern.name(),
                        baseline_only: b.baseline_only,
                        performance_ratio: b.performance_ratio,
                        value_ratio: b.value_ratio,
                    }),
                    steady_state: r.steady.as_ref().map(|st| JsonSteady {
                        reached_runs: st.reached,
                        runs: st.runs,
                        range_pct: st.range,
                        slope_pct: st.slope,
                        not_exhausted: st.not_exhausted,
                        left_out: st.left_out.clone(),
                    }),
                })
            })
            .collect();
        studies.push(JsonStudy {
            study: &sv.study,
            headline: crate::report::story::headline::headline(sv),
            baseline: sv.baseline.as_deref(),
            currency: sv.currency.as_deref(),
            exchange_rates: sv
                .conversions
                .iter()
                .map(|c| JsonRate {
                    from: &c.from,
                    to: &c.to,
                    rate: c.factor,
                    inverse: c.inverse,
                    as_of: &c.rate.as_of,
                    source: c.rate.source.as_deref(),
                })
                .collect(),
            excluded: sv
                .no_rate
                .iter()
                .map(|(offering, reason)| JsonExcluded { offering, reason })
                .collect(),
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

/// `data/<study>.md`: one study ready to paste into a post: its title, the
/// headline, when and how it was measured, one table of at most six
/// columns (configuration, monthly cost, a column per headline dimension:
/// [`crate::report::story::PostTable`]), the failures, and the charts of
/// `images` (alt text, the chart's path in the site) as `<picture>`s with
/// their dark and narrow twins, linked under `base_url` when given (else relative to
/// `data/`). The burst table follows from the study page.
pub fn study_md(story: &Story, images: &[(String, String)], base_url: Option<&str>) -> Vec<u8> {
    let mut s = format!("# {}\n\n", md(&story.study));
    for (i, line) in story.headline.iter().enumerate() {
        if i == 0 {
            s.push_str(&format!("**{}**\n\n", md(line)));
        } else {
            s.push_str(&format!("{}\n\n", md(line)));
        }
    }
    s.push_str(&format!(
        "Measured {}; {}. Baseline: {}.\n\n",
        md(&story.measured),
        md(&story.sources.join("; ")),
        md(&story.baseline)
    ));
    if !story.rates.is_empty() {
        s.push_str(&format!("{}\n\n", md(&story.rates.join(" "))));
    }
    let post = &story.post;
    if !post.headers.is_empty() {
        let mut table = Table::new(
            [
                ("configuration", Align::Left),
                ("monthly cost", Align::Right),
            ]
            .into_iter()
            .chain(post.headers.iter().map(|h| (h.as_str(), Align::Left))),
        );
        for row in &post.rows {
            table.row(row);
        }
        s.push_str(&table.render());
        s.push_str(
            "\nEach cell: the median, the performance ratio against the baseline and the verdict (value ratio = performance ratio / price ratio: 1 or more is worth it).\n\n",
        );
    }
    if !story.failures.is_empty() {
        s.push_str("Failed runs:\n\n");
        for f in &story.failures {
            s.push_str(&format!("- {}\n", md(f)));
        }
        s.push('\n');
    }
    for (alt, path) in images {
        let href = |p: &str| match base_url {
            Some(base) => format!("{base}/{p}"),
            None => format!("../{p}"),
        };
        let stem = path.strip_suffix(".svg").unwrap_or(path);
        let twin = |suffix: &str| attr(&href(&format!("{stem}{suffix}.svg")));
        // a phone gets the narrow drawing, whose text stays 9 px or more
        // where the wide one would shrink it to 6
        s.push_str(&format!(
            "<picture>\n  <source media=\"(max-width: 600px) and (prefers-color-scheme: dark)\" srcset=\"{}\">\n  <source media=\"(max-width: 600px)\" srcset=\"{}\">\n  <source media=\"(prefers-color-scheme: dark)\" srcset=\"{}\">\n  <img src=\"{}\" alt=\"{}\">\n</picture>\n\n",
            twin("-narrow-dark"),
            twin("-narrow"),
            twin("-dark"),
            attr(&href(path)),
            attr(alt)
        ));
    }
    s.into_bytes()
}

/// Text for an HTML attribute in the post.
fn attr(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
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
        for line in crate::report::story::rate_sentences(sv)
            .into_iter()
            .chain(crate::report::story::no_rate_sentence(sv))
        {
            s.push_str(&format!("{}\n\n", md(&line)));
        }
        let mut tests: Vec<&str> = sv.tables.iter().map(|t| t.test.as_str()).collect();
        tests.dedup();
        for test in tests {
            s.push_str(&format!("### {}\n\n", md(test)));
            let mut table = Table::new([
                ("metric", Align::Left),
                ("offering", Align::Left),
                ("median", Align::Right),
                ("runs", Align::Right),
                ("price ratio", Align::Right),
                ("performance ratio", Align::Right),
                ("verdict", Align::Left),
            ]);
            for t in sv.tables.iter().filter(|t| t.test == test) {
                let human = human_name(&t.metric);
                for r in &t.rows {
                    table.row([
                        human.clone(),
                        r.offering.clone(),
                        format::value(r.median, t.unit),
                        r.runs.to_string(),
                        r.price_ratio.map(format::ratio).unwrap_or_default(),
                        r.performance_ratio.map(format::ratio).unwrap_or_default(),
                        r.verdict_text()
                            .or_else(|| r.no_verdict.clone())
                            .unwrap_or_default(),
                    ]);
                }
                for u in &t.unmeasured {
                    let reason = u.reason.clone();
                    table.row([
                        human.clone(),
                        u.offering.clone(),
                        String::new(),
                        String::new(),
                        String::new(),
                        String::new(),
                        reason,
                    ]);
                }
            }
            s.push_str(&table.render());
            s.push('\n');
        }
    }
    s.into_bytes()
}
