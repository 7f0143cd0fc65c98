//! The value matrix of a study: a column per judged metric, a row per
//! configuration.

use super::{key_table, monthly_text, ordered, price_per_gb_text};
use crate::analysis::value::{StudyValue, ValueRow, ValueTable, BASELINE_VERDICT};
use crate::format;
use crate::metrics::human_name;

/// The value matrix of a study.
#[derive(Clone, Debug, Default)]
pub struct Matrix {
    /// One per judged test and metric, in display order.
    pub columns: Vec<Column>,
    /// One per configuration, cheapest first.
    pub rows: Vec<MatrixRow>,
    /// Whether a column judges a timeline's sustained level.
    pub timed: bool,
}

/// A judged test and metric.
#[derive(Clone, Debug, Default)]
pub struct Column {
    /// Test id.
    pub test: String,
    /// Metric name.
    pub metric: String,
    /// The metric for people: `random seeks`.
    pub human: String,
    /// The unit its values are shown in: `ops/s`, `MB/s`, `ms`; empty when
    /// the cells name their own units.
    pub unit: String,
}

/// A configuration's row of the value matrix.
#[derive(Clone, Debug, Default)]
pub struct MatrixRow {
    /// Configuration name.
    pub config: String,
    /// `0.150 USD`, `unknown`.
    pub price_per_gb: String,
    /// `70.00 USD`, `unknown (size unknown)`.
    pub monthly: String,
    /// Whether it is the study's baseline.
    pub is_baseline: bool,
    /// One per column.
    pub cells: Vec<Cell>,
}

/// A value matrix cell.
#[derive(Clone, Debug, Default)]
pub struct Cell {
    /// The median in the column's unit (`1,969`), or with its own unit
    /// (`215 µs`) when the column names none.
    pub value: String,
    /// The performance ratio: `4.2x`; empty without one.
    pub performance: String,
    /// The value ratio: `0.89`; empty without one.
    pub value_ratio: String,
    /// The verdict in words (`nearly worth it (single run)`, `baseline`), or
    /// why there is none (`not compared`, `no result`, `no timeline: not
    /// compared`).
    pub verdict: String,
    /// For a sustained level where a burst exists on either side, the
    /// burst as a secondary line: `burst 3,000 while credits last: 10.0x,
    /// value 2.50`; for a flat configuration beside a bursting baseline
    /// `300 while the baseline's credits last: 0.1x, value 0.40`; empty
    /// otherwise.
    pub burst: String,
    /// CSS class of the verdict band (`worth-it`, ...), empty without one.
    pub class: String,
}

/// The value matrix: configurations in the key table's order (cheapest
/// first), the rest after by name; a column per judged test and metric.
pub(super) fn matrix(sv: &StudyValue) -> Matrix {
    let tables = ordered(sv);
    let mut configs: Vec<String> = key_table(sv)
        .map(|t| t.rows.iter().map(|r| r.offering.clone()).collect())
        .unwrap_or_default();
    for name in sv.prices.keys() {
        if !configs.contains(name) {
            configs.push(name.clone());
        }
    }
    // a column names its unit when every cell would choose it; else each
    // cell carries its own (an SSD's µs beside a disk's ms)
    let units: Vec<Option<format::DisplayUnit>> = tables
        .iter()
        .map(|t| format::column_unit(t.unit, t.rows.iter().map(|r| r.median)))
        .collect();
    let columns = tables
        .iter()
        .zip(&units)
        .map(|(t, du)| Column {
            test: t.test.clone(),
            metric: t.metric.clone(),
            human: human_name(&t.metric),
            unit: du.map(|d| d.label).unwrap_or_default().to_string(),
        })
        .collect();
    let rows = configs
        .iter()
        .map(|c| MatrixRow {
            config: c.clone(),
            price_per_gb: price_per_gb_text(sv, c),
            monthly: monthly_text(sv, c),
            is_baseline: sv.baseline.as_deref() == Some(c.as_str()),
            cells: tables
                .iter()
                .zip(&units)
                .map(|(t, du)| match t.rows.iter().find(|r| &r.offering == c) {
                    Some(r) => cell(sv, t, r, *du),
                    // measured only with the quick suite: judged on it,
                    // the suite said beside the verdict
                    None => match sv.quick_judged_in(t).into_iter().find(|(n, _, _)| n == c) {
                        Some((_, r, suite)) => {
                            let mut cell = cell(sv, t, r, *du);
                            cell.verdict = format!("{} ({suite})", cell.verdict);
                            cell
                        }
                        None => Cell {
                            verdict: t
                                .unmeasured
                                .iter()
                                .find(|u| &u.offering == c)
                                .map(|u| u.reason.clone())
                                .unwrap_or_else(|| "no result".into()),
                            ..Cell::default()
                        },
                    },
                })
                .collect(),
        })
        .collect();
    Matrix {
        columns,
        rows,
        timed: tables.iter().any(|t| t.is_sustained()),
    }
}

/// The cell of row `r` of table `t`.
fn cell(sv: &StudyValue, t: &ValueTable, r: &ValueRow, du: Option<format::DisplayUnit>) -> Cell {
    let c = &r.offering;
    let withheld = r.measured.filter(|m| !m.keeps_verdict() && !r.is_baseline);
    Cell {
        value: format::in_column(r.median, t.unit, du),
        performance: r.performance_ratio.map(format::ratio).unwrap_or_default(),
        value_ratio: match r.verdict {
            Some(BASELINE_VERDICT) | None => String::new(),
            _ => r
                .value_ratio
                .map(|v| format::ratio_number(v, 2))
                .unwrap_or_default(),
        },
        verdict: match (r.verdict_text(), withheld) {
            (Some(v), _) => v,
            (None, Some(m)) => m.words().to_string(),
            // the one reason a rates file can fix, said
            // where the verdict would be
            (None, None) if sv.no_rate.contains_key(c) => r
                .no_verdict
                .clone()
                .unwrap_or_else(|| "not compared".into()),
            (None, None) => "not compared".into(),
        },
        class: match withheld {
            Some(_) => "while-bursting".to_string(),
            None => r.verdict.map(crate::record::slug).unwrap_or_default(),
        },
        burst: burst_line(t, r, du),
    }
}

/// A matrix cell's burst line: `burst 3,000 while credits last: 10.0x,
/// value 2.50`, the baseline's `burst 3,000 while credits last`; a flat
/// configuration beside a bursting baseline gives its one level, not a
/// burst: `300 while the baseline's credits last: 0.1x, value 0.40`; empty
/// without a burst.
fn burst_line(t: &ValueTable, r: &ValueRow, du: Option<format::DisplayUnit>) -> String {
    let Some(b) = &r.burst else {
        return String::new();
    };
    let mut line = format!(
        "{}{} {}",
        if b.baseline_only { "" } else { "burst " },
        format::in_column(b.level, t.unit, du),
        b.while_words()
    );
    if let Some(p) = b.performance_ratio {
        line.push_str(&format!(": {}", format::ratio(p)));
        if let Some(v) = b.value_ratio {
            line.push_str(&format!(", value {}", format::ratio_number(v, 2)));
        }
    }
    line
}
