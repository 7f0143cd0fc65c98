//! fio's options and what they mean: how a command line's `--key=value`
//! arguments, a job file's `key=value` lines and the `"job options"` of
//! fio's JSON are read into the options that define a test (rw, block
//! size, depth, engine, size, jobs, runtime, time-based), with fio's own
//! rules for sizes (`kb_base`), times, flags and `rw` spellings.
//!
//! The parser (`combine`, `pasted`) and the command builder (`invocation`)
//! read options only through this module.

use std::collections::BTreeMap;

use anyhow::{anyhow, bail, Result};
use serde_json::Value;

use super::invocation::IOENGINES;
use super::test_id;
use super::Header;
use crate::tools::argv::Params;
use crate::units;

/// Options as fio states them: key to value text, a bare flag with an
/// empty value.
pub(super) type OptionMap = BTreeMap<String, String>;

/// fio JSON's `"global options"` or a job's `"job options"` as an
/// [`OptionMap`]: fio writes every value as a string; a number or boolean
/// is taken as its text, anything else is skipped. Names are read as a
/// job file's (see [`put_option`]).
pub(super) fn json_options(v: &Value) -> OptionMap {
    let mut out = OptionMap::new();
    if let Some(map) = v.as_object() {
        for (k, v) in map {
            let s = match v {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => continue,
            };
            put_option(&mut out, k, s, Spelling::JobFile);
        }
    }
    out
}

/// A command line's or job file's options: those for every job (before
/// the first `--name`, or `[global]`) and those of each named job.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct CommandOptions {
    pub(super) global: OptionMap,
    pub(super) per_job: BTreeMap<String, OptionMap>,
}

impl CommandOptions {
    /// Reads `--key=value` arguments (see [`CommandOptions::add_args`]).
    pub(super) fn from_args(args: &[String]) -> Self {
        let mut options = Self::default();
        options.add_args(args);
        options
    }

    /// Sorts `--key=value` arguments into global options (before the first
    /// `--name`) and per-job options, each under the name fio's command
    /// line reads it as (`--readw` is `rw`; see [`put_option`]). Quotes
    /// around a value are dropped; an argument that is no option (a job
    /// file's name) is skipped.
    pub(super) fn add_args(&mut self, args: &[String]) {
        let spelling = Spelling::CommandLine { engine: None };
        let mut job: Option<String> = None;
        for a in args {
            let Some(opt) = a.strip_prefix("--").or_else(|| a.strip_prefix('-')) else {
                continue;
            };
            let (k, v) = opt.split_once('=').unwrap_or((opt, ""));
            let v = v.trim_matches(['"', '\'']).to_string();
            if resolve(k, spelling).is_ok_and(|o| o.name == "name") {
                job = Some(v.clone());
                self.per_job.entry(v).or_default();
                continue;
            }
            let map = match &job {
                Some(j) => self.per_job.entry(j.clone()).or_default(),
                None => &mut self.global,
            };
            put_option(map, k, v, spelling);
        }
    }

    /// Adds a job file's `key=value` line to section `section` (`global`
    /// or a job's name), the name read as fio's job file parser reads it.
    pub(super) fn add_line(&mut self, section: &str, key: &str, value: &str) {
        let map = if section == "global" {
            &mut self.global
        } else {
            self.per_job.entry(section.to_string()).or_default()
        };
        put_option(map, key, value.trim().to_string(), Spelling::JobFile);
    }

    /// The options job `name` runs with: the global ones, then its own.
    pub(super) fn for_job(&self, name: &str) -> OptionMap {
        let mut opts = self.global.clone();
        if let Some(job_opts) = self.per_job.get(name) {
            opts.extend(job_opts.clone());
        }
        opts
    }

    /// Every option in one map: the global ones, then each job's in name
    /// order (for a line that names one job, that job's options).
    pub(super) fn merged(&self) -> OptionMap {
        let mut opts = self.global.clone();
        for job_opts in self.per_job.values() {
            opts.extend(job_opts.clone());
        }
        opts
    }
}

/// The options a fio test is defined by, as read from its option text.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct TestOptions {
    /// `rw` without a `:N` suffix; the value `readwrite` is `rw`.
    pub(super) rw: Option<String>,
    /// Block size per direction (read, write, trim) as `(min, max)` bytes;
    /// empty when none is stated or it cannot be read.
    pub(super) bs: Vec<(u64, u64)>,
    pub(super) iodepth: Option<u32>,
    pub(super) ioengine: Option<String>,
    /// `direct` as 1 or 0 (`buffered` is read as its inverse).
    pub(super) direct: Option<u32>,
    /// `size` in bytes.
    pub(super) size: Option<u64>,
    pub(super) numjobs: Option<u32>,
    /// `runtime` in seconds.
    pub(super) runtime: Option<f64>,
    /// `time_based` given (a bare flag or `1`). fio's JSON does not echo
    /// it in `"job options"`, so a test read from JSON alone is never
    /// time-based here.
    pub(super) time_based: bool,
}

impl TestOptions {
    /// Reads one job's options: fio JSON's `"job options"`, a job file's
    /// lines or a command line's arguments, later ones overriding earlier,
    /// each under fio's canonical name (as [`put_option`] keeps them).
    /// `kb_base=1000` turns the meaning of size suffixes round (see
    /// [`option_size`]).
    pub(super) fn from_job_options(opts: &OptionMap) -> Self {
        let kb_base_si = opts.get("kb_base").is_some_and(|v| v.trim() == "1000");
        let rw = opt(opts, "rw").map(normalise_rw);
        // `bsrange` and `bssplit` give fio's block sizes in place of `bs`
        let bs = opt(opts, "bs")
            .filter(|_| !opts.contains_key("bsrange") && !opts.contains_key("bssplit"))
            .and_then(|v| option_bs(v, kb_base_si))
            .unwrap_or_default();
        TestOptions {
            rw,
            bs,
            iodepth: opt(opts, "iodepth").and_then(|v| v.trim().parse().ok()),
            ioengine: opt(opts, "ioengine").map(str::to_string),
            direct: opt(opts, "direct").and_then(flag_value),
            size: opt(opts, "size").and_then(|v| option_size(v, kb_base_si)),
            numjobs: opt(opts, "numjobs").and_then(|v| v.trim().parse().ok()),
            runtime: opt(opts, "runtime").and_then(option_seconds),
            time_based: opts.get("time_based").and_then(|v| flag_value(v)) == Some(1),
        }
    }

    /// Reads the `--key=value` arguments of a command line that runs one
    /// job: the global options, then the job's. `Err(n)` when the line
    /// names `n` > 1 jobs (`--name`), which would be several tests.
    pub(super) fn from_args(args: &[String]) -> Result<Self, usize> {
        let options = CommandOptions::from_args(args);
        match options.per_job.len() {
            n if n > 1 => Err(n),
            _ => Ok(Self::from_job_options(&options.merged())),
        }
    }

    /// These options as fio ran them, when its text output gave the job's
    /// header: the header wins for rw, iodepth and ioengine, and its block
    /// sizes stand in when the options give no fixed one.
    pub(super) fn with_header(mut self, header: Option<&Header>) -> Self {
        let Some(h) = header else {
            return self;
        };
        if let Some(rw) = &h.rw {
            self.rw = Some(normalise_rw(rw));
        }
        self.iodepth = h.iodepth.or(self.iodepth);
        self.ioengine = h.ioengine.clone().or(self.ioengine);
        if self.block_size().is_none() {
            self.bs = h.bs.clone();
        }
        self
    }

    /// The one fixed block size the workload's directions share, if any.
    pub(super) fn block_size(&self) -> Option<u64> {
        fixed_bs(&self.bs, self.rw.as_deref())
    }

    /// The test id (see [`test_id`]), when rw and a fixed block size are
    /// known; numjobs falls back to `fallback_jobs`.
    pub(super) fn test_id(&self, fallback_jobs: u32) -> Option<String> {
        let (rw, bs) = (self.rw.as_deref()?, self.block_size()?);
        let numjobs = self.numjobs.unwrap_or(fallback_jobs);
        Some(test_id(rw, bs, self.iodepth.unwrap_or(1), numjobs))
    }

    /// A record's parameters: rw, bs (bytes), iodepth, ioengine, direct,
    /// size (bytes), numjobs (`fallback_jobs` when no option states it),
    /// runtime (seconds) and `time_based` (only when true, as `run`
    /// writes it), each when known.
    pub(super) fn parameters(&self, fallback_jobs: u32) -> BTreeMap<String, Value> {
        let mut parameters = BTreeMap::new();
        if let Some(rw) = &self.rw {
            parameters.insert("rw".to_string(), Value::from(rw.clone()));
        }
        if let Some(bs) = self.block_size() {
            parameters.insert("bs".to_string(), Value::from(bs));
        }
        if let Some(d) = self.iodepth {
            parameters.insert("iodepth".to_string(), Value::from(d));
        }
        if let Some(e) = &self.ioengine {
            parameters.insert("ioengine".to_string(), Value::from(e.clone()));
        }
        if let Some(d) = self.direct {
            parameters.insert("direct".to_string(), Value::from(d));
        }
        if let Some(s) = self.size {
            parameters.insert("size".to_string(), Value::from(s));
        }
        let numjobs = self.numjobs.unwrap_or(fallback_jobs);
        parameters.insert("numjobs".to_string(), Value::from(numjobs));
        if let Some(r) = self.runtime {
            parameters.insert("runtime".to_string(), Value::from(r));
        }
        if self.time_based {
            parameters.insert("time_based".to_string(), Value::from(true));
        }
        parameters
    }

    /// [`TestOptions::parameters`] and [`TestOptions::test_id`] together.
    pub(super) fn settings(&self, fallback_jobs: u32) -> (BTreeMap<String, Value>, Option<String>) {
        (self.parameters(fallback_jobs), self.test_id(fallback_jobs))
    }
}

/// Option `key`, if it is set and its value is not blank.
fn opt<'a>(opts: &'a OptionMap, key: &str) -> Option<&'a str> {
    opts.get(key)
        .map(String::as_str)
        .filter(|v| !v.trim().is_empty())
}

/// `randread:8` → `randread`; `readwrite` → `rw`; `randread` stays.
fn normalise_rw(rw: &str) -> String {
    let rw = rw.split(':').next().unwrap_or(rw).trim();
    match rw {
        "readwrite" => "rw".to_string(),
        other => other.to_string(),
    }
}

/// Which block-size slots (read, write) a workload uses.
fn used_dirs(rw: Option<&str>) -> &'static [usize] {
    match rw {
        Some("read" | "randread") => &[0],
        Some("write" | "randwrite" | "trimwrite") => &[1],
        _ => &[0, 1],
    }
}

/// The one fixed block size the workload's directions share, if any.
pub(super) fn fixed_bs(per_dir: &[(u64, u64)], rw: Option<&str>) -> Option<u64> {
    let mut sizes = used_dirs(rw).iter().filter_map(|&i| per_dir.get(i));
    let &(lo, hi) = sizes.next()?;
    (lo == hi && lo > 0 && sizes.all(|&(l, h)| l == lo && h == lo)).then_some(lo)
}

/// A `bs=` option (`4k`, `4k,64k`) per direction (read, write, trim):
/// fio reuses the last given size for the directions not given.
pub(super) fn option_bs(v: &str, si: bool) -> Option<Vec<(u64, u64)>> {
    let parts: Vec<u64> = v
        .split(',')
        .map(|p| option_size(p, si))
        .collect::<Option<Vec<_>>>()?;
    Some(
        (0..3)
            .filter_map(|i| parts.get(i).or(parts.last()).map(|&b| (b, b)))
            .collect(),
    )
}

/// A size option as fio reads it: by default (`kb_base=1024`) `k`, `kB`,
/// `KB` mean 1024 and, for compatibility, `KiB` means 1000; with
/// `kb_base=1000` it is the other way round.
pub(super) fn option_size(v: &str, si: bool) -> Option<u64> {
    let (n, unit) = units::split_number(v)?;
    let u = unit.trim();
    let binary_form = u.len() >= 2 && (u.ends_with("iB") || u.ends_with("ib"));
    let letter = u.chars().next().map(|c| c.to_ascii_lowercase());
    let power = match letter {
        None => 0,
        Some('b') if u.len() == 1 => 0,
        Some('k') => 1,
        Some('m') => 2,
        Some('g') => 3,
        Some('t') => 4,
        Some('p') => 5,
        _ => return None,
    };
    let base: f64 = if binary_form != si { 1000.0 } else { 1024.0 };
    let b = n * base.powi(power);
    (b.is_finite() && (0.0..1e18).contains(&b)).then_some(b.round() as u64)
}

/// A time option (`2`, `30s`, `2m`, `1h`, `1d`, `500ms`): seconds; a bare
/// number is seconds.
pub(super) fn option_seconds(v: &str) -> Option<f64> {
    let (n, unit) = units::split_number(v)?;
    let s = if unit.trim().is_empty() {
        n
    } else {
        units::seconds(n, unit)?
    };
    Some(s).filter(|s| s.is_finite() && *s >= 0.0)
}

/// `1`, `0`, `true` → 1/0; a bare flag (empty value) counts as 1.
fn flag_value(v: &str) -> Option<u32> {
    match v.trim() {
        "1" | "true" | "" => Some(1),
        "0" | "false" => Some(0),
        _ => None,
    }
}

/// Whether a suite's or record's parameters make the test time-based
/// (`time_based = true`, `1` or `"1"`/`"true"`). A record imported from
/// fio's JSON alone never has it (fio does not echo the option).
pub fn is_time_based(params: &Params) -> bool {
    match params.get("time_based") {
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_u64() == Some(1),
        Some(Value::String(s)) => s == "1" || s == "true",
        _ => false,
    }
}

/// Which fio list an option name was found in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum OptionKind {
    /// A job option (fio's `options.c`).
    Job,
    /// An option of the job's I/O engine (`engines/*.c`).
    Engine,
    /// One of fio's own command-line options (`init.c`), no job option.
    CommandLine,
    /// An option of one of fio's built-in profiles (`profiles/*.c`),
    /// which fio adds to its job options at start.
    Profile,
}

/// An option name as fio reads it: its canonical name (an alias and an
/// abbreviation resolved) and the list it is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FioOption {
    pub(super) name: &'static str,
    pub(super) kind: OptionKind,
}

/// Where an option name is written, which decides how fio matches it.
#[derive(Clone, Copy, Debug)]
pub(super) enum Spelling<'a> {
    /// A job file's line or fio's JSON: fio's `find_option` (parse.c)
    /// takes an option's name or its alias, exactly.
    JobFile,
    /// A command line: fio reads it with `getopt_long_only` over one table
    /// of long names (its own options, then every job option's name and
    /// alias, then the options of the engine the job has loaded). A name
    /// matches exactly, or else as an abbreviation of exactly one entry;
    /// an abbreviation of two or more entries is ambiguous and fio stops.
    CommandLine { engine: Option<&'a str> },
}

/// Why an option name does not resolve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Unresolved {
    /// fio has no option of that name (nor abbreviated so).
    Unknown,
    /// It abbreviates each of these long names (in fio's table order).
    Ambiguous(Vec<&'static str>),
}

impl Unresolved {
    /// What is wrong with `key`, for an error message.
    pub(super) fn describe(&self, key: &str) -> String {
        match self {
            Unresolved::Unknown => format!(
                "`{key}` is no fio option (expected a name or alias from fio's options.c, {FIO_OPTIONS_FROM}, or an unambiguous abbreviation of one)"
            ),
            Unresolved::Ambiguous(names) => format!(
                "`{key}` abbreviates {} fio options ({}); fio refuses it as ambiguous: write the option's full name",
                names.len(),
                names.join(", ")
            ),
        }
    }
}

/// Resolves an option name as fio would read it written as `spelling`
/// says: exactly its name or alias, or on a command line an abbreviation
/// of exactly one long name.
pub(super) fn resolve(key: &str, spelling: Spelling) -> Result<FioOption, Unresolved> {
    let (command_line, engine) = match spelling {
        Spelling::JobFile => (false, None),
        Spelling::CommandLine { engine } => (true, engine),
    };
    let cli = CLI_OPTIONS.iter().filter(|_| command_line).map(|&n| {
        let o = FioOption {
            name: n,
            kind: OptionKind::CommandLine,
        };
        (n, o)
    });
    let job = JOB_OPTIONS.iter().flat_map(|&(name, alias)| {
        let o = FioOption {
            name,
            kind: OptionKind::Job,
        };
        [(name, o), (alias, o)]
            .into_iter()
            .filter(|(n, _)| !n.is_empty())
    });
    let engine_names = ENGINE_OPTIONS
        .iter()
        .filter(|(engines, _)| engine.is_some_and(|e| engines.contains(&e)))
        .flat_map(|(_, names)| names.iter())
        .map(|&n| {
            let o = FioOption {
                name: n,
                kind: OptionKind::Engine,
            };
            (n, o)
        });
    let profile = PROFILE_OPTIONS.iter().map(|&n| {
        let o = FioOption {
            name: n,
            kind: OptionKind::Profile,
        };
        (n, o)
    });
    let table: Vec<(&'static str, FioOption)> =
        cli.chain(job).chain(profile).chain(engine_names).collect();
    if let Some(&(_, o)) = table.iter().find(|(long, _)| *long == key) {
        return Ok(o);
    }
    if !command_line || key.is_empty() {
        return Err(Unresolved::Unknown);
    }
    let matches: Vec<&(&'static str, FioOption)> = table
        .iter()
        .filter(|(long, _)| long.starts_with(key))
        .collect();
    match matches.as_slice() {
        [] => Err(Unresolved::Unknown),
        [(_, o)] => Ok(*o),
        many => Err(Unresolved::Ambiguous(
            many.iter().map(|(long, _)| *long).collect(),
        )),
    }
}

/// Puts option `key` = `value` into `map` under the name fio reads it as
/// (see [`resolve`]): `readwrite` as `rw`, `blocksize` as `bs`, and
/// `buffered` as `direct` with the opposite value (fio's `buffered` is
/// the inverse of `direct`). A name that does not resolve, and one of
/// fio's own command-line options, is kept as written: it sets no option
/// of the test.
fn put_option(map: &mut OptionMap, key: &str, value: String, spelling: Spelling) {
    match resolve(key.trim(), spelling) {
        Ok(FioOption {
            name: "buffered",
            kind: OptionKind::Job,
        }) => match flag_value(&value).filter(|_| !value.trim().is_empty()) {
            Some(b) => {
                map.insert("direct".to_string(), (1 - b).to_string());
            }
            None => {
                map.insert("buffered".to_string(), value);
            }
        },
        Ok(o) if matches!(o.kind, OptionKind::Job | OptionKind::Engine) => {
            map.insert(o.name.to_string(), value);
        }
        _ => {
            map.insert(key.to_string(), value);
        }
    }
}

/// A suite's fio parameters under fio's canonical option names, with
/// the keys as the suite wrote them (for messages).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct SuiteOptions {
    pub(super) params: Params,
    /// Canonical name to the key as written, where they differ.
    written: BTreeMap<String, String>,
}

impl SuiteOptions {
    /// `` `rw` `` or, when the suite wrote it otherwise,
    /// `` `readwrite` (fio's `rw`) ``.
    pub(super) fn label(&self, name: &str) -> String {
        match self.written.get(name) {
            Some(w) => format!("`{w}` (fio's `{name}`)"),
            None => format!("`{name}`"),
        }
    }

    /// The name to give fio for option `name` on its command line: the
    /// suite's own spelling when it is a name or alias fio knows exactly
    /// (an older fio may know a renamed option only by its old name, as
    /// `log_max_value`), else `name` (an abbreviation written out).
    pub(super) fn command_name<'a>(&'a self, name: &'a str) -> &'a str {
        match self.written.get(name) {
            Some(w) if resolve(w, Spelling::JobFile).is_ok_and(|o| o.name == name) => w,
            _ => name,
        }
    }

    /// `` `ioengine = exec` `` or, when the suite wrote the name
    /// otherwise, `` `ioeng = exec` (fio's `ioengine`) ``.
    pub(super) fn setting(&self, name: &str, value: &dyn std::fmt::Display) -> String {
        match self.written.get(name) {
            Some(w) => format!("`{w} = {value}` (fio's `{name}`)"),
            None => format!("`{name} = {value}`"),
        }
    }
}

/// Resolves a suite's fio parameters as fio's command line would read
/// them (see [`resolve`]), before any rule looks at them: every key
/// becomes the canonical name of a job option or of the chosen engine's
/// options, `buffered` becomes `direct` with the opposite value. Refuses a
/// key that is no option name, one fio does not know, an ambiguous
/// abbreviation (naming the candidates), one of fio's own command-line
/// options, an engine not in [`IOENGINES`], and two keys for one option
/// with different values.
pub(super) fn suite_options(params: &Params) -> Result<SuiteOptions> {
    for k in params.keys() {
        // anything but a plain option name could smuggle `=value` into the argument
        if k.is_empty()
            || !k
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            bail!("fio parameter `{k}`: expected an option name (letters, digits, `_`, `-`)");
        }
    }
    // the engine comes first: its own options join fio's table once it is
    // loaded, and one that is not allowed could bring any options
    let engine = params.iter().find(|(k, _)| {
        resolve(k, Spelling::CommandLine { engine: None }).is_ok_and(|o| o.name == "ioengine")
    });
    let engine = match engine {
        None => DEFAULT_ENGINE,
        Some((_, Value::String(e))) if IOENGINES.contains(&e.as_str()) => e.as_str(),
        Some((k, v)) => {
            let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
            let written = if k == "ioengine" {
                format!("`{k} = {v}`")
            } else {
                format!("`{k} = {v}` (fio's `ioengine`)")
            };
            bail!(
                "fio parameter {written}: expected one of {}",
                IOENGINES.join(", ")
            );
        }
    };
    let spelling = Spelling::CommandLine {
        engine: Some(engine),
    };
    let mut out = SuiteOptions::default();
    for (k, v) in params {
        let o = resolve(k, spelling).map_err(|e| anyhow!("fio parameter {}", e.describe(k)))?;
        match o.kind {
            OptionKind::CommandLine => bail!(
                "fio parameter `{k}` cannot be set in a suite: it is fio's own command-line option `--{}`, not a job option",
                o.name
            ),
            OptionKind::Profile => bail!(
                "fio parameter `{k}` cannot be set in a suite: it is `{}` of fio's built-in profiles (`--profile`), not a job option",
                o.name
            ),
            OptionKind::Job | OptionKind::Engine => {}
        }
        let (name, value) = if o.name == "buffered" {
            let direct = match v {
                Value::Bool(b) => Some(!b),
                Value::Number(n) => n.as_u64().filter(|&n| n <= 1).map(|n| n == 0),
                Value::String(s) => flag_value(s)
                    .filter(|_| !s.trim().is_empty())
                    .map(|b| b == 0),
                _ => None,
            }
            .ok_or_else(|| anyhow!("fio parameter `{k} = {v}`: expected 0 or 1"))?;
            ("direct", Value::from(u32::from(direct)))
        } else {
            (o.name, v.clone())
        };
        if let Some(before) = out.params.get(name) {
            if !same_value(before, &value) {
                let first = out.written.get(name).map_or(name, String::as_str);
                bail!(
                    "fio parameters `{first}` and `{k}` both set fio's `{name}`, to different values ({before} and {v}): give one"
                );
            }
        }
        if k != name {
            out.written.entry(name.to_string()).or_insert(k.clone());
        }
        out.params.entry(name.to_string()).or_insert(value);
    }
    Ok(out)
}

/// Two values fio reads alike: `1`, `"1"` and `true` for a flag.
fn same_value(a: &Value, b: &Value) -> bool {
    let text = |v: &Value| match v {
        Value::String(s) => s.trim().to_string(),
        Value::Bool(b) => u8::from(*b).to_string(),
        other => other.to_string(),
    };
    a == b || text(a) == text(b)
}

/// The engine a suite's fio test gets when it names none.
pub(super) const DEFAULT_ENGINE: &str = "libaio";

/// Where the tables below were read: fio's `options.c` (job options:
/// `.name` and `.alias`), `init.c` (`l_opts`, fio's own command-line
/// options) and `engines/*.c` (engine options).
const FIO_OPTIONS_FROM: &str = "fio 3.42-135-gf5344384";

/// fio's own command-line options, from `l_opts` in fio's `init.c` at
/// commit f5344384f7c7b6e9e6aa9336e476e8f6eb54dd3a (fio-3.42-135).
const CLI_OPTIONS: &[&str] = &[
    "output",
    "latency-log",
    "bandwidth-log",
    "minimal",
    "output-format",
    "append-terse",
    "version",
    "help",
    "cmdhelp",
    "enghelp",
    "showcmd",
    "readonly",
    "eta",
    "eta-interval",
    "eta-newline",
    "debug",
    "parse-only",
    "section",
    "inflate-log",
    "alloc-size",
    "profile",
    "warnings-fatal",
    "max-jobs",
    "terse-version",
    "server",
    "server-internal",
    "daemonize",
    "client",
    "remote-config",
    "cpuclock-test",
    "crctest",
    "memcpytest",
    "idle-prof",
    "status-interval",
    "trigger-file",
    "trigger-timeout",
    "trigger",
    "trigger-remote",
    "aux-path",
    "merge-blktrace-only",
];

/// The options of fio's built-in profiles `tiobench` and `act`, from
/// `profiles/tiobench.c` and `profiles/act.c` at the same commit: fio
/// adds them to its job options at start (`register_profile`), so they
/// are long names of its command line, and `--dir` is tiobench's, not an
/// abbreviation of `--directory`.
const PROFILE_OPTIONS: &[&str] = &[
    "size",
    "block",
    "numruns",
    "dir",
    "threads",
    "device-names",
    "load",
    "test-duration",
    "threads-per-queue",
    "read-req-num-512-blocks",
    "large-block-op-kbytes",
    "prep",
];

/// The options of the engines a suite may choose (see
/// `invocation::IOENGINES`), from their `options[]` tables in fio's
/// `engines/` at the same commit (`cmdprio*` from `engines/cmdprio.h`);
/// `psync`, `sync`, `pvsync`, `posixaio` and `null` have none.
const ENGINE_OPTIONS: &[(&[&str], &[&str])] = &[
    (
        &["libaio"],
        &[
            "userspace_reap",
            "nowait",
            "libaio_vectored",
            "cmdprio_percentage",
            "cmdprio_class",
            "cmdprio_hint",
            "cmdprio",
            "cmdprio_bssplit",
        ],
    ),
    (
        &["io_uring"],
        &[
            "hipri",
            "readfua",
            "writefua",
            "write_mode",
            "verify_mode",
            "fixedbufs",
            "registerfiles",
            "sqthread_poll",
            "sqthread_poll_cpu",
            "nonvectored",
            "uncached",
            "nowait",
            "force_async",
            "cmd_type",
            "cdb_len",
            "verify_bytchk",
            "read_mode",
            "md_per_io_size",
            "pi_act",
            "pi_chk",
            "apptag",
            "apptag_mask",
            "deac",
            "cmdprio_percentage",
            "cmdprio_class",
            "cmdprio_hint",
            "cmdprio",
            "cmdprio_bssplit",
        ],
    ),
    (
        &["pvsync2"],
        &["hipri", "hipri_percentage", "uncached", "nowait"],
    ),
    (&["mmap"], &["thp"]),
];

/// fio's job options as `(name, alias)` (`""`: none), in the order of
/// `fio_options[]` in fio's `options.c` at commit
/// f5344384f7c7b6e9e6aa9336e476e8f6eb54dd3a (fio-3.42-135), every
/// platform's (an option fio leaves out of a build is still named there).
const JOB_OPTIONS: &[(&str, &str)] = &[
    ("description", ""),
    ("name", ""),
    ("wait_for", ""),
    ("filename", ""),
    ("filetype", ""),
    ("directory", ""),
    ("filename_format", ""),
    ("unique_filename", ""),
    ("lockfile", ""),
    ("opendir", ""),
    ("rw", "readwrite"),
    ("rw_sequencer", ""),
    ("ioengine", ""),
    ("iodepth", ""),
    ("iodepth_batch", "iodepth_batch_submit"),
    ("iodepth_batch_complete_min", "iodepth_batch_complete"),
    ("iodepth_batch_complete_max", ""),
    ("iodepth_low", ""),
    ("serialize_overlap", ""),
    ("io_submit_mode", ""),
    ("size", ""),
    ("io_size", "io_limit"),
    ("fill_device", "fill_fs"),
    ("filesize", ""),
    ("file_append", ""),
    ("offset", "fileoffset"),
    ("offset_align", ""),
    ("offset_increment", ""),
    ("number_ios", ""),
    ("num_range", ""),
    ("bs", "blocksize"),
    ("ba", "blockalign"),
    ("bsrange", "blocksize_range"),
    ("bssplit", ""),
    ("bs_unaligned", "blocksize_unaligned"),
    ("bs_is_seq_rand", ""),
    ("randrepeat", "allrandrepeat"),
    ("randseed", ""),
    ("norandommap", ""),
    ("softrandommap", ""),
    ("sprandom", ""),
    ("spr_num_regions", ""),
    ("spr_op", ""),
    ("spr_cs", ""),
    ("random_generator", ""),
    ("random_distribution", ""),
    ("random_sequence_stride", ""),
    ("percentage_random", ""),
    ("percentage_sequential", ""),
    ("nrfiles", "nr_files"),
    ("openfiles", ""),
    ("file_service_type", ""),
    ("fallocate", ""),
    ("fadvise_hint", ""),
    ("fsync", ""),
    ("fdatasync", ""),
    ("write_barrier", ""),
    ("sync_file_range", ""),
    ("direct", ""),
    ("atomic", ""),
    ("buffered", ""),
    ("overwrite", ""),
    ("loops", ""),
    ("numjobs", ""),
    ("startdelay", ""),
    ("runtime", "timeout"),
    ("time_based", ""),
    ("verify_only", ""),
    ("ramp_time", ""),
    ("ramp_size", ""),
    ("clocksource", ""),
    ("mem", "iomem"),
    ("iomem_align", "mem_align"),
    ("verify", ""),
    ("do_verify", ""),
    ("verify_policy", ""),
    ("verifysort", ""),
    ("verifysort_nr", ""),
    ("verify_interval", ""),
    ("verify_offset", ""),
    ("verify_pattern", ""),
    ("verify_pattern_interval", ""),
    ("verify_fatal", ""),
    ("verify_dump", ""),
    ("verify_async", ""),
    ("verify_backlog", ""),
    ("verify_backlog_batch", ""),
    ("verify_async_cpus", ""),
    ("experimental_verify", ""),
    ("verify_state_load", ""),
    ("verify_state_save", ""),
    ("verify_write_sequence", ""),
    ("verify_header_seed", ""),
    ("trim_percentage", ""),
    ("trim_verify_zero", ""),
    ("trim_backlog", ""),
    ("trim_backlog_batch", ""),
    ("write_iolog", ""),
    ("read_iolog", ""),
    ("read_iolog_chunked", ""),
    ("replay_no_stall", ""),
    ("replay_redirect", ""),
    ("replay_scale", ""),
    ("replay_align", ""),
    ("replay_time_scale", ""),
    ("replay_skip", ""),
    ("merge_blktrace_file", ""),
    ("merge_blktrace_scalars", ""),
    ("merge_blktrace_iters", ""),
    ("exec_prerun", ""),
    ("exec_postrun", ""),
    ("ioscheduler", ""),
    ("zonemode", ""),
    ("zonesize", ""),
    ("zonecapacity", ""),
    ("zonerange", ""),
    ("zoneskip", ""),
    ("read_beyond_wp", ""),
    ("max_open_zones", ""),
    ("job_max_open_zones", ""),
    ("ignore_zone_limits", ""),
    ("zone_reset_threshold", ""),
    ("zone_reset_frequency", ""),
    ("recover_zbd_write_error", ""),
    ("write_zone_remainder", ""),
    ("fdp", ""),
    ("dataplacement", "data_placement"),
    ("plid_select", "fdp_pli_select"),
    ("plids", "fdp_pli"),
    ("dp_scheme", ""),
    ("lockmem", ""),
    ("rwmixread", ""),
    ("rwmixwrite", ""),
    ("rwmixcycle", ""),
    ("comm", ""),
    ("nice", ""),
    ("prio", ""),
    ("prioclass", ""),
    ("priohint", ""),
    ("thinktime", ""),
    ("thinktime_spin", ""),
    ("thinkcycles", ""),
    ("thinktime_blocks", ""),
    ("thinktime_blocks_type", ""),
    ("thinktime_iotime", ""),
    ("rate", ""),
    ("rate_min", "ratemin"),
    ("rate_iops", ""),
    ("rate_iops_min", ""),
    ("rate_process", ""),
    ("rate_cycle", "ratecycle"),
    ("rate_ignore_thinktime", ""),
    ("max_latency", ""),
    ("latency_target", ""),
    ("latency_window", ""),
    ("latency_percentile", ""),
    ("latency_run", ""),
    ("invalidate", ""),
    ("sync", ""),
    ("write_hint", ""),
    ("create_serialize", ""),
    ("create_fsync", ""),
    ("create_on_open", ""),
    ("create_only", ""),
    ("allow_file_create", ""),
    ("allow_mounted_write", ""),
    ("pre_read", ""),
    ("cpumask", ""),
    ("cpus_allowed", ""),
    ("cpus_allowed_policy", ""),
    ("numa_cpu_nodes", ""),
    ("numa_mem_policy", ""),
    ("gpu_dev_id", ""),
    ("end_fsync", ""),
    ("fsync_on_close", ""),
    ("end_syncfs", ""),
    ("unlink", ""),
    ("unlink_each_loop", ""),
    ("exitall", ""),
    ("exit_what", ""),
    ("exitall_on_error", ""),
    ("stonewall", "wait_for_previous"),
    ("new_group", ""),
    ("thread", ""),
    ("per_job_logs", ""),
    ("write_bw_log", ""),
    ("write_lat_log", ""),
    ("write_iops_log", ""),
    ("log_entries", ""),
    ("log_avg_msec", ""),
    ("log_hist_msec", ""),
    ("log_hist_coarseness", ""),
    ("write_hist_log", ""),
    ("log_window_value", "log_max_value"),
    ("log_offset", ""),
    ("log_prio", ""),
    ("log_issue_time", ""),
    ("log_compression", ""),
    ("log_compression_cpus", ""),
    ("log_store_compressed", ""),
    ("log_alternate_epoch", "log_unix_epoch"),
    ("log_alternate_epoch_clock_id", ""),
    ("block_error_percentiles", ""),
    ("bwavgtime", ""),
    ("iopsavgtime", ""),
    ("group_reporting", ""),
    ("stats", ""),
    ("zero_buffers", ""),
    ("refill_buffers", ""),
    ("scramble_buffers", ""),
    ("buffer_pattern", ""),
    ("buffer_compress_percentage", ""),
    ("buffer_compress_chunk", ""),
    ("dedupe_percentage", ""),
    ("dedupe_global", ""),
    ("dedupe_mode", ""),
    ("dedupe_working_set_percentage", ""),
    ("clat_percentiles", ""),
    ("lat_percentiles", ""),
    ("slat_percentiles", ""),
    ("percentile_list", ""),
    ("significant_figures", ""),
    ("disk_util", ""),
    ("gtod_reduce", ""),
    ("disable_lat", ""),
    ("disable_clat", ""),
    ("disable_slat", ""),
    ("disable_bw_measurement", "disable_bw"),
    ("gtod_cpu", ""),
    ("job_start_clock_id", ""),
    ("unified_rw_reporting", ""),
    ("continue_on_error", ""),
    ("ignore_error", ""),
    ("error_dump", ""),
    ("profile", ""),
    ("cgroup", ""),
    ("cgroup_nodelete", ""),
    ("cgroup_weight", ""),
    ("uid", ""),
    ("gid", ""),
    ("kb_base", ""),
    ("unit_base", ""),
    ("hugepage-size", ""),
    ("flow_id", ""),
    ("flow", ""),
    ("flow_watermark", ""),
    ("flow_sleep", ""),
    ("steadystate", "ss"),
    ("steadystate_duration", "ss_dur"),
    ("steadystate_ramp_time", "ss_ramp"),
    ("steadystate_check_interval", "ss_interval"),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// A job's `"job options"` as fio 3.x writes them in its JSON.
    fn map(pairs: &[(&str, &str)]) -> OptionMap {
        let mut out = OptionMap::new();
        for (k, v) in pairs {
            put_option(&mut out, k, v.to_string(), Spelling::JobFile);
        }
        out
    }

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn json_job_options_of_a_random_read_are_read() {
        // tests/fixtures/fio/randread-4k-qd64.json
        let o = TestOptions::from_job_options(&map(&[
            ("name", "randread"),
            ("rw", "randread"),
            ("bs", "4k"),
            ("iodepth", "64"),
            ("ioengine", "libaio"),
            ("direct", "1"),
            ("size", "64M"),
            ("runtime", "2"),
            ("directory", "/tmp/fio-scratch"),
        ]));
        assert_eq!(o.rw.as_deref(), Some("randread"));
        assert_eq!(o.block_size(), Some(4096));
        assert_eq!(o.iodepth, Some(64));
        assert_eq!(o.ioengine.as_deref(), Some("libaio"));
        assert_eq!(o.direct, Some(1));
        assert_eq!(o.size, Some(64 << 20));
        assert_eq!(o.numjobs, None);
        assert_eq!(o.runtime, Some(2.0));
        assert!(!o.time_based);
        assert_eq!(o.test_id(1).as_deref(), Some("fio-randread-4k-qd64"));
        let p = o.parameters(1);
        assert_eq!(p["bs"], 4096);
        assert_eq!(p["size"], 67108864u64);
        assert_eq!(p["numjobs"], 1);
        assert_eq!(p["runtime"], 2.0);
        assert!(p["runtime"].is_f64());
        assert!(!p.contains_key("time_based"));
    }

    #[test]
    fn the_fixtures_job_options_name_their_tests() {
        // what the fio fixtures' own JSON holds, read as the parser reads it
        let cases = [
            ("randread-4k-qd64.json", "fio-randread-4k-qd64"),
            ("randwrite-4k-qd64.json", "fio-randwrite-4k-qd64"),
            ("randrw-4k-qd16.json", "fio-randrw-4k-qd16"),
            ("read-1m-qd1-j2.json", "fio-read-1m-qd1-j2"),
            ("steadystate-bw-abs-j2.json", "fio-read-1m-qd4-j2"),
            ("note-sync-qd4.json", "fio-randread-4k-qd4"),
        ];
        for (file, id) in cases {
            let path = format!("{}/tests/fixtures/fio/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            let json = &text[text.find('{').unwrap()..];
            let doc: Value = serde_json::Deserializer::from_str(json)
                .into_iter()
                .next()
                .unwrap()
                .unwrap();
            let opts = json_options(&doc["jobs"][0]["job options"]);
            let o = TestOptions::from_job_options(&opts);
            assert_eq!(o.test_id(1).as_deref(), Some(id), "{file}");
            assert!(!o.time_based, "{file}: fio's JSON does not echo time_based");
        }
        let o = json_options(&serde_json::json!({"bs": "4k", "iodepth": 8, "x": true, "y": null}));
        assert_eq!(o, map(&[("bs", "4k"), ("iodepth", "8"), ("x", "true")]));
    }

    #[test]
    fn json_job_options_with_numjobs_and_logs_are_read() {
        // tests/fixtures/fio/read-1m-qd1-j2.json
        let o = TestOptions::from_job_options(&map(&[
            ("name", "seqread"),
            ("rw", "read"),
            ("bs", "1m"),
            ("iodepth", "1"),
            ("ioengine", "libaio"),
            ("direct", "1"),
            ("numjobs", "2"),
            ("size", "64M"),
            ("runtime", "2"),
        ]));
        assert_eq!(o.test_id(5).as_deref(), Some("fio-read-1m-qd1-j2"));
        // tests/fixtures/fio/logs/tree/seqread.json: ran `--time_based`
        // with per-second logs, yet fio's JSON does not echo `time_based`
        let o = TestOptions::from_job_options(&map(&[
            ("name", "seqread"),
            ("filename", "/tmp/t.dat"),
            ("size", "32m"),
            ("rw", "read"),
            ("bs", "1m"),
            ("iodepth", "4"),
            ("runtime", "15"),
            ("write_iops_log", "seqread"),
            ("log_avg_msec", "1000"),
        ]));
        assert!(!o.time_based);
        assert_eq!(o.size, Some(32 << 20));
        assert_eq!(o.runtime, Some(15.0));
        // fio's numjobs fallback is the caller's count of jobs
        assert_eq!(o.test_id(2).as_deref(), Some("fio-read-1m-qd4-j2"));
    }

    #[test]
    fn a_mixed_workload_has_no_fixed_block_size_unless_both_directions_share_one() {
        // tests/fixtures/fio/randrw-4k-qd16.json
        let o = TestOptions::from_job_options(&map(&[
            ("rw", "randrw"),
            ("rwmixread", "70"),
            ("bs", "4k"),
            ("iodepth", "16"),
        ]));
        assert_eq!(o.test_id(1).as_deref(), Some("fio-randrw-4k-qd16"));
        let o = TestOptions::from_job_options(&map(&[("rw", "randrw"), ("bs", "4k,64k")]));
        assert_eq!(o.block_size(), None);
        assert_eq!(o.test_id(1), None);
        let o = TestOptions::from_job_options(&map(&[("rw", "randwrite"), ("bs", "4k,64k")]));
        assert_eq!(o.block_size(), Some(65536));
    }

    #[test]
    fn rw_spellings_flags_and_times_follow_fio() {
        let o = TestOptions::from_job_options(&map(&[
            ("readwrite", "readwrite"),
            ("blocksize", "8k"),
            ("direct", ""),
            ("time_based", ""),
            ("timeout", "2m"),
        ]));
        assert_eq!(o.rw.as_deref(), Some("rw"));
        assert_eq!(o.block_size(), Some(8192));
        // a bare `--direct` is no value; a bare `--time_based` is set
        assert_eq!(o.direct, None);
        assert!(o.time_based);
        assert_eq!(o.runtime, Some(120.0));
        assert_eq!(o.parameters(1)["time_based"], true);
        let o = TestOptions::from_job_options(&map(&[("rw", "randread:8"), ("time_based", "0")]));
        assert_eq!(o.rw.as_deref(), Some("randread"));
        assert!(!o.time_based);
    }

    #[test]
    fn kb_base_turns_the_size_suffixes_round() {
        let o = TestOptions::from_job_options(&map(&[("bs", "4k"), ("size", "1MiB")]));
        assert_eq!((o.bs[0].0, o.size), (4096, Some(1_000_000)));
        let o = TestOptions::from_job_options(&map(&[
            ("kb_base", "1000"),
            ("bs", "4k"),
            ("size", "1MiB"),
        ]));
        assert_eq!((o.bs[0].0, o.size), (4000, Some(1 << 20)));
        // tests/fixtures/fio/error22.json: a plain byte count
        let o = TestOptions::from_job_options(&map(&[("rw", "randread"), ("bs", "1000")]));
        assert_eq!(o.block_size(), Some(1000));
    }

    #[test]
    fn a_command_line_reads_as_its_job_options_do() {
        let line = "--direct=1 --ioengine=libaio --name=randread --rw=randread --bs=4k \
                    --iodepth=8 --size=4m --runtime=1 --time_based --filename=/mnt/volume/f";
        let o = TestOptions::from_args(&args(line)).unwrap();
        assert_eq!(o.test_id(1).as_deref(), Some("fio-randread-4k-qd8"));
        assert_eq!(o.direct, Some(1));
        assert!(o.time_based);
        assert_eq!(o.size, Some(4 << 20));
        let json = TestOptions::from_job_options(&map(&[
            ("name", "randread"),
            ("rw", "randread"),
            ("bs", "4k"),
            ("iodepth", "8"),
            ("size", "4m"),
            ("runtime", "1"),
            ("filename", "/mnt/volume/f"),
            ("ioengine", "libaio"),
            ("direct", "1"),
        ]));
        // the same test, but for the flag fio's JSON leaves out
        assert_eq!(
            TestOptions {
                time_based: false,
                ..o
            },
            json
        );
        assert_eq!(
            TestOptions::from_args(&args("--name=a --rw=read --name=b --rw=write")),
            Err(2)
        );
    }

    #[test]
    fn command_options_keep_global_and_per_job_apart() {
        let c = CommandOptions::from_args(&args("--direct=1 --name=a --bs=8k --name=b --bs=16k"));
        assert_eq!(c.global["direct"], "1");
        assert_eq!(c.for_job("a")["bs"], "8k");
        assert_eq!(c.for_job("a")["direct"], "1");
        assert_eq!(c.for_job("b")["bs"], "16k");
        assert_eq!(c.for_job("c").get("bs"), None);
        assert_eq!(c.merged()["bs"], "16k");
    }

    #[test]
    fn the_text_header_wins_for_what_fio_ran() {
        let header = Header {
            name: "x".into(),
            group: 0,
            rw: Some("randwrite".into()),
            bs: vec![(4096, 4096), (8192, 8192), (4096, 4096)],
            ioengine: Some("io_uring".into()),
            iodepth: Some(32),
        };
        let o = TestOptions::from_job_options(&map(&[("rw", "read"), ("iodepth", "1")]))
            .with_header(Some(&header));
        assert_eq!(o.rw.as_deref(), Some("randwrite"));
        assert_eq!(o.iodepth, Some(32));
        assert_eq!(o.ioengine.as_deref(), Some("io_uring"));
        // no bs option: the header's, for the direction written
        assert_eq!(o.block_size(), Some(8192));
        // a bs option stays when it gives a fixed size
        let o = TestOptions::from_job_options(&map(&[("bs", "64k")])).with_header(Some(&header));
        assert_eq!(o.block_size(), Some(65536));
    }

    fn cli(key: &str, engine: Option<&str>) -> Result<FioOption, Unresolved> {
        resolve(key, Spelling::CommandLine { engine })
    }

    fn job(name: &'static str) -> FioOption {
        FioOption {
            name,
            kind: OptionKind::Job,
        }
    }

    #[test]
    fn option_names_resolve_as_fio_reads_them() {
        // an alias is its option, in a job file and on a command line
        assert_eq!(resolve("readwrite", Spelling::JobFile), Ok(job("rw")));
        assert_eq!(resolve("blocksize", Spelling::JobFile), Ok(job("bs")));
        assert_eq!(cli("timeout", None), Ok(job("runtime")));
        assert_eq!(cli("iomem", None), Ok(job("mem")));
        assert_eq!(cli("ss", None), Ok(job("steadystate")));
        // an exact name wins over the longer names it begins
        assert_eq!(cli("iodepth", None), Ok(job("iodepth")));
        assert_eq!(cli("bs", None), Ok(job("bs")));
        // a command line takes an abbreviation of exactly one long name
        assert_eq!(cli("readw", None), Ok(job("rw")));
        assert_eq!(cli("buffere", None), Ok(job("buffered")));
        assert_eq!(cli("iodepth_lo", None), Ok(job("iodepth_low")));
        assert_eq!(cli("ramp_t", None), Ok(job("ramp_time")));
        assert_eq!(cli("opendi", None), Ok(job("opendir")));
        let command_line = |name| {
            Ok(FioOption {
                name,
                kind: OptionKind::CommandLine,
            })
        };
        assert_eq!(cli("minim", None), command_line("minimal"));
        // `profile` is a job option too, but fio's own comes first
        assert_eq!(cli("profile", None), command_line("profile"));
        assert_eq!(resolve("profile", Spelling::JobFile), Ok(job("profile")));
        // a job file does not
        assert_eq!(
            resolve("readw", Spelling::JobFile),
            Err(Unresolved::Unknown)
        );
        assert_eq!(
            resolve("output", Spelling::JobFile),
            Err(Unresolved::Unknown)
        );
        // an abbreviation of several long names is ambiguous to fio
        assert_eq!(
            cli("ramp", None),
            Err(Unresolved::Ambiguous(vec!["ramp_time", "ramp_size"]))
        );
        assert_eq!(
            cli("iodep", None),
            Err(Unresolved::Ambiguous(vec![
                "iodepth",
                "iodepth_batch",
                "iodepth_batch_submit",
                "iodepth_batch_complete_min",
                "iodepth_batch_complete",
                "iodepth_batch_complete_max",
                "iodepth_low",
            ]))
        );
        // a profile's options are long names too (fio 3.33 says the same)
        assert_eq!(
            cli("thr", None),
            Err(Unresolved::Ambiguous(vec![
                "thread",
                "threads",
                "threads-per-queue"
            ]))
        );
        assert_eq!(
            cli("dir", None),
            Ok(FioOption {
                name: "dir",
                kind: OptionKind::Profile
            })
        );
        assert_eq!(cli("xyzzy", None), Err(Unresolved::Unknown));
        assert_eq!(cli("", None), Err(Unresolved::Unknown));
        // an engine's options exist once that engine is chosen
        let hipri = Ok(FioOption {
            name: "hipri",
            kind: OptionKind::Engine,
        });
        assert_eq!(cli("hipri", Some("io_uring")), hipri);
        assert_eq!(cli("hipri", Some("libaio")), Err(Unresolved::Unknown));
        assert_eq!(
            cli("hipri", Some("pvsync2")),
            Err(Unresolved::Ambiguous(vec!["hipri", "hipri_percentage"])).or(hipri),
            "an exact name is no abbreviation"
        );
    }

    #[test]
    fn the_option_tables_hold_no_name_twice() {
        let mut names: Vec<&str> = JOB_OPTIONS
            .iter()
            .flat_map(|(n, a)| [*n, *a])
            .filter(|n| !n.is_empty())
            .chain(CLI_OPTIONS.iter().copied())
            .chain(PROFILE_OPTIONS.iter().copied())
            .collect();
        names.sort_unstable();
        let mut twice: Vec<&str> = names
            .windows(2)
            .filter(|w| w[0] == w[1])
            .map(|w| w[0])
            .collect();
        twice.dedup();
        // a job option and one of fio's own (see above), a job option
        // and tiobench's
        assert_eq!(twice, ["profile", "size"]);
        assert!(names.len() > 280, "{}", names.len());
    }

    #[test]
    fn imported_aliases_and_abbreviations_set_the_options_they_name() {
        // fio ran `randwrite`, buffered: the record must say so
        let o = TestOptions::from_args(&args(
            "--name=t --rw=randread --direct=1 --readwrite=randwrite --buffered=1 --blocksize=8k",
        ))
        .unwrap();
        assert_eq!(o.rw.as_deref(), Some("randwrite"));
        assert_eq!(o.direct, Some(0));
        assert_eq!(o.block_size(), Some(8192));
        // fio refuses `--blocks` as ambiguous: it sets nothing
        let o = TestOptions::from_args(&args("--name=t --rw=read --blocks=8k")).unwrap();
        assert_eq!(o.block_size(), None);
        let o = TestOptions::from_args(&args("--name=t --readw=randwrite --buffere=0 --bs=4k"))
            .unwrap();
        assert_eq!(o.test_id(1).as_deref(), Some("fio-randwrite-4k-qd1"));
        assert_eq!(o.direct, Some(1));
        // in a job file only a name or an alias counts
        let mut c = CommandOptions::default();
        c.add_line("t", "readwrite", "randwrite");
        c.add_line("t", "buffered", "1");
        c.add_line("t", "readw", "read");
        let o = TestOptions::from_job_options(&c.for_job("t"));
        assert_eq!((o.rw.as_deref(), o.direct), (Some("randwrite"), Some(0)));
        assert_eq!(c.for_job("t")["readw"], "read");
        // block sizes from bssplit or bsrange: no one `bs` to state
        for extra in ["--bssplit=4k/50:64k/50", "--blocksize_range=4k-64k"] {
            let o = TestOptions::from_args(&args(&format!("--name=t --rw=read --bs=4k {extra}")))
                .unwrap();
            assert_eq!(o.block_size(), None, "{extra}");
            assert!(!o.parameters(1).contains_key("bs"), "{extra}");
        }
    }

    fn suite(pairs: &[(&str, Value)]) -> Result<SuiteOptions> {
        suite_options(
            &pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }

    #[test]
    fn a_suite_s_keys_become_fio_s_names_or_are_refused() {
        let s = suite(&[
            ("readwrite", "randwrite".into()),
            ("buffered", 1.into()),
            ("iodepth_lo", 4.into()),
            ("ss", "iops_slope:5%".into()),
        ])
        .unwrap();
        let keys: Vec<&str> = s.params.keys().map(String::as_str).collect();
        assert_eq!(keys, ["direct", "iodepth_low", "rw", "steadystate"]);
        assert_eq!(s.params["rw"], "randwrite");
        assert_eq!(s.params["direct"], 0);
        assert_eq!(s.label("rw"), "`readwrite` (fio's `rw`)");
        assert_eq!(s.label("direct"), "`buffered` (fio's `direct`)");
        // fio is given an alias as written, an abbreviation written out
        assert_eq!(s.command_name("rw"), "readwrite");
        assert_eq!(s.command_name("iodepth_low"), "iodepth_low");
        assert_eq!(s.command_name("steadystate"), "ss");
        assert_eq!(
            suite(&[("buffered", false.into())]).unwrap().params["direct"],
            1
        );
        let e = |pairs: &[(&str, Value)]| suite(pairs).unwrap_err().to_string();
        assert_eq!(
            e(&[("ramp", 2.into())]),
            "fio parameter `ramp` abbreviates 2 fio options (ramp_time, ramp_size); fio refuses it as ambiguous: write the option's full name"
        );
        assert!(e(&[("iodep", 8.into())]).contains("(iodepth, iodepth_batch, "));
        assert!(e(&[("xyzzy", 1.into())]).starts_with("fio parameter `xyzzy` is no fio option"));
        assert_eq!(
            e(&[("output", "/etc/x".into())]),
            "fio parameter `output` cannot be set in a suite: it is fio's own command-line option `--output`, not a job option"
        );
        assert!(e(&[("outp", "/etc/x".into())]).contains("(output, output-format)"));
        assert!(e(&[("minim", true.into())]).contains("command-line option `--minimal`"));
        assert_eq!(
            e(&[("dir", "/etc".into())]),
            "fio parameter `dir` cannot be set in a suite: it is `dir` of fio's built-in profiles (`--profile`), not a job option"
        );
        assert_eq!(
            e(&[("rw", "read".into()), ("readwrite", "randwrite".into())]),
            "fio parameters `readwrite` and `rw` both set fio's `rw`, to different values (\"randwrite\" and \"read\"): give one"
        );
        assert!(
            e(&[("direct", 1.into()), ("buffered", 1.into())]).contains("both set fio's `direct`")
        );
        assert!(e(&[("buffered", "yes".into())]).contains("`buffered = \"yes\"`: expected 0 or 1"));
        // the same value twice is one setting
        let s = suite(&[("rw", "read".into()), ("readwrite", "read".into())]).unwrap();
        assert_eq!(s.params["rw"], "read");
        let s = suite(&[("direct", "0".into()), ("buffered", true.into())]).unwrap();
        assert_eq!(s.params["direct"], 0);
        // the chosen engine's options resolve, another engine's do not
        let s = suite(&[("ioengine", "io_uring".into()), ("hipri", 1.into())]).unwrap();
        assert_eq!(s.params["hipri"], 1);
        assert!(e(&[("hipri", 1.into())]).contains("`hipri` is no fio option"));
    }

    #[test]
    fn suite_parameters_say_time_based_as_run_writes_them() {
        let p = |v: Value| Params::from_iter([("time_based".to_string(), v)]);
        assert!(is_time_based(&p(Value::from(true))));
        assert!(is_time_based(&p(Value::from(1))));
        assert!(is_time_based(&p(Value::from("1"))));
        assert!(is_time_based(&p(Value::from("true"))));
        assert!(!is_time_based(&p(Value::from(false))));
        assert!(!is_time_based(&p(Value::from(0))));
        assert!(!is_time_based(&Params::new()));
    }
}
