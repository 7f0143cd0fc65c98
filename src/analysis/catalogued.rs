//! The rules every price and limit lookup shares, whether the row comes
//! from a user's file or from the built-in catalogue: which provider names
//! mean the same provider, and when a catalogue figure is too old to be
//! shown without saying so.

/// The providers the catalogue knows: the name its files use, then the
/// other names that mean the same provider (matched case-insensitively,
/// trimmed).
pub const PROVIDERS: &[(&str, &[&str])] = &[
    ("AWS", &["Amazon", "Amazon Web Services"]),
    ("Azure", &["Microsoft", "Microsoft Azure"]),
    ("GCP", &["Google Cloud", "Google", "Google Cloud Platform"]),
    ("Linode", &["Akamai", "Akamai Cloud"]),
    ("Vultr", &[]),
    ("OVH", &[]),
    ("Scaleway", &[]),
    ("DigitalOcean", &[]),
];

/// The catalogue's name for a provider given by any of its names
/// (`amazon` -> `AWS`, `Akamai` -> `Linode`); `None` for a provider the
/// catalogue does not know.
pub fn canonical_provider(name: &str) -> Option<&'static str> {
    let name = name.trim();
    PROVIDERS
        .iter()
        .find(|(canonical, aliases)| {
            canonical.eq_ignore_ascii_case(name)
                || aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
        })
        .map(|(canonical, _)| *canonical)
}

/// A provider as matched: trimmed, lower case, an alias replaced by its
/// canonical name (`Amazon` and `aws` both give `aws`); the aliases are
/// [`PROVIDERS`].
pub fn provider_key(provider: &str) -> String {
    match canonical_provider(provider) {
        Some(canonical) => canonical.to_lowercase(),
        None => provider.trim().to_lowercase(),
    }
}

/// Other names of the catalogue's offerings, as publishers write them:
/// provider (the catalogue's name), the catalogue's offering name, then its
/// other names (matched case-insensitively, trimmed). An Azure disk named
/// with its tier (`Premium SSD P15`, `Standard SSD E10`) is matched by
/// [`offering_key`] without the tier: the size picks the tier's row.
pub const OFFERINGS: &[(&str, &str, &[&str])] = &[
    ("AWS", "gp2", &["EBS gp2", "General Purpose SSD gp2"]),
    ("AWS", "gp3", &["EBS gp3", "General Purpose SSD gp3"]),
    ("AWS", "io1", &["EBS io1", "Provisioned IOPS SSD io1"]),
    ("AWS", "io2", &["EBS io2", "Provisioned IOPS SSD io2"]),
    ("AWS", "st1", &["EBS st1", "Throughput Optimized HDD"]),
    ("AWS", "sc1", &["EBS sc1", "Cold HDD"]),
    ("AWS", "standard", &["EBS standard", "EBS Magnetic"]),
    ("Azure", "Ultra", &["Ultra Disk"]),
    (
        "GCP",
        "pd-balanced",
        &["Balanced persistent disk", "pd balanced"],
    ),
    ("GCP", "pd-ssd", &["SSD persistent disk", "pd ssd"]),
    (
        "GCP",
        "pd-standard",
        &["Standard persistent disk", "pd standard"],
    ),
    (
        "GCP",
        "pd-extreme",
        &["Extreme persistent disk", "pd extreme"],
    ),
    ("OVH", "Classic", &["Block Storage Classic"]),
    ("OVH", "High Speed Gen2", &["Block Storage High Speed Gen2"]),
    (
        "Scaleway",
        "sbs_5k",
        &["Block Storage 5K", "SBS 5K", "sbs-5k"],
    ),
    (
        "Scaleway",
        "sbs_15k",
        &["Block Storage 15K", "SBS 15K", "sbs-15k"],
    ),
    ("Vultr", "NVMe Block Storage", &["Block Storage NVMe"]),
    ("Vultr", "HDD Block Storage", &["Block Storage HDD"]),
];

/// An offering as matched: trimmed, lower case, another name of one of the
/// catalogue's offerings replaced by the catalogue's ([`OFFERINGS`]), and an
/// Azure disk's tier word left out (`Premium SSD P15` gives `premium ssd`,
/// as `Standard SSD E10`, `Standard HDD S10` give theirs). Names the
/// catalogue does not know are only trimmed and lower-cased.
pub fn offering_key(provider: &str, offering: &str) -> String {
    let name = offering.trim();
    let canonical = canonical_provider(provider);
    if let Some((_, catalogue_name, _)) = OFFERINGS.iter().find(|(p, c, others)| {
        Some(*p) == canonical
            && (c.eq_ignore_ascii_case(name) || others.iter().any(|o| o.eq_ignore_ascii_case(name)))
    }) {
        return catalogue_name.to_lowercase();
    }
    let lower = name.to_lowercase();
    if canonical == Some("Azure") {
        for (disk, tier) in [
            ("premium ssd ", 'p'),
            ("standard ssd ", 'e'),
            ("standard hdd ", 's'),
        ] {
            if let Some(rest) = lower.strip_prefix(disk) {
                let digits = rest.strip_prefix(tier).unwrap_or("");
                if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
                    return disk.trim_end().to_string();
                }
            }
        }
    }
    lower
}

/// Other names of one of the catalogue's offerings ([`OFFERINGS`]); none
/// for an offering that has no other name.
pub fn other_names(provider: &str, offering: &str) -> &'static [&'static str] {
    let canonical = canonical_provider(provider);
    OFFERINGS
        .iter()
        .find(|(p, c, _)| Some(*p) == canonical && c.eq_ignore_ascii_case(offering.trim()))
        .map_or(&[], |(_, _, others)| others)
}

/// How many of a known provider's names a miss lists, nearest first.
const LISTED: usize = 5;
/// How many names of other providers a miss lists for an unknown one.
const LISTED_ACROSS: usize = 3;
/// How near (Jaro-Winkler, 0 to 1) a provider and offering typed under an
/// unknown provider must be to a catalogue row, on average, to be offered
/// it: `Digital Ocean Volumes` is 0.9 from DigitalOcean's `Volumes
/// (Standard Droplet)`, `Hetzner Volume` 0.67.
const NEAR: f64 = 0.75;

/// The offerings a catalogue has (the rows of its price and limits
/// lists), to tell a name that matches none of them which names it has.
/// The one place that decides that a name is not in the catalogue and
/// says so; its nearest names are ranked by Jaro-Winkler similarity (case
/// left out), which, unlike a plain edit distance, ranks a name the typed
/// one begins (`Volumes (Standard Droplet)` for `Volumes`) above a short
/// unrelated one (`Ultra`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Names {
    /// (provider as the catalogue writes it, offering as written), in
    /// file order, each offering once.
    offerings: Vec<(String, String)>,
}

/// A name the catalogue has no row for, and the names it has instead:
/// shown as `no row for DigitalOcean Volumes; the catalogue has Volumes
/// (Standard Droplet), Volumes (Optimized Droplet)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Miss {
    /// The name as given, `provider offering`, trimmed.
    pub name: String,
    /// What the catalogue has instead: `the catalogue has ...`.
    pub has: String,
    /// Whether the catalogue knows the provider (only the offering is not
    /// matched).
    pub known_provider: bool,
    /// Whether a name the catalogue has is near the one given (Jaro-Winkler 0.75 or more):
    /// likely a misspelling rather than an offering the catalogue lacks.
    pub near: bool,
}

impl std::fmt::Display for Miss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no row for {}; {}", self.name, self.has)
    }
}

impl Names {
    /// The names of `(provider, offering)` rows, each offering once (as
    /// [`provider_key`] and [`offering_key`] match them); rows without an
    /// offering (instance caps) are left out.
    pub fn new<'a>(rows: impl IntoIterator<Item = (&'a str, &'a str)>) -> Names {
        let mut seen = std::collections::BTreeSet::new();
        let offerings = rows
            .into_iter()
            .filter(|(p, o)| !p.trim().is_empty() && !o.trim().is_empty())
            .filter(|(p, o)| seen.insert((provider_key(p), offering_key(p, o))))
            .map(|(p, o)| {
                let provider = canonical_provider(p).unwrap_or(p.trim());
                (provider.to_string(), o.trim().to_string())
            })
            .collect();
        Names { offerings }
    }

    /// Every offering, `(provider, offering)`, in the catalogue's order.
    pub fn offerings(&self) -> impl Iterator<Item = (&str, &str)> {
        self.offerings.iter().map(|(p, o)| (p.as_str(), o.as_str()))
    }

    /// Whether a row of the catalogue has this offering (by any of its
    /// names, an Azure disk with its tier too).
    pub fn has(&self, provider: &str, offering: &str) -> bool {
        let key = (provider_key(provider), offering_key(provider, offering));
        self.offerings
            .iter()
            .any(|(p, o)| (provider_key(p), offering_key(p, o)) == key)
    }

    /// `None` when the catalogue has a row for the offering; else what it
    /// has instead. For a provider it knows, that provider's names, the
    /// nearest first; for one it does not, the nearest names of any
    /// provider, or the providers it knows when none is near.
    pub fn miss(&self, provider: &str, offering: &str) -> Option<Miss> {
        if self.has(provider, offering) {
            return None;
        }
        let name = format!("{} {}", provider.trim(), offering.trim());
        let near = |typed: &str, known: &str| {
            strsim::jaro_winkler(&typed.trim().to_lowercase(), &known.to_lowercase())
        };
        let offering_near = |p: &str, o: &str| {
            std::iter::once(o)
                .chain(other_names(p, o).iter().copied())
                .map(|n| near(offering, n))
                .fold(0.0, f64::max)
        };
        let by_nearness = |mut scored: Vec<(f64, usize, String)>| -> (Vec<String>, f64) {
            // nearest first; a tie keeps the catalogue's order
            scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            let best = scored.first().map_or(0.0, |s| s.0);
            (scored.into_iter().map(|(_, _, n)| n).collect(), best)
        };
        if let Some(known) = canonical_provider(provider) {
            let (names, best) = by_nearness(
                self.offerings()
                    .enumerate()
                    .filter(|(_, (p, _))| *p == known)
                    .map(|(i, (p, o))| (offering_near(p, o), i, o.to_string()))
                    .collect(),
            );
            let has = if names.is_empty() {
                format!("the catalogue has no {known} offering")
            } else {
                format!("the catalogue has {}", listed(&names, LISTED))
            };
            return Some(Miss {
                name,
                has,
                known_provider: true,
                near: best >= NEAR,
            });
        }
        let provider_near = |p: &str| {
            PROVIDERS
                .iter()
                .filter(|(c, _)| *c == p)
                .flat_map(|(c, others)| std::iter::once(*c).chain(others.iter().copied()))
                .chain(std::iter::once(p))
                .map(|n| near(provider, n))
                .fold(0.0, f64::max)
        };
        let (names, _) = by_nearness(
            self.offerings()
                .enumerate()
                .map(|(i, (p, o))| {
                    let score = (provider_near(p) + offering_near(p, o)) / 2.0;
                    (score, i, format!("{p} {o}"))
                })
                .filter(|(score, _, _)| *score >= NEAR)
                .collect(),
        );
        let has = if names.is_empty() {
            let mut providers: Vec<&str> = Vec::new();
            for (p, _) in self.offerings() {
                if !providers.contains(&p) {
                    providers.push(p);
                }
            }
            format!(
                "the catalogue has no provider {} (it has {})",
                provider.trim(),
                providers.join(", ")
            )
        } else {
            format!(
                "the catalogue has no provider {}; nearest: {}",
                provider.trim(),
                listed(&names, LISTED_ACROSS)
            )
        };
        Some(Miss {
            name,
            has,
            known_provider: false,
            near: !names.is_empty(),
        })
    }

    /// What to warn of a configuration's name: its [`Names::miss`] where
    /// a name the catalogue has is near (likely misspelt: it loses the
    /// list price and published limits it was meant to find), or where the
    /// catalogue knows the provider and nothing else (`--prices`,
    /// `--limits`, the record's own price: `given_elsewhere`) gives the
    /// configuration a price or limits. An offering of a provider the
    /// catalogue does not know, near none of its names, is not warned of
    /// (the catalogue cannot help it; its page says why it is unpriced).
    pub fn warning(&self, provider: &str, offering: &str, given_elsewhere: bool) -> Option<Miss> {
        self.miss(provider, offering)
            .filter(|m| m.near || m.known_provider && !given_elsewhere)
    }
}

/// The first `most` names, comma-separated, and how many more there are.
fn listed(names: &[String], most: usize) -> String {
    let mut text = names
        .iter()
        .take(most)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > most {
        text.push_str(&format!(" and {} more", names.len() - most));
    }
    text
}

/// Whether a figure read on `as_of` (`YYYY-MM-DD`, `YYYY-MM` or `YYYY`)
/// is more than a year old on `today` (`YYYY-MM-DD`, or longer text
/// starting with it). A month or year counts from its last day, so
/// `2024-07` is more than a year old from 2025-08-01 on, `2024` from
/// 2026-01-01. A date that does not read is never called stale.
pub fn older_than_a_year(as_of: &str, today: &str) -> bool {
    let (Some(then), Some(now)) = (day(as_of), day(today)) else {
        return false;
    };
    now > (then.0 + 1, then.1, then.2)
}

/// `YYYY-MM-DD` as numbers; a missing day or month is the last one
/// (31 and 12: only the order of dates matters here).
fn day(text: &str) -> Option<(u32, u32, u32)> {
    let mut parts = text.get(..10).unwrap_or(text).split('-');
    let mut next = |last: u32| -> Option<u32> {
        match parts.next() {
            Some(p) if p.len() <= 4 && p.chars().all(|c| c.is_ascii_digit()) => p.parse().ok(),
            Some(_) => None,
            None => Some(last),
        }
    };
    let y = next(0)?;
    let m = next(12)?;
    let d = next(31)?;
    (y > 0).then_some((y, m, d))
}

/// The note of a catalogue figure: `<what> as of DATE (SOURCE)`, and
/// `, more than a year old` when `stale` ([`older_than_a_year`]).
pub fn dated_note(what: &str, as_of: Option<&str>, source: Option<&str>, stale: bool) -> String {
    let mut note = what.to_string();
    if let Some(d) = as_of {
        note.push_str(&format!(" as of {d}"));
    }
    if let Some(s) = source {
        note.push_str(&format!(" ({s})"));
    }
    if stale {
        note.push_str(", more than a year old");
    }
    note
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_name_one_provider() {
        for (name, key) in [
            ("Amazon", "aws"),
            (" amazon web services ", "aws"),
            ("AWS", "aws"),
            ("Microsoft", "azure"),
            ("google cloud", "gcp"),
            ("Google Cloud Platform", "gcp"),
            ("Akamai", "linode"),
            ("Hetzner", "hetzner"),
        ] {
            assert_eq!(provider_key(name), key, "{name}");
        }
    }

    #[test]
    fn other_names_of_an_offering_find_the_catalogues() {
        for (provider, name, key) in [
            ("Scaleway", "Block Storage 5K", "sbs_5k"),
            ("scaleway", " sbs_15k ", "sbs_15k"),
            ("Vultr", "Block Storage NVMe", "nvme block storage"),
            ("Amazon", "EBS gp3", "gp3"),
            ("Google Cloud", "Balanced persistent disk", "pd-balanced"),
            ("OVH", "Block Storage High Speed Gen2", "high speed gen2"),
            ("Azure", "Premium SSD P15", "premium ssd"),
            ("Microsoft", "standard ssd e10", "standard ssd"),
            ("Azure", "Standard HDD S4", "standard hdd"),
            ("Azure", "Premium SSD v2", "premium ssd v2"),
            ("Azure", "Premium SSD P", "premium ssd p"),
            // another provider's name is not translated
            ("Hetzner", "Block Storage 5K", "block storage 5k"),
            ("AWS", "Block Storage NVMe", "block storage nvme"),
        ] {
            assert_eq!(offering_key(provider, name), key, "{provider} {name}");
        }
    }

    #[test]
    fn a_figure_is_stale_after_a_year_from_its_date() {
        assert!(!older_than_a_year("2024-07", "2025-07-31"));
        assert!(older_than_a_year("2024-07", "2025-08-01"));
        assert!(!older_than_a_year("2024-07-15", "2025-07-15"));
        assert!(older_than_a_year("2024-07-15", "2025-07-16"));
        assert!(older_than_a_year("2024-07-15", "2026-07-15T00:00:00Z"));
        assert!(!older_than_a_year("July 2024", "2026-07-15"));
        assert!(!older_than_a_year("2024", "2025-12-31"));
        assert!(older_than_a_year("2024", "2026-01-01"));
        assert_eq!(
            dated_note(
                "list price",
                Some("2024-07"),
                Some("aws.amazon.com/ebs/pricing"),
                true
            ),
            "list price as of 2024-07 (aws.amazon.com/ebs/pricing), more than a year old"
        );
    }
}
