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
//! its record is read from the final document alone
//! ([`Watcher::final_document`]).
//!
//! The watcher reads the whole output file as it grows, however long the
//! test runs (a document of a few KiB a second is megabytes after some
//! minutes), and keeps only the last whole document. When the file ends
//! inside a document (fio killed while it wrote its results), that last
//! whole document is the final one: fio's cumulative status of a second
//! before, which the record reads instead, saying so
//! ([`Watcher::cut_off`]); and when fio left no logs, the per-second series
//! read from its status documents is the record's timeline
//! ([`Watcher::timeline`]).

use serde_json::Value;

use crate::record::{Series, StopReason, Timeline};
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

/// The directions of a status document, in the order of [`Point::dirs`].
const DIRS: [&str; 2] = ["read", "write"];

/// A cumulative point of fio's status: I/Os and bytes per direction
/// (read, write; trims count in the totals only), their sums over every
/// job and direction, and the longest job runtime (ms).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Point {
    ios: f64,
    bytes: f64,
    runtime_ms: f64,
    /// `(I/Os, bytes)` of reads and of writes.
    dirs: [(f64, f64); 2],
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
    /// The same seconds per direction (read, write): IOPS and B/s.
    dirs: [Series; 2],
    /// The text of the last whole fio document read.
    last_whole: Option<String>,
    /// fio's runtime (s) in that document.
    last_whole_s: f64,
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
            dirs: Default::default(),
            last_whole: None,
            last_whole_s: 0.0,
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
        let grew = self.read(text);
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

    /// Reads `text`, what fio appended to its output file after it ended:
    /// its last documents, read as the others were, with no rule applied.
    pub fn finish(&mut self, text: &str) {
        self.read(text);
    }

    /// Reads the whole documents `text` completes; whether the series grew.
    fn read(&mut self, text: &str) -> bool {
        self.pending.push_str(text);
        let mut grew = false;
        for (doc, raw) in take_documents(&mut self.pending) {
            let Some(p) = point(&doc) else { continue };
            self.last_whole = Some(raw);
            self.last_whole_s = p.runtime_ms / 1000.0;
            let dt = p.runtime_ms - self.last.runtime_ms;
            if dt <= 0.0 {
                continue;
            }
            let rate = |now: f64, then: f64| ((now - then).max(0.0) * 1000.0 / dt).max(0.0);
            // a late dump covers more than a second: its rate for each
            let seconds = ((dt / 1000.0).round() as usize).max(1);
            let judged = if self.watch.by_bw {
                rate(p.bytes, self.last.bytes)
            } else {
                rate(p.ios, self.last.ios)
            };
            self.series.extend(std::iter::repeat_n(judged, seconds));
            for (s, (now, then)) in self.dirs.iter_mut().zip(p.dirs.iter().zip(self.last.dirs)) {
                let iops = rate(now.0, then.0);
                let bw = rate(now.1, then.1);
                s.iops.extend(std::iter::repeat_n(iops, seconds));
                s.bw.extend(std::iter::repeat_n(bw, seconds));
            }
            self.last = p;
            grew = true;
        }
        grew
    }

    /// What the record reads: the last whole fio document of the output
    /// (fio's final results, unless [`cut_off`](Watcher::cut_off)); `None`
    /// when there was none.
    pub fn final_document(&self) -> Option<&str> {
        self.last_whole.as_deref()
    }

    /// The text of a document the output ends inside, if it does: fio's
    /// final results cut off (killed while it wrote them, its disk full).
    pub fn cut_off(&self) -> Option<&str> {
        let rest = self.pending.trim_start();
        rest.starts_with('{').then_some(rest)
    }

    /// fio's runtime in seconds at the document [`final_document`]
    /// returns.
    ///
    /// [`final_document`]: Watcher::final_document
    pub fn final_document_s(&self) -> f64 {
        self.last_whole_s
    }

    /// The per-second series read from fio's status documents as a
    /// timeline (IOPS and bandwidth of each direction that moved data),
    /// for a test whose fio left no per-second logs; `None` before the
    /// first second.
    pub fn timeline(&self) -> Option<Timeline> {
        let [read, write] = &self.dirs;
        let moved = |s: &Series| s.iops.iter().any(|v| *v > 0.0);
        let series = |s: &Series| moved(s).then(|| Box::new(s.clone()));
        let timeline = Timeline {
            interval_s: STATUS_INTERVAL_S as f64,
            read: series(read),
            write: series(write),
            trim: None,
            logs: Default::default(),
            pattern: None,
            burst_on_s: None,
            burst_off_s: None,
        };
        (timeline.read.is_some() || timeline.write.is_some()).then_some(timeline)
    }
}

/// The whole fio JSON documents at the start of `pending`, each with its
/// text, removed from it; a document still being written stays. Text
/// between documents (fio's `fio: terminating on signal 2`) is skipped.
fn take_documents(pending: &mut String) -> Vec<(Value, String)> {
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
                let end = open + stream.byte_offset();
                out.push((v, rest[open..end].to_string()));
                used += end;
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
            if let Some(k) = DIRS.iter().position(|d| *d == dir) {
                p.dirs[k].0 += num("total_ios");
                p.dirs[k].1 += num("io_bytes");
            }
        }
    }
    Some(p)
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

    /// The total reads of a fio document's jobs.
    fn reads(doc: &str) -> u64 {
        let v: Value = serde_json::from_str(doc).unwrap();
        v["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| j["read"]["total_ios"].as_u64().unwrap())
            .sum()
    }

    #[test]
    fn the_final_document_is_the_last_one() {
        let mut w = Watcher::new(watch(Bursting::Unknown));
        w.feed(STREAM);
        let last = w.final_document().unwrap();
        assert!(last.starts_with('{') && last.ends_with('}'));
        assert_eq!(last.matches("\"fio version\"").count(), 1);
        assert!(!last.contains("terminating"));
        assert_eq!(w.cut_off(), None);
        // the parser reads it as one run: fio's final count, 1,601 reads
        // over 8.0 s at --rate_iops=200
        let parsed = crate::tools::fio::parse(last).unwrap();
        assert_eq!(parsed.len(), 1);
        assert_eq!(reads(last), 1601);
        assert_eq!(w.final_document_s(), 8.002);
    }

    #[test]
    fn an_output_cut_inside_its_final_document_keeps_the_last_whole_one() {
        // the final document begins at the last `{` before its version
        let start = STREAM[..STREAM.rfind("\"fio version\"").unwrap()]
            .rfind('{')
            .unwrap();
        let end = STREAM.trim_end().len();
        let mut whole = Watcher::new(watch(Bursting::Unknown));
        whole.feed(&STREAM[..start]);
        let before = whole.final_document().unwrap().to_string();
        // a document the parser reads as one run
        assert_eq!(reads(&before), 1581);
        assert_eq!(crate::tools::fio::parse(&before).unwrap().len(), 1);
        for cut in start + 1..STREAM.len() {
            // as the runner reads it: while fio runs, then what is left
            let mut w = whole.clone();
            w.finish(&STREAM[start..cut]);
            let doc = w.final_document().unwrap();
            if cut < end {
                // the status document of a second before, said to be one
                assert_eq!(doc, before, "cut at {cut}");
                assert!(
                    w.cut_off().is_some_and(|c| c.starts_with('{')),
                    "cut at {cut}"
                );
                assert_eq!(w.final_document_s(), 7.898, "cut at {cut}");
            } else {
                assert_eq!(reads(doc), 1601, "cut at {cut}");
                assert_eq!(w.cut_off(), None, "cut at {cut}");
            }
            // the seconds read before the cut are the same either way
            assert!(w.series().len() >= whole.series().len(), "cut at {cut}");
        }
    }

    #[test]
    fn the_status_documents_give_a_timeline_of_each_direction() {
        let mut w = Watcher::new(watch(Bursting::Unknown));
        w.feed(STREAM);
        let t = w.timeline().unwrap();
        assert_eq!(t.interval_s, 1.0);
        assert!(t.write.is_none(), "a read test wrote nothing");
        let read = t.read.unwrap();
        assert_eq!(read.iops, w.series());
        // 4 KiB reads: 4,096 bytes an I/O over the run (a second's bytes
        // and I/Os are counted at slightly different moments)
        let ratio = read.bw.iter().sum::<f64>() / read.iops.iter().sum::<f64>();
        assert!((ratio - 4096.0).abs() < 0.01 * 4096.0, "{ratio}");
        assert_eq!(read.bw.len(), read.iops.len());
        assert_eq!(Watcher::new(watch(Bursting::Unknown)).timeline(), None);
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
