//! Prices: the `--prices FILE` list (CSV) that overrides record prices, and
//! the monthly cost of a tested configuration.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::record::Price;

/// One row of a price list.
#[derive(Clone, Debug, PartialEq)]
pub struct PriceEntry {
    /// Provider, as in the records' `subject.provider`.
    pub provider: String,
    /// Offering, as in the records' `subject.offering`.
    pub offering: String,
    /// Price per GB per month (above zero).
    pub per_gb_month: f64,
    /// ISO 4217 currency code.
    pub currency: String,
    /// When the price was read, as the file says it.
    pub as_of: Option<String>,
    /// Where the price comes from.
    pub source: Option<String>,
    /// Fixed monthly charge, whatever the size.
    pub monthly_fixed: Option<f64>,
    /// Price per provisioned IOPS per month above `included_iops`.
    pub per_iops_month: Option<f64>,
    /// IOPS included in the per-GB price.
    pub included_iops: Option<f64>,
    /// Price per provisioned MB/s per month above `included_mbps`.
    pub per_mbps_month: Option<f64>,
    /// MB/s included in the per-GB price.
    pub included_mbps: Option<f64>,
}

/// The price an offering is compared with, and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct EffectivePrice {
    /// Price per GB per month.
    pub per_gb_month: f64,
    /// Currency code.
    pub currency: String,
    /// Where the price comes from, for the reader.
    pub note: Option<String>,
    /// The price list row, when the price came from `--prices`.
    pub entry: Option<PriceEntry>,
}

impl EffectivePrice {
    /// The price a record carries.
    pub fn from_record(p: &Price) -> EffectivePrice {
        EffectivePrice {
            per_gb_month: p.per_gb_month,
            currency: p.currency.clone(),
            note: p.note.clone(),
            entry: None,
        }
    }

    /// The price a price-list row gives.
    pub fn from_entry(e: &PriceEntry) -> EffectivePrice {
        let note = match (&e.source, &e.as_of) {
            (Some(s), Some(d)) => Some(format!("{s}, as of {d}")),
            (Some(s), None) => Some(s.clone()),
            (None, Some(d)) => Some(format!("price list as of {d}")),
            (None, None) => Some("price list".to_string()),
        };
        EffectivePrice {
            per_gb_month: e.per_gb_month,
            currency: e.currency.clone(),
            note,
            entry: Some(e.clone()),
        }
    }

    /// What the tested configuration costs per month: size × per-GB price,
    /// plus the fixed charge, plus provisioned IOPS and MB/s above what is
    /// included. `None` when the size is unknown, or when the price bills
    /// IOPS (or MB/s) and the records do not say how many were provisioned
    /// (labels `provisioned_iops`, `provisioned_mbps`): a cost is never guessed.
    pub fn monthly_cost(
        &self,
        size_gb: Option<f64>,
        labels: &BTreeMap<String, String>,
    ) -> Option<f64> {
        let size = size_gb.filter(|s| s.is_finite() && *s > 0.0)?;
        let mut cost = size * self.per_gb_month;
        if let Some(e) = &self.entry {
            cost += e.monthly_fixed.unwrap_or(0.0);
            cost += extra(
                e.per_iops_month,
                e.included_iops,
                labels,
                "provisioned_iops",
            )?;
            cost += extra(
                e.per_mbps_month,
                e.included_mbps,
                labels,
                "provisioned_mbps",
            )?;
        }
        Some(cost)
    }
}

/// The charge for a provisioned quantity above what is included; `Some(0)`
/// when the price does not bill it.
fn extra(
    per_unit: Option<f64>,
    included: Option<f64>,
    labels: &BTreeMap<String, String>,
    label: &str,
) -> Option<f64> {
    let Some(rate) = per_unit.filter(|r| *r > 0.0) else {
        return Some(0.0);
    };
    let provisioned: f64 = labels.get(label)?.trim().parse().ok()?;
    if !provisioned.is_finite() || provisioned < 0.0 {
        return None;
    }
    Some(rate * (provisioned - included.unwrap_or(0.0)).max(0.0))
}

/// A price list keyed by `(provider, offering)`, compared case-insensitively.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PriceBook {
    entries: BTreeMap<(String, String), PriceEntry>,
}

fn key(provider: &str, offering: &str) -> (String, String) {
    (
        provider.trim().to_lowercase(),
        offering.trim().to_lowercase(),
    )
}

impl PriceBook {
    /// Reads a price list file; errors name the file and line.
    pub fn load(path: &Path) -> Result<PriceBook> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("failed to read price list `{}`", path.display()))?;
        PriceBook::parse(&text).with_context(|| format!("price list `{}`", path.display()))
    }

    /// Parses price list CSV. Errors name the line (1-based, header is line 1).
    pub fn parse(text: &str) -> Result<PriceBook> {
        let mut reader = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .flexible(false)
            .from_reader(text.as_bytes());
        let headers = reader
            .headers()
            .context("line 1: unreadable header")?
            .clone();
        let col = |name: &str| headers.iter().position(|h| h == name);
        let mut required = BTreeMap::new();
        for name in ["provider", "offering", "per_gb_month", "currency"] {
            match col(name) {
                Some(i) => {
                    required.insert(name, i);
                }
                None => bail!(
                    "line 1: missing column `{name}` (expected provider,offering,per_gb_month,currency,as_of,source)"
                ),
            }
        }
        let optional: BTreeMap<&str, Option<usize>> = [
            "as_of",
            "source",
            "monthly_fixed",
            "per_iops_month",
            "included_iops",
            "per_mbps_month",
            "included_mbps",
        ]
        .into_iter()
        .map(|n| (n, col(n)))
        .collect();
        let mut book = PriceBook::default();
        for (i, row) in reader.records().enumerate() {
            let line = i + 2;
            let row = row.with_context(|| format!("line {line}: unreadable row"))?;
            let text = |name: &str| -> Option<String> {
                let idx = required
                    .get(name)
                    .copied()
                    .or_else(|| optional.get(name).copied().flatten())?;
                row.get(idx).filter(|s| !s.is_empty()).map(str::to_string)
            };
            let number = |name: &str| -> Result<Option<f64>> {
                match text(name) {
                    None => Ok(None),
                    Some(s) => match s.parse::<f64>() {
                        Ok(v) if v.is_finite() && v >= 0.0 => Ok(Some(v)),
                        _ => bail!(
                            "line {line}: `{name}` is `{s}`, expected a number of zero or more"
                        ),
                    },
                }
            };
            let provider =
                text("provider").with_context(|| format!("line {line}: empty `provider`"))?;
            let offering =
                text("offering").with_context(|| format!("line {line}: empty `offering`"))?;
            let per_gb_month = number("per_gb_month")?
                .with_context(|| format!("line {line}: empty `per_gb_month`"))?;
            if per_gb_month <= 0.0 {
                bail!("line {line}: `per_gb_month` must be above zero (leave an offering without a price out of the list)");
            }
            let currency =
                text("currency").with_context(|| format!("line {line}: empty `currency`"))?;
            // records hold upper-case ISO 4217 codes; `usd` must match `USD`,
            // and `$` would silently match nothing
            if currency.len() != 3 || !currency.bytes().all(|b| b.is_ascii_alphabetic()) {
                bail!("line {line}: `currency` is `{currency}`, expected an ISO 4217 code such as USD");
            }
            let currency = currency.to_ascii_uppercase();
            let entry = PriceEntry {
                provider,
                offering,
                per_gb_month,
                currency,
                as_of: text("as_of"),
                source: text("source"),
                monthly_fixed: number("monthly_fixed")?,
                per_iops_month: number("per_iops_month")?,
                included_iops: number("included_iops")?,
                per_mbps_month: number("per_mbps_month")?,
                included_mbps: number("included_mbps")?,
            };
            let k = key(&entry.provider, &entry.offering);
            if book.entries.contains_key(&k) {
                bail!(
                    "line {line}: a second price for `{} {}`",
                    entry.provider,
                    entry.offering
                );
            }
            book.entries.insert(k, entry);
        }
        Ok(book)
    }

    /// The list's row for an offering, if any.
    pub fn get(&self, provider: Option<&str>, offering: Option<&str>) -> Option<&PriceEntry> {
        self.entries.get(&key(provider?, offering?))
    }

    /// Rows that match none of the given (provider, offering) pairs, in list
    /// order of their keys: a typo in a price list must not pass unnoticed
    /// while the records' own (older) prices are used instead.
    pub fn unmatched<'a, 'b>(
        &'a self,
        offerings: impl IntoIterator<Item = (Option<&'b str>, Option<&'b str>)>,
    ) -> Vec<&'a PriceEntry> {
        let used: std::collections::BTreeSet<(String, String)> = offerings
            .into_iter()
            .filter_map(|(p, o)| Some(key(p?, o?)))
            .collect();
        self.entries
            .iter()
            .filter(|(k, _)| !used.contains(*k))
            .map(|(_, e)| e)
            .collect()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The effective price of an offering: the list's, else the record's.
    pub fn effective(
        &self,
        provider: Option<&str>,
        offering: Option<&str>,
        record_price: Option<&Price>,
    ) -> Option<EffectivePrice> {
        match self.get(provider, offering) {
            Some(e) => Some(EffectivePrice::from_entry(e)),
            None => record_price.map(EffectivePrice::from_record),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: &str = "provider,offering,per_gb_month,currency,as_of,source,monthly_fixed,per_iops_month,included_iops\n\
Rackspace,Cloud Block Storage Standard (SATA),0.15,USD,2013-01,list price,,,\n\
AWS,gp3,0.08,USD,2024-06,aws pricing page,,0.005,3000\n";

    #[test]
    fn parses_rows_and_matches_case_insensitively() {
        let book = PriceBook::parse(LIST).unwrap();
        let e = book
            .get(
                Some("rackspace"),
                Some("cloud block storage standard (sata)"),
            )
            .unwrap();
        assert_eq!(e.per_gb_month, 0.15);
        assert_eq!(e.as_of.as_deref(), Some("2013-01"));
        assert_eq!(e.monthly_fixed, None);
        assert!(book.get(Some("AWS"), None).is_none());
    }

    #[test]
    fn list_overrides_record_price() {
        let book = PriceBook::parse(LIST).unwrap();
        let record = Price {
            per_gb_month: 0.10,
            currency: "USD".into(),
            note: None,
        };
        let p = book
            .effective(Some("AWS"), Some("gp3"), Some(&record))
            .unwrap();
        assert_eq!(p.per_gb_month, 0.08);
        assert_eq!(p.note.as_deref(), Some("aws pricing page, as of 2024-06"));
        let p = book
            .effective(Some("AWS"), Some("io2"), Some(&record))
            .unwrap();
        assert_eq!(p.per_gb_month, 0.10);
    }

    #[test]
    fn monthly_cost_adds_provisioned_iops_above_included() {
        let book = PriceBook::parse(LIST).unwrap();
        let p = book.effective(Some("AWS"), Some("gp3"), None).unwrap();
        let mut labels = BTreeMap::new();
        // IOPS billed but not stated: unknown, not guessed
        assert_eq!(p.monthly_cost(Some(100.0), &labels), None);
        labels.insert("provisioned_iops".to_string(), "5000".to_string());
        // 100 GB * 0.08 + (5000 - 3000) * 0.005 = 8 + 10
        let cost = p.monthly_cost(Some(100.0), &labels).unwrap();
        assert!((cost - 18.0).abs() < 1e-9);
        assert_eq!(p.monthly_cost(None, &labels), None);
    }

    #[test]
    fn rows_matching_no_offering_are_found() {
        let book = PriceBook::parse(LIST).unwrap();
        let left = book.unmatched([(
            Some("rackspace"),
            Some("Cloud Block Storage Standard (SATA)"),
        )]);
        let names: Vec<&str> = left.iter().map(|e| e.offering.as_str()).collect();
        assert_eq!(names, ["gp3"]);
    }

    #[test]
    fn record_price_cost_is_size_times_rate() {
        let p = EffectivePrice::from_record(&Price {
            per_gb_month: 0.7,
            currency: "USD".into(),
            note: None,
        });
        let cost = p.monthly_cost(Some(100.0), &BTreeMap::new()).unwrap();
        assert!((cost - 70.0).abs() < 1e-9);
    }

    #[test]
    fn currency_codes_match_the_records() {
        let book =
            PriceBook::parse("provider,offering,per_gb_month,currency\nA,b,0.1,usd\n").unwrap();
        let p = book.effective(Some("A"), Some("b"), None).unwrap();
        assert_eq!(p.currency, "USD");
        let err = format!(
            "{:#}",
            PriceBook::parse("provider,offering,per_gb_month,currency\nA,b,0.1,$\n").unwrap_err()
        );
        assert!(err.contains("line 2") && err.contains("ISO 4217"), "{err}");
    }

    #[test]
    fn errors_name_the_line() {
        let bad = "provider,offering,per_gb_month,currency\nA,b,0.1,USD\nA,c,cheap,USD\n";
        let err = format!("{:#}", PriceBook::parse(bad).unwrap_err());
        assert!(err.contains("line 3"), "{err}");
        assert!(err.contains("per_gb_month"), "{err}");
        let zero = "provider,offering,per_gb_month,currency\nA,b,0,USD\n";
        let err = format!("{:#}", PriceBook::parse(zero).unwrap_err());
        assert!(
            err.contains("line 2") && err.contains("above zero"),
            "{err}"
        );
        let missing = "provider,offering,price\nA,b,1\n";
        let err = format!("{:#}", PriceBook::parse(missing).unwrap_err());
        assert!(err.contains("missing column `per_gb_month`"), "{err}");
        let dup = "provider,offering,per_gb_month,currency\nA,b,1,USD\na,B,2,USD\n";
        let err = format!("{:#}", PriceBook::parse(dup).unwrap_err());
        assert!(
            err.contains("line 3") && err.contains("second price"),
            "{err}"
        );
        let ragged = "provider,offering,per_gb_month,currency\nA,b,1\n";
        let err = format!("{:#}", PriceBook::parse(ragged).unwrap_err());
        assert!(err.contains("line 2"), "{err}");
    }
}
