//! The one rule for a number a tool prints: every parser reads its rates,
//! sizes, times, counts and percentages through this module.
//!
//! A field the output does not hold stays unknown (the metric is left out).
//! A field the output holds must be a finite number >= 0 (no tool can do a
//! negative number of operations, move negative bytes or take negative
//! time): a string, `NaN`, an infinity, a negative number or a JSON `null`
//! where a number belongs is a [`BadNumber`], which the parser returns as
//! its error, so that `import` refuses the file and `run` writes a `failed`
//! record, both naming the field and the value. A number is never dropped
//! while the rest of the result is kept.

use std::fmt;

use serde_json::{Map, Value};

/// Characters of a bad value an error quotes at most.
const QUOTED_MAX: usize = 40;

/// A field a tool printed that is not a number >= 0.
#[derive(Clone, Debug, PartialEq)]
pub struct BadNumber {
    /// Where the value sits, as the tool names it: `jobs[0].read.iops`,
    /// `IOPS=` of the `read:` line, `bytes per second`.
    pub field: String,
    /// The value as printed, quoted (and shortened past [`QUOTED_MAX`]
    /// characters).
    pub value: String,
    /// What the field must be: [`A_NUMBER`] or [`A_PERCENTILE`].
    pub expected: &'static str,
}

/// What a figure must be.
pub const A_NUMBER: &str = "a number >= 0";

/// What a percentile's name must be.
pub const A_PERCENTILE: &str = "a percentile from 0 to 100";

impl fmt::Display for BadNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is {}: expected {}",
            self.field, self.value, self.expected
        )
    }
}

impl std::error::Error for BadNumber {}

impl BadNumber {
    /// The error for `field`, whose value was printed as `text`.
    pub fn new(field: &str, text: &str) -> BadNumber {
        BadNumber {
            field: field.to_string(),
            value: quoted(text),
            expected: A_NUMBER,
        }
    }
}

impl BadNumber {
    /// The error for `field`, whose JSON value is `v` (not a number).
    pub fn json(field: &str, v: &Value) -> BadNumber {
        BadNumber {
            field: field.to_string(),
            value: shortened(&v.to_string()),
            expected: A_NUMBER,
        }
    }
}

/// `text` quoted, control characters escaped, shortened to
/// [`QUOTED_MAX`] characters.
fn quoted(text: &str) -> String {
    let short: String = text.chars().take(QUOTED_MAX).collect();
    let more = if text.chars().count() > QUOTED_MAX {
        "..."
    } else {
        ""
    };
    format!("{short:?}{more}")
}

/// `v`, read for `field`, when it is finite and >= 0.
pub fn checked(field: &str, v: f64) -> Result<f64, BadNumber> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(BadNumber {
            field: field.to_string(),
            value: v.to_string(),
            expected: A_NUMBER,
        })
    }
}

/// A percentile as a tool names it (`99.900000`, `99.90th`, `99.000000%`
/// without its `%`) in thousandths of a percent (99900); `None` for `0`,
/// which fio 2.x pads its lists with; an error naming `field` for anything
/// that is not a percentile from 0 to 100.
pub fn percentile(field: &str, name: &str) -> Result<Option<u32>, BadNumber> {
    let t = name.trim().trim_end_matches("th");
    match t.parse::<f64>() {
        Ok(0.0) => Ok(None),
        Ok(p) if p > 0.0 && p <= 100.0 => Ok(Some((p * 1000.0).round() as u32)),
        _ => Err(BadNumber {
            field: field.to_string(),
            value: quoted(name.trim()),
            expected: A_PERCENTILE,
        }),
    }
}

/// A number read from text: `read` turns the printed `text` (what follows
/// `IOPS=`, a CSV cell) into a value; the result is checked. An error when
/// `read` finds no number in it or the number is not >= 0.
pub fn from_text(
    field: &str,
    text: &str,
    read: impl FnOnce(&str) -> Option<f64>,
) -> Result<f64, BadNumber> {
    match read(text) {
        Some(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(BadNumber::new(field, text.trim())),
    }
}

/// The number at `key` of a JSON object; `None` when the key is absent.
/// `field` names it in an error (`jobs[0].read.iops`).
pub fn json_field(
    obj: &Map<String, Value>,
    key: &str,
    field: &str,
) -> Result<Option<f64>, BadNumber> {
    let Some(v) = obj.get(key) else {
        return Ok(None);
    };
    match v.as_f64() {
        Some(x) => checked(field, x).map(Some),
        None => Err(BadNumber::json(field, v)),
    }
}

/// JSON text of a value, shortened to [`QUOTED_MAX`] characters.
fn shortened(json: &str) -> String {
    if json.chars().count() > QUOTED_MAX {
        let s: String = json.chars().take(QUOTED_MAX).collect();
        format!("{s}...")
    } else {
        json.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_present_field_is_a_number_at_least_zero_or_an_error_naming_it() {
        let obj = json!({"iops": 5.5, "zero": 0, "neg": -5, "s": "NaN", "bw": "fast",
                         "null": null, "list": [1], "long": "x".repeat(100)});
        let obj = obj.as_object().unwrap();
        let f = |k: &str| json_field(obj, k, &format!("read.{k}"));
        assert_eq!(f("iops"), Ok(Some(5.5)));
        assert_eq!(f("zero"), Ok(Some(0.0)));
        assert_eq!(f("absent"), Ok(None));
        let msg = |k: &str| f(k).unwrap_err().to_string();
        assert_eq!(msg("neg"), "read.neg is -5: expected a number >= 0");
        assert_eq!(msg("s"), "read.s is \"NaN\": expected a number >= 0");
        assert_eq!(msg("bw"), "read.bw is \"fast\": expected a number >= 0");
        assert_eq!(msg("null"), "read.null is null: expected a number >= 0");
        assert_eq!(msg("list"), "read.list is [1]: expected a number >= 0");
        assert_eq!(
            msg("long"),
            format!(
                "read.long is \"{}...: expected a number >= 0",
                "x".repeat(39)
            )
        );
        assert_eq!(
            checked("x", f64::NAN).unwrap_err().to_string(),
            "x is NaN: expected a number >= 0"
        );
        assert_eq!(checked("x", f64::NEG_INFINITY).unwrap_err().value, "-inf");
        let num = |t: &str| t.trim().parse::<f64>().ok();
        assert_eq!(from_text("IOPS=", " 12 ", num), Ok(12.0));
        assert_eq!(
            from_text("IOPS=", "-3", num).unwrap_err().to_string(),
            "IOPS= is \"-3\": expected a number >= 0"
        );
        assert_eq!(
            from_text("IOPS=", "\u{1b}[31m", num).unwrap_err().value,
            "\"\\u{1b}[31m\""
        );
        assert_eq!(percentile("k", "99.900000"), Ok(Some(99_900)));
        assert_eq!(percentile("k", " 1.00th"), Ok(Some(1_000)));
        assert_eq!(percentile("k", "0.00"), Ok(None));
        assert_eq!(
            percentile("k", "-0.5").unwrap_err().to_string(),
            "k is \"-0.5\": expected a percentile from 0 to 100"
        );
        assert!(percentile("k", "100.5").is_err() && percentile("k", "null").is_err());
    }
}
