//! Every number on the site is formatted here: display-unit choice, fixed
//! precision, ratios, money and the verdict sentence.

use crate::analysis::prices::EffectivePrice;
use crate::analysis::value::{PriceBasis, ValueRow, BASELINE_VERDICT};
use crate::units::Unit;

/// A unit to show values in: display value = canonical value / `factor`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DisplayUnit {
    /// Label, e.g. `MB/s`.
    pub label: &'static str,
    /// Canonical units per display unit.
    pub factor: f64,
}

const BANDWIDTH: [(&str, f64); 4] = [("B/s", 1.0), ("kB/s", 1e3), ("MB/s", 1e6), ("GB/s", 1e9)];
const TIME: [(&str, f64); 4] = [("ns", 1e-9), ("µs", 1e-6), ("ms", 1e-3), ("s", 1.0)];
const SIZE: [(&str, f64); 5] = [
    ("B", 1.0),
    ("kB", 1e3),
    ("MB", 1e6),
    ("GB", 1e9),
    ("TB", 1e12),
];

/// The display unit for values of `unit` whose largest magnitude is
/// `largest`: the biggest step that keeps that value at 1 or more.
/// Bandwidth and sizes use decimal (SI) prefixes, like dd and fio 3.x.
pub fn display_unit(unit: Unit, largest: f64) -> DisplayUnit {
    let steps: &[(&'static str, f64)] = match unit {
        Unit::BytesPerSec => &BANDWIDTH,
        Unit::Seconds => &TIME,
        Unit::Bytes => &SIZE,
        Unit::Iops => &[("IOPS", 1.0)],
        Unit::OpsPerSec => &[("ops/s", 1.0)],
        Unit::Percent => &[("%", 1.0)],
        Unit::Count => &[("", 1.0)],
    };
    let largest = if largest.is_finite() {
        largest.abs()
    } else {
        0.0
    };
    let (label, factor) = steps
        .iter()
        .rev()
        .find(|(_, f)| largest >= *f)
        .or_else(|| steps.first())
        .copied()
        .unwrap_or(("", 1.0));
    DisplayUnit { label, factor }
}

/// A number with fixed precision by magnitude: 0 decimals from 100, 1 from
/// 10, 2 below; `n/a` when not finite.
pub fn number(v: f64) -> String {
    if !v.is_finite() {
        return "n/a".to_string();
    }
    let a = v.abs();
    let s = if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    };
    // "-0" and "-0.00" read as noise
    if s.trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        s.trim_start_matches('-').to_string()
    } else {
        s
    }
}

/// A canonical value shown in `du`, with the unit: `98.3 MB/s`.
pub fn with_unit(v: f64, du: DisplayUnit) -> String {
    let n = number(v / du.factor);
    if du.label.is_empty() {
        n
    } else {
        format!("{n} {}", du.label)
    }
}

/// A canonical value in its own best display unit.
pub fn value(v: f64, unit: Unit) -> String {
    with_unit(v, display_unit(unit, v))
}

/// A ratio for sentences and tables: one decimal and `x` (`4.7x`).
pub fn ratio(r: f64) -> String {
    if r.is_finite() {
        format!("{r:.1}x")
    } else {
        "n/a".to_string()
    }
}

/// A ratio for data files: three decimals, no unit (`4.667`).
pub fn ratio_data(r: f64) -> String {
    format!("{r:.3}")
}

/// A number for data files: shortest form that reads back to the same f64.
pub fn data(v: f64) -> String {
    format!("{v}")
}

/// A coefficient of variation as a percentage, one decimal.
pub fn percent(cv: f64) -> String {
    format!("{:.1}%", cv * 100.0)
}

/// A price per GB-month: `0.150 USD`; at least three significant digits, so
/// archive-class prices keep their value (`0.000990 USD`, not `0.001 USD`).
pub fn price_per_gb(p: &EffectivePrice) -> String {
    let Some(v) = p.per_gb_month() else {
        return format!("not per GB ({})", p.currency);
    };
    let decimals = if v.is_finite() && v > 0.0 {
        (2 - v.log10().floor() as i64).clamp(3, 12) as usize
    } else {
        3
    };
    format!("{v:.decimals$} {}", p.currency)
}

/// An amount of money: `15.00 USD`.
pub fn money(v: f64, currency: &str) -> String {
    format!("{v:.2} {currency}")
}

/// A size in GB: `100 GB`, `0.5 GB`.
pub fn size_gb(v: f64) -> String {
    format!("{} GB", number(v))
}

/// A duration in seconds, fixed precision: `12.3 s`.
pub fn duration(v: f64) -> String {
    value(v, Unit::Seconds)
}

/// A byte count in the best SI unit: `8.00 GB`.
pub fn bytes(v: u64) -> String {
    value(v as f64, Unit::Bytes)
}

/// The verdict for a value row in words:
/// `4.7x the price, 4.2x the random seeks: nearly worth it`, or for a
/// lower-is-better metric `2.5x the price, 1.3x better average latency: not quite`
/// (the ratio is already inverted, and "1.3x the latency" would read as worse).
/// A lower-is-better ratio below one reads `1.3x worse` (its reciprocal), since
/// "0.8x better" would call a worse result better; one that rounds to 1.0
/// reads `1.0x the average latency`. `None` when the row has no value ratio.
pub fn verdict_sentence(
    row: &ValueRow,
    metric_human: &str,
    higher_is_better: bool,
) -> Option<String> {
    if row.verdict? == BASELINE_VERDICT {
        return Some(BASELINE_VERDICT.to_string());
    }
    let verdict = row.verdict_text()?;
    let r = row.performance_ratio?;
    let perf = ratio(r);
    let what = if higher_is_better || perf == ratio(1.0) {
        format!("{perf} the {metric_human}")
    } else if r > 1.0 {
        format!("{perf} better {metric_human}")
    } else {
        format!("{} worse {metric_human}", ratio(1.0 / r))
    };
    let basis = row.price_basis.map(PriceBasis::words).unwrap_or("price");
    Some(format!(
        "{} the {basis}, {what}: {verdict}",
        ratio(row.price_ratio?)
    ))
}

/// A CSV cell that no spreadsheet runs as a formula: text starting with
/// `=`, `+`, `-`, `@`, TAB or CR gets a leading `'` (OWASP's rule for CSV
/// injection). A cell that is a plain number (`-0.5`) is left as it is.
/// Every CSV the site holds writes its cells through this.
pub fn csv_cell(cell: &str) -> std::borrow::Cow<'_, str> {
    let risky = cell.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if risky && cell.parse::<f64>().map_or(true, |v| !v.is_finite()) {
        format!("'{cell}").into()
    } else {
        cell.into()
    }
}

/// A CSV row with every cell passed through [`csv_cell`].
pub fn csv_row<const N: usize>(cells: [&str; N]) -> [String; N] {
    cells.map(|c| csv_cell(c).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_never_start_a_formula() {
        for (cell, expected) in [
            ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
            ("+1+1", "'+1+1"),
            ("-1+cmd", "'-1+cmd"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("\rx", "'\rx"),
            ("-0.5", "-0.5"),
            ("-inf", "'-inf"),
            ("Acme = good", "Acme = good"),
            ("", ""),
        ] {
            assert_eq!(csv_cell(cell), expected, "{cell:?}");
        }
    }

    #[test]
    fn display_units_keep_values_above_one() {
        let du = display_unit(Unit::BytesPerSec, 95981.0 * 1024.0);
        assert_eq!(du.label, "MB/s");
        assert_eq!(with_unit(95981.0 * 1024.0, du), "98.3 MB/s");
        assert_eq!(value(309.7e-6, Unit::Seconds), "310 µs");
        assert_eq!(value(1.64e-3, Unit::Seconds), "1.64 ms");
        assert_eq!(value(473.4, Unit::OpsPerSec), "473 ops/s");
        assert_eq!(value(0.5, Unit::BytesPerSec), "0.50 B/s");
        assert_eq!(value(12.0, Unit::Percent), "12.0 %");
        assert_eq!(value(7.0, Unit::Count), "7.00");
    }

    #[test]
    fn fixed_precision_by_magnitude() {
        assert_eq!(number(1969.0), "1969");
        assert_eq!(number(24.84), "24.8");
        assert_eq!(number(1.6), "1.60");
        assert_eq!(number(-0.001), "0.00");
        assert_eq!(number(f64::NAN), "n/a");
    }

    #[test]
    fn ratios_and_money() {
        assert_eq!(ratio(0.70 / 0.15), "4.7x");
        assert_eq!(ratio(1969.0 / 473.4), "4.2x");
        assert_eq!(ratio_data(0.70 / 0.15), "4.667");
        assert_eq!(money(15.0, "USD"), "15.00 USD");
        let price = |v: f64| price_per_gb(&EffectivePrice::flat(v, "USD", None));
        assert_eq!(price(0.15), "0.150 USD");
        assert_eq!(price(1.25), "1.250 USD");
        assert_eq!(price(0.08), "0.0800 USD");
        assert_eq!(price(0.00099), "0.000990 USD");
        assert_eq!(price(0.0045), "0.00450 USD");
        assert_eq!(percent(0.1234), "12.3%");
        assert_eq!(data(0.1), "0.1");
    }

    #[test]
    fn verdict_sentences_read_right_both_ways() {
        let row = ValueRow {
            offering: "SSD".into(),
            price: None,
            median: 1969.0,
            min: 1969.0,
            max: 1969.0,
            runs: 1,
            is_baseline: false,
            price_basis: Some(PriceBasis::Monthly),
            price_ratio: Some(0.70 / 0.15),
            per_gb_ratio: Some(0.70 / 0.15),
            performance_ratio: Some(1969.0 / 473.4),
            value_ratio: Some(0.891),
            value_range: None,
            single_run: false,
            verdict: Some("nearly worth it"),
            uncertain: false,
            no_verdict: None,
            monthly_cost: None,
            per_cost: None,
        };
        assert_eq!(
            verdict_sentence(&row, "random seeks", true).unwrap(),
            "4.7x the monthly cost, 4.2x the random seeks: nearly worth it"
        );
        assert_eq!(
            verdict_sentence(&row, "average latency", false).unwrap(),
            "4.7x the monthly cost, 4.2x better average latency: nearly worth it"
        );
        // worse latency is called worse, never "0.5x better"
        let slower = ValueRow {
            performance_ratio: Some(0.5),
            verdict: Some("no"),
            ..row.clone()
        };
        assert_eq!(
            verdict_sentence(&slower, "average latency", false).unwrap(),
            "4.7x the monthly cost, 2.0x worse average latency: no"
        );
        assert_eq!(
            verdict_sentence(&slower, "random seeks", true).unwrap(),
            "4.7x the monthly cost, 0.5x the random seeks: no"
        );
        let same = ValueRow {
            performance_ratio: Some(388.4 / 386.0),
            ..slower.clone()
        };
        assert_eq!(
            verdict_sentence(&same, "average latency", false).unwrap(),
            "4.7x the monthly cost, 1.0x the average latency: no"
        );
        let none = ValueRow {
            verdict: None,
            ..row.clone()
        };
        assert_eq!(verdict_sentence(&none, "x", true), None);
        let base = ValueRow {
            verdict: Some(BASELINE_VERDICT),
            ..row
        };
        assert_eq!(verdict_sentence(&base, "x", true).unwrap(), "baseline");
    }
}
