//! Price/performance value: within each study, for every test and metric,
//! offerings ordered by price per GB with price, performance and value
//! ratios against a baseline, and a verdict in plain words.

use std::collections::BTreeMap;

use anyhow::{bail, Result};

use crate::analysis::prices::{EffectivePrice, PriceBook};
use crate::analysis::stats::{Dataset, OfferingData};
use crate::metrics::metric_order;
use crate::record::slug;
use crate::units::Unit;

/// A verdict band: value ratios at or above `at_least` (and below the band
/// before it) get `verdict`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    /// Lowest value ratio in the band.
    pub at_least: f64,
    /// The verdict in words.
    pub verdict: &'static str,
    /// What the band means, for the value page.
    pub meaning: &'static str,
}

/// The verdict bands, best first. The value ratio is performance ratio /
/// price ratio: 1 means performance grew exactly as fast as the price.
pub const BANDS: [Band; 4] = [
    Band {
        at_least: 1.0,
        verdict: "worth it",
        meaning: "performance grows at least as fast as the price",
    },
    Band {
        at_least: 0.8,
        verdict: "nearly worth it",
        meaning: "at least 80% of the performance the price would suggest",
    },
    Band {
        at_least: 0.5,
        verdict: "not quite",
        meaning: "50% to 80% of the performance the price would suggest",
    },
    Band {
        at_least: f64::NEG_INFINITY,
        verdict: "no",
        meaning: "less than half the performance the price would suggest",
    },
];

/// The verdict of the baseline's own row.
pub const BASELINE_VERDICT: &str = "baseline";

/// The band a value ratio falls in.
pub fn band(value_ratio: f64) -> &'static Band {
    BANDS
        .iter()
        .find(|b| value_ratio >= b.at_least)
        .unwrap_or(&BANDS[BANDS.len() - 1])
}

/// The verdict of a value ratio as published: rounded to the three decimals
/// `data/value.csv` and the value page show, so that a verdict never
/// disagrees with the number beside it, and 1.4x the price for 1.4x the
/// performance (0.9999999999999999 in floating point) is "worth it".
pub fn verdict(value_ratio: f64) -> &'static str {
    band((value_ratio * 1000.0).round() / 1000.0).verdict
}

/// One offering's row in a value table.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueRow {
    /// Offering display name.
    pub offering: String,
    /// Its price, if known.
    pub price: Option<EffectivePrice>,
    /// Median of the metric over repetitions, canonical unit.
    pub median: f64,
    /// Number of runs behind the median.
    pub runs: usize,
    /// Whether this offering is the baseline.
    pub is_baseline: bool,
    /// Price per GB / the baseline's; `None` without a price (or another currency).
    pub price_ratio: Option<f64>,
    /// Offering / baseline (baseline / offering for lower-is-better metrics).
    pub performance_ratio: Option<f64>,
    /// Performance ratio / price ratio.
    pub value_ratio: Option<f64>,
    /// The band's verdict, or `baseline`; `None` without a value ratio.
    pub verdict: Option<&'static str>,
    /// Monthly cost of the tested configuration, when size and price are known.
    pub monthly_cost: Option<f64>,
    /// Median per unit of monthly cost (higher-is-better metrics only).
    pub per_cost: Option<f64>,
}

/// One test and metric within a study: every offering that has it.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueTable {
    /// Test id.
    pub test: String,
    /// Metric name.
    pub metric: String,
    /// Canonical unit.
    pub unit: Unit,
    /// Rows ordered by price per GB (cheapest first), unpriced last, then by name.
    pub rows: Vec<ValueRow>,
}

impl ValueTable {
    /// The baseline's row, if it has this metric.
    pub fn baseline_row(&self) -> Option<&ValueRow> {
        self.rows.iter().find(|r| r.is_baseline)
    }
}

/// Why a row has no verdict, in words: no price, a price in another
/// currency than the baseline's, or no baseline result to compare with.
/// `None` when the row has a verdict.
pub fn why_no_verdict(
    row: &ValueRow,
    table: &ValueTable,
    baseline_price: Option<&EffectivePrice>,
) -> Option<String> {
    if row.verdict.is_some() {
        return None;
    }
    let Some(p) = &row.price else {
        return Some("no price: not compared".to_string());
    };
    Some(match baseline_price {
        Some(b) if b.currency != p.currency => format!(
            "priced in {}, the baseline in {}: not compared",
            p.currency, b.currency
        ),
        Some(_) if table.baseline_row().is_none() => {
            "no baseline result for this metric: not compared".to_string()
        }
        _ => "no usable performance ratio (a zero median): not compared".to_string(),
    })
}

/// The value analysis of one study.
#[derive(Clone, Debug, PartialEq)]
pub struct StudyValue {
    /// Study name.
    pub study: String,
    /// The baseline offering's name; `None` when no offering has a price.
    pub baseline: Option<String>,
    /// Why it is the baseline (`cheapest per GB` or `chosen with --baseline`).
    pub baseline_reason: &'static str,
    /// Offering name to its effective price (`None`: no price known).
    pub prices: BTreeMap<String, Option<EffectivePrice>>,
    /// Offering name to the monthly cost of its tested configuration.
    pub monthly_costs: BTreeMap<String, Option<f64>>,
    /// Tables in test order, metrics in display order within a test.
    pub tables: Vec<ValueTable>,
}

/// Whether `wanted` names the offering (its display name or its slug, case-insensitively).
fn names(wanted: &str, off: &OfferingData) -> bool {
    let w = wanted.trim();
    // a name without ASCII letters or digits slugs to the placeholder `x`,
    // which must not make `--baseline x` (or `日本`) match every such name
    let sluggable = |s: &str| s.chars().any(|c| c.is_ascii_alphanumeric());
    off.name.eq_ignore_ascii_case(w)
        || sluggable(w) && sluggable(&off.name) && slug(&off.name) == slug(w)
}

/// Runs the value analysis over every study. `baseline` names an offering
/// (display name or slug) to compare against in the studies that have it;
/// other studies use their cheapest offering per GB.
///
/// Fails when `baseline` names no priced offering in any study.
pub fn analyse(
    data: &Dataset,
    book: &PriceBook,
    baseline: Option<&str>,
) -> Result<Vec<StudyValue>> {
    if let Some(wanted) = baseline {
        let found: Vec<&OfferingData> = data
            .studies
            .values()
            .flat_map(|s| s.offerings.values())
            .filter(|o| names(wanted, o))
            .collect();
        if found.is_empty() {
            let known: Vec<&str> = data
                .studies
                .values()
                .flat_map(|s| s.offerings.keys().map(String::as_str))
                .collect();
            bail!(
                "--baseline `{wanted}` names no offering (known: {})",
                known.join(", ")
            );
        }
        if found.iter().all(|o| {
            book.effective(
                o.provider.as_deref(),
                o.offering.as_deref(),
                o.record_price.as_ref(),
            )
            .is_none()
        }) {
            bail!("--baseline `{wanted}` has no price (give one with --prices)");
        }
    }
    Ok(data
        .studies
        .iter()
        .map(|(name, study)| {
            let prices: BTreeMap<String, Option<EffectivePrice>> = study
                .offerings
                .values()
                .map(|o| {
                    let p = book.effective(
                        o.provider.as_deref(),
                        o.offering.as_deref(),
                        o.record_price.as_ref(),
                    );
                    (o.name.clone(), p)
                })
                .collect();
            let monthly_costs: BTreeMap<String, Option<f64>> = study
                .offerings
                .values()
                .map(|o| {
                    let cost = prices
                        .get(&o.name)
                        .and_then(Option::as_ref)
                        .and_then(|p| p.monthly_cost(o.size_gb, &o.labels));
                    (o.name.clone(), cost)
                })
                .collect();
            let chosen = baseline.and_then(|w| {
                study
                    .offerings
                    .values()
                    .find(|o| names(w, o) && prices.get(&o.name).is_some_and(Option::is_some))
                    .map(|o| o.name.clone())
            });
            let chosen_by_flag = chosen.is_some();
            let (base, reason) = match chosen {
                Some(b) => (Some(b), "chosen with --baseline"),
                None => (cheapest(&prices), "cheapest per GB"),
            };
            let tables = tables(
                study,
                &prices,
                &monthly_costs,
                base.as_deref(),
                chosen_by_flag,
            );
            StudyValue {
                study: name.clone(),
                baseline: base,
                baseline_reason: reason,
                prices,
                monthly_costs,
                tables,
            }
        })
        .collect())
}

/// The cheapest offering per GB. Prices in different currencies cannot be
/// compared, so it is the cheapest in the currency most offerings are priced
/// in (on a tie, the first currency code alphabetically).
fn cheapest(prices: &BTreeMap<String, Option<EffectivePrice>>) -> Option<String> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for p in prices.values().flatten() {
        *counts.entry(p.currency.as_str()).or_default() += 1;
    }
    let currency = counts
        .iter()
        .fold(None::<(&str, usize)>, |best, (c, n)| match best {
            Some((_, bn)) if bn >= *n => best,
            _ => Some((c, *n)),
        })?
        .0;
    // BTreeMap order breaks ties by name, so the choice is deterministic
    prices
        .iter()
        .filter_map(|(n, p)| {
            p.as_ref()
                .filter(|p| p.currency == currency)
                .and_then(|p| Some((n, p.per_gb_month()?)))
        })
        .fold(None::<(&String, f64)>, |best, (n, p)| match best {
            Some((_, bp)) if bp <= p => best,
            _ => Some((n, p)),
        })
        .map(|(n, _)| n.clone())
}

/// The value tables of a study. When the study's baseline is the cheapest
/// offering (not one named with `--baseline`) and it has no result for a
/// metric (its run failed, or that test never ran on it), the table compares
/// with the cheapest offering in the same currency that has one, rather than
/// leaving every other offering without a verdict.
fn tables(
    study: &crate::analysis::stats::Study,
    prices: &BTreeMap<String, Option<EffectivePrice>>,
    costs: &BTreeMap<String, Option<f64>>,
    study_baseline: Option<&str>,
    chosen_by_flag: bool,
) -> Vec<ValueTable> {
    let mut out = Vec::new();
    for test in &study.tests {
        let mut metrics: Vec<(&String, Unit)> = Vec::new();
        for off in study.offerings.values() {
            if let Some(t) = off.tests.get(test) {
                for (metric, st) in &t.metrics {
                    if !metrics.iter().any(|(m, _)| *m == metric) {
                        metrics.push((metric, st.unit));
                    }
                }
            }
        }
        metrics.sort_by_key(|(m, _)| metric_order(m));
        for (metric, unit) in metrics {
            let has = |name: &str| {
                study
                    .offerings
                    .get(name)
                    .and_then(|o| o.tests.get(test))
                    .and_then(|t| t.metrics.get(metric))
                    .is_some_and(|s| s.unit == unit)
            };
            let baseline = match study_baseline {
                Some(b) if !chosen_by_flag && !has(b) => {
                    let currency = prices
                        .get(b)
                        .and_then(Option::as_ref)
                        .map(|p| p.currency.as_str());
                    prices
                        .iter()
                        .filter(|(n, _)| has(n))
                        .filter_map(|(n, p)| {
                            p.as_ref()
                                .filter(|p| Some(p.currency.as_str()) == currency)
                                .and_then(|p| Some((n.as_str(), p.per_gb_month()?)))
                        })
                        .fold(None::<(&str, f64)>, |best, (n, p)| match best {
                            Some((_, bp)) if bp <= p => best,
                            _ => Some((n, p)),
                        })
                        .map(|(n, _)| n)
                        .or(Some(b))
                }
                other => other,
            };
            let base_price = baseline
                .and_then(|b| prices.get(b))
                .and_then(Option::as_ref);
            let base_median = baseline
                .and_then(|b| study.offerings.get(b))
                .and_then(|o| o.tests.get(test))
                .and_then(|t| t.metrics.get(metric))
                .filter(|s| s.unit == unit)
                .map(|s| s.summary.median);
            let mut rows: Vec<ValueRow> = study
                .offerings
                .values()
                .filter_map(|o| {
                    let st = o.tests.get(test)?.metrics.get(metric)?;
                    if st.unit != unit {
                        return None;
                    }
                    let price = prices.get(&o.name).cloned().flatten();
                    let is_baseline = baseline == Some(o.name.as_str());
                    let price_ratio = match (&price, base_price) {
                        (Some(p), Some(b)) if p.currency == b.currency => {
                            let per_gb = p.per_gb_month().zip(b.per_gb_month());
                            per_gb.map(|(p, b)| p / b)
                        }
                        _ => None,
                    };
                    let median = st.summary.median;
                    // zero performance is a result (0x: "no"); a zero divisor,
                    // or a lower-is-better baseline of zero (0% CPU), leaves
                    // the ratio undefined
                    let performance_ratio = base_median.and_then(|b| {
                        let (r, zero_ok) = if unit.higher_is_better() {
                            (median / b, true)
                        } else {
                            (b / median, false)
                        };
                        (r.is_finite() && (r > 0.0 || zero_ok && r == 0.0)).then_some(r)
                    });
                    let value_ratio = match (performance_ratio, price_ratio) {
                        (Some(perf), Some(price)) => Some(perf / price),
                        _ => None,
                    };
                    let verdict = if is_baseline && value_ratio.is_some() {
                        Some(BASELINE_VERDICT)
                    } else {
                        value_ratio.map(verdict)
                    };
                    let monthly_cost = costs.get(&o.name).copied().flatten();
                    let per_cost = monthly_cost
                        .filter(|c| *c > 0.0 && unit.higher_is_better())
                        .map(|c| median / c);
                    Some(ValueRow {
                        offering: o.name.clone(),
                        price,
                        median,
                        runs: st.summary.n,
                        is_baseline,
                        price_ratio,
                        performance_ratio,
                        value_ratio,
                        verdict,
                        monthly_cost,
                        per_cost,
                    })
                })
                .collect();
            // prices in the baseline's currency first: only they compare
            let base_currency = base_price.map(|p| p.currency.as_str());
            rows.sort_by(|a, b| {
                let key = |p: &EffectivePrice| {
                    (
                        Some(p.currency.as_str()) != base_currency,
                        p.currency.clone(),
                    )
                };
                // a price with no per-GB part sorts after those with one
                let per_gb = |p: &EffectivePrice| p.per_gb_month().unwrap_or(f64::INFINITY);
                let pa = a.price.as_ref().map(|p| (key(p), per_gb(p)));
                let pb = b.price.as_ref().map(|p| (key(p), per_gb(p)));
                match (pa, pb) {
                    (Some((ka, x)), Some((kb, y))) => ka.cmp(&kb).then(x.total_cmp(&y)),
                    (Some(_), None) => std::cmp::Ordering::Less,
                    (None, Some(_)) => std::cmp::Ordering::Greater,
                    (None, None) => std::cmp::Ordering::Equal,
                }
                .then_with(|| a.offering.cmp(&b.offering))
            });
            out.push(ValueTable {
                test: test.clone(),
                metric: metric.clone(),
                unit,
                rows,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::stats::group;
    use crate::analysis::testing::record;

    #[test]
    fn bands_split_where_the_table_says() {
        assert_eq!(band(1.0).verdict, "worth it");
        assert_eq!(band(0.999).verdict, "nearly worth it");
        assert_eq!(band(0.8).verdict, "nearly worth it");
        assert_eq!(band(0.79).verdict, "not quite");
        assert_eq!(band(0.5).verdict, "not quite");
        assert_eq!(band(0.21).verdict, "no");
    }

    #[test]
    fn verdicts_follow_the_ratio_as_shown() {
        assert_eq!(verdict(0.9999999999999999), "worth it");
        // shown as 0.499: below the 0.5 band
        assert_eq!(verdict(0.4992), "no");
        assert_eq!(verdict(0.7996), "nearly worth it");
        // N times the price for exactly N times the performance
        let recs = [
            record(
                "a",
                "P",
                "base",
                Some(0.05),
                "t",
                &[("iops", 100.0, "IOPS")],
            ),
            record(
                "b",
                "P",
                "more",
                Some(0.07),
                "t",
                &[("iops", 140.0, "IOPS")],
            ),
        ];
        let refs: Vec<_> = recs.iter().collect();
        let v = analyse(&group(&refs), &PriceBook::default(), None).unwrap();
        let row = &v[0].tables[0].rows[1];
        assert_eq!(row.offering, "P more");
        assert_eq!(row.verdict, Some("worth it"));
    }

    #[test]
    fn rackspace_ratios_and_verdicts() {
        let recs = [
            record(
                "sata",
                "Rackspace",
                "SATA",
                Some(0.15),
                "bonnie",
                &[
                    ("random_seeks", 473.4, "ops/s"),
                    ("seq_block_read_bw", 95981.0 * 1024.0, "B/s"),
                ],
            ),
            record(
                "ssd",
                "Rackspace",
                "SSD",
                Some(0.70),
                "bonnie",
                &[
                    ("random_seeks", 1969.0, "ops/s"),
                    ("seq_block_read_bw", 95927.0 * 1024.0, "B/s"),
                ],
            ),
            record(
                "local",
                "Rackspace",
                "Local",
                None,
                "bonnie",
                &[("random_seeks", 578.6, "ops/s")],
            ),
        ];
        let refs: Vec<_> = recs.iter().collect();
        let v = analyse(&group(&refs), &PriceBook::default(), None).unwrap();
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].baseline.as_deref(), Some("Rackspace SATA"));
        let seeks = v[0]
            .tables
            .iter()
            .find(|t| t.metric == "random_seeks")
            .unwrap();
        let names: Vec<&str> = seeks.rows.iter().map(|r| r.offering.as_str()).collect();
        assert_eq!(
            names,
            ["Rackspace SATA", "Rackspace SSD", "Rackspace Local"]
        );
        let ssd = &seeks.rows[1];
        assert!((ssd.price_ratio.unwrap() - 0.70 / 0.15).abs() < 1e-12);
        assert!((ssd.performance_ratio.unwrap() - 1969.0 / 473.4).abs() < 1e-12);
        assert!((ssd.value_ratio.unwrap() - (1969.0 / 473.4) / (0.70 / 0.15)).abs() < 1e-12);
        assert_eq!(ssd.verdict, Some("nearly worth it"));
        assert_eq!(seeks.rows[0].verdict, Some(BASELINE_VERDICT));
        // no price: performance kept, no ratio against price
        let local = &seeks.rows[2];
        assert_eq!(local.median, 578.6);
        assert_eq!(local.price_ratio, None);
        assert_eq!(local.value_ratio, None);
        assert_eq!(local.verdict, None);
        assert!((local.performance_ratio.unwrap() - 578.6 / 473.4).abs() < 1e-12);
        let read = v[0]
            .tables
            .iter()
            .find(|t| t.metric == "seq_block_read_bw")
            .unwrap();
        assert_eq!(read.rows[1].verdict, Some("no"));
        // 100 GB at 0.70
        assert!((v[0].monthly_costs["Rackspace SSD"].unwrap() - 70.0).abs() < 1e-9);
        assert_eq!(v[0].monthly_costs["Rackspace Local"], None);
    }

    #[test]
    fn latency_ratio_is_inverted() {
        let recs = [
            record(
                "a",
                "P",
                "cheap",
                Some(0.1),
                "ioping-latency",
                &[("lat_avg", 400e-6, "s")],
            ),
            record(
                "b",
                "P",
                "dear",
                Some(0.2),
                "ioping-latency",
                &[("lat_avg", 100e-6, "s")],
            ),
        ];
        let refs: Vec<_> = recs.iter().collect();
        let v = analyse(&group(&refs), &PriceBook::default(), None).unwrap();
        let row = &v[0].tables[0].rows[1];
        assert_eq!(row.offering, "P dear");
        assert!((row.performance_ratio.unwrap() - 4.0).abs() < 1e-12);
        assert!((row.value_ratio.unwrap() - 2.0).abs() < 1e-12);
        assert_eq!(row.verdict, Some("worth it"));
        assert_eq!(row.per_cost, None);
    }

    #[test]
    fn explicit_baseline_and_errors() {
        let recs = [
            record(
                "a",
                "P",
                "cheap",
                Some(0.1),
                "t",
                &[("iops", 100.0, "IOPS")],
            ),
            record("b", "P", "dear", Some(0.2), "t", &[("iops", 300.0, "IOPS")]),
            record("c", "P", "free", None, "t", &[("iops", 300.0, "IOPS")]),
        ];
        let refs: Vec<_> = recs.iter().collect();
        let data = group(&refs);
        let v = analyse(&data, &PriceBook::default(), Some("p-dear")).unwrap();
        assert_eq!(v[0].baseline.as_deref(), Some("P dear"));
        assert_eq!(v[0].baseline_reason, "chosen with --baseline");
        let cheap = v[0].tables[0]
            .rows
            .iter()
            .find(|r| r.offering == "P cheap")
            .unwrap();
        assert!((cheap.price_ratio.unwrap() - 0.5).abs() < 1e-12);
        assert!((cheap.performance_ratio.unwrap() - 100.0 / 300.0).abs() < 1e-12);
        // placeholder slugs match nothing but the exact name
        let recs = [
            record(
                "j",
                "日本",
                "クラウド",
                Some(0.1),
                "t",
                &[("iops", 1.0, "IOPS")],
            ),
            record("k", "X", "", Some(0.2), "t", &[("iops", 1.0, "IOPS")]),
        ];
        let refs: Vec<_> = recs.iter().collect();
        let odd = group(&refs);
        let err = analyse(&odd, &PriceBook::default(), Some("!!!")).unwrap_err();
        assert!(format!("{err}").contains("names no offering"), "{err}");
        let v = analyse(&odd, &PriceBook::default(), Some("日本 クラウド")).unwrap();
        assert_eq!(v[0].baseline.as_deref(), Some("日本 クラウド"));
        let err = analyse(&data, &PriceBook::default(), Some("nope")).unwrap_err();
        assert!(format!("{err}").contains("names no offering"));
        let err = analyse(&data, &PriceBook::default(), Some("P free")).unwrap_err();
        assert!(format!("{err}").contains("has no price"));
    }

    #[test]
    fn zero_performance_is_a_verdict_not_a_gap() {
        let recs = [
            record(
                "a",
                "P",
                "cheap",
                Some(0.1),
                "t",
                &[("iops", 100.0, "IOPS")],
            ),
            record("b", "P", "dead", Some(0.2), "t", &[("iops", 0.0, "IOPS")]),
            record("c", "P", "odd", Some(0.3), "u", &[("iops", 5.0, "IOPS")]),
        ];
        let refs: Vec<_> = recs.iter().collect();
        let v = analyse(&group(&refs), &PriceBook::default(), None).unwrap();
        let t = &v[0].tables[0];
        let dead = &t.rows[1];
        assert_eq!(dead.offering, "P dead");
        assert_eq!(dead.performance_ratio, Some(0.0));
        assert_eq!(dead.value_ratio, Some(0.0));
        assert_eq!(dead.verdict, Some("no"));
        // lower is better: a baseline of 0% CPU gives no ratio, not "0x"
        let recs2 = [
            record("a", "P", "cheap", Some(0.1), "t", &[("x_cpu", 0.0, "%")]),
            record("b", "P", "dear", Some(0.2), "t", &[("x_cpu", 5.0, "%")]),
        ];
        let refs2: Vec<_> = recs2.iter().collect();
        let v2 = analyse(&group(&refs2), &PriceBook::default(), None).unwrap();
        let cpu = &v2[0].tables[0].rows[1];
        assert_eq!(cpu.offering, "P dear");
        assert_eq!((cpu.performance_ratio, cpu.verdict), (None, None));
        // test `u`: the baseline named with --baseline has no result, and the row says so
        let v = analyse(&group(&refs), &PriceBook::default(), Some("P cheap")).unwrap();
        let u = &v[0].tables[1];
        let base = v[0].prices["P cheap"].as_ref();
        assert_eq!(
            why_no_verdict(&u.rows[0], u, base).as_deref(),
            Some("no baseline result for this metric: not compared")
        );
    }

    #[test]
    fn a_cheapest_baseline_without_the_metric_gives_way_in_that_table() {
        let mut failed = record("a", "P", "cheap", Some(0.1), "fio", &[]);
        failed.status = crate::record::Status::Failed;
        failed.error = Some("libaio missing".into());
        let recs = [
            failed,
            record(
                "a2",
                "P",
                "cheap",
                Some(0.1),
                "dd",
                &[("write_bw", 1e8, "B/s")],
            ),
            record(
                "b",
                "P",
                "mid",
                Some(0.2),
                "fio",
                &[("read_iops", 1000.0, "IOPS")],
            ),
            record(
                "b2",
                "P",
                "mid",
                Some(0.2),
                "dd",
                &[("write_bw", 1e8, "B/s")],
            ),
            record(
                "c",
                "P",
                "dear",
                Some(0.4),
                "fio",
                &[("read_iops", 4000.0, "IOPS")],
            ),
        ];
        let refs: Vec<_> = recs.iter().collect();
        let data = group(&refs);
        let v = analyse(&data, &PriceBook::default(), None).unwrap();
        assert_eq!(v[0].baseline.as_deref(), Some("P cheap"));
        let fio = v[0].tables.iter().find(|t| t.test == "fio").unwrap();
        assert_eq!(fio.baseline_row().unwrap().offering, "P mid");
        let dear = fio.rows.iter().find(|r| r.offering == "P dear").unwrap();
        assert!((dear.price_ratio.unwrap() - 2.0).abs() < 1e-12);
        assert!((dear.performance_ratio.unwrap() - 4.0).abs() < 1e-12);
        assert_eq!(dear.verdict, Some("worth it"));
        let dd = v[0].tables.iter().find(|t| t.test == "dd").unwrap();
        assert_eq!(dd.baseline_row().unwrap().offering, "P cheap");
        // a baseline named with --baseline is kept: the table has no ratios
        let v = analyse(&data, &PriceBook::default(), Some("P cheap")).unwrap();
        let fio = v[0].tables.iter().find(|t| t.test == "fio").unwrap();
        assert!(fio.baseline_row().is_none());
        assert!(fio.rows.iter().all(|r| r.verdict.is_none()));
    }

    #[test]
    fn no_prices_means_no_baseline_and_no_ratios() {
        let recs = [record("a", "P", "x", None, "t", &[("iops", 100.0, "IOPS")])];
        let refs: Vec<_> = recs.iter().collect();
        let v = analyse(&group(&refs), &PriceBook::default(), None).unwrap();
        assert_eq!(v[0].baseline, None);
        let row = &v[0].tables[0].rows[0];
        assert_eq!(
            (row.price_ratio, row.performance_ratio, row.verdict),
            (None, None, None)
        );
    }

    #[test]
    fn another_currency_gets_no_price_ratio() {
        // 0.05 EUR is not "cheaper" than 0.10 USD: the baseline is the
        // cheapest in the currency most offerings use
        let mut eur = record(
            "b",
            "P",
            "euro",
            Some(0.05),
            "t",
            &[("iops", 300.0, "IOPS")],
        );
        if let Some(p) = eur.subject.price.as_mut() {
            p.currency = "EUR".into();
        }
        let recs = [
            record("a", "P", "usd", Some(0.1), "t", &[("iops", 100.0, "IOPS")]),
            eur,
            record("c", "P", "usd2", Some(0.2), "t", &[("iops", 250.0, "IOPS")]),
        ];
        let refs: Vec<_> = recs.iter().collect();
        let v = analyse(&group(&refs), &PriceBook::default(), None).unwrap();
        assert_eq!(v[0].baseline.as_deref(), Some("P usd"));
        let t = &v[0].tables[0];
        // the baseline's currency first, by price; the other currency after
        let names: Vec<&str> = t.rows.iter().map(|r| r.offering.as_str()).collect();
        assert_eq!(names, ["P usd", "P usd2", "P euro"]);
        let usd2 = &t.rows[1];
        assert!((usd2.price_ratio.unwrap() - 2.0).abs() < 1e-12);
        assert_eq!(usd2.verdict, Some("worth it"));
        let row = &t.rows[2];
        assert_eq!(row.price_ratio, None);
        assert_eq!(row.verdict, None);
        assert!((row.performance_ratio.unwrap() - 3.0).abs() < 1e-12);
        let base = v[0].prices["P usd"].as_ref();
        assert_eq!(
            why_no_verdict(row, t, base).as_deref(),
            Some("priced in EUR, the baseline in USD: not compared")
        );
        assert_eq!(why_no_verdict(usd2, t, base), None);
    }
}
