//! The table of `data/<study>.md`: a column per headline dimension.

use super::{headline, monthly_parts};
use crate::analysis::value::{Measured, StudyValue, ValueRow};
use crate::format;

/// The table of `data/<study>.md`: configuration, monthly cost, then one
/// column per headline dimension, each cell `value · ratio · verdict` in
/// the column's one unit. At most six columns, headers unique.
#[derive(Clone, Debug, Default)]
pub struct PostTable {
    /// Column headers after `configuration` and `monthly cost`:
    /// `sustained read IOPS`, `p99 read latency (ms)`.
    pub headers: Vec<String>,
    /// One per configuration, in the matrix's order: its name, monthly
    /// cost, then a cell per header.
    pub rows: Vec<Vec<String>>,
    /// What a monthly cost assumes, or why it is unknown, `configuration:
    /// note`, said under the table so that its cells stay short.
    pub cost_notes: Vec<String>,
}

/// The post's table ([`PostTable`]).
pub(super) fn post_table(sv: &StudyValue) -> PostTable {
    let dims = headline::dimensions(sv);
    let mut configs: Vec<&str> = Vec::new();
    // every configuration of a headline table, with a number or with why
    // it has none
    for (_, t) in &dims {
        let named = t.rows.iter().map(|r| r.offering.as_str());
        let quick: Vec<&str> = sv
            .quick_judged_in(t)
            .into_iter()
            .map(|(n, _, _)| n)
            .collect();
        for name in named
            .chain(t.unmeasured.iter().map(|u| u.offering.as_str()))
            .chain(quick)
        {
            if !configs.contains(&name) {
                configs.push(name);
            }
        }
    }
    let units: Vec<format::DisplayUnit> = dims
        .iter()
        .map(|(_, t)| {
            // one unit per column: where the values would choose different
            // ones, the one of the middle value (ms for a column of p99s
            // from 18.7 ms to 3.86 s), never the largest's (0.0187 s)
            format::column_unit(t.unit, t.rows.iter().map(|r| r.median)).unwrap_or_else(|| {
                let mut values: Vec<f64> = t
                    .rows
                    .iter()
                    .map(|r| r.median.abs())
                    .filter(|v| v.is_finite() && *v > 0.0)
                    .collect();
                values.sort_by(f64::total_cmp);
                let middle = values.get(values.len() / 2).copied().unwrap_or(0.0);
                format::display_unit(t.unit, middle)
            })
        })
        .collect();
    let mut headers: Vec<String> = Vec::new();
    for ((_, t), du) in dims.iter().zip(&units) {
        let mut h = headline::metric_words(t);
        if headers.iter().any(|x| x.starts_with(&h)) {
            h = format!("{h}, {}", t.test);
        }
        if !du.label.is_empty() && !h.ends_with(du.label) {
            h = format!("{h} ({})", du.label);
        }
        headers.push(h);
    }
    let mut cost_notes = Vec::new();
    let rows = configs
        .iter()
        .map(|c| {
            let (cost, note) = monthly_parts(sv, c);
            if let Some(note) = note {
                cost_notes.push(format!("{c}: {note}"));
            }
            let mut row = vec![c.to_string(), cost];
            // said once, in the cell of the sustained test it lacks,
            // rather than after every verdict of the row
            let burst_unmeasured = dims.iter().any(|(_, t)| {
                t.rows
                    .iter()
                    .any(|r| r.offering == *c && r.measured == Some(Measured::BurstNotMeasured))
            });
            for ((_, t), du) in dims.iter().zip(&units) {
                let quick = sv.quick_judged_in(t);
                let quick = quick.iter().find(|(n, _, _)| n == c);
                row.push(match (t.rows.iter().find(|r| r.offering == *c), quick) {
                    (Some(r), _) => post_cell(r, *du, burst_unmeasured),
                    // measured only with the quick suite: its cell, saying so
                    (None, Some((_, r, suite))) => {
                        format!("{} ({suite})", post_cell(r, *du, burst_unmeasured))
                    }
                    (None, None) => t
                        .unmeasured
                        .iter()
                        .find(|u| u.offering == *c)
                        .map(|u| u.reason.clone())
                        .unwrap_or_else(|| {
                            if burst_unmeasured {
                                "not tested: burst not measured".into()
                            } else {
                                "not tested".into()
                            }
                        }),
                });
            }
            row
        })
        .collect();
    PostTable {
        headers,
        rows,
        cost_notes,
    }
}

/// `1,100 · 3.20x · worth it`, `15,800 · 5.3x · while bursting`, `3,000 ·
/// baseline`, `1,100 · no price: not compared`; without `burst not
/// measured` where the row's sustained cell says it.
fn post_cell(r: &ValueRow, du: format::DisplayUnit, burst_said: bool) -> String {
    let mut parts = vec![format::number(r.median / du.factor)];
    match (r.performance_ratio, r.price_ratio) {
        _ if r.is_baseline => {}
        (Some(perf), Some(price)) => {
            parts.push(format::ratio_to(perf, headline::decimals_for(price, perf)))
        }
        (Some(perf), None) => parts.push(format::ratio(perf)),
        _ => {}
    }
    parts.push(match (r.verdict_text(), r.measured) {
        (Some(_), Some(Measured::BurstNotMeasured)) if burst_said => {
            r.verdict_words().unwrap_or_default()
        }
        (Some(v), _) => v,
        (None, Some(m)) if !m.keeps_verdict() => m.words().to_string(),
        (None, _) => r
            .no_verdict
            .clone()
            .unwrap_or_else(|| "not compared".into()),
    });
    parts.join(" · ")
}
