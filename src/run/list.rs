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
    free: Option<u64>,
) -> String {
    let mut s = format!(
        "dry run of suite {}: {} jobs{} against `{}` (nothing is written)\nscratch directory: {}\nfree space: {}\n",
        crate::term::shown_line(suite),
        jobs.len(),
        if prefill.is_some() { " and a pre-fill" } else { "" },
        crate::term::shown(target),
        crate::term::shown(scratch),
        free.map(gib).unwrap_or_else(|| "unknown".into())
    );
    let not_enough = |free: Option<u64>, bytes: u64| match free {
        Some(f) if f < bytes.saturating_add(margin(bytes)) => {
            "  NOT ENOUGH FREE SPACE: would be skipped"
        }
        _ => "",
    };
    let mut total_s = 0.0;
    // what the sustained tests may save by stopping early
    let mut saved_s = 0.0;
    for (i, j) in jobs.iter().enumerate() {
        let mut free_now = free;
        if let Some(p) = prefill {
            let bytes = p.job.invocation.bytes;
            if p.before == i {
                total_s += p.job.invocation.estimate_s;
                s.push_str(&format!(
                    "pre-fill before {} (once, not a test): writes {} of incompressible data, \
                     the file the sustained and pre-filled tests read; about {}, limit {} s{}\n    {}\n",
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
            "{} r{}/{}: {writes}, limit {} s{fits}\n    {}\n",
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
    s.push_str(&format!(
        "rough duration: {}{}{early} (the tools' speed decides)\n",
        progress::clock(total_s),
        if prefill.is_some() {
            ", the pre-fill included"
        } else {
            ""
        }
    ));
    s
}
