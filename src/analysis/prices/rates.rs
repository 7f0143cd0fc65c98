//! Exchange rates (`report --rates FILE`): a CSV with the header
//! `from,to,rate,as_of,source`, where one unit of `from` is `rate` units of
//! `to`, read on `as_of` (a date, `YYYY-MM-DD`) from `source` (a URL or
//! text). Configurations priced in another currency than their study's
//! baseline are converted to the baseline's with it; a pair given only the
//! other way round (`USD,EUR` when `EUR,USD` is wanted) is used inverted,
//! and the pages say so.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context, Result};

/// The columns of a rates file, in the order the docs give them.
pub const COLUMNS: [&str; 5] = ["from", "to", "rate", "as_of", "source"];

/// One row of a rates file.
#[derive(Clone, Debug, PartialEq)]
pub struct Rate {
    /// Currency converted from (upper-case ISO 4217 code).
    pub from: String,
    /// Currency converted to.
    pub to: String,
    /// Units of `to` one unit of `from` is worth (finite, above zero).
    pub rate: f64,
    /// When the rate was read, `YYYY-MM-DD`.
    pub as_of: String,
    /// Where the rate comes from; `None` when the file leaves it empty.
    pub source: Option<String>,
}

/// How a price in one currency becomes one in another: the factor, and the
/// row of the rates file it comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct Conversion {
    /// Currency converted from.
    pub from: String,
    /// Currency converted to.
    pub to: String,
    /// Units of `to` per unit of `from`: the row's rate, or 1 / the rate
    /// when the file gives only `to → from`.
    pub factor: f64,
    /// Whether `factor` is the inverse of the row (the file gives `to → from`).
    pub inverse: bool,
    /// The row the factor comes from.
    pub rate: Rate,
}

impl Conversion {
    /// `Prices in EUR converted at 1 EUR = 1.16 USD (as of 2026-11-30,
    /// source https://...)`; for an inverted row, `... = 1.16 USD (the
    /// inverse of 1 USD = 0.862 EUR, as of ...)`.
    pub fn sentence(&self) -> String {
        let mut s = format!(
            "Prices in {} converted at 1 {} = {} {} (",
            self.from,
            self.from,
            rate_text(self.factor),
            self.to
        );
        if self.inverse {
            s.push_str(&format!(
                "the inverse of 1 {} = {} {}, ",
                self.rate.from,
                rate_text(self.rate.rate),
                self.rate.to
            ));
        }
        s.push_str(&format!("as of {}", self.rate.as_of));
        if let Some(src) = &self.rate.source {
            s.push_str(&format!(", source {src}"));
        }
        s.push_str(").");
        s
    }
}

/// A rate for people: four significant digits at least, never in exponent
/// form (`1.16`, `0.8621`, `151.3`, `0.006606`).
pub fn rate_text(v: f64) -> String {
    if !v.is_finite() || v <= 0.0 {
        return crate::format::data(v);
    }
    // as many decimals as four significant digits need, at most 10
    let decimals = (3 - v.log10().floor() as i64).clamp(0, 10) as usize;
    let s = crate::format::fixed(v, decimals);
    // `1.1600` reads `1.16`: the digits that carry information
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The exchange rates of a build, keyed by `(from, to)`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rates {
    pairs: BTreeMap<(String, String), Rate>,
}

/// `YYYY-MM-DD` with a month 1-12 and a day the month can have.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let digits = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = s.get(r)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())
            .flatten()
    };
    let (Some(y), Some(m), Some(d)) = (digits(0..4), digits(5..7), digits(8..10)) else {
        return false;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// The 1-based line of the record starting at `byte`: the reader's own
/// count is off by one after a CRLF line end, where a record may start at
/// the `\n` of the line before.
fn line_at(lines: &mut crate::bounded::LineCounter, text: &str, byte: u64) -> usize {
    let bytes = text.as_bytes();
    let mut at = usize::try_from(byte).unwrap_or(usize::MAX).min(bytes.len());
    while at < bytes.len() && matches!(bytes[at], b'\r' | b'\n') {
        at += 1;
    }
    1 + lines.newlines_before(at)
}

/// How far rounding to the digits of `text` (a positive decimal such as
/// `1.16`) may have moved the number, relative to it: half a unit of its
/// last digit over its value (`0.005 / 1.16`).
fn rounding(text: &str) -> f64 {
    let decimals = text.split_once('.').map_or(0, |(_, f)| {
        f.chars().take_while(char::is_ascii_digit).count()
    });
    let value: f64 = text.parse().unwrap_or(f64::NAN);
    let half_unit = 0.5 * 10f64.powi(-(decimals.min(30) as i32));
    if value.is_finite() && value > 0.0 {
        half_unit / value
    } else {
        0.0
    }
}

impl Rates {
    /// Reads a rates file; errors name the file, line and column
    /// (`rates.csv:3: column 3 (rate): ...`).
    pub fn load(path: &Path) -> Result<Rates> {
        let text = crate::bounded::read_list(path, "rates file")?;
        Rates::parse(&text, &path.display().to_string())
    }

    /// Parses rates CSV; `file` names it in errors, which read
    /// `FILE:LINE: column N (NAME): what was found, what was expected`.
    pub fn parse(text: &str, file: &str) -> Result<Rates> {
        // a line starting with `#` is a comment, as in the limits list;
        // line numbers count it
        let mut reader = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .flexible(true)
            .comment(Some(b'#'))
            .from_reader(text.as_bytes());
        let headers = reader
            .headers()
            .with_context(|| format!("{file}:1: unreadable header"))?
            .clone();
        // the reader skips comments and blank lines before the header
        let header_line = 1 + text
            .lines()
            .take_while(|l| l.starts_with('#') || l.trim().is_empty())
            .count();
        let expected = COLUMNS.join(",");
        let mut cols = [0usize; 5];
        for (slot, name) in cols.iter_mut().zip(COLUMNS) {
            match headers.iter().position(|h| h == name) {
                Some(i) => *slot = i,
                None => bail!(
                    "{file}:{header_line}: missing column `{name}` (expected the header {expected})"
                ),
            }
        }
        let mut rates = Rates::default();
        // where each pair was given, for a later row that contradicts it
        let mut lines: BTreeMap<(String, String), usize> = BTreeMap::new();
        // each pair's rate as written: how far rounding may have moved it
        let mut written: BTreeMap<(String, String), String> = BTreeMap::new();
        let mut counter = crate::bounded::LineCounter::new(text);
        for (i, row) in reader.records().enumerate() {
            let fallback = i + 2;
            let row = row.with_context(|| format!("{file}:{fallback}: unreadable row"))?;
            let line = row
                .position()
                .map(|p| line_at(&mut counter, text, p.byte()))
                .unwrap_or(fallback);
            if row.iter().all(str::is_empty) {
                continue;
            }
            if row.len() > headers.len() {
                bail!(
                    "{file}:{line}: column {} is past the header's {} columns (quote a source that holds a comma)",
                    headers.len() + 1,
                    headers.len()
                );
            }
            let cell = |k: usize| -> Result<&str> {
                let (idx, name) = (cols[k], COLUMNS[k]);
                row.get(idx).with_context(|| {
                    format!(
                        "{file}:{line}: column {} ({name}) is missing: the row has {} of the header's {} columns",
                        idx + 1,
                        row.len(),
                        headers.len()
                    )
                })
            };
            let at = |k: usize| format!("{file}:{line}: column {} ({})", cols[k] + 1, COLUMNS[k]);
            let code = |k: usize| -> Result<String> {
                let text = cell(k)?;
                crate::record::currency_code(text).with_context(|| {
                    format!(
                        "{}: `{text}`, expected an ISO 4217 currency code such as USD",
                        at(k)
                    )
                })
            };
            let from = code(0)?;
            let to = code(1)?;
            if from == to {
                bail!(
                    "{}: `{to}` is the same currency as column {} (from); a rate converts one currency into another",
                    at(1),
                    cols[0] + 1
                );
            }
            let rate_text = cell(2)?;
            let rate = match rate_text.parse::<f64>() {
                Ok(v) if v.is_finite() && v > 0.0 => {
                    if let Err(why) = crate::plausible::RATE.check(v) {
                        bail!("{}: {why}, as units of {to} per {from}", at(2));
                    }
                    v
                }
                Ok(_) => bail!(
                    "{}: `{rate_text}`, expected a number above zero (units of {to} per {from})",
                    at(2)
                ),
                Err(_) => bail!(
                    "{}: `{rate_text}` is not a number, expected units of {to} per {from} such as 1.16",
                    at(2)
                ),
            };
            let as_of = cell(3)?;
            if !is_date(as_of) {
                bail!(
                    "{}: `{as_of}`, expected the date the rate was read as YYYY-MM-DD",
                    at(3)
                );
            }
            let source = cell(4)?;
            let key = (from.clone(), to.clone());
            if let Some(earlier) = rates.pairs.get(&key) {
                if earlier.rate != rate {
                    bail!(
                        "{}: {from}→{to} is {rate_text} here and {} on line {}; give one rate per pair",
                        at(2),
                        crate::format::data(earlier.rate),
                        lines.get(&key).copied().unwrap_or(0)
                    );
                }
                // the same rate twice: the first row stands
                continue;
            }
            // the other direction given too: the two must agree to within
            // the rounding of the digits each was written with
            let back = (to.clone(), from.clone());
            if let Some(earlier) = rates.pairs.get(&back) {
                let slack = rounding(rate_text) + rounding(&written[&back]);
                if (rate * earlier.rate - 1.0).abs() > slack + 1e-12 {
                    bail!(
                        "{}: {from}→{to} is {rate_text} here, but line {} gives {to}→{from} as {}, \
                         whose inverse is {}; give one direction, or two that agree",
                        at(2),
                        lines.get(&back).copied().unwrap_or(0),
                        written[&back],
                        crate::format::number(1.0 / earlier.rate)
                    );
                }
            }
            lines.insert(key.clone(), line);
            written.insert(key.clone(), rate_text.to_string());
            rates.pairs.insert(
                key,
                Rate {
                    from,
                    to,
                    rate,
                    as_of: as_of.to_string(),
                    source: (!source.is_empty()).then(|| source.to_string()),
                },
            );
        }
        Ok(rates)
    }

    /// How to convert `from` into `to`: the file's `from → to` row, else
    /// its `to → from` row inverted; `None` without either.
    pub fn conversion(&self, from: &str, to: &str) -> Option<Conversion> {
        let key = |a: &str, b: &str| (a.to_string(), b.to_string());
        if let Some(r) = self.pairs.get(&key(from, to)) {
            return Some(Conversion {
                from: from.to_string(),
                to: to.to_string(),
                factor: r.rate,
                inverse: false,
                rate: r.clone(),
            });
        }
        let r = self.pairs.get(&key(to, from))?;
        Some(Conversion {
            from: from.to_string(),
            to: to.to_string(),
            factor: 1.0 / r.rate,
            inverse: true,
            rate: r.clone(),
        })
    }

    /// Whether the file gave no rate.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Every rate, by `(from, to)`.
    pub fn iter(&self) -> impl Iterator<Item = &Rate> {
        self.pairs.values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "from,to,rate,as_of,source\n";

    fn err(body: &str) -> String {
        format!(
            "{:#}",
            Rates::parse(&format!("{HEADER}{body}"), "r.csv").unwrap_err()
        )
    }

    #[test]
    fn both_directions_of_a_pair_must_agree_to_within_their_rounding() {
        // 1.16 and 0.8621 are one rate, each rounded: 1.16 × 0.8621 = 1.000036
        let ok = Rates::parse(
            &format!("{HEADER}EUR,USD,1.16,2026-11-30,ecb\nUSD,EUR,0.8621,2026-11-30,ecb\n"),
            "rates.csv",
        )
        .unwrap();
        assert_eq!(ok.conversion("USD", "EUR").unwrap().factor, 0.8621);
        // 0.5 is no rounding of 1 / 1.16 = 0.862
        assert_eq!(
            err("EUR,USD,1.16,2026-11-30,ecb\nUSD,EUR,0.5,2026-11-30,mine\n"),
            "r.csv:3: column 3 (rate): USD→EUR is 0.5 here, but line 2 gives EUR→USD as 1.16, whose inverse is 0.862; give one direction, or two that agree"
        );
        // 0.88 is not 0.862 rounded to two decimals either: 1.16 × 0.88 =
        // 1.0208, beyond 0.005/1.16 + 0.005/0.88 = 0.0100
        assert!(
            err("EUR,USD,1.16,2026-11-30,ecb\nUSD,EUR,0.88,2026-11-30,x\n")
                .contains("line 2 gives EUR→USD as 1.16")
        );
        // but 0.86 is (1.16 × 0.86 = 0.9976, within 0.005/1.16 + 0.005/0.86)
        assert!(Rates::parse(
            &format!("{HEADER}EUR,USD,1.16,2026-11-30,ecb\nUSD,EUR,0.86,2026-11-30,x\n"),
            "rates.csv",
        )
        .is_ok());
    }

    #[test]
    fn a_rate_converts_and_its_inverse_is_used_when_only_it_is_given() {
        let rates = Rates::parse(
            &format!(
                "{HEADER}eur,USD,1.16,2026-11-30,https://example.org/fx\nUSD,JPY,150,2026-11-29,\n"
            ),
            "r.csv",
        )
        .unwrap();
        let c = rates.conversion("EUR", "USD").unwrap();
        assert_eq!((c.factor, c.inverse), (1.16, false));
        assert_eq!(
            c.sentence(),
            "Prices in EUR converted at 1 EUR = 1.16 USD (as of 2026-11-30, source https://example.org/fx)."
        );
        let back = rates.conversion("USD", "EUR").unwrap();
        assert!(back.inverse);
        assert!((back.factor - 1.0 / 1.16).abs() < 1e-15);
        assert_eq!(
            back.sentence(),
            "Prices in USD converted at 1 USD = 0.8621 EUR (the inverse of 1 EUR = 1.16 USD, as of 2026-11-30, source https://example.org/fx)."
        );
        let yen = rates.conversion("JPY", "USD").unwrap();
        assert_eq!(rate_text(yen.factor), "0.006667");
        assert!(!yen.sentence().contains("source"));
        assert_eq!(rates.conversion("EUR", "JPY"), None);
        assert_eq!(rates.iter().count(), 2);
    }

    #[test]
    fn bad_rows_name_file_line_and_column() {
        let e = err("EUR,USD,abc,2026-11-30,x\n");
        assert!(
            e.starts_with("r.csv:2: column 3 (rate): `abc` is not a number"),
            "{e}"
        );
        let e = err("EUR,USD,1.1,2026-11-30,x\nGBP,USD,0,2026-11-30,x\n");
        assert!(
            e.starts_with("r.csv:3: column 3 (rate): `0`, expected a number above zero"),
            "{e}"
        );
        let e = err("EUR,USD,-1.2,2026-11-30,x\n");
        assert!(e.contains("r.csv:2: column 3 (rate)"), "{e}");
        let e = err("EUR,USD,inf,2026-11-30,x\n");
        assert!(e.contains("above zero"), "{e}");
        // the plausible range of a rate, both ways
        let e = err("EUR,USD,1e300,2026-11-30,x\n");
        assert_eq!(
            e,
            "r.csv:2: column 3 (rate): 1e300 is implausibly large (plausible: 1e-8 to 1e8), as units of USD per EUR"
        );
        let e = err("EUR,USD,5e-324,2026-11-30,x\n");
        assert!(
            e.starts_with(
                "r.csv:2: column 3 (rate): 5e-324 is implausibly small (plausible: 1e-8 to 1e8)"
            ),
            "{e}"
        );
        let e = err("EUR,USD,1.1,30/11/2026,x\n");
        assert!(
            e.starts_with("r.csv:2: column 4 (as_of): `30/11/2026`, expected"),
            "{e}"
        );
        assert!(e.contains("YYYY-MM-DD"), "{e}");
        assert!(err("EUR,USD,1.1,2026-02-29,x\n").contains("column 4 (as_of)"));
        assert!(err("EUR,USD,1.1,2026-13-01,x\n").contains("column 4 (as_of)"));
        // 2024 is a leap year
        assert!(Rates::parse(&format!("{HEADER}EUR,USD,1.1,2024-02-29,x\n"), "r").is_ok());
        let e = err("EUR,USD,1.1\n");
        assert!(e.starts_with("r.csv:2: column 4 (as_of) is missing"), "{e}");
        let e = err("EUR,USD,1.1,2026-11-30,x\nEUR,USD,1.2,2026-12-01,y\n");
        assert!(
            e.starts_with("r.csv:3: column 3 (rate): EUR→USD is 1.2 here and 1.1 on line 2"),
            "{e}"
        );
        let e = err("EUR,USD,1.1,2026-11-30,ECB, daily\n");
        assert!(
            e.starts_with("r.csv:2: column 6 is past the header's 5 columns"),
            "{e}"
        );
        let quoted = format!("{HEADER}EUR,USD,1.1,2026-11-30,\"ECB, daily\"\n");
        let r = Rates::parse(&quoted, "r").unwrap();
        assert_eq!(
            r.iter().next().unwrap().source.as_deref(),
            Some("ECB, daily")
        );
        // the same rate again is no contradiction
        assert!(Rates::parse(
            &format!("{HEADER}EUR,USD,1.1,2026-11-30,x\neur,usd,1.10,2026-11-30,x\n"),
            "r"
        )
        .is_ok());
        let e = err("USD,usd,1,2026-11-30,x\n");
        assert!(
            e.starts_with("r.csv:2: column 2 (to): `USD` is the same currency"),
            "{e}"
        );
        let e = err("EUR,$,1.1,2026-11-30,x\n");
        assert!(
            e.starts_with("r.csv:2: column 2 (to): `$`, expected an ISO 4217"),
            "{e}"
        );
        let e = format!(
            "{:#}",
            Rates::parse("from,to,rate,source\nEUR,USD,1.1,x\n", "r.csv").unwrap_err()
        );
        assert!(e.starts_with("r.csv:1: missing column `as_of`"), "{e}");
        // columns in another order: the message counts the file's columns
        let e = format!(
            "{:#}",
            Rates::parse(
                "rate,from,to,as_of,source\nx,EUR,USD,2026-11-30,\n",
                "r.csv"
            )
            .unwrap_err()
        );
        assert!(e.starts_with("r.csv:2: column 1 (rate)"), "{e}");
    }

    #[test]
    fn comment_lines_are_skipped_and_counted() {
        let text = "# rates for the 2026 study\nfrom,to,rate,as_of,source\n# ECB reference rates\nEUR,USD,1.16,2026-11-30,ECB\nGBP,USD,x,2026-11-30,ECB\n";
        let e = format!("{:#}", Rates::parse(text, "r.csv").unwrap_err());
        assert!(e.starts_with("r.csv:5: column 3 (rate)"), "{e}");
        let ok = Rates::parse(&text.replace(",x,", ",1.27,"), "r.csv").unwrap();
        assert_eq!(ok.iter().count(), 2);
        let e = format!(
            "{:#}",
            Rates::parse("# c\nfrom,to,rate\n", "r.csv").unwrap_err()
        );
        assert!(e.starts_with("r.csv:2: missing column `as_of`"), "{e}");
    }

    #[test]
    fn a_spreadsheet_export_parses() {
        // a byte-order mark, CRLF line ends and padded cells
        let text = "\u{feff}from,to,rate,as_of,source\r\n EUR , USD , 1.16 , 2026-11-30 , ECB \r\n";
        let rates = Rates::parse(text, "r.csv").unwrap();
        let c = rates.conversion("EUR", "USD").unwrap();
        assert_eq!(c.factor, 1.16);
        assert_eq!(c.rate.source.as_deref(), Some("ECB"));
        let e = format!(
            "{:#}",
            Rates::parse(&text.replace("1.16", "x"), "r.csv").unwrap_err()
        );
        assert!(e.starts_with("r.csv:2: column 3 (rate)"), "{e}");
    }

    #[test]
    fn the_example_file_parses() {
        let text = include_str!("../../../docs/rates.example.csv");
        let rates = Rates::parse(text, "docs/rates.example.csv").unwrap();
        let c = rates.conversion("EUR", "USD").unwrap();
        assert_eq!((c.factor, c.rate.as_of.as_str()), (1.16, "2026-11-30"));
        // JPY→USD only as USD→JPY: inverted
        assert!(rates.conversion("JPY", "USD").unwrap().inverse);
    }

    #[test]
    fn dates_are_checked_as_dates() {
        for good in ["2026-11-30", "2000-02-29", "1999-12-31"] {
            assert!(is_date(good), "{good}");
        }
        for bad in [
            "2026-11-31",
            "1900-02-29",
            "2026-1-30",
            "2026-00-10",
            "２026-11-30",
            "",
        ] {
            assert!(!is_date(bad), "{bad}");
        }
    }
}
