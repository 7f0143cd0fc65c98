//! What a timeline adds to a value row of a sustained level: the burst
//! beside the verdict (its performance and value ratios against the
//! baseline's burst), the steady state that qualifies the verdict, and why
//! a configuration of a timed test without a sustained level is not
//! compared.

use crate::analysis::stats::{OfferingData, TestResults};
use crate::metrics::{BURST, SUSTAINED};
use crate::record::{Pattern, Status, Summary};

/// The burst beside a sustained verdict, where the configuration or the
/// baseline bursts.
#[derive(Clone, Debug, PartialEq)]
pub struct Burst {
    /// The configuration's burst level: the median of its `*_burst`
    /// metric, or its sustained level when it has none (a flat volume
    /// gives the same during the baseline's burst as after it).
    pub level: f64,
    /// How the burst comes: `CreditBurst` or `PeriodicBurst`, of the
    /// configuration where it bursts, else of the baseline.
    pub pattern: Pattern,
    /// Whether the burst is the baseline's alone (the configuration is flat).
    pub baseline_only: bool,
    /// Burst level / the baseline's burst level (its sustained level when
    /// it has no burst); `None` for the baseline's own row or a zero level.
    pub performance_ratio: Option<f64>,
    /// Burst performance ratio / price ratio.
    pub value_ratio: Option<f64>,
}

impl Burst {
    /// When the burst ratio holds: `while credits last`, `while bursting`,
    /// `while the baseline's credits last`, `while the baseline bursts`.
    pub fn while_words(&self) -> &'static str {
        match (self.pattern, self.baseline_only) {
            (Pattern::PeriodicBurst, false) => "while bursting",
            (Pattern::PeriodicBurst, true) => "while the baseline bursts",
            (_, false) => "while credits last",
            (_, true) => "while the baseline's credits last",
        }
    }

    /// When the sustained ratio holds: `after`, `between bursts`.
    pub fn after_words(&self) -> &'static str {
        match self.pattern {
            Pattern::PeriodicBurst => "between bursts",
            _ => "after",
        }
    }
}

/// The steady state of a configuration's sustained level over its runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Steady {
    /// Runs that reached the SNIA steady state (`steady_state` 1).
    pub reached: usize,
    /// Runs that tested it (have a `steady_state` metric).
    pub runs: usize,
    /// Median `ss_range`, % of the mean.
    pub range: Option<f64>,
    /// Median `ss_slope`, % of the mean.
    pub slope: Option<f64>,
    /// Whether a run was still high or moving at its end (`not-exhausted`):
    /// its sustained level is a bound, not a level.
    pub not_exhausted: bool,
    /// The runs left out of the level because they never left their
    /// burst ([`TestResults::left_out_note`]).
    pub left_out: Option<String>,
}

impl Steady {
    /// What keeps the level from being trusted as the level that lasts,
    /// as a verdict says it: `sustained level not reached`, `steady state
    /// not reached`, `steady state not reached in 1 of 3 runs`; `None`
    /// when every run reached it.
    pub fn shortfall(&self) -> Option<String> {
        let own = self.own_shortfall();
        match (own, &self.left_out) {
            (Some(a), Some(b)) => Some(format!("{a}; {b}")),
            (a, b) => a.or_else(|| b.clone()),
        }
    }

    /// [`Steady::shortfall`] of the runs that stand behind the level.
    fn own_shortfall(&self) -> Option<String> {
        if self.runs == 0 {
            None
        } else if self.not_exhausted {
            Some("sustained level not reached".into())
        } else if self.reached == self.runs {
            None
        } else if self.reached == 0 {
            Some("steady state not reached".into())
        } else {
            Some(format!(
                "steady state not reached in {} of {} runs",
                self.runs - self.reached,
                self.runs
            ))
        }
    }

    /// The steady state for the value page: `reached (range 4.1%, slope
    /// 2.0%)`, `not reached in 1 of 3 runs (...)`, `sustained level not
    /// reached (...)`, followed by `; 1 run of 20 min left out: ...` where
    /// runs were left out.
    pub fn text(&self) -> String {
        let head = match self.own_shortfall() {
            None if self.runs == 0 => "not judged".to_string(),
            None => "reached".to_string(),
            Some(s) => s
                .strip_prefix("steady state ")
                .map(str::to_string)
                .unwrap_or(s),
        };
        let mut parts = Vec::new();
        if let Some(r) = self.range {
            parts.push(format!("range {}", crate::format::percent(r / 100.0)));
        }
        if let Some(s) = self.slope {
            parts.push(format!("slope {}", crate::format::percent(s / 100.0)));
        }
        let text = if parts.is_empty() {
            head
        } else {
            format!("{head} ({})", parts.join(", "))
        };
        match &self.left_out {
            Some(note) => format!("{text}; {note}"),
            None => text,
        }
    }
}

/// A configuration of a timed test that measured the whole-run twin of a
/// sustained level but has no sustained level, so is not compared on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Unmeasured {
    /// Configuration name.
    pub offering: String,
    /// Why, in words ending `: not compared`: `no timeline: not compared`,
    /// `timeline too short to classify: not compared`.
    pub reason: String,
}

/// What a configuration's sustained tests in a study show of its burst.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lasting {
    /// A timeline shows it bursts (`CreditBurst` or `PeriodicBurst`).
    Bursts(Pattern),
    /// Its timelines are flat: a short test measured what lasts.
    Flat,
    /// No timeline classifies it as bursting or flat.
    NotMeasured,
}

impl Lasting {
    /// How the `ok` records of a configuration classify it: a burst in any
    /// of its timelines makes it bursting; runs left out of a sustained
    /// level (they never left their burst) make it neither.
    pub fn of(records: &[&Summary], o: &OfferingData) -> Lasting {
        let mut flat = false;
        let left_out = |i: usize| o.tests.values().any(|t| t.is_left_out(i));
        for (i, r) in o
            .records
            .iter()
            .filter_map(|&i| Some((i, *records.get(i)?)))
        {
            // a run that never left its burst says nothing of what lasts
            if r.status != Status::Ok || left_out(i) {
                continue;
            }
            match r.timeline.as_ref().and_then(|t| t.pattern) {
                Some(p @ (Pattern::CreditBurst | Pattern::PeriodicBurst)) => {
                    return Lasting::Bursts(p)
                }
                Some(Pattern::Flat) => flat = true,
                _ => {}
            }
        }
        if flat {
            Lasting::Flat
        } else {
            Lasting::NotMeasured
        }
    }

    /// Whether the configuration bursts.
    pub fn bursts(self) -> bool {
        matches!(self, Lasting::Bursts(_))
    }
}

/// Whether every `ok` run of a configuration's short test `t` ran after
/// the credit burst of its own volume had ended: each has a sustained run
/// of the same `diskdash run` (its `run_id`) whose timeline is a credit
/// burst, it started no earlier than that run's start plus its
/// `burst_duration`, and its `metric` is below 90% of that run's burst
/// level where both have one. A run with no such sustained run (another
/// run, an imported record, a periodic burst) is taken to have met the
/// burst, as the whole configuration was before.
pub fn after_burst(records: &[&Summary], o: &OfferingData, t: &TestResults, metric: &str) -> bool {
    let at = |r: &Summary| {
        humantime::parse_rfc3339_weak(r.started_at.as_deref()?)
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()
            .map(|d| d.as_secs_f64())
    };
    // each run's credit bursts: (run id, when it ended, its burst level)
    let bursts: Vec<(&str, f64, Option<f64>)> = o
        .records
        .iter()
        .filter_map(|&i| records.get(i).copied())
        .filter(|r| r.status == Status::Ok)
        .filter(|r| r.timeline.as_ref().and_then(|tl| tl.pattern) == Some(Pattern::CreditBurst))
        .filter_map(|r| {
            let ended = at(r)? + r.metrics.get("burst_duration")?.value;
            let level = r.metrics.get(&format!("{metric}_burst")).map(|m| m.value);
            Some((r.run_id.as_deref()?, ended, level))
        })
        .collect();
    let mut runs = ok_records(records, t).peekable();
    runs.peek().is_some()
        && runs.all(|r| {
            let (Some(run), Some(start)) = (r.run_id.as_deref(), at(r)) else {
                return false;
            };
            let mine = r.metrics.get(metric).map(|m| m.value);
            bursts.iter().any(|&(id, ended, level)| {
                id == run
                    && start >= ended
                    && !matches!((mine, level), (Some(v), Some(b)) if v >= 0.9 * b)
            })
        })
}

/// The `ok` records of a configuration's test.
fn ok_records<'a>(
    records: &'a [&'a Summary],
    t: &'a TestResults,
) -> impl Iterator<Item = &'a Summary> + 'a {
    t.records
        .iter()
        .filter_map(|&i| records.get(i).copied())
        .filter(|r| r.status == Status::Ok)
}

/// How the configuration's runs of a test burst: `CreditBurst` or
/// `PeriodicBurst` from the first run (by id) whose timeline has one.
pub(super) fn burst_pattern(records: &[&Summary], t: &TestResults) -> Option<Pattern> {
    ok_records(records, t)
        .filter_map(|r| r.timeline.as_ref()?.pattern)
        .find(|p| matches!(p, Pattern::CreditBurst | Pattern::PeriodicBurst))
}

/// The steady state of a configuration's runs of a test; `None` when no
/// run tested it.
pub(super) fn steady(records: &[&Summary], t: &TestResults) -> Option<Steady> {
    let (mut reached, mut runs, mut not_exhausted) = (0, 0, false);
    for r in t
        .records
        .iter()
        .filter(|&&i| !t.is_left_out(i))
        .filter_map(|&i| records.get(i).copied())
        .filter(|r| r.status == Status::Ok)
    {
        if let Some(m) = r.metrics.get("steady_state") {
            runs += 1;
            if m.value >= 1.0 {
                reached += 1;
            }
        }
        not_exhausted |=
            r.timeline.as_ref().and_then(|tl| tl.pattern) == Some(Pattern::NotExhausted);
    }
    let median = |m: &str| t.metrics.get(m).map(|s| s.summary.median);
    let left_out = t.left_out_note();
    (runs > 0 || left_out.is_some()).then(|| Steady {
        reached,
        runs,
        range: median("ss_range"),
        slope: median("ss_slope"),
        not_exhausted,
        left_out,
    })
}

/// Why a configuration whose results of a timed test hold the whole-run
/// twin of `metric` (a sustained level) has no row for it; `None` when it
/// has the level or not the twin either.
pub(super) fn unmeasured(records: &[&Summary], t: &TestResults, metric: &str) -> Option<String> {
    let twin = metric.strip_suffix(SUSTAINED)?;
    if t.metrics.contains_key(metric) || !t.metrics.contains_key(twin) {
        return None;
    }
    if let Some(note) = t.left_out_note() {
        return Some(format!("burst not exhausted ({note}): not compared"));
    }
    let why = if ok_records(records, t).any(|r| r.timeline.is_some()) {
        "timeline too short to classify"
    } else {
        "no timeline"
    };
    Some(format!("{why}: not compared"))
}

/// One side of a burst comparison: a configuration's sustained median,
/// its burst median and how it bursts.
pub(super) struct Side {
    pub sustained: f64,
    pub burst: Option<f64>,
    pub pattern: Option<Pattern>,
}

impl Side {
    /// The side of `metric` (a sustained level) in a configuration's results.
    pub(super) fn of(records: &[&Summary], t: &TestResults, metric: &str) -> Option<Side> {
        let base = metric.strip_suffix(SUSTAINED)?;
        let median = |m: &str| t.metrics.get(m).map(|s| s.summary.median);
        Some(Side {
            sustained: median(metric)?,
            burst: median(&format!("{base}{BURST}")),
            pattern: burst_pattern(records, t),
        })
    }
}

/// The burst beside a row: `None` unless the configuration or the baseline
/// bursts. `perf` is the performance ratio of two levels, `price` the
/// row's price ratio.
pub(super) fn burst(
    own: &Side,
    base: Option<&Side>,
    is_baseline: bool,
    perf: &dyn Fn(f64, f64) -> Option<f64>,
    price: Option<f64>,
) -> Option<Burst> {
    let base_bursts = base.is_some_and(|b| b.burst.is_some());
    let (pattern, baseline_only) = match (own.burst, base) {
        (Some(_), _) => (own.pattern.unwrap_or(Pattern::CreditBurst), false),
        (None, Some(b)) if base_bursts => (b.pattern.unwrap_or(Pattern::CreditBurst), true),
        _ => return None,
    };
    let level = own.burst.unwrap_or(own.sustained);
    let performance_ratio = match base {
        Some(b) if !is_baseline => perf(level, b.burst.unwrap_or(b.sustained)),
        _ => None,
    };
    Some(Burst {
        level,
        pattern,
        baseline_only,
        performance_ratio,
        // a ratio that overflows is unknown, never `inf`
        value_ratio: performance_ratio
            .zip(price)
            .and_then(|(p, c)| crate::plausible::finite(p / c)),
    })
}
