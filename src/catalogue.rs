//! The built-in catalogue: list prices and published limits of the main
//! providers, each row dated (`as_of`) and sourced (`source`), carried in
//! the binary so a copy on a fresh VM knows them.
//!
//! The files live in `catalogue/` (one price list and one limits list per
//! provider) and are read with the same parsers as a user's `--prices` and
//! `--limits` files. Which entry a configuration gets (region, aliases,
//! overrides) is decided by the reader of these lists, not here.

use std::collections::BTreeMap;

use anyhow::{bail, Context, Result};

use crate::analysis::limits::Limits;
use crate::analysis::prices::PriceBook;

/// One catalogue file: its name under `catalogue/` and its text.
#[derive(Clone, Copy, Debug)]
pub struct File {
    /// The file name, such as `aws-prices.csv`.
    pub name: &'static str,
    /// The file's text, as embedded at build time.
    pub text: &'static str,
}

macro_rules! files {
    ($($name:literal),* $(,)?) => {
        &[$(File { name: $name, text: include_str!(concat!("../catalogue/", $name)) }),*]
    };
}

/// The price lists, one per provider (long format, with `region`).
pub const PRICE_FILES: &[File] = files![
    "aws-prices.csv",
    "azure-prices.csv",
    "gcp-prices.csv",
    "linode-prices.csv",
    "vultr-prices.csv",
    "ovh-prices.csv",
    "scaleway-prices.csv",
    "digitalocean-prices.csv",
];

/// The limits lists, one per provider.
pub const LIMIT_FILES: &[File] = files![
    "aws-limits.csv",
    "azure-limits.csv",
    "gcp-limits.csv",
    "linode-limits.csv",
    "vultr-limits.csv",
    "ovh-limits.csv",
    "scaleway-limits.csv",
    "digitalocean-limits.csv",
];

/// The catalogue's `README.md`: what is in it, the sources, what is unknown.
pub const README: &str = include_str!("../catalogue/README.md");

pub use crate::analysis::catalogued::{canonical_provider, PROVIDERS};

/// What a user's list file is, told apart by its header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListKind {
    /// A price list (a `per_gb_month`, `monthly` or `component` column).
    Prices,
    /// A limits list (a baseline, burst or instance column).
    Limits,
}

impl ListKind {
    /// The kind a list's header says it is; `None` when it says neither.
    pub fn of_text(text: &str) -> Option<ListKind> {
        let (_, header) = header_of(text)?;
        let has = |c: &str| header.iter().any(|h| h == c);
        if has("per_gb_month") || has("monthly") || has("component") {
            Some(ListKind::Prices)
        } else if header.iter().any(|h| {
            h.starts_with("baseline_")
                || h.starts_with("burst_")
                || h.starts_with("max_")
                || h == "instance"
        }) {
            Some(ListKind::Limits)
        } else {
            None
        }
    }
}

/// The header of a list: its first line that is neither blank nor a
/// comment, split into trimmed column names; and its line number.
fn header_of(text: &str) -> Option<(usize, Vec<String>)> {
    let (i, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))?;
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .trim(csv::Trim::All)
        .from_reader(line.as_bytes());
    let cells = r.records().next()?.ok()?;
    Some((i + 1, cells.iter().map(str::to_string).collect()))
}

/// Reads a user's price list or limits list (told apart by its header)
/// with the parsers `--prices` and `--limits` use; gives its kind and the
/// number of rows (comment and blank lines left out). Errors name the
/// line; the caller names the file.
pub fn check_list(text: &str) -> Result<(ListKind, usize)> {
    let Some((at, _)) = header_of(text) else {
        bail!("no header: expected a price list (provider,offering,... with `per_gb_month`, `monthly` or `component`) or a limits list (provider,offering,... with `baseline_iops`, `burst_iops`, ...)");
    };
    let Some(kind) = ListKind::of_text(text) else {
        bail!(
            "line {at}: neither a price list (a `per_gb_month`, `monthly` or `component` column) nor a limits list (a `baseline_iops`, `baseline_mbps`, `burst_iops`, `burst_mbps` or `instance` column)"
        );
    };
    match kind {
        ListKind::Prices => PriceBook::parse(text).map(|_| ())?,
        ListKind::Limits => Limits::parse(text).map(|_| ())?,
    }
    let rows = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .count()
        .saturating_sub(1);
    Ok((kind, rows))
}

/// The rows of one catalogue file as text cells keyed by column, in file
/// order (comment and blank lines left out), for listing.
pub fn rows_of(f: &File) -> Vec<BTreeMap<String, String>> {
    let Some((_, header)) = header_of(f.text) else {
        return Vec::new();
    };
    let kept: String = f
        .text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut r = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(kept.as_bytes());
    r.records()
        .filter_map(|row| row.ok())
        .map(|row| {
            header
                .iter()
                .cloned()
                .zip(row.iter().map(str::to_string))
                .collect()
        })
        .collect()
}

/// The provider a catalogue file is about: `aws-prices.csv` -> `AWS`.
pub fn provider_of(f: &File) -> &'static str {
    let stem = f.name.split('-').next().unwrap_or("");
    canonical_provider(stem).unwrap_or("")
}

/// One price file read; errors name the file.
pub fn price_file(f: &File) -> Result<PriceBook> {
    let read = every_row_dated(f.text).and_then(|()| PriceBook::parse(f.text));
    read.with_context(|| format!("catalogue file `catalogue/{}`", f.name))
}

/// One limits file read; errors name the file.
pub fn limits_file(f: &File) -> Result<Limits> {
    let read = every_row_dated(f.text).and_then(|()| Limits::parse(f.text));
    read.with_context(|| format!("catalogue file `catalogue/{}`", f.name))
}

/// The catalogue's own rule, above the formats': every row (not only one
/// row per offering) carries `as_of` and `source`, so a row copied out of
/// the catalogue keeps its date and origin. Comment and blank lines are
/// skipped; errors name the line.
fn every_row_dated(text: &str) -> Result<()> {
    let mut rows = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let Some((_, header)) = rows.next() else {
        bail!("no header");
    };
    let cells = |l: &str| -> Vec<String> {
        let mut r = csv::ReaderBuilder::new()
            .has_headers(false)
            .trim(csv::Trim::All)
            .from_reader(l.as_bytes());
        r.records()
            .next()
            .and_then(|r| r.ok())
            .map(|r| r.iter().map(str::to_string).collect())
            .unwrap_or_default()
    };
    let header = cells(header);
    for column in ["as_of", "source"] {
        let Some(at) = header.iter().position(|h| h == column) else {
            bail!("line 1: missing column `{column}`; every catalogue row is dated and sourced");
        };
        for (i, l) in rows.clone() {
            if cells(l).get(at).is_none_or(|c| c.is_empty()) {
                bail!(
                    "line {}: empty `{column}`; every catalogue row is dated and sourced",
                    i + 1
                );
            }
        }
    }
    Ok(())
}

/// The offerings the catalogue has a row for, in its price lists or its
/// limits lists (providers in [`PRICE_FILES`] order, then file order),
/// each once: what a name it does not match is told it has.
pub fn names() -> crate::analysis::catalogued::Names {
    let rows: Vec<BTreeMap<String, String>> = PRICE_FILES
        .iter()
        .zip(LIMIT_FILES)
        .flat_map(|(prices, limits)| rows_of(prices).into_iter().chain(rows_of(limits)))
        .collect();
    fn cell<'a>(r: &'a BTreeMap<String, String>, k: &str) -> &'a str {
        r.get(k).map(String::as_str).unwrap_or("")
    }
    crate::analysis::catalogued::Names::new(
        rows.iter()
            .filter(|r| cell(r, "instance").is_empty())
            .map(|r| (cell(r, "provider"), cell(r, "offering"))),
    )
}

/// The warning `run` and `import` print for a subject whose provider and
/// offering match no row of the catalogue ([`Names::warning`]):
/// `no row for DigitalOcean Volumes; the catalogue has Volumes (Standard
/// Droplet), Volumes (Optimized Droplet)`. `given_elsewhere`: the subject
/// has its price or limits from the user, so that a provider the
/// catalogue does not know needs no warning.
///
/// [`Names::warning`]: crate::analysis::catalogued::Names::warning
pub fn name_warning(
    provider: Option<&str>,
    offering: Option<&str>,
    given_elsewhere: bool,
) -> Option<String> {
    let (p, o) = (provider?, offering?);
    names()
        .warning(p, o, given_elsewhere)
        .map(|m| m.to_string())
}

/// Every catalogue price, all providers in one book. Errors name the file.
pub fn prices() -> Result<PriceBook> {
    let mut book = PriceBook::default();
    for f in PRICE_FILES {
        book = book
            .merged(price_file(f)?)
            .with_context(|| format!("catalogue file `catalogue/{}`", f.name))?;
    }
    Ok(book)
}

/// Every catalogue limit, all providers in one list, in file order
/// (providers in [`LIMIT_FILES`] order). Errors name the file.
///
/// The limits files share one header, so the list is read from their rows
/// joined under it, after each file has been read on its own for errors
/// that name it.
pub fn limits() -> Result<Limits> {
    let mut joined = String::new();
    let mut header: Option<&str> = None;
    for f in LIMIT_FILES {
        limits_file(f)?;
        let mut lines = f
            .text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        let this = lines.next().unwrap_or("");
        match header {
            None => {
                header = Some(this);
                joined.push_str(this);
                joined.push('\n');
            }
            Some(h) if h != this => bail!(
                "catalogue file `catalogue/{}`: header `{this}` differs from `{h}` of `catalogue/{}`; every limits file has the same header",
                f.name,
                LIMIT_FILES[0].name
            ),
            Some(_) => {}
        }
        for l in lines {
            joined.push_str(l);
            joined.push('\n');
        }
    }
    Limits::parse(&joined).context("the catalogue's limits files joined")
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// The catalogue's monthly cost of a configuration, to the cent.
    fn cost(provider: &str, offering: &str, region: &str, size: f64, l: &[(&str, &str)]) -> String {
        let book = prices().unwrap();
        let e = book
            .get_in(Some(provider), Some(offering), Some(region))
            .unwrap_or_else(|| panic!("no {provider} {offering} in {region}"));
        let p = crate::analysis::prices::EffectivePrice::from_entry(e);
        format!(
            "{:.2} {}",
            p.try_monthly_cost(Some(size), &labels(l)).unwrap(),
            p.currency
        )
    }

    #[test]
    fn worked_monthly_costs_from_the_catalogue() {
        let gp3 = [("provisioned_iops", "6000"), ("provisioned_mbps", "250")];
        assert_eq!(cost("AWS", "gp3", "us-east-1", 500.0, &gp3), "60.00 USD");
        let io1 = [("provisioned_iops", "5000")];
        assert_eq!(cost("AWS", "io1", "us-east-1", 100.0, &io1), "337.50 USD");
        assert_eq!(
            cost("Azure", "Premium SSD", "eastus", 256.0, &[]),
            "38.02 USD"
        );
        assert_eq!(
            cost("Azure", "Premium SSD", "eastus", 257.0, &[]),
            "73.22 USD"
        );
        assert_eq!(
            cost("GCP", "pd-balanced", "us-central1", 200.0, &[]),
            "20.00 USD"
        );
        assert_eq!(cost("Linode", "Block Storage", "", 100.0, &[]), "10.00 USD");
    }

    #[test]
    fn offerings_named_as_publishers_write_them_find_the_catalogue_rows() {
        // an Azure disk named with its tier: the size picks the tier's price
        assert_eq!(
            cost("Microsoft", "Premium SSD P15", "eastus", 256.0, &[]),
            "38.02 USD"
        );
        assert_eq!(
            cost("Azure", "Standard SSD E10", "eastus", 128.0, &[]),
            "9.60 USD"
        );
        let gp3 = [("provisioned_iops", "3000"), ("provisioned_mbps", "125")];
        assert_eq!(
            cost("Amazon", "EBS gp3", "us-east-1", 100.0, &gp3),
            "8.00 USD"
        );
        // as sold: no provisioned figures is the included level, 100 × 0.08
        assert_eq!(cost("AWS", "gp3", "us-east-1", 100.0, &[]), "8.00 USD");
        // 8.00 + 13,000 × 0.005 + 375 × 0.04
        let bought = [("provisioned_iops", "16000"), ("provisioned_mbps", "500")];
        assert_eq!(cost("AWS", "gp3", "us-east-1", 100.0, &bought), "88.00 USD");
        // and the promised limits: Scaleway's SBS 5K at 100 GB
        let limits = limits().unwrap();
        let by_name = |o: &str| limits.find(Some("Scaleway"), Some(o), Some(100.0)).cloned();
        assert!(by_name("sbs_5k").is_some());
        assert_eq!(by_name("Block Storage 5K"), by_name("sbs_5k"));
        assert_eq!(
            baseline("Vultr", "Block Storage NVMe", 100.0, false),
            baseline("Vultr", "NVMe Block Storage", 100.0, false)
        );
    }

    #[test]
    fn a_name_the_catalogue_has_no_row_for_is_told_the_names_it_has() {
        let names = names();
        let miss = |p: &str, o: &str| names.miss(p, o).map(|m| m.to_string());
        // the provider's names, nearest first
        assert_eq!(
            miss("DigitalOcean", "Volumes").as_deref(),
            Some("no row for DigitalOcean Volumes; the catalogue has Volumes (Standard Droplet), Volumes (Optimized Droplet)")
        );
        assert_eq!(
            miss("Amazon", "gp4").as_deref(),
            Some("no row for Amazon gp4; the catalogue has gp2, gp3, st1, io1, io2 and 2 more")
        );
        assert_eq!(
            miss("GCP", "pd-balance").as_deref(),
            Some("no row for GCP pd-balance; the catalogue has pd-balanced, hyperdisk-balanced, pd-standard, pd-ssd, pd-extreme and 1 more")
        );
        // an unknown provider: the nearest names of any provider ...
        assert_eq!(
            miss("Digital Ocean", "Volumes").as_deref(),
            Some("no row for Digital Ocean Volumes; the catalogue has no provider Digital Ocean; nearest: DigitalOcean Volumes (Standard Droplet), DigitalOcean Volumes (Optimized Droplet)")
        );
        assert!(miss("Amazn", "gp3")
            .unwrap()
            .ends_with("the catalogue has no provider Amazn; nearest: AWS gp3, AWS gp2, AWS st1"));
        // ... or, near none, the providers it has
        assert_eq!(
            miss("Hetzner", "Volume").as_deref(),
            Some("no row for Hetzner Volume; the catalogue has no provider Hetzner (it has AWS, Azure, GCP, Linode, Vultr, OVH, Scaleway, DigitalOcean)")
        );
        // a row in the price lists or the limits lists, by any of its names
        for (p, o) in [
            ("DigitalOcean", "volumes (standard droplet)"),
            ("Amazon Web Services", "EBS gp3"),
            ("Azure", "Premium SSD P15"),
            ("Azure", "Premium SSD v2"),
            ("Scaleway", "SBS 5K"),
            ("Akamai", "Block Storage"),
        ] {
            assert_eq!(miss(p, o), None, "{p} {o}");
        }
        // an instance cap row names no offering
        assert!(names
            .offerings()
            .all(|(_, o)| o != "m5.large" && !o.is_empty()));
        assert_eq!(names.offerings().count(), 27);
    }

    #[test]
    fn only_a_likely_misspelling_or_an_unpriced_name_is_warned_of() {
        let warned = |p: &str, o: &str, given: bool| name_warning(Some(p), Some(o), given);
        // the catalogue knows the provider and nothing priced it
        assert!(warned("DigitalOcean", "Volumes", false).is_some());
        assert!(warned("Linode", "Local SSD (1 GB plan)", false).is_some());
        // priced elsewhere: only a name near one of the catalogue's
        assert!(warned("DigitalOcean", "Volumes", true).is_some());
        assert!(warned("AWS", "gp4", true).is_some());
        assert_eq!(warned("Linode", "Local SSD (1 GB plan)", true), None);
        // an unknown provider: only near a catalogue name
        assert!(warned("Digital Ocean", "Volumes", true).is_some());
        assert_eq!(warned("Hetzner", "Volume", false), None);
        assert_eq!(warned("AWS EC2", "m1.small instance storage", false), None);
        // a name it has, and a subject without a name
        assert_eq!(warned("AWS", "gp3", false), None);
        assert_eq!(name_warning(None, Some("gp4"), false), None);
    }

    #[test]
    fn io2_above_its_known_band_has_no_cost_rather_than_a_wrong_one() {
        let book = prices().unwrap();
        let e = book
            .get_in(Some("AWS"), Some("io2"), Some("us-east-1"))
            .unwrap();
        let p = crate::analysis::prices::EffectivePrice::from_entry(e);
        let cost =
            |iops: &str| p.try_monthly_cost(Some(100.0), &labels(&[("provisioned_iops", iops)]));
        assert_eq!(
            cost("5000").map(|c| format!("{c:.2}")),
            Ok("337.50".to_string())
        );
        assert_eq!(
            cost("40000").unwrap_err().to_string(),
            "provisioned IOPS above the highest priced band (32000 IOPS)"
        );
    }

    /// The catalogue's promised baseline (`by_bw`: B/s) at a size.
    fn baseline(provider: &str, offering: &str, size: f64, by_bw: bool) -> f64 {
        let limits = limits().unwrap();
        let l = limits
            .find(Some(provider), Some(offering), Some(size))
            .unwrap_or_else(|| panic!("no {provider} {offering} at {size}"));
        l.promise(by_bw, Some(size)).baseline.unwrap()
    }

    #[test]
    fn worked_promises_from_the_catalogue() {
        const MIB: f64 = 1_048_576.0;
        // base plus per GiB: 3,000 + 6 × 100 IOPS, 140 + 0.28 × 100 MiB/s
        assert_eq!(baseline("GCP", "pd-balanced", 100.0, false), 3600.0);
        assert_eq!(baseline("GCP", "pd-balanced", 100.0, true), 168.0 * MIB);
        // published in MiB/s, promised in B/s: 125 MiB/s is 131.072 MB/s
        assert_eq!(baseline("AWS", "gp3", 500.0, true), 131_072_000.0);
        // gp2: the larger of 100 and 3 per GiB, at most 16,000
        assert_eq!(baseline("AWS", "gp2", 20.0, false), 100.0);
        assert_eq!(baseline("AWS", "gp2", 500.0, false), 1500.0);
        assert_eq!(baseline("AWS", "gp2", 8000.0, false), 16000.0);
        // Azure: a size performs as its tier; MB/s are 10^6 B/s
        assert_eq!(baseline("Azure", "Premium SSD", 256.0, false), 1100.0);
        assert_eq!(baseline("Azure", "Premium SSD", 257.0, false), 2300.0);
        assert_eq!(baseline("Azure", "Premium SSD", 128.0, true), 100e6);
        // OVH Gen2: 3,000 up to 100 GB, then 30 per GB, to 20,000
        assert_eq!(baseline("OVH", "High Speed Gen2", 50.0, false), 3000.0);
        assert_eq!(baseline("OVH", "High Speed Gen2", 200.0, false), 6000.0);
        assert_eq!(baseline("OVH", "High Speed Gen2", 1000.0, false), 20000.0);
        assert_eq!(baseline("OVH", "High Speed Gen2", 2000.0, true), 512e6);
        // an instance cap
        let limits = limits().unwrap();
        let cap = limits.instance_cap(Some("AWS"), Some("m5.large")).unwrap();
        assert_eq!(cap.promise(false, None).baseline, Some(3600.0));
    }

    #[test]
    fn a_provisioned_configuration_is_promised_its_own_figures() {
        use crate::analysis::limits::{Limits, Provisioned};
        let limits = Limits::default().with_catalogue(limits().unwrap(), "2026-12-07");
        let promise = |offering: &str, l: &[(&str, &str)], by_bw: bool| {
            let row = limits
                .for_config(
                    Some("AWS"),
                    Some(offering),
                    Some(100.0),
                    Provisioned::of(&labels(l)),
                )
                .unwrap();
            (row.promise(by_bw, Some(100.0)).baseline, row.note())
        };
        // plain gp3: the included 3,000 IOPS and 125 MiB/s
        let (iops, note) = promise("gp3", &[], false);
        assert_eq!(iops, Some(3000.0));
        assert!(note.starts_with("promised as of 2026-12"), "{note}");
        assert_eq!(promise("gp3", &[], true).0, Some(131_072_000.0));
        // bought at 16,000 IOPS and 500 MiB/s: held to them
        let bought = [("provisioned_iops", "16000"), ("provisioned_mbps", "500")];
        let (iops, note) = promise("gp3", &bought, false);
        assert_eq!(iops, Some(16000.0));
        assert!(
            note.starts_with(
                "16,000 IOPS and 500 MiB/s as provisioned; the rest promised as of 2026-12"
            ),
            "{note}"
        );
        assert_eq!(promise("gp3", &bought, true).0, Some(524_288_000.0));
        // only IOPS bought: throughput stays at the included 125 MiB/s
        let iops_only = [("provisioned_iops", "16000")];
        assert_eq!(promise("gp3", &iops_only, true).0, Some(131_072_000.0));
        // io2 has no row: its provisioned IOPS alone, no burst
        let (iops, note) = promise("io2", &[("provisioned_iops", "40000")], false);
        assert_eq!(iops, Some(40000.0));
        assert_eq!(note, "40,000 IOPS as provisioned, no burst");
        assert!(limits
            .for_config(
                Some("AWS"),
                Some("io2"),
                Some(100.0),
                Provisioned::default()
            )
            .is_none());
    }

    #[test]
    fn a_catalogue_row_without_as_of_or_source_is_refused() {
        let ok = "# c\nprovider,as_of,source\nA,2024-07,s\n\nB,2026,\"x, y\"\n";
        every_row_dated(ok).unwrap();
        let e = every_row_dated(&ok.replace("2026", ""))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "line 5: empty `as_of`; every catalogue row is dated and sourced"
        );
        let e = every_row_dated("provider,as_of,source\nA,2024-07,\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "line 2: empty `source`; every catalogue row is dated and sourced"
        );
        let e = every_row_dated("provider,as_of\nA,2024\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing column `source`"), "{e}");
        let bad = File {
            name: "x-prices.csv",
            text:
                "provider,offering,currency,as_of,source,component,price\nA,b,USD,,s,capacity,0.1\n",
        };
        let e = format!("{:#}", price_file(&bad).unwrap_err());
        assert!(
            e.starts_with("catalogue file `catalogue/x-prices.csv`: line 2: empty `as_of`"),
            "{e}"
        );
    }

    #[test]
    fn providers_are_found_by_any_of_their_names() {
        for (name, canonical) in [
            ("AWS", "AWS"),
            ("amazon", "AWS"),
            (" Amazon Web Services ", "AWS"),
            ("microsoft azure", "Azure"),
            ("MICROSOFT", "Azure"),
            ("Google", "GCP"),
            ("google cloud platform", "GCP"),
            ("Akamai Cloud", "Linode"),
            ("akamai", "Linode"),
            ("digitalocean", "DigitalOcean"),
        ] {
            assert_eq!(canonical_provider(name), Some(canonical), "{name}");
        }
        assert_eq!(canonical_provider("Hetzner"), None);
        assert_eq!(canonical_provider("Amazonia"), None);
        for f in PRICE_FILES.iter().chain(LIMIT_FILES) {
            assert!(!provider_of(f).is_empty(), "{}", f.name);
        }
    }

    #[test]
    fn a_list_is_told_apart_by_its_header_and_checked_by_its_parser() {
        let prices =
            "# mine\nprovider,offering,per_gb_month,currency\nA,b,0.1,USD\n\nA,c,0.2,USD\n";
        assert_eq!(check_list(prices).unwrap(), (ListKind::Prices, 2));
        let long = "provider,offering,region,currency,component,price\nA,b,r,USD,capacity,0.1\n";
        assert_eq!(check_list(long).unwrap(), (ListKind::Prices, 1));
        let header = "provider,offering,size_min_gb,size_max_gb,baseline_iops,baseline_iops_per_gb,burst_iops,baseline_mbps,baseline_mbps_per_gb,burst_mbps,source,as_of\n";
        let limits = format!("{header}A,b,,,3000,,,,,,,\n");
        assert_eq!(check_list(&limits).unwrap(), (ListKind::Limits, 1));
        let e = format!(
            "{:#}",
            check_list(&limits.replace("3000", "lots")).unwrap_err()
        );
        assert!(e.starts_with("line 2, column 5 (`baseline_iops`)"), "{e}");
        let e = format!(
            "{:#}",
            check_list("# c\nprovider,offering,price\n").unwrap_err()
        );
        assert!(e.starts_with("line 2: neither a price list"), "{e}");
        assert!(check_list("# only a comment\n")
            .unwrap_err()
            .to_string()
            .starts_with("no header"));
    }

    #[test]
    fn every_catalogue_file_loads() {
        for f in PRICE_FILES {
            price_file(f).unwrap();
        }
        for f in LIMIT_FILES {
            assert!(!limits_file(f).unwrap().is_empty(), "{} has no row", f.name);
        }
        assert!(!prices().unwrap().is_empty());
        assert!(!limits().unwrap().is_empty());
    }
}
