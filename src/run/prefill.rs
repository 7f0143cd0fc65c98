//! The pre-fill: the file the sustained tests (and those with `prefilled =
//! true`) read, written once before the first of them.

use std::path::Path;
use std::time::Duration;

use crate::record::{self, Record, Status};

use super::exec::Executor;
use super::outcome::{base_record, judge};
use super::plan::{Job, PrefillStep};
use super::progress::{self, Progress};
use super::scratch::Scratch;
use super::*;

/// What the pre-fill did: the facts the sustained records carry, and the
/// bytes it counts for in `prior_io`.
pub(super) struct PrefillDone {
    pub(super) facts: record::Prefill,
    /// fio's count when it wrote the file; the planned size when it ran and
    /// failed (as [`bytes_moved`](super::outcome::bytes_moved) counts a failed test); 0 when it did not run.
    pub(super) moved: f64,
    /// Whether it was not run at all (no space, the directory not made):
    /// the sustained tests are then skipped rather than failed.
    pub(super) not_run: bool,
}

/// Runs the pre-fill, saying so on stderr. `None` when fio is not
/// installed: the sustained tests are then skipped as any fio test is.
/// Also returns the signal if one stopped it.
pub(super) fn run_prefill(
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
        "pre-fill: writing {} of incompressible data to `{}` for the tests that read it \
         (about {}, not a test)",
        gib(size),
        crate::term::shown(&step.file),
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
                match judge(job, &outcome, None) {
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
pub(super) fn prefill_failed(
    ctx: &Facts,
    job: &Job,
    version: Option<&str>,
    p: &PrefillDone,
) -> Record {
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
