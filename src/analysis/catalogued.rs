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
