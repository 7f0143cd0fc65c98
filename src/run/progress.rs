//! Progress on stderr: a live line on a terminal (test, repetition, elapsed,
//! estimated time left); otherwise one plain line per finished test and,
//! while a test runs long, a line every minute saying so; and the summary
//! table at the end.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use super::plan::Job;
use crate::record::{Record, Status};
use crate::term::{shown, shown_line};
use crate::units::Unit;

/// Seconds between the lines that say a test is still running, when
/// stderr is no terminal (a log file, the fleet playbook's output).
pub const TICK_S: u64 = 60;

/// The progress display of one run.
pub struct Progress {
    bar: Option<ProgressBar>,
    /// When the current job started and the run's estimate left at that moment.
    left: Arc<Mutex<(Instant, f64)>>,
    /// What runs now (`[3/36] test r1/3`), for the lines without a terminal.
    current: Arc<Mutex<Option<String>>>,
    /// The thread printing those lines, and the flag that stops it.
    ticker: Option<(Arc<AtomicBool>, JoinHandle<()>)>,
    total: usize,
    start: Instant,
    /// Last measured duration per test id, for the estimate of what is left.
    measured: BTreeMap<String, f64>,
}

/// The line that says a step still runs: what, for how long, and the run's
/// estimate left (`left` seconds when it started).
pub fn still_running(what: &str, elapsed_s: f64, left: f64) -> String {
    format!(
        "{what} running for {}, about {} left in the run",
        clock(elapsed_s),
        clock(left - elapsed_s)
    )
}

impl Progress {
    /// A display for `total` jobs: live when stderr is a terminal, else a
    /// line every `tick_s` seconds while a test runs ([`TICK_S`] but in tests).
    pub fn new(total: usize, tick_s: u64) -> Progress {
        let left = Arc::new(Mutex::new((Instant::now(), 0.0)));
        let current = Arc::new(Mutex::new(None));
        let shared = Arc::clone(&left);
        let terminal = std::io::stderr().is_terminal();
        let ticker = (!terminal).then(|| {
            let stop = Arc::new(AtomicBool::new(false));
            let handle = spawn_ticker(
                Duration::from_secs(tick_s.max(1)),
                Arc::clone(&left),
                Arc::clone(&current),
                Arc::clone(&stop),
            );
            (stop, handle)
        });
        let bar = terminal.then(|| {
            let bar = ProgressBar::new(total as u64);
            let style = ProgressStyle::with_template(
                "{spinner} [{pos}/{len}] {msg} · {elapsed} elapsed · about {left} left",
            )
            .unwrap_or_else(|_| ProgressStyle::default_spinner())
            // counts down while a job runs, from the estimate made when it started
            .with_key(
                "left",
                move |_: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let (since, left) = *shared.lock().unwrap_or_else(|e| e.into_inner());
                    let _ = w.write_str(&clock(left - since.elapsed().as_secs_f64()));
                },
            );
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Progress {
            bar,
            left,
            current,
            ticker,
            total,
            start: Instant::now(),
            measured: BTreeMap::new(),
        }
    }

    /// Seconds the jobs `rest` (the current one first) are expected to take.
    pub fn estimate_left(&self, rest: &[Job]) -> f64 {
        rest.iter()
            .map(|j| {
                self.measured
                    .get(&j.test_id)
                    .copied()
                    .unwrap_or(j.invocation.estimate_s)
            })
            .sum()
    }

    /// Shows that job `index` (0-based) of `jobs` starts.
    pub fn start(&mut self, index: usize, jobs: &[Job]) {
        let Some(job) = jobs.get(index) else { return };
        let left = self.estimate_left(jobs.get(index..).unwrap_or(&[]));
        *self.left.lock().unwrap_or_else(|e| e.into_inner()) = (Instant::now(), left);
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = Some(format!(
            "[{}/{}] {} r{}/{}",
            index + 1,
            self.total,
            job.test_id,
            job.repetition,
            job.repetitions
        ));
        if let Some(bar) = &self.bar {
            bar.set_position(index as u64);
            bar.set_message(
                shown(format_args!(
                    "{} r{}/{}",
                    job.test_id, job.repetition, job.repetitions
                ))
                .to_string(),
            );
        }
    }

    /// Shows that a step which is no job starts (the pre-fill), with `left`
    /// seconds expected for it and the jobs after it.
    pub fn start_step(&mut self, name: &str, left: f64) {
        *self.left.lock().unwrap_or_else(|e| e.into_inner()) = (Instant::now(), left);
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = Some(name.to_string());
        if let Some(bar) = &self.bar {
            bar.set_message(shown(name).to_string());
        }
    }

    /// Reports a finished job with its record.
    pub fn finish_job(&mut self, index: usize, job: &Job, record: &Record) {
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = None;
        if let Some(d) = record.duration_s {
            self.measured.insert(job.test_id.clone(), d);
        }
        let what = match record.status {
            Status::Ok => match record.metrics.get(&job.headline) {
                Some(m) => format!("ok  {} {}", job.headline, human(m.value, m.unit)),
                None => "ok".to_string(),
            },
            s => format!(
                "{}: {}",
                s.name(),
                record
                    .error
                    .as_deref()
                    .unwrap_or("")
                    .lines()
                    .next()
                    .unwrap_or("")
            ),
        };
        let time = record
            .duration_s
            .map(|d| {
                format!(
                    " ({d:.1} s{})",
                    record.stop.as_ref().map(stop_words).unwrap_or_default()
                )
            })
            .unwrap_or_default();
        let line = format!(
            "[{}/{}] {} r{}/{} {what}{time}",
            index + 1,
            self.total,
            job.test_id,
            job.repetition,
            job.repetitions
        );
        self.line(&line);
        if let Some(bar) = &self.bar {
            bar.set_position(index as u64 + 1);
        }
    }

    /// Prints a line above the live display (or plainly), through
    /// [`shown`]: it holds test ids, paths and tools' error lines.
    pub fn line(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(shown(text).to_string()),
            None => crate::tell!("{}", shown(text)),
        }
    }

    /// Removes the live display; returns the run's wall time.
    pub fn done(mut self) -> Duration {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        self.stop_ticker();
        self.start.elapsed()
    }

    /// Stops the thread of the lines without a terminal, if there is one.
    fn stop_ticker(&mut self) {
        if let Some((stop, handle)) = self.ticker.take() {
            stop.store(true, Ordering::SeqCst);
            let _ = handle.join();
        }
    }
}

impl Drop for Progress {
    /// A run that ends early (an error) stops the lines too.
    fn drop(&mut self) {
        self.stop_ticker();
    }
}

/// The thread that prints [`still_running`] every `every` of a step's time
/// (not of the run's: a new step starts its count anew), until `stop`.
fn spawn_ticker(
    every: Duration,
    left: Arc<Mutex<(Instant, f64)>>,
    current: Arc<Mutex<Option<String>>>,
    stop: Arc<AtomicBool>,
) -> JoinHandle<()> {
    std::thread::spawn(move || {
        // (step start, lines printed for it)
        let mut printed: (Option<Instant>, u32) = (None, 0);
        while !stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(100).min(every));
            let (since, estimate) = *left.lock().unwrap_or_else(|e| e.into_inner());
            let Some(what) = current.lock().unwrap_or_else(|e| e.into_inner()).clone() else {
                continue;
            };
            if printed.0 != Some(since) {
                printed = (Some(since), 0);
            }
            let elapsed = since.elapsed();
            if elapsed >= every * (printed.1 + 1) {
                printed.1 += 1;
                crate::tell!(
                    "{}",
                    shown(still_running(&what, elapsed.as_secs_f64(), estimate))
                );
            }
        }
    })
}

/// `m:ss` (or `h:mm:ss`) for a number of seconds.
pub fn clock(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// A value in a canonical unit written for people, as the site writes it
/// (`crate::format::value`: `215 µs`, `98.3 MB/s`); a unit diskdash does not
/// know is kept as the record has it.
pub fn human(value: f64, unit: &str) -> String {
    match Unit::parse(unit) {
        Some(u) => crate::format::value(value, u),
        None => format!("{} {unit}", crate::format::number(value)),
    }
}

/// The summary table: per test, how its runs ended and the median (and
/// range) of its headline metric.
pub fn summary(jobs: &[Job], records: &[Record]) -> String {
    let mut rows: Vec<[String; 4]> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for job in jobs {
        if seen.contains(&job.test_id.as_str()) {
            continue;
        }
        seen.push(&job.test_id);
        let mine: Vec<&Record> = records
            .iter()
            .filter(|r| r.test.id == job.test_id)
            .collect();
        if mine.is_empty() {
            rows.push([
                shown_line(&job.test_id).to_string(),
                "not run".into(),
                String::new(),
                String::new(),
            ]);
            continue;
        }
        let mut counts = Vec::new();
        for s in [Status::Ok, Status::Failed, Status::Skipped] {
            let n = mine.iter().filter(|r| r.status == s).count();
            if n > 0 {
                counts.push(format!("{n} {}", s.name()));
            }
        }
        let mut values: Vec<(f64, &str)> = mine
            .iter()
            .filter_map(|r| r.metrics.get(&job.headline))
            .map(|m| (m.value, m.unit))
            .collect();
        // sorted so the median is the middle one
        values.sort_by(|a, b| a.0.total_cmp(&b.0));
        let value = match values.len() {
            0 => String::new(),
            1 => human(values[0].0, values[0].1),
            n => {
                let mid = if n % 2 == 1 {
                    values[n / 2].0
                } else {
                    (values[n / 2 - 1].0 + values[n / 2].0) / 2.0
                };
                format!(
                    "{} (median; {} .. {})",
                    human(mid, values[0].1),
                    human(values[0].0, values[0].1),
                    human(values[n - 1].0, values[0].1)
                )
            }
        };
        // escaped here, so that the columns line up as printed
        rows.push([
            shown_line(&job.test_id).to_string(),
            counts.join(", "),
            shown_line(&job.headline).to_string(),
            shown_line(value).to_string(),
        ]);
    }
    let header = ["test", "runs", "metric", "value"];
    let mut widths = header.map(str::len);
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let fmt_row = |cells: [&str; 4]| {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            if i == 3 {
                s.push_str(c);
            } else {
                s.push_str(&format!("{c:<w$}  ", w = widths[i]));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = fmt_row(header);
    for r in &rows {
        out.push_str(&fmt_row([&r[0], &r[1], &r[2], &r[3]]));
    }
    // the tests that kept a timeline: how the volume behaved over time
    for job in jobs.iter().filter(|j| j.repetition == 1) {
        for r in records.iter().filter(|r| r.test.id == job.test_id) {
            if let Some(line) = pattern_line(r) {
                out.push_str(&format!(
                    "{} r{}: {}\n",
                    shown_line(&r.test.id),
                    r.repetition,
                    line
                ));
            }
        }
    }
    out
}

/// What a record's timeline says, for the end of a run: its pattern, the
/// burst and sustained levels of the judged series (bandwidth for a
/// throughput test, IOPS otherwise; reads before writes, as
/// [`crate::timeline::classify`] chooses) and the steady-state verdict
/// with its range and slope. `None` without a classified timeline.
pub fn pattern_line(r: &Record) -> Option<String> {
    let pattern = r.timeline.as_ref()?.pattern?;
    let by_bw = crate::tools::judge(r.test.tool).kind(&r.test.parameters)
        == crate::metrics::TestKind::Throughput;
    let what = if by_bw { "bw" } else { "iops" };
    let level = |name: &str| {
        ["read", "write"]
            .iter()
            .find_map(|d| r.metrics.get(&format!("{d}_{what}_{name}")))
            .map(|m| human(m.value, m.unit))
    };
    let mut s = pattern.name().to_string();
    match (level("burst"), level("sustained")) {
        (Some(b), Some(l)) => {
            let dur = r
                .metrics
                .get("burst_duration")
                .map(|m| format!(" for {}", clock(m.value)))
                .unwrap_or_default();
            s.push_str(&format!(", {b}{dur}, then {l}"));
        }
        (None, Some(l)) => s.push_str(&format!(" at {l}")),
        _ => {}
    }
    let ss = match r.metrics.get("steady_state").map(|m| m.value) {
        Some(v) if v > 0.0 => "steady state reached",
        Some(_) => "steady state NOT reached",
        None => return Some(s),
    };
    let pct = |n: &str| {
        r.metrics
            .get(n)
            .map(|m| format!("{:.1} %", m.value))
            .unwrap_or_else(|| "unknown".into())
    };
    s.push_str(&format!(
        "; {ss} (range {}, slope {})",
        pct("ss_range"),
        pct("ss_slope")
    ));
    Some(s)
}

/// How a watched sustained test ended, for its progress line:
/// `, stopped early: flat-no-burst-possible at 240 s of 2,700`; a test that
/// ran its window says nothing more.
fn stop_words(stop: &crate::record::Stop) -> String {
    use crate::record::StopReason;
    match stop.reason {
        StopReason::BurstThenSteady | StopReason::FlatNoBurstPossible | StopReason::Interrupted => {
            format!(
                ", stopped early: {} at {} s of {}",
                stop.reason.name(),
                crate::format::whole(stop.stopped_at_s.round() as u64),
                crate::format::whole(stop.window_s.round() as u64)
            )
        }
        StopReason::WindowEnd | StopReason::FullWindowRequested => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_stopped_early_says_why_and_when() {
        use crate::record::{Stop, StopReason};
        let stop = |reason| Stop {
            reason,
            stopped_at_s: 240.4,
            window_s: 2700.0,
            burst_not_excluded: false,
        };
        assert_eq!(
            stop_words(&stop(StopReason::FlatNoBurstPossible)),
            ", stopped early: flat-no-burst-possible at 240 s of 2,700"
        );
        assert_eq!(
            stop_words(&stop(StopReason::BurstThenSteady)),
            ", stopped early: burst-then-steady at 240 s of 2,700"
        );
        assert_eq!(stop_words(&stop(StopReason::WindowEnd)), "");
        assert_eq!(stop_words(&stop(StopReason::FullWindowRequested)), "");
    }

    #[test]
    fn human_units() {
        // the site's formatting: three significant digits, µs, separators
        assert_eq!(human(123_456_789.0, "B/s"), "123 MB/s");
        assert_eq!(human(0.000_215, "s"), "215 µs");
        assert_eq!(human(0.0123, "s"), "12.3 ms");
        assert_eq!(human(20456.4, "IOPS"), "20,460 IOPS");
        assert_eq!(human(3.0, "%"), "3.00 %");
        assert_eq!(human(3.0, "furlongs"), "3.00 furlongs");
    }

    #[test]
    fn summary_shows_median_and_range_of_the_headline() {
        let suite = crate::run::plan::parse_suite(
            "[[test]]\nid = 'd'\ntool = 'dd'\ncount = 1\n[[test]]\nid = 'e'\ntool = 'dd'\ncount = 1",
            "s",
        )
        .unwrap();
        let sel = crate::run::plan::Selection {
            repeat: Some(3),
            ..Default::default()
        };
        let jobs = crate::run::plan::plan(
            &suite,
            &sel,
            std::path::Path::new("/s"),
            &Default::default(),
        )
        .unwrap()
        .jobs;
        let rec = |id: &str, bw: Option<f64>, status: Status| {
            let mut metrics = BTreeMap::new();
            if let Some(v) = bw {
                metrics.insert(
                    "write_bw".to_string(),
                    crate::record::Metric::new(v, Unit::BytesPerSec),
                );
            }
            let text = format!(
                r#"{{"schema":"diskdash.record/1","id":"x","source":{{"kind":"run","diskdash_version":"0"}},
                "subject":{{}},"host":{{}},"target":{{}},"test":{{"id":"{id}","tool":"dd"}},
                "repetition":1,"status":"{}"}}"#,
                status.name()
            );
            let mut r: Record = serde_json::from_str(&text).unwrap();
            r.metrics = metrics.into_iter().collect();
            r
        };
        let records = [
            rec("d", Some(3e6), Status::Ok),
            rec("d", Some(1e6), Status::Ok),
            rec("d", None, Status::Failed),
            rec("d", Some(2e6), Status::Ok),
        ];
        let table = summary(&jobs, &records);
        assert_eq!(
            table,
            "test  runs            metric    value\n\
             d     3 ok, 1 failed  write_bw  2.00 MB/s (median; 1.00 MB/s .. 3.00 MB/s)\n\
             e     not run\n"
        );
    }

    #[test]
    fn the_summary_ends_with_the_pattern_and_steady_state_of_each_timeline() {
        let suite = crate::run::plan::parse_suite(
            "[[test]]\nid = 's'\ntool = 'fio'\nrw = 'randread'\nbs = '4k'\nsize = '1G'\n\
             time_based = true\nruntime = 600",
            "s",
        )
        .unwrap();
        let jobs = crate::run::plan::plan(
            &suite,
            &Default::default(),
            std::path::Path::new("/s"),
            &Default::default(),
        )
        .unwrap()
        .jobs;
        let text = r#"{"schema":"diskdash.record/1","id":"x","source":{"kind":"run","diskdash_version":"0"},
            "subject":{},"host":{},"target":{},"test":{"id":"s","tool":"fio","parameters":{"rw":"randread","bs":4096}},
            "repetition":1,"status":"ok","timeline":{"interval_s":1,"logs":{},"pattern":"credit-burst"},
            "metrics":{"read_iops":{"value":900,"unit":"IOPS"},
              "read_iops_burst":{"value":3000,"unit":"IOPS"},"read_iops_sustained":{"value":500,"unit":"IOPS"},
              "read_bw_burst":{"value":12288000,"unit":"B/s"},"read_bw_sustained":{"value":2048000,"unit":"B/s"},
              "burst_duration":{"value":1800,"unit":"s"},"steady_state":{"value":1,"unit":"count"},
              "ss_range":{"value":4.25,"unit":"%"},"ss_slope":{"value":0.5,"unit":"%"}}}"#;
        let mut r: Record = serde_json::from_str(text).unwrap();
        let table = summary(&jobs, std::slice::from_ref(&r));
        assert!(
            table.ends_with(
                "s r1: credit-burst, 3,000 IOPS for 30:00, then 500 IOPS; \
                 steady state reached (range 4.2 %, slope 0.5 %)\n"
            ),
            "{table}"
        );
        // no burst: the level alone
        r = serde_json::from_str(&text.replace(r#""read_iops_burst""#, r#""other""#)).unwrap();
        r.metrics
            .insert("steady_state", crate::record::Metric::new(0.0, Unit::Count));
        r.timeline.as_mut().unwrap().pattern = Some(crate::record::Pattern::Flat);
        assert_eq!(
            pattern_line(&r).unwrap(),
            "flat at 500 IOPS; steady state NOT reached (range 4.2 %, slope 0.5 %)"
        );
        r.timeline.as_mut().unwrap().pattern = None;
        assert_eq!(pattern_line(&r), None);
        assert!(!summary(&jobs, &[r]).contains(" r1: "));
    }

    #[test]
    fn clock_formats() {
        assert_eq!(clock(59.6), "1:00");
        assert_eq!(clock(3725.0), "1:02:05");
        assert_eq!(clock(-3.0), "0:00");
    }
}
