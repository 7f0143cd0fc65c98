//! Suites (TOML) turned into jobs: which test runs with which tool, its
//! parameters, sizes resolved against the machine's memory, repetitions and
//! the exact command line.
//!
//! A suite file is a list of `[[test]]` tables. Each has an `id`, a `tool`
//! (`dd`, `fio`, `ioping`, `bonnie++`), optional `repeat`, `timeout_s` and
//! `headline` (the metric shown in the summary); every other key is a
//! parameter of the tool (see each tool's `command` builder). A file may
//! start from a shipped suite with `base = "quick"`: tests with the same id
//! take the file's parameters key by key, new ids are added.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};

use crate::record::{is_valid_id, Tool};
use crate::tools::argv::{BuildCtx, Invocation, Params};

use super::watch::{Watch, STATUS_INTERVAL_S};
use crate::timeline::stop::Bursting;

/// The `quick` suite shipped in the binary.
pub const QUICK: &str = include_str!("../../suites/quick.toml");
/// The `standard` suite shipped in the binary.
pub const STANDARD: &str = include_str!("../../suites/standard.toml");

/// One test of a suite, before sizes are resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct TestSpec {
    /// Stable test id.
    pub id: String,
    /// The tool that runs it.
    pub tool: Tool,
    /// Repetitions, when the test sets its own.
    pub repeat: Option<u32>,
    /// Time limit in seconds, when the test sets its own.
    pub timeout_s: Option<u64>,
    /// Metric shown in the summary, when the test names one.
    pub headline: Option<String>,
    /// Tool parameters.
    pub params: Params,
}

/// A suite: defaults and tests in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Suite {
    /// Suite name (`quick`, `standard`, or the file's `name`).
    pub name: String,
    /// Default repetitions per test.
    pub repeat: u32,
    /// Default time limit per test in seconds.
    pub timeout_s: u64,
    /// The tests, in the order they run.
    pub tests: Vec<TestSpec>,
}

/// One execution of one test.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// The test this job runs.
    pub test_id: String,
    /// Its tool.
    pub tool: Tool,
    /// 1-based repetition.
    pub repetition: u32,
    /// Repetitions of this test in the run.
    pub repetitions: u32,
    /// Time limit in seconds.
    pub timeout_s: u64,
    /// Metric shown in the summary.
    pub headline: String,
    /// The job's directory (inside the scratch directory).
    pub dir: PathBuf,
    /// The command line.
    pub invocation: Invocation,
    /// How a sustained test is watched while it runs (`None` for the
    /// others); its `bursting` is filled in from `--limits` by the run.
    pub watch: Option<Watch>,
    /// Whether repetitions may be left out where the spread is known (the
    /// first held its level, or the first two agree: [`SETTLED_SPREAD`]):
    /// the suite's count, not one `--repeat` asked for.
    pub may_settle: bool,
}

/// Two repetitions whose headline figures differ by at most this share of
/// the larger have shown the test's spread: the rest of a suite's
/// repetitions are not run (`--repeat N` runs all N).
pub const SETTLED_SPREAD: f64 = 0.05;

/// The fewest per-interval samples (fio takes one every 500 ms unless told
/// otherwise) in which a first repetition must have held its level for the
/// others to be left out: 10 s of them.
pub const HELD_SAMPLES: u64 = 20;

/// The seconds a fio test bound by its size alone runs at most: fio stops
/// at its size or then, whichever comes first. A suite's `runtime` wins.
pub const SIZE_BOUND_RUNTIME_S: u64 = 60;

impl Job {
    /// Whether this job reads the file the pre-fill wrote: a sustained fio
    /// test, or a fio test with `prefilled = true`.
    pub fn reads_prefill(&self) -> bool {
        is_sustained(&self.test_id, self.tool)
            || (self.tool == Tool::Fio
                && crate::tools::fio::wants_prefilled(&self.invocation.parameters))
    }
}

/// Whether a test of a suite does its I/O on the pre-filled file: the
/// sustained tests, and fio tests with `prefilled = true`.
fn reads_prefill(spec: &TestSpec) -> bool {
    is_sustained(&spec.id, spec.tool)
        || (spec.tool == Tool::Fio && crate::tools::fio::wants_prefilled(&spec.params))
}

/// Whether a test is one of the sustained ones that read the pre-filled file.
pub fn is_sustained(test_id: &str, tool: Tool) -> bool {
    tool == Tool::Fio && test_id.starts_with(SUSTAINED_PREFIX)
}

/// What a run does, in order: the jobs, and the pre-fill that writes the
/// sustained tests' file before the first of them.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The jobs, in the order they run.
    pub jobs: Vec<Job>,
    /// The pre-fill, when the plan holds a sustained test.
    pub prefill: Option<PrefillStep>,
}

/// The pre-fill: one fio write of incompressible data over the file every
/// sustained test of the run reads. It is no test: it has no record of its
/// own, and its facts go into the records of the sustained tests.
#[derive(Clone, Debug, PartialEq)]
pub struct PrefillStep {
    /// The fio run: test id [`crate::tools::fio::PREFILL_NAME`], its
    /// directory the one holding the pre-filled file.
    pub job: Job,
    /// The pre-filled file.
    pub file: PathBuf,
    /// Index of the first job reading the file: the pre-fill runs just
    /// before it.
    pub before: usize,
    /// Index of the last job reading it: the file is removed after it.
    pub last: usize,
}

/// The directory (in the scratch directory) of the pre-filled file.
pub const PREFILL_DIR: &str = "prefill";

/// The machine facts that size the jobs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Machine {
    /// Total memory in bytes, for `NxRAM` sizes.
    pub memory_bytes: Option<u64>,
    /// Whether the run is root (bonnie++ then needs `-u root`).
    pub is_root: bool,
    /// Free bytes on the target now, for fio's `size = "auto"`.
    pub free_bytes: Option<u64>,
}

/// What selects and shapes the jobs besides the suite.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// `--repeat`: repetitions of every test, bonnie++ included.
    pub repeat: Option<u32>,
    /// `--only`: run just these ids.
    pub only: Vec<String>,
    /// `--skip`: leave these ids out.
    pub skip: Vec<String>,
    /// `--timeout`: time limit per test in seconds.
    pub timeout_s: Option<u64>,
    /// `--sustained-minutes`: the runtime of the sustained tests (ids
    /// starting with [`SUSTAINED_PREFIX`]), overriding the suite's.
    pub sustained_minutes: Option<u64>,
    /// `--full-sustained`: the sustained tests run their whole window,
    /// unwatched.
    pub full_sustained: bool,
}

/// The ids of the tests that measure a volume over time, run before all
/// others so that they meet it as it was handed over.
pub const SUSTAINED_PREFIX: &str = "fio-sustained-";

/// Loads a suite by name (`quick`, `standard`) or from a TOML file.
pub fn load_suite(name_or_path: &str) -> Result<Suite> {
    match name_or_path {
        "quick" => parse_suite(QUICK, "quick"),
        "standard" => parse_suite(STANDARD, "standard"),
        path => {
            let text = std::fs::read_to_string(path).with_context(|| {
                format!("cannot read suite `{path}` (expected quick, standard or a TOML file)")
            })?;
            parse_suite(&text, path).with_context(|| format!("suite file `{path}`"))
        }
    }
}

/// Parses a suite's TOML text; `default_name` names it when the file does not.
pub fn parse_suite(text: &str, default_name: &str) -> Result<Suite> {
    let mut table: toml::Table = toml::from_str(text).context("not valid TOML")?;
    let base = match table.remove("base") {
        None => None,
        Some(toml::Value::String(b)) if b == "quick" || b == "standard" => Some(parse_suite(
            if b == "quick" { QUICK } else { STANDARD },
            &b,
        )?),
        Some(other) => bail!("`base = {other}`: expected \"quick\" or \"standard\""),
    };
    let name = match table.remove("name") {
        None => default_name.to_string(),
        Some(toml::Value::String(n)) => n,
        Some(other) => bail!("`name = {other}`: expected a string"),
    };
    let repeat = take_u64(&mut table, "repeat", "the suite")?;
    let timeout_s = take_u64(&mut table, "timeout_s", "the suite")?;
    let tests_value = table.remove("test");
    if let Some(key) = table.keys().next() {
        bail!("unknown suite key `{key}` (expected name, base, repeat, timeout_s, [[test]])");
    }
    let mut tests = Vec::new();
    match tests_value {
        None => {}
        Some(toml::Value::Array(items)) => {
            for (i, item) in items.into_iter().enumerate() {
                match item {
                    toml::Value::Table(t) => tests
                        .push(parse_test(t).with_context(|| format!("[[test]] number {}", i + 1))?),
                    _ => bail!("`test` must be an array of tables ([[test]])"),
                }
            }
        }
        Some(_) => bail!("`test` must be an array of tables ([[test]])"),
    }
    let mut suite = match base {
        Some(mut b) => {
            for t in tests {
                match b.tests.iter_mut().find(|x| x.id == t.id) {
                    Some(existing) => merge_test(existing, t)?,
                    None => b.tests.push(t),
                }
            }
            b.name = name;
            b
        }
        None => Suite {
            name,
            repeat: 1,
            timeout_s: 3600,
            tests,
        },
    };
    if let Some(r) = repeat {
        suite.repeat = to_repeat(r)?;
    }
    if let Some(t) = timeout_s {
        suite.timeout_s = t.max(1);
    }
    let mut seen = BTreeSet::new();
    for t in &suite.tests {
        if !seen.insert(t.id.as_str()) {
            bail!("test id `{}` appears twice", t.id);
        }
    }
    if suite.tests.is_empty() {
        bail!("the suite has no tests (expected [[test]] tables with id and tool)");
    }
    Ok(suite)
}

/// The most repetitions of a test, from `--repeat` or a suite. A run
/// plans every repetition up front (and `--list` prints each), so the
/// count bounds memory: 1000 is far above any useful statistic (published
/// comparisons use 3 to 10) and plans in well under a second, where 2^32
/// exhausts memory.
pub const MAX_REPEAT: u32 = 1000;

fn to_repeat(r: u64) -> Result<u32> {
    match u32::try_from(r) {
        Ok(n) if (1..=MAX_REPEAT).contains(&n) => Ok(n),
        _ => bail!("repeat {r}: expected a whole number from 1 to {MAX_REPEAT}"),
    }
}

fn take_u64(table: &mut toml::Table, key: &str, what: &str) -> Result<Option<u64>> {
    match table.remove(key) {
        None => Ok(None),
        Some(toml::Value::Integer(n)) if n >= 0 => Ok(Some(n as u64)),
        Some(other) => bail!("{what}: `{key} = {other}`: expected a non-negative whole number"),
    }
}

/// The longest test id a suite may give: a record id is `<run id>.<test
/// id>.r<repetition>` (a run id is 23 characters, a repetition at most
/// [`MAX_REPEAT`]), and must stay within [`crate::record::MAX_ID_LEN`].
pub const MAX_TEST_ID_LEN: usize = crate::record::MAX_ID_LEN - 30;

fn parse_test(mut t: toml::Table) -> Result<TestSpec> {
    let id = match t.remove("id") {
        Some(toml::Value::String(s)) if s.len() > MAX_TEST_ID_LEN => bail!(
            "test id `{}...` is {} characters long, over the limit of {MAX_TEST_ID_LEN} (a record id, `<run id>.<test id>.r<repetition>`, is at most {})",
            s.chars().take(40).collect::<String>(),
            s.chars().count(),
            crate::record::MAX_ID_LEN
        ),
        Some(toml::Value::String(s)) if is_valid_id(&s) => s,
        Some(other) => bail!("`id = {other}`: expected a string of letters, digits, `.`, `_`, `-`"),
        None => bail!("missing `id`"),
    };
    let tool = match t.remove("tool") {
        Some(toml::Value::String(s)) => parse_tool(&s).with_context(|| format!("test `{id}`"))?,
        Some(other) => bail!("test `{id}`: `tool = {other}`: expected a string"),
        None => bail!("test `{id}`: missing `tool` (dd, fio, ioping or bonnie++)"),
    };
    let repeat = take_u64(&mut t, "repeat", &format!("test `{id}`"))?
        .map(to_repeat)
        .transpose()?;
    let timeout_s = take_u64(&mut t, "timeout_s", &format!("test `{id}`"))?;
    let headline = match t.remove("headline") {
        None => None,
        Some(toml::Value::String(s)) => Some(s),
        Some(other) => bail!("test `{id}`: `headline = {other}`: expected a metric name"),
    };
    let mut params = Params::new();
    for (k, v) in t {
        if let Some(n) = crate::record::over_limit(&k, crate::record::MAX_NAME_CHARS) {
            bail!(
                "test `{id}`: {}",
                crate::record::too_long("a parameter name", n, crate::record::MAX_NAME_CHARS)
            );
        }
        let json =
            serde_json::to_value(&v).with_context(|| format!("test `{id}`: parameter `{k}`"))?;
        params.insert(k, json);
    }
    Ok(TestSpec {
        id,
        tool,
        repeat,
        timeout_s,
        headline,
        params,
    })
}

fn merge_test(existing: &mut TestSpec, new: TestSpec) -> Result<()> {
    if existing.tool != new.tool {
        bail!(
            "test `{}` runs {} in the base suite; a file can change its parameters but not its tool",
            new.id,
            existing.tool
        );
    }
    existing.repeat = new.repeat.or(existing.repeat);
    existing.timeout_s = new.timeout_s.or(existing.timeout_s);
    existing.headline = new.headline.or(existing.headline.take());
    crate::tools::command(existing.tool).drop_replaced(&mut existing.params, &new.params);
    for (k, v) in new.params {
        existing.params.insert(k, v);
    }
    Ok(())
}

/// The tool for a suite's `tool` value.
pub fn parse_tool(name: &str) -> Result<Tool> {
    crate::tools::by_name(name)
        .ok_or_else(|| anyhow!("unknown tool `{name}` (expected dd, fio, ioping or bonnie++)"))
}

/// Builds the command line of one test in `dir`.
pub fn build(spec: &TestSpec, ctx: &BuildCtx) -> Result<Invocation> {
    crate::tools::command(spec.tool)
        .build(&spec.params, ctx)
        .with_context(|| format!("test `{}`", spec.id))
}

/// The metric the summary shows for a test: the suite's `headline`, else
/// the tool's main figure.
pub fn headline(spec: &TestSpec) -> String {
    if let Some(h) = &spec.headline {
        return h.clone();
    }
    crate::tools::command(spec.tool)
        .headline(&spec.params)
        .to_string()
}

/// Turns a suite into jobs under `scratch` (one directory per job),
/// honouring `--only`, `--skip`, `--repeat` and `--timeout`, gives a fio
/// test without a `runtime` one of [`SIZE_BOUND_RUNTIME_S`], and puts the
/// pre-fill before the first sustained test (none when no sustained test is
/// selected). Fails on an unknown id in `--only`/`--skip`, or a parameter a
/// tool does not take.
///
/// The sustained tests read one file, `<scratch>/prefill/fio.dat`, which
/// the pre-fill writes with the largest of their sizes; fio's `size =
/// "auto"` is sized by `machine.free_bytes` ([`crate::tools::fio::auto_size`]).
pub fn plan(suite: &Suite, sel: &Selection, scratch: &Path, machine: &Machine) -> Result<Plan> {
    let known: BTreeSet<&str> = suite.tests.iter().map(|t| t.id.as_str()).collect();
    for id in sel.only.iter().chain(&sel.skip) {
        if !known.contains(id.as_str()) {
            let list: Vec<&str> = suite.tests.iter().map(|t| t.id.as_str()).collect();
            bail!(
                "unknown test id `{id}` (suite `{}` has: {})",
                suite.name,
                list.join(", ")
            );
        }
    }
    if sel.repeat == Some(0) {
        bail!("--repeat 0: expected at least 1");
    }
    if sel.sustained_minutes == Some(0) {
        bail!("--sustained-minutes 0: expected at least 1");
    }
    let prefill_dir = scratch.join(PREFILL_DIR);
    let prefill_file = prefill_dir.join("fio.dat");
    let mut jobs = Vec::new();
    for spec in &suite.tests {
        if !sel.only.is_empty() && !sel.only.contains(&spec.id) {
            continue;
        }
        if sel.skip.contains(&spec.id) {
            continue;
        }
        let repetitions = sel.repeat.or(spec.repeat).unwrap_or(suite.repeat).max(1);
        let mut timeout_s = sel
            .timeout_s
            .or(spec.timeout_s)
            .unwrap_or(suite.timeout_s)
            .max(1);
        let mut spec = spec.clone();
        if let Some(minutes) = sel.sustained_minutes {
            if spec.id.starts_with(SUSTAINED_PREFIX) {
                let runtime = minutes.saturating_mul(60);
                spec.params.insert("runtime".into(), runtime.into());
                // the limit leaves fio five minutes to lay out and finish
                if sel.timeout_s.is_none() {
                    timeout_s = timeout_s.max(runtime.saturating_add(300));
                }
            }
        }
        // every fio test is bounded in time as well as in size
        if spec.tool == Tool::Fio && !spec.params.contains_key("runtime") {
            spec.params
                .insert("runtime".into(), SIZE_BOUND_RUNTIME_S.into());
        }
        let spec = &spec;
        for repetition in 1..=repetitions {
            let dir = scratch.join(format!("{}.r{repetition}", spec.id));
            let ctx = BuildCtx {
                dir: &dir,
                memory_bytes: machine.memory_bytes,
                is_root: machine.is_root,
                test_id: &spec.id,
                free_bytes: machine.free_bytes,
                data_file: reads_prefill(spec).then_some(prefill_file.as_path()),
            };
            let mut invocation = build(spec, &ctx)?;
            let watch = sustained_watch(spec, &invocation, sel.full_sustained);
            if watch.as_ref().is_some_and(|w| !w.full) {
                // fio's cumulative status every second, into its output
                // file, for the watcher (see `src/run/watch.rs`)
                let at = invocation
                    .args
                    .iter()
                    .position(|a| a == "--output-format=json")
                    .unwrap_or(invocation.args.len());
                invocation
                    .args
                    .insert(at, format!("--status-interval={STATUS_INTERVAL_S}"));
            }
            jobs.push(Job {
                watch,
                test_id: spec.id.clone(),
                tool: spec.tool,
                repetition,
                repetitions,
                timeout_s,
                headline: headline(spec),
                dir,
                invocation,
                may_settle: sel.repeat.is_none(),
            });
        }
    }
    if jobs.is_empty() {
        bail!("--only/--skip left no test to run");
    }
    let prefill = prefill_step(&jobs, prefill_dir, prefill_file);
    Ok(Plan { jobs, prefill })
}

/// How a sustained test is watched: its window is its fio `runtime`
/// (`None` for other tests, and for one without a runtime). What is known
/// of the volume's bursts starts unknown; the run fills it in.
fn sustained_watch(spec: &TestSpec, inv: &Invocation, full: bool) -> Option<Watch> {
    if !is_sustained(&spec.id, spec.tool) {
        return None;
    }
    let window_s = inv.parameters.get("runtime")?.as_f64()?;
    let by_bw = crate::tools::judge(Tool::Fio).kind(&inv.parameters)
        == crate::metrics::TestKind::Throughput;
    Some(Watch {
        window_s,
        by_bw,
        bursting: Bursting::Unknown,
        full,
    })
}

/// The pre-fill of a plan's sustained tests: their largest size, with the
/// first one's `ioengine` and `direct`; `None` without a sustained test.
/// Its time limit allows 5 MB/s and five minutes besides.
fn prefill_step(jobs: &[Job], dir: PathBuf, file: PathBuf) -> Option<PrefillStep> {
    let readers: Vec<usize> = (0..jobs.len())
        .filter(|&i| jobs[i].reads_prefill())
        .collect();
    let (&before, &last) = (readers.first()?, readers.last()?);
    let size = readers
        .iter()
        .filter_map(|&i| jobs[i].invocation.parameters.get("size")?.as_u64())
        .max()?;
    let first = &jobs[before].invocation.parameters;
    let text = |key: &str, default: &str| match first.get(key) {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(serde_json::Value::Number(n)) => n.to_string(),
        _ => default.to_string(),
    };
    let invocation = crate::tools::fio::prefill_command(
        &file,
        size,
        &dir,
        &text("ioengine", "libaio"),
        &text("direct", "1"),
    );
    let job = Job {
        test_id: crate::tools::fio::PREFILL_NAME.to_string(),
        tool: Tool::Fio,
        repetition: 1,
        repetitions: 1,
        timeout_s: 300 + size / 5_000_000,
        headline: "write_bw".to_string(),
        dir,
        invocation,
        watch: None,
        may_settle: false,
    };
    Some(PrefillStep {
        job,
        file,
        before,
        last,
    })
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_suite_repeat_above_the_limit_is_refused_naming_it() {
        let e = parse_suite("repeat = 4294967295\n", "s").unwrap_err();
        assert!(format!("{e:#}").contains("1 to 1000"), "{e:#}");
        let e =
            parse_suite("[[test]]\nid = \"x\"\ntool = \"dd\"\nrepeat = 1001\n", "s").unwrap_err();
        assert!(format!("{e:#}").contains("1 to 1000"), "{e:#}");
        assert_eq!(
            parse_suite("base = \"quick\"\nrepeat = 1000\n", "s")
                .unwrap()
                .repeat,
            1000
        );
    }

    use super::*;

    #[test]
    fn a_fio_test_bound_by_size_alone_gets_a_runtime_and_a_suites_runtime_wins() {
        let suite = parse_suite(
            "[[test]]\nid = 'a'\ntool = 'fio'\nrw = 'randread'\nsize = '1G'\n\
             [[test]]\nid = 'b'\ntool = 'fio'\nrw = 'randread'\nsize = '1G'\nruntime = 30\n\
             [[test]]\nid = 'c'\ntool = 'dd'\nbs = '1M'\ncount = 1",
            "s",
        )
        .unwrap();
        let p = plan(
            &suite,
            &Default::default(),
            Path::new("/s"),
            &Default::default(),
        )
        .unwrap();
        let runtime = |i: usize| p.jobs[i].invocation.parameters.get("runtime").cloned();
        assert_eq!(runtime(0), Some(serde_json::json!(60.0)));
        assert!(p.jobs[0]
            .invocation
            .args
            .contains(&"--runtime=60".to_string()));
        assert_eq!(runtime(1), Some(serde_json::json!(30.0)));
        assert_eq!(runtime(2), None);
        // at most a second more than its runtime
        assert!(p.jobs[0].invocation.estimate_s <= 61.0);
    }
    use crate::tools::argv::OutputFrom;

    const GIB: u64 = 1 << 30;

    fn standard_jobs(sel: &Selection) -> Vec<Job> {
        let suite = load_suite("standard").unwrap();
        plan(
            &suite,
            sel,
            Path::new("/mnt/x/S"),
            &Machine {
                memory_bytes: Some(4 * GIB),
                is_root: true,
                free_bytes: None,
            },
        )
        .unwrap()
        .jobs
    }

    /// How a dd command names the incompressible input fed to it.
    fn fed(bytes: u64, file: &str) -> String {
        let seed = crate::tools::argv::Feed::seed_for(Path::new(file));
        format!("(diskdash: {bytes} incompressible bytes, xoshiro256++ seed {seed:#018x})")
    }

    fn command_of(jobs: &[Job], id: &str) -> String {
        jobs.iter()
            .find(|j| j.test_id == id)
            .map(|j| j.invocation.display())
            .unwrap_or_else(|| panic!("no job {id}"))
    }

    #[test]
    fn standard_suite_has_design_ids_and_repeats() {
        let jobs = standard_jobs(&Selection::default());
        let mut ids: Vec<&str> = jobs.iter().map(|j| j.test_id.as_str()).collect();
        ids.dedup();
        assert_eq!(
            ids,
            [
                "fio-sustained-randread-4k-qd32",
                "fio-sustained-read-1m-qd16",
                "fio-sustained-randwrite-4k-qd32",
                "fio-randread-4k-qd1",
                "fio-randrw70-4k-qd32",
                "fio-randread-4k-qd64",
                "fio-randwrite-4k-qd64",
                "dd-write-bulk",
                "dd-write-128k-fdatasync",
                "dd-write-8k-fdatasync",
                "dd-write-128k-dsync",
                "dd-write-8k-dsync",
                "ioping-latency",
                "ioping-seek",
                "ioping-seq",
                "ioping-seq-cached",
                "bonnie"
            ]
        );
        // the three sustained tests once, 12 tests three times, the two
        // tests of twice the memory (dd-write-bulk, bonnie++) once
        assert_eq!(jobs.len(), 3 + 12 * 3 + 2);
        for once in ["dd-write-bulk", "bonnie"] {
            let jobs: Vec<_> = jobs.iter().filter(|j| j.test_id == once).collect();
            assert_eq!((jobs.len(), jobs[0].repetitions), (1, 1), "{once}");
        }
        assert_eq!(jobs[18].repetition, 3);
        assert_eq!(
            jobs[18].dir,
            Path::new("/mnt/x/S/dd-write-128k-fdatasync.r3")
        );
        // --repeat runs them as often as it says
        let jobs = standard_jobs(&Selection {
            repeat: Some(2),
            ..Default::default()
        });
        assert_eq!(
            jobs.iter().filter(|j| j.test_id == "dd-write-bulk").count(),
            2
        );
    }

    #[test]
    fn sustained_tests_run_45_and_20_minutes_unless_told() {
        let jobs = standard_jobs(&Selection::default());
        let args = |j: &Job| j.invocation.args.clone();
        assert!(args(&jobs[0]).contains(&"--runtime=2700".to_string()));
        assert!(args(&jobs[0]).contains(&"--iodepth=32".to_string()));
        assert!(args(&jobs[0]).contains(&"--log_avg_msec=1000".to_string()));
        assert!(args(&jobs[1]).contains(&"--runtime=1200".to_string()));
        assert!(args(&jobs[1]).contains(&"--bs=1m".to_string()));
        let jobs = standard_jobs(&Selection {
            sustained_minutes: Some(5),
            ..Default::default()
        });
        for j in &jobs[..3] {
            assert!(
                args(j).contains(&"--runtime=300".to_string()),
                "{:?}",
                args(j)
            );
            // the most they run: watched, they may stop earlier
            assert_eq!(j.watch.as_ref().unwrap().window_s, 300.0);
        }
        assert_eq!((jobs[0].timeout_s, jobs[1].timeout_s), (3600, 7200));
        // other tests keep theirs
        assert!(args(&jobs[3]).contains(&"--runtime=20".to_string()));
        assert_eq!(jobs[15].test_id, "dd-write-bulk");
        assert!(!args(&jobs[15]).iter().any(|a| a.starts_with("--runtime")));
        assert_eq!(jobs[15].watch, None);
        let jobs = standard_jobs(&Selection {
            sustained_minutes: Some(240),
            ..Default::default()
        });
        // the time limit grows with the runtime
        assert_eq!(jobs[0].timeout_s, 240 * 60 + 300);
        // the planner knows they take their whole runtime: 65 min and more
        let all = standard_jobs(&Selection::default());
        let first_two: f64 = all[..2].iter().map(|j| j.invocation.estimate_s).sum();
        assert!(first_two >= 3900.0, "{first_two}");
        let quick = load_suite("quick").unwrap();
        let jobs = plan(
            &quick,
            &Selection::default(),
            Path::new("/s"),
            &Machine::default(),
        )
        .unwrap()
        .jobs;
        assert_eq!(jobs[0].test_id, "fio-sustained-randread-4k-qd32");
        assert!(jobs[0].invocation.estimate_s >= 21.0);
        assert!(args(&jobs[0]).contains(&"--runtime=20".to_string()));
        let zero = Selection {
            sustained_minutes: Some(0),
            ..Default::default()
        };
        assert!(plan(&quick, &zero, Path::new("/s"), &Machine::default()).is_err());
    }

    #[test]
    fn standard_commands_are_the_design_ones() {
        let jobs = standard_jobs(&Selection::default());
        assert_eq!(
            command_of(&jobs, "dd-write-bulk"),
            format!(
                "{} | LC_ALL=C dd of=/mnt/x/S/dd-write-bulk.r1/dd.dat bs=1M count=8192 iflag=fullblock conv=fdatasync",
                fed(8 * GIB, "/mnt/x/S/dd-write-bulk.r1/dd.dat")
            )
        );
        assert_eq!(
            command_of(&jobs, "dd-write-8k-dsync"),
            format!(
                "{} | LC_ALL=C dd of=/mnt/x/S/dd-write-8k-dsync.r1/dd.dat bs=8k count=16k iflag=fullblock oflag=dsync",
                fed(128 << 20, "/mnt/x/S/dd-write-8k-dsync.r1/dd.dat")
            )
        );
        assert_eq!(
            command_of(&jobs, "dd-write-128k-fdatasync"),
            format!(
                "{} | LC_ALL=C dd of=/mnt/x/S/dd-write-128k-fdatasync.r1/dd.dat bs=128k count=1k iflag=fullblock conv=fdatasync",
                fed(128 << 20, "/mnt/x/S/dd-write-128k-fdatasync.r1/dd.dat")
            )
        );
        assert_eq!(
            command_of(&jobs, "fio-randread-4k-qd64"),
            "fio --name=fio-randread-4k-qd64 --filename=/mnt/x/S/prefill/fio.dat \
             --rw=randread --bs=4k --iodepth=64 --ioengine=libaio --direct=1 --size=17179869184 \
             --runtime=20 --time_based \
             --output-format=json --output=/mnt/x/S/fio-randread-4k-qd64.r1/fio.json"
        );
        // the QD1, mixed and QD64 tests: time-based on the pre-filled file
        // (16 GiB: the free space is unknown), no per-second logs
        assert_eq!(
            command_of(&jobs, "fio-randrw70-4k-qd32"),
            "fio --name=fio-randrw70-4k-qd32 --filename=/mnt/x/S/prefill/fio.dat \
             --rw=randrw --bs=4k --iodepth=32 --ioengine=libaio --direct=1 --size=17179869184 \
             --runtime=20 --rwmixread=70 --time_based \
             --output-format=json --output=/mnt/x/S/fio-randrw70-4k-qd32.r1/fio.json"
        );
        assert_eq!(
            command_of(&jobs, "fio-randread-4k-qd1"),
            "fio --name=fio-randread-4k-qd1 --filename=/mnt/x/S/prefill/fio.dat \
             --rw=randread --bs=4k --iodepth=1 --ioengine=libaio --direct=1 --size=17179869184 \
             --runtime=20 --time_based \
             --output-format=json --output=/mnt/x/S/fio-randread-4k-qd1.r1/fio.json"
        );
        let qd1 = jobs
            .iter()
            .find(|j| j.test_id == "fio-randread-4k-qd1")
            .unwrap();
        assert_eq!(qd1.headline, "read_clat_p99");
        // dd's record says what it read
        let dd = jobs
            .iter()
            .find(|j| j.test_id == "dd-write-8k-dsync")
            .unwrap();
        assert_eq!(dd.invocation.parameters["input"], "incompressible");
        assert_eq!(dd.invocation.parameters["iflag"], "fullblock");
        assert_eq!(
            dd.invocation.stdin,
            Some(crate::tools::argv::Feed {
                bytes: 128 << 20,
                seed: crate::tools::argv::Feed::seed_for(Path::new(
                    "/mnt/x/S/dd-write-8k-dsync.r1/dd.dat"
                )),
            })
        );
        assert_eq!(
            command_of(&jobs, "ioping-latency"),
            "ioping -B -c 10 /mnt/x/S/ioping-latency.r1"
        );
        assert_eq!(
            command_of(&jobs, "ioping-seek"),
            "ioping -B -R /mnt/x/S/ioping-seek.r1"
        );
        assert_eq!(
            command_of(&jobs, "ioping-seq"),
            "ioping -B -RL /mnt/x/S/ioping-seq.r1"
        );
        assert_eq!(
            command_of(&jobs, "ioping-seq-cached"),
            "ioping -B -RLC /mnt/x/S/ioping-seq-cached.r1"
        );
        // 2x 4 GiB RAM = 8192 MiB, -r the RAM in MiB
        assert_eq!(
            command_of(&jobs, "bonnie"),
            "bonnie++ -d /mnt/x/S/bonnie.r1 -s 8192 -r 4096 -n 256 -f -q -u root"
        );
        let bulk = jobs.iter().find(|j| j.test_id == "dd-write-bulk").unwrap();
        assert_eq!(bulk.invocation.bytes, 8 * GIB);
        assert_eq!(bulk.invocation.parameters["count"], 8192);
        // block sizes in bytes, as the parsers give them for imported records
        assert_eq!(bulk.invocation.parameters["bs"], 1 << 20);
        let fio = jobs
            .iter()
            .find(|j| j.test_id == "fio-randread-4k-qd64")
            .unwrap();
        assert_eq!(fio.invocation.parameters["bs"], 4096);
        let imported = crate::tools::parse(
            Tool::Fio,
            include_str!("../../tests/fixtures/fio/randread-4k-qd64.json"),
        )
        .unwrap();
        assert_eq!(
            imported[0].parameters["bs"],
            fio.invocation.parameters["bs"]
        );
        // ioping's mode letters and times as an imported log gives them
        let seq = jobs.iter().find(|j| j.test_id == "ioping-seq").unwrap();
        let imported = crate::tools::ioping::read_command("ioping -RL /mnt").unwrap();
        assert_eq!(seq.invocation.parameters["flags"], "RL");
        assert_eq!(imported.parameters["flags"], "RL");
        assert_eq!(imported.test_id.as_deref(), Some(seq.test_id.as_str()));
        let quick = load_suite("quick").unwrap();
        let quick = plan(
            &quick,
            &Selection::default(),
            Path::new("/s"),
            &Machine::default(),
        )
        .unwrap()
        .jobs;
        let lat = quick
            .iter()
            .find(|j| j.test_id == "ioping-latency")
            .unwrap();
        assert_eq!(lat.invocation.parameters["interval"], 0.2);
        assert_eq!(lat.invocation.parameters["flags"], "");
        let imported = crate::tools::ioping::read_command("ioping -c 10 -i 0.2 /mnt").unwrap();
        assert_eq!(imported.parameters["interval"], 0.2);
        // bonnie++ sizes in bytes under the names its parser uses
        let bonnie = jobs.iter().find(|j| j.test_id == "bonnie").unwrap();
        let imported =
            crate::tools::bonnie::read_command("bonnie++ -d /mnt -s 8192 -r 4096 -n 256 -f -q")
                .unwrap();
        for key in ["file_size", "ram_size", "num_files", "skip_char_tests"] {
            assert_eq!(
                bonnie.invocation.parameters[key], imported.parameters[key],
                "{key}"
            );
        }
        assert_eq!(bonnie.invocation.parameters["file_size"], 8 * GIB);
        // fio's runtime in seconds, a float as the parser gives it
        let rr = quick
            .iter()
            .find(|j| j.test_id == "fio-randread-4k-qd64")
            .unwrap();
        let imported = crate::tools::parse(
            Tool::Fio,
            include_str!("../../tests/fixtures/fio/randread-4k-qd64.json"),
        )
        .unwrap();
        assert_eq!(rr.invocation.parameters["runtime"], 5.0);
        // Value == f64 compares numbers alike: the type must be checked too
        assert!(rr.invocation.parameters["runtime"].is_f64());
        assert!(imported[0].parameters["runtime"].is_f64());
    }

    fn standard_with_free(free: Option<u64>, sel: &Selection) -> Plan {
        let suite = load_suite("standard").unwrap();
        let machine = Machine {
            memory_bytes: Some(4 * GIB),
            is_root: true,
            free_bytes: free,
        };
        plan(&suite, sel, Path::new("/mnt/x/S"), &machine).unwrap()
    }

    #[test]
    fn size_auto_is_half_the_free_space_at_most_16_gib() {
        let size = |free| {
            let p = standard_with_free(free, &Selection::default());
            let sizes: Vec<u64> = p.jobs[..2]
                .iter()
                .map(|j| j.invocation.parameters["size"].as_u64().unwrap())
                .collect();
            assert_eq!(sizes[0], sizes[1]);
            let pre = p.prefill.unwrap();
            assert_eq!(pre.job.invocation.bytes, sizes[0]);
            sizes[0]
        };
        assert_eq!(size(Some(100 * GIB)), 16 * GIB);
        assert_eq!(size(Some(10 * GIB)), 5 * GIB);
        // rounded down to a MiB
        assert_eq!(size(Some(3 * GIB + 3)), 1536 << 20);
        assert_eq!(size(Some((1 << 20) * 7 + 5)), 3 << 20);
        // unknown free space: the most
        assert_eq!(size(None), 16 * GIB);
        // any fio test may take it
        let suite = parse_suite("[[test]]\nid = 't'\ntool = 'fio'\nsize = 'auto'", "f").unwrap();
        let machine = Machine {
            free_bytes: Some(2 * GIB),
            ..Default::default()
        };
        let j = &plan(&suite, &Selection::default(), Path::new("/s"), &machine)
            .unwrap()
            .jobs[0];
        assert_eq!(j.invocation.bytes, GIB);
        assert!(j.invocation.args.contains(&format!("--size={GIB}")));
    }

    #[test]
    fn a_prefill_writes_the_sustained_tests_file_once_before_the_first() {
        let p = standard_with_free(Some(10 * GIB), &Selection::default());
        let pre = p.prefill.as_ref().unwrap();
        // the sustained tests, then the QD1, mixed and QD64 tests' 3
        // repetitions each
        assert_eq!((pre.before, pre.last), (0, 14));
        assert_eq!(pre.file, Path::new("/mnt/x/S/prefill/fio.dat"));
        assert_eq!(pre.job.dir, Path::new("/mnt/x/S/prefill"));
        assert_eq!(pre.job.test_id, "prefill");
        let args = &pre.job.invocation.args;
        for want in [
            "--name=prefill",
            "--filename=/mnt/x/S/prefill/fio.dat",
            "--rw=write",
            "--bs=1M",
            "--direct=1",
            "--ioengine=libaio",
            "--refill_buffers",
            "--size=5368709120",
            "--output=/mnt/x/S/prefill/fio.json",
        ] {
            assert!(args.contains(&want.to_string()), "{want}: {args:?}");
        }
        // the sustained tests and those with `prefilled = true` read that
        // very file and size, and write none
        for j in &p.jobs[..15] {
            assert!(j.reads_prefill());
            assert_eq!(j.invocation.args[1], "--filename=/mnt/x/S/prefill/fio.dat");
            assert!(j.invocation.args.contains(&"--size=5368709120".to_string()));
            assert_eq!(j.invocation.bytes, 0);
            // their logs and output stay in their own directory
            assert!(j
                .invocation
                .args
                .contains(&format!("--output={}/fio.json", j.dir.display())));
        }
        assert!(p.jobs[15..].iter().all(|j| !j.reads_prefill()));
        assert_eq!(p.jobs[3].invocation.parameters["prefilled"], true);
        assert!(!p.jobs[0].invocation.parameters.contains_key("prefilled"));
        // about 5 GiB at 50 MB/s; a limit of 5 MB/s and five minutes
        assert!((pre.job.invocation.estimate_s - 108.4).abs() < 0.1);
        assert_eq!(pre.job.timeout_s, 300 + 5 * GIB / 5_000_000);
        // no sustained test selected: no pre-fill
        let only = |ids: &[&str]| Selection {
            only: ids.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        };
        let p = standard_with_free(Some(10 * GIB), &only(&["dd-write-bulk", "bonnie"]));
        assert_eq!(p.prefill, None);
        let skip = Selection {
            skip: vec![
                "fio-sustained-randread-4k-qd32".into(),
                "fio-sustained-read-1m-qd16".into(),
                "fio-sustained-randwrite-4k-qd32".into(),
                "fio-randread-4k-qd1".into(),
                "fio-randrw70-4k-qd32".into(),
                "fio-randread-4k-qd64".into(),
                "fio-randwrite-4k-qd64".into(),
            ],
            ..Default::default()
        };
        assert_eq!(standard_with_free(None, &skip).prefill, None);
        // the QD1 and mixed tests alone are pre-filled for too
        let p = standard_with_free(None, &only(&["fio-randrw70-4k-qd32", "bonnie"]));
        let pre = p.prefill.unwrap();
        assert_eq!((pre.before, pre.last), (0, 2));
        assert_eq!(pre.job.invocation.bytes, 16 * GIB);
        // one of them, after another test: the pre-fill goes just before it
        let p = standard_with_free(None, &only(&["fio-sustained-read-1m-qd16", "bonnie"]));
        let pre = p.prefill.unwrap();
        assert_eq!((pre.before, pre.last), (0, 0));
        assert_eq!(p.jobs[0].test_id, "fio-sustained-read-1m-qd16");
        let text = "[[test]]\nid = 'd'\ntool = 'dd'\ncount = 1\n\
                    [[test]]\nid = 'fio-sustained-a'\ntool = 'fio'\nsize = '64M'\nioengine = 'psync'\ndirect = 0\n\
                    [[test]]\nid = 'fio-sustained-b'\ntool = 'fio'\nsize = '128M'\n";
        let suite = parse_suite(text, "f").unwrap();
        let p = plan(
            &suite,
            &Selection {
                repeat: Some(2),
                ..Default::default()
            },
            Path::new("/s"),
            &Machine::default(),
        )
        .unwrap();
        let pre = p.prefill.unwrap();
        // after the two runs of `d`, until the last run of `fio-sustained-b`
        assert_eq!((pre.before, pre.last), (2, 5));
        // the largest of their sizes, with the first one's engine
        let args = &pre.job.invocation.args;
        assert!(
            args.contains(&format!("--size={}", 128u64 << 20)),
            "{args:?}"
        );
        assert!(args.contains(&"--ioengine=psync".to_string()));
        assert!(args.contains(&"--direct=0".to_string()));
        assert!(p.jobs[2]
            .invocation
            .args
            .contains(&format!("--size={}", 64u64 << 20)));
    }

    #[test]
    fn only_skip_and_repeat_select_jobs() {
        let sel = Selection {
            only: vec!["bonnie".into(), "ioping-seek".into()],
            skip: vec!["ioping-seek".into()],
            repeat: Some(2),
            timeout_s: Some(9),
            sustained_minutes: None,
            full_sustained: false,
        };
        let jobs = standard_jobs(&sel);
        assert_eq!(jobs.len(), 2);
        assert!(jobs
            .iter()
            .all(|j| j.test_id == "bonnie" && j.timeout_s == 9));
        let suite = load_suite("quick").unwrap();
        let bad = Selection {
            only: vec!["fio-nope".into()],
            ..Default::default()
        };
        let e = plan(&suite, &bad, Path::new("/s"), &Machine::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown test id `fio-nope`") && e.contains("ioping-seek"),
            "{e}"
        );
    }

    #[test]
    fn quick_suite_is_small_and_one_repetition() {
        let suite = load_suite("quick").unwrap();
        let jobs = plan(
            &suite,
            &Selection::default(),
            Path::new("/s"),
            &Machine::default(),
        )
        .unwrap()
        .jobs;
        assert_eq!(jobs.len(), 16);
        for j in &jobs {
            assert!(
                j.invocation.bytes <= 128 << 20,
                "{} writes {}",
                j.test_id,
                j.invocation.bytes
            );
            assert_eq!(j.repetitions, 1);
        }
        // not root: no -u
        assert!(!command_of(&jobs, "bonnie").contains("-u root"));
    }

    #[test]
    fn a_suite_file_overrides_parameters_and_adds_tests() {
        let text = r#"
            base = "quick"
            repeat = 2
            [[test]]
            id = "fio-randread-4k-qd64"
            tool = "fio"
            iodepth = 8
            [[test]]
            id = "fio-seqread-1m"
            tool = "fio"
            rw = "read"
            bs = "1M"
            size = "32M"
            repeat = 1
        "#;
        let suite = parse_suite(text, "mine.toml").unwrap();
        let sel = Selection {
            only: vec!["fio-randread-4k-qd64".into(), "fio-seqread-1m".into()],
            ..Default::default()
        };
        let jobs = plan(&suite, &sel, Path::new("/s"), &Machine::default())
            .unwrap()
            .jobs;
        assert_eq!(jobs.len(), 3);
        assert!(jobs[0].invocation.args.contains(&"--iodepth=8".to_string()));
        assert!(jobs[0]
            .invocation
            .args
            .contains(&"--rw=randread".to_string()));
        assert_eq!(jobs[2].test_id, "fio-seqread-1m");
        assert_eq!(jobs[2].invocation.bytes, 32 << 20);
        // a 1 MiB sequential read is there for its bandwidth
        assert_eq!(jobs[2].headline, "read_bw");
    }

    #[test]
    fn a_suite_file_can_size_a_dd_test_by_count_where_the_base_gives_size() {
        let text = "base = 'standard'\n[[test]]\nid = 'dd-write-bulk'\ntool = 'dd'\ncount = 100\n\
                    [[test]]\nid = 'dd-write-8k-dsync'\ntool = 'dd'\nsize = '1M'\n";
        let suite = parse_suite(text, "f").unwrap();
        let jobs = plan(
            &suite,
            &Selection::default(),
            Path::new("/s"),
            &Machine {
                memory_bytes: Some(GIB),
                ..Default::default()
            },
        )
        .map(|p| p.jobs)
        .unwrap();
        assert_eq!(
            command_of(&jobs, "dd-write-bulk"),
            format!(
                "{} | LC_ALL=C dd of=/s/dd-write-bulk.r1/dd.dat bs=1M count=100 iflag=fullblock conv=fdatasync",
                fed(100 << 20, "/s/dd-write-bulk.r1/dd.dat")
            )
        );
        assert_eq!(
            command_of(&jobs, "dd-write-8k-dsync"),
            format!(
                "{} | LC_ALL=C dd of=/s/dd-write-8k-dsync.r1/dd.dat bs=8k count=128 iflag=fullblock oflag=dsync",
                fed(1 << 20, "/s/dd-write-8k-dsync.r1/dd.dat")
            )
        );
    }

    #[test]
    fn suite_mistakes_are_named() {
        let e = |t: &str| format!("{:#}", parse_suite(t, "f").unwrap_err());
        assert!(e("[[test]]\nid='a'\ntool='hdparm'").contains("unknown tool `hdparm`"));
        assert!(e("[[test]]\ntool='dd'").contains("missing `id`"));
        assert!(e("colour = 1\n[[test]]\nid='a'\ntool='dd'").contains("unknown suite key `colour`"));
        assert!(e("[[test]]\nid='a'\ntool='dd'\n[[test]]\nid='a'\ntool='dd'").contains("twice"));
        let suite = parse_suite("[[test]]\nid='a'\ntool='dd'\nbz='1M'\ncount=1", "f").unwrap();
        let err = plan(
            &suite,
            &Selection::default(),
            Path::new("/s"),
            &Machine::default(),
        )
        .unwrap_err();
        assert!(
            format!("{err:#}").contains("unknown dd parameter `bz`"),
            "{err:#}"
        );
    }

    #[test]
    fn every_shipped_test_headlines_the_figure_it_exists_for() {
        for name in ["quick", "standard"] {
            let suite = load_suite(name).unwrap();
            let jobs = plan(
                &suite,
                &Selection::default(),
                Path::new("/mnt/x/S"),
                &Machine {
                    memory_bytes: Some(4 * GIB),
                    is_root: true,
                    free_bytes: Some(100 * GIB),
                },
            )
            .unwrap()
            .jobs;
            for j in &jobs {
                // a judged figure, never bookkeeping or a CPU measure
                let kind = crate::tools::judge(j.tool).kind(&j.invocation.parameters);
                if !kind.judged().is_empty() {
                    assert!(
                        kind.judges(&j.headline),
                        "{name} {}: headline {} is not judged in a {kind:?} test",
                        j.test_id,
                        j.headline
                    );
                }
            }
            let headline = |id: &str| {
                jobs.iter()
                    .find(|j| j.test_id == id)
                    .map(|j| j.headline.as_str())
                    .unwrap_or_else(|| panic!("{name}: no job {id}"))
            };
            // 4 KiB random: IOPS; bonnie++: a block figure, not per character
            assert_eq!(headline("fio-sustained-randread-4k-qd32"), "read_iops");
            assert_eq!(headline("fio-randwrite-4k-qd64"), "write_iops");
            assert_eq!(headline("bonnie"), "seq_block_write_bw");
            assert_eq!(headline("dd-write-bulk"), "write_bw");
            assert_eq!(headline("ioping-latency"), "lat_avg");
        }
        // 1 MiB and larger blocks: bandwidth
        let jobs = standard_jobs(&Selection::default());
        let read_1m = jobs
            .iter()
            .find(|j| j.test_id == "fio-sustained-read-1m-qd16");
        assert_eq!(read_1m.unwrap().headline, "read_bw");
    }

    #[test]
    fn fio_headlines_follow_block_size_pattern_and_depth() {
        let headline = |t: &str| {
            headline(
                &parse_suite(&format!("[[test]]\nid = 't'\ntool = 'fio'\n{t}"), "f")
                    .unwrap()
                    .tests[0],
            )
        };
        assert_eq!(headline("rw = 'read'\nbs = '1m'\niodepth = 16"), "read_bw");
        assert_eq!(headline("rw = 'write'\nbs = '4m'\niodepth = 8"), "write_bw");
        assert_eq!(
            headline("rw = 'randread'\nbs = '4k'\niodepth = 64"),
            "read_iops"
        );
        assert_eq!(
            headline("rw = 'randwrite'\nbs = '4k'\niodepth = 32"),
            "write_iops"
        );
        // a queue-depth-1 test is a latency test
        assert_eq!(
            headline("rw = 'randread'\nbs = '4k'\niodepth = 1"),
            "read_clat_p99"
        );
        assert_eq!(headline("rw = 'randwrite'\nbs = '4k'"), "write_clat_p99");
        // a mixed test leads with its reads; a suite's own choice stands
        assert_eq!(
            headline("rw = 'randrw'\nbs = '4k'\niodepth = 16"),
            "read_iops"
        );
        assert_eq!(
            headline("rw = 'read'\nbs = '1m'\nheadline = 'read_iops'"),
            "read_iops"
        );
    }

    fn one(toml_test: &str) -> Result<Job> {
        let suite = parse_suite(&format!("[[test]]\nid = 't'\n{toml_test}"), "f")?;
        plan(
            &suite,
            &Selection::default(),
            Path::new("/s"),
            &Machine {
                memory_bytes: Some(GIB),
                ..Default::default()
            },
        )
        .map(|p| p.jobs)
        .map(|mut j| j.remove(0))
    }

    #[test]
    fn fio_passes_other_options_but_not_where_it_writes() {
        let j = one("tool = 'fio'\nnumjobs = 4\ntime_based = true\nruntime = 30\nrw = 'randrw'")
            .unwrap();
        let args = &j.invocation.args;
        assert!(args.contains(&"--numjobs=4".to_string()), "{args:?}");
        assert!(args.contains(&"--time_based".to_string()));
        assert!(args.contains(&"--runtime=30".to_string()));
        assert_eq!(args.last().unwrap(), "--output=/s/t.r1/fio.json");
        assert_eq!(j.invocation.parameters["numjobs"], 4);
        assert_eq!(
            j.invocation.output,
            OutputFrom::File("/s/t.r1/fio.json".into())
        );
        let suite = parse_suite("[[test]]\nid = 't'\ntool = 'fio'", "f").unwrap();
        let jobs = plan(
            &suite,
            &Selection::default(),
            Path::new("/m:x"),
            &Machine::default(),
        )
        .map(|p| p.jobs)
        .unwrap();
        assert_eq!(jobs[0].invocation.args[1], "--filename=/m\\:x/t.r1/fio.dat");
        for key in [
            "filename = '/dev/sda'",
            "directory = '/'",
            "output = '/etc/x'",
        ] {
            let e = format!("{:#}", one(&format!("tool = 'fio'\n{key}")).unwrap_err());
            assert!(e.contains("cannot be set in a suite"), "{e}");
        }
    }

    #[test]
    fn a_time_based_fio_test_logs_every_second_into_its_directory() {
        let j = one("tool = 'fio'\ntime_based = true\nruntime = 20\nrw = 'randread'").unwrap();
        let args = &j.invocation.args;
        for want in [
            "--write_iops_log=/s/t.r1/fio",
            "--write_bw_log=/s/t.r1/fio",
            "--write_lat_log=/s/t.r1/fio",
            "--log_avg_msec=1000",
        ] {
            assert!(args.contains(&want.to_string()), "{want}: {args:?}");
        }
        // a size-bound test does not
        let j = one("tool = 'fio'\nruntime = 20").unwrap();
        assert!(!j.invocation.args.iter().any(|a| a.contains("log")));
        // the suite may neither set log options nor hide the start
        for key in ["log_avg_msec = 500", "log_offset = 1", "per_job_logs = 0"] {
            let e = format!("{:#}", one(&format!("tool = 'fio'\n{key}")).unwrap_err());
            assert!(e.contains("cannot be set in a suite"), "{key}: {e}");
        }
        let e = format!(
            "{:#}",
            one("tool = 'fio'\ntime_based = 1\nruntime = 20\nramp_time = 5").unwrap_err()
        );
        assert!(
            e.contains("`ramp_time` cannot be set on a time-based test"),
            "{e}"
        );
    }

    #[test]
    fn fio_options_that_write_elsewhere_are_refused_also_abbreviated() {
        // fio 3.33 overwrote every file under `opendir` with `rw = 'write'`, and
        // its command line takes `--opendi` for `--opendir`
        for key in [
            "opendir = '/etc'",
            "opendi = '/etc'",
            "write_iol = '/etc/x'",
            "read_iolog = 'trace'",
            "replay_redirect = '/dev/sda'",
            "merge_blktrace_file = '/etc/x'",
            "ioscheduler = 'none'",
            "cgroup = 'x'",
            "exec_pre = 'rm -rf /'",
            "trigger = 'reboot'",
            "client = 'host'",
            "profile = 'act'",
        ] {
            let e = format!("{:#}", one(&format!("tool = 'fio'\n{key}")).unwrap_err());
            assert!(e.contains("cannot be set in a suite"), "{key}: {e}");
        }
        // a key holding `=` would become `--filename=/etc/passwd`
        let e = format!(
            "{:#}",
            one("tool = 'fio'\n'filename=/etc/passwd' = true").unwrap_err()
        );
        assert!(e.contains("expected an option name"), "{e}");
        // a file behind the I/O buffers is refused, plain memory kinds pass
        let e = format!(
            "{:#}",
            one("tool = 'fio'\niomem = 'mmap:/etc/x'").unwrap_err()
        );
        assert!(e.contains("backing file"), "{e}");
        let j = one("tool = 'fio'\niomem = 'malloc'\nwrite_barrier = 4").unwrap();
        assert!(j.invocation.args.contains(&"--iomem=malloc".to_string()));
        assert!(j.invocation.args.contains(&"--write_barrier=4".to_string()));
    }

    #[test]
    fn dd_sizes_are_read_as_dd_reads_them() {
        let bytes = |t: &str| {
            let j = one(&format!("tool = 'dd'\n{t}")).unwrap();
            (j.invocation.bytes, j.invocation.parameters["count"].clone())
        };
        // dd 9.1: bs=1MB count=2 copies 2000000 bytes; bs=1KB is 1000
        assert_eq!(bytes("bs = '1MB'\ncount = 2"), (2_000_000, 2.into()));
        assert_eq!(bytes("bs = '1KB'\ncount = '1k'"), (1_024_000, 1024.into()));
        assert_eq!(bytes("bs = '1MiB'\ncount = 3"), (3 << 20, 3.into()));
        assert_eq!(bytes("bs = '128k'\ncount = '1k'"), (128 << 20, 1024.into()));
        assert_eq!(bytes("bs = '2b'\ncount = 4"), (4096, 4.into()));
        // a size is cut into blocks of dd's size
        assert_eq!(bytes("bs = '1MB'\nsize = '10M'"), (10_000_000, 10.into()));
        let e = |t: &str| format!("{:#}", one(&format!("tool = 'dd'\n{t}")).unwrap_err());
        // dd 9.1: count=1kB copies 1000 bytes, not 1000 blocks
        assert!(e("bs = '1M'\ncount = '1kB'").contains("counts bytes"));
        // dd refuses these itself: refused before the run starts
        assert!(e("bs = '1.5k'\ncount = 1").contains("whole number"));
        assert!(e("bs = '1m'\ncount = 1").contains("dd suffix"));
        assert!(e("bs = '1x2'\ncount = 1").contains("dd suffix"));
    }

    #[test]
    fn fio_sizes_are_read_as_fio_reads_them() {
        // fio 3.33 with its default kb_base=1024: size=1MiB wrote 999424 bytes
        // (10^6 cut to whole blocks), size=1MB and size=1M 1048576
        let size = |t: &str| {
            let j = one(&format!("tool = 'fio'\n{t}")).unwrap();
            assert_eq!(j.invocation.parameters["size"], j.invocation.bytes);
            j.invocation.bytes
        };
        assert_eq!(size("size = '1MiB'"), 1_000_000);
        assert_eq!(size("size = '1MB'"), 1 << 20);
        assert_eq!(size("size = '64M'"), 64 << 20);
        assert_eq!(size("size = '1MiB'\nkb_base = 1000"), 1 << 20);
        assert_eq!(size("size = '1MB'\nkb_base = 1000"), 1_000_000);
        let j = one("tool = 'fio'\nsize = '1MiB'").unwrap();
        assert!(j.invocation.args.contains(&"--size=1MiB".to_string()));
        // fio applies kb_base to the options after it only
        let j = one("tool = 'fio'\nsize = '1MB'\nkb_base = 1000").unwrap();
        assert_eq!(j.invocation.args[2], "--kb_base=1000");
        assert_eq!(j.invocation.parameters["kb_base"], 1000);
        let e = format!("{:#}", one("tool = 'fio'\nsize = 'big'").unwrap_err());
        assert!(e.contains("expected a size"), "{e}");
    }

    #[test]
    fn builders_refuse_what_cannot_run() {
        let e = |t: &str| format!("{:#}", one(t).unwrap_err());
        assert!(e("tool = 'dd'\ncount = 1\nsize = '1M'").contains("not both"));
        assert!(e("tool = 'dd'").contains("expected `count`"));
        assert!(e("tool = 'ioping'").contains("never stops"));
        assert!(e("tool = 'ioping'\ncount = 'ten'").contains("whole number"));
        assert!(e("tool = 'bonnie++'").contains("at least 1M"));
        // a RAM-sized fio file is passed resolved
        let j = one("tool = 'fio'\nsize = '0.5xRAM'").unwrap();
        assert!(j.invocation.args.contains(&format!("--size={}", GIB / 2)));
    }
}
