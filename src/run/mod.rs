//! `diskdash run`: plan (suite → jobs), execute the tools, write records as
//! each test ends.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use std::time::SystemTime;

use anyhow::{bail, Context, Result};

use crate::error::usage;
use crate::record::{self, Host, Subject, Target};
use crate::timeline::stop::Bursting;

pub mod doctor;
pub mod exec;
pub mod feed;
pub mod host;
pub mod instance;
pub mod plan;
pub mod probe;
pub mod progress;
pub mod registry;
pub mod scratch;
pub mod watch;

mod list;
mod outcome;
mod prefill;
mod runner;

use exec::{Executor, RealExecutor};
use plan::{Job, PrefillStep};

use list::{dry_run_text, list_text};
use runner::execute;

/// The free space a dry run without `--target` plans for: 100 GiB, the
/// size most published volume comparisons test.
pub const ASSUMED_FREE: u64 = 100 << 30;

/// The free space a dry run plans with.
#[derive(Clone, Copy, Debug)]
pub(crate) enum FreeSpace {
    /// The target's, `None` when it cannot be told.
    Measured(Option<u64>),
    /// No target was given: this much is assumed.
    Assumed(u64),
}

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
    /// `--limits`: published limits, for the burst levels of the offering.
    pub limits: Option<PathBuf>,
    /// The built-in catalogue's limits, under `--limits`; `None` with
    /// `--no-catalogue`.
    pub catalogue_limits: Option<crate::analysis::limits::Limits>,
    /// Seconds between the "still running" lines on a stderr that is no
    /// terminal ([`progress::TICK_S`]; shorter only in tests).
    pub tick_s: u64,
    /// `--instance`: the machine's instance type, else the metadata's.
    pub instance: Option<String>,
    /// `--host-name`: the machine's name for the records (checked by
    /// [`crate::record::host_name`]), else its hostname.
    pub host_name: Option<String>,
    /// `--anonymous-host`: record the anonymous form of the name
    /// ([`crate::record::anonymous_host_name`]) instead of the name.
    pub anonymous_host: bool,
    /// `--probe`: a dry run measures the target first ([`probe`]).
    pub probe: bool,
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
        Prepared::DryRun(d) => {
            dry_run(*d, executor);
            Ok(0)
        }
        Prepared::Run(p) => execute(*p, executor, signal),
    }
}

enum Prepared {
    /// `--list` or `--dry-run` without a target printed what they print.
    Printed,
    /// `--dry-run` of a target: printed after the probe, if asked.
    DryRun(Box<DryRun>),
    Run(Box<Ready>),
}

/// A dry run of a target, planned.
struct DryRun {
    suite: String,
    target: PathBuf,
    scratch: PathBuf,
    jobs: Vec<Job>,
    prefill: Option<PrefillStep>,
    free: Option<u64>,
    probe: bool,
    /// Which published limits the stop rule uses ([`limits_said`]).
    limits_said: String,
}

/// Prints the dry run; with `--probe`, first measures the target with
/// [`probe::run`] in the run's scratch directory (removed after), and
/// estimates from what it measured. A probe that cannot run is said, and
/// the estimate is the rough one.
fn dry_run(d: DryRun, executor: &mut dyn Executor) {
    let mut speed = None;
    if d.probe {
        let need = probe::PROBE_BYTES + margin(probe::PROBE_BYTES);
        let measured = match d.free {
            Some(f) if f < need => Err(format!(
                "not enough free space ({} free, it needs {})",
                gib(f),
                gib(need)
            )),
            _ => scratch::Scratch::create(d.scratch.clone())
                .map_err(|e| format!("{e:#}"))
                .and_then(|s| {
                    let dir = d.scratch.join("probe");
                    let got = s
                        .create_job_dir(&dir)
                        .map_err(|e| format!("{e:#}"))
                        .and_then(|_| probe::run(executor, &dir));
                    let removed = s.remove().map_err(|e| format!("{e:#}"));
                    got.and_then(|g| removed.map(|_| g))
                }),
        };
        match measured {
            Ok(s) => speed = Some(s),
            Err(e) => crate::tell!(
                "warning: the probe did not run ({}); the estimate is the rough one",
                crate::term::shown(&e)
            ),
        }
    }
    let text = dry_run_text(
        &d.suite,
        &d.target,
        &d.scratch,
        &d.jobs,
        d.prefill.as_ref(),
        FreeSpace::Measured(d.free),
        speed.as_ref(),
    );
    crate::say!("{}", crate::term::shown(text.trim_end_matches('\n')));
    crate::say!("{}", crate::term::shown(&d.limits_said));
}

struct Ready {
    target: PathBuf,
    scratch: PathBuf,
    run_id: String,
    /// The suite's name, written into every record.
    suite: String,
    subject: Subject,
    jobs: Vec<Job>,
    prefill: Option<PrefillStep>,
    out: Out,
    clean_stale: bool,
    tick_s: u64,
    instance: Option<String>,
    host_name: Option<String>,
    anonymous_host: bool,
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
    let now = SystemTime::now();
    let stamp = humantime::format_rfc3339_seconds(now)
        .to_string()
        .replace(['-', ':'], "");
    let nanos = now
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let seed = format!("{nanos}-{}-{:p}", std::process::id(), &now);
    let mut hash = crate::digest::Hasher::new();
    hash.update(seed.as_bytes());
    let hex = crate::digest::hex(&hash.finish()[..3]);
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
        let text = list_text(&suite.name, &p.jobs, p.prefill.as_ref(), auto);
        crate::say!("{}", crate::term::shown(text.trim_end_matches('\n')));
        return Ok(Prepared::Printed);
    }
    let user = match &opts.limits {
        Some(path) => Some(crate::analysis::limits::Limits::load(path).context("check --limits")?),
        None => None,
    };
    let limits = published(user, opts.catalogue_limits.clone());
    let Some(target_arg) = &opts.target else {
        if !opts.dry_run {
            bail!("--target DIR is required (the directory to benchmark)");
        }
        if opts.probe {
            bail!("--probe measures the target: give --target DIR");
        }
        // the plan as on a target of ASSUMED_FREE free: sizes that follow
        // the free space (`size = "auto"`, the pre-fill) are shown at that
        machine.free_bytes = Some(ASSUMED_FREE);
        let target = Path::new("TARGET");
        let scratch = target.join(scratch::scratch_name(&run_id));
        let plan::Plan { mut jobs, prefill } = plan::plan(&suite, sel, &scratch, &machine)?;
        for w in jobs.iter_mut().filter_map(|j| j.watch.as_mut()) {
            w.bursting = bursting(limits.as_ref(), &subject, w.by_bw);
        }
        let text = dry_run_text(
            &suite.name,
            target,
            &scratch,
            &jobs,
            prefill.as_ref(),
            FreeSpace::Assumed(ASSUMED_FREE),
            None,
        );
        crate::say!("{}", crate::term::shown(text.trim_end_matches('\n')));
        crate::say!(
            "{}",
            crate::term::shown(limits_said(limits.as_ref(), opts, &subject))
        );
        return Ok(Prepared::Printed);
    };
    let target = scratch::check_target(target_arg)?;
    // a name the catalogue has no row for: said before anything runs (the
    // dry run says it in its line on the limits)
    if opts.catalogue_limits.is_some() && !opts.dry_run {
        let limited = limits.as_ref().is_some_and(|l| {
            l.find(
                subject.provider.as_deref(),
                subject.offering.as_deref(),
                subject.size_gb,
            )
            .is_some()
        });
        if let Some(w) = crate::catalogue::name_warning(
            subject.provider.as_deref(),
            subject.offering.as_deref(),
            subject.price.is_some() || limited,
        ) {
            crate::tell!("warning: {}", crate::term::shown(&w));
        }
    }
    // memory or compression under the target: said before anything runs
    // (the records keep it in `target.warning`)
    if let Some(w) = host::target(&target).warning {
        crate::tell!("warning: {}", crate::term::shown(&w));
    }
    let scratch = target.join(scratch::scratch_name(&run_id));
    // `size = "auto"` is sized by the space free now
    machine.free_bytes = host::free_bytes(&target);
    let plan::Plan { mut jobs, prefill } = plan::plan(&suite, sel, &scratch, &machine)?;
    for w in jobs.iter_mut().filter_map(|j| j.watch.as_mut()) {
        w.bursting = bursting(limits.as_ref(), &subject, w.by_bw);
    }
    let out = opts.out.clone();
    if opts.dry_run {
        return Ok(Prepared::DryRun(Box::new(DryRun {
            suite: suite.name.clone(),
            target,
            scratch,
            jobs,
            prefill,
            free: machine.free_bytes,
            probe: opts.probe,
            limits_said: limits_said(limits.as_ref(), opts, &subject),
        })));
    }
    if matches!(out, Out::Stdout) {
        stdout_takes_records()?;
    }
    Ok(Prepared::Run(Box::new(Ready {
        target,
        scratch,
        run_id,
        suite: suite.name.clone(),
        subject,
        jobs,
        prefill,
        out,
        clean_stale: opts.clean_stale,
        tick_s: opts.tick_s,
        instance: opts.instance.clone(),
        host_name: opts.host_name.clone(),
        anonymous_host: opts.anonymous_host,
    })))
}

/// The published limits a run's stop rule uses: `--limits` with the
/// catalogue's rows under it (a `--limits` row for an offering replaces
/// the catalogue's), either alone, or none.
pub fn published(
    user: Option<crate::analysis::limits::Limits>,
    catalogue: Option<crate::analysis::limits::Limits>,
) -> Option<crate::analysis::limits::Limits> {
    // the stop rule has no site: staleness is for the pages to say
    match (user, catalogue) {
        (Some(u), Some(c)) => Some(u.with_catalogue(c, "")),
        (None, Some(c)) => Some(crate::analysis::limits::Limits::default().with_catalogue(c, "")),
        (u, None) => u,
    }
}

/// The dry run's line on the limits its stop rule uses: the row for the
/// run's offering and where it comes from, or why there is none.
fn limits_said(
    limits: Option<&crate::analysis::limits::Limits>,
    opts: &RunOptions,
    subject: &Subject,
) -> String {
    let name = format!(
        "{} {}",
        subject.provider.as_deref().unwrap_or("(no --provider)"),
        subject.offering.as_deref().unwrap_or("(no --offering)")
    );
    let off = if opts.catalogue_limits.is_none() {
        " (--no-catalogue)"
    } else {
        ""
    };
    let row = limits.and_then(|l| {
        l.for_config(
            subject.provider.as_deref(),
            subject.offering.as_deref(),
            subject.size_gb,
            crate::analysis::limits::Provisioned::of(&subject.labels),
        )
    });
    // the names the catalogue has, for a name it has no row for
    let miss = match (&subject.provider, &subject.offering) {
        (Some(p), Some(o)) if off.is_empty() => crate::catalogue::names().miss(p, o),
        _ => None,
    };
    match row.as_deref() {
        None if subject.provider.is_none() || subject.offering.is_none() => format!(
            "burst limits: none known for {name}: --provider, --offering and --size-gb find \
             the volume's published limits{off}"
        ),
        Some(r) if r.catalogue => {
            format!("burst limits: the catalogue's row for {name}, {}", r.note())
        }
        // no row, but the figures the volume was bought with
        Some(r) if r.line == 0 => format!("burst limits: {name}, {}", r.note()),
        Some(r) => format!("burst limits: --limits line {} for {name}", r.line),
        None if opts.limits.is_some() => format!(
            "burst limits: no row for {name} in --limits{}",
            match &miss {
                Some(m) => format!(" or the catalogue; {}", m.has),
                None if off.is_empty() => " or the catalogue".to_string(),
                None => off.to_string(),
            }
        ),
        None if off.is_empty() => match &miss {
            Some(m) => format!("burst limits: {m}"),
            None => format!("burst limits: no row for {name} in the catalogue"),
        },
        None => format!("burst limits: none{off}"),
    }
}

/// What the published limits say of the bursts of the run's offering, in
/// IOPS or (`by_bw`) B/s: the row for its provider, offering and size
/// gives its burst level, or says it does not burst when it has no burst
/// column at all; without a row, every burst level of `--limits` is one
/// the volume could be at; without such levels, nothing is known.
pub fn bursting(
    limits: Option<&crate::analysis::limits::Limits>,
    subject: &Subject,
    by_bw: bool,
) -> Bursting {
    let Some(limits) = limits else {
        return Bursting::Unknown;
    };
    // a provisioned volume is watched against its own figures
    match limits
        .for_config(
            subject.provider.as_deref(),
            subject.offering.as_deref(),
            subject.size_gb,
            crate::analysis::limits::Provisioned::of(&subject.labels),
        )
        .as_deref()
    {
        Some(row) if row.burst_iops.is_none() && row.burst_bw.is_none() => Bursting::Never,
        Some(row) => match row.promise(by_bw, subject.size_gb).burst {
            Some(b) => Bursting::Levels(vec![b]),
            // it bursts, but not in this unit that the list knows of
            None => Bursting::Unknown,
        },
        None => match limits.burst_levels(by_bw) {
            levels if levels.is_empty() => Bursting::Unknown,
            levels => Bursting::Levels(levels),
        },
    }
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

fn gib(bytes: u64) -> String {
    format!("{:.2} GiB", bytes as f64 / (1u64 << 30) as f64)
}

/// The directory a run's records go to: `<out>/<study>/<offering>/<run_id>`,
/// `unknown` for a study or offering not given.
pub fn records_dir(out: &Path, subject: &Subject, run_id: &str) -> PathBuf {
    out.join(record::subject_dir(subject)).join(run_id)
}

/// What every record of the run shares.
struct Facts<'a> {
    run_id: &'a str,
    suite: &'a str,
    subject: &'a Subject,
    host: &'a Host,
    target: &'a Target,
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
            FreeSpace::Measured(Some(free)),
            None,
        );
        assert!(
            text.starts_with("dry run of suite standard: 41 jobs and a pre-fill against `/t`"),
            "{text}"
        );
        let lines: Vec<&str> = text.lines().collect();
        // first of all, before the first sustained test; 5 GiB at 50 MB/s
        assert_eq!(
            lines[3],
            "pre-fill before fio-sustained-randread-4k-qd32 (once, not a test): writes 5.00 GiB \
             of incompressible data, the file the sustained and pre-filled tests read; about 1:48, limit 1373 s"
        );
        assert!(lines[4].contains("--refill_buffers") && lines[4].contains("--size=5368709120"));
        assert_eq!(
            lines[5],
            "fio-sustained-randread-4k-qd32 r1/1: reads the pre-filled file, 6 to 45 \
             minutes (stopped once its answer is known; nothing is known of the volume's bursts \
             (no published limits row): a flat volume runs the whole window), limit 3600 s"
        );
        assert!(
            lines[9].starts_with("fio-sustained-randwrite-4k-qd32 r1/1: writes into the pre-filled file, 4 to 20 minutes"),
            "{}",
            lines[9]
        );
        let total: f64 = p.jobs.iter().map(|j| j.invocation.estimate_s).sum::<f64>()
            + pre.job.invocation.estimate_s;
        // the earliest: 330 s of 2,700, 220 s of 1,200 (twice)
        let saved = (2700.0 - 330.0) + 2.0 * (1200.0 - 220.0);
        assert_eq!(
            lines.last().unwrap(),
            &format!(
                "rough duration: {}, the pre-fill included, tests that would be skipped left out; \
                 {} if the sustained tests stop at their earliest (the tools' speed decides; \
                 --probe measures the target for an estimate)",
                progress::clock(total),
                progress::clock(total - saved)
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
                FreeSpace::Measured(Some(free)),
                None,
            );
            text.lines().nth(n).unwrap().to_string()
        };
        let skipped = "NOT ENOUGH FREE SPACE: would be skipped";
        assert!(line((5 << 30) + (100 << 20), 3).ends_with(skipped));
        assert!(!line((5 << 30) + (100 << 20), 5).contains(skipped));
        // its sustained tests are skipped with it, and leave the total
        assert!(line((5 << 30) + (100 << 20), 5).ends_with("NO PRE-FILL: would be skipped"));
        assert!(!line(free, 5).contains("NO PRE-FILL"));
        assert!(line((5 << 30) + (10 << 20), 5).ends_with(skipped));
        assert!(!line(free, 3).contains(skipped) && !line(free, 5).contains(skipped));
    }

    #[test]
    fn the_estimate_leaves_out_the_tests_that_would_be_skipped() {
        let suite = plan::parse_suite(
            "[[test]]\nid = 'big'\ntool = 'dd'\nbs = '1M'\nsize = '8G'\nconv = 'fdatasync'\n\
             [[test]]\nid = 'small'\ntool = 'dd'\nbs = '1M'\nsize = '100M'\nconv = 'fdatasync'",
            "s",
        )
        .unwrap();
        let p = plan::plan(
            &suite,
            &Default::default(),
            Path::new("/t/S"),
            &Default::default(),
        )
        .unwrap();
        let total = |free: u64| {
            let text = dry_run_text(
                "s",
                Path::new("/t"),
                Path::new("/t/S"),
                &p.jobs,
                None,
                FreeSpace::Measured(Some(free)),
                None,
            );
            text.lines().last().unwrap().to_string()
        };
        // 0.5 s + bytes at 100 MB/s each
        let both = p.jobs[0].invocation.estimate_s + p.jobs[1].invocation.estimate_s;
        let small = p.jobs[1].invocation.estimate_s;
        assert!(total(20 << 30).starts_with(&format!("rough duration: {},", progress::clock(both))));
        assert!(total(1 << 30).starts_with(&format!("rough duration: {},", progress::clock(small))));
        assert_ne!(progress::clock(both), progress::clock(small));
    }

    #[test]
    fn margin_is_64_mib_or_5_percent() {
        assert_eq!(margin(0), 64 << 20);
        assert_eq!(margin(100 << 30), 5 << 30);
    }
}
