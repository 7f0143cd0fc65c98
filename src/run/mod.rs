//! `diskdash run`: plan (suite → jobs), execute the tools, write records as
//! each test ends.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use anyhow::{bail, Context, Result};

use crate::error::usage;
use crate::record::{self, Host, Raw, Record, Source, Status, Subject, Target, TestInfo, Tool};

pub mod doctor;
pub mod exec;
pub mod host;
pub mod plan;
pub mod progress;
pub mod scratch;

use crate::tools::argv::OutputFrom;
use exec::{Executor, Outcome, RealExecutor};
use plan::{Job, PrefillStep};
use progress::Progress;
use scratch::Scratch;

/// Free space kept on top of what a test writes: 64 MiB or 5 %, the larger.
pub fn margin(bytes: u64) -> u64 {
    (64u64 << 20).max(bytes / 20)
}

/// Runs the command; returns the process exit status: 0 all ok, 1 some
/// failed or skipped, 2 a usage error, 128+N after signal N.
pub fn command(opts: &RunOptions) -> Result<u8> {
    let signal = Arc::new(AtomicUsize::new(0));
    exec::install_signal_handlers(&signal)?;
    let mut executor = RealExecutor::new(Arc::clone(&signal));
    run_with(opts, &mut executor, &signal)
}

/// What one `diskdash run` is asked to do.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Directory to benchmark (required unless only listing the suite).
    pub target: Option<PathBuf>,
    /// `quick`, `standard`, or a suite file's path.
    pub suite: String,
    /// Where records go.
    pub out: Out,
    /// What is measured, for every record.
    pub subject: Subject,
    /// Which tests, how often, with what time limit.
    pub selection: plan::Selection,
    /// Print what would run and touch nothing.
    pub dry_run: bool,
    /// List the suite's tests with their commands.
    pub list: bool,
    /// Remove scratch directories that runs no longer alive left behind.
    pub clean_stale: bool,
}

/// Runs `diskdash run` with `executor`; `signal` holds the number of a
/// signal received (0 for none). A suite that does not load, a bad target
/// or a records directory that cannot be made is a usage error.
pub fn run_with(
    opts: &RunOptions,
    executor: &mut dyn Executor,
    signal: &AtomicUsize,
) -> Result<u8> {
    let prepared = prepare(opts).map_err(usage)?;
    match prepared {
        Prepared::Printed => Ok(0),
        Prepared::Run(p) => execute(*p, executor, signal),
    }
}

enum Prepared {
    /// `--list` or `--dry-run` printed what they print.
    Printed,
    Run(Box<Ready>),
}

struct Ready {
    target: PathBuf,
    scratch: PathBuf,
    run_id: String,
    subject: Subject,
    jobs: Vec<Job>,
    prefill: Option<PrefillStep>,
    out: Out,
    clean_stale: bool,
}

/// Where records go.
#[derive(Clone, Debug)]
pub enum Out {
    /// Below this directory, one folder per study, offering and run.
    Dir(PathBuf),
    /// As JSON Lines on standard output.
    Stdout,
}

/// A run id: UTC time and a short random part (`20261130T101500Z-3f9a1c`).
pub fn new_run_id() -> String {
    use sha2::Digest;
    let now = SystemTime::now();
    let stamp = humantime::format_rfc3339_seconds(now)
        .to_string()
        .replace(['-', ':'], "");
    let nanos = now
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let seed = format!("{nanos}-{}-{:p}", std::process::id(), &now);
    let hash = sha2::Sha256::digest(seed.as_bytes());
    let hex: String = hash.iter().take(3).map(|b| format!("{b:02x}")).collect();
    format!("{stamp}-{hex}")
}

fn prepare(opts: &RunOptions) -> Result<Prepared> {
    let subject = opts.subject.clone();
    let suite = plan::load_suite(&opts.suite)?;
    let sel = &opts.selection;
    let mut machine = plan::Machine {
        memory_bytes: host::read_memory(),
        is_root: host::is_root(),
        free_bytes: None,
    };
    let run_id = new_run_id();
    if opts.list {
        let p = plan::plan(&suite, sel, Path::new("SCRATCH"), &machine)?;
        let auto = suite.tests.iter().any(|t| {
            t.params.get("size").and_then(|v| v.as_str()) == Some(crate::tools::fio::AUTO_SIZE)
        });
        print!(
            "{}",
            list_text(&suite.name, &p.jobs, p.prefill.as_ref(), auto)
        );
        return Ok(Prepared::Printed);
    }
    let Some(target_arg) = &opts.target else {
        bail!("--target DIR is required (the directory to benchmark)");
    };
    let target = scratch::check_target(target_arg)?;
    let scratch = target.join(scratch::scratch_name(&run_id));
    // `size = "auto"` is sized by the space free now
    machine.free_bytes = host::free_bytes(&target);
    let plan::Plan { jobs, prefill } = plan::plan(&suite, sel, &scratch, &machine)?;
    let out = opts.out.clone();
    if opts.dry_run {
        print!(
            "{}",
            dry_run_text(
                &suite.name,
                &target,
                &scratch,
                &jobs,
                prefill.as_ref(),
                machine.free_bytes
            )
        );
        return Ok(Prepared::Printed);
    }
    if matches!(out, Out::Stdout) {
        stdout_takes_records()?;
    }
    Ok(Prepared::Run(Box::new(Ready {
        target,
        scratch,
        run_id,
        subject,
        jobs,
        prefill,
        out,
        clean_stale: opts.clean_stale,
    })))
}

/// Fails when standard output is closed or `/dev/null`: `--out -` would
/// stream every record into nothing.
fn stdout_takes_records() -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    // a closed stdout is /dev/null by now: Rust's runtime opens it there
    // at startup, so that one check covers both
    let fd1 = std::fs::metadata("/proc/self/fd/1").or_else(|_| std::fs::metadata("/dev/stdout"));
    let null = std::fs::metadata("/dev/null");
    if let (Ok(a), Ok(b)) = (fd1, null) {
        if a.rdev() == b.rdev() && a.dev() == b.dev() && a.ino() == b.ino() {
            bail!("--out -: standard output is closed or /dev/null, so the records would be lost (redirect it to a file, or give --out DIR)");
        }
    }
    Ok(())
}

fn list_text(suite: &str, jobs: &[Job], prefill: Option<&PrefillStep>, auto: bool) -> String {
    let mut s = format!(
        "suite {suite} (SCRATCH is the scratch directory, DIR the job's directory in it{})\n",
        if auto {
            format!(
                "; `size = \"auto\"` is shown as on a target with {} free or more",
                gib(2 * crate::tools::fio::AUTO_SIZE_MAX)
            )
        } else {
            String::new()
        }
    );
    let mut seen = Vec::new();
    for (i, j) in jobs.iter().enumerate() {
        if let Some(p) = prefill.filter(|p| p.before == i) {
            s.push_str(&format!(
                "pre-fill  [fio, once before {}; not a test: it writes the file the sustained tests read]\n    {}\n",
                j.test_id,
                p.job.invocation.display()
            ));
        }
        if seen.contains(&&j.test_id) {
            continue;
        }
        seen.push(&j.test_id);
        s.push_str(&format!(
            "{}  [{}, x{}]\n    {}\n",
            j.test_id,
            j.tool,
            j.repetitions,
            j.invocation
                .display()
                .replace(&format!("SCRATCH/{}.r1", j.test_id), "DIR")
        ));
    }
    s
}

fn gib(bytes: u64) -> String {
    format!("{:.2} GiB", bytes as f64 / (1u64 << 30) as f64)
}

fn dry_run_text(
    suite: &str,
    target: &Path,
    scratch: &Path,
    jobs: &[Job],
    prefill: Option<&PrefillStep>,
    free: Option<u64>,
) -> String {
    let mut s = format!(
        "dry run of suite {suite}: {} jobs{} against `{}` (nothing is written)\nscratch directory: {}\nfree space: {}\n",
        jobs.len(),
        if prefill.is_some() { " and a pre-fill" } else { "" },
        target.display(),
        scratch.display(),
        free.map(gib).unwrap_or_else(|| "unknown".into())
    );
    let not_enough = |free: Option<u64>, bytes: u64| match free {
        Some(f) if f < bytes.saturating_add(margin(bytes)) => {
            "  NOT ENOUGH FREE SPACE: would be skipped"
        }
        _ => "",
    };
    let mut total_s = 0.0;
    for (i, j) in jobs.iter().enumerate() {
        let mut free_now = free;
        if let Some(p) = prefill {
            let bytes = p.job.invocation.bytes;
            if p.before == i {
                total_s += p.job.invocation.estimate_s;
                s.push_str(&format!(
                    "pre-fill before {} (once, not a test): writes {} of incompressible data, \
                     the file the sustained tests read; about {}, limit {} s{}\n    {}\n",
                    j.test_id,
                    gib(bytes),
                    progress::clock(p.job.invocation.estimate_s),
                    p.job.timeout_s,
                    not_enough(free, bytes),
                    p.job.invocation.display()
                ));
            }
            // the pre-filled file stays until the last sustained test ends
            if (p.before..=p.last).contains(&i) {
                free_now = free.map(|f| f.saturating_sub(bytes));
            }
        }
        let fits = not_enough(free_now, j.invocation.bytes);
        total_s += j.invocation.estimate_s;
        let writes = if j.reads_prefill() && prefill.is_some() {
            "reads the pre-filled file".to_string()
        } else {
            format!("writes up to {}", gib(j.invocation.bytes))
        };
        s.push_str(&format!(
            "{} r{}/{}: {writes}, limit {} s{fits}\n    {}\n",
            j.test_id,
            j.repetition,
            j.repetitions,
            j.timeout_s,
            j.invocation.display()
        ));
    }
    s.push_str(&format!(
        "rough duration: {}{} (the tools' speed decides)\n",
        progress::clock(total_s),
        if prefill.is_some() {
            ", the pre-fill included"
        } else {
            ""
        }
    ));
    s
}

/// The directory a run's records go to: `<out>/<study>/<offering>/<run_id>`,
/// `unknown` for a study or offering not given.
pub fn records_dir(out: &Path, subject: &Subject, run_id: &str) -> PathBuf {
    out.join(record::subject_dir(subject)).join(run_id)
}

/// What every record of the run shares.
struct Facts<'a> {
    run_id: &'a str,
    subject: &'a Subject,
    host: &'a Host,
    target: &'a Target,
}

fn execute(ready: Ready, executor: &mut dyn Executor, signal: &AtomicUsize) -> Result<u8> {
    let Ready {
        target,
        scratch,
        run_id,
        subject,
        jobs,
        prefill,
        out,
        clean_stale: opts_clean_stale,
    } = ready;
    let host_facts = host::host();
    let target_facts = host::target(&target);
    let dir = match &out {
        Out::Dir(o) => Some(records_dir(o, &subject, &run_id)),
        Out::Stdout => None,
    };
    for found in scratch::scratches(&target) {
        if opts_clean_stale && !found.alive {
            match scratch::remove_stale(&found) {
                Ok(()) => eprintln!("removed {}", scratch::describe(&found)),
                Err(e) => eprintln!("warning: {e:#}"),
            }
        } else {
            eprintln!("warning: scratch directory {}", scratch::describe(&found));
        }
    }
    // a target that cannot be written is found first (a usage error, and
    // no empty records directory left behind), and a records directory
    // that cannot be made now, not after the first test
    let scratch = Scratch::create(scratch).map_err(usage)?;
    if let Some(d) = &dir {
        crate::fsio::create_dir(d)
            .context("check --out")
            .map_err(usage)?;
    }
    let mut progress = Progress::new(jobs.len());
    progress.line(&format!(
        "diskdash run {run_id}: {} jobs against `{}`{}",
        jobs.len(),
        target.display(),
        prefill
            .as_ref()
            .map(|p| format!(
                ", after a pre-fill of {} before {}",
                gib(p.job.invocation.bytes),
                jobs[p.before].test_id
            ))
            .unwrap_or_default()
    ));
    let ctx = Facts {
        run_id: &run_id,
        subject: &subject,
        host: &host_facts,
        target: &target_facts,
    };
    let mut versions: BTreeMap<Tool, Option<String>> = BTreeMap::new();
    let mut records: Vec<Record> = Vec::new();
    let mut stopped_by = None;
    let mut write_error = None;
    let mut vanished_error = None;
    let mut prior = record::PriorIo::default();
    // what the pre-fill did, once it ran; the sustained tests carry it
    let mut prefilled: Option<PrefillDone> = None;
    for (index, job) in jobs.iter().enumerate() {
        let sig = signal.load(Ordering::SeqCst);
        if sig != 0 {
            stopped_by = Some(sig as i32);
            break;
        }
        if let Some(step) = prefill.as_ref().filter(|p| p.before == index) {
            progress.start_step(
                "pre-fill",
                step.job.invocation.estimate_s + progress.estimate_left(&jobs[index..]),
            );
            let (done, interrupted) = run_prefill(&ctx, step, &scratch, executor, &progress);
            if let Some(d) = &done {
                prior.seconds += d.facts.seconds;
                prior.bytes += d.moved;
            }
            prefilled = done;
            if interrupted.is_some() {
                stopped_by = interrupted;
                break;
            }
        }
        progress.start(index, &jobs);
        let version = versions
            .entry(job.tool)
            .or_insert_with(|| {
                if executor.available(&job.invocation.program) {
                    executor.version(job.tool)
                } else {
                    None
                }
            })
            .clone();
        let sustained = job.reads_prefill().then_some(prefilled.as_ref()).flatten();
        let (mut record, interrupted) = match sustained {
            // no measurement of blocks nobody wrote: the test does not run
            Some(p) if p.facts.error.is_some() => {
                (prefill_failed(&ctx, job, version.as_deref(), p), None)
            }
            _ => run_job(&ctx, job, &scratch, executor, version.as_deref()),
        };
        if let Some(p) = sustained {
            record.prefill = Some(Box::new(p.facts.clone()));
        }
        record.prior_io = Some(prior.clone());
        prior.seconds += record.duration_s.unwrap_or(0.0);
        prior.bytes += bytes_moved(&record, job);
        // a test whose scratch vanished under it measured nothing we can
        // name (or another disk): its record says so and the run stops
        let vanished = scratch.verify().err();
        if let Some(e) = &vanished {
            record.status = Status::Failed;
            record.metrics.clear();
            if !record
                .error
                .as_deref()
                .is_some_and(|m| m.starts_with("target vanished"))
            {
                record.error = Some(format!("{e:#}"));
            }
        }
        let record = passing_check(record);
        let written = match &dir {
            Some(d) => write_record_file(d, &record),
            None => write_record_line(&record),
        };
        progress.finish_job(index, job, &record);
        // the next test gets the space back; the pre-filled file once the
        // last sustained test is done with it
        if let Err(e) = scratch.clear(&job.dir) {
            progress.line(&format!("warning: {e:#}"));
        }
        if let Some(step) = prefill.as_ref().filter(|p| p.last == index) {
            if let Err(e) = scratch.clear(&step.job.dir) {
                progress.line(&format!("warning: {e:#}"));
            }
        }
        if let Err(e) = written {
            // the measurement must not be lost with the file: it goes to
            // stderr as the JSON line a `.jsonl` records file holds
            if let Ok(line) = serde_json::to_string(&record) {
                progress.line(&format!(
                    "error: the record of {} r{} could not be written ({e:#}); here it is, \
                     save it as a .jsonl file:\n{line}",
                    job.test_id, job.repetition
                ));
            }
            records.push(record);
            write_error = Some(e);
            break;
        }
        records.push(record);
        if interrupted.is_some() {
            stopped_by = interrupted;
            break;
        }
        if let Some(e) = vanished {
            vanished_error = Some(e);
            break;
        }
    }
    let wall = progress.done();
    let removed = scratch.remove();
    if let Some(e) = write_error {
        return Err(e.context("the run stopped: a record could not be written"));
    }
    if let Some(e) = vanished_error {
        eprint!("\n{}", progress::summary(&jobs, &records));
        return Err(e);
    }
    removed?;
    eprint!("\n{}", progress::summary(&jobs, &records));
    let ok = records.iter().filter(|r| r.status == Status::Ok).count();
    let where_ = match &dir {
        Some(d) if !records.is_empty() => format!("records in {}", d.display()),
        Some(_) => "no records written".to_string(),
        None => "records streamed to stdout".to_string(),
    };
    eprintln!(
        "{ok} of {} jobs ok in {}; {where_}",
        jobs.len(),
        progress::clock(wall.as_secs_f64())
    );
    if let Some(sig) = stopped_by {
        eprintln!(
            "interrupted by {}: the scratch directory was removed, finished records are kept",
            signal_name(sig)
        );
        return Ok(128u8.saturating_add(u8::try_from(sig).unwrap_or(0)));
    }
    Ok(if ok == jobs.len() { 0 } else { 1 })
}

/// `SIGINT`, `SIGTERM`, ... for a signal number.
pub fn signal_name(sig: i32) -> String {
    match sig {
        libc::SIGINT => "SIGINT".into(),
        libc::SIGTERM => "SIGTERM".into(),
        libc::SIGHUP => "SIGHUP".into(),
        libc::SIGKILL => "SIGKILL".into(),
        n => format!("signal {n}"),
    }
}

/// The record as written: validated with the code `check` uses, on the
/// JSON text itself (a value that overflowed to infinity is written as
/// `null`). A measurement `check` would refuse becomes a `failed` record
/// saying why, its metrics dropped and the tool's raw output kept.
fn passing_check(mut rec: Record) -> Record {
    let problem = match record::to_json(&rec) {
        Ok(text) => crate::ingest::parse_record(&text).err(),
        Err(e) => Some(format!("{e:#}")),
    };
    if let Some(why) = problem {
        rec.status = Status::Failed;
        rec.metrics.clear();
        rec.error = Some(format!(
            "the result would not pass `diskdash check` ({why}); the tool's raw output is kept"
        ));
    }
    rec
}

fn write_record_file(dir: &Path, record: &Record) -> Result<()> {
    let text = record::to_json(record)?;
    crate::fsio::write_new(&dir.join(record.file_name()), text.as_bytes())
}

fn write_record_line(record: &Record) -> Result<()> {
    let line = serde_json::to_string(record).context("cannot serialise a record")?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")
        .and_then(|_| out.flush())
        .context("cannot write a record to stdout")
}

fn base_record(ctx: &Facts, job: &Job, version: Option<&str>) -> Record {
    let mut target = ctx.target.clone();
    target.free_bytes = target
        .path
        .as_deref()
        .and_then(|p| host::free_bytes(Path::new(p)))
        .or(target.free_bytes);
    let test = TestInfo {
        id: job.test_id.clone(),
        tool: job.tool,
        tool_version: version.map(str::to_string),
        parameters: job.invocation.parameters.clone(),
        command: Some(job.invocation.display()),
    };
    let source = Source::Run {
        diskdash_version: env!("CARGO_PKG_VERSION").to_string(),
    };
    let id = format!("{}.{}.r{}", ctx.run_id, job.test_id, job.repetition);
    Record {
        host: ctx.host.clone().into(),
        target: target.into(),
        run_id: Some(ctx.run_id.to_string()),
        repetition: job.repetition,
        started_at: Some(humantime::format_rfc3339_seconds(SystemTime::now()).to_string()),
        status: Status::Skipped,
        ..Record::new(id, source, ctx.subject.clone(), test)
    }
}

/// What the pre-fill did: the facts the sustained records carry, and the
/// bytes it counts for in `prior_io`.
struct PrefillDone {
    facts: record::Prefill,
    /// fio's count when it wrote the file; the planned size when it ran and
    /// failed (as [`bytes_moved`] counts a failed test); 0 when it did not run.
    moved: f64,
    /// Whether it was not run at all (no space, the directory not made):
    /// the sustained tests are then skipped rather than failed.
    not_run: bool,
}

/// Runs the pre-fill, saying so on stderr. `None` when fio is not
/// installed: the sustained tests are then skipped as any fio test is.
/// Also returns the signal if one stopped it.
fn run_prefill(
    ctx: &Facts,
    step: &PrefillStep,
    scratch: &Scratch,
    executor: &mut dyn Executor,
    progress: &Progress,
) -> (Option<PrefillDone>, Option<i32>) {
    let job = &step.job;
    if !executor.available(&job.invocation.program) {
        return (None, None);
    }
    let size = job.invocation.bytes;
    let mut done = PrefillDone {
        facts: record::Prefill {
            bytes: 0.0,
            seconds: 0.0,
            bw: None,
            command: job.invocation.display(),
            error: None,
        },
        moved: 0.0,
        not_run: true,
    };
    progress.line(&format!(
        "pre-fill: writing {} of incompressible data to `{}` for the sustained tests \
         (about {}, not a test)",
        gib(size),
        step.file.display(),
        progress::clock(job.invocation.estimate_s)
    ));
    let free = ctx
        .target
        .path
        .as_deref()
        .and_then(|p| host::free_bytes(Path::new(p)));
    let margin = margin(size);
    if let Some(free) = free.filter(|&f| f < size.saturating_add(margin)) {
        done.facts.error = Some(format!(
            "not enough free space: the pre-fill writes {} and keeps {} spare, {} is free",
            gib(size),
            gib(margin),
            gib(free)
        ));
    } else if let Err(e) = scratch.create_job_dir(&job.dir) {
        done.facts.error = Some(format!("{e:#}"));
    } else {
        done.not_run = false;
        let timeout = Duration::from_secs(job.timeout_s);
        match executor.run(&job.test_id, &job.invocation, &job.dir, timeout) {
            Err(e) => done.facts.error = Some(format!("{e:#}")),
            Ok(outcome) => {
                done.facts.seconds = outcome.duration.as_secs_f64();
                match judge(job, &outcome) {
                    Ok(parsed) => {
                        let metric = |n: &str| parsed.metrics.get(n).map(|m| m.value);
                        done.facts.bytes = metric("write_io_bytes").unwrap_or(size as f64);
                        done.moved = done.facts.bytes;
                        if done.facts.bytes < size as f64 {
                            // the rest of the file would be read unwritten
                            done.facts.error = Some(format!(
                                "fio wrote {} bytes of the {size} the sustained tests read",
                                done.facts.bytes
                            ));
                        } else {
                            done.facts.bw = metric("write_bw");
                        }
                    }
                    Err(e) => {
                        done.facts.error = Some(e);
                        done.moved = size as f64;
                    }
                }
                if outcome.interrupted.is_some() {
                    let _ = scratch.clear(&job.dir);
                    return (Some(done), outcome.interrupted);
                }
            }
        }
    }
    match &done.facts.error {
        None => progress.line(&format!(
            "pre-fill: ok  {} in {:.1} s ({})",
            gib(done.facts.bytes as u64),
            done.facts.seconds,
            done.facts
                .bw
                .map(|bw| progress::human(bw, "B/s"))
                .unwrap_or_else(|| "bandwidth unknown".into())
        )),
        Some(e) => {
            // a half-written file is of no use to anyone
            if let Err(e) = scratch.clear(&job.dir) {
                progress.line(&format!("warning: {e:#}"));
            }
            progress.line(&format!(
                "pre-fill: {}: {}; the sustained tests will not run",
                if done.not_run { "skipped" } else { "failed" },
                e.lines().next().unwrap_or("")
            ));
        }
    }
    (Some(done), None)
}

/// The record of a sustained test that did not run because the pre-fill
/// failed (or could not run): it would have read blocks nobody wrote.
fn prefill_failed(ctx: &Facts, job: &Job, version: Option<&str>, p: &PrefillDone) -> Record {
    let mut rec = base_record(ctx, job, version);
    let why = p.facts.error.as_deref().unwrap_or("");
    if p.not_run {
        rec.status = Status::Skipped;
        rec.error = Some(format!(
            "the pre-fill of the file this test reads did not run, so neither did the test: {why}"
        ));
    } else {
        rec.status = Status::Failed;
        rec.error = Some(format!(
            "the pre-fill of the file this test reads failed, so the test did not run \
             (it would have read unwritten blocks): {why}"
        ));
    }
    rec
}

/// Runs one job and returns its record, and the signal if one stopped it.
fn run_job(
    ctx: &Facts,
    job: &Job,
    scratch: &Scratch,
    executor: &mut dyn Executor,
    version: Option<&str>,
) -> (Record, Option<i32>) {
    let mut rec = base_record(ctx, job, version);
    let program = &job.invocation.program;
    if !executor.available(program) {
        rec.error = Some(format!(
            "`{program}` is not installed (not found on PATH); install it with: {}",
            doctor::install_hint(&[job.tool])
        ));
        return (rec, None);
    }
    let need = job.invocation.bytes;
    let margin = margin(need);
    if let Some(free) = rec.target.free_bytes {
        if free < need.saturating_add(margin) {
            rec.error = Some(format!(
                "not enough free space: the test writes up to {} and keeps {} spare, {} is free",
                gib(need),
                gib(margin),
                gib(free)
            ));
            return (rec, None);
        }
    }
    if let Err(e) = scratch.create_job_dir(&job.dir) {
        rec.status = Status::Failed;
        rec.error = Some(format!("{e:#}"));
        return (rec, None);
    }
    let timeout = Duration::from_secs(job.timeout_s);
    let outcome = match executor.run(&job.test_id, &job.invocation, &job.dir, timeout) {
        Ok(o) => o,
        Err(e) => {
            rec.status = Status::Failed;
            rec.error = Some(format!("{e:#}"));
            return (rec, None);
        }
    };
    rec.duration_s = Some(outcome.duration.as_secs_f64());
    rec.raw = Some(Box::new(raw_of(&outcome, &job.invocation.output)));
    if rec.test.tool_version.is_none() {
        std::sync::Arc::make_mut(&mut rec.test).tool_version =
            crate::tools::spec(job.tool).version_from_run_stderr(&outcome.stderr);
    }
    match judge(job, &outcome) {
        Ok(parsed) => {
            rec.status = Status::Ok;
            rec.metrics = parsed.metrics.into_iter().collect();
            for (k, v) in parsed.parameters {
                std::sync::Arc::make_mut(&mut rec.test)
                    .parameters
                    .entry(k)
                    .or_insert(v);
            }
            if rec.test.tool_version.is_none() {
                std::sync::Arc::make_mut(&mut rec.test).tool_version = parsed.tool_version;
            }
            attach_logs(&mut rec, &outcome);
        }
        Err(e) => {
            rec.status = Status::Failed;
            rec.error = Some(e);
        }
    }
    (rec, outcome.interrupted)
}

/// Gives a fio record the timeline of the per-second logs its run left
/// (those of [`crate::tools::fio::LOG_PREFIX`]). A log that cannot be read
/// costs the timeline, not the test: the record keeps its metrics and says
/// why in a `timeline_error` parameter.
fn attach_logs(rec: &mut Record, o: &Outcome) {
    let ours: Vec<(String, Vec<u8>)> = o
        .logs
        .iter()
        .filter(|(n, _)| {
            crate::tools::fio::log::log_name(n)
                .is_some_and(|(p, _, _)| p == crate::tools::fio::LOG_PREFIX)
        })
        .cloned()
        .collect();
    if rec.test.tool != crate::record::Tool::Fio || ours.is_empty() {
        return;
    }
    if let Err(e) = crate::analysis::timeline::attach_logs(rec, &ours) {
        std::sync::Arc::make_mut(&mut rec.test)
            .parameters
            .insert("timeline_error".into(), format!("{e:#}").into());
    }
}

/// The bytes a finished test moved: the tool's own count where it gives
/// one, else the most it was planned to write; 0 for a test that did not
/// start.
fn bytes_moved(rec: &Record, job: &Job) -> f64 {
    if rec.duration_s.is_none() {
        return 0.0;
    }
    let reported: Vec<f64> = rec
        .metrics
        .iter()
        .filter(|(n, _)| *n == "bytes" || n.ends_with("_io_bytes"))
        .map(|(_, m)| m.value)
        .collect();
    if reported.is_empty() {
        job.invocation.bytes as f64
    } else {
        reported.iter().sum()
    }
}

fn raw_of(o: &Outcome, from: &OutputFrom) -> Raw {
    let (stdout, stderr) = match (from, &o.output_file) {
        // fio: the record's stdout is the JSON file; anything fio printed
        // besides goes with stderr so nothing is lost
        (OutputFrom::File(_), Some(file)) => {
            let mut err = o.stderr.clone();
            if !o.stdout.is_empty() {
                err.push_str("\n[stdout]\n");
                err.push_str(&o.stdout);
            }
            (file.clone(), err)
        }
        _ => (o.stdout.clone(), o.stderr.clone()),
    };
    let truncated = o.stdout_bytes.is_some() || o.stderr_bytes.is_some();
    Raw {
        stdout: Some(stdout),
        stderr: Some(stderr),
        exit_code: o.exit_code,
        truncated,
        stdout_bytes: truncated.then(|| o.stdout_bytes.unwrap_or(o.stdout.len() as u64)),
        stderr_bytes: truncated.then(|| o.stderr_bytes.unwrap_or(o.stderr.len() as u64)),
    }
}

/// The line of a tool's stderr that says what went wrong: the last one
/// that reads like an error (dd prints `No space left on device` before
/// its statistics), else the last non-empty line.
fn error_line(stderr: &str) -> Option<&str> {
    let lines = || {
        stderr
            .lines()
            .rev()
            .map(str::trim)
            .filter(|l| !l.is_empty())
    };
    let erring = |l: &&str| {
        let l = l.to_ascii_lowercase();
        [
            "error",
            "no space",
            "cannot",
            "failed",
            "denied",
            "read-only",
        ]
        .iter()
        .any(|w| l.contains(w))
    };
    lines().find(erring).or_else(|| lines().next())
}

/// The parsed result of a finished tool, or why the test failed.
fn judge(job: &Job, o: &Outcome) -> std::result::Result<crate::tools::Parsed, String> {
    let program = &job.invocation.program;
    if let Some(sig) = o.interrupted {
        return Err(format!(
            "interrupted by {}; the run stopped",
            signal_name(sig)
        ));
    }
    if o.timed_out {
        return Err(format!(
            "timed out after {} s and was stopped (raise the limit with --timeout or the suite's timeout_s)",
            job.timeout_s
        ));
    }
    let last_err = error_line(&o.stderr)
        .map(|l| format!(": {l}"))
        .unwrap_or_default();
    if let Some(sig) = o.signal {
        return Err(format!(
            "`{program}` was killed by {}{last_err}",
            signal_name(sig)
        ));
    }
    match o.exit_code {
        Some(0) => {}
        Some(c) => return Err(format!("`{program}` exited with status {c}{last_err}")),
        None => return Err(format!("`{program}` ended without an exit status")),
    }
    let text = o
        .parser_input(&job.invocation.output)
        .ok_or_else(|| format!("`{program}` did not write its output file{last_err}"))?;
    let parsed = crate::tools::parse(job.tool, text)
        .map_err(|e| format!("cannot parse the output of `{program}`: {e:#}"))?;
    let first = parsed
        .into_iter()
        .next()
        .ok_or_else(|| format!("the output of `{program}` holds no result"))?;
    if first.metrics.is_empty() {
        return Err(format!("the output of `{program}` holds no metric"));
    }
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_ids_are_valid_record_ids_and_differ() {
        let a = new_run_id();
        let b = new_run_id();
        assert!(record::is_valid_id(&a), "{a}");
        assert_ne!(a, b);
        // 20261130T101500Z-3f9a1c
        assert_eq!(a.len(), 23, "{a}");
        assert_eq!(a.as_bytes()[8], b'T');
        assert_eq!(&a[15..17], "Z-");
    }

    #[test]
    fn records_dir_uses_slugs_and_unknown() {
        let s = Subject {
            study: Some("Block Storage 2026".into()),
            ..Default::default()
        };
        assert_eq!(
            records_dir(Path::new("results"), &s, "R"),
            Path::new("results/block-storage-2026/unknown/R")
        );
    }

    #[test]
    fn dry_run_lists_the_prefill_with_its_estimate_in_the_total() {
        let suite = plan::load_suite("standard").unwrap();
        let free = 10u64 << 30;
        let machine = plan::Machine {
            memory_bytes: Some(1 << 30),
            is_root: false,
            free_bytes: Some(free),
        };
        let p = plan::plan(&suite, &Default::default(), Path::new("/t/S"), &machine).unwrap();
        let pre = p.prefill.as_ref().unwrap();
        let text = dry_run_text(
            "standard",
            Path::new("/t"),
            Path::new("/t/S"),
            &p.jobs,
            Some(pre),
            Some(free),
        );
        assert!(
            text.starts_with("dry run of suite standard: 36 jobs and a pre-fill against `/t`"),
            "{text}"
        );
        let lines: Vec<&str> = text.lines().collect();
        // first of all, before the first sustained test; 5 GiB at 50 MB/s
        assert_eq!(
            lines[3],
            "pre-fill before fio-sustained-randread-4k-qd32 (once, not a test): writes 5.00 GiB \
             of incompressible data, the file the sustained tests read; about 1:48, limit 1373 s"
        );
        assert!(lines[4].contains("--refill_buffers") && lines[4].contains("--size=5368709120"));
        assert_eq!(
            lines[5],
            "fio-sustained-randread-4k-qd32 r1/1: reads the pre-filled file, limit 3600 s"
        );
        let total: f64 = p.jobs.iter().map(|j| j.invocation.estimate_s).sum::<f64>()
            + pre.job.invocation.estimate_s;
        assert_eq!(
            lines.last().unwrap(),
            &format!(
                "rough duration: {}, the pre-fill included (the tools' speed decides)",
                progress::clock(total)
            )
        );
        // the pre-fill keeps a margin; the pre-filled file takes its 5 GiB
        // while the sustained tests run
        let line = |free: u64, n: usize| {
            let text = dry_run_text(
                "standard",
                Path::new("/t"),
                Path::new("/t/S"),
                &p.jobs,
                Some(pre),
                Some(free),
            );
            text.lines().nth(n).unwrap().to_string()
        };
        let skipped = "NOT ENOUGH FREE SPACE: would be skipped";
        assert!(line((5 << 30) + (100 << 20), 3).ends_with(skipped));
        assert!(!line((5 << 30) + (100 << 20), 5).contains(skipped));
        assert!(line((5 << 30) + (10 << 20), 5).ends_with(skipped));
        assert!(!line(free, 3).contains(skipped) && !line(free, 5).contains(skipped));
    }

    #[test]
    fn margin_is_64_mib_or_5_percent() {
        assert_eq!(margin(0), 64 << 20);
        assert_eq!(margin(100 << 30), 5 << 30);
    }
}
