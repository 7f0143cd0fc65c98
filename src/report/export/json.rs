//! `data/summary.json`: the statistics and value rows, canonical units.

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use serde::Serialize;

use crate::analysis::value;
use crate::analysis::Analysis;

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
    /// Configurations no ratio could compare, and why: no price (and how
    /// to give one), or no exchange rate for their currency.
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
    /// Where the price comes from: `prices` (--prices), `record` or
    /// `catalogue` (the built-in list prices).
    price_origin: Option<&'a str>,
    size_gb: Option<f64>,
    provisioned_iops: Option<f64>,
    provisioned_mbps: Option<f64>,
    monthly_cost: Option<f64>,
    /// The monthly cost in the baseline's currency, for a price converted
    /// at an exchange rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    converted_monthly_cost: Option<f64>,
    /// Why the monthly cost is unknown: what a price needs, or why the
    /// catalogue has no price (`no list price for region ...`).
    monthly_cost_missing: Option<&'a str>,
    /// What the monthly cost assumes where the price includes a level the
    /// records name no provisioned figure for (`3,000 IOPS and 125 MB/s
    /// included; ...`).
    #[serde(skip_serializing_if = "Option::is_none")]
    monthly_cost_note: Option<&'a str>,
    records: usize,
    /// Where the configuration was measured more than once: the date of
    /// the measurement its figures come from (its newest in the study).
    #[serde(skip_serializing_if = "Option::is_none")]
    measured: Option<&'a str>,
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
    reason: String,
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
                    price_origin: price.map(|p| p.origin.as_str()),
                    size_gb: o.size_gb,
                    provisioned_iops: o.provisioned_iops,
                    provisioned_mbps: o.provisioned_mbps,
                    monthly_cost: sv.monthly_costs.get(&o.name).copied().flatten(),
                    converted_monthly_cost: crate::report::story::conversion_of(sv, &o.name)
                        .zip(sv.monthly_costs.get(&o.name).copied().flatten())
                        .map(|(c, m)| m * c.factor),
                    monthly_cost_missing: sv.cost_missing.get(&o.name).map(String::as_str),
                    monthly_cost_note: sv.cost_notes.get(&o.name).map(String::as_str),
                    records: o.records.len(),
                    measured: o.measured.as_deref(),
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
                .excluded()
                .into_iter()
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
