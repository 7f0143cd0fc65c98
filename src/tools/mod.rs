//! The four benchmark tools. Each tool's folder holds both how its command
//! line is built (for `run`) and how its output is parsed (for `run` and
//! `import`). Parsers are pure functions over text. Every fact that differs
//! between tools sits behind four small traits, one per stage that needs
//! it: [`Output`] (reading output, for `import` and `run`), [`Command`]
//! (building a command line, for `run`), [`Install`] (for `doctor`) and
//! [`Judge`] (what a record's parameters say, for the analysis). Callers
//! reach a tool through [`output`], [`command`], [`install`], [`judge`] or
//! the [`TOOLS`] list, never by matching on [`Tool`].

use std::collections::BTreeMap;

use anyhow::Result;

use crate::metrics::TestKind;
use crate::record::{Metric, Tool};

pub mod argv;
pub mod bonnie;
pub mod date;
pub mod dd;
pub mod fio;
pub mod ioping;
pub mod number;
pub mod text;

use argv::{BuildCtx, Invocation, Params};

/// What a parser took from one result in a tool's output.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parsed {
    /// Metric name to value, in canonical units.
    pub metrics: BTreeMap<String, Metric>,
    /// Parameters the output (or a command line pasted above it) states.
    pub parameters: BTreeMap<String, serde_json::Value>,
    /// The tool's version, when the output names it.
    pub tool_version: Option<String>,
    /// The test id derived from the command line or job header, when the
    /// text holds one (`dd-write-8k-dsync`, `fio-randread-4k-qd64`).
    pub test_id: Option<String>,
    /// The command line found in the text, when there is one.
    pub command: Option<String>,
    /// Why the tool reports this result failed (`fio JSON output with error
    /// 22 (Invalid argument) in job `x``); such a result has no metrics.
    pub error: Option<String>,
    /// The part of the text this result was read from (its run's lines, its
    /// fio job objects, its CSV line), which `import` keeps as the record's
    /// raw output; `None` when the result is the whole text.
    pub part: Option<String>,
    /// When the tool says the run happened (fio's `timestamp`, a text job
    /// line's time, yabs's and nench's headers), or why the date it
    /// printed cannot be placed; `None` when it printed none
    /// (`docs/import.md`, "Dates").
    pub date: Option<date::Dated>,
}

/// The parts of `text` between consecutive byte offsets `cuts` (sorted,
/// each on a char boundary), the last running to the end: `cuts = [0, 10]`
/// gives `text[0..10]` and `text[10..]`.
pub fn parts_at(text: &str, cuts: &[usize]) -> Vec<String> {
    cuts.iter()
        .enumerate()
        .map(|(i, &start)| {
            let end = cuts.get(i + 1).copied().unwrap_or(text.len());
            text.get(start..end).unwrap_or_default().to_string()
        })
        .collect()
}

/// Reading a tool's output and the command lines pasted above it: what
/// `import` and `run` need to turn text into results.
pub trait Output: Sync {
    /// Which tool this is.
    fn tool(&self) -> Tool;

    /// Other names a suite's `tool` or `import --tool` may give it.
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether `text` looks like output of this tool.
    fn looks_like(&self, text: &str) -> bool;

    /// Parses the tool's output: one entry per result; fails with a message
    /// saying what was expected.
    fn parse(&self, text: &str) -> Result<Vec<Parsed>>;

    /// Parses the output of a run of `invocation` (`run`'s own command): the
    /// same as [`Output::parse`] unless the output alone does not say what
    /// the command measured, as dd's summary does not name its direction.
    fn parse_run(&self, _invocation: &Invocation, text: &str) -> Result<Vec<Parsed>> {
        self.parse(text)
    }

    /// Reads a command line of this tool (as pasted above its output) into
    /// the parameters and test id its output would carry.
    fn read_command(&self, line: &str) -> Result<Parsed>;

    /// Reads a command line as a publication prints it; the same as
    /// [`Output::read_command`] unless the tool has a published notation.
    fn read_published_command(&self, line: &str) -> Result<Parsed> {
        self.read_command(line)
    }

    /// The version in the tool's version output (or its report), if there
    /// is one. May return an empty string; [`version_from_text`] drops it.
    fn version_from_text(&self, text: &str) -> Option<String>;
}

/// Building a test's command line from a suite's parameters: what `run`
/// needs.
pub trait Command: Sync {
    /// Builds the command line of one test from a suite's parameters.
    fn build(&self, params: &Params, ctx: &BuildCtx) -> Result<Invocation>;

    /// The metric the summary shows when the suite names none.
    fn headline(&self, params: &Params) -> &'static str;

    /// The version read from a run's standard error, for a tool whose
    /// parsed output does not carry it; `None` for the others.
    fn version_from_run_stderr(&self, _stderr: &str) -> Option<String> {
        None
    }

    /// Removes from a base suite's parameters `base` those that `new` (a
    /// suite file's parameters for the same test) replaces under another
    /// name; the keys `new` gives are then set over `base` by the caller.
    fn drop_replaced(&self, _base: &mut Params, _new: &Params) {}
}

/// Finding and installing the tool: what `doctor` and `run --install` need.
pub trait Install: Sync {
    /// Program and argument that make the tool print its version; `None`
    /// when it has no such flag.
    fn version_probe(&self) -> Option<(&'static str, &'static str)>;

    /// The distribution package that provides the tool; `family` is the
    /// package manager (`apt`, `dnf`, `apk`, `pacman`, `zypper`) or empty.
    fn package(&self, family: &str) -> &'static str;
}

/// What a record's parameters say of its test: what the analysis needs.
pub trait Judge: Sync {
    /// What a test with these record parameters measures, which decides
    /// the metrics judged on it (see [`crate::metrics::TestKind`]).
    fn kind(&self, params: &BTreeMap<String, serde_json::Value>) -> TestKind;

    /// What a reader must know about a result with these record
    /// parameters, though it stands (its record's `warnings` say it, and
    /// its run page shows it): dd writing zeros from `/dev/zero`. `None`
    /// for most.
    fn caveat(&self, _params: &BTreeMap<String, serde_json::Value>) -> Option<&'static str> {
        None
    }

    /// The parameters of a record (or suite test) that change what it
    /// measures, each as its name for people and its value in words
    /// (`("bs", "bs 4 KiB")`, `("file size", "64 MiB file")`),
    /// in a fixed order. Records of one test id that differ in any of them
    /// are different tests ([`crate::analysis::identity`]); bookkeeping
    /// (file names, runtimes of time-bound tests, counts of repetitions) is
    /// left out. A size a suite gives as a multiple of the memory is that
    /// multiple (`2x RAM`) on a machine of `ram` bytes ([`size_words`]), so
    /// that machines of different memory run one test.
    fn identity(
        &self,
        params: &BTreeMap<String, serde_json::Value>,
        ram: Option<u64>,
    ) -> Vec<(&'static str, String)>;

    /// Why a record with these parameters measures the page cache rather
    /// than the storage, on a machine with `ram` bytes of memory when that
    /// is known; `None` when nothing says so. One reason per rule, see
    /// [`crate::analysis::judged`].
    fn cache_trap(
        &self,
        _params: &BTreeMap<String, serde_json::Value>,
        _ram: Option<u64>,
    ) -> Option<Trap> {
        None
    }
}

/// Why a record's numbers measure something other than the storage (the
/// page cache, memory): such a record is kept and shown with the reason,
/// never judged ([`crate::analysis::judged`]).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Trap {
    /// A few words for the test's name (`no sync flag`).
    pub short: String,
    /// The reason in a sentence, as the site shows it.
    pub why: String,
}

/// A parameter that is a size in bytes: a whole number, or a size as text
/// (`64M`, `"1g"`); `None` when absent or not a size.
pub fn param_bytes(params: &BTreeMap<String, serde_json::Value>, key: &str) -> Option<u64> {
    match params.get(key)? {
        serde_json::Value::Number(n) => n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0)
                .map(|f| f as u64)
        }),
        serde_json::Value::String(s) => argv::parse_size(s, None).ok(),
        _ => None,
    }
}

/// A size in words for a test's identity: `2x RAM` where it is a whole
/// multiple of the machine's memory `ram` (to within the MiB a suite's
/// `2xRAM` is rounded down to, or one block `slack`), else the size
/// (`64 MiB`).
pub fn size_words(bytes: u64, ram: Option<u64>, slack: u64) -> String {
    let multiple = ram.filter(|r| *r > 0).and_then(|ram| {
        let n = (bytes as f64 / ram as f64).round();
        let off = (bytes as f64 - n * ram as f64).abs();
        (n >= 1.0 && off <= slack.max(1 << 20) as f64).then_some(n as u64)
    });
    match multiple {
        Some(n) => format!("{n}x RAM"),
        None => crate::format::size(bytes),
    }
}

/// A parameter as text: strings as they are, numbers and flags written out.
pub fn param_text(params: &BTreeMap<String, serde_json::Value>, key: &str) -> Option<String> {
    match params.get(key)? {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Null => None,
        other => Some(other.to_string()),
    }
}

/// Every tool's output reader, in the order [`detect`] tries them: fio
/// first, as its text output can quote dd-like lines in job names, and
/// bonnie++ CSV last, as it is the least distinctive.
pub static TOOLS: &[&dyn Output] = &[&fio::Fio, &ioping::Ioping, &dd::Dd, &bonnie::Bonnie];

/// One tool's four sides, as each stage reaches it.
struct Sides {
    output: &'static dyn Output,
    command: &'static dyn Command,
    install: &'static dyn Install,
    judge: &'static dyn Judge,
}

static SIDES: &[Sides] = &[
    Sides {
        output: &fio::Fio,
        command: &fio::Fio,
        install: &fio::Fio,
        judge: &fio::Fio,
    },
    Sides {
        output: &ioping::Ioping,
        command: &ioping::Ioping,
        install: &ioping::Ioping,
        judge: &ioping::Ioping,
    },
    Sides {
        output: &dd::Dd,
        command: &dd::Dd,
        install: &dd::Dd,
        judge: &dd::Dd,
    },
    Sides {
        output: &bonnie::Bonnie,
        command: &bonnie::Bonnie,
        install: &bonnie::Bonnie,
        judge: &bonnie::Bonnie,
    },
];

fn sides(tool: Tool) -> &'static Sides {
    SIDES
        .iter()
        .find(|s| s.output.tool() == tool)
        .expect("every tool is listed in SIDES")
}

/// How `tool`'s output and pasted command lines are read (`import`, `run`).
pub fn output(tool: Tool) -> &'static dyn Output {
    sides(tool).output
}

/// How `tool`'s command line is built (`run`).
pub fn command(tool: Tool) -> &'static dyn Command {
    sides(tool).command
}

/// How `tool` is found and installed (`doctor`, `run --install`).
pub fn install(tool: Tool) -> &'static dyn Install {
    sides(tool).install
}

/// What a record of `tool` says of its test (the analysis).
pub fn judge(tool: Tool) -> &'static dyn Judge {
    sides(tool).judge
}

/// The tool called `name` (its record name or an alias); `None` if none is.
pub fn by_name(name: &str) -> Option<Tool> {
    Tool::ALL
        .into_iter()
        .find(|&t| t.name() == name || output(t).aliases().contains(&name))
}

/// Parses `text` as output of `tool`. One entry per result (a bonnie++ CSV
/// line, a fio group); fails with a message saying what was expected.
pub fn parse(tool: Tool, text: &str) -> Result<Vec<Parsed>> {
    output(tool).parse(text)
}

/// Parses the output of `run`'s own `invocation` of `tool` (see
/// [`Output::parse_run`]).
pub fn parse_run(tool: Tool, invocation: &Invocation, text: &str) -> Result<Vec<Parsed>> {
    output(tool).parse_run(invocation, text)
}

/// Guesses which tool printed `text`; `None` if it looks like none of them.
pub fn detect(text: &str) -> Option<Tool> {
    // a script's report of dd runs may quote another tool's lines
    if dd::recognised_script(text) {
        return Some(Tool::Dd);
    }
    TOOLS.iter().find(|s| s.looks_like(text)).map(|s| s.tool())
}

/// The version in a tool's `--version` style output, if one is there.
pub fn version_from_text(tool: Tool, text: &str) -> Option<String> {
    output(tool)
        .version_from_text(text)
        .filter(|v| !v.is_empty())
}

/// The first non-empty line of `text`, trimmed: where most tools print
/// their version.
fn first_line(text: &str) -> Option<&str> {
    Some(text.lines().find(|l| !l.trim().is_empty())?.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_kinds_come_from_the_record_parameters() {
        let kind = |tool: Tool, params: serde_json::Value| {
            judge(tool).kind(&serde_json::from_value(params).unwrap())
        };
        use serde_json::json;
        assert_eq!(
            kind(Tool::Fio, json!({"rw": "randread", "bs": 4096})),
            TestKind::BlockIo
        );
        assert_eq!(
            kind(Tool::Fio, json!({"rw": "randwrite", "bs": 1048576})),
            TestKind::BlockIo
        );
        assert_eq!(
            kind(Tool::Fio, json!({"rw": "read", "bs": 1048576})),
            TestKind::Throughput
        );
        assert_eq!(
            kind(Tool::Fio, json!({"rw": "write", "bs": 65536})),
            TestKind::Throughput
        );
        assert_eq!(
            kind(Tool::Fio, json!({"rw": "read", "bs": 4096})),
            TestKind::BlockIo
        );
        assert_eq!(kind(Tool::Ioping, json!({"flags": ""})), TestKind::Latency);
        assert_eq!(kind(Tool::Ioping, json!({"flags": "R"})), TestKind::Seek);
        assert_eq!(
            kind(Tool::Ioping, json!({"flags": "RL"})),
            TestKind::Throughput
        );
        assert_eq!(
            kind(Tool::Ioping, json!({"flags": "RLC"})),
            TestKind::PageCache
        );
        assert_eq!(kind(Tool::Dd, json!({"bs": 8192})), TestKind::Throughput);
        assert_eq!(kind(Tool::Bonnie, json!({})), TestKind::FileSystem);
    }

    #[test]
    fn every_tool_is_registered_once() {
        for tool in Tool::ALL {
            assert_eq!(TOOLS.iter().filter(|s| s.tool() == tool).count(), 1);
            assert_eq!(output(tool).tool(), tool);
            assert_eq!(SIDES.iter().filter(|s| s.output.tool() == tool).count(), 1);
            assert_eq!(by_name(tool.name()), Some(tool));
        }
        assert_eq!(TOOLS.len(), Tool::ALL.len());
        assert_eq!(SIDES.len(), Tool::ALL.len());
        assert_eq!(by_name("bonnie"), Some(Tool::Bonnie));
        assert_eq!(by_name("auto"), None);
    }

    #[test]
    fn versions_come_from_the_first_line() {
        assert_eq!(
            version_from_text(Tool::Fio, "fio-3.33\n").as_deref(),
            Some("3.33")
        );
        assert_eq!(
            version_from_text(Tool::Dd, "dd (coreutils) 9.1\nCopyright").as_deref(),
            Some("coreutils 9.1")
        );
        assert_eq!(
            version_from_text(Tool::Dd, "BusyBox v1.36.1 (2023-06-10) multi-call binary.")
                .as_deref(),
            Some("busybox 1.36.1")
        );
        assert_eq!(
            version_from_text(Tool::Ioping, "ioping 1.3\n").as_deref(),
            Some("1.3")
        );
        assert_eq!(
            version_from_text(Tool::Bonnie, "Version 2.00a       ------Sequential").as_deref(),
            Some("2.00a")
        );
        assert_eq!(version_from_text(Tool::Fio, "garbage"), None);
    }
}
