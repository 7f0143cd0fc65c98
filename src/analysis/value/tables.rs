//! The value tables of one test of a study: per judged metric, every
//! configuration's price, performance and value against the baseline, and
//! its verdict.

use std::collections::BTreeMap;

use super::over_time::{self, Lasting, Steady, Unmeasured};
use super::price::{cheapest_of, price_ratio, Priced};
use super::{verdict, Measured, PriceBasis, Shape, ValueRow, ValueTable, BASELINE_VERDICT};
use crate::analysis::stats::Study;
use crate::metrics::metric_order;
use crate::plausible::finite;
use crate::record::Summary;
use crate::units::Unit;

/// The value tables of one test of a study, one per judged metric. When the
/// study's baseline is the cheapest configuration (not one named with
/// `--baseline`) and it has no result for a metric (its run failed, or
/// that test never ran on it), the table compares with the cheapest
/// configuration in the same currency that has one, rather than leaving
/// every other configuration without a verdict. A timed test's tables are
/// its sustained levels ([`crate::metrics::TestKind::judges_in`]).
///
/// What lasts decides: in a study where a sustained test shows some
/// configuration to burst, a short test of a bursting configuration (or
/// against a bursting baseline) measured a burst and gets no verdict, and
/// one of a configuration without a sustained test is qualified ([`Measured`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn tables(
    records: &[&Summary],
    study: &Study,
    priced: &BTreeMap<String, Priced>,
    study_baseline: Option<&str>,
    basis: Option<PriceBasis>,
    chosen_by_flag: bool,
    lasting: &BTreeMap<String, Lasting>,
    test: &String,
) -> Vec<ValueTable> {
    let bursty = lasting.values().any(|l| l.bursts());
    let mut out = Vec::new();
    let mut metrics: Vec<(&String, Unit)> = Vec::new();
    for off in study.offerings.values() {
        if let Some(t) = off.tests.get(test) {
            for (metric, st) in &t.metrics {
                if study.judges(test, metric) && !metrics.iter().any(|(m, _)| *m == metric) {
                    metrics.push((metric, st.unit));
                }
            }
        }
    }
    metrics.sort_by_cached_key(|(m, _)| metric_order(m));
    for (metric, unit) in metrics {
        let stats_of = |name: &str| {
            study
                .offerings
                .get(name)
                .and_then(|o| o.tests.get(test))
                .and_then(|t| t.metrics.get(metric))
                .filter(|s| s.unit == unit)
        };
        let baseline = match (study_baseline, basis) {
            (Some(b), Some(basis)) if !chosen_by_flag && stats_of(b).is_none() => {
                let currency = priced[b].currency().unwrap_or("");
                cheapest_of(
                    priced.iter().filter(|(n, _)| stats_of(n).is_some()),
                    currency,
                    basis,
                )
                .or(Some(b))
            }
            (other, _) => other,
        };
        let no_price = Priced {
            price: None,
            monthly: Err("no price".into()),
            to_base: None,
        };
        let base_priced = baseline.and_then(|b| priced.get(b)).unwrap_or(&no_price);
        let base_stats = baseline.and_then(stats_of);
        let sustained = metric.ends_with(crate::metrics::SUSTAINED);
        let base_results = baseline
            .and_then(|b| study.offerings.get(b))
            .and_then(|o| o.tests.get(test));
        let base_side = base_results.and_then(|t| over_time::Side::of(records, t, metric));
        let base_steady = base_results
            .filter(|_| sustained)
            .and_then(|t| over_time::steady(records, t));
        let mut rows: Vec<ValueRow> = study
            .offerings
            .values()
            .filter_map(|o| {
                let st = stats_of(&o.name)?;
                let results = o.tests.get(test)?;
                let p = &priced[&o.name];
                let is_baseline = baseline == Some(o.name.as_str());
                let ratio = price_ratio(p, base_priced);
                let per_gb_ratio = match (p.per_gb(), base_priced.per_gb()) {
                    (Some(g), Some(gb)) if p.currency() == base_priced.currency() => Some(g / gb),
                    (Some(g), Some(gb)) if p.compared_currency() == base_priced.currency() => {
                        p.factor().map(|f| g * f / gb)
                    }
                    _ => None,
                }
                .and_then(finite);
                let s = &st.summary;
                // zero performance is a result (0x: "no"); a zero divisor,
                // or a lower-is-better baseline of zero, leaves it undefined
                let perf = |mine: f64, theirs: f64| {
                    let (r, zero_ok) = if unit.higher_is_better() {
                        (mine / theirs, true)
                    } else {
                        (theirs / mine, false)
                    };
                    (r.is_finite() && (r > 0.0 || zero_ok && r == 0.0)).then_some(r)
                };
                let performance_ratio = base_stats.and_then(|b| perf(s.median, b.summary.median));
                let value_ratio = match (performance_ratio, &ratio) {
                    // a ratio that overflows is unknown, never `inf`
                    (Some(perf), Ok((_, price))) => finite(perf / price),
                    _ => None,
                };
                let single_run =
                    !is_baseline && (s.n < 2 || base_stats.is_some_and(|b| b.summary.n < 2));
                let value_range = match (base_stats, &ratio, value_ratio) {
                    (Some(b), Ok((_, price)), Some(_)) if !is_baseline && !single_run => {
                        let b = &b.summary;
                        let (lo, hi) = if unit.higher_is_better() {
                            (perf(s.min, b.max), perf(s.max, b.min))
                        } else {
                            (perf(s.max, b.min), perf(s.min, b.max))
                        };
                        lo.zip(hi)
                            .and_then(|(lo, hi)| finite(lo / price).zip(finite(hi / price)))
                    }
                    _ => None,
                };
                let lasts = |name: Option<&str>| {
                    name.and_then(|n| lasting.get(n))
                        .copied()
                        .unwrap_or(Lasting::NotMeasured)
                };
                // a bursting configuration's runs that all ran after its
                // burst measured what lasts
                let after = |name: Option<&str>| {
                    name.and_then(|n| study.offerings.get(n))
                        .and_then(|o| Some((o, o.tests.get(test)?)))
                        .is_some_and(|(o, t)| over_time::after_burst(records, o, t, metric))
                };
                let measured = match (lasts(Some(&o.name)), lasts(baseline)) {
                    _ if !bursty || sustained => None,
                    (Lasting::Bursts(_), _) if !after(Some(&o.name)) => {
                        Some(Measured::WhileBursting)
                    }
                    (_, Lasting::Bursts(_)) if !is_baseline && !after(baseline) => {
                        Some(Measured::AgainstBaselineBurst)
                    }
                    (Lasting::Bursts(_), _) => Some(Measured::AfterBurst),
                    (Lasting::NotMeasured, _) => Some(Measured::BurstNotMeasured),
                    _ => None,
                };
                // a figure at the VM's cap says nothing of the volume
                let capped = results.capped.get(metric.as_str());
                let withheld = (measured.is_some_and(|m| !m.keeps_verdict()) || capped.is_some())
                    && !is_baseline;
                let verdict = if is_baseline && value_ratio.is_some() {
                    Some(BASELINE_VERDICT)
                } else if withheld {
                    None
                } else {
                    value_ratio.map(verdict)
                };
                let uncertain = !withheld
                    && value_range.is_some_and(|(lo, hi)| self::verdict(lo) != self::verdict(hi));
                let no_verdict = verdict.is_none().then(|| {
                    let why = match &ratio {
                        _ if withheld && capped.is_some() => {
                            return format!(
                                "{}: not judged as the volume's",
                                capped.map(String::as_str).unwrap_or("")
                            );
                        }
                        _ if withheld => {
                            let m = measured.unwrap_or(Measured::WhileBursting);
                            return format!("{}: judged on the sustained level", m.words());
                        }
                        Err(why) => why.clone(),
                        Ok(_) if base_stats.is_none() => {
                            "no baseline result for this metric".into()
                        }
                        Ok(_) if performance_ratio.is_some() => {
                            "the value ratio is out of range (a price ratio of about zero)".into()
                        }
                        Ok(_) => "no usable performance ratio (a zero median)".into(),
                    };
                    format!("{why}: not compared")
                });
                let monthly_cost = p.monthly.as_ref().ok().copied();
                let rate = p.factor();
                let per_cost = monthly_cost
                    .map(|c| c * rate.unwrap_or(1.0))
                    .filter(|c| *c > 0.0 && unit.higher_is_better())
                    .and_then(|c| finite(s.median / c));
                let price_only = ratio.as_ref().ok().map(|(_, r)| *r);
                let burst = over_time::Side::of(records, results, metric).and_then(|own| {
                    over_time::burst(&own, base_side.as_ref(), is_baseline, &perf, price_only)
                });
                let steady = sustained
                    .then(|| over_time::steady(records, results))
                    .flatten();
                let shortfall = |s: &Option<Steady>| s.as_ref().and_then(Steady::shortfall);
                let qualifier = shortfall(&steady).or_else(|| {
                    (!is_baseline)
                        .then(|| shortfall(&base_steady))
                        .flatten()
                        .map(|q| format!("the baseline's {q}"))
                });
                Some(ValueRow {
                    offering: o.name.clone(),
                    price: p.price.clone(),
                    median: s.median,
                    min: s.min,
                    max: s.max,
                    runs: s.n,
                    is_baseline,
                    price_basis: ratio.as_ref().ok().map(|(b, _)| *b),
                    price_ratio: ratio.as_ref().ok().map(|(_, r)| *r),
                    per_gb_ratio,
                    performance_ratio,
                    value_ratio,
                    value_range,
                    single_run,
                    verdict,
                    uncertain,
                    no_verdict,
                    monthly_cost,
                    per_cost,
                    rate,
                    burst,
                    steady,
                    qualifier,
                    measured,
                })
            })
            .collect();
        // the baseline's currency first, cheapest on the study's basis
        let base_currency = base_priced.currency();
        // borrowed, so that no comparison of the sorts below allocates
        // a converted price ranks among the baseline's currency by its
        // converted cost
        let rank = |name: &str| -> (u8, bool, &str, f64) {
            let p = &priced[name];
            let cost = basis
                .and_then(|b| p.cost(b))
                .or(p.per_gb())
                .map(|c| c * p.factor().unwrap_or(1.0));
            match p.compared_currency() {
                Some(c) => (
                    0,
                    c != base_currency.unwrap_or(c),
                    c,
                    cost.unwrap_or(f64::INFINITY),
                ),
                None => (1, false, "", f64::INFINITY),
            }
        };
        let order = |a: &str, b: &str| {
            let (ra, rb) = (rank(a), rank(b));
            (ra.0, ra.1, ra.2)
                .cmp(&(rb.0, rb.1, rb.2))
                .then(ra.3.total_cmp(&rb.3))
                .then_with(|| a.cmp(b))
        };
        rows.sort_by(|a, b| order(&a.offering, &b.offering));
        let mut unmeasured: Vec<Unmeasured> = study
            .offerings
            .values()
            .filter_map(|o| {
                let reason = over_time::unmeasured(records, o.tests.get(test)?, metric)?;
                Some(Unmeasured {
                    offering: o.name.clone(),
                    reason,
                })
            })
            .collect();
        unmeasured.sort_by(|a, b| order(&a.offering, &b.offering));
        let shape = study
            .offerings
            .values()
            .find_map(|o| o.tests.get(test)?.records.first())
            .and_then(|&i| records.get(i))
            .map(|r| Shape::of(r))
            .unwrap_or_default();
        out.push(ValueTable {
            test: test.clone(),
            metric: metric.clone(),
            unit,
            kind: study.kind(test),
            rows,
            unmeasured,
            shape,
        });
    }
    out
}
