//! One file, several fio runs: where one invocation's output ends and the
//! next begins.
//!
//! Reporting groups only mean something within one invocation: every run
//! starts again at `groupid=0`, so runs appended with `>>` or pasted one
//! after the other (`fio a.fio && fio b.fio`) must never be added together.
//! A new invocation starts at
//!
//! - a job header (`name: (g=0): rw=...`), a `fio-X.Y` version line or a
//!   fio command line after output was seen: fio prints its headers and
//!   version once, before any result;
//! - a job result (`name: (groupid=N, ...)`) after a `Run status group`
//!   summary: fio prints every job's result before the group summaries;
//! - a second fio JSON object, or a JSON object after text results when a
//!   command line stands between them (without one, the JSON is the same
//!   run printed with `--output-format=normal,json`);
//! - a terse line of another terse or fio version than the line before, of
//!   a lower group, or with other disk utilisation figures (fio measures
//!   them once per run and prints them on every line), or after other
//!   output when a command line stands between them.
//!
//! A command line (or any `$ ...` prompt line) pasted after one run's output
//! belongs to the run that follows it.

use super::json::Objects;
use super::pasted::command_line;
use super::terse::terse_line;
use super::text::{job_header, job_result_start, version_line};

/// What has been seen in the invocation being read.
#[derive(Default)]
struct Seen {
    text_results: bool,
    status: bool,
    json: bool,
    /// The last terse line seen: terse version, fio version, group, disk
    /// utilisation.
    terse: Option<(String, String, i64, String)>,
    /// Where the first prompt or command line after output began.
    prompt_at: Option<usize>,
}

impl Seen {
    fn output(&self) -> bool {
        self.text_results || self.json || self.terse.is_some() || self.status
    }
}

/// Splits `text` into the parts printed by separate fio invocations, in
/// order. Text that holds one run (or no fio output) is one part.
pub(super) fn invocations(text: &str) -> Vec<&str> {
    let mut cuts = vec![0];
    let mut seen = Seen::default();
    let mut offset = 0;
    let mut skip_to = 0;
    let objects = Objects::of(text);
    let keys: Vec<usize> = {
        let mut keys: Vec<usize> = ["\"jobs\"", "\"client_stats\""]
            .iter()
            .flat_map(|k| text.match_indices(k).map(|(at, _)| at))
            .collect();
        keys.sort_unstable();
        keys
    };
    for line in text.split_inclusive('\n') {
        let at = offset;
        offset += line.len();
        if at < skip_to {
            continue;
        }
        let t = line.trim();
        if t.starts_with('{') {
            let start = at + (line.len() - line.trim_start().len());
            if let Some(end) = fio_json_end(&objects, &keys, start) {
                if seen.json || (seen.output() && seen.prompt_at.is_some()) {
                    cuts.push(seen.prompt_at.unwrap_or(at));
                    seen = Seen::default();
                }
                seen.json = true;
                seen.prompt_at = None;
                skip_to = end;
                continue;
            }
        }
        if let Some(l) = terse_line(t) {
            let this = (l.terse_version, l.fio_version, l.job.group, l.disk);
            let other_run = match &seen.terse {
                Some((v, f, g, disk)) => {
                    *v != this.0
                        || *f != this.1
                        || this.2 < *g
                        || (!disk.is_empty() && *disk != this.3)
                        || seen.prompt_at.is_some()
                }
                None => seen.output() && seen.prompt_at.is_some(),
            };
            if other_run {
                cuts.push(seen.prompt_at.unwrap_or(at));
                seen = Seen::default();
            }
            seen.terse = Some(this);
            seen.prompt_at = None;
            continue;
        }
        let command = command_line(t).is_some();
        let cut = seen.output()
            && (job_header(line).is_some()
                || command
                || (t.starts_with("fio-") && version_line(t, false).is_some())
                || (seen.status && job_result_start(t).is_some()));
        if cut {
            cuts.push(seen.prompt_at.unwrap_or(at));
            seen = Seen::default();
        }
        if job_result_start(t).is_some() {
            seen.text_results = true;
            seen.prompt_at = None;
        } else if t.starts_with("Run status group") {
            seen.status = true;
            seen.prompt_at = None;
        } else if seen.output() && seen.prompt_at.is_none() && (command || t.starts_with('$')) {
            seen.prompt_at = Some(at);
        }
    }
    cuts.dedup();
    let mut parts = Vec::new();
    for (i, &start) in cuts.iter().enumerate() {
        let end = cuts.get(i + 1).copied().unwrap_or(text.len());
        if let Some(part) = text.get(start..end) {
            parts.push(part);
        }
    }
    parts
}

/// Where the JSON object starting at `start` ends, when it is fio's (it
/// holds a `jobs` or `client_stats` key): `keys` are the offsets of those
/// keys in the text, in order.
fn fio_json_end(objects: &Objects, keys: &[usize], start: usize) -> Option<usize> {
    let end = objects.end_of(start)?;
    let first_after = keys.partition_point(|&k| k < start);
    keys.get(first_after)
        .is_some_and(|&k| k < end)
        .then_some(end)
}
