//! Published performance limits: the `--limits FILE` list (CSV) of what a
//! provider promises an offering delivers, its baseline and burst IOPS and
//! throughput per size band, so the site can put "measured / promised"
//! beside each burst and sustained level.
//!
//! The header (any column order; a line starting with `#` is a comment):
//!
//! ```text
//! provider,offering,size_min_gb,size_max_gb,baseline_iops,baseline_iops_per_gb,burst_iops,baseline_mbps,baseline_mbps_per_gb,burst_mbps,source,as_of
//! ```
//!
//! An optional `instance` column makes a row a per-instance cap: a VM of
//! that instance type (the records' `host.instance_type`, of that
//! provider) caps the I/O of every volume attached to it at
//! `baseline_iops`/`baseline_mbps`, and lets it reach
//! `burst_iops`/`burst_mbps` for a while (AWS: 30 minutes a day). Such a
//! row leaves `offering`, the sizes and the per-GB columns empty.
//!
//! `provider` and `offering` are required and matched against the records'
//! subject case-insensitively, like the price list. The size range is
//! inclusive at both ends, an empty end is open; the first row (in file
//! order) that matches a configuration wins, so bands may share an edge. A
//! configuration of unknown size matches only a row without a size range.
//! Every other cell may be empty: unknown, never zero. A baseline that
//! scales with size (AWS gp2: 3 IOPS per GB, at least 100) is the larger of
//! `baseline_iops` and `baseline_iops_per_gb` × size. MB/s are decimal
//! (10^6 bytes per second), as every bandwidth on the site.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::analysis::catalogued;
use crate::plausible::{self, Range};

/// Every column the file may have, in the documented order.
pub const COLUMNS: [&str; 13] = [
    "provider",
    "offering",
    "size_min_gb",
    "size_max_gb",
    "baseline_iops",
    "baseline_iops_per_gb",
    "burst_iops",
    "baseline_mbps",
    "baseline_mbps_per_gb",
    "burst_mbps",
    "source",
    "as_of",
    "instance",
];

/// The columns a file must have; the two per-GB columns and `instance`
/// may be left out.
const REQUIRED: [&str; 10] = [
    "provider",
    "offering",
    "size_min_gb",
    "size_max_gb",
    "baseline_iops",
    "burst_iops",
    "baseline_mbps",
    "burst_mbps",
    "source",
    "as_of",
];

/// Bytes per second in one MB/s, the unit of the file's throughput columns.
pub const BYTES_PER_MB: f64 = 1e6;

/// A baseline: a fixed level, a rate per GB of size, or the larger of both.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Baseline {
    /// A fixed level (or the floor under the per-GB one).
    pub fixed: Option<f64>,
    /// A level per GB of the volume's size.
    pub per_gb: Option<f64>,
}

impl Baseline {
    /// The level at `size_gb`: the larger of the fixed one and per-GB ×
    /// size; `None` when neither is known (per-GB alone needs the size).
    pub fn at(&self, size_gb: Option<f64>) -> Option<f64> {
        let scaled = self.per_gb.zip(size_gb).map(|(r, s)| r * s);
        match (self.fixed, scaled) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }
}

/// One row of the list: what an offering promises in one size band.
/// Throughput is in B/s, converted from the file's MB/s.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limit {
    /// Provider, as in the records' `subject.provider`.
    pub provider: String,
    /// Offering, as in the records' `subject.offering`.
    pub offering: String,
    /// Smallest size the row covers, GB; `None` for no lower bound.
    pub size_min_gb: Option<f64>,
    /// Largest size the row covers, GB; `None` for no upper bound.
    pub size_max_gb: Option<f64>,
    /// Baseline IOPS.
    pub baseline_iops: Baseline,
    /// Burst IOPS.
    pub burst_iops: Option<f64>,
    /// Baseline throughput, B/s (per GB: B/s per GB).
    pub baseline_bw: Baseline,
    /// Burst throughput, B/s.
    pub burst_bw: Option<f64>,
    /// Where the figures come from (an address or a document).
    pub source: Option<String>,
    /// When they were read, as the file says it.
    pub as_of: Option<String>,
    /// Line of the row in its file (1-based; the header is line 1).
    pub line: usize,
    /// For a per-instance cap, the instance type (`m5.large`); the row then
    /// has no offering (empty) and no size band.
    pub instance: Option<String>,
    /// Whether the row comes from the built-in catalogue (not `--limits`).
    pub catalogue: bool,
    /// Whether its `as_of` is more than a year before the build date
    /// ([`catalogued::older_than_a_year`]); only catalogue rows are judged.
    pub stale: bool,
}

/// What a limit promises for one series: its baseline and burst levels in
/// the series' canonical unit (IOPS or B/s).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Promise {
    pub baseline: Option<f64>,
    pub burst: Option<f64>,
}

impl Limit {
    /// Whether the row covers a volume of `size_gb` (inclusive ends; a row
    /// with a size range never covers an unknown size).
    pub fn covers(&self, size_gb: Option<f64>) -> bool {
        if self.size_min_gb.is_none() && self.size_max_gb.is_none() {
            return true;
        }
        let Some(s) = size_gb else { return false };
        self.size_min_gb.is_none_or(|lo| s >= lo) && self.size_max_gb.is_none_or(|hi| s <= hi)
    }

    /// The promised IOPS (`by_bw` false) or throughput (true) at `size_gb`.
    pub fn promise(&self, by_bw: bool, size_gb: Option<f64>) -> Promise {
        if by_bw {
            Promise {
                baseline: self.baseline_bw.at(size_gb),
                burst: self.burst_bw,
            }
        } else {
            Promise {
                baseline: self.baseline_iops.at(size_gb),
                burst: self.burst_iops,
            }
        }
    }

    /// Where the figures come from, for the reader: "source, as of date";
    /// for a catalogue row "promised as of DATE (SOURCE)", and ", more than
    /// a year old" when it is.
    pub fn note(&self) -> String {
        if self.catalogue {
            return catalogued::dated_note(
                "promised",
                self.as_of.as_deref(),
                self.source.as_deref(),
                self.stale,
            );
        }
        match (&self.source, &self.as_of) {
            (Some(s), Some(d)) => format!("{s}, as of {d}"),
            (Some(s), None) => s.clone(),
            (None, Some(d)) => format!("limits list as of {d}"),
            (None, None) => "limits list".to_string(),
        }
    }
}

/// A list of published limits, in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    rows: Vec<Limit>,
}

/// The plausible values of a numeric column, in the file's units.
fn range_of(column: &str) -> Range {
    match column {
        "size_min_gb" | "size_max_gb" => plausible::SIZE_EDGE_GB,
        "baseline_iops" | "burst_iops" => plausible::LIMIT_IOPS,
        "baseline_iops_per_gb" => plausible::LIMIT_IOPS_PER_GB,
        "baseline_mbps_per_gb" => plausible::LIMIT_MBPS_PER_GB,
        _ => plausible::LIMIT_MBPS,
    }
}

/// An offering or instance type as matched: trimmed, lower case.
fn key(s: &str) -> String {
    s.trim().to_lowercase()
}

/// A provider as matched, aliases included ([`catalogued::provider_key`]).
fn provider(s: &str) -> String {
    catalogued::provider_key(s)
}

impl Limits {
    /// Reads a limits file; errors name the file, line and column.
    pub fn load(path: &Path) -> Result<Limits> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("failed to read limits list `{}`", path.display()))?;
        Limits::parse(&text).with_context(|| format!("limits list `{}`", path.display()))
    }

    /// Parses limits CSV (see the module documentation). Errors name the
    /// line (1-based, header is line 1, comments count), the column and
    /// what was expected.
    pub fn parse(text: &str) -> Result<Limits> {
        // comments and blank lines are dropped before the CSV reader sees
        // the text, keeping each line's number in the file for errors
        let mut kept = String::with_capacity(text.len());
        let mut numbers = Vec::new();
        for (i, l) in text.lines().enumerate() {
            let t = l.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            kept.push_str(l);
            kept.push('\n');
            numbers.push(i + 1);
        }
        let mut reader = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .flexible(false)
            .from_reader(kept.as_bytes());
        let headers = reader
            .headers()
            .context("line 1: unreadable header")?
            .clone();
        // the reader's own line numbers skip comments: count lines in the text
        let line_at = |byte: u64| {
            let end = (byte as usize).min(kept.len());
            let n = kept.as_bytes()[..end]
                .iter()
                .filter(|b| **b == b'\n')
                .count();
            numbers.get(n).copied().unwrap_or(n + 1)
        };
        let header_line = headers.position().map(|p| line_at(p.byte())).unwrap_or(1);
        let expected = COLUMNS.join(",");
        let mut seen = BTreeSet::new();
        for h in headers.iter() {
            if !COLUMNS.contains(&h) {
                bail!("line {header_line}: unknown column `{h}` (expected {expected})");
            }
            if !seen.insert(h) {
                bail!("line {header_line}: column `{h}` appears twice");
            }
        }
        if let Some(missing) = REQUIRED.iter().find(|c| !seen.contains(**c)) {
            bail!("line {header_line}: missing column `{missing}` (expected {expected})");
        }
        let col = |name: &str| headers.iter().position(|h| h == name);
        let mut rows = Vec::new();
        for row in reader.records() {
            let row = row.map_err(|e| {
                let line = e.position().map(|p| line_at(p.byte())).unwrap_or(0);
                anyhow::anyhow!("line {line}: unreadable row: {e}")
            })?;
            let line = row.position().map(|p| line_at(p.byte())).unwrap_or(0);
            let text = |name: &str| -> Option<String> {
                col(name)
                    .and_then(|i| row.get(i))
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
            };
            // a number in the column's plausible range ([`crate::plausible`])
            let number = |name: &str| -> Result<Option<f64>> {
                let Some(s) = text(name) else { return Ok(None) };
                let column = col(name).map(|i| i + 1).unwrap_or(0);
                let range = range_of(name);
                match s.replace('_', "").parse::<f64>() {
                    Ok(v) => match range.check(v) {
                        Ok(()) => Ok(Some(v)),
                        Err(why) => bail!(
                            "line {line}, column {column} (`{name}`): {why}; leave the cell empty when unknown"
                        ),
                    },
                    Err(_) => bail!(
                        "line {line}, column {column} (`{name}`): `{s}` is not a number of zero or more (expected {}; leave the cell empty when unknown)",
                        range.describe()
                    ),
                }
            };
            let mbps =
                |name: &str| -> Result<Option<f64>> { Ok(number(name)?.map(|v| v * BYTES_PER_MB)) };
            let required = |name: &str| -> Result<String> {
                let column = col(name).map(|i| i + 1).unwrap_or(0);
                text(name).with_context(|| {
                    format!("line {line}, column {column} (`{name}`): empty, expected the {name} as the records name it")
                })
            };
            let instance = text("instance");
            if let Some(i) = &instance {
                // a cap of the VM: no volume's name, size or per-GB rate
                for name in [
                    "offering",
                    "size_min_gb",
                    "size_max_gb",
                    "baseline_iops_per_gb",
                    "baseline_mbps_per_gb",
                ] {
                    if text(name).is_some() {
                        let column = col(name).map(|c| c + 1).unwrap_or(0);
                        bail!(
                            "line {line}, column {column} (`{name}`): a row with an `instance` ({i}) \
                             caps every volume on that instance type: leave `{name}` empty"
                        );
                    }
                }
                if crate::record::over_limit(i, crate::record::MAX_NAME_CHARS).is_some() {
                    let column = col("instance").map(|c| c + 1).unwrap_or(0);
                    bail!(
                        "line {line}, column {column} (`instance`): longer than {} characters",
                        crate::record::MAX_NAME_CHARS
                    );
                }
            }
            let limit = Limit {
                provider: required("provider")?,
                offering: match &instance {
                    Some(_) => String::new(),
                    None => required("offering")?,
                },
                size_min_gb: number("size_min_gb")?,
                size_max_gb: number("size_max_gb")?,
                baseline_iops: Baseline {
                    fixed: number("baseline_iops")?,
                    per_gb: number("baseline_iops_per_gb")?,
                },
                burst_iops: number("burst_iops")?,
                baseline_bw: Baseline {
                    fixed: mbps("baseline_mbps")?,
                    per_gb: mbps("baseline_mbps_per_gb")?,
                },
                burst_bw: mbps("burst_mbps")?,
                catalogue: false,
                stale: false,
                source: text("source"),
                as_of: text("as_of"),
                line,
                instance,
            };
            if let (Some(lo), Some(hi)) = (limit.size_min_gb, limit.size_max_gb) {
                if lo > hi {
                    bail!(
                        "line {line}: `size_min_gb` {lo} is above `size_max_gb` {hi} (expected the smallest size first)"
                    );
                }
            }
            rows.push(limit);
        }
        Ok(Limits { rows })
    }

    /// Whether the list is empty (no `--limits`, or a file of only a header).
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The first row, in file order, for `provider` and `offering`
    /// (case-insensitive) that covers `size_gb`.
    pub fn find(
        &self,
        provider: Option<&str>,
        offering: Option<&str>,
        size_gb: Option<f64>,
    ) -> Option<&Limit> {
        let (p, o) = (self::provider(provider?), key(offering?));
        self.rows.iter().find(|l| {
            l.instance.is_none()
                && self::provider(&l.provider) == p
                && key(&l.offering) == o
                && l.covers(size_gb)
        })
    }

    /// The first per-instance cap row for `provider` and `instance`
    /// (case-insensitive).
    pub fn instance_cap(&self, provider: Option<&str>, instance: Option<&str>) -> Option<&Limit> {
        let (p, i) = (self::provider(provider?), key(instance?));
        self.rows.iter().find(|l| {
            self::provider(&l.provider) == p && l.instance.as_deref().map(key) == Some(i.clone())
        })
    }

    /// Per-instance cap rows whose provider and instance type match none
    /// of `hosts` (provider, instance type): likely a misspelt name.
    pub fn unmatched_instances<'a>(
        &self,
        hosts: impl IntoIterator<Item = (Option<&'a str>, Option<&'a str>)>,
    ) -> Vec<&Limit> {
        let known: BTreeSet<(String, String)> = hosts
            .into_iter()
            .filter_map(|(p, i)| Some((provider(p?), key(i?))))
            .collect();
        self.rows
            .iter()
            .filter(|l| {
                !l.catalogue
                    && l.instance
                        .as_deref()
                        .is_some_and(|i| !known.contains(&(provider(&l.provider), key(i))))
            })
            .collect()
    }

    /// Every burst level of the user's list (not the catalogue's rows),
    /// IOPS or (`by_bw`) B/s, in file order, each once.
    pub fn burst_levels(&self, by_bw: bool) -> Vec<f64> {
        let mut out: Vec<f64> = Vec::new();
        for l in self.rows.iter().filter(|l| !l.catalogue) {
            let b = if by_bw { l.burst_bw } else { l.burst_iops };
            if let Some(b) = b.filter(|b| !out.contains(b)) {
                out.push(b);
            }
        }
        out
    }

    /// Rows whose provider and offering match none of `subjects`: likely
    /// a misspelt name.
    pub fn unmatched<'a>(
        &self,
        subjects: impl IntoIterator<Item = (Option<&'a str>, Option<&'a str>)>,
    ) -> Vec<&Limit> {
        let known: BTreeSet<(String, String)> = subjects
            .into_iter()
            .filter_map(|(p, o)| Some((provider(p?), key(o?))))
            .collect();
        self.rows
            .iter()
            .filter(|l| {
                !l.catalogue
                    && l.instance.is_none()
                    && !known.contains(&(provider(&l.provider), key(&l.offering)))
            })
            .collect()
    }

    /// These rows (`--limits`) with the built-in catalogue's under them: a
    /// catalogue row applies only where no row here names its provider and
    /// offering (or provider and instance type), so a user's rows for an
    /// offering replace all the catalogue's rows for it. `today`
    /// (`YYYY-MM-DD`, the build date) marks the catalogue rows more than a
    /// year old.
    pub fn with_catalogue(mut self, catalogue: Limits, today: &str) -> Limits {
        let name = |l: &Limit| {
            (
                provider(&l.provider),
                key(&l.offering),
                l.instance.as_deref().map(key),
            )
        };
        let mine: BTreeSet<_> = self.rows.iter().map(name).collect();
        for mut l in catalogue.rows {
            if mine.contains(&name(&l)) {
                continue;
            }
            l.catalogue = true;
            l.stale = l
                .as_of
                .as_deref()
                .is_some_and(|d| catalogued::older_than_a_year(d, today));
            self.rows.push(l);
        }
        self
    }

    /// The rows for one provider and offering, with the provider's
    /// per-instance caps, in order: what a run of that offering is judged by.
    pub fn only(&self, provider_name: Option<&str>, offering: Option<&str>) -> Limits {
        let (Some(p), Some(o)) = (provider_name, offering) else {
            return Limits::default();
        };
        let (p, o) = (provider(p), key(o));
        Limits {
            rows: self
                .rows
                .iter()
                .filter(|l| {
                    provider(&l.provider) == p && (l.instance.is_some() || key(&l.offering) == o)
                })
                .cloned()
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "provider,offering,size_min_gb,size_max_gb,baseline_iops,baseline_iops_per_gb,burst_iops,baseline_mbps,baseline_mbps_per_gb,burst_mbps,source,as_of\n";

    fn gp2() -> Limits {
        Limits::parse(&format!(
            "{HEADER}# gp2: 3 IOPS per GB, at least 100, bursts to 3000 below 1000 GB\n\
             AWS,gp2,1,1000,100,3,3000,,,,https://example.test/ebs,2025-01-15\n\
             AWS,gp2,1000,5334,,3,,,,,https://example.test/ebs,2025-01-15\n\
             AWS,gp3,,,3000,,,125,,,,\n"
        ))
        .unwrap()
    }

    #[test]
    fn the_shipped_example_parses() {
        let text = include_str!("../../docs/limits.example.csv");
        let l = Limits::parse(text).unwrap();
        let gp2 = l.find(Some("AWS"), Some("gp2"), Some(100.0)).unwrap();
        assert_eq!(gp2.promise(false, Some(100.0)).baseline, Some(300.0));
        assert_eq!(gp2.promise(false, Some(100.0)).burst, Some(3000.0));
        assert!(gp2.source.as_deref().unwrap().starts_with("https://"));
        let m5 = l.instance_cap(Some("AWS"), Some("m5.large")).unwrap();
        assert_eq!(m5.promise(false, None).baseline, Some(3600.0));
        assert_eq!(m5.promise(true, None).burst, Some(593_750_000.0));
    }

    #[test]
    fn sizes_match_inclusive_bands_first_row_first() {
        let l = gp2();
        let at = |s: f64| l.find(Some("aws"), Some("GP2"), Some(s)).map(|r| r.line);
        // line 1 header, line 2 comment, rows from line 3
        assert_eq!(at(1.0), Some(3));
        assert_eq!(at(1000.0), Some(3), "a shared edge goes to the first row");
        assert_eq!(at(1000.5), Some(4));
        assert_eq!(at(5334.0), Some(4));
        assert_eq!(at(5334.1), None);
        assert_eq!(at(0.5), None);
        // a banded row never matches an unknown size; an open one does
        assert!(l.find(Some("AWS"), Some("gp2"), None).is_none());
        assert!(l.find(Some("AWS"), Some("gp3"), None).is_some());
        assert!(l.find(Some("AWS"), Some("io2"), Some(100.0)).is_none());
        assert!(l.find(None, Some("gp3"), None).is_none());
    }

    #[test]
    fn a_baseline_per_gb_has_its_floor() {
        let l = gp2();
        let p = |s: f64| {
            l.find(Some("AWS"), Some("gp2"), Some(s))
                .unwrap()
                .promise(false, Some(s))
        };
        assert_eq!(p(20.0).baseline, Some(100.0), "the floor");
        assert_eq!(p(100.0).baseline, Some(300.0));
        assert_eq!(p(100.0).burst, Some(3000.0));
        assert_eq!(p(2000.0).baseline, Some(6000.0));
        assert_eq!(p(2000.0).burst, None, "unknown, not zero");
    }

    #[test]
    fn megabytes_per_second_are_decimal() {
        let l = gp2();
        let gp3 = l.find(Some("AWS"), Some("gp3"), Some(50.0)).unwrap();
        // 125 MB/s is 125,000,000 B/s, not 125 x 2^20
        assert_eq!(gp3.promise(true, Some(50.0)).baseline, Some(125_000_000.0));
        assert_eq!(gp3.promise(true, Some(50.0)).burst, None);
        assert_eq!(gp3.note(), "limits list");
    }

    #[test]
    fn bad_files_name_line_column_and_what_was_expected() {
        let err = |text: String| format!("{:#}", Limits::parse(&text).unwrap_err());
        let e = err(format!("{HEADER}AWS,gp2,1,1000,many,,,,,,,\n"));
        assert!(
            e.contains(
                "line 2, column 5 (`baseline_iops`): `many` is not a number of zero or more"
            ),
            "{e}"
        );
        let e = err(format!("{HEADER}AWS,gp2,1,1000,-3,,,,,,,\n"));
        assert!(e.contains("line 2, column 5"), "{e}");
        let e = err(format!("{HEADER}\n# c\nAWS,,1,1000,,,,,,,,\n"));
        assert!(e.contains("line 4, column 2 (`offering`): empty"), "{e}");
        let e = err(format!("{HEADER}AWS,gp2,1000,1,,,,,,,,\n"));
        assert!(e.contains("line 2: `size_min_gb` 1000 is above"), "{e}");
        let e = err(format!("{HEADER}AWS,gp2\n"));
        assert!(e.contains("line 2"), "{e}");
        let e = err("provider,offering,iops\n".into());
        assert!(
            e.contains("line 1: unknown column `iops` (expected provider,offering,size_min_gb"),
            "{e}"
        );
        let e = err("provider,offering,size_min_gb,size_max_gb\n".into());
        assert!(e.contains("line 1: missing column `baseline_iops`"), "{e}");
    }

    #[test]
    fn a_limit_outside_its_plausible_range_names_the_file_line_and_range() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("limits.csv");
        std::fs::write(
            &path,
            format!("{HEADER}AWS,gp3,,,3000,,,125,,,,\nAWS,gp2,,,5e-324,,,,,,,\n"),
        )
        .unwrap();
        let e = format!("{:#}", Limits::load(&path).unwrap_err());
        assert!(
            e.contains(&format!(
                "limits list `{}`: line 3, column 5 (`baseline_iops`): 5e-324 is implausibly small (plausible: 1 to 1e9 IOPS); leave the cell empty when unknown",
                path.display()
            )),
            "{e}"
        );
        let err = |row: &str| {
            format!(
                "{:#}",
                Limits::parse(&format!("{HEADER}{row}")).unwrap_err()
            )
        };
        for (row, said) in [
            (
                "AWS,gp2,,,0,,,,,,,\n",
                "column 5 (`baseline_iops`): 0 is implausibly small (plausible: 1 to 1e9 IOPS)",
            ),
            (
                "AWS,gp2,,,,,,1e308,,,,\n",
                "column 8 (`baseline_mbps`): 1e308 is implausibly large (plausible: 0.001 to 1e7 MB/s)",
            ),
            (
                "AWS,gp2,,,,1e-300,,,,,,\n",
                "column 6 (`baseline_iops_per_gb`): 1e-300 is implausibly small (plausible: 0.001 to 10000 IOPS per GB)",
            ),
            (
                "AWS,gp2,0,1e300,,,,,,,,\n",
                "column 4 (`size_max_gb`): 1e300 is implausibly large (plausible: 0, or 1e-6 to 1e7 GB)",
            ),
            ("AWS,gp2,,,-3,,,,,,,\n", "column 5 (`baseline_iops`): -3 is negative"),
        ] {
            let e = err(row);
            assert!(e.contains(&format!("line 2, {said}")), "{e}");
        }
    }

    #[test]
    fn an_instance_row_is_a_cap_of_the_vm_not_an_offering() {
        let l = Limits::parse(&format!(
            "{},instance\n\
             AWS,gp3,1,16384,3000,,,131.072,,,,,\n\
             AWS,,,,3600,,18750,81.25,,593.75,aws,2026-12-03,m5.large\n",
            HEADER.trim_end()
        ))
        .unwrap();
        let cap = l.instance_cap(Some("aws"), Some("M5.LARGE")).unwrap();
        assert_eq!(cap.promise(false, None).baseline, Some(3600.0));
        assert_eq!(cap.promise(false, None).burst, Some(18750.0));
        assert_eq!(cap.promise(true, None).baseline, Some(81_250_000.0));
        assert_eq!(cap.promise(true, None).burst, Some(593_750_000.0));
        assert!(l.instance_cap(Some("GCP"), Some("m5.large")).is_none());
        assert!(l.instance_cap(Some("AWS"), None).is_none());
        // never a volume's limit, never an unmatched offering
        assert_eq!(l.find(Some("AWS"), Some(""), None), None);
        assert!(l.unmatched([(Some("AWS"), Some("gp3"))]).is_empty());
        assert_eq!(
            l.unmatched_instances([(Some("AWS"), Some("m5.xlarge"))])[0].line,
            3
        );
        assert!(l
            .unmatched_instances([(Some("AWS"), Some("m5.large"))])
            .is_empty());
        // a cap row names no volume, size or per-GB rate
        let e = format!(
            "{:#}",
            Limits::parse(&format!(
                "{},instance\nAWS,gp3,,,3600,,,,,,,,m5.large\n",
                HEADER.trim_end()
            ))
            .unwrap_err()
        );
        assert!(
            e.contains(
                "line 2, column 2 (`offering`): a row with an `instance` (m5.large) caps every \
                 volume on that instance type: leave `offering` empty"
            ),
            "{e}"
        );
        let e = format!(
            "{:#}",
            Limits::parse(&format!(
                "{},instance\nAWS,,1,,3600,,,,,,,,m5.large\n",
                HEADER.trim_end()
            ))
            .unwrap_err()
        );
        assert!(e.contains("line 2, column 3 (`size_min_gb`)"), "{e}");
    }

    #[test]
    fn unmatched_rows_are_named() {
        let l = gp2();
        let left = l.unmatched([(Some("aws"), Some("GP2"))]);
        assert_eq!(left.len(), 1);
        assert_eq!(left[0].offering, "gp3");
    }
}
