//! Plausible values: the one table of the ranges diskdash accepts for every
//! number that enters it, a record's metrics and timeline, its subject's
//! size, price and provisioned units, and the `--prices`, `--limits` and
//! `--rates` files. A value outside its range is refused with the field and
//! the range; it is never dropped, clamped or shown.
//!
//! Each bound comes from physics or from the fastest (or cheapest, or
//! dearest) storage there is, with a margin of ten or more, and says so
//! beside it. Every range refuses NaN, infinities and negatives; a range
//! holds zero only where the quantity can be none at all, and refuses the
//! values between zero and its smallest positive value, the subnormal
//! doubles (5e-324) among them.
//!
//! Money is in any currency, so a price's range spans the dearest price
//! in US dollars times a million (the smallest currency units quoted, the
//! Iranian rial and the Vietnamese dong, run from about 25,000 to about a
//! million to the dollar) down to the cheapest in dollars over a thousand.

use crate::units::Unit;

/// The plausible values of one quantity: exactly zero when `zero`, else
/// `min` to `max` inclusive; `unit` names what they count in messages.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    /// The smallest plausible value above zero.
    pub min: f64,
    /// The largest plausible value.
    pub max: f64,
    /// Whether zero is a value (the quantity can be none at all).
    pub zero: bool,
    /// The unit, for messages (`IOPS`, `GB`); empty for a plain number.
    pub unit: &'static str,
}

const fn range(min: f64, max: f64, zero: bool, unit: &'static str) -> Range {
    Range {
        min,
        max,
        zero,
        unit,
    }
}

/// The longest a measurement runs, in seconds (10^7 s, 115 days): no
/// benchmark runs longer. A rate's smallest positive value is one event
/// in this time.
const LONGEST_S: f64 = 1e7;

/// The plausible values of a metric (and a timeline series) in `unit`.
pub fn metric(unit: Unit) -> Range {
    match unit {
        // the fastest NVMe device of 2026 reads ~14 GB/s; a host with a
        // few dozen of them, or its page cache (memory bandwidth), stays
        // below 10^12 B/s: 10x that. At least one byte in the longest run.
        Unit::BytesPerSec => range(1.0 / LONGEST_S, 1e13, true, "B/s"),
        // the fastest NVMe device of 2026 does ~3 million IOPS; a host
        // with 32 of them ~10^8: 10x that. At least one I/O in the longest run.
        Unit::Iops => range(1.0 / LONGEST_S, 1e9, true, "IOPS"),
        // file creates, stats and seeks: bonnie++'s cached stat rates reach
        // ~10^6 per core; 10^10 is far above any host
        Unit::OpsPerSec => range(1.0 / LONGEST_S, 1e10, true, "ops/s"),
        // no clock and no storage operation resolves below a nanosecond
        // (fio's clock counts ns): 0.1 ns leaves a mean of ns readings
        // room. At most the longest run.
        Unit::Seconds => range(1e-10, LONGEST_S, true, "s"),
        // CPU use summed over up to 1,000 cores (100,000 %), steady-state
        // ranges and slopes; a slope can be tiny, so only the subnormals
        // below the smallest normal double are refused
        Unit::Percent => range(f64::MIN_POSITIVE, 1e5, true, "%"),
        // an exabyte: more than any system holds. Burst bytes are computed
        // from levels and can be fractional: subnormals only are refused
        Unit::Bytes => range(f64::MIN_POSITIVE, 1e18, true, "B"),
        // I/O and request counts: 10^9 IOPS for the longest run is 10^16;
        // steady-state flags are 0 or 1
        Unit::Count => range(f64::MIN_POSITIVE, 1e16, true, "count"),
    }
}

/// Durations of a record outside its metrics (`duration_s`, `prior_io`,
/// `prefill`), seconds: a record's wall time can include days of earlier
/// I/O, so up to 10^9 s (31 years); zero is a duration.
pub const DURATION_S: Range = range(1e-10, 1e9, true, "s");

/// Bytes of a record outside its metrics (`prior_io`, `prefill`).
pub const BYTES: Range = range(1.0, 1e18, true, "B");

/// A volume's size in GB (`subject.size_gb`, `--size-gb`, the size columns
/// of `--limits`, size tiers in `--prices`): the largest single volumes
/// sold hold 64 TB; 10 PB is 150x that. A kilobyte (10^-6 GB) is below any
/// volume or test file.
pub const SIZE_GB: Range = range(1e-6, 1e7, false, "GB");

/// A size band's edge in GB (`size_min_gb`, a tier's `from`): may be 0.
pub const SIZE_EDGE_GB: Range = range(1e-6, 1e7, true, "GB");

/// A capacity price per GB-month (`subject.price.per_gb_month`,
/// `--price-per-gb-month`, `per_gb_month` and `capacity` in `--prices`):
/// the cheapest storage sold is ~0.001 USD (archive tiers), the dearest a
/// few USD (provisioned-IOPS SSD). Above zero: an offering without a price
/// is left out.
pub const PRICE_PER_GB_MONTH: Range = range(1e-6, 1e7, false, "per GB-month");

/// A price per provisioned IOPS-month (`per_iops_month`, `iops` in
/// `--prices`): AWS io2 charges 0.065 USD, the dearest known. Zero: a free band.
pub const PRICE_PER_IOPS_MONTH: Range = range(1e-6, 1e6, true, "per IOPS-month");

/// A price per provisioned MB/s-month (`per_mbps_month`, `throughput` in
/// `--prices`): AWS gp3 charges 0.04 USD. Zero: a free band.
pub const PRICE_PER_MBPS_MONTH: Range = range(1e-6, 1e6, true, "per MB/s-month");

/// A monthly amount (`monthly_fixed`, `fixed` and `capacity_tier` in
/// `--prices`): the dearest single volumes cost ~10^4 USD a month.
pub const PRICE_MONTHLY: Range = range(1e-6, 1e11, true, "per month");

/// Provisioned or included IOPS (the `provisioned_iops` label, `included`,
/// `from` and `to` of an `iops` band, `included_iops`): as measured IOPS,
/// and zero included.
pub const PROVISIONED_IOPS: Range = range(1e-3, 1e9, true, "IOPS");

/// Provisioned or included MB/s (the `provisioned_mbps` label, the bounds
/// of a `throughput` band, `included_mbps`): as measured bandwidth
/// (10^13 B/s is 10^7 MB/s).
pub const PROVISIONED_MBPS: Range = range(1e-6, 1e7, true, "MB/s");

/// The labels that hold a number the price list bills by, and its range:
/// a label that is no number, or an absurd one, would make a monthly cost
/// unknown or infinite.
pub const NUMBER_LABELS: [(&str, Range); 2] = [
    ("provisioned_iops", PROVISIONED_IOPS),
    ("provisioned_mbps", PROVISIONED_MBPS),
];

/// `Ok` for a label that holds no number diskdash reads, or a plausible
/// one ([`NUMBER_LABELS`]); else what is wrong: `` `fast` is not a number
/// (expected 0, or 1e-6 to 1e7 MB/s)``.
pub fn check_label(key: &str, text: &str) -> Result<(), String> {
    let Some((_, range)) = NUMBER_LABELS.iter().find(|(k, _)| *k == key) else {
        return Ok(());
    };
    match text.trim().parse::<f64>() {
        Ok(v) => range.check(v),
        Err(_) => Err(format!(
            "`{text}` is not a number (expected {})",
            range.describe()
        )),
    }
}

/// Promised IOPS (`baseline_iops`, `burst_iops` in `--limits`): published
/// promises run from ~100 IOPS (HDD classes) to 256,000 (io2 Block
/// Express); none promises less than one I/O a second. Leave a cell empty
/// when unknown: a promise of zero is none.
pub const LIMIT_IOPS: Range = range(1.0, 1e9, false, "IOPS");

/// Promised IOPS per GB (`baseline_iops_per_gb`): gp2 promises 3, io2
/// Block Express 1,000.
pub const LIMIT_IOPS_PER_GB: Range = range(1e-3, 1e4, false, "IOPS per GB");

/// Promised MB/s (`baseline_mbps`, `burst_mbps`): sc1 promises 12 MB/s per
/// TB, io2 Block Express 4,000 MB/s; a kilobyte a second is below any.
pub const LIMIT_MBPS: Range = range(1e-3, 1e7, false, "MB/s");

/// Promised MB/s per GB (`baseline_mbps_per_gb`): sc1 promises 0.012,
/// gp2 0.25.
pub const LIMIT_MBPS_PER_GB: Range = range(1e-6, 1e4, false, "MB/s per GB");

/// A promised burst's length and the length of one on+off cycle of a
/// periodic burst (`burst_s`, `burst_period_s` in `--limits`), seconds:
/// published ones run from 60 s (DigitalOcean, Linode) to 30 minutes
/// (gp2, Azure credits); a second is below any, 10^7 s (115 days) above.
pub const LIMIT_BURST_S: Range = range(1.0, 1e7, false, "s");

/// An exchange rate, units of one currency per unit of another (`--rates`):
/// the farthest apart ISO 4217 currencies (the Kuwaiti dinar, ~3.3 USD,
/// and the Iranian rial, ~10^6 to the dollar on the market) are ~3*10^6
/// apart; 10^8 either way.
pub const RATE: Range = range(1e-8, 1e8, false, "");

impl Range {
    /// Whether `v` is plausible: zero where zero is, else `min..=max`.
    /// NaN, infinities and negatives never are (`-0` is zero).
    pub fn contains(&self, v: f64) -> bool {
        (v == 0.0 && self.zero) || (v >= self.min && v <= self.max)
    }

    /// The range in words: `0, or 1e-7 to 1e9 IOPS`, `1e-6 to 1e7 GB`.
    pub fn describe(&self) -> String {
        let unit = if self.unit.is_empty() {
            String::new()
        } else {
            format!(" {}", self.unit)
        };
        let zero = if self.zero { "0, or " } else { "" };
        format!("{zero}{} to {}{unit}", show(self.min), show(self.max))
    }

    /// `Ok` for a plausible `v`; else what is wrong with it and the range:
    /// `5e-324 is implausibly small (plausible: 0, or 1e-7 to 1e9 IOPS)`.
    pub fn check(&self, v: f64) -> Result<(), String> {
        if self.contains(v) {
            return Ok(());
        }
        let what = if !v.is_finite() {
            "is not a finite number"
        } else if v < 0.0 {
            "is negative"
        } else if v > self.max {
            "is implausibly large"
        } else {
            "is implausibly small"
        };
        Err(format!(
            "{} {what} (plausible: {})",
            show(v),
            self.describe()
        ))
    }
}

/// A number in a message: plain from 10^-4 to below 10^6 (`0.5`, `3000`),
/// else in exponent form (`5e-324`, `1e13`), never 300 digits.
pub fn show(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 || !v.is_finite() || (1e-4..1e6).contains(&a) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

/// `Some(v)` when `v` is finite: a ratio that overflowed or divided by
/// about zero is unknown, never shown as `inf` or `NaN`.
pub fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subnormals_nan_infinities_and_negatives_are_outside_every_range() {
        let all = Unit::ALL.map(metric);
        let named = [
            DURATION_S,
            BYTES,
            SIZE_GB,
            SIZE_EDGE_GB,
            PRICE_PER_GB_MONTH,
            PRICE_PER_IOPS_MONTH,
            PRICE_PER_MBPS_MONTH,
            PRICE_MONTHLY,
            PROVISIONED_IOPS,
            PROVISIONED_MBPS,
            LIMIT_IOPS,
            LIMIT_IOPS_PER_GB,
            LIMIT_MBPS,
            LIMIT_MBPS_PER_GB,
            RATE,
        ];
        for r in all.iter().chain(&named) {
            for v in [
                5e-324,
                f64::MIN_POSITIVE / 2.0,
                f64::NAN,
                f64::INFINITY,
                f64::NEG_INFINITY,
                -1.0,
                -1e-300,
                1e308,
            ] {
                assert!(!r.contains(v), "{r:?} holds {v}");
            }
            assert!(r.contains(r.min) && r.contains(r.max), "{r:?}");
            assert!(r.min > 0.0 && r.min < r.max, "{r:?}");
            assert_eq!(r.contains(0.0), r.zero);
        }
    }

    #[test]
    fn a_value_outside_is_named_with_the_range() {
        let iops = metric(Unit::Iops);
        assert_eq!(
            iops.check(5e-324).unwrap_err(),
            "5e-324 is implausibly small (plausible: 0, or 1e-7 to 1e9 IOPS)"
        );
        assert_eq!(
            iops.check(2e9).unwrap_err(),
            "2e9 is implausibly large (plausible: 0, or 1e-7 to 1e9 IOPS)"
        );
        assert_eq!(
            metric(Unit::Seconds).check(-0.5).unwrap_err(),
            "-0.5 is negative (plausible: 0, or 1e-10 to 1e7 s)"
        );
        assert_eq!(
            RATE.check(f64::NAN).unwrap_err(),
            "NaN is not a finite number (plausible: 1e-8 to 1e8)"
        );
        assert_eq!(
            SIZE_GB.check(0.0).unwrap_err(),
            "0 is implausibly small (plausible: 1e-6 to 1e7 GB)"
        );
        assert!(iops.check(0.0).is_ok() && iops.check(3e6).is_ok());
        assert_eq!(finite(f64::INFINITY), None);
        assert_eq!(finite(f64::NAN), None);
        assert_eq!(finite(2.5), Some(2.5));
    }
}
