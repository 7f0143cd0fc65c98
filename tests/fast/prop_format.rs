//! Property tests of the display formatters (`src/format.rs`): over finite
//! values of every magnitude, the number printed, read back without its
//! unit and thousands separators, is within half a unit of its last printed
//! digit of the value formatted, and `format::data` reads back exactly.

use diskdash::format;
use diskdash::units::Unit;
use proptest::prelude::*;

/// A finite value across magnitudes: any bit pattern, and a few significant
/// digits times a power of ten (the places where rounding carries).
fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>().prop_filter("finite", |v| v.is_finite()),
        (any::<bool>(), 0u32..100_000, -20i32..20).prop_map(|(neg, m, e)| {
            let v = f64::from(m) * 10f64.powi(e);
            if neg {
                -v
            } else {
                v
            }
        }),
        (any::<bool>(), 1u32..1000, -15i32..21).prop_map(|(neg, m, e)| (f64::from(m) - 0.5)
            * 10f64.powi(e)
            * if neg { -1.0 } else { 1.0 }),
    ]
}

/// The value of a printed number (`-1,234.5`), and half a unit of its last
/// printed digit: of the last decimal when there is a point; else of the
/// units for up to four digits and, from five digits (shown to four
/// significant digits, `158,600`), of the last digit that is not a zero.
fn read_back(printed: &str) -> (f64, f64) {
    let digits: String = printed.chars().filter(|c| *c != ',').collect();
    let value: f64 = digits
        .parse()
        .unwrap_or_else(|e| panic!("`{printed}` is not a number: {e}"));
    let unsigned = digits.trim_start_matches('-');
    let half = match unsigned.split_once('.') {
        Some((_, decimals)) => 0.5 * 10f64.powi(-(decimals.len() as i32)),
        None if unsigned.len() <= 4 => 0.5,
        None => {
            let zeros = unsigned.len() - unsigned.trim_end_matches('0').len();
            0.5 * 10f64.powi(zeros.min(unsigned.len() - 1) as i32)
        }
    };
    (value, half)
}

/// `printed` reads back to within half a unit of its last digit of `v`
/// (with the slack of one f64 rounding of either).
fn within(printed: &str, v: f64) -> Result<(), TestCaseError> {
    let (back, half) = read_back(printed);
    let slack = 4.0 * f64::EPSILON * v.abs().max(back.abs());
    prop_assert!(
        (back - v).abs() <= half + slack,
        "`{}` for {:e}: {:e} off, half a last digit is {:e}",
        printed,
        v,
        (back - v).abs(),
        half
    );
    Ok(())
}

proptest! {
    #[test]
    fn data_reads_back_exactly(v in finite()) {
        let printed = format::data(v);
        let back: f64 = printed.parse().unwrap();
        prop_assert_eq!(back.to_bits(), v.to_bits(), "`{}` for {:e}", printed, v);
    }

    #[test]
    fn number_is_within_half_its_last_digit(v in finite()) {
        within(&format::number(v), v)?;
    }

    #[test]
    fn fixed_is_within_half_its_last_decimal(v in finite(), decimals in 0usize..8) {
        let printed = format::fixed(v, decimals);
        within(&printed, v)?;
        prop_assert_eq!(printed.split_once('.').map_or(0, |(_, d)| d.len()), decimals);
    }

    #[test]
    fn value_in_its_unit_is_within_half_its_last_digit(
        v in finite(),
        unit in prop::sample::select(vec![
            Unit::BytesPerSec, Unit::Seconds, Unit::Bytes, Unit::Iops,
            Unit::OpsPerSec, Unit::Percent, Unit::Count,
        ]),
    ) {
        let printed = format::value(v, unit);
        let du = format::display_unit(unit, v);
        let number = if du.label.is_empty() {
            printed.as_str()
        } else {
            printed
                .strip_suffix(du.label)
                .and_then(|n| n.strip_suffix(' '))
                .unwrap_or_else(|| panic!("`{printed}` is not in {}", du.label))
        };
        let (back, half) = read_back(number);
        let slack = 4.0 * f64::EPSILON * v.abs().max(back.abs() * du.factor);
        prop_assert!(
            (back * du.factor - v).abs() <= half * du.factor + slack,
            "`{}` for {:e} {}", printed, v, unit.as_str()
        );
    }

    #[test]
    fn ratios_money_and_percentages_are_within_half_their_last_digit(
        v in finite(),
        decimals in 0usize..4,
    ) {
        within(format::ratio_to(v, decimals).strip_suffix('x').unwrap(), v)?;
        within(format::ratio_table(v).as_str(), v)?;
        within(format::money(v, "USD").strip_suffix(" USD").unwrap(), v)?;
        // a percentage whose hundredfold overflows has no finite digits
        if (v * 100.0).is_finite() {
            within(format::percent(v).strip_suffix('%').unwrap(), v * 100.0)?;
        }
    }
}
