//! When a study's answer was measured, for the configurations measured more
//! than once: the answer uses each one's newest measurement, and says so.

use std::collections::BTreeSet;

use crate::analysis::stats::Study;

/// A sentence per configuration of `study` with a history: `Acme Standard:
/// measured 2026-06-02, the answer's figures; measured before on
/// 2026-01-10 (its offering page shows the history).`, and one per test
/// whose figures come from an older measurement (no newer one has it),
/// all the tests of one older date in one sentence. In
/// configuration order; empty when nothing was measured twice.
pub fn sentences(study_name: &str, study: &Study) -> Vec<String> {
    let mut out = Vec::new();
    for o in study.offerings.values() {
        let Some(measured) = &o.measured else {
            continue;
        };
        let before: BTreeSet<String> = o
            .history
            .iter()
            .filter(|p| !(p.date == *measured && p.study == study_name))
            .map(|p| {
                if p.study == study_name {
                    p.date.clone()
                } else {
                    format!("{} (study {})", p.date, p.study)
                }
            })
            .collect();
        let before = if before.is_empty() {
            String::new()
        } else {
            format!(
                "; measured also on {} (its offering page shows the history)",
                before.into_iter().collect::<Vec<_>>().join(", ")
            )
        };
        out.push(format!(
            "{}: measured {measured}, the answer's figures{before}.",
            o.name
        ));
        // one sentence per older date, however many tests it holds
        let mut older: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
        for (test, t) in &o.tests {
            if let Some(d) = t.measured.as_ref().filter(|d| *d != measured) {
                older.entry(d.as_str()).or_default().push(test.as_str());
            }
        }
        for (d, tests) in older {
            out.push(match tests.as_slice() {
                [test] => format!(
                    "{}: {test} measured {d}, in an older measurement, since no newer one has it.",
                    o.name
                ),
                _ => format!(
                    "{}: {} tests measured {d}, in an older measurement, since no newer one has them: {}.",
                    o.name,
                    tests.len(),
                    tests.join(", ")
                ),
            });
        }
    }
    out
}

/// One judged metric of one test over a configuration's measurements.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HistoryTable {
    /// The configuration's name in the study.
    pub config: String,
    /// The test and the metric (its human name).
    pub test: String,
    pub metric: String,
    pub human: String,
    /// A row per measurement, oldest first.
    pub rows: Vec<HistoryRow>,
}

/// One measurement in a [`HistoryTable`]: text for people, and the numbers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HistoryRow {
    /// `2026-01-10`.
    pub date: String,
    /// The study it belongs to.
    pub study: String,
    /// Runs behind the median.
    pub runs: String,
    /// The median, and the smallest to the largest run: `1,000 IOPS`,
    /// `950 IOPS to 1,050 IOPS`.
    pub median: String,
    pub range: String,
    /// Change of the median since the first measurement: `-30%`; empty
    /// on the first.
    pub change: String,
    /// The numbers, canonical unit.
    pub values: Option<HistoryValues>,
}

/// A measurement's numbers, canonical unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HistoryValues {
    pub unit: crate::units::Unit,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub runs: usize,
}

/// The history of configuration `o` as tables: a table per test and
/// judged metric measured more than once (tests in name order, metrics in
/// the site's order), a row per measurement; empty without a history.
pub fn tables(o: &crate::analysis::stats::OfferingData) -> Vec<HistoryTable> {
    use crate::analysis::stats::HistoryPoint;
    use crate::format;
    use std::collections::BTreeMap;
    // by test, then metric in the site's order
    type Order<'a> = (usize, u8, &'a str);
    let mut by: BTreeMap<(&str, Order), Vec<&HistoryPoint>> = BTreeMap::new();
    for p in &o.history {
        by.entry((p.test.as_str(), crate::metrics::metric_order(&p.metric)))
            .or_default()
            .push(p);
    }
    by.into_iter()
        // a test measured once has no history: its note says when
        .filter(|(_, points)| points.len() > 1)
        .filter_map(|((test, _), points)| {
            let first = points.first()?;
            let base = first.summary.median;
            Some(HistoryTable {
                config: o.name.clone(),
                test: test.to_string(),
                metric: first.metric.clone(),
                human: crate::metrics::human_name(&first.metric),
                rows: points
                    .iter()
                    .enumerate()
                    .map(|(i, p)| {
                        let s = &p.summary;
                        HistoryRow {
                            date: p.date.clone(),
                            study: p.study.clone(),
                            runs: s.n.to_string(),
                            median: format::value(s.median, p.unit),
                            range: format!(
                                "{} to {}",
                                format::value(s.min, p.unit),
                                format::value(s.max, p.unit)
                            ),
                            change: if i == 0 || p.unit != first.unit {
                                String::new()
                            } else {
                                format::change(base, s.median)
                            },
                            values: Some(HistoryValues {
                                unit: p.unit,
                                median: s.median,
                                min: s.min,
                                max: s.max,
                                runs: s.n,
                            }),
                        }
                    })
                    .collect(),
            })
        })
        .collect()
}
