//! `diskdash report`: records → static site (pages, charts, data exports).
//!
//! [`build_into`] runs the analysis over ingested records and renders every page
//! and chart into one [`site::Output`], which writes each file as soon as it
//! is rendered: into the site directory, or into memory for tests.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::analysis::limits::Limits;
use crate::analysis::prices::PriceBook;
use crate::analysis::{self, Analysis};
use crate::ingest::{self, Found, Problem};
use crate::record::Summary;

pub mod charts;
pub mod export;
use crate::format;
pub mod pages;
pub mod site;
pub mod story;
pub mod study_file;

/// Settings of one build.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Site title.
    pub title: String,
    /// Baseline offering (name or slug) instead of the cheapest per GB.
    pub baseline: Option<String>,
    /// Price list overriding record prices.
    pub prices: PriceBook,
    /// Published limits (`--limits`): "measured / promised" beside levels.
    pub limits: Limits,
    /// The URL the site is published at, without a trailing slash
    /// (`--base-url`): the post's charts link there.
    pub base_url: Option<String>,
    /// What `study.toml` files and `--study-title` say of each study, by
    /// the study's name or slug ([`Options::study_info`]).
    pub studies: std::collections::BTreeMap<String, study_file::StudyInfo>,
    /// Whether `data/<study>.md` starts with YAML front matter (title,
    /// date) for Jekyll and Hugo (`--front-matter`).
    pub front_matter: bool,
}

impl Options {
    /// What is known of `study` beyond its records, under its name or its
    /// slug; the default (nothing) otherwise.
    pub fn study_info(&self, study: &str) -> study_file::StudyInfo {
        self.studies
            .get(study)
            .or_else(|| self.studies.get(&crate::record::slug(study)))
            .cloned()
            .unwrap_or_default()
    }

    /// The title of `study`: its study file's or `--study-title`'s, else
    /// its name.
    pub fn study_title(&self, study: &str) -> String {
        self.study_info(study)
            .title
            .filter(|t| !t.trim().is_empty())
            .unwrap_or_else(|| study.to_string())
    }
}

/// Builds the whole site in memory from valid records (`found`, any order)
/// and the problems of records left out.
pub fn build_site(found: &[Found], problems: &[Problem], opts: &Options) -> Result<site::Site> {
    let memory = site::Memory::default();
    build_into(found, problems, opts, &memory)?;
    Ok(memory.into_site())
}

/// Builds every page, chart and data file into `site`; returns what the
/// command prints beyond them (the fleet's per-host lines).
pub fn build_into(
    found: &[Found],
    problems: &[Problem],
    opts: &Options,
    site: &dyn site::Output,
) -> Result<Built> {
    let analysis = Analysis::with_limits(
        found.iter().map(|f| &f.summary),
        &opts.prices,
        opts.baseline.as_deref(),
        &opts.limits,
    )?;
    // the record a page shows, whole: read again when held without its
    // output and series, its command decoded when held apart
    let origins = Origins::new(found);
    // the data exports are made beside the pages, each written when made
    let exports: Vec<_> = export::DATA_FILES
        .iter()
        .map(|&(path, make)| {
            let analysis = &analysis;
            move |site: &dyn site::Output| site.write(path, &make(analysis)?)
        })
        .collect();
    let beside: Vec<&pages::Beside> = exports.iter().map(|f| f as &pages::Beside).collect();
    pages::build(&analysis, problems, opts, site, &origins, &beside)?;
    site.write("style.css", STYLE.as_bytes())?;
    site.write(".nojekyll", &[])?;
    // a fleet's machines, one row each, where records name two or more
    let hosts = analysis::machines::host_lines(&analysis);
    if !hosts.is_empty() {
        site.write("data/hosts.csv", &export::hosts_csv(&hosts)?)?;
    }
    Ok(Built { hosts })
}

/// What a build found beyond the files it wrote.
#[derive(Clone, Debug, Default)]
pub struct Built {
    /// A line per machine and configuration where the records name two
    /// machines or more ([`analysis::machines::host_lines`]); empty otherwise.
    pub hosts: Vec<analysis::machines::HostLine>,
}

/// Where each record of a build came from, by id (the analysis holds
/// one record per id), to find what it is held without.
struct Origins<'f> {
    by_id: Vec<&'f Found>,
}

impl<'f> Origins<'f> {
    fn new(found: &'f [Found]) -> Origins<'f> {
        let mut by_id: Vec<&Found> = found.iter().collect();
        // a loader gives them sorted already; of two equal ids the analysis
        // keeps the first, as the stable sort does here
        if !by_id.is_sorted_by(|a, b| a.summary.id <= b.summary.id) {
            by_id.sort_by(|a, b| a.summary.id.cmp(&b.summary.id));
        }
        Origins { by_id }
    }

    fn found(&self, r: &Summary) -> Option<&Found> {
        let i = self
            .by_id
            .partition_point(|f| f.summary.id.as_str() < r.id.as_str());
        self.by_id.get(i).copied().filter(|f| f.summary.id == r.id)
    }
}

impl pages::Apart for Origins<'_> {
    /// The tool output and timeline of `r`: as kept in memory, else read
    /// again from its file. Only those parts are read and given, never a
    /// copy of the whole record.
    fn parts(&self, r: &Summary) -> Result<pages::Parts<'_>> {
        use std::borrow::Cow;
        let Some(f) = self.found(r) else {
            return Ok(pages::Parts::default());
        };
        Ok(match &f.kept {
            Some(kept) => pages::Parts {
                raw: kept.raw.as_ref().map(Cow::Borrowed),
                timeline: kept.timeline.as_ref().map(Cow::Borrowed),
            },
            None => {
                let left = ingest::reread(f)?.unwrap_or_default();
                pages::Parts {
                    raw: left.raw.map(Cow::Owned),
                    timeline: left.timeline.map(Cow::Owned),
                }
            }
        })
    }

    fn command(&self, r: &Summary) -> Option<String> {
        Some(self.found(r)?.command.as_ref()?.text())
    }
}

/// The site's style sheet, compiled into the binary.
pub const STYLE: &str = include_str!("../../static/style.css");

/// What `report` says once of the records it was given, beside its
/// warnings: how many quick-suite runs the answer sets aside, and why.
pub fn input_notes(found: &[Found], limits: &Limits) -> Vec<String> {
    let summaries: Vec<&crate::record::Summary> = found.iter().map(|f| &f.summary).collect();
    let quick = analysis::stats::quick_set_aside(&summaries, limits);
    if quick == 0 {
        return Vec::new();
    }
    vec![format!(
        "{} set aside from the answer: their configurations have standard-suite runs of \
         the same tests, which the answer rests on (the quick suite's short tests are for \
         trying diskdash out); they keep their pages",
        crate::format::count_of(quick, "quick-suite run", "quick-suite runs")
    )]
}

/// The warnings a build prints about its inputs: price list and limits
/// rows that match no offering of the records, offerings whose records
/// disagree on their price, rates that convert nothing.
pub fn input_warnings(found: &[Found], prices: &PriceBook, limits: &Limits) -> Vec<String> {
    let subjects = || {
        found.iter().map(|f| {
            (
                f.summary.subject.provider.as_deref(),
                f.summary.subject.offering.as_deref(),
            )
        })
    };
    let mut out: Vec<String> = prices
        .unmatched(subjects())
        .into_iter()
        .map(|e| {
            format!(
                "price list row `{},{}` matches no offering in the records (provider and offering must match the records' subject)",
                e.provider, e.offering
            )
        })
        .collect();
    out.extend(price_conflicts(found.iter().map(|f| &f.summary), prices));
    out.extend(unused_rates(found.iter().map(|f| &f.summary), prices));
    out.extend(limits.unmatched(subjects()).into_iter().map(|l| {
        format!(
            "limits list line {} `{},{}` matches no offering in the records (provider and offering must match the records' subject)",
            l.line, l.provider, l.offering
        )
    }));
    out.extend(name_warnings(found, prices, limits));
    let hosts = found.iter().map(|f| {
        (
            f.summary.subject.provider.as_deref(),
            f.summary.host.instance_type.as_deref(),
        )
    });
    out.extend(limits.unmatched_instances(hosts).into_iter().map(|l| {
        format!(
            "limits list line {} `{}` instance `{}` matches no record's instance type (provider and instance must match the records' subject and host.instance_type)",
            l.line,
            l.provider,
            l.instance.as_deref().unwrap_or("")
        )
    }));
    out
}

/// The warnings a build prints about the records' names that match no row
/// of the catalogue, once per offering (by its matched name), in the order
/// of the records, as [`Names::warning`] decides: a likely misspelling, or
/// a provider the catalogue knows whose configuration neither a price nor
/// a limits row reaches. None without the catalogue (`--no-catalogue`).
///
/// [`Names::warning`]: crate::analysis::catalogued::Names::warning
fn name_warnings(found: &[Found], prices: &PriceBook, limits: &Limits) -> Vec<String> {
    use crate::analysis::catalogued::{offering_key, provider_key};
    let Some(names) = prices.catalogue_names() else {
        return Vec::new();
    };
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for s in found.iter().map(|f| &f.summary.subject) {
        let (Some(p), Some(o)) = (s.provider.as_deref(), s.offering.as_deref()) else {
            continue;
        };
        if !seen.insert((provider_key(p), offering_key(p, o))) {
            continue;
        }
        let given = prices
            .effective(Some(p), Some(o), s.region.as_deref(), s.price.as_ref())
            .is_some()
            || limits.find(Some(p), Some(o), s.size_gb).is_some();
        if let Some(m) = names.warning(p, o, given) {
            out.push(m.to_string());
        }
    }
    out
}

/// The warnings a build prints about prices: offerings whose records carry
/// different prices (and that the price list does not override).
pub fn price_conflicts<'a>(
    records: impl IntoIterator<Item = &'a Summary>,
    book: &PriceBook,
) -> Vec<String> {
    analysis::price_conflicts(records, book)
        .into_iter()
        .map(|c| {
            let prices: Vec<String> = c
                .prices
                .iter()
                .map(|(p, cur)| format!("{} {cur}", format::data(*p)))
                .collect();
            format!(
                "`{}` in study `{}`: its records carry different prices ({}); the site uses the first record's by id; give the current one with --prices",
                c.offering,
                c.study,
                prices.join(", ")
            )
        })
        .collect()
}

/// The warnings a build prints about `--rates`: a rate between currencies
/// that the records' prices (after the price list) do not both use, which
/// can convert nothing (a typo such as `EUD`, or a forgotten price list).
pub fn unused_rates<'a>(
    records: impl IntoIterator<Item = &'a Summary>,
    book: &PriceBook,
) -> Vec<String> {
    if book.rates().is_empty() {
        return Vec::new();
    }
    let currencies: BTreeSet<String> = records
        .into_iter()
        .filter_map(|r| {
            book.effective(
                r.subject.provider.as_deref(),
                r.subject.offering.as_deref(),
                r.subject.region.as_deref(),
                r.subject.price.as_ref(),
            )
        })
        .map(|p| p.currency)
        .collect();
    book.rates()
        .iter()
        .filter(|r| !(currencies.contains(&r.from) && currencies.contains(&r.to)))
        .map(|r| {
            format!(
                "rates row {},{} converts nothing: the prices are in {}",
                r.from,
                r.to,
                if currencies.is_empty() {
                    "no currency".to_string()
                } else {
                    currencies.iter().cloned().collect::<Vec<_>>().join(", ")
                }
            )
        })
        .collect()
}

/// Gives each name a file-name-safe slug, unique within the set: names are
/// taken in sorted order so the same set always gets the same slugs.
pub fn unique_slugs<'a>(names: impl IntoIterator<Item = &'a str>) -> BTreeMap<String, String> {
    unique_slugs_besides(names, &[])
}

/// The names of the site-wide files in `data/` (`summary.md`, `value.csv`,
/// ...), which a study's own file there (`data/<study>.md`) must never take.
pub const SITE_WIDE_DATA: [&str; 4] = ["summary", "value", "hosts", "record"];

/// [`unique_slugs`], none of them one of `taken` (a study named "Summary"
/// is `summary-2`, its post never the site's `data/summary.md`).
pub fn unique_slugs_besides<'a>(
    names: impl IntoIterator<Item = &'a str>,
    taken: &[&str],
) -> BTreeMap<String, String> {
    let sorted: BTreeSet<&str> = names.into_iter().collect();
    let mut used: BTreeSet<String> = taken.iter().map(|t| t.to_string()).collect();
    let mut out = BTreeMap::new();
    for name in sorted {
        // long names would exceed file-name limits; 60 characters stay readable
        let base: String = crate::record::slug(name).chars().take(60).collect();
        let base = base.trim_end_matches('-').to_string();
        let mut s = base.clone();
        let mut n = 2;
        while !used.insert(s.clone()) {
            s = format!("{base}-{n}");
            n += 1;
        }
        out.insert(name.to_string(), s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn different_record_prices_of_one_offering_are_named() {
        use crate::analysis::testing::record;
        let recs = [
            record("a", "P", "x", Some(0.1), "t", &[("iops", 1.0, "IOPS")]),
            record("b", "P", "x", Some(0.12), "t", &[("iops", 1.0, "IOPS")]),
            record("c", "P", "y", Some(0.2), "t", &[("iops", 1.0, "IOPS")]),
            record("d", "P", "y", Some(0.2), "t", &[("iops", 1.0, "IOPS")]),
        ]
        .map(Summary::from);
        let w = price_conflicts(&recs, &PriceBook::default());
        assert_eq!(
            w,
            ["`P x` in study `s`: its records carry different prices (0.1 USD, 0.12 USD); the site uses the first record's by id; give the current one with --prices"]
        );
        let book =
            PriceBook::parse("provider,offering,per_gb_month,currency\nP,x,0.11,USD\n").unwrap();
        assert!(price_conflicts(&recs, &book).is_empty());
        // two sizes of one offering are two configurations: a price each
        let mut big = record("e", "P", "z", Some(0.3), "t", &[("iops", 1.0, "IOPS")]);
        big.subject.size_gb = Some(1000.0);
        let small = record("f", "P", "z", Some(0.2), "t", &[("iops", 1.0, "IOPS")]);
        let recs = [big, small].map(Summary::from);
        assert!(price_conflicts(&recs, &PriceBook::default()).is_empty());
    }

    #[test]
    fn a_rate_between_currencies_no_price_uses_is_named() {
        use crate::analysis::prices::Rates;
        use crate::analysis::testing::record;
        let mut eur = record("b", "H", "v", Some(0.05), "t", &[("iops", 1.0, "IOPS")]);
        if let Some(p) = eur.subject.price.as_mut() {
            p.currency = "EUR".into();
        }
        let recs = [
            record("a", "P", "x", Some(0.1), "t", &[("iops", 1.0, "IOPS")]),
            eur,
        ]
        .map(Summary::from);
        let rates = Rates::parse(
            "from,to,rate,as_of,source\nEUR,USD,1.16,2026-11-30,\nGBP,USD,1.27,2026-11-30,\n",
            "r.csv",
        )
        .unwrap();
        let book = PriceBook::default().with_rates(rates);
        assert_eq!(
            unused_rates(&recs, &book),
            ["rates row GBP,USD converts nothing: the prices are in EUR, USD"]
        );
        assert!(unused_rates(&recs, &PriceBook::default()).is_empty());
    }

    #[test]
    fn slugs_are_unique_short_and_stable() {
        let s = unique_slugs(["<script>", "script", "Script!", "日本"]);
        assert_eq!(s["<script>"], "script");
        assert_eq!(s["Script!"], "script-2");
        assert_eq!(s["script"], "script-3");
        assert_eq!(s["日本"], "x");
        let long = "a".repeat(500);
        assert_eq!(unique_slugs([long.as_str()])[&long].len(), 60);
    }
}
