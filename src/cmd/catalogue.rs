//! `diskdash catalogue`: list what the built-in catalogue knows, and
//! `diskdash catalogue check FILE..`: validate a user's price or limits
//! list with the parsers `report` uses.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{anyhow, Context, Result};
use clap::{Args, Subcommand};

use crate::analysis::catalogued;
use crate::analysis::prices::{Band, Component, PriceEntry};
use crate::catalogue::{self, ListKind};
use crate::term::{shown, shown_line};

#[derive(Args, Debug, Clone)]
#[command(args_conflicts_with_subcommands = true)]
pub struct CatalogueArgs {
    #[command(subcommand)]
    pub action: Option<CatalogueAction>,
    /// List only this provider (AWS, Azure, GCP, Linode, Vultr, OVH,
    /// Scaleway, DigitalOcean; or Amazon, Microsoft, Google, Akamai, ...).
    #[arg(long, value_name = "P")]
    pub provider: Option<String>,
}

#[derive(Subcommand, Debug, Clone)]
pub enum CatalogueAction {
    /// Validate price lists and limits lists (told apart by their header); exit 1 if any is bad.
    Check {
        /// Price list or limits list files (CSV).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
}

/// Runs the command.
pub fn execute(args: &CatalogueArgs) -> Result<u8> {
    match &args.action {
        Some(CatalogueAction::Check { files }) => Ok(check(files)),
        None => list(args.provider.as_deref()),
    }
}

/// Checks each file; prints `FILE: ok (N rows)` or the error; 1 if any failed.
fn check(files: &[PathBuf]) -> u8 {
    let mut status = 0;
    for path in files {
        let read = crate::bounded::read_list(path, "list").and_then(|text| {
            catalogue::check_list(&text).with_context(|| match ListKind::of_text(&text) {
                Some(ListKind::Prices) => "price list",
                Some(ListKind::Limits) => "limits list",
                None => "list",
            })
        });
        match read {
            Ok((_, 1)) => crate::say!("{}: ok (1 row)", shown(path)),
            Ok((_, n)) => crate::say!("{}: ok ({} rows)", shown(path), n),
            Err(e) => {
                crate::tell!("{}: {}", shown(path), shown(&e));
                status = 1;
            }
        }
    }
    status
}

/// Prints the catalogue's prices and limits, or one provider's.
fn list(provider: Option<&str>) -> Result<u8> {
    let only = match provider {
        None => None,
        Some(p) => Some(catalogue::canonical_provider(p).ok_or_else(|| {
            let known: Vec<&str> = catalogue::PROVIDERS.iter().map(|(c, _)| *c).collect();
            crate::error::usage(anyhow!(
                "--provider `{p}`: not in the catalogue (it knows {})",
                known.join(", ")
            ))
        })?),
    };
    let wanted = |name: &str| only.is_none_or(|o| catalogue::canonical_provider(name) == Some(o));

    let book = catalogue::prices()?;
    let mut rows = vec![cells(&[
        "provider", "offering", "region", "price", "as_of", "source",
    ])];
    for e in book.entries().filter(|e| wanted(&e.provider)) {
        for c in &e.components {
            rows.push(vec![
                e.provider.clone(),
                e.offering.clone(),
                e.region.clone().unwrap_or_else(|| "any".into()),
                component_text(e, c),
                e.as_of.clone().unwrap_or_default(),
                e.source.clone().unwrap_or_default(),
            ]);
        }
    }
    crate::say!("List prices, per month:");
    print_table(&rows);

    catalogue::limits()?;
    let mut rows = vec![cells(&[
        "provider", "offering", "sizes", "baseline", "burst", "kind", "as_of", "source",
    ])];
    for f in catalogue::LIMIT_FILES {
        if !wanted(catalogue::provider_of(f)) {
            continue;
        }
        for r in catalogue::rows_of(f) {
            rows.push(limit_cells(&r));
        }
    }
    crate::say!("");
    crate::say!("Published limits:");
    print_table(&rows);

    // every offering a row names, with the other names that find it
    let mut rows = vec![cells(&["provider", "offering", "also matched as"])];
    let names = catalogue::names();
    for (p, o) in names.offerings().filter(|(p, _)| wanted(p)) {
        if rows.last().is_none_or(|r| r[0] != p) {
            let provider_names = catalogue::PROVIDERS
                .iter()
                .find(|(c, _)| *c == p)
                .map_or(&[][..], |(_, others)| *others);
            if !provider_names.is_empty() {
                rows.push(vec![
                    p.to_string(),
                    "(the provider)".to_string(),
                    provider_names.join(", "),
                ]);
            }
        }
        let mut others: Vec<String> = catalogued::other_names(p, o)
            .iter()
            .map(|n| n.to_string())
            .collect();
        if p == "Azure" {
            if let Some(tier) = azure_tier(o) {
                others.push(format!("{o} with its tier ({o} {tier}10)"));
            }
        }
        rows.push(vec![
            p.to_string(),
            o.to_string(),
            if others.is_empty() {
                "-".to_string()
            } else {
                others.join(", ")
            },
        ]);
    }
    crate::say!("");
    crate::say!("Names (matched case-insensitively):");
    print_table(&rows);
    if only.is_none() {
        crate::say!("");
        crate::say!("What is unknown, and why: see catalogue/README.md in the source.");
    }
    Ok(0)
}

/// The tier letter an Azure disk's name may carry (`Premium SSD P15`).
fn azure_tier(offering: &str) -> Option<char> {
    match offering.to_lowercase().as_str() {
        "premium ssd" => Some('P'),
        "standard ssd" => Some('E'),
        "standard hdd" => Some('S'),
        _ => None,
    }
}

fn cells(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// One price component in words: `0.08 USD per GB`, `5.28 USD for (16, 32]
/// GB`, `0.005 USD per IOPS above the 3000 included`, `0.065 USD per IOPS,
/// none included (--provisioned-iops)`.
fn component_text(e: &PriceEntry, c: &Component) -> String {
    let cur = &e.currency;
    // what is included, or that the figure must be given to be priced
    let band = |b: &Band, unit: &str, flag: &str| {
        let mut t = format!("{} {cur} per {unit}", b.per_unit_month);
        let low = b.above.max(b.included);
        let included = b.included > 0.0 && b.included >= b.above;
        match (low > 0.0, b.up_to) {
            (true, Some(h)) if included => {
                t.push_str(&format!(" above the {low} included, to {h}"))
            }
            (true, None) if included => t.push_str(&format!(" above the {low} included")),
            (true, Some(h)) => t.push_str(&format!(" from {low} to {h}")),
            (true, None) => t.push_str(&format!(" above {low}")),
            (false, Some(h)) => t.push_str(&format!(" up to {h}, none included ({flag})")),
            (false, None) => t.push_str(&format!(", none included ({flag})")),
        }
        t
    };
    match c {
        Component::Capacity { per_gb_month } => format!("{per_gb_month} {cur} per GB"),
        Component::CapacityTier {
            above_gb,
            up_to_gb,
            per_month,
        } => format!("{per_month} {cur} for ({above_gb}, {up_to_gb}] GB"),
        Component::Fixed { per_month } => format!("{per_month} {cur} fixed"),
        Component::Iops(b) => band(b, "IOPS", "--provisioned-iops"),
        Component::Throughput(b) => band(b, "MB/s", "--provisioned-mbps"),
    }
}

/// A limits row's cells: sizes, baseline, burst and burst kind in words,
/// in the units the provider published.
fn limit_cells(r: &BTreeMap<String, String>) -> Vec<String> {
    let get = |k: &str| r.get(k).map(String::as_str).filter(|s| !s.is_empty());
    let unit = get("mbps_unit").unwrap_or("MB/s");
    let plus = get("per_gb_rule") == Some("plus");
    let level = |fixed: Option<&str>, per_gb: Option<&str>, max: Option<&str>, unit: &str| {
        let mut t = match (fixed, per_gb) {
            (Some(f), Some(g)) if plus => format!("{f} + {g}/GB"),
            (Some(f), Some(g)) => format!("max({f}, {g}/GB)"),
            (Some(f), None) => f.to_string(),
            (None, Some(g)) => format!("{g}/GB"),
            (None, None) => return None,
        };
        if let Some(m) = max {
            t.push_str(&format!(" to {m}"));
        }
        t.push(' ');
        t.push_str(unit);
        Some(t)
    };
    let join = |a: Option<String>, b: Option<String>| -> String {
        match (a, b) {
            (Some(a), Some(b)) => format!("{a}, {b}"),
            (a, b) => a.or(b).unwrap_or_else(|| "-".into()),
        }
    };
    let baseline = join(
        level(
            get("baseline_iops"),
            get("baseline_iops_per_gb"),
            get("max_iops"),
            "IOPS",
        ),
        level(
            get("baseline_mbps"),
            get("baseline_mbps_per_gb"),
            get("max_mbps"),
            unit,
        ),
    );
    let burst = join(
        get("burst_iops").map(|b| format!("{b} IOPS")),
        get("burst_mbps").map(|b| format!("{b} {unit}")),
    );
    let kind = match (get("burst_kind"), get("burst_s"), get("burst_period_s")) {
        (Some(k), Some(s), Some(p)) => format!("{k}, {s} s of every {p} s"),
        (Some(k), Some(s), None) => format!("{k}, up to {s} s"),
        (Some(k), None, _) => k.to_string(),
        (None, _, _) => "-".into(),
    };
    let sizes = match (get("size_min_gb"), get("size_max_gb")) {
        (Some(a), Some(b)) => format!("{a}-{b} GB"),
        (Some(a), None) => format!("from {a} GB"),
        (None, Some(b)) => format!("up to {b} GB"),
        (None, None) => "any".into(),
    };
    let offering = match get("instance") {
        Some(i) => format!("instance {i}"),
        None => get("offering").unwrap_or("").to_string(),
    };
    vec![
        get("provider").unwrap_or("").to_string(),
        offering,
        sizes,
        baseline,
        burst,
        kind,
        get("as_of").unwrap_or("").to_string(),
        get("source").unwrap_or("").to_string(),
    ]
}

/// Prints rows as columns two spaces apart; the last column is not padded.
fn print_table(rows: &[Vec<String>]) {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..n)
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for r in rows {
        let mut line = String::new();
        for (i, c) in r.iter().enumerate() {
            line.push_str(c);
            if i + 1 < r.len() {
                let pad = widths[i] + 2 - c.chars().count();
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        crate::say!("{}", shown_line(line.trim_end()));
    }
}
