//! Published performance limits: the `--limits` list (CSV) of what a
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
//! and, optionally, `instance`, `per_gb_rule`, `max_iops`, `max_mbps`,
//! `mbps_unit`, `burst_kind`, `burst_s` and `burst_period_s`.
//!
//! `provider` and `offering` are required and matched against the records'
//! subject case-insensitively, like the price list. The size range is
//! inclusive at both ends, an empty end is open; the first row (in file
//! order) that matches a configuration wins, so bands may share an edge. A
//! configuration of unknown size matches only a row without a size range.
//! Every other cell may be empty: unknown, never zero.
//!
//! A baseline that scales with size combines its fixed level and its
//! per-GB rate × size by the row's `per_gb_rule`: `max` (the default; AWS
//! gp2: 3 IOPS per GB, at least 100) takes the larger, `plus` adds them
//! (GCP pd-balanced: 3,000 + 6 IOPS per GiB, so 3,600 at 100 GiB). The
//! result is capped at `max_iops` / `max_mbps` (gp2: 16,000 IOPS). The rule
//! and the caps hold for the IOPS and the throughput baselines alike.
//!
//! Throughput cells are in the row's `mbps_unit`, as the provider
//! published them: `MB/s` (the default, 10^6 B/s) or `MiB/s` (2^20 B/s);
//! [`MbpsUnit::bytes_per_sec`] is the one place they become B/s.
//!
//! A burst has a kind: `credit` (a bucket that empties and refills: gp2,
//! Azure P1-P20), lasting at most `burst_s` from full, or `periodic` (on/off
//! cycles: DigitalOcean), `burst_s` on in every `burst_period_s`.
//!
//! An optional `instance` column makes a row a per-instance cap: a VM of
//! that instance type (the records' `host.instance_type`, of that
//! provider) caps the I/O of every volume attached to it at
//! `baseline_iops`/`baseline_mbps`, and lets it reach
//! `burst_iops`/`burst_mbps` for a while (AWS: 30 minutes a day). Such a
//! row leaves `offering`, the sizes, the per-GB columns, the rule and the
//! caps empty.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::analysis::catalogued;
use crate::plausible::{self, Range};

/// Every column the file may have, in the documented order.
pub const COLUMNS: [&str; 20] = [
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
    "per_gb_rule",
    "max_iops",
    "max_mbps",
    "mbps_unit",
    "burst_kind",
    "burst_s",
    "burst_period_s",
];

/// The columns a file must have; the per-GB columns, `instance` and the
/// columns after it may be left out.
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

/// Bytes per second in one MB/s (10^6), the default unit of the
/// throughput columns and the unit of every bandwidth on the site.
pub const BYTES_PER_MB: f64 = 1e6;

/// Bytes per second in one MiB/s (2^20).
pub const BYTES_PER_MIB: f64 = 1_048_576.0;

/// The unit of a row's throughput cells, as the provider published them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MbpsUnit {
    /// `MB/s`: 10^6 bytes per second (Azure, OVH, AWS instance limits).
    #[default]
    Mb,
    /// `MiB/s`: 2^20 bytes per second (AWS gp3, GCP).
    Mib,
}

impl MbpsUnit {
    /// The unit as written: `MB/s` or `MiB/s`.
    pub fn label(self) -> &'static str {
        match self {
            MbpsUnit::Mb => "MB/s",
            MbpsUnit::Mib => "MiB/s",
        }
    }

    /// `v` of this unit in bytes per second: the one conversion of a
    /// limits file's throughput.
    pub fn bytes_per_sec(self, v: f64) -> f64 {
        match self {
            MbpsUnit::Mb => v * BYTES_PER_MB,
            MbpsUnit::Mib => v * BYTES_PER_MIB,
        }
    }
}

/// How a baseline's fixed level and its per-GB level combine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PerGbRule {
    /// The larger of the two (AWS gp2: 3 IOPS per GB, at least 100).
    #[default]
    Max,
    /// Their sum (GCP pd-balanced: 3,000 + 6 IOPS per GiB).
    Plus,
}

/// What kind of burst a row promises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BurstKind {
    /// A bucket of credits that empties and refills (gp2, Azure P1-P20).
    Credit,
    /// On/off cycles of fixed length (DigitalOcean, Linode, Vultr).
    Periodic,
}

/// A baseline: a fixed level, a rate per GB of size, or both combined by
/// a rule, with an optional cap.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Baseline {
    /// A fixed level (the floor under the per-GB one, or its base).
    pub fixed: Option<f64>,
    /// A level per GB of the volume's size.
    pub per_gb: Option<f64>,
    /// How `fixed` and `per_gb` × size combine.
    pub rule: PerGbRule,
    /// The most the size-scaled level reaches.
    pub cap: Option<f64>,
}

impl Baseline {
    /// The level at `size_gb`: the fixed one and per-GB × size combined by
    /// the rule (the larger, or the sum), then capped; `None` when neither
    /// is known (per-GB alone needs the size).
    pub fn at(&self, size_gb: Option<f64>) -> Option<f64> {
        let scaled = self.per_gb.zip(size_gb).map(|(r, s)| r * s);
        let level = match (self.fixed, scaled) {
            (Some(a), Some(b)) => Some(match self.rule {
                PerGbRule::Max => a.max(b),
                PerGbRule::Plus => a + b,
            }),
            (a, b) => a.or(b),
        };
        level.map(|v| self.cap.map_or(v, |c| v.min(c)))
    }
}

/// How long a promised burst lasts.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BurstTime {
    /// Credit or periodic; `None` when unknown.
    pub kind: Option<BurstKind>,
    /// The longest a burst lasts from full, seconds.
    pub seconds: Option<f64>,
    /// For a periodic burst, one on+off cycle, seconds.
    pub period_s: Option<f64>,
}

impl BurstTime {
    /// How long the burst lasts, in words, or `None` when unknown:
    /// `for 60 s in every 120 s` (periodic), `for up to 30 min` (credit).
    pub fn words(&self) -> Option<String> {
        let s = self.seconds?;
        match (self.kind, self.period_s) {
            (Some(BurstKind::Periodic), Some(p)) => {
                Some(format!("for {} in every {}", duration(s), duration(p)))
            }
            (Some(BurstKind::Periodic), None) => {
                Some(format!("for {} at a time, periodically", duration(s)))
            }
            _ => Some(format!("for up to {}", duration(s))),
        }
    }
}

/// A burst's length for the reader: seconds below ten minutes (`60 s`,
/// `120 s`, as providers publish on/off cycles), then minutes and hours
/// (`30 min`).
fn duration(s: f64) -> String {
    if s < 600.0 {
        format!("{} s", crate::format::data(s))
    } else {
        crate::format::parameter_duration(s)
    }
}

/// One row of the list: what an offering promises in one size band.
/// Throughput is in B/s, converted from the file's unit.
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
    /// How long a burst lasts.
    pub burst_time: BurstTime,
    /// The unit the file gave the row's throughput in.
    pub mbps_unit: MbpsUnit,
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
    /// The configuration's own provisioned figures, where they replaced
    /// the row's baselines ([`Limits::for_config`]); none for a row as read.
    pub provisioned: Provisioned,
}

/// What a configuration was provisioned with: the labels
/// `provisioned_iops` and `provisioned_mbps` (the flags `--provisioned-iops`
/// and `--provisioned-mbps` write them). A provisioned volume promises
/// what was bought, never the offering's included level.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Provisioned {
    /// Provisioned IOPS.
    pub iops: Option<f64>,
    /// Provisioned throughput, in the unit the offering sells it in (the
    /// limits row's `mbps_unit`; MB/s without a row).
    pub mbps: Option<f64>,
}

impl Provisioned {
    /// The figures a configuration's labels give; a label that is no
    /// positive number gives none.
    pub fn of(labels: &BTreeMap<String, String>) -> Provisioned {
        let number = |k: &str| {
            labels
                .get(k)
                .and_then(|v| v.trim().parse::<f64>().ok())
                .filter(|v| v.is_finite() && *v > 0.0)
        };
        Provisioned {
            iops: number("provisioned_iops"),
            mbps: number("provisioned_mbps"),
        }
    }

    /// Whether neither figure is given.
    pub fn is_none(&self) -> bool {
        self.iops.is_none() && self.mbps.is_none()
    }
}

/// What a limit promises for one series: its baseline and burst levels in
/// the series' canonical unit (IOPS or B/s), and how long a burst lasts.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Promise {
    pub baseline: Option<f64>,
    pub burst: Option<f64>,
    pub burst_time: BurstTime,
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
        let (baseline, burst) = if by_bw {
            (self.baseline_bw, self.burst_bw)
        } else {
            (self.baseline_iops, self.burst_iops)
        };
        Promise {
            baseline: baseline.at(size_gb),
            burst,
            burst_time: self.burst_time,
        }
    }

    /// Where the figures come from, for the reader: "source, as of date";
    /// for a catalogue row "promised as of DATE (SOURCE)", and ", more than
    /// a year old" when it is.
    pub fn note(&self) -> String {
        let row = self.row_note();
        let Some(bought) = self.provisioned_words() else {
            return row;
        };
        if self.line == 0 {
            // no row for the offering: the configuration's own figures only
            return format!("{bought} as provisioned, no burst");
        }
        format!("{bought} as provisioned; the rest {row}")
    }

    /// The provisioned figures that replaced the row's baselines, in words:
    /// `16,000 IOPS and 500 MiB/s`; `None` without any.
    fn provisioned_words(&self) -> Option<String> {
        let iops = self
            .provisioned
            .iops
            .map(|v| format!("{} IOPS", crate::format::number(v)));
        let unit = self.mbps_unit.label();
        let mbps = self
            .provisioned
            .mbps
            .map(|v| format!("{} {unit}", crate::format::number(v)));
        match (iops, mbps) {
            (Some(i), Some(m)) => Some(format!("{i} and {m}")),
            (i, m) => i.or(m),
        }
    }

    /// [`Limit::note`] of the row as read.
    fn row_note(&self) -> String {
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
        "baseline_iops" | "burst_iops" | "max_iops" => plausible::LIMIT_IOPS,
        "baseline_iops_per_gb" => plausible::LIMIT_IOPS_PER_GB,
        "baseline_mbps_per_gb" => plausible::LIMIT_MBPS_PER_GB,
        "burst_s" | "burst_period_s" => plausible::LIMIT_BURST_S,
        _ => plausible::LIMIT_MBPS,
    }
}

/// An instance type as matched: trimmed, lower case.
fn key(s: &str) -> String {
    s.trim().to_lowercase()
}

/// An offering of `provider` as matched, the catalogue's other names
/// included ([`catalogued::offering_key`]).
fn offering(provider: &str, offering: &str) -> String {
    catalogued::offering_key(provider, offering)
}

/// A provider as matched, aliases included ([`catalogued::provider_key`]).
fn provider(s: &str) -> String {
    catalogued::provider_key(s)
}

/// The value of a word column (`per_gb_rule`, `mbps_unit`, `burst_kind`)
/// among `choices` (matched case-insensitively), or what was expected.
fn choice<T: Copy>(cell: &str, choices: &[(&str, T)]) -> Result<T, String> {
    choices
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(cell))
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<String> = choices.iter().map(|(n, _)| format!("`{n}`")).collect();
            format!("`{cell}` is not one of {} (or empty)", names.join(", "))
        })
}

/// A word cell (its text, where it is) as one of `choices`; `None` when
/// empty.
fn cell_choice<T: Copy>(
    (cell, at): (Option<String>, String),
    choices: &[(&str, T)],
) -> Result<Option<T>> {
    match cell {
        None => Ok(None),
        Some(s) => choice(&s, choices)
            .map(Some)
            .map_err(|why| anyhow::anyhow!("{at}: {why}")),
    }
}

impl Limits {
    /// Reads a limits file; errors name the file, line and column.
    pub fn load(path: &Path) -> Result<Limits> {
        let text = crate::bounded::read_list(path, "limits list")?;
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
        let mut counter = crate::bounded::LineCounter::new(&kept);
        let mut line_at = |byte: u64| {
            let n = counter.newlines_before(usize::try_from(byte).unwrap_or(usize::MAX));
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
            rows.push(Self::row(&row, line, &col)?);
        }
        Ok(Limits { rows })
    }

    /// One row of the file, at `line`; `col` finds a column's index.
    fn row(
        row: &csv::StringRecord,
        line: usize,
        col: &dyn Fn(&str) -> Option<usize>,
    ) -> Result<Limit> {
        let text = |name: &str| -> Option<String> {
            col(name)
                .and_then(|i| row.get(i))
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        };
        // where a cell is, for errors: `line 4, column 5 (`baseline_iops`)`
        let at = |name: &str| {
            let column = col(name).map(|i| i + 1).unwrap_or(0);
            format!("line {line}, column {column} (`{name}`)")
        };
        // a number in the column's plausible range ([`crate::plausible`])
        let number = |name: &str| -> Result<Option<f64>> {
            let Some(s) = text(name) else { return Ok(None) };
            let range = range_of(name);
            match s.replace('_', "").parse::<f64>() {
                Ok(v) => match range.check(v) {
                    Ok(()) => Ok(Some(v)),
                    Err(why) => bail!(
                        "{}: {why}; leave the cell empty when unknown",
                        at(name)
                    ),
                },
                Err(_) => bail!(
                    "{}: `{s}` is not a number of zero or more (expected {}; leave the cell empty when unknown)",
                    at(name),
                    range.describe()
                ),
            }
        };
        let word = |name: &str| (text(name), at(name));
        let required = |name: &str| -> Result<String> {
            text(name).with_context(|| {
                format!(
                    "{}: empty, expected the {name} as the records name it",
                    at(name)
                )
            })
        };
        let instance = text("instance");
        if let Some(i) = &instance {
            // a cap of the VM: no volume's name, size, per-GB rate or rule
            for name in [
                "offering",
                "size_min_gb",
                "size_max_gb",
                "baseline_iops_per_gb",
                "baseline_mbps_per_gb",
                "per_gb_rule",
                "max_iops",
                "max_mbps",
            ] {
                if text(name).is_some() {
                    bail!(
                        "{}: a row with an `instance` ({i}) caps every volume on that \
                         instance type: leave `{name}` empty",
                        at(name)
                    );
                }
            }
            if crate::record::over_limit(i, crate::record::MAX_NAME_CHARS).is_some() {
                bail!(
                    "{}: longer than {} characters",
                    at("instance"),
                    crate::record::MAX_NAME_CHARS
                );
            }
        }
        let rule = cell_choice(
            word("per_gb_rule"),
            &[("max", PerGbRule::Max), ("plus", PerGbRule::Plus)],
        )?
        .unwrap_or_default();
        let unit = cell_choice(
            word("mbps_unit"),
            &[("MB/s", MbpsUnit::Mb), ("MiB/s", MbpsUnit::Mib)],
        )?
        .unwrap_or_default();
        let kind = cell_choice(
            word("burst_kind"),
            &[
                ("credit", BurstKind::Credit),
                ("periodic", BurstKind::Periodic),
            ],
        )?;
        let mbps = |name: &str| -> Result<Option<f64>> {
            Ok(number(name)?.map(|v| unit.bytes_per_sec(v)))
        };
        // a cap limits the size-scaled level: it needs a per-GB rate and
        // is never below the fixed level
        let baseline = |[fixed, per_gb, max]: [&str; 3],
                        value: &dyn Fn(&str) -> Result<Option<f64>>|
         -> Result<Baseline> {
            let b = Baseline {
                fixed: value(fixed)?,
                per_gb: value(per_gb)?,
                rule,
                cap: value(max)?,
            };
            let Some(cap) = b.cap else { return Ok(b) };
            if b.per_gb.is_none() {
                bail!(
                    "{}: a cap of the size-scaled baseline, but `{per_gb}` is empty \
                     (expected a per-GB rate to cap, or an empty `{max}`)",
                    at(max)
                );
            }
            if b.fixed.is_some_and(|f| cap < f) {
                bail!(
                    "{}: {} is below `{fixed}` {} \
                     (expected a cap at or above the fixed level)",
                    at(max),
                    text(max).unwrap_or_default(),
                    text(fixed).unwrap_or_default()
                );
            }
            Ok(b)
        };
        let burst_time = BurstTime {
            kind,
            seconds: number("burst_s")?,
            period_s: number("burst_period_s")?,
        };
        if let Some(p) = burst_time.period_s {
            if kind != Some(BurstKind::Periodic) {
                bail!(
                    "{}: a cycle length needs `burst_kind` `periodic` (expected `periodic`, or an empty `burst_period_s`)",
                    at("burst_period_s")
                );
            }
            if let Some(s) = burst_time.seconds.filter(|s| p <= *s) {
                bail!(
                    "{}: {} is not above `burst_s` {} (expected one on+off cycle, longer than the burst it holds)",
                    at("burst_period_s"),
                    text("burst_period_s").unwrap_or_else(|| p.to_string()),
                    text("burst_s").unwrap_or_else(|| s.to_string())
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
            baseline_iops: baseline(
                ["baseline_iops", "baseline_iops_per_gb", "max_iops"],
                &number,
            )?,
            burst_iops: number("burst_iops")?,
            baseline_bw: baseline(["baseline_mbps", "baseline_mbps_per_gb", "max_mbps"], &mbps)?,
            burst_bw: mbps("burst_mbps")?,
            burst_time,
            mbps_unit: unit,
            source: text("source"),
            as_of: text("as_of"),
            line,
            instance,
            catalogue: false,
            stale: false,
            provisioned: Provisioned::default(),
        };
        if let (Some(lo), Some(hi)) = (limit.size_min_gb, limit.size_max_gb) {
            if lo > hi {
                bail!(
                    "line {line}: `size_min_gb` {lo} is above `size_max_gb` {hi} (expected the smallest size first)"
                );
            }
        }
        Ok(limit)
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
        let (p, o) = (provider?, offering?);
        let o = self::offering(p, o);
        let p = self::provider(p);
        self.rows.iter().find(|l| {
            l.instance.is_none()
                && self::provider(&l.provider) == p
                && self::offering(&l.provider, &l.offering) == o
                && l.covers(size_gb)
        })
    }

    /// What a configuration is promised: the row [`Limits::find`] gives
    /// for its provider, offering and size, with its own provisioned
    /// figures in place of the row's baselines (gp3 bought at 16,000 IOPS
    /// is held to 16,000, not to the 3,000 included), and a burst at or
    /// below a provisioned level dropped. An offering without a row (io1,
    /// io2) is promised its provisioned figures alone, without a burst;
    /// `None` without a row or a figure.
    pub fn for_config(
        &self,
        provider: Option<&str>,
        offering: Option<&str>,
        size_gb: Option<f64>,
        provisioned: Provisioned,
    ) -> Option<Cow<'_, Limit>> {
        let row = self.find(provider, offering, size_gb);
        if provisioned.is_none() {
            return row.map(Cow::Borrowed);
        }
        let mut l = match row {
            Some(r) => r.clone(),
            None => Limit {
                provider: provider?.to_string(),
                offering: offering?.to_string(),
                ..Limit::default()
            },
        };
        if let Some(iops) = provisioned.iops {
            l.baseline_iops = Baseline {
                fixed: Some(iops),
                ..Baseline::default()
            };
            l.burst_iops = l.burst_iops.filter(|b| *b > iops);
        }
        if let Some(mbps) = provisioned.mbps {
            let bw = l.mbps_unit.bytes_per_sec(mbps);
            l.baseline_bw = Baseline {
                fixed: Some(bw),
                ..Baseline::default()
            };
            l.burst_bw = l.burst_bw.filter(|b| *b > bw);
        }
        if l.burst_iops.is_none() && l.burst_bw.is_none() {
            l.burst_time = BurstTime::default();
        }
        l.provisioned = provisioned;
        Some(Cow::Owned(l))
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
            .filter_map(|(p, o)| Some((provider(p?), offering(p?, o?))))
            .collect();
        self.rows
            .iter()
            .filter(|l| {
                !l.catalogue
                    && l.instance.is_none()
                    && !known.contains(&(provider(&l.provider), offering(&l.provider, &l.offering)))
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
                offering(&l.provider, &l.offering),
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
        let (p, o) = (provider(p), self::offering(p, o));
        Limits {
            rows: self
                .rows
                .iter()
                .filter(|l| {
                    provider(&l.provider) == p
                        && (l.instance.is_some() || self::offering(&l.provider, &l.offering) == o)
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
        let gp2 = |s: f64| l.find(Some("AWS"), Some("gp2"), Some(s)).unwrap();
        assert_eq!(gp2(100.0).promise(false, Some(100.0)).baseline, Some(300.0));
        assert_eq!(gp2(100.0).promise(false, Some(100.0)).burst, Some(3000.0));
        assert_eq!(
            gp2(100.0)
                .promise(false, Some(100.0))
                .burst_time
                .words()
                .as_deref(),
            Some("for up to 30 min")
        );
        assert_eq!(
            gp2(2000.0).promise(false, Some(2000.0)).baseline,
            Some(6000.0)
        );
        assert_eq!(
            gp2(6000.0).promise(false, Some(6000.0)).baseline,
            Some(16000.0)
        );
        assert!(gp2(100.0)
            .source
            .as_deref()
            .unwrap()
            .starts_with("https://"));
        // gp3's 125 MiB/s, as AWS publishes it
        let gp3 = l.find(Some("AWS"), Some("gp3"), Some(500.0)).unwrap();
        assert_eq!(gp3.promise(true, Some(500.0)).baseline, Some(131_072_000.0));
        // Azure prints MB/s of 10^6 bytes: P10 is 100 and 170 MB/s, not
        // 104.8576 and 178.25792
        let p10 = l
            .find(Some("Azure"), Some("Premium SSD"), Some(128.0))
            .unwrap();
        let bw = p10.promise(true, Some(128.0));
        assert_eq!((bw.baseline, bw.burst), (Some(100e6), Some(170e6)));
        assert_eq!(bw.burst_time.kind, Some(BurstKind::Credit));
        assert_eq!(bw.burst_time.seconds, Some(1800.0));
        let m5 = l.instance_cap(Some("AWS"), Some("m5.large")).unwrap();
        assert_eq!(m5.promise(false, None).baseline, Some(3600.0));
        assert_eq!(m5.promise(true, None).burst, Some(593_750_000.0));
    }

    /// The optional columns after `as_of`.
    const MORE: &str =
        "instance,per_gb_rule,max_iops,max_mbps,mbps_unit,burst_kind,burst_s,burst_period_s";

    fn more(rows: &str) -> Result<Limits> {
        Limits::parse(&format!("{},{MORE}\n{rows}", HEADER.trim_end()))
    }

    #[test]
    fn plus_adds_the_per_gb_level_to_the_base() {
        // GCP pd-balanced: 3,000 IOPS + 6 per GiB, 140 MiB/s + 0.28 per GiB
        let l = more("GCP,pd-balanced,10,65536,3000,6,,140,0.28,,gcp,2026-08,,plus,,,MiB/s,,,\n")
            .unwrap();
        let row = l
            .find(Some("gcp"), Some("pd-balanced"), Some(100.0))
            .unwrap();
        assert_eq!(row.promise(false, Some(100.0)).baseline, Some(3600.0));
        // (140 + 28) MiB/s = 176,160,768 B/s = 176.16 MB/s
        let bw = row.promise(true, Some(100.0)).baseline.unwrap();
        assert!((bw - 176_160_768.0).abs() < 1e-3, "{bw}");
        assert_eq!(crate::format::fixed(bw / 1e6, 2), "176.16");
        // the default rule on the same figures is the larger of the two
        let max = more("GCP,pd-balanced,,,3000,6,,,,,,,,,,,,,,\n").unwrap();
        let row = max
            .find(Some("GCP"), Some("pd-balanced"), Some(100.0))
            .unwrap();
        assert_eq!(row.promise(false, Some(100.0)).baseline, Some(3000.0));
    }

    #[test]
    fn a_cap_stops_the_size_scaled_baseline() {
        // gp2: 3 IOPS per GB, at least 100, at most 16,000
        let l = more("AWS,gp2,1,16384,100,3,,,,,,,,max,16000,,,,,\n").unwrap();
        let iops = |s: f64| {
            l.find(Some("AWS"), Some("gp2"), Some(s))
                .unwrap()
                .promise(false, Some(s))
                .baseline
        };
        assert_eq!(iops(20.0), Some(100.0));
        assert_eq!(iops(100.0), Some(300.0));
        assert_eq!(iops(5000.0), Some(15000.0));
        assert_eq!(iops(6000.0), Some(16000.0));
        // OVH High Speed Gen2: 3,000 IOPS up to 100 GB, then 30 per GB, at
        // most 20,000; 50 MB/s floor, 0.5 MB/s per GB, at most 512 MB/s
        let ovh =
            more("OVH,High Speed Gen2,,,3000,30,,50,0.5,,ovh,2026-04-14,,max,20000,512,MB/s,,,\n")
                .unwrap();
        let at = |s: f64| {
            let row = ovh
                .find(Some("ovh"), Some("high speed gen2"), Some(s))
                .unwrap();
            (
                row.promise(false, Some(s)).baseline,
                row.promise(true, Some(s)).baseline,
            )
        };
        assert_eq!(at(50.0), (Some(3000.0), Some(50e6)));
        assert_eq!(at(200.0), (Some(6000.0), Some(100e6)));
        assert_eq!(at(1000.0), (Some(20000.0), Some(500e6)));
        assert_eq!(at(2000.0), (Some(20000.0), Some(512e6)));
    }

    #[test]
    fn mebibytes_per_second_convert_once_to_bytes() {
        let l = more(
            "AWS,gp3,,,3000,,,125,,1000,,,,,,,MiB/s,,,\n\
             AWS,gp3x,,,3000,,,125,,,,,,,,,MB/s,,,\n",
        )
        .unwrap();
        let gp3 = l.find(Some("AWS"), Some("gp3"), None).unwrap();
        // 125 MiB/s = 131,072,000 B/s = 131.072 MB/s; every throughput cell
        assert_eq!(gp3.promise(true, None).baseline, Some(131_072_000.0));
        assert_eq!(gp3.promise(true, None).burst, Some(1_048_576_000.0));
        assert_eq!(gp3.mbps_unit, MbpsUnit::Mib);
        let mb = l.find(Some("AWS"), Some("gp3x"), None).unwrap();
        assert_eq!(mb.promise(true, None).baseline, Some(125_000_000.0));
        // IOPS are no throughput: untouched
        assert_eq!(gp3.promise(false, None).baseline, Some(3000.0));
        assert_eq!(MbpsUnit::Mib.bytes_per_sec(1.0), BYTES_PER_MIB);
        assert_eq!(MbpsUnit::Mb.bytes_per_sec(1.0), BYTES_PER_MB);
    }

    #[test]
    fn a_burst_says_its_kind_and_length() {
        let l = more(
            "DigitalOcean,Volumes,,,5000,,7500,200,,300,do,2018-05-15,,,,,,periodic,60,120\n\
             Azure,P10,,,500,,3500,100,,170,ms,2026-12,,,,,,credit,1800,\n\
             Linode,Block Storage,,,8000,,12000,350,,525,li,2026-12,,,,,,periodic,60,\n\
             Vultr,Block,,,500,,750,,,,v,2026-12,,,,,,,,\n",
        )
        .unwrap();
        let words = |p: &str, o: &str| {
            l.find(Some(p), Some(o), None)
                .unwrap()
                .promise(false, None)
                .burst_time
                .words()
        };
        assert_eq!(
            words("DigitalOcean", "Volumes").as_deref(),
            Some("for 60 s in every 120 s")
        );
        assert_eq!(words("Azure", "P10").as_deref(), Some("for up to 30 min"));
        assert_eq!(
            words("Linode", "Block Storage").as_deref(),
            Some("for 60 s at a time, periodically")
        );
        assert_eq!(words("Vultr", "Block"), None, "unknown, never guessed");
    }

    #[test]
    fn burst_levels_include_periodic_and_credit_bursts() {
        // what `run` weighs a flat level against: a periodic burst (on/off
        // cycles) is as much a burst as a credit one
        let l = more(
            "DigitalOcean,Volumes,,,5000,,7500,200,,300,do,2018-05-15,,,,,,periodic,60,120\n\
             AWS,gp2,1,1000,100,3,3000,,,,aws,2026-12,,,,,,credit,1800,\n\
             Linode,Block Storage,,,8000,,12000,350,,525,li,2026-12,,,,,,periodic,60,\n",
        )
        .unwrap();
        assert_eq!(l.burst_levels(false), [7500.0, 3000.0, 12000.0]);
        assert_eq!(l.burst_levels(true), [300e6, 525e6]);
    }

    #[test]
    fn bad_new_columns_name_line_column_and_what_was_expected() {
        let err = |row: &str| format!("{:#}", more(row).unwrap_err());
        for (row, said) in [
            (
                "GCP,pd,,,3000,6,,,,,,,,sum,,,,,,\n",
                "line 2, column 14 (`per_gb_rule`): `sum` is not one of `max`, `plus` (or empty)",
            ),
            (
                "AWS,gp3,,,,,,125,,,,,,,,,MiBps,,,\n",
                "line 2, column 17 (`mbps_unit`): `MiBps` is not one of `MB/s`, `MiB/s` (or empty)",
            ),
            (
                "DO,v,,,,,7500,,,,,,,,,,,cycles,60,120\n",
                "line 2, column 18 (`burst_kind`): `cycles` is not one of `credit`, `periodic` (or empty)",
            ),
            (
                "DO,v,,,,,7500,,,,,,,,,,,credit,60,120\n",
                "line 2, column 20 (`burst_period_s`): a cycle length needs `burst_kind` `periodic`",
            ),
            (
                "DO,v,,,,,7500,,,,,,,,,,,,,120\n",
                "line 2, column 20 (`burst_period_s`): a cycle length needs `burst_kind` `periodic`",
            ),
            (
                "DO,v,,,,,7500,,,,,,,,,,,periodic,60,60\n",
                "line 2, column 20 (`burst_period_s`): 60 is not above `burst_s` 60 (expected one on+off cycle, longer than the burst it holds)",
            ),
            (
                "AWS,gp2,,,3000,3,,,,,,,,,2000,,,,,\n",
                "line 2, column 15 (`max_iops`): 2000 is below `baseline_iops` 3000 (expected a cap at or above the fixed level)",
            ),
            (
                "OVH,g2,,,,,,50,0.5,,,,,,,40,,,,\n",
                "line 2, column 16 (`max_mbps`): 40 is below `baseline_mbps` 50",
            ),
            (
                "AWS,io2,,,3000,,,,,,,,,,16000,,,,,\n",
                "line 2, column 15 (`max_iops`): a cap of the size-scaled baseline, but `baseline_iops_per_gb` is empty",
            ),
            (
                "AWS,,,,3600,,,,,,,,m5.large,plus,,,,,,\n",
                "line 2, column 14 (`per_gb_rule`): a row with an `instance` (m5.large) caps every volume on that instance type: leave `per_gb_rule` empty",
            ),
            (
                "AWS,,,,3600,,,,,,,,m5.large,,16000,,,,,\n",
                "line 2, column 15 (`max_iops`): a row with an `instance` (m5.large)",
            ),
            (
                "AWS,,,,3600,,,,,,,,m5.large,,,500,,,,\n",
                "line 2, column 16 (`max_mbps`): a row with an `instance` (m5.large)",
            ),
            (
                "DO,v,,,,,7500,,,,,,,,,,,periodic,0,120\n",
                "line 2, column 19 (`burst_s`): 0 is implausibly small (plausible: 1 to 1e7 s)",
            ),
        ] {
            let e = err(row);
            assert!(e.contains(said), "{row}: {e}");
        }
        // the words are matched case-insensitively
        let l = more("GCP,pd,,,3000,6,,140,0.28,,,,,PLUS,,,mib/s,Periodic,60,120\n").unwrap();
        let row = l.find(Some("GCP"), Some("pd"), Some(100.0)).unwrap();
        assert_eq!(row.baseline_iops.rule, PerGbRule::Plus);
        assert_eq!(row.mbps_unit, MbpsUnit::Mib);
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

    #[test]
    fn catalogue_rows_go_under_the_users_row_by_row_and_say_promised_as_of() {
        let user =
            Limits::parse(&format!("{HEADER}Amazon,gp2,,,100,3,,,,,mine,2025-01\n")).unwrap();
        let catalogue = Limits::parse(&format!(
            "{HEADER}AWS,gp2,1,1000,100,3,3000,,,,aws docs,2024-07\n\
             AWS,gp3,,,3000,,,125,,,aws docs,2024-07\n"
        ))
        .unwrap();
        let all = user.with_catalogue(catalogue, "2026-08-01");
        // the user's gp2 row replaces the catalogue's, which promised a burst
        let gp2 = all.find(Some("AWS"), Some("gp2"), Some(100.0)).unwrap();
        assert!(!gp2.catalogue);
        assert_eq!(gp2.burst_iops, None);
        assert_eq!(gp2.note(), "mine, as of 2025-01");
        // gp3 keeps the catalogue's, found under an alias, two years old
        let gp3 = all
            .find(Some("Amazon Web Services"), Some("gp3"), Some(100.0))
            .unwrap();
        assert!(gp3.catalogue && gp3.stale);
        assert_eq!(
            gp3.note(),
            "promised as of 2024-07 (aws docs), more than a year old"
        );
        // catalogue rows never warn as matching no record
        assert!(all.unmatched([(Some("AWS"), Some("gp2"))]).is_empty());
        assert_eq!(all.burst_levels(false), Vec::<f64>::new());
    }
}
