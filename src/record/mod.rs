//! The record (`diskdash.record/1`): one JSON object per test execution.
//!
//! This module is the one place the persisted fields live. Every stage
//! (run, import, check, report) reads and writes these types; the JSON
//! Schema printed by `diskdash schema` is generated from them.
//!
//! NOTE: a change of meaning here bumps `SCHEMA` and must be mirrored in
//! `docs/record.md`.

use std::borrow::Cow;
use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

mod host_name;
mod json;
mod metric_set;
mod paths;
mod summary;
mod validate;

pub use host_name::{
    anonymous_host_name, host_name, ANONYMOUS_HEX_DIGITS, ANONYMOUS_PREFIX, MAX_HOST_NAME_CHARS,
};
pub use json::{from_json, to_json, would_pass_check};
pub use metric_set::{unit_name, Metric, MetricKey, MetricNames, Metrics, MetricsIter, Name};
pub use paths::{
    currency_code, is_currency_code, is_positive, is_valid_id, slug, subject_dir, MAX_ID_LEN,
};
pub use summary::Summary;
pub use validate::{cut_to_limits, length_problems, over_limit, too_long, validate};

/// The schema id every record carries. Readers accept the same major only.
pub const SCHEMA: &str = "diskdash.record/1";
/// The schema family, without the major version.
pub const SCHEMA_FAMILY: &str = "diskdash.record/";
/// The major version this build reads and writes.
pub const SCHEMA_MAJOR: u32 = 1;

/// One test execution (one tool run): what was measured, on what, how, and
/// what the tool printed.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
pub struct Record {
    /// Always `diskdash.record/1` for this version.
    // the constant itself when it is `SCHEMA`, as nearly every record's is
    #[serde(deserialize_with = "schema_id")]
    #[schemars(with = "String")]
    pub schema: Cow<'static, str>,
    /// Unique, filename-safe id (`[A-Za-z0-9._-]`, at most 200 characters).
    pub id: String,
    /// How the numbers came to be.
    pub source: Source,
    /// What was measured: study, provider, offering, price.
    pub subject: Subject,
    /// The machine the test ran on. Unknown fields are `null`.
    pub host: Host,
    /// The directory (and what is beneath it) the test ran against.
    pub target: Target,
    /// Which test ran, with which tool and command line.
    pub test: TestInfo,
    /// Id shared by every record of one `diskdash run` (or one import); `null` if unknown.
    #[serde(default)]
    pub run_id: Option<String>,
    /// 1-based repetition number of this test within its run.
    pub repetition: u32,
    /// When the test started, UTC, RFC 3339 (`2026-11-30T10:00:00Z`); `null` if unknown.
    #[serde(default)]
    pub started_at: Option<String>,
    /// Wall time of the tool run in seconds; `null` if unknown.
    #[serde(default)]
    pub duration_s: Option<f64>,
    /// Outcome of the test.
    pub status: Status,
    /// Why the test failed or was skipped; `null` when `status` is `ok`.
    #[serde(default)]
    pub error: Option<String>,
    /// What the record's maker noticed and the reader should know, though
    /// the result stands (`timeline not attached: <why>`); absent when
    /// none, so records without one are unchanged. At most
    /// [`MAX_WARNINGS`], each at most [`MAX_TEXT_CHARS`] characters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Metric name to value in a canonical unit (see `docs/record.md`).
    #[serde(default)]
    pub metrics: Metrics,
    /// The tool's own output, kept so every number can be traced back.
    // boxed: most records are read where it is not needed (a report build
    // holds a `Summary`, which has no `raw`)
    #[serde(default)]
    pub raw: Option<Box<Raw>>,
    /// Per-second series of a time-based test, when the tool logged them;
    /// absent otherwise (optional, so the schema stays `diskdash.record/1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    // boxed: most records have none, and a record held in a large build
    // would carry its 360 bytes all the same
    pub timeline: Option<Box<Timeline>>,
    /// How much I/O the run had done before this test started (`run`
    /// records only; absent otherwise): a test after the sustained ones
    /// meets a volume whose credits they spent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prior_io: Option<PriorIo>,
    /// The one write of incompressible data over the file a sustained test
    /// read, made before the first sustained test of the run (`run` records
    /// of the sustained tests only; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    // boxed, as the timeline
    pub prefill: Option<Box<Prefill>>,
    /// Why a sustained test stopped, and when (`run` records of the
    /// sustained tests only; absent otherwise, and in records made before
    /// the sustained tests were watched).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<Stop>,
}

/// Why a sustained test ended when it did (see `docs/run.md`, "How the
/// sustained tests stop").
#[derive(
    Serialize, Deserialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord,
)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// A credit burst was seen, and the level after it held through the
    /// steady-state window.
    BurstThenSteady,
    /// One level from the start, which cannot be a burst (no known burst
    /// level, or the offering is known not to burst).
    FlatNoBurstPossible,
    /// Watched to the end of its window without an earlier answer.
    WindowEnd,
    /// `run --full-sustained`: the fixed window, not watched.
    FullWindowRequested,
    /// Stopped before its answer was known, by a signal diskdash received
    /// or by its time limit; what it measured until then is kept.
    Interrupted,
}

impl StopReason {
    /// The name records use: `burst-then-steady`, `flat-no-burst-possible`,
    /// `window-end`, `full-window-requested`, `interrupted`.
    pub fn name(self) -> &'static str {
        match self {
            StopReason::BurstThenSteady => "burst-then-steady",
            StopReason::FlatNoBurstPossible => "flat-no-burst-possible",
            StopReason::WindowEnd => "window-end",
            StopReason::FullWindowRequested => "full-window-requested",
            StopReason::Interrupted => "interrupted",
        }
    }

    /// The reason in words, for pages: `flat at a level that cannot be a
    /// burst`.
    pub fn words(self) -> &'static str {
        match self {
            StopReason::BurstThenSteady => "a burst seen, then the level after it steady",
            StopReason::FlatNoBurstPossible => "flat at a level that cannot be a burst",
            StopReason::WindowEnd => "its window ended",
            StopReason::FullWindowRequested => "its whole window, as --full-sustained asked",
            StopReason::Interrupted => "stopped early, by a signal or its time limit",
        }
    }
}

/// How the note of a run that cannot rule out a longer burst begins
/// ([`Stop::note`]): `burst not excluded beyond 45 minutes`.
pub const BURST_NOT_EXCLUDED: &str = "burst not excluded beyond";

/// When and why a sustained test stopped.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
pub struct Stop {
    /// Why it stopped.
    pub reason: StopReason,
    /// Seconds of fio's I/O when it stopped (its `runtime` at the window's end).
    pub stopped_at_s: f64,
    /// The longest it could have run: its window, seconds.
    pub window_s: f64,
    /// Set when the run cannot rule out a burst longer than it watched:
    /// the level it ended at is a known burst level, or nothing is known
    /// of the volume's bursts. Then a `flat` pattern means "flat for this
    /// long", and the record says `burst not excluded beyond N minutes`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub burst_not_excluded: bool,
}

impl Stop {
    /// `burst not excluded beyond 45 minutes` (`20 s` for a test shorter
    /// than two minutes), when the run cannot rule
    /// out a longer burst; `None` otherwise.
    pub fn note(&self) -> Option<String> {
        self.burst_not_excluded.then(|| {
            let (s, m) = (self.stopped_at_s, self.stopped_at_s / 60.0);
            // seconds below two minutes; whole minutes as such (`45`), else
            // to a tenth (`2.5`)
            let span = if s < 120.0 {
                format!("{} s", s.round())
            } else if (m - m.round()).abs() < 0.05 {
                format!("{m:.0} minutes")
            } else {
                format!("{m:.1} minutes")
            };
            format!("{BURST_NOT_EXCLUDED} {span}")
        })
    }
}

/// The pre-fill: fio writing the sustained tests' file once, sequentially
/// in 1 MiB blocks with `refill_buffers` (incompressible data), so that
/// their reads never meet unwritten, thin-provisioned blocks.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
pub struct Prefill {
    /// Bytes written: fio's own count, 0 when it did not run.
    pub bytes: f64,
    /// Wall time of the fio run in seconds (laying the file out included);
    /// 0 when it did not run.
    pub seconds: f64,
    /// fio's write bandwidth in B/s; absent when it failed or did not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bw: Option<f64>,
    /// The exact command line.
    pub command: String,
    /// Why it failed or did not run; absent when it wrote the file. The
    /// sustained tests then did not run either, and say so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The I/O of a run's earlier tests.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Default)]
pub struct PriorIo {
    /// Seconds the earlier tests' tools ran.
    pub seconds: f64,
    /// Bytes they moved: what each tool reports (fio's `*_io_bytes`, dd's
    /// `bytes`), else what the test was planned to write at most.
    pub bytes: f64,
}

/// What a test did second by second: the series fio logged, the SHA-256
/// of each log, and how the series was classified.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
pub struct Timeline {
    /// Seconds between samples (1 for the logs `run` asks fio for).
    pub interval_s: f64,
    /// Reads, when the test read.
    // the series are boxed: a report build holds the timeline without them
    // (`ingest::load_with`), and would carry 96 bytes for each all the same
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read: Option<Box<Series>>,
    /// Writes, when the test wrote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write: Option<Box<Series>>,
    /// Trims, when the test trimmed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trim: Option<Box<Series>>,
    /// Raw log file name (`t_iops.1.log`) to the SHA-256 of its bytes,
    /// lowercase hex.
    #[serde(default, deserialize_with = "json::unique_map")]
    pub logs: BTreeMap<String, String>,
    /// How the judged series behaves over time; absent when it is too short
    /// to classify (fewer than 10 samples after the first 3 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<Pattern>,
    /// Mean length of a high phase in seconds, for `periodic-burst`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub burst_on_s: Option<f64>,
    /// Mean length of a low phase in seconds, for `periodic-burst`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub burst_off_s: Option<f64>,
}

/// One direction's series, one value per `interval_s`, sample `i` covering
/// the interval that ends at `(i + 1) * interval_s` seconds.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Default)]
pub struct Series {
    /// I/O operations per second.
    #[serde(default)]
    pub iops: Vec<f64>,
    /// Bandwidth in B/s.
    #[serde(default)]
    pub bw: Vec<f64>,
    /// Mean total latency (submission and completion) in s, where logged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lat: Option<Vec<f64>>,
    /// Mean completion latency in s, where logged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clat: Option<Vec<f64>>,
}

/// How a series behaves over time (`src/timeline/` decides).
#[derive(
    Serialize, Deserialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord,
)]
#[serde(rename_all = "kebab-case")]
pub enum Pattern {
    /// One level from start to end.
    Flat,
    /// A high level from the start until a bucket of credits ran out, then
    /// a lower one to the end.
    CreditBurst,
    /// A high and a low level alternating at a regular interval.
    PeriodicBurst,
    /// Still high, or still moving, at the end: the sustained level was not
    /// reached, and the one given is a bound.
    NotExhausted,
}

impl Pattern {
    /// The name records use: `flat`, `credit-burst`, `periodic-burst`,
    /// `not-exhausted`.
    pub fn name(self) -> &'static str {
        match self {
            Pattern::Flat => "flat",
            Pattern::CreditBurst => "credit-burst",
            Pattern::PeriodicBurst => "periodic-burst",
            Pattern::NotExhausted => "not-exhausted",
        }
    }
}

/// How a record's numbers came to be.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Source {
    /// Measured by `diskdash run`.
    Run {
        /// The diskdash version that ran the test.
        diskdash_version: String,
    },
    /// Parsed from existing tool output by `diskdash import`.
    Import {
        /// File name of the imported output, as given on the command line.
        file: String,
        /// SHA-256 of the imported file's bytes, lowercase hex.
        sha256: String,
        /// The diskdash version that imported it.
        diskdash_version: String,
    },
    /// Typed in from a publication.
    Transcribed {
        /// The publication: title, author, site, as precise as known.
        publication: String,
        /// Address of the publication, if known.
        #[serde(default)]
        url: Option<String>,
        /// When the publication measured, as precise as it says (`2013-01`).
        #[serde(default)]
        measured: Option<String>,
        /// The figures exactly as published, before unit conversion.
        figures: Vec<PublishedFigure>,
    },
}

/// One number as a publication printed it.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
pub struct PublishedFigure {
    /// The metric name this figure became in `metrics`.
    pub metric: String,
    /// What the publication calls the number.
    pub label: String,
    /// The number as printed.
    pub value: String,
    /// The unit as printed.
    pub unit: String,
    /// Anything odd about the number.
    #[serde(default)]
    pub note: Option<String>,
}

/// What was measured.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Default)]
pub struct Subject {
    /// Which comparison the record belongs to.
    #[serde(default)]
    pub study: Option<String>,
    /// Who sells the storage.
    #[serde(default)]
    pub provider: Option<String>,
    /// What is sold (volume type, instance type, plan).
    #[serde(default)]
    pub offering: Option<String>,
    /// Region or data centre.
    #[serde(default)]
    pub region: Option<String>,
    /// Size of the tested volume in GB.
    #[serde(default)]
    pub size_gb: Option<f64>,
    /// The price the runner was told; `null` when none is known (never zero for unknown).
    #[serde(default)]
    pub price: Option<Price>,
    /// Free-form `key=value` labels.
    #[serde(default, deserialize_with = "json::unique_map")]
    pub labels: BTreeMap<String, String>,
}

/// A list price.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
pub struct Price {
    /// Price per GB per month.
    pub per_gb_month: f64,
    /// ISO 4217 currency code, e.g. `USD`.
    pub currency: String,
    /// How the price was obtained.
    #[serde(default)]
    pub note: Option<String>,
}

/// The machine a test ran on.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Host {
    /// Which machine: `run --host-name NAME`, else the machine's hostname;
    /// `import --host-name NAME`; under `--anonymous-host` instead `anon-`
    /// and the first 12 hex digits of the SHA-256 of that name. Absent when
    /// unknown: records from before it was kept, imported output without
    /// `--host-name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// CPU model name from `/proc/cpuinfo`.
    #[serde(default)]
    pub cpu_model: Option<String>,
    /// Number of online logical CPUs.
    #[serde(default)]
    pub cpu_count: Option<u32>,
    /// Total memory in bytes.
    #[serde(default)]
    pub memory_bytes: Option<u64>,
    /// Kernel release (`uname -r`).
    #[serde(default)]
    pub kernel: Option<String>,
    /// Operating system (`PRETTY_NAME` of `/etc/os-release`).
    #[serde(default)]
    pub os: Option<String>,
    /// CPU architecture, e.g. `x86_64`.
    #[serde(default)]
    pub arch: Option<String>,
    /// Hypervisor or container, where detectable (`kvm`, `xen`, `none`).
    #[serde(default)]
    pub virtualization: Option<String>,
    /// The cloud instance type (`m5.large`, `n2-standard-4`,
    /// `Standard_D2s_v3`): `run --instance`, else the cloud's metadata
    /// service; absent when neither told it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance_type: Option<String>,
    /// Free-text description, for transcribed or imported records.
    #[serde(default)]
    pub description: Option<String>,
}

/// The directory a test ran against.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Target {
    /// The target directory path.
    #[serde(default)]
    pub path: Option<String>,
    /// Filesystem type, e.g. `ext4`.
    #[serde(default)]
    pub fs_type: Option<String>,
    /// Mount options, as in `/proc/self/mountinfo`.
    #[serde(default)]
    pub mount_options: Option<String>,
    /// Mount point of the filesystem holding the target.
    #[serde(default)]
    pub mount_point: Option<String>,
    /// Block device (or mount source) holding the filesystem.
    #[serde(default)]
    pub device: Option<String>,
    /// Whether the device reports itself as rotational.
    #[serde(default)]
    pub rotational: Option<bool>,
    /// The device's I/O scheduler.
    #[serde(default)]
    pub scheduler: Option<String>,
    /// Filesystem size in bytes.
    #[serde(default)]
    pub size_bytes: Option<u64>,
    /// Free bytes when the test started.
    #[serde(default)]
    pub free_bytes: Option<u64>,
    /// Free-text description, for transcribed or imported records.
    #[serde(default)]
    pub description: Option<String>,
    /// Set by `run` when the filesystem holding the target keeps its data
    /// in memory or compresses it (tmpfs, ramfs, zram, btrfs or zfs with
    /// compression), so that the numbers measure that and not the disk:
    /// the sentence `doctor` and `run` print. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

/// Which test ran and how.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
pub struct TestInfo {
    /// Stable test id (`fio-randread-4k-qd64`, `dd-write-8k-dsync`, ...).
    pub id: String,
    /// The tool that produced the numbers.
    pub tool: Tool,
    /// The tool's version, if known.
    #[serde(default)]
    pub tool_version: Option<String>,
    /// The suite that ran the test (`quick`, `standard`, a suite file's
    /// `name`), written by `run`; absent in imported records and records of
    /// earlier versions. Part of what the report pools as one test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suite: Option<String>,
    /// The test's parameters (block size, queue depth, counts, flags).
    #[serde(default, deserialize_with = "json::unique_values")]
    pub parameters: BTreeMap<String, serde_json::Value>,
    /// The exact command line, if known.
    #[serde(default)]
    pub command: Option<String>,
}

/// The benchmark tools diskdash knows.
#[derive(
    Serialize, Deserialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
#[serde(rename_all = "lowercase")]
pub enum Tool {
    /// `dd` (GNU coreutils or BusyBox).
    Dd,
    /// `fio`, the flexible I/O tester.
    Fio,
    /// `ioping`.
    Ioping,
    /// `bonnie++`.
    #[serde(rename = "bonnie++")]
    Bonnie,
}

impl Tool {
    /// Every tool, in a fixed order.
    pub const ALL: [Tool; 4] = [Tool::Dd, Tool::Fio, Tool::Ioping, Tool::Bonnie];

    /// The tool's name as in records and on the command line of `import --tool`.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Dd => "dd",
            Tool::Fio => "fio",
            Tool::Ioping => "ioping",
            Tool::Bonnie => "bonnie++",
        }
    }
}

impl std::fmt::Display for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Outcome of a test.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The tool ran and its output was parsed.
    Ok,
    /// The tool failed, timed out, or printed something unparseable.
    Failed,
    /// The test did not run (missing tool, not enough space, ...).
    Skipped,
}

impl Status {
    /// `ok`, `failed` or `skipped`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Failed => "failed",
            Status::Skipped => "skipped",
        }
    }
}

/// What the tool printed.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Default)]
pub struct Raw {
    /// Standard output (for fio, the JSON output file).
    #[serde(default)]
    pub stdout: Option<String>,
    /// Standard error.
    #[serde(default)]
    pub stderr: Option<String>,
    /// Exit code; `null` when killed by a signal or unknown.
    #[serde(default)]
    pub exit_code: Option<i32>,
    /// Set when `stdout` or `stderr` holds only the head and tail of what
    /// the tool printed (diskdash keeps at most 2 MiB of each, 4 MiB in all;
    /// a line in the text says how much was left out).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// Bytes the tool printed on stdout, given when `truncated`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdout_bytes: Option<u64>,
    /// Bytes the tool printed on stderr, given when `truncated`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr_bytes: Option<u64>,
}

impl Record {
    /// A record of this schema with the given identity and nothing measured
    /// yet: host and target unknown, repetition 1, status `ok`, no metrics,
    /// no raw output. Callers set the rest with struct update syntax
    /// (`Record { metrics, ..Record::new(id, source, subject, test) }`).
    pub fn new(id: impl Into<String>, source: Source, subject: Subject, test: TestInfo) -> Record {
        Record {
            schema: Cow::Borrowed(SCHEMA),
            id: id.into(),
            source,
            subject,
            host: Host::default(),
            target: Target::default(),
            test,
            run_id: None,
            repetition: 1,
            started_at: None,
            duration_s: None,
            status: Status::Ok,
            error: None,
            warnings: Vec::new(),
            metrics: Metrics::new(),
            raw: None,
            timeline: None,
            prior_io: None,
            prefill: None,
            stop: None,
        }
    }

    /// The record's file name: `<id>.json`.
    pub fn file_name(&self) -> String {
        format!("{}.json", self.id)
    }

    /// The study, or `unknown` when the record names none.
    pub fn study(&self) -> &str {
        self.subject.study()
    }

    /// `provider offering` as one display name (see [`Subject::offering_name`]).
    pub fn offering_name(&self) -> String {
        self.subject.offering_name()
    }
}

impl Subject {
    /// The study, or `unknown` when none is named.
    pub fn study(&self) -> &str {
        self.study.as_deref().unwrap_or("unknown")
    }

    /// `provider offering` as one display name (either part may be unknown;
    /// an empty or blank name counts as unknown).
    pub fn offering_name(&self) -> String {
        fn known<'s>(s: &'s Option<String>, unknown: &'s str) -> &'s str {
            s.as_deref()
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .unwrap_or(unknown)
        }
        let provider = known(&self.provider, "unknown provider");
        let offering = known(&self.offering, "unknown offering");
        let mut name = String::with_capacity(provider.len() + 1 + offering.len());
        name.push_str(provider);
        name.push(' ');
        name.push_str(offering);
        name
    }
}

// ---------------------------------------------------------------- lengths

/// The longest name or label a record holds, in characters: a study,
/// provider, offering, region, label key or value, host or device name,
/// tool version, parameter name, log file name. Names are shown on every
/// page that lists the record, so their length multiplies into the site.
pub const MAX_NAME_CHARS: usize = 200;

/// The longest free text a record holds, in characters: paths, mount
/// options, descriptions, notes, publications and their addresses (a path
/// is at most 4096 bytes on Linux).
pub const MAX_TEXT_CHARS: usize = 4096;

/// The most labels one record carries.
pub const MAX_LABELS: usize = 64;

/// The most warnings one record carries.
pub const MAX_WARNINGS: usize = 64;

/// The most samples one timeline series holds: one a second for a week
/// (604,800), the longest `run --sustained-minutes` allows. A record past
/// it is refused; `run` and `import` refuse a fio log past it.
pub const MAX_TIMELINE_SAMPLES: usize = 7 * 24 * 3600;

/// A schema id as read: the constant [`SCHEMA`] when it is that.
fn schema_id<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Cow<'static, str>, D::Error> {
    let text = Cow::<str>::deserialize(d)?;
    Ok(if text == SCHEMA {
        Cow::Borrowed(SCHEMA)
    } else {
        Cow::Owned(text.into_owned())
    })
}

/// The JSON Schema of a record, pretty-printed.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(Record);
    serde_json::to_string_pretty(&schema).expect("a schema always serialises")
}

/// A valid record's JSON, for the tests of the modules that read records.
#[cfg(test)]
pub(crate) fn example_json() -> serde_json::Value {
    serde_json::json!({
        "schema": "diskdash.record/1",
        "id": "demo.disk.dd-write-8k-dsync.r1",
        "source": {"kind": "run", "diskdash_version": "0.1.0"},
        "subject": {"study": "demo", "provider": "local", "offering": "disk",
                    "price": {"per_gb_month": 0.1, "currency": "USD"}},
        "host": {},
        "target": {},
        "test": {"id": "dd-write-8k-dsync", "tool": "dd"},
        "repetition": 1,
        "started_at": "2026-11-30T10:00:00Z",
        "duration_s": 1.5,
        "status": "ok",
        "metrics": {"write_bw": {"value": 1.6e6, "unit": "B/s"}}
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn one_home_for_paths_currencies_and_positive_numbers() {
        let subject = Subject {
            study: Some("Rackspace 2013".into()),
            offering: Some("High Performance (SSD)".into()),
            ..Subject::default()
        };
        assert_eq!(
            subject_dir(&subject),
            PathBuf::from("rackspace-2013").join("high-performance-ssd")
        );
        assert_eq!(
            subject_dir(&Subject::default()),
            PathBuf::from("unknown").join("unknown")
        );
        let r = Record::new(
            "a.b",
            Source::Run {
                diskdash_version: "0".into(),
            },
            subject,
            TestInfo {
                id: "t".into(),
                suite: None,
                tool: Tool::Dd,
                tool_version: None,
                parameters: BTreeMap::new(),
                command: None,
            },
        );
        assert_eq!((&*r.schema, r.repetition), (SCHEMA, 1));
        assert_eq!(r.file_name(), "a.b.json");
        assert!(to_json(&r).unwrap().ends_with("}\n"));
        assert_eq!(currency_code(" eur ").as_deref(), Some("EUR"));
        assert_eq!(currency_code("US$"), None);
        assert_eq!(currency_code("EURO"), None);
        assert!(is_currency_code("USD") && !is_currency_code("usd"));
        assert!(is_positive(0.001) && !is_positive(0.0) && !is_positive(f64::INFINITY));
        assert!(!is_positive(f64::NAN) && !is_positive(-1.0));
    }

    #[test]
    fn blank_names_display_as_unknown() {
        let mut r: Record = serde_json::from_value(serde_json::json!({
            "schema": SCHEMA, "id": "a", "source": {"kind": "run", "diskdash_version": "0"},
            "subject": {"provider": "Linode", "offering": " "}, "host": {}, "target": {},
            "test": {"id": "dd", "tool": "dd"}, "repetition": 1, "status": "ok"
        }))
        .unwrap();
        assert_eq!(r.offering_name(), "Linode unknown offering");
        r.subject.provider = None;
        r.subject.offering = Some("Block Storage".into());
        assert_eq!(r.offering_name(), "unknown provider Block Storage");
    }

    /// The problems `check` finds in the example record after `edit`.
    fn problems_after(edit: impl FnOnce(&mut serde_json::Value)) -> Vec<String> {
        let mut v = example_json();
        edit(&mut v);
        let r: Record = serde_json::from_value(v).unwrap();
        validate(&r)
    }

    #[test]
    fn names_labels_and_series_past_their_limits_are_refused_naming_them() {
        let mb = "x".repeat(1 << 20);
        let p = problems_after(|v| v["subject"]["study"] = mb.clone().into());
        assert_eq!(
            p,
            ["subject.study is 1048576 characters long, over the limit of 200"]
        );
        // counted in characters, not bytes: 200 `é` are within the limit
        assert!(problems_after(|v| v["subject"]["offering"] = "é".repeat(200).into()).is_empty());
        let p = problems_after(|v| {
            v["subject"]["labels"] = serde_json::json!({"team": "y".repeat(201)})
        });
        assert_eq!(
            p,
            ["subject.labels.team is 201 characters long, over the limit of 200"]
        );
        let p = problems_after(|v| v["host"]["cpu_model"] = "c".repeat(300).into());
        assert_eq!(
            p,
            ["host.cpu_model is 300 characters long, over the limit of 200"]
        );
        let p = problems_after(|v| v["target"]["path"] = "/p".repeat(3000).into());
        assert_eq!(
            p,
            ["target.path is 6000 characters long, over the limit of 4096"]
        );
        let labels: serde_json::Map<String, serde_json::Value> =
            (0..65).map(|i| (format!("k{i}"), "v".into())).collect();
        let p = problems_after(|v| v["subject"]["labels"] = labels.into());
        assert_eq!(p, ["subject.labels holds 65 labels, over the limit of 64"]);
        let p = problems_after(|v| v["test"]["id"] = "t".repeat(201).into());
        assert_eq!(p, ["test.id is 201 characters long, over the limit of 200"]);
        let p = problems_after(|v| v["warnings"] = serde_json::json!(["w".repeat(4097)]));
        assert_eq!(
            p,
            ["warnings[0] is 4097 characters long, over the limit of 4096"]
        );
        let p = problems_after(|v| v["warnings"] = serde_json::json!(vec!["w"; 65]));
        assert_eq!(p, ["warnings holds 65 warnings, over the limit of 64"]);
        // a timeline one sample past a week
        let n = MAX_TIMELINE_SAMPLES + 1;
        let p = problems_after(|v| {
            v["timeline"] = serde_json::json!({
                "interval_s": 1.0,
                "read": {"iops": vec![1.0; n], "bw": vec![4096.0; n]}
            })
        });
        assert_eq!(
            p,
            [
                "timeline.read.iops holds 604801 samples, over the limit of 604800 (one a second for a week)",
                "timeline.read.bw holds 604801 samples, over the limit of 604800 (one a second for a week)"
            ]
        );
    }

    #[test]
    fn no_message_about_a_record_quotes_a_megabyte() {
        let mb = "x".repeat(1 << 20);
        let text = |edit: &dyn Fn(&mut serde_json::Value)| {
            let mut v = example_json();
            edit(&mut v);
            from_json(&v.to_string()).unwrap_err()
        };
        // a long value where a short one is checked: its length alone
        let e = text(&|v| v["started_at"] = mb.clone().into());
        assert_eq!(
            e,
            "started_at is 1048576 characters long, over the limit of 200"
        );
        let e = text(&|v| v["schema"] = mb.clone().into());
        assert_eq!(
            e,
            "schema is 1048576 characters long, over the limit of 200"
        );
        // a long string in a field of another type: the message is cut
        let e = text(&|v| v["repetition"] = mb.clone().into());
        assert!(e.chars().count() < 2100, "{} characters", e.chars().count());
        assert!(e.contains("more characters)"), "{}", &e[..200]);
    }

    #[test]
    fn tool_serialises_with_its_real_name() {
        assert_eq!(
            serde_json::to_string(&Tool::Bonnie).unwrap(),
            "\"bonnie++\""
        );
        let t: Tool = serde_json::from_str("\"ioping\"").unwrap();
        assert_eq!(t, Tool::Ioping);
    }

    #[test]
    fn schema_names_the_source_kinds() {
        let s = json_schema();
        for kind in [
            "\"run\"",
            "\"import\"",
            "\"transcribed\"",
            "\"bonnie++\"",
            "\"timeline\"",
            "\"credit-burst\"",
            "\"interval_s\"",
            "\"prefill\"",
        ] {
            assert!(s.contains(kind), "schema lacks {kind}");
        }
    }
}
