//! Every number diskdash shows people is formatted here: the site's pages,
//! the numbers handed to its charts, and the terminal's progress display.
//! Measurements keep three significant digits in a unit chosen per value
//! (`215 µs`, `4.02 ms`, `1.20 s`), four from 1,000 up (`2,848 IOPS`,
//! `70,850 IOPS`), with thousands separators;
//! sizes given as parameters read in binary units (`4 KiB`, `1 GiB`); money is
//! shown to cents. Data files take [`data`] and [`ratio_data`] instead.

use crate::units::Unit;
use std::borrow::Cow;

/// A unit to show values in: display value = canonical value / `factor`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DisplayUnit {
    /// Label, e.g. `MB/s`.
    pub label: &'static str,
    /// Canonical units per display unit.
    pub factor: f64,
}

/// Significant digits a shown measurement keeps.
const DIGITS: i32 = 3;

const BANDWIDTH: [(&str, f64); 4] = [("B/s", 1.0), ("kB/s", 1e3), ("MB/s", 1e6), ("GB/s", 1e9)];
const TIME: [(&str, f64); 4] = [("ns", 1e-9), ("µs", 1e-6), ("ms", 1e-3), ("s", 1.0)];
const SIZE: [(&str, f64); 5] = [
    ("B", 1.0),
    ("kB", 1e3),
    ("MB", 1e6),
    ("GB", 1e9),
    ("TB", 1e12),
];

/// Decimals that give `v` (non-zero, finite) [`DIGITS`] significant digits,
/// none for 100 and more; a value that rounds up a decade (99.96) loses one.
fn decimals(v: f64) -> usize {
    let a = v.abs();
    let mut d = (DIGITS - 1 - a.log10().floor() as i32).clamp(0, 15);
    let scale = 10f64.powi(d);
    if d > 0 && (a * scale).round() >= 10f64.powi(DIGITS) {
        d -= 1;
    }
    d as usize
}

/// `v` rounded to three significant digits (whole numbers from 100 up are kept).
fn rounded(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let scale = 10f64.powi(decimals(v) as i32);
    (v * scale).round() / scale
}

/// The display unit for values of `unit` whose largest magnitude is
/// `largest`: the biggest step that keeps that value, rounded to three
/// significant digits, at 1 or more (so 999.7 µs reads `1.00 ms`).
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
        .find(|(_, f)| rounded(largest / f) >= 1.0)
        .or_else(|| steps.first())
        .copied()
        .unwrap_or(("", 1.0));
    DisplayUnit { label, factor }
}

/// The unit a column of `values` (of `unit`) can name once in its header:
/// the one every non-zero value would choose for itself, so no cell loses
/// digits to it; `None` when they differ (an NVMe p99 in µs beside a disk's
/// in ms), and the cells then carry their own units ([`in_column`]).
pub fn column_unit(unit: Unit, values: impl IntoIterator<Item = f64>) -> Option<DisplayUnit> {
    let mut shared = None;
    for v in values.into_iter().filter(|v| v.is_finite() && *v != 0.0) {
        let du = display_unit(unit, v);
        match shared {
            None => shared = Some(du),
            Some(s) if s != du => return None,
            Some(_) => {}
        }
    }
    Some(shared.unwrap_or_else(|| display_unit(unit, 0.0)))
}

/// A value in a column: the bare number when the column names its unit
/// (`col` from [`column_unit`]), else the value with its own unit.
pub fn in_column(v: f64, unit: Unit, col: Option<DisplayUnit>) -> String {
    match col {
        Some(du) => number(v / du.factor),
        None => value(v, unit),
    }
}

/// Significant digits a whole number of five or more digits keeps: never a
/// figure more exact than a measurement can be (`158,600`, not `158,584`).
const WHOLE_DIGITS: i32 = 4;

/// A number with three significant digits (four from 1,000 up) and
/// thousands separators: `70,850`, `1,969`, `24.8`, `1.60`, `0.00125`;
/// `n/a` when not finite.
pub fn number(v: f64) -> String {
    let mut out = String::new();
    push_number(&mut out, v);
    out
}

/// [`number`], appended to `out`.
pub fn push_number(out: &mut String, v: f64) {
    if !v.is_finite() {
        out.push_str("n/a");
        return;
    }
    if v == 0.0 {
        out.push('0');
        return;
    }
    let start = out.len();
    let a = v.abs();
    if a >= 10f64.powi(WHOLE_DIGITS) {
        // four significant digits, then zeros: the digits written as they
        // are, not the product `digits * 10^k`, which past about 1e21 is not
        // a whole number that prints as zeros
        let zeros = a.log10().floor() as i32 + 1 - WHOLE_DIGITS;
        let digits = (a / 10f64.powi(zeros)).round() as u64;
        out.push_str(itoa::Buffer::new().format(digits));
        out.extend(std::iter::repeat_n('0', zeros.max(0) as usize));
    } else {
        push_fixed(out, a, decimals(v));
    }
    // "-0.00" reads as noise
    let negative = v < 0.0
        && out[start..]
            .bytes()
            .any(|c| c.is_ascii_digit() && c != b'0');
    group_from(out, start);
    if negative {
        out.insert(start, '-');
    }
}

/// `v` with `decimals` decimals, appended to `out`: `write!`'s
/// `{v:.decimals$}`.
pub fn push_fixed(out: &mut String, v: f64, decimals: usize) {
    use std::fmt::Write as _;
    let _ = write!(out, "{v:.decimals$}");
}

/// `v` with `decimals` decimals: `format!("{v:.decimals$}")`.
pub fn fixed(v: f64, decimals: usize) -> String {
    format!("{v:.decimals$}")
}

/// `n` with thousands separators and the noun that agrees with it:
/// `1 configuration`, `1,200 configurations`.
pub fn count_of(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", whole(n as u64), if n == 1 { one } else { many })
}

/// A whole number with thousands separators: `1,073,741,824`.
pub fn whole(n: u64) -> String {
    grouped(itoa::Buffer::new().format(n))
}

/// Digits with a comma every three from the right.
pub(crate) fn grouped(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    out.push_str(digits);
    group_from(&mut out, 0);
    out
}

/// The thousands separators of the unsigned number that `out` holds from
/// `start` (digits, then perhaps a point and decimals): a comma every three
/// digits left of the point. The one grouping rule every number follows.
fn group_from(out: &mut String, start: usize) {
    let point = out[start..].find('.').map_or(out.len(), |at| start + at);
    let mut comma = point;
    while comma > start + 3 {
        comma -= 3;
        out.insert(comma, ',');
    }
}

/// A canonical value shown in `du`, with the unit: `98.3 MB/s`.
pub fn with_unit(v: f64, du: DisplayUnit) -> String {
    let mut out = String::with_capacity(16);
    push_number(&mut out, v / du.factor);
    if !du.label.is_empty() {
        out.push(' ');
        out.push_str(du.label);
    }
    out
}

/// A canonical value in its own best display unit: `310 µs`, `70,850 IOPS`.
/// A count that is whole reads as one (`12`, not `12.0`); from 10,000 up it
/// keeps four significant digits (`5,394,000` I/Os of a burst).
pub fn value(v: f64, unit: Unit) -> String {
    // from 10,000 up a count keeps four digits like any measurement
    if unit == Unit::Count && v.is_finite() && v.fract() == 0.0 && v.abs() < 1e4 {
        let n = whole(v.abs() as u64);
        return if v < 0.0 { format!("-{n}") } else { n };
    }
    with_unit(v, display_unit(unit, v))
}

/// A size in bytes as a tool takes it, in the largest binary unit that
/// holds it exactly (`4 KiB`, `1 GiB`, `1,536 MiB`), else in decimal units
/// when they do (`1 MB`), else in bytes (`1,000,001 B`): a parameter is
/// shown exactly, never rounded.
pub fn size(bytes: u64) -> String {
    const K: u64 = 1024;
    let units = [
        (K * K * K * K, "TiB"),
        (K * K * K, "GiB"),
        (K * K, "MiB"),
        (K, "KiB"),
        (1_000_000_000_000, "TB"),
        (1_000_000_000, "GB"),
        (1_000_000, "MB"),
        (1_000, "kB"),
    ];
    for (unit, label) in units {
        if bytes >= unit && bytes % unit == 0 {
            return format!("{} {label}", whole(bytes / unit));
        }
    }
    format!("{} B", whole(bytes))
}

/// Test parameters (as records store them) that are sizes in bytes.
/// NOTE: the names come from the argv builders and parsers in `src/tools/`
/// (fio and dd `bs`/`size`, dd `bytes`, ioping `size`/`work_size`, bonnie++
/// `file_size`/`chunk_size`/`file_min_size`/`file_max_size`/`ram_size`).
const SIZE_PARAMETERS: [&str; 9] = [
    "bs",
    "bytes",
    "chunk_size",
    "file_max_size",
    "file_min_size",
    "file_size",
    "ram_size",
    "size",
    "work_size",
];

/// Test parameters (as records store them) that are durations in seconds.
/// NOTE: the names come from the fio argv builder and parser in
/// `src/tools/fio/` (`runtime`, `ramp_time`, `startdelay`); no other tool
/// takes a duration.
const DURATION_PARAMETERS: [&str; 3] = ["ramp_time", "runtime", "startdelay"];

/// A parameter that is a duration in seconds, exactly: `45 min`, `90 s`,
/// `1 h 30 min`, `2 min 5 s`, `0.5 s`.
pub fn parameter_duration(secs: f64) -> String {
    if !(secs.is_finite() && secs >= 0.0) || secs.fract() != 0.0 || secs < 120.0 {
        let mut s = String::new();
        push_data(&mut s, secs);
        return format!("{s} s");
    }
    let secs = secs as u64;
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    let mut parts = Vec::new();
    if h > 0 {
        parts.push(format!("{} h", whole(h)));
    }
    if m > 0 {
        parts.push(format!("{m} min"));
    }
    if s > 0 {
        parts.push(format!("{s} s"));
    }
    parts.join(" ")
}

/// A test parameter's value for people: sizes in bytes as [`size`]
/// (`1 GiB`), durations in seconds as [`parameter_duration`] (`45 min`),
/// every other value as stored (strings without quotes).
pub fn parameter(key: &str, v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Number(n) if SIZE_PARAMETERS.contains(&key) => match n.as_u64() {
            Some(b) => size(b),
            None => n.to_string(),
        },
        serde_json::Value::Number(n) if DURATION_PARAMETERS.contains(&key) => match n.as_f64() {
            Some(secs) => parameter_duration(secs),
            None => n.to_string(),
        },
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A ratio for sentences and tables: one decimal and `x` (`4.7x`), within
/// the digits every ratio keeps ([`ratio_to`]).
pub fn ratio(r: f64) -> String {
    ratio_to(r, 1)
}

/// A ratio with `decimals` decimals and `x` (`1.25x`), within the digits
/// every ratio keeps ([`ratio_number`]: `0.071x`, never `0.1x`; `533.3x`,
/// never `533.333x`).
pub fn ratio_to(r: f64, decimals: usize) -> String {
    let mut out = ratio_number(r, decimals);
    if r.is_finite() {
        out.push('x');
    }
    out
}

/// Significant digits every shown ratio keeps at least ...
const RATIO_LEAST: i32 = 2;
/// ... and at most (fewer decimals, never fewer whole digits: `2,048`).
const RATIO_MOST: i32 = 4;
/// The most decimals a ratio is shown with.
const RATIO_PLACES: i32 = 300;

/// The one rule of every ratio and value ratio shown to people (pages,
/// charts, the post, the terminal, the display strings of the data files):
/// `decimals` decimals, more where that leaves fewer than two significant
/// digits (`0.071`, `0.083`, never `0.1` or `0.0`), fewer where it gives
/// more than four (`30.53`, `533.3`); none from 1,000 up, with thousands
/// separators (`2,048`). Rounded half away from zero: `{:.1}` rounds a tie
/// to even, so 10.00 / 8.00 = 1.25 would read 1.2 beside a value ratio of
/// 0.80, where a reader rounds it up to 1.3. No unit; `n/a` when not finite.
pub fn ratio_number(r: f64, decimals: usize) -> String {
    if !r.is_finite() {
        return "n/a".to_string();
    }
    if r == 0.0 {
        return "0".to_string();
    }
    if r.abs() >= 10f64.powi(RATIO_MOST) {
        // four significant digits, then zeros: `70,850`
        return number(r);
    }
    let places = |magnitude: f64| {
        let e = magnitude.log10().floor() as i32;
        // 10^-300 is about where f64's normal numbers end; no ratio is that small
        let least = (RATIO_LEAST - 1 - e).clamp(0, RATIO_PLACES);
        let most = (RATIO_MOST - 1 - e).max(0);
        (decimals as i32).clamp(least, most)
    };
    let round = |d: i32| {
        let f = 10f64.powi(d);
        (r * f).round() / f
    };
    let mut d = places(r.abs());
    // a value that rounds up a decade (99.996 to 100.00) is shown with the
    // digits of the decade it reaches
    let shown = round(d).abs();
    if shown > 0.0 {
        d = d.min(places(shown));
    }
    let mut out = String::new();
    push_fixed(&mut out, round(d).abs(), d as usize);
    group_from(&mut out, 0);
    if r < 0.0 {
        out.insert(0, '-');
    }
    out
}

/// A value ratio in a table, beside its verdict: three decimals below 10,
/// where the verdict bands lie (`0.800`, `1.250`), within the digits every
/// ratio keeps (`0.0071`, `27.84`, `511.1`, `2,048`); no unit.
pub fn ratio_table(r: f64) -> String {
    ratio_number(r, 3)
}

/// A ratio for data files: three decimals, no unit (`4.667`), more below
/// 0.01 so that it keeps two significant digits (`0.0071`).
pub fn ratio_data(r: f64) -> String {
    if r.is_finite() && r != 0.0 && r.abs() < 0.01 {
        let e = r.abs().log10().floor() as i32;
        return fixed(r, (RATIO_LEAST - 1 - e) as usize);
    }
    fixed(r, 3)
}

/// A number for data files: the shortest form that reads back to the same
/// f64, as zmij prints it (`0.3`, `2.5e-7`, `1.5e+20`), a whole number below
/// 2^53 without a decimal point (`42`, `-0`); `NaN`, `inf`, `-inf` when not
/// finite.
pub fn data(v: f64) -> String {
    let mut out = String::with_capacity(24);
    push_data(&mut out, v);
    out
}

/// [`data`], appended to `out`.
pub fn push_data(out: &mut String, v: f64) {
    if v.is_nan() {
        out.push_str("NaN");
    } else if v.is_infinite() {
        out.push_str(if v > 0.0 { "inf" } else { "-inf" });
    } else if v.fract() == 0.0 && v.abs() < 9_007_199_254_740_992.0 {
        // every whole number below 2^53 is exact, and reads back, in full
        if v.is_sign_negative() {
            out.push('-');
        }
        out.push_str(itoa::Buffer::new().format(v.abs() as u64));
    } else {
        out.push_str(zmij::Buffer::new().format_finite(v));
    }
}

/// A coefficient of variation as a percentage, one decimal.
pub fn percent(cv: f64) -> String {
    let mut out = fixed(cv * 100.0, 1);
    out.push('%');
    out
}

/// A change from `from` to `to` as a whole percentage with its sign:
/// `-30%`, `+4%`, `0%`; `n/a` without a finite, non-zero `from`.
pub fn change(from: f64, to: f64) -> String {
    let r = (to / from - 1.0) * 100.0;
    if !r.is_finite() || from == 0.0 {
        return "n/a".to_string();
    }
    let mut out = fixed(r, 0);
    if out == "-0" {
        out = "0".to_string();
    }
    if !out.starts_with('-') && out != "0" {
        out.insert(0, '+');
    }
    out.push('%');
    out
}

/// An amount of money, to cents: `15.00 USD`, `1,234.50 USD`.
pub fn money(v: f64, currency: &str) -> String {
    if !v.is_finite() {
        return format!("n/a {currency}");
    }
    let s = fixed(v.abs(), 2);
    let (units, cents) = s.split_once('.').unwrap_or((&s, "00"));
    let sign = if v < 0.0 && s != "0.00" { "-" } else { "" };
    format!("{sign}{}.{cents} {currency}", grouped(units))
}

/// A size in GB as a subject gives it: `100 GB`, `1,024 GB`, `0.500 GB`.
pub fn size_gb(v: f64) -> String {
    let mut out = if v.is_finite() && v.fract() == 0.0 && (0.0..1e15).contains(&v) {
        whole(v as u64)
    } else {
        number(v)
    };
    out.push_str(" GB");
    out
}

/// A duration in seconds, three significant digits: `12.3 s`, `1,202 s`.
pub fn duration(v: f64) -> String {
    value(v, Unit::Seconds)
}

/// A duration in words: `45 s`, `33 min`, `2.5 h`.
pub fn duration_words(s: f64) -> String {
    if s < 120.0 {
        format!("{} s", s.round())
    } else if s < 2.0 * 3600.0 {
        format!("{} min", (s / 60.0).round())
    } else {
        format!("{:.1} h", s / 3600.0)
    }
}

/// A machine's memory in the binary units machines are sized in, to three
/// significant digits without trailing zeros: `8 GiB`, `23.5 GiB`,
/// `512 MiB`.
pub fn memory(v: u64) -> String {
    const MIB: f64 = 1048576.0;
    let (n, unit) = if v as f64 >= 1024.0 * MIB {
        (v as f64 / (1024.0 * MIB), "GiB")
    } else {
        (v as f64 / MIB, "MiB")
    };
    let n = number(n);
    let n = if n.contains('.') {
        n.trim_end_matches('0').trim_end_matches('.')
    } else {
        &n
    };
    format!("{n} {unit}")
}

/// A byte count in the best SI unit: `8.00 GB`.
pub fn bytes(v: u64) -> String {
    value(v as f64, Unit::Bytes)
}

/// A performance ratio in words for a metric, with `decimals` decimals:
/// `4.2x the random seeks`, or for a lower-is-better metric (whose ratio
/// is already inverted, so above one is better) `1.3x better average
/// latency`; below one that reads `2.0x worse average latency` (its
/// reciprocal), since "0.5x better" would call a worse result better; one
/// that rounds to 1.0 reads `1.0x the average latency`.
pub fn performance_words(
    r: f64,
    metric_human: &str,
    higher_is_better: bool,
    decimals: usize,
) -> String {
    let perf = ratio_to(r, decimals);
    if higher_is_better || perf == ratio_to(1.0, decimals) {
        format!("{perf} the {metric_human}")
    } else if r > 1.0 {
        format!("{perf} better {metric_human}")
    } else {
        format!("{} worse {metric_human}", ratio_to(1.0 / r, decimals))
    }
}

/// A CSV cell that no spreadsheet runs as a formula: text starting with
/// `=`, `+`, `-`, `@`, TAB or CR gets a leading `'` (OWASP's rule for CSV
/// injection). A cell that is a plain number (`-0.5`) is left as it is.
/// Every CSV the site holds writes its cells through this.
pub fn csv_cell(cell: &str) -> Cow<'_, str> {
    let risky = cell.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if risky && cell.parse::<f64>().map_or(true, |v| !v.is_finite()) {
        format!("'{cell}").into()
    } else {
        cell.into()
    }
}

/// A CSV row with every cell passed through [`csv_cell`], as the bytes
/// `csv::Writer::write_record` takes.
pub fn csv_row<const N: usize>(cells: [&str; N]) -> impl Iterator<Item = Cow<'_, [u8]>> {
    cells.into_iter().map(|c| match csv_cell(c) {
        Cow::Borrowed(b) => Cow::Borrowed(b.as_bytes()),
        Cow::Owned(o) => Cow::Owned(o.into_bytes()),
    })
}

#[cfg(test)]
mod tests {
    use super::change;

    #[test]
    fn a_change_is_a_signed_whole_percentage() {
        assert_eq!(change(1000.0, 700.0), "-30%");
        assert_eq!(change(1000.0, 1044.0), "+4%");
        assert_eq!(change(1000.0, 1000.2), "0%");
        assert_eq!(change(1000.0, 999.8), "0%");
        assert_eq!(change(0.0, 5.0), "n/a");
    }

    use super::*;

    #[test]
    fn data_is_the_shortest_form_that_reads_back() {
        assert_eq!(data(0.0), "0");
        assert_eq!(data(-0.0), "-0");
        assert_eq!(data(42.0), "42");
        assert_eq!(data(-1e15), "-1000000000000000");
        assert_eq!(data(0.3), "0.3");
        assert_eq!(data(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(data(2.15e-5), "0.0000215");
        assert_eq!(data(123456.789), "123456.789");
        assert_eq!(data(1e-7), "1e-7");
        assert_eq!(data(1.5e20), "1.5e+20");
        assert_eq!(data(f64::NAN), "NaN");
        assert_eq!(data(f64::NEG_INFINITY), "-inf");
        // xorshift: the same values every run, of every exponent
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = f64::from_bits(x);
            if v.is_finite() {
                let text = data(v);
                assert_eq!(text.parse::<f64>().map(f64::to_bits), Ok(x), "{text}");
            }
        }
    }

    /// [`number`] as first written, with a string per step: the reference
    /// the one-buffer version is held to.
    fn number_by_steps(v: f64) -> String {
        if !v.is_finite() {
            return "n/a".to_string();
        }
        if v == 0.0 {
            return "0".to_string();
        }
        let a = v.abs();
        let s = if a >= 1e4 {
            let step = 10f64.powi(a.log10().floor() as i32 - 3);
            fixed((a / step).round() * step, 0)
        } else {
            fixed(a, decimals(v))
        };
        let negative = v < 0.0 && s.chars().any(|c| c.is_ascii_digit() && c != '0');
        let (whole, frac) = s.split_once('.').unwrap_or((&s, ""));
        let mut out = String::new();
        if negative {
            out.push('-');
        }
        out.push_str(&grouped(whole));
        if !frac.is_empty() {
            out.push('.');
            out.push_str(frac);
        }
        out
    }

    #[test]
    fn number_past_1e21_is_four_digits_then_zeros() {
        // the product 1224 * 10^42 is not a whole number that prints as zeros
        assert_eq!(number(1.2241e45), format!("1,224{}", ",000".repeat(14)));
        assert_eq!(number(-9.9996e30), format!("-10,000{}", ",000".repeat(9)));
        assert_eq!(number(f64::MAX).len(), 309 + 102);
    }

    #[test]
    fn number_in_one_buffer_is_number_by_steps() {
        let mut v = 1.0e-7_f64;
        let mut seen = 0;
        while v < 1.0e16 {
            for x in [v, -v, v * 1.0049, v * 0.9995, -v * 1.5, v.round(), v + 0.5] {
                assert_eq!(number(x), number_by_steps(x), "{x:e}");
                seen += 1;
            }
            v *= 1.37;
        }
        assert!(seen > 500);
        for x in [
            f64::NAN,
            f64::INFINITY,
            -0.0,
            -0.0004,
            999.5,
            1234567.0,
            -1234567.0,
        ] {
            assert_eq!(number(x), number_by_steps(x), "{x}");
        }
        assert_eq!(number(-1234567.0), "-1,235,000");
        assert_eq!(number(-0.0004), "-0.000400");
    }

    #[test]
    fn a_count_takes_the_noun_that_agrees_with_it() {
        assert_eq!(count_of(1, "run", "runs"), "1 run");
        assert_eq!(count_of(0, "run", "runs"), "0 runs");
        assert_eq!(count_of(1200, "run", "runs"), "1,200 runs");
    }

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
    fn every_value_keeps_three_significant_digits_in_its_own_unit() {
        // fio and bonnie++ figures from the sample results
        assert_eq!(value(309.7e-6, Unit::Seconds), "310 µs");
        assert_eq!(value(215e-6, Unit::Seconds), "215 µs");
        assert_eq!(value(1.64e-3, Unit::Seconds), "1.64 ms");
        assert_eq!(value(4.0213e-3, Unit::Seconds), "4.02 ms");
        assert_eq!(value(1.2, Unit::Seconds), "1.20 s");
        assert_eq!(value(70845.0, Unit::Iops), "70,850 IOPS");
        assert_eq!(value(1969.0, Unit::OpsPerSec), "1,969 ops/s");
        assert_eq!(value(473.4, Unit::OpsPerSec), "473 ops/s");
        assert_eq!(value(95981.0 * 1024.0, Unit::BytesPerSec), "98.3 MB/s");
        assert_eq!(value(12.0, Unit::Percent), "12.0 %");
        assert_eq!(value(7.0, Unit::Count), "7");
        assert_eq!(value(12345.0, Unit::Count), "12,350");
        // the smallest unit keeps three digits below one, never "0.00"
        assert_eq!(value(0.5, Unit::BytesPerSec), "0.500 B/s");
        assert_eq!(value(0.00125, Unit::Iops), "0.00125 IOPS");
        // rounding up a decade moves to the next unit
        assert_eq!(value(999.7e-6, Unit::Seconds), "1.00 ms");
        assert_eq!(value(99.96, Unit::Iops), "100 IOPS");
        assert_eq!(value(9.996e-3, Unit::Seconds), "10.0 ms");
        assert_eq!(value(5000.0, Unit::Seconds), "5,000 s");
    }

    #[test]
    fn a_column_names_its_unit_only_when_every_cell_would_choose_it() {
        // NVMe and disk p99 latencies side by side: each cell keeps its own
        let mixed = [215e-6, 12.3e-3];
        assert_eq!(column_unit(Unit::Seconds, mixed), None);
        let cells: Vec<String> = mixed
            .iter()
            .map(|v| in_column(*v, Unit::Seconds, None))
            .collect();
        assert_eq!(cells, ["215 µs", "12.3 ms"]);
        let disks = [4.02e-3, 12.3e-3, 0.0];
        let du = column_unit(Unit::Seconds, disks).unwrap();
        assert_eq!(du.label, "ms");
        assert_eq!(in_column(4.02e-3, Unit::Seconds, Some(du)), "4.02");
        let iops = column_unit(Unit::Iops, [70845.0, 24.84]).unwrap();
        assert_eq!(in_column(70845.0, Unit::Iops, Some(iops)), "70,850");
        assert_eq!(in_column(24.84, Unit::Iops, Some(iops)), "24.8");
        let du = display_unit(Unit::BytesPerSec, 95981.0 * 1024.0);
        assert_eq!(du.label, "MB/s");
        assert_eq!(with_unit(95981.0 * 1024.0, du), "98.3 MB/s");
    }

    #[test]
    fn numbers_have_separators_and_no_negative_zero() {
        assert_eq!(number(1969.0), "1,969");
        assert_eq!(number(1_073_741_824.0), "1,074,000,000");
        assert_eq!(number(-70845.4), "-70,850");
        // four significant digits from 10,000 up: never more than measured
        assert_eq!(number(2847.8013625111657), "2,848");
        assert_eq!(number(158584.0), "158,600");
        assert_eq!(number(99_995.0), "100,000");
        assert_eq!(number(10_000.4), "10,000");
        assert_eq!(value(12.0, Unit::Count), "12");
        assert_eq!(value(9_999.0, Unit::Count), "9,999");
        assert_eq!(value(5_394_490.0, Unit::Count), "5,394,000");
        assert_eq!(
            [0.8, 1.25, 9.9996, 27.8434, 511.06, 2048.4, 70845.0].map(ratio_table),
            ["0.800", "1.250", "10.00", "27.84", "511.1", "2,048", "70,850"]
        );
        assert_eq!(number(24.84), "24.8");
        assert_eq!(number(1.6), "1.60");
        assert_eq!(number(0.0), "0");
        assert_eq!(number(-0.0001), "-0.000100");
        assert_eq!(number(f64::NAN), "n/a");
        assert_eq!(whole(999), "999");
        assert_eq!(whole(1000), "1,000");
    }

    #[test]
    fn parameter_sizes_read_in_binary_units_and_stay_exact() {
        assert_eq!(size(1_073_741_824), "1 GiB");
        assert_eq!(size(4096), "4 KiB");
        assert_eq!(size(3 << 29), "1,536 MiB");
        assert_eq!(size(1_000_000), "1 MB");
        assert_eq!(size(512), "512 B");
        assert_eq!(size(1_000_001), "1,000,001 B");
        assert_eq!(size(0), "0 B");
        let v = |j: &str| serde_json::from_str::<serde_json::Value>(j).unwrap();
        assert_eq!(parameter("size", &v("1073741824")), "1 GiB");
        assert_eq!(parameter("bs", &v("4096")), "4 KiB");
        assert_eq!(parameter("ram_size", &v("1782579200")), "1,700 MiB");
        assert_eq!(parameter("bs", &v("\"4k-16k\"")), "4k-16k");
        assert_eq!(parameter("iodepth", &v("64")), "64");
        assert_eq!(parameter("runtime", &v("30.0")), "30 s");
        assert_eq!(parameter("runtime", &v("2700")), "45 min");
        assert_eq!(parameter("runtime", &v("5400.0")), "1 h 30 min");
        assert_eq!(parameter("ramp_time", &v("125")), "2 min 5 s");
        assert_eq!(parameter("startdelay", &v("0.5")), "0.5 s");
        // a duration fio was given as text is shown as given
        assert_eq!(parameter("runtime", &v("\"30s\"")), "30s");
        assert_eq!(parameter("direct", &v("true")), "true");
    }

    #[test]
    fn ratios_and_money() {
        assert_eq!(ratio(0.70 / 0.15), "4.7x");
        assert_eq!(ratio(1969.0 / 473.4), "4.2x");
        // a tie rounds up, as by hand: 10.00 USD against 8.00 USD
        assert_eq!(ratio(10.0 / 8.0), "1.3x");
        assert_eq!(ratio_data(0.70 / 0.15), "4.667");
        assert_eq!(money(15.0, "USD"), "15.00 USD");
        assert_eq!(money(1234.5, "EUR"), "1,234.50 EUR");
        assert_eq!(money(0.004, "USD"), "0.00 USD");
        assert_eq!(size_gb(100.0), "100 GB");
        assert_eq!(size_gb(0.5), "0.500 GB");
        assert_eq!(percent(0.1234), "12.3%");
        assert_eq!(data(0.1), "0.1");
    }

    #[test]
    fn performance_reads_right_both_ways() {
        let r = 1969.0 / 473.4;
        assert_eq!(
            performance_words(r, "random seeks", true, 1),
            "4.2x the random seeks"
        );
        assert_eq!(
            performance_words(r, "average latency", false, 1),
            "4.2x better average latency"
        );
        // worse latency is called worse, never "0.5x better"
        assert_eq!(
            performance_words(0.5, "average latency", false, 1),
            "2.0x worse average latency"
        );
        assert_eq!(
            performance_words(0.5, "random seeks", true, 1),
            "0.50x the random seeks"
        );
        assert_eq!(
            performance_words(388.4 / 386.0, "average latency", false, 1),
            "1.0x the average latency"
        );
        // the decimals a sentence needs to agree with its verdict
        assert_eq!(
            performance_words(0.8, "average latency", false, 2),
            "1.25x worse average latency"
        );
        assert_eq!(ratio_to(1.25, 1), "1.3x");
        assert_eq!(ratio_to(1.0, 2), "1.00x");
    }

    #[test]
    fn every_ratio_keeps_two_to_four_significant_digits() {
        // the published dataset's 0.071: never 0.1x
        let ratios = [
            0.071, 0.0833, 0.00712, 20.1, 30.53, 533.3, 9.996, 2048.4, 70845.0,
        ];
        assert_eq!(
            ratios.map(ratio),
            [
                "0.071x", "0.083x", "0.0071x", "20.1x", "30.5x", "533.3x", "10.0x", "2,048x",
                "70,850x"
            ]
        );
        assert_eq!(
            ratios.map(|r| ratio_to(r, 3)),
            [
                "0.071x", "0.083x", "0.0071x", "20.10x", "30.53x", "533.3x", "9.996x", "2,048x",
                "70,850x"
            ]
        );
        // a value ratio in a table and a matrix cell: 0.083, never 0.08
        assert_eq!(
            ratios.map(|r| ratio_number(r, 2)),
            ["0.071", "0.083", "0.0071", "20.10", "30.53", "533.3", "10.00", "2,048", "70,850"]
        );
        assert_eq!(ratio_table(0.0833), "0.083");
        assert_eq!(ratio_table(0.00712), "0.0071");
        // rounding up a decade keeps four digits, not five
        assert_eq!(ratio_to(99.996, 3), "100.0x");
        assert_eq!(ratio_to(0.0999, 1), "0.10x");
        assert_eq!(
            [0.0, -0.0712, 1234.5].map(ratio),
            ["0x", "-0.071x", "1,235x"]
        );
        assert_eq!([f64::NAN, f64::INFINITY].map(ratio), ["n/a", "n/a"]);
        // no more decimals than 10^-300 needs, and never NaN
        let tiny = ratio_number(1.23e-308, 1);
        assert_eq!(tiny, format!("0.{}", "0".repeat(300)));
        // data files keep their three decimals, and two digits below 0.01
        assert_eq!(
            [0.071, 0.00712, 533.333].map(ratio_data),
            ["0.071", "0.0071", "533.333"]
        );
    }

    #[test]
    fn memory_is_in_binary_units_without_trailing_zeros() {
        assert_eq!(memory(8 << 30), "8 GiB");
        // /proc/meminfo's MemTotal of a 24 GiB machine
        assert_eq!(memory(24684092 * 1024), "23.5 GiB");
        assert_eq!(memory(1_825_361_101), "1.7 GiB");
        assert_eq!(memory(512 << 20), "512 MiB");
        assert_eq!(memory(10 << 30), "10 GiB");
    }
}
