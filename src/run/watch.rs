//! Watching a sustained fio test while it runs, to stop it once its answer
//! is known ([`crate::timeline::stop`]).
//!
//! fio keeps the samples of its `write_*_log` logs in memory and writes
//! them when it ends, so the logs cannot be followed while it runs. With
//! `--status-interval=1` it appends its whole cumulative status (one JSON
//! document with `--output-format=json`) to its output file every second;
//! the differences of the I/O counts and runtimes of two documents are
//! that second's rates. On SIGINT fio stops its jobs, appends its final
//! results and writes its logs, so a test stopped early keeps both, and
//! its record is read from the final document alone ([`final_document`]).

use serde_json::Value;

use crate::record::StopReason;
use crate::timeline::stop::{self, Bursting};

/// The status dumps fio is asked for, seconds apart.
pub const STATUS_INTERVAL_S: u64 = 1;

/// How a sustained test is watched; set on its job by the plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Watch {
    /// The longest the test runs (its fio `runtime`), seconds.
    pub window_s: f64,
    /// Whether the watched series is bandwidth (a throughput test) rather
    /// than IOPS.
    pub by_bw: bool,
    /// What is known of the volume's bursts, in that series' unit.
    pub bursting: Bursting,
    /// `run --full-sustained`: not watched, the whole window runs.
    pub full: bool,
}

/// A cumulative point of fio's status: I/Os, bytes and the longest job
/// runtime (ms), summed over every job and direction.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Point {
    ios: f64,
    bytes: f64,
    runtime_ms: f64,
}

/// fio's status documents turned into a per-second series as they come.
#[derive(Clone, Debug)]
pub struct Watcher {
    watch: Watch,
    /// Text not yet read as a whole document.
    pending: String,
    last: Point,
    /// One value per second: IOPS or B/s.
    series: Vec<f64>,
    /// Why the rule stopped the test, once it did.
    stopped: Option<StopReason>,
}

impl Watcher {
    /// A watcher of a test with `watch`.
    pub fn new(watch: Watch) -> Watcher {
        Watcher {
            watch,
            pending: String::new(),
            last: Point::default(),
            series: Vec::new(),
            stopped: None,
        }
    }

    /// The per-second series so far.
    pub fn series(&self) -> &[f64] {
        &self.series
    }

    /// Seconds watched so far.
    pub fn elapsed_s(&self) -> f64 {
        self.series.len() as f64
    }

    /// Reads `text`, the next bytes of fio's output file, and returns why
    /// the test should stop now, once (later calls give `None`).
    pub fn feed(&mut self, text: &str) -> Option<StopReason> {
        self.pending.push_str(text);
        let mut grew = false;
        for doc in take_documents(&mut self.pending) {
            let Some(p) = point(&doc) else { continue };
            let dt = p.runtime_ms - self.last.runtime_ms;
            if dt <= 0.0 {
                continue;
            }
            let dv = if self.watch.by_bw {
                p.bytes - self.last.bytes
            } else {
                p.ios - self.last.ios
            };
            let rate = (dv.max(0.0) * 1000.0 / dt).max(0.0);
            // a late dump covers more than a second: its rate for each
            let seconds = ((dt / 1000.0).round() as usize).max(1);
            self.series.extend(std::iter::repeat_n(rate, seconds));
            self.last = p;
            grew = true;
        }
        if !grew || self.stopped.is_some() || self.watch.full {
            return None;
        }
        self.stopped = stop::should_stop(
            &self.series,
            STATUS_INTERVAL_S as f64,
            self.watch.window_s,
            &self.watch.bursting,
        );
        self.stopped
    }
}

/// The whole fio JSON documents at the start of `pending`, removed from
/// it; a document still being written stays. Text between documents
/// (fio's `fio: terminating on signal 2`) is skipped.
fn take_documents(pending: &mut String) -> Vec<Value> {
    let mut out = Vec::new();
    let mut used = 0;
    loop {
        let rest = &pending[used..];
        let Some(open) = rest.find('{') else {
            // nothing but text between documents so far
            used = pending.len();
            break;
        };
        let mut stream = serde_json::Deserializer::from_str(&rest[open..]).into_iter::<Value>();
        match stream.next() {
            Some(Ok(v)) => {
                used += open + stream.byte_offset();
                out.push(v);
            }
            Some(Err(e)) if e.is_eof() => {
                used += open;
                break;
            }
            // not JSON at this brace: skip past it
            _ => used += open + 1,
        }
    }
    pending.drain(..used);
    out
}

/// The cumulative point of one status document: summed over its jobs
/// (and their read, write and trim), the runtime the longest job's.
fn point(doc: &Value) -> Option<Point> {
    let jobs = doc.get("jobs")?.as_array()?;
    let mut p = Point::default();
    for job in jobs {
        for dir in ["read", "write", "trim"] {
            let Some(d) = job.get(dir) else { continue };
            let num = |k: &str| d.get(k).and_then(Value::as_f64).unwrap_or(0.0);
            p.ios += num("total_ios");
            p.bytes += num("io_bytes");
            p.runtime_ms = p.runtime_ms.max(num("runtime"));
        }
    }
    Some(p)
}

/// The final document of an output file fio appended status documents
/// to: the text from the start of its last fio JSON document (what fio
/// printed when it ended); the text itself when it holds one document or
/// none.
pub fn final_document(text: &str) -> &str {
    let marker = "\"fio version\"";
    if text.matches(marker).nth(1).is_none() {
        return text;
    }
    let last = text.rfind(marker).unwrap_or(0);
    match text[..last].rfind('{') {
        Some(open) => &text[open..],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Real fio 3.33 output of `--status-interval=1 --output-format=json`
    /// stopped by SIGINT (see `tests/fixtures/fio/README.md`).
    const STREAM: &str = include_str!("../../tests/fixtures/fio/status-interval-sigint.json");

    fn watch(bursting: Bursting) -> Watch {
        Watch {
            window_s: 60.0,
            by_bw: false,
            bursting,
            full: false,
        }
    }

    #[test]
    fn status_documents_become_per_second_rates() {
        let mut w = Watcher::new(watch(Bursting::Unknown));
        assert_eq!(w.feed(STREAM), None);
        // fio ran at --rate_iops=200 for about 8 s: one sample a second
        let s = w.series();
        assert!((7..=9).contains(&s.len()), "{s:?}");
        for v in &s[1..] {
            assert!((*v - 200.0).abs() < 12.0, "{s:?}");
        }
    }

    #[test]
    fn a_document_split_across_reads_is_read_once_whole() {
        let mut whole = Watcher::new(watch(Bursting::Unknown));
        whole.feed(STREAM);
        let mut parts = Watcher::new(watch(Bursting::Unknown));
        for chunk in STREAM.as_bytes().chunks(977) {
            parts.feed(&String::from_utf8_lossy(chunk));
        }
        assert_eq!(parts.series(), whole.series());
    }

    #[test]
    fn the_final_document_is_the_last_one() {
        let last = final_document(STREAM);
        assert!(last.starts_with('{'));
        assert_eq!(last.matches("\"fio version\"").count(), 1);
        assert!(!last.contains("terminating"));
        // the parser reads it as one run
        let parsed = crate::tools::fio::parse(last).unwrap();
        assert_eq!(parsed.len(), 1);
        // a file of one document is left whole
        assert_eq!(final_document(last), last);
    }

    #[test]
    fn a_flat_volume_known_not_to_burst_is_stopped_by_the_watcher() {
        // 200 IOPS each second for 20 s in a 60 s window: the rule's
        // minimum is 15 s (its floor of 12 samples after the first 3 s)
        let mut w = Watcher::new(watch(Bursting::Never));
        let mut stop = None;
        let mut ios = 0.0;
        for s in 1..=20 {
            ios += 200.0;
            let doc = format!(
                "{{\"fio version\": \"fio-3.33\", \"jobs\": [{{\"read\": {{\"total_ios\": {ios}, \"io_bytes\": {}, \"runtime\": {}}}}}]}}\n",
                ios * 4096.0,
                s * 1000
            );
            if let Some(r) = w.feed(&doc) {
                stop = Some((s, r));
            }
        }
        assert_eq!(stop, Some((15, StopReason::FlatNoBurstPossible)));
        assert_eq!(w.elapsed_s(), 20.0);
    }
}
