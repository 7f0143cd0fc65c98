//! What `--list` and `--dry-run` print: the suite's tests with their
//! commands, and the jobs a run would do.

use std::path::Path;

use super::plan::{Job, PrefillStep};
use super::progress;
use super::*;

pub(super) fn list_text(
    suite: &str,
    jobs: &[Job],
    prefill: Option<&PrefillStep>,
    auto: bool,
) -> String {
    let mut s = format!(
        "suite {} (SCRATCH is the scratch directory, DIR the job's directory in it{})\n",
        crate::term::shown_line(suite),
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
                "pre-fill  [fio, once before {}; not a test: it writes the file the sustained and pre-filled tests read]\n    {}\n",
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

/// `4 minutes`, `45 minutes`, `16 s` for a span under two minutes.
fn minutes(s: f64) -> String {
    if s < 120.0 {
        format!("{} s", s.round())
    } else {
        format!("{} minutes", (s / 60.0).round())
    }
}

pub(super) fn dry_run_text(
    suite: &str,
    target: &Path,
    scratch: &Path,
    jobs: &[Job],
    prefill: Option<&PrefillStep>,
    free: FreeSpace,
    speed: Option<&super::probe::Speed>,
) -> String {
    let (free, free_text) = match free {
        FreeSpace::Measured(f) => (f, f.map(gib).unwrap_or_else(|| "unknown".into())),
        FreeSpace::Assumed(f) => (
            Some(f),
            format!(
                "{} assumed (no --target given; the sizes that follow the free space are those of a target with that much free)",
                gib(f)
            ),
        ),
    };
    let mut s = format!(
        "dry run of suite {}: {}{} against `{}` ({})\nscratch directory: {}\nfree space: {free_text}\n",
        crate::term::shown_line(suite),
        crate::format::count_of(jobs.len(), "job", "jobs"),
        if prefill.is_some() { " and a pre-fill" } else { "" },
        crate::term::shown(target),
        if speed.is_some() {
            "nothing is written but the probe's file, removed after it"
        } else {
            "nothing is written"
        },
        crate::term::shown(scratch),
    );
    let not_enough = |free: Option<u64>, bytes: u64| match free {
        Some(f) if f < bytes.saturating_add(margin(bytes)) => {
            "  NOT ENOUGH FREE SPACE: would be skipped"
        }
        _ => "",
    };
    if let Some(sp) = speed {
        s.push_str(&format!(
            "probe ({} s of fio on the target): {}\n",
            super::probe::PROBE_JOB_S * 6,
            sp.describe()
        ));
    }
    // a job's time: from the probe's speed where there is one
    let time_of = |job: &Job, prefilled: bool| match speed {
        Some(sp) => super::probe::estimate(job.tool, &job.invocation, sp, prefilled),
        None => job.invocation.estimate_s,
    };
    let mut total_s = 0.0;
    // what the sustained tests may save by stopping early
    let mut saved_s = 0.0;
    let mut prefill_skipped = false;
    for (i, j) in jobs.iter().enumerate() {
        let mut free_now = free;
        if let Some(p) = prefill {
            let bytes = p.job.invocation.bytes;
            if p.before == i {
                let skipped = not_enough(free, bytes);
                prefill_skipped = !skipped.is_empty();
                let t = time_of(&p.job, false);
                if !prefill_skipped {
                    total_s += t;
                }
                s.push_str(&format!(
                    "pre-fill before {} (once, not a test): writes {} of incompressible data, \
                     the file the sustained and pre-filled tests read; about {}, limit {} s{skipped}\n    {}\n",
                    j.test_id,
                    gib(bytes),
                    progress::clock(t),
                    p.job.timeout_s,
                    p.job.invocation.display()
                ));
            }
            // the pre-filled file stays until the last sustained test ends
            if (p.before..=p.last).contains(&i) {
                free_now = free.map(|f| f.saturating_sub(bytes));
            }
        }
        let mut fits = not_enough(free_now, j.invocation.bytes);
        if fits.is_empty() && prefill_skipped && j.reads_prefill() && prefill.is_some() {
            fits = "  NO PRE-FILL: would be skipped";
        }
        // a test that would be skipped takes no time
        let t = time_of(j, j.reads_prefill() && prefill.is_some());
        if fits.is_empty() {
            total_s += t;
        }
        let about = if speed.is_some() {
            format!("about {}, ", progress::clock(t))
        } else {
            String::new()
        };
        let writes = if j.reads_prefill() && prefill.is_some() {
            let into = match j.invocation.parameters.get("rw").and_then(|v| v.as_str()) {
                Some(rw) if rw.contains("write") || rw.contains("trim") => {
                    "writes into the pre-filled file"
                }
                _ => "reads the pre-filled file",
            };
            match &j.watch {
                Some(w) if w.full => format!(
                    "{into}, its whole window of {} (--full-sustained)",
                    minutes(w.window_s)
                ),
                Some(w) => {
                    let earliest =
                        crate::timeline::stop::earliest_stop_s(w.window_s, 1.0, &w.bursting);
                    saved_s += w.window_s - earliest;
                    // `4 to 45 minutes`; `16 s to 2 minutes`
                    let from = minutes(earliest);
                    let range = match from.strip_suffix(" minutes") {
                        Some(m) if w.window_s >= 120.0 => {
                            format!("{m} to {}", minutes(w.window_s))
                        }
                        _ => format!("{from} to {}", minutes(w.window_s)),
                    };
                    format!(
                        "{into}, {range} (stopped once its answer is known; {})",
                        w.bursting.words()
                    )
                }
                None => into.to_string(),
            }
        } else {
            format!("writes up to {}", gib(j.invocation.bytes))
        };
        s.push_str(&format!(
            "{} r{}/{}: {writes}, {about}limit {} s{fits}\n    {}\n",
            j.test_id,
            j.repetition,
            j.repetitions,
            j.timeout_s,
            j.invocation.display()
        ));
    }
    let early = if saved_s > 0.0 {
        format!(
            "; {} if the sustained tests stop at their earliest",
            progress::clock((total_s - saved_s).max(0.0))
        )
    } else {
        String::new()
    };
    let prefill_words = if prefill.is_some() {
        ", the pre-fill included"
    } else {
        ""
    };
    match speed {
        Some(_) => s.push_str(&format!(
            "estimated duration: {}{prefill_words}, tests that would be skipped left out{early} \
             (from the probe's speed; a volume that bursts and then slows takes longer)\n",
            progress::clock(total_s),
        )),
        None => s.push_str(&format!(
            "rough duration: {}{prefill_words}, tests that would be skipped left out{early} \
             (the tools' speed decides; --probe measures the target for an estimate)\n",
            progress::clock(total_s),
        )),
    }
    s
}
