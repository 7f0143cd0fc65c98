//! Prices: the `--prices FILE` list (CSV) that overrides record prices, and
//! the monthly cost of a tested configuration.
//!
//! A list comes in two formats, told apart by its header: one row per
//! offering (`per_gb_month` and optional columns), read here, or one row per
//! price component (a `component` column), read in `long`. Either gives one
//! [`PriceEntry`] per provider and offering. What a price is made of, and the
//! arithmetic of a monthly bill, live in `cost`.
//!
//! For the value analysis: [`PriceBook::effective`] gives an offering's
//! [`EffectivePrice`]; [`EffectivePrice::try_monthly_cost`] what a
//! configuration costs per month or why that is unknown ([`Missing`]);
//! [`EffectivePrice::is_flat`] and [`EffectivePrice::per_gb_month`] whether
//! prices can be compared per GB instead.

mod cost;
mod long;
pub mod rates;

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::analysis::catalogued::{self, Names};
use crate::plausible::{self, Range};
use crate::record::Price;

pub use cost::{Band, Component, Included, Missing};
pub use rates::{Conversion, Rates};

/// One offering's price in a price list: one row of the wide format, or all
/// the rows of one provider and offering in the long format.
#[derive(Clone, Debug, PartialEq)]
pub struct PriceEntry {
    /// Provider, as in the records' `subject.provider`.
    pub provider: String,
    /// Offering, as in the records' `subject.offering`.
    pub offering: String,
    /// The region the price holds in (`us-east-1`, `eastus`); `None` for
    /// any region. Only the long format has a `region` column.
    pub region: Option<String>,
    /// ISO 4217 currency code, upper case.
    pub currency: String,
    /// When the price was read, as the file says it.
    pub as_of: Option<String>,
    /// Where the price comes from.
    pub source: Option<String>,
    /// What the price is made of, in list order; never empty.
    pub components: Vec<Component>,
}

impl PriceEntry {
    /// The price per GB-month of capacity; `None` for a price without one
    /// (size tiers only, say).
    pub fn per_gb_month(&self) -> Option<f64> {
        cost::per_gb_month(&self.components)
    }

    /// Whether the price is a per-GB capacity price and nothing else that
    /// bills: no fixed charge, size tiers, IOPS or MB/s.
    pub fn is_flat(&self) -> bool {
        cost::is_flat(&self.components)
    }
}

/// Where the price a configuration is compared with comes from, in the
/// order they win: the `--prices` list, the records' own price, the
/// built-in catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Prices,
    Record,
    Catalogue,
}

impl Origin {
    /// The name exports give it (`price_origin`).
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Prices => "prices",
            Origin::Record => "record",
            Origin::Catalogue => "catalogue",
        }
    }
}

/// The price an offering is compared with, and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct EffectivePrice {
    /// Which list or record the price comes from.
    pub origin: Origin,
    /// Currency code.
    pub currency: String,
    /// Where the price comes from, for the reader ("source, as of date").
    pub note: Option<String>,
    /// What the price is made of; a record's price is one per-GB capacity price.
    pub components: Vec<Component>,
}

impl EffectivePrice {
    /// A flat price: `per_gb_month` per GB-month and nothing else.
    pub fn flat(per_gb_month: f64, currency: &str, note: Option<String>) -> EffectivePrice {
        EffectivePrice {
            origin: Origin::Record,
            currency: currency.to_string(),
            note,
            components: vec![Component::Capacity { per_gb_month }],
        }
    }

    /// The price a record carries (`subject.price`): always flat.
    pub fn from_record(p: &Price) -> EffectivePrice {
        EffectivePrice::flat(p.per_gb_month, &p.currency, p.note.clone())
    }

    /// The price a price-list entry gives; the note is "source, as of date".
    pub fn from_entry(e: &PriceEntry) -> EffectivePrice {
        let note = match (&e.source, &e.as_of) {
            (Some(s), Some(d)) => Some(format!("{s}, as of {d}")),
            (Some(s), None) => Some(s.clone()),
            (None, Some(d)) => Some(format!("price list as of {d}")),
            (None, None) => Some("price list".to_string()),
        };
        EffectivePrice {
            origin: Origin::Prices,
            currency: e.currency.clone(),
            note,
            components: e.components.clone(),
        }
    }

    /// The price per GB-month of capacity; `None` for a price without one
    /// (size tiers only, a fixed charge only). Prices compare per GB only
    /// when both are [flat](EffectivePrice::is_flat).
    pub fn per_gb_month(&self) -> Option<f64> {
        cost::per_gb_month(&self.components)
    }

    /// The price per GB-month for people: `0.150 USD`; at least three
    /// significant digits, so archive-class prices keep their value
    /// (`0.000990 USD`, not `0.001 USD`).
    pub fn per_gb_text(&self) -> String {
        let Some(v) = self.per_gb_month() else {
            return format!("not per GB ({})", self.currency);
        };
        let decimals = if v.is_finite() && v > 0.0 {
            (2 - v.log10().floor() as i64).clamp(3, 12) as usize
        } else {
            3
        };
        format!("{v:.decimals$} {}", self.currency)
    }

    /// Whether the price is a per-GB capacity price and nothing else that
    /// bills: no fixed charge, size tiers, IOPS or MB/s. A record's price is.
    pub fn is_flat(&self) -> bool {
        cost::is_flat(&self.components)
    }

    /// What a configuration costs per month, in [`EffectivePrice::currency`]:
    /// size × per-GB price, or the price of the size tier the size rounds
    /// up to, plus the fixed charge, plus each IOPS and MB/s band's price
    /// for the provisioned units in it above what is included. Provisioned
    /// units come from the labels `provisioned_iops` and `provisioned_mbps`.
    ///
    /// The sum is exact in the decimals the list gives and rounded once, so
    /// a bill of 2456.50 is 2456.5, not 2456.4999999999995.
    ///
    /// Fails with what is missing, never guessing: the size (when capacity
    /// is billed), a provisioned count (when its price is above zero), or a
    /// tier for the size.
    pub fn try_monthly_cost(
        &self,
        size_gb: Option<f64>,
        labels: &BTreeMap<String, String>,
    ) -> Result<f64, Missing> {
        cost::monthly_cost(&self.components, size_gb, labels)
    }

    /// The levels a configuration with `labels` is priced at because its
    /// price includes them and the labels give no provisioned figure (plain
    /// gp3: 3,000 IOPS and 125 MB/s); say them beside the cost
    /// ([`Included::words`]).
    pub fn included(&self, labels: &BTreeMap<String, String>) -> Included {
        Included::assumed(&self.components, labels)
    }

    /// [`EffectivePrice::try_monthly_cost`] without the reason: `None` when
    /// the cost is unknown.
    pub fn monthly_cost(
        &self,
        size_gb: Option<f64>,
        labels: &BTreeMap<String, String>,
    ) -> Option<f64> {
        self.try_monthly_cost(size_gb, labels).ok()
    }
}

/// A price list keyed by `(provider, offering, region)`, compared
/// case-insensitively with the provider aliases
/// ([`crate::analysis::catalogued::provider_key`]), the exchange rates
/// (`--rates`) that convert prices in other currencies into a study
/// baseline's, and the catalogue under it, if any.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PriceBook {
    entries: BTreeMap<Key, PriceEntry>,
    rates: Rates,
    /// The built-in list prices, used for an offering neither this list
    /// nor its records price; with the build date its staleness is told from.
    catalogue: Option<(Box<PriceBook>, String)>,
    /// The names the catalogue has (its limits rows' too, where the
    /// caller gave them), told to a configuration it does not match.
    catalogue_names: Option<Names>,
}

/// The key of a price: provider (canonical), offering, region (empty for
/// any region); lower case.
type Key = (String, String, String);

/// What a list holds for one configuration.
enum Found<'a> {
    /// The row for its region, or for any region.
    Row(&'a PriceEntry),
    /// Rows for the offering, none for the configuration's region.
    OtherRegions,
    /// No row for the offering.
    None,
}

/// The columns of the one-row-per-offering price list, for errors.
const WIDE_COLUMNS: &str = "expected provider,offering,per_gb_month,currency,as_of,source with `per_gb_month`, `monthly` or both; or provider,offering,currency,as_of,source,component,price,from,to,included";

/// A currency cell as the records hold it: an upper-case ISO 4217 code.
fn currency_code(line: usize, currency: String) -> Result<String> {
    // records hold upper-case ISO 4217 codes; `usd` must match `USD`,
    // and `$` would silently match nothing
    crate::record::currency_code(&currency).with_context(|| {
        format!("line {line}: `currency` is `{currency}`, expected an ISO 4217 code such as USD")
    })
}

/// A price list cell that must be a number in `range`
/// ([`crate::plausible`]); the error names the line, the column and the range.
fn number_in(line: usize, name: &str, text: &str, range: Range) -> Result<f64> {
    match text.parse::<f64>() {
        Ok(v) => match range.check(v) {
            Ok(()) => Ok(v),
            Err(why) => bail!("line {line}: `{name}` {why}"),
        },
        Err(_) => bail!(
            "line {line}: `{name}` is `{text}`, expected a number ({})",
            range.describe()
        ),
    }
}

/// The key of a price in a [`PriceBook`]: trimmed, lower case, the
/// provider's and offering's catalogue names where they have one.
fn key(provider: &str, offering: &str, region: Option<&str>) -> Key {
    (
        crate::analysis::catalogued::provider_key(provider),
        crate::analysis::catalogued::offering_key(provider, offering),
        region.unwrap_or("").trim().to_lowercase(),
    )
}

/// A price list's text with every comment line (first non-blank character
/// `#`) blanked, so the CSV reader skips it and line numbers still count it.
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.trim_start().starts_with('#') {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The line (1-based) a row of `text` is on. The CSV reader places a row
/// at the start of the blank lines it skipped before it; this skips them.
fn line_of(text: &str, row: &csv::StringRecord, fallback: usize) -> usize {
    let Some(p) = row.position() else {
        return fallback;
    };
    let mut line = usize::try_from(p.line()).unwrap_or(fallback);
    let mut rest = usize::try_from(p.byte())
        .ok()
        .and_then(|b| text.get(b..))
        .unwrap_or("");
    while let Some(r) = rest
        .strip_prefix('\n')
        .or_else(|| rest.strip_prefix("\r\n"))
    {
        line += 1;
        rest = r;
    }
    line
}

impl PriceBook {
    /// Reads a price list file; errors name the file and line.
    pub fn load(path: &Path) -> Result<PriceBook> {
        let text = crate::bounded::read_list(path, "price list")?;
        PriceBook::parse(&text).with_context(|| format!("price list `{}`", path.display()))
    }

    /// Parses price list CSV, in either format (a `component` column makes
    /// it the long one). A line starting with `#` is a comment. Errors name
    /// the line (1-based, comments and blank lines count).
    pub fn parse(text: &str) -> Result<PriceBook> {
        let text = without_comments(text);
        let mut reader = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .flexible(false)
            .from_reader(text.as_bytes());
        let headers = reader
            .headers()
            .context("line 1: unreadable header")?
            .clone();
        if headers.iter().any(|h| h == "component") {
            return Ok(PriceBook {
                entries: long::parse(&text, reader, &headers)?,
                rates: Rates::default(),
                catalogue: None,
                catalogue_names: None,
            });
        }
        let col = |name: &str| headers.iter().position(|h| h == name);
        let mut required = BTreeMap::new();
        if col("per_gb_month").is_none() && col("monthly").is_none() {
            bail!("line 1: missing column `per_gb_month` or `monthly` ({WIDE_COLUMNS})");
        }
        for name in ["provider", "offering", "currency"] {
            match col(name) {
                Some(i) => {
                    required.insert(name, i);
                }
                None => bail!("line 1: missing column `{name}` ({WIDE_COLUMNS})"),
            }
        }
        let optional: BTreeMap<&str, Option<usize>> = [
            "per_gb_month",
            "monthly",
            "region",
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
            let fallback = i + 2;
            let row = row.with_context(|| format!("line {fallback}: unreadable row"))?;
            let line = line_of(&text, &row, fallback);
            let text = |name: &str| -> Option<String> {
                let idx = required
                    .get(name)
                    .copied()
                    .or_else(|| optional.get(name).copied().flatten())?;
                row.get(idx).filter(|s| !s.is_empty()).map(str::to_string)
            };
            // a number in its plausible range, or none
            let number = |name: &str, range: Range| -> Result<Option<f64>> {
                let Some(s) = text(name) else { return Ok(None) };
                number_in(line, name, &s, range).map(Some)
            };
            let provider =
                text("provider").with_context(|| format!("line {line}: empty `provider`"))?;
            let offering =
                text("offering").with_context(|| format!("line {line}: empty `offering`"))?;
            // a price per GB, a plan's price per month, or both; never zero
            let above_zero = |name: &str, range: Range| -> Result<Option<f64>> {
                let Some(t) = text(name) else { return Ok(None) };
                if t.parse::<f64>() == Ok(0.0) {
                    bail!("line {line}: `{name}` must be above zero (leave an offering without a price out of the list)");
                }
                number_in(line, name, &t, range).map(Some)
            };
            let per_gb_month = above_zero("per_gb_month", plausible::PRICE_PER_GB_MONTH)?;
            let monthly = above_zero("monthly", plausible::PRICE_MONTHLY)?;
            if per_gb_month.is_none() && monthly.is_none() {
                bail!(
                    "line {line}: no price for `{provider} {offering}`: give `per_gb_month` (a price per GB-month), `monthly` (a plan's or instance's price per month), or both"
                );
            }
            let currency = currency_code(
                line,
                text("currency").with_context(|| format!("line {line}: empty `currency`"))?,
            )?;
            let monthly_fixed = number("monthly_fixed", plausible::PRICE_MONTHLY)?;
            let per_iops_month = number("per_iops_month", plausible::PRICE_PER_IOPS_MONTH)?;
            let included_iops = number("included_iops", plausible::PROVISIONED_IOPS)?;
            let per_mbps_month = number("per_mbps_month", plausible::PRICE_PER_MBPS_MONTH)?;
            let included_mbps = number("included_mbps", plausible::PROVISIONED_MBPS)?;
            if monthly.is_some() && monthly_fixed.is_some() {
                bail!(
                    "line {line}: both `monthly` and `monthly_fixed` are given (expected one: `monthly` for a plan's whole price, `monthly_fixed` for a charge beside a price per GB)"
                );
            }
            let mut components: Vec<Component> = per_gb_month
                .map(|per_gb_month| Component::Capacity { per_gb_month })
                .into_iter()
                .collect();
            if let Some(per_month) = monthly.or(monthly_fixed) {
                components.push(Component::Fixed { per_month });
            }
            if let Some(rate) = per_iops_month {
                let included = included_iops.unwrap_or(0.0);
                components.push(Component::Iops(Band::above_included(rate, included)));
            }
            if let Some(rate) = per_mbps_month {
                let included = included_mbps.unwrap_or(0.0);
                components.push(Component::Throughput(Band::above_included(rate, included)));
            }
            let entry = PriceEntry {
                provider,
                offering,
                region: None,
                currency,
                as_of: text("as_of"),
                source: text("source"),
                components,
            };
            let k = key(&entry.provider, &entry.offering, None);
            if book.entries.contains_key(&k) {
                bail!(
                    "line {line}: a second price for `{} {}`{}",
                    entry.provider,
                    entry.offering,
                    entry
                        .region
                        .as_ref()
                        .map(|r| format!(" in {r}"))
                        .unwrap_or_default()
                );
            }
            book.entries.insert(k, entry);
        }
        Ok(book)
    }

    /// The rows of an offering, in key order (the region-less row first).
    fn rows<'a>(
        &'a self,
        provider: &str,
        offering: &str,
    ) -> impl Iterator<Item = &'a PriceEntry> + 'a {
        let (p, o, _) = key(provider, offering, None);
        self.entries
            .range((p.clone(), o.clone(), String::new())..)
            .take_while(move |(k, _)| k.0 == p && k.1 == o)
            .map(|(_, e)| e)
    }

    /// The list's row for a configuration of `region`: the row of that
    /// region, else the row for any region. A configuration of unknown
    /// region takes the row for any region, else the first region's row.
    /// Never a row of another region than a known one.
    fn find(&self, provider: &str, offering: &str, region: Option<&str>) -> Found<'_> {
        let rows: Vec<&PriceEntry> = self.rows(provider, offering).collect();
        let Some(first) = rows.first() else {
            return Found::None;
        };
        let in_region = |e: &&&PriceEntry| match (region, e.region.as_deref()) {
            (Some(want), Some(r)) => r.trim().eq_ignore_ascii_case(want.trim()),
            _ => false,
        };
        if let Some(e) = rows.iter().find(in_region) {
            return Found::Row(e);
        }
        match rows.iter().find(|e| e.region.is_none()) {
            Some(e) => Found::Row(e),
            None if region.is_none() => Found::Row(first),
            None => Found::OtherRegions,
        }
    }

    /// Whether the list has a row for the offering (in any region).
    pub fn has(&self, provider: Option<&str>, offering: Option<&str>) -> bool {
        match (provider, offering) {
            (Some(p), Some(o)) => self.rows(p, o).next().is_some(),
            _ => false,
        }
    }

    /// The list's row for a configuration of an offering in `region`, if
    /// any (see [`PriceBook::effective`] for the region rule).
    pub fn for_region(
        &self,
        provider: Option<&str>,
        offering: Option<&str>,
        region: Option<&str>,
    ) -> Option<&PriceEntry> {
        match self.find(provider?, offering?, region) {
            Found::Row(e) => Some(e),
            _ => None,
        }
    }

    /// The list's price for an offering in any region (a row without a
    /// region), if any.
    pub fn get(&self, provider: Option<&str>, offering: Option<&str>) -> Option<&PriceEntry> {
        self.get_in(provider, offering, None)
    }

    /// The list's price for an offering in exactly `region` (`None`: the
    /// price for any region), if any. Names compare case-insensitively,
    /// providers with their aliases; no fallback to another region is
    /// applied here ([`PriceBook::for_region`] applies the region rule).
    pub fn get_in(
        &self,
        provider: Option<&str>,
        offering: Option<&str>,
        region: Option<&str>,
    ) -> Option<&PriceEntry> {
        self.entries.get(&key(provider?, offering?, region))
    }

    /// Every price in the list, ordered by provider, offering and region
    /// (lower case; the price for any region first).
    pub fn entries(&self) -> impl Iterator<Item = &PriceEntry> {
        self.entries.values()
    }

    /// The list with `other`'s prices added; fails on a price both give for
    /// the same provider, offering and region.
    pub fn merged(mut self, other: PriceBook) -> Result<PriceBook> {
        for (k, e) in other.entries {
            if self.entries.contains_key(&k) {
                let region = e.region.as_deref().unwrap_or("any region");
                bail!(
                    "a second price for `{} {}` in {region}",
                    e.provider,
                    e.offering
                );
            }
            self.entries.insert(k, e);
        }
        Ok(self)
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
            .filter_map(|(p, o)| {
                let (p, o, _) = key(p?, o?, None);
                Some((p, o))
            })
            .collect();
        self.entries
            .iter()
            .filter(|((p, o, _), _)| !used.contains(&(p.clone(), o.clone())))
            .map(|(_, e)| e)
            .collect()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book with `rates` to convert prices between currencies.
    pub fn with_rates(mut self, rates: Rates) -> PriceBook {
        self.rates = rates;
        self
    }

    /// The exchange rates the book converts with (empty without `--rates`).
    pub fn rates(&self) -> &Rates {
        &self.rates
    }

    /// The book with the built-in catalogue under it: list prices for the
    /// offerings that neither this list nor their records price. `today`
    /// (`YYYY-MM-DD`, the build date) tells which of them are more than a
    /// year old.
    pub fn with_catalogue(mut self, catalogue: PriceBook, today: &str) -> PriceBook {
        let names = Names::new(
            catalogue
                .entries()
                .map(|e| (e.provider.as_str(), e.offering.as_str())),
        );
        self.catalogue = Some((Box::new(catalogue), today.to_string()));
        self.catalogue_names = Some(names);
        self
    }

    /// The book with the names the whole catalogue has (its limits lists'
    /// as well as its prices'), which [`PriceBook::why_unpriced`] tells a
    /// configuration it does not match; without it, the names of the
    /// catalogue's prices. No effect on a book without a catalogue.
    pub fn with_catalogue_names(mut self, names: Names) -> PriceBook {
        if self.catalogue.is_some() {
            self.catalogue_names = Some(names);
        }
        self
    }

    /// The names the catalogue under the book has; `None` without one.
    pub fn catalogue_names(&self) -> Option<&Names> {
        self.catalogue_names.as_ref()
    }

    /// The effective price of a configuration of an offering in `region`:
    /// this list's (`--prices`), else the record's, else the catalogue's.
    /// A list with rows for the offering replaces the catalogue's rows for
    /// it. In each list, the row of the configuration's region wins, then a
    /// row for any region; a row of another region never applies to a
    /// configuration of known region. A configuration of unknown region
    /// takes a catalogue row of some region, and the note names it.
    pub fn effective(
        &self,
        provider: Option<&str>,
        offering: Option<&str>,
        region: Option<&str>,
        record_price: Option<&Price>,
    ) -> Option<EffectivePrice> {
        if let Some(e) = self.for_region(provider, offering, region) {
            return Some(EffectivePrice::from_entry(e));
        }
        if let Some(p) = record_price {
            return Some(EffectivePrice::from_record(p));
        }
        if self.has(provider, offering) {
            return None;
        }
        let (catalogue, today) = self.catalogue.as_ref()?;
        let e = catalogue.for_region(provider, offering, region)?;
        let what = match &e.region {
            Some(r) => format!("list price in {r}"),
            None => "list price".to_string(),
        };
        Some(EffectivePrice {
            origin: Origin::Catalogue,
            note: Some(catalogued::dated_note(
                &what,
                e.as_of.as_deref(),
                e.source.as_deref(),
                e.as_of
                    .as_deref()
                    .is_some_and(|d| catalogued::older_than_a_year(d, today)),
            )),
            ..EffectivePrice::from_entry(e)
        })
    }

    /// Why a configuration that [`PriceBook::effective`] leaves unpriced has
    /// no price: `no price for region eu-west-1 in --prices`, `no list
    /// price for region eu-west-1 in the catalogue`, for an offering the
    /// catalogue has a row for but no price `no list price for
    /// DigitalOcean Volumes (Standard Droplet) in the catalogue`, for a
    /// name it has no row for what it has instead ([`Names::miss`]: `no row
    /// for DigitalOcean Volumes; the catalogue has Volumes (Standard
    /// Droplet), Volumes (Optimized Droplet)`), or `no price`.
    pub fn why_unpriced(
        &self,
        provider: Option<&str>,
        offering: Option<&str>,
        region: Option<&str>,
    ) -> String {
        let (Some(p), Some(o)) = (provider, offering) else {
            return "no price".to_string();
        };
        let other_regions =
            |book: &PriceBook| matches!(book.find(p, o, region), Found::OtherRegions);
        let in_catalogue = |c: &PriceBook| c.has(provider, offering);
        match region {
            Some(r) if other_regions(self) => {
                return format!("no price for region {r} in --prices")
            }
            Some(r)
                if !self.has(provider, offering)
                    && self
                        .catalogue
                        .as_ref()
                        .is_some_and(|(c, _)| other_regions(c)) =>
            {
                return format!("no list price for region {r} in the catalogue");
            }
            _ => {}
        }
        let Some((catalogue, _)) = self.catalogue.as_ref() else {
            return "no price".to_string();
        };
        if self.has(provider, offering) || in_catalogue(catalogue) {
            return "no price".to_string();
        }
        if let Some(miss) = self.catalogue_names.as_ref().and_then(|n| n.miss(p, o)) {
            return miss.to_string();
        }
        if catalogued::canonical_provider(p).is_some() {
            return format!(
                "no list price for {} {} in the catalogue",
                p.trim(),
                o.trim()
            );
        }
        "no price".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: &str = "provider,offering,per_gb_month,currency,as_of,source,monthly_fixed,per_iops_month,included_iops\n\
Rackspace,Cloud Block Storage Standard (SATA),0.15,USD,2013-01,list price,,,\n\
AWS,gp3,0.08,USD,2024-06,aws pricing page,,0.005,3000\n";

    #[test]
    fn comment_lines_are_skipped_and_counted() {
        let text = "# prices read 2026-01\nprovider,offering,per_gb_month,currency\n# a row:\nA,b,0.1,USD\n\nA,c,zero,USD\n";
        let e = format!("{:#}", PriceBook::parse(text).unwrap_err());
        assert!(e.starts_with("line 6: `per_gb_month` is `zero`"), "{e}");
        let book = PriceBook::parse(&text.replace("zero", "0.2")).unwrap();
        assert_eq!(book.entries().count(), 2);
        assert_eq!(book.get(Some("a"), Some("B")).unwrap().region, None);
    }

    #[test]
    fn parses_rows_and_matches_case_insensitively() {
        let book = PriceBook::parse(LIST).unwrap();
        let e = book
            .get(
                Some("rackspace"),
                Some("cloud block storage standard (sata)"),
            )
            .unwrap();
        assert_eq!(e.per_gb_month(), Some(0.15));
        assert_eq!(e.as_of.as_deref(), Some("2013-01"));
        assert!(e.is_flat());
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
            .effective(Some("AWS"), Some("gp3"), None, Some(&record))
            .unwrap();
        assert_eq!(p.per_gb_month(), Some(0.08));
        assert_eq!(p.note.as_deref(), Some("aws pricing page, as of 2024-06"));
        let p = book
            .effective(Some("AWS"), Some("io2"), None, Some(&record))
            .unwrap();
        assert_eq!(p.per_gb_month(), Some(0.10));
    }

    #[test]
    fn monthly_cost_adds_provisioned_iops_above_included() {
        let book = PriceBook::parse(LIST).unwrap();
        let p = book
            .effective(Some("AWS"), Some("gp3"), None, None)
            .unwrap();
        let mut labels = BTreeMap::new();
        // no IOPS stated: the 3,000 the price includes, and it says so
        assert_eq!(p.monthly_cost(Some(100.0), &labels), Some(8.0));
        assert_eq!(
            p.included(&labels).words("MB/s").as_deref(),
            Some("3,000 IOPS included; --provisioned-iops if you bought more")
        );
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
    fn a_price_per_gb_keeps_three_significant_digits() {
        let price = |v: f64| EffectivePrice::flat(v, "USD", None).per_gb_text();
        assert_eq!(price(0.15), "0.150 USD");
        assert_eq!(price(1.25), "1.250 USD");
        assert_eq!(price(0.08), "0.0800 USD");
        assert_eq!(price(0.00099), "0.000990 USD");
        assert_eq!(price(0.0045), "0.00450 USD");
    }

    #[test]
    fn currency_codes_match_the_records() {
        let book =
            PriceBook::parse("provider,offering,per_gb_month,currency\nA,b,0.1,usd\n").unwrap();
        let p = book.effective(Some("A"), Some("b"), None, None).unwrap();
        assert_eq!(p.currency, "USD");
        let err = format!(
            "{:#}",
            PriceBook::parse("provider,offering,per_gb_month,currency\nA,b,0.1,$\n").unwrap_err()
        );
        assert!(err.contains("line 2") && err.contains("ISO 4217"), "{err}");
    }

    #[test]
    fn a_price_outside_its_plausible_range_names_the_file_line_and_range() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("prices.csv");
        std::fs::write(
            &path,
            "provider,offering,per_gb_month,currency\nA,b,0.1,USD\nA,c,1e308,USD\n",
        )
        .unwrap();
        let err = format!("{:#}", PriceBook::load(&path).unwrap_err());
        assert!(
            err.contains(&format!(
                "price list `{}`: line 3: `per_gb_month` 1e308 is implausibly large (plausible: 1e-6 to 1e7 per GB-month)",
                path.display()
            )),
            "{err}"
        );
        let wide = "provider,offering,per_gb_month,currency,monthly_fixed,per_iops_month,included_iops,per_mbps_month\n";
        let long = "provider,offering,currency,as_of,source,component,price,from,to,included\n";
        for (list, said) in [
            (
                format!("{wide}A,b,5e-324,USD,,,,\n"),
                "line 2: `per_gb_month` 5e-324 is implausibly small (plausible: 1e-6 to 1e7 per GB-month)",
            ),
            (
                format!("{wide}A,b,0.1,USD,1e300,,,\n"),
                "line 2: `monthly_fixed` 1e300 is implausibly large (plausible: 0, or 1e-6 to 1e11 per month)",
            ),
            (
                format!("{wide}A,b,0.1,USD,,1e9,,\n"),
                "line 2: `per_iops_month` 1e9 is implausibly large (plausible: 0, or 1e-6 to 1e6 per IOPS-month)",
            ),
            (
                format!("{wide}A,b,0.1,USD,,0.005,1e300,\n"),
                "line 2: `included_iops` 1e300 is implausibly large",
            ),
            (
                format!("{wide}A,b,0.1,USD,,,,5e-324\n"),
                "line 2: `per_mbps_month` 5e-324 is implausibly small (plausible: 0, or 1e-6 to 1e6 per MB/s-month)",
            ),
            (
                format!("{long}A,b,USD,,,capacity,1e308,,,\n"),
                "line 2: `price` 1e308 is implausibly large (plausible: 1e-6 to 1e7 per GB-month)",
            ),
            (
                format!("{long}A,b,USD,,,iops,0.065,0,1e300,\n"),
                "line 2: `to` 1e300 is implausibly large (plausible: 0, or 0.001 to 1e9 IOPS)",
            ),
            (
                format!("{long}A,b,USD,,,capacity_tier,5e-324,0,128,\n"),
                "line 2: `price` 5e-324 is implausibly small (plausible: 0, or 1e-6 to 1e11 per month)",
            ),
            (
                format!("{long}A,b,USD,,,throughput,0.04,,,1e300\n"),
                "line 2: `included` 1e300 is implausibly large (plausible: 0, or 1e-6 to 1e7 MB/s)",
            ),
        ] {
            let err = format!("{:#}", PriceBook::parse(&list).unwrap_err());
            assert!(err.contains(said), "{err} lacks {said}");
        }
    }

    #[test]
    fn a_plan_is_priced_by_the_month() {
        let list = "provider,offering,per_gb_month,monthly,currency\n\
Hetzner,CX22,,4.59,EUR\n\
Hetzner,CX32,,7.59,eur\n\
Acme,Volume plus,0.05,2.00,USD\n";
        let book = PriceBook::parse(list).unwrap();
        let cx22 = book
            .effective(Some("Hetzner"), Some("CX22"), None, None)
            .unwrap();
        // a plan's price needs no size, and is not a price per GB
        assert_eq!(cx22.monthly_cost(None, &BTreeMap::new()), Some(4.59));
        assert_eq!(cx22.per_gb_month(), None);
        assert!(!cx22.is_flat());
        assert_eq!(cx22.currency, "EUR");
        // with a price per GB beside it: both bill
        let both = book
            .effective(Some("Acme"), Some("Volume plus"), None, None)
            .unwrap();
        assert_eq!(both.monthly_cost(Some(100.0), &BTreeMap::new()), Some(7.0));
        // a `monthly` column alone is a price list too
        let only = "provider,offering,monthly,currency\nHetzner,CX22,4.59,EUR\n";
        assert_eq!(
            crate::catalogue::check_list(only).unwrap(),
            (crate::catalogue::ListKind::Prices, 1)
        );
    }

    #[test]
    fn a_row_without_a_price_says_which_columns_take_one() {
        let err = |list: &str| format!("{:#}", PriceBook::parse(list).unwrap_err());
        assert_eq!(
            err("provider,offering,per_gb_month,monthly,currency\nHetzner,CX22,4.59,,EUR\nHetzner,CX32,,,EUR\n"),
            "line 3: no price for `Hetzner CX32`: give `per_gb_month` (a price per GB-month), `monthly` (a plan's or instance's price per month), or both"
        );
        assert_eq!(
            err("provider,offering,monthly,currency\nHetzner,CX22,0,EUR\n"),
            "line 2: `monthly` must be above zero (leave an offering without a price out of the list)"
        );
        assert!(
            err("provider,offering,monthly,currency\nHetzner,CX22,cheap,EUR\n")
                .starts_with("line 2: `monthly` is `cheap`, expected a number")
        );
        assert!(err(
            "provider,offering,per_gb_month,monthly,monthly_fixed,currency\nA,b,,4,1,EUR\n"
        )
        .starts_with("line 2: both `monthly` and `monthly_fixed` are given"));
        assert!(err("provider,offering,price,currency\nA,b,4,EUR\n")
            .starts_with("line 1: missing column `per_gb_month` or `monthly` (expected"));
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

#[cfg(test)]
mod catalogue_tests {
    use super::*;

    /// AWS gp3 and io1 list prices as the catalogue gives them.
    const CATALOGUE: &str =
        "provider,offering,region,currency,as_of,source,component,price,from,to,included\n\
AWS,gp3,us-east-1,USD,2024-07,aws ebs pricing,capacity,0.08,,,\n\
AWS,gp3,us-east-1,USD,2024-07,aws ebs pricing,iops,0.005,,,3000\n\
AWS,gp3,us-east-1,USD,2024-07,aws ebs pricing,throughput,0.04,,,125\n\
AWS,io1,us-east-1,USD,2024-07,aws ebs pricing,capacity,0.125,,,\n\
AWS,io1,us-east-1,USD,2024-07,aws ebs pricing,iops,0.065,,,\n\
Linode,Block Storage,,USD,2025-01,linode pricing,capacity,0.10,,,\n";

    fn book(prices: &str) -> PriceBook {
        let user = if prices.is_empty() {
            PriceBook::default()
        } else {
            PriceBook::parse(prices).unwrap()
        };
        user.with_catalogue(PriceBook::parse(CATALOGUE).unwrap(), "2025-03-01")
    }

    fn labels(iops: &str, mbps: &str) -> BTreeMap<String, String> {
        [("provisioned_iops", iops), ("provisioned_mbps", mbps)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn an_unpriced_configuration_gets_the_catalogue_list_price_named_with_its_region() {
        let p = book("")
            .effective(Some("AWS"), Some("gp3"), None, None)
            .unwrap();
        assert_eq!(p.origin, Origin::Catalogue);
        assert_eq!(
            p.note.as_deref(),
            Some("list price in us-east-1 as of 2024-07 (aws ebs pricing)")
        );
        // 500 GB × 0.08 + (6000 − 3000) × 0.005 + (250 − 125) × 0.04
        assert_eq!(
            p.monthly_cost(Some(500.0), &labels("6000", "250")),
            Some(60.0)
        );
        // "Amazon" is AWS, in the region the catalogue lists
        let p = book("")
            .effective(Some("Amazon"), Some("GP3"), Some("us-east-1"), None)
            .unwrap();
        assert_eq!(p.origin, Origin::Catalogue);
        // a price for any region holds in every region, and says no region
        let p = book("")
            .effective(Some("Akamai"), Some("block storage"), Some("us-ord"), None)
            .unwrap();
        assert_eq!(
            p.note.as_deref(),
            Some("list price as of 2025-01 (linode pricing)")
        );
    }

    #[test]
    fn a_catalogue_price_never_crosses_regions() {
        let b = book("");
        assert_eq!(
            b.effective(Some("AWS"), Some("gp3"), Some("eu-west-1"), None),
            None
        );
        assert_eq!(
            b.why_unpriced(Some("AWS"), Some("gp3"), Some("eu-west-1")),
            "no list price for region eu-west-1 in the catalogue"
        );
        // a name the catalogue has no row for: the names it has, nearest first
        assert_eq!(
            b.why_unpriced(Some("AWS"), Some("gp9"), Some("eu-west-1")),
            "no row for AWS gp9; the catalogue has gp3, io1"
        );
        // a provider the catalogue does not know, near none of its names
        assert_eq!(
            b.why_unpriced(Some("Hetzner"), Some("Volume"), Some("fsn1")),
            "no row for Hetzner Volume; the catalogue has no provider Hetzner (it has AWS, Linode)"
        );
        // without the catalogue, nothing to tell
        assert_eq!(
            PriceBook::default().why_unpriced(Some("AWS"), Some("gp9"), None),
            "no price"
        );
    }

    #[test]
    fn the_catalogues_limits_names_are_told_to_an_unpriced_name() {
        let names = Names::new([
            ("AWS", "gp3"),
            ("DigitalOcean", "Volumes (Standard Droplet)"),
            ("DigitalOcean", "Volumes (Optimized Droplet)"),
        ]);
        let b = book("").with_catalogue_names(names.clone());
        assert_eq!(b.catalogue_names(), Some(&names));
        assert_eq!(
            b.why_unpriced(Some("DigitalOcean"), Some("Volumes"), Some("nyc1")),
            "no row for DigitalOcean Volumes; the catalogue has Volumes (Standard Droplet), Volumes (Optimized Droplet)"
        );
        // a name it has, without a price
        assert_eq!(
            b.why_unpriced(
                Some("digitalocean"),
                Some("volumes (standard droplet)"),
                None
            ),
            "no list price for digitalocean volumes (standard droplet) in the catalogue"
        );
        // a book without the catalogue takes no names
        let bare = PriceBook::default().with_catalogue_names(names);
        assert_eq!(bare.catalogue_names(), None);
    }

    #[test]
    fn prices_then_record_then_catalogue() {
        let record = Price {
            per_gb_month: 0.09,
            currency: "USD".into(),
            note: None,
        };
        let b = book("provider,offering,per_gb_month,currency\nAmazon Web Services,gp3,0.07,USD\n");
        // a --prices row replaces the catalogue's rows for its offering ...
        let p = b
            .effective(Some("AWS"), Some("gp3"), None, Some(&record))
            .unwrap();
        assert_eq!((p.origin, p.per_gb_month()), (Origin::Prices, Some(0.07)));
        // ... the record's own price wins over the catalogue ...
        let p = b
            .effective(Some("AWS"), Some("io1"), None, Some(&record))
            .unwrap();
        assert_eq!((p.origin, p.per_gb_month()), (Origin::Record, Some(0.09)));
        // ... and the other offerings keep the catalogue's
        let p = b.effective(Some("AWS"), Some("io1"), None, None).unwrap();
        assert_eq!(
            (p.origin, p.per_gb_month()),
            (Origin::Catalogue, Some(0.125))
        );
        // io1 100 GB at 5,000 IOPS: 12.50 + 325.00
        assert_eq!(
            p.monthly_cost(Some(100.0), &labels("5000", "")),
            Some(337.5)
        );
        // a --prices row of another region: no price, and not the catalogue's
        let b =
            book("provider,offering,region,currency,component,price\nAWS,gp3,us-west-2,USD,capacity,0.096\n");
        assert_eq!(
            b.effective(Some("AWS"), Some("gp3"), Some("us-east-1"), None),
            None
        );
        assert_eq!(
            b.why_unpriced(Some("AWS"), Some("gp3"), Some("us-east-1")),
            "no price for region us-east-1 in --prices"
        );
    }

    #[test]
    fn without_the_catalogue_an_unpriced_configuration_stays_unpriced() {
        let b = PriceBook::default();
        assert_eq!(b.effective(Some("AWS"), Some("gp3"), None, None), None);
        assert_eq!(
            b.why_unpriced(Some("AWS"), Some("gp3"), Some("eu-west-1")),
            "no price"
        );
    }

    #[test]
    fn a_list_price_more_than_a_year_old_says_so() {
        let b =
            PriceBook::default().with_catalogue(PriceBook::parse(CATALOGUE).unwrap(), "2026-07-01");
        let p = b.effective(Some("AWS"), Some("gp3"), None, None).unwrap();
        assert_eq!(
            p.note.as_deref(),
            Some("list price in us-east-1 as of 2024-07 (aws ebs pricing), more than a year old")
        );
    }
}
