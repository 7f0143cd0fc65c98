//! One job run and its outcome turned into a record: the tool's exit and
//! output judged, its metrics and logs attached.

use std::path::Path;
use std::time::{Duration, SystemTime};

use crate::record::{Raw, Record, Source, Status, TestInfo};
use crate::tools::argv::OutputFrom;

use super::exec::{Executor, Outcome};
use super::plan::Job;
use super::scratch::Scratch;
use super::watch::{Watch, Watcher};
use super::*;
use crate::record::{Stop, StopReason};
use crate::timeline::stop;

pub(super) fn base_record(ctx: &Facts, job: &Job, version: Option<&str>) -> Record {
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
        suite: Some(ctx.suite.to_string()),
        parameters: job.invocation.parameters.clone(),
        command: Some(job.invocation.display()),
    };
    let source = Source::Run {
        diskdash_version: env!("CARGO_PKG_VERSION").to_string(),
    };
    let id = format!("{}.{}.r{}", ctx.run_id, job.test_id, job.repetition);
    Record {
        host: ctx.host.clone(),
        target,
        run_id: Some(ctx.run_id.to_string()),
        repetition: job.repetition,
        started_at: Some(humantime::format_rfc3339_seconds(SystemTime::now()).to_string()),
        status: Status::Skipped,
        ..Record::new(id, source, ctx.subject.clone(), test)
    }
}

/// Runs one job and returns its record, and the signal if one stopped it.
pub(super) fn run_job(
    ctx: &Facts,
    job: &Job,
    scratch: &Scratch,
    executor: &mut dyn Executor,
    version: Option<&str>,
) -> (Record, Option<i32>) {
    let mut rec = base_record(ctx, job, version);
    let program = &job.invocation.program;
    if !executor.available(program) {
        if let Some(path) = executor.not_executable(program) {
            rec.error = Some(format!(
                "`{program}` is not executable: `{}` has no exec bit (chmod +x it, or install {})",
                path.display(),
                doctor::install_hint(&[job.tool])
            ));
            return (rec, None);
        }
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
    let mut watcher = job
        .watch
        .as_ref()
        .filter(|w| !w.full)
        .map(|w| Watcher::new(w.clone()));
    let ran = match watcher.as_mut() {
        Some(watcher) => {
            executor.run_watched(&job.test_id, &job.invocation, &job.dir, timeout, watcher)
        }
        None => executor.run(&job.test_id, &job.invocation, &job.dir, timeout),
    };
    let outcome = match ran {
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
        rec.test.tool_version =
            crate::tools::command(job.tool).version_from_run_stderr(&outcome.stderr);
    }
    match judge(job, &outcome, watcher.as_ref()) {
        Ok(parsed) => {
            rec.status = Status::Ok;
            rec.metrics = parsed.metrics.into_iter().collect();
            for (k, v) in parsed.parameters {
                rec.test.parameters.entry(k).or_insert(v);
            }
            if rec.test.tool_version.is_none() {
                rec.test.tool_version = parsed.tool_version;
            }
            attach_logs(&mut rec, &outcome);
            if let Some(fed) = &outcome.fed {
                note_feed(&mut rec, fed);
            }
            if let Some(watcher) = &watcher {
                keep_what_was_watched(&mut rec, &outcome, watcher);
            }
            if let Some(w) = &job.watch {
                rec.stop = Some(stop_of(w, &outcome, &rec));
                if let Some(note) = rec.stop.as_ref().and_then(|s| s.note()) {
                    rec.warnings.push(note);
                }
            }
        }
        Err(e) => {
            rec.status = Status::Failed;
            rec.error = Some(e);
        }
    }
    (rec, outcome.interrupted)
}

/// How many times faster than the disk the input must have been made for
/// the figure to be the disk's: below this, the record says the input may
/// have held dd back.
pub(super) const FEED_MARGIN: f64 = 2.0;

/// Puts the rate at which diskdash made a fed tool's input into its record
/// as `input_bw` (bytes over the time spent making them and copying them
/// into the pipe, waits for the tool to read left out), and a warning when
/// that is less than [`FEED_MARGIN`] times the `write_bw` measured: the
/// input may then have been the limit.
fn note_feed(rec: &mut Record, fed: &super::feed::FeedDone) {
    use crate::record::Metric;
    let Some(rate) = fed.rate() else {
        return;
    };
    rec.metrics.insert(
        "input_bw",
        Metric::new(rate, crate::units::Unit::BytesPerSec),
    );
    let Some(bw) = rec.metrics.get("write_bw").map(|m| m.value) else {
        return;
    };
    if rate < FEED_MARGIN * bw {
        rec.warnings.push(format!(
            "the input was made at {:.0} MB/s, less than {FEED_MARGIN} times the {:.0} MB/s written: \
             the figure may be the input generator's limit, not the storage's",
            rate / 1e6,
            bw / 1e6
        ));
    }
}

/// Why and when a sustained test stopped: its watcher's reason, else
/// the end of its window (asked for by `--full-sustained`, or reached).
/// A test that ran its window leaves a longer burst possible when it
/// ended flat at a level that could be a burst ([`stop::burst_not_excluded`]).
/// The time is the length of its timeline (fio's own seconds), else the
/// tool's wall time.
fn stop_of(w: &Watch, o: &Outcome, rec: &Record) -> Stop {
    let series = rec.timeline.as_deref().and_then(|t| {
        let s = t.read.as_deref().or(t.write.as_deref())?;
        let v = if w.by_bw { &s.bw } else { &s.iops };
        Some((v.clone(), t.interval_s))
    });
    let stopped_at_s = series
        .as_ref()
        .map(|(v, dt)| v.len() as f64 * dt)
        .filter(|s| *s > 0.0)
        .unwrap_or(o.duration.as_secs_f64().min(w.window_s));
    let reason = match o.stopped {
        Some(r) => r,
        None if o.interrupted.is_some() || o.timed_out => StopReason::Interrupted,
        None if w.full => StopReason::FullWindowRequested,
        None => StopReason::WindowEnd,
    };
    // one that ended before its answer was known has not ruled a longer
    // burst out either
    let ran_window = matches!(
        reason,
        StopReason::WindowEnd | StopReason::FullWindowRequested | StopReason::Interrupted
    );
    let burst_not_excluded = ran_window
        && series
            .as_ref()
            .is_none_or(|(v, dt)| stop::burst_not_excluded(v, *dt, &w.bursting));
    Stop {
        reason,
        stopped_at_s,
        window_s: w.window_s,
        burst_not_excluded,
    }
}

/// What a watched sustained test measured, kept whatever ended it: a
/// record read from fio's last whole status document, because its final
/// one was cut off, says so; one whose fio left no per-second logs (killed
/// before it wrote them) gets the series read from the status documents
/// as its timeline, with the levels found in it; one stopped by a signal
/// or its time limit says which.
fn keep_what_was_watched(rec: &mut Record, o: &Outcome, watcher: &Watcher) {
    if watcher.cut_off().is_some() {
        rec.warnings.push(format!(
            "fio's final results are cut off in its output file; the figures are those of \
             its last whole status report, {} s into the test",
            crate::format::number(watcher.final_document_s())
        ));
    }
    // a log that fio wrote but that cannot be read failed the record: the
    // status documents do not stand in for it
    let logged = o.logs.iter().any(|(n, _)| is_our_log(n));
    if rec.timeline.is_none() && !logged && rec.status == Status::Ok {
        if let Some(mut timeline) = watcher.timeline() {
            let kind = crate::tools::judge(rec.test.tool).kind(&rec.test.parameters);
            for (name, metric) in crate::timeline::classify(&mut timeline, kind) {
                if !rec.metrics.contains_key(&name) {
                    rec.metrics.insert(&name, metric);
                }
            }
            rec.timeline = Some(Box::new(timeline));
            rec.warnings.push(
                "fio left no per-second logs; the timeline is the one read from its status \
                 reports each second while it ran"
                    .into(),
            );
        }
    }
    if let Some(sig) = o.interrupted {
        rec.warnings.push(format!(
            "interrupted by {} after {} s: the figures are what it measured until then",
            signal_name(sig),
            crate::format::number(watcher.elapsed_s())
        ));
    } else if o.timed_out {
        rec.warnings.push(format!(
            "stopped by its time limit ({} s) after {} s of fio: the figures are what it \
             measured until then",
            o.duration.as_secs(),
            crate::format::number(watcher.elapsed_s())
        ));
    }
}

/// Whether `name` is one of the per-second logs `run` asks fio for
/// ([`crate::tools::fio::LOG_PREFIX`]).
fn is_our_log(name: &str) -> bool {
    crate::tools::fio::log::log_name(name)
        .is_some_and(|(p, _, _)| p == crate::tools::fio::LOG_PREFIX)
}

/// Gives a fio record the timeline of the per-second logs its run left
/// (those of [`crate::tools::fio::LOG_PREFIX`]). A log that cannot be read
/// (a row that is no row, a negative value, more samples than a timeline
/// holds) makes the record `failed`, without a timeline or metrics: a fio
/// that logged impossible numbers is not trusted for its summary either.
/// The error names the log and its line; the raw output is kept.
fn attach_logs(rec: &mut Record, o: &Outcome) {
    let ours: Vec<(String, Vec<u8>)> = o
        .logs
        .iter()
        .filter(|(n, _)| is_our_log(n))
        .cloned()
        .collect();
    if rec.test.tool != crate::record::Tool::Fio || ours.is_empty() {
        return;
    }
    if let Err(e) = crate::timeline::attach_logs(rec, &ours) {
        rec.status = crate::record::Status::Failed;
        rec.metrics.clear();
        rec.timeline = None;
        rec.error = Some(format!("fio's per-second logs cannot be read: {e:#}"));
    }
}

/// The bytes a finished test moved: the tool's own count where it gives
/// one, else the most it was planned to write; 0 for a test that did not
/// start.
pub(super) fn bytes_moved(rec: &Record, job: &Job) -> f64 {
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
///
/// A watched sustained test that its watcher, a signal or its time limit
/// stopped is judged by its output alone when its watcher read a whole fio
/// document: fio exits 128 after SIGINT, and one killed while it printed
/// its final results leaves its status of a second before; what it
/// measured is never thrown away for how it ended.
pub(super) fn judge(
    job: &Job,
    o: &Outcome,
    watcher: Option<&Watcher>,
) -> std::result::Result<crate::tools::Parsed, String> {
    let program = &job.invocation.program;
    let measured = watcher.is_some_and(|w| w.final_document().is_some())
        && (o.stopped.is_some() || o.interrupted.is_some() || o.timed_out);
    if let Some(sig) = o.interrupted.filter(|_| !measured) {
        return Err(format!(
            "interrupted by {}; the run stopped",
            signal_name(sig)
        ));
    }
    if o.timed_out && !measured {
        return Err(format!(
            "timed out after {} s and was stopped (raise the limit with --timeout or the suite's timeout_s)",
            job.timeout_s
        ));
    }
    let last_err = error_line(&o.stderr)
        .map(|l| format!(": {l}"))
        .unwrap_or_default();
    if let Some(sig) = o.signal.filter(|_| !measured) {
        return Err(format!(
            "`{program}` was killed by {}{last_err}",
            signal_name(sig)
        ));
    }
    match o.exit_code {
        Some(0) => {}
        // fio stopped by its watcher (SIGINT) exits 128 after printing its
        // results; the output decides
        Some(_) if o.stopped.is_some() || measured => {}
        None if measured => {}
        Some(c) => return Err(format!("`{program}` exited with status {c}{last_err}")),
        None => return Err(format!("`{program}` ended without an exit status")),
    }
    let text = o
        .parser_input(&job.invocation.output)
        .ok_or_else(|| format!("`{program}` did not write its output file{last_err}"))?;
    let parsed = crate::tools::parse_run(job.tool, &job.invocation, text)
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
    use crate::record::{Metric, Subject, Tool};
    use crate::units::Unit;

    fn dd_record(write_bw: f64) -> Record {
        let mut r = Record::new(
            "r.dd-write-bulk.r1",
            Source::Run {
                diskdash_version: "0".into(),
            },
            Subject::default(),
            TestInfo {
                id: "dd-write-bulk".into(),
                suite: None,
                tool: Tool::Dd,
                tool_version: None,
                parameters: Default::default(),
                command: None,
            },
        );
        r.metrics
            .insert("write_bw", Metric::new(write_bw, Unit::BytesPerSec));
        r
    }

    #[test]
    fn a_feed_under_twice_the_rate_written_is_named_in_the_record() {
        // 1 GB made in 1 s of its own: 1000 MB/s
        let fed = super::super::feed::FeedDone {
            bytes: 1_000_000_000,
            busy: Duration::from_secs(1),
        };
        let mut fast_disk = dd_record(600e6);
        note_feed(&mut fast_disk, &fed);
        assert_eq!(fast_disk.metrics.get("input_bw").unwrap().value, 1e9);
        assert_eq!(
            fast_disk.warnings,
            [
                "the input was made at 1000 MB/s, less than 2 times the 600 MB/s written: \
              the figure may be the input generator's limit, not the storage's"
            ]
        );
        let mut slow_disk = dd_record(400e6);
        note_feed(&mut slow_disk, &fed);
        assert!(slow_disk.warnings.is_empty());
        assert!(crate::record::validate(&slow_disk).is_empty());
        // nothing fed, nothing said
        let mut none = dd_record(400e6);
        note_feed(&mut none, &super::super::feed::FeedDone::default());
        assert!(!none.metrics.contains_key("input_bw") && none.warnings.is_empty());
    }
}
