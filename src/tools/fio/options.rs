//! fio's options and what they mean: how a command line's `--key=value`
//! arguments, a job file's `key=value` lines and the `"job options"` of
//! fio's JSON are read into the options that define a test (rw, block
//! size, depth, engine, size, jobs, runtime, time-based), with fio's own
//! rules for sizes (`kb_base`), times, flags and `rw` spellings.
//!
//! The parser (`combine`, `pasted`) and the command builder (`invocation`)
//! read options only through this module.

use std::collections::BTreeMap;

use serde_json::Value;

use super::test_id;
use super::Header;
use crate::tools::argv::Params;
use crate::units;

/// Options as fio states them: key to value text, a bare flag with an
/// empty value.
pub(super) type OptionMap = BTreeMap<String, String>;

/// fio JSON's `"global options"` or a job's `"job options"` as an
/// [`OptionMap`]: fio writes every value as a string; a number or boolean
/// is taken as its text, anything else is skipped.
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
            out.insert(k.clone(), s);
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
    /// `--name`) and per-job options. Quotes around a value are dropped;
    /// an argument that is no option (a job file's name) is skipped.
    pub(super) fn add_args(&mut self, args: &[String]) {
        let mut job: Option<String> = None;
        for a in args {
            let Some(opt) = a.strip_prefix("--").or_else(|| a.strip_prefix('-')) else {
                continue;
            };
            let (k, v) = opt.split_once('=').unwrap_or((opt, ""));
            let v = v.trim_matches(['"', '\'']).to_string();
            if k == "name" {
                job = Some(v.clone());
                self.per_job.entry(v).or_default();
                continue;
            }
            match &job {
                Some(j) => {
                    self.per_job
                        .entry(j.clone())
                        .or_default()
                        .insert(k.to_string(), v);
                }
                None => {
                    self.global.insert(k.to_string(), v);
                }
            }
        }
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
    /// `rw` (or `readwrite`) without a `:N` suffix; `readwrite` is `rw`.
    pub(super) rw: Option<String>,
    /// Block size per direction (read, write, trim) as `(min, max)` bytes;
    /// empty when none is stated or it cannot be read.
    pub(super) bs: Vec<(u64, u64)>,
    pub(super) iodepth: Option<u32>,
    pub(super) ioengine: Option<String>,
    /// `direct` as 1 or 0.
    pub(super) direct: Option<u32>,
    /// `size` in bytes.
    pub(super) size: Option<u64>,
    pub(super) numjobs: Option<u32>,
    /// `runtime` (or `timeout`) in seconds.
    pub(super) runtime: Option<f64>,
    /// `time_based` given (a bare flag or `1`). fio's JSON does not echo
    /// it in `"job options"`, so a test read from JSON alone is never
    /// time-based here.
    pub(super) time_based: bool,
}

impl TestOptions {
    /// Reads one job's options: fio JSON's `"job options"`, a job file's
    /// lines or a command line's arguments, later ones overriding earlier.
    /// `kb_base=1000` turns the meaning of size suffixes round (see
    /// [`option_size`]).
    pub(super) fn from_job_options(opts: &OptionMap) -> Self {
        let kb_base_si = opts.get("kb_base").is_some_and(|v| v.trim() == "1000");
        let rw = opt(opts, &["rw", "readwrite"]).map(normalise_rw);
        let bs = opt(opts, &["bs", "blocksize"])
            .and_then(|v| option_bs(v, kb_base_si))
            .unwrap_or_default();
        TestOptions {
            rw,
            bs,
            iodepth: opt(opts, &["iodepth"]).and_then(|v| v.trim().parse().ok()),
            ioengine: opt(opts, &["ioengine"]).map(str::to_string),
            direct: opt(opts, &["direct"]).and_then(flag_value),
            size: opt(opts, &["size"]).and_then(|v| option_size(v, kb_base_si)),
            numjobs: opt(opts, &["numjobs"]).and_then(|v| v.trim().parse().ok()),
            runtime: opt(opts, &["runtime", "timeout"]).and_then(option_seconds),
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

/// The first of `keys` that is set, if its value is not blank.
fn opt<'a>(opts: &'a OptionMap, keys: &[&str]) -> Option<&'a str> {
    keys.iter()
        .find_map(|k| opts.get(*k))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A job's `"job options"` as fio 3.x writes them in its JSON.
    fn map(pairs: &[(&str, &str)]) -> OptionMap {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
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
