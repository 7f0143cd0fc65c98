//! The timeline charts of records: per-second IOPS (bandwidth for a
//! throughput test) with the levels the detector found and a caption, the
//! latency series below, and "measured / promised" where `--limits` gives
//! the offering's published levels. Test pages and run pages both show
//! them through [`charts`]; the study page's summary (`burst`) shares the
//! wording helpers.

use std::borrow::Cow;

use crate::analysis::limits::{Limit, Limits, Promise, Provisioned};
use crate::metrics::TestKind;
use crate::record::{Pattern, Series, Summary, Timeline};
use crate::report::charts;
use crate::report::format::{display_unit, number, with_unit};
use crate::report::site::Output;
use crate::timeline::detect;
use crate::units::Unit;

use super::{ChartView, PageCtx};

/// A timeline chart on a page, with its anchor and where the promised
/// levels come from.
#[derive(Clone, Debug, Default)]
pub struct TimelineView {
    /// `timeline-<record id>`, the target of the study page's links.
    pub anchor: String,
    pub chart: ChartView,
    /// "Promised: AWS gp2 ... (source, as of date)"; empty without a limit.
    pub promised: String,
}

/// Timeline charts a test page draws at most: past this many runs that
/// kept a timeline, it draws the first run of each configuration, for at
/// most this many configurations, and every run's own page draws its chart.
pub(super) const TIMELINES_SHOWN: usize = 20;

/// Whether a test page draws every one of its `timed` runs that kept a
/// timeline (else the first of each configuration, see [`on_test_page`]).
pub(super) fn draws_every_timeline(timed: usize) -> bool {
    timed <= TIMELINES_SHOWN
}

/// The runs whose timelines a test page draws, of `sorted` (its runs in
/// page order, configuration by configuration, each with its
/// configuration's name): every one that kept a timeline, or past
/// [`TIMELINES_SHOWN`] of them the first of each configuration, for the
/// first [`TIMELINES_SHOWN`] configurations; and the sentence that says
/// which, empty when every one is drawn.
pub(super) fn on_test_page<'r>(sorted: &[(&str, &'r Summary)]) -> (Vec<&'r Summary>, String) {
    let timed: Vec<&(&str, &Summary)> = sorted
        .iter()
        .filter(|(_, r)| r.timeline.is_some())
        .collect();
    if draws_every_timeline(timed.len()) {
        return (timed.iter().map(|&&(_, r)| r).collect(), String::new());
    }
    let mut firsts: Vec<&Summary> = Vec::new();
    let mut configs = 0usize;
    let mut last = None;
    for &(name, r) in &timed {
        if last != Some(name) {
            configs += 1;
            if firsts.len() < TIMELINES_SHOWN {
                firsts.push(r);
            }
            last = Some(name);
        }
    }
    let which = if configs > firsts.len() {
        format!(
            "the first run of each of the first {} of its {configs} configurations",
            firsts.len()
        )
    } else {
        "the first run of each configuration".to_string()
    };
    let note = format!(
        "{} kept fio's per-second log, too many to draw here: drawn is {which}. \
         Every run's own page draws its chart, and the study page's burst table compares \
         the configurations.",
        crate::format::count_of(timed.len(), "run", "runs")
    );
    (firsts, note)
}

/// A large count in words: `5.4 M`, `40.0 k`, `900`.
pub(super) fn count_words(v: f64) -> String {
    for (step, name) in [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")] {
        if v >= step {
            return format!("{:.1} {name}", v / step);
        }
    }
    format!("{v:.0}")
}

/// A pattern in words, for a reader who has not seen the chart.
pub(super) fn pattern_words(p: Pattern) -> &'static str {
    match p {
        Pattern::Flat => "flat: one level throughout",
        Pattern::CreditBurst => "credit burst, then a lower level",
        Pattern::PeriodicBurst => "bursts at a regular interval",
        Pattern::NotExhausted => "sustained level not reached",
    }
}

/// `measured / promised unit (pct%)`, both in one display unit:
/// `2,980 / 3,000 IOPS (99%)`; the measured level alone without a promise.
pub(super) fn against(measured: f64, promised: Option<f64>, unit: Unit) -> String {
    let Some(p) = promised.filter(|p| p.is_finite()) else {
        return with_unit(measured, display_unit(unit, measured));
    };
    let du = display_unit(unit, measured.max(p));
    // a share that overflows is not shown: never `(inf%)`
    let pct = match crate::plausible::finite(100.0 * measured / p) {
        Some(pct) if p > 0.0 => format!(" ({pct:.0}%)"),
        _ => String::new(),
    };
    let label = if du.label.is_empty() {
        String::new()
    } else {
        format!(" {}", du.label)
    };
    format!(
        "{} / {}{label}{pct}",
        number(measured / du.factor),
        number(p / du.factor)
    )
}

/// What `limit` promises a record's series, as "measured / promised" for
/// its burst and sustained levels: `burst 2,980 / 3,000 IOPS (99%),
/// sustained 300 / 300 IOPS (100%)`; `None` when it promises neither.
pub(super) fn promised_words(
    promise: Promise,
    burst: Option<f64>,
    sustained: f64,
    unit: Unit,
) -> Option<String> {
    let mut parts = Vec::new();
    if let (Some(b), Some(p)) = (burst, promise.burst) {
        parts.push(format!("burst {}", against(b, Some(p), unit)));
    }
    if let Some(p) = promise.baseline {
        parts.push(format!("sustained {}", against(sustained, Some(p), unit)));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// A promised burst with how long it lasts, as the provider describes
/// it: `bursts to 7,500 IOPS for 60 s in every 120 s` (periodic),
/// `bursts to 3,000 IOPS for up to 30 min` (credit); `None` without a
/// burst level or its length.
pub(super) fn promised_burst(promise: Promise, unit: Unit) -> Option<String> {
    let level = promise.burst.filter(|b| b.is_finite())?;
    let time = promise.burst_time.words()?;
    Some(format!(
        "bursts to {} {time}",
        with_unit(level, display_unit(unit, level))
    ))
}

/// The published limit of a record's configuration, if `limits` has one,
/// with its own provisioned figures in place of the offering's included
/// level ([`Limits::for_config`]).
pub(super) fn limit_of<'a>(limits: &'a Limits, r: &Summary) -> Option<Cow<'a, Limit>> {
    limits.for_config(
        r.subject.provider.as_deref(),
        r.subject.offering.as_deref(),
        r.subject.size_gb,
        Provisioned::of(&r.subject.labels),
    )
}

/// Why `r` is left out of its configuration's sustained level, where it
/// is (see `stats::left_out`).
fn left_out_why(ctx: &PageCtx, r: &Summary) -> Option<String> {
    let study = ctx.analysis.data.studies.get(r.study())?;
    study
        .offerings
        .values()
        .filter_map(|o| o.tests.get(ctx.analysis.data.test_of(r)))
        .flat_map(|t| t.left_out.iter())
        .find(|l| {
            ctx.analysis
                .records
                .get(l.record)
                .is_some_and(|x| x.id == r.id)
        })
        .map(|l| l.why.clone())
}

/// The configuration `r` is pooled in, in its study.
fn config_of<'a>(
    ctx: &'a PageCtx,
    r: &Summary,
) -> Option<&'a crate::analysis::stats::OfferingData> {
    ctx.analysis
        .data
        .studies
        .get(r.study())?
        .offerings
        .values()
        .find(|o| {
            o.records
                .iter()
                .any(|&i| ctx.analysis.records.get(i).is_some_and(|x| x.id == r.id))
        })
}

/// A timeline's title, naming all that tells it apart from the others on
/// a test page: configuration (`provider offering` where no configuration
/// holds the record), test, what it plots, machine and run (`AWS gp3 · 100
/// GB — fio-sustained-randread-4k-qd32 (quick): read IOPS over time, vm-2,
/// run 1`), and the day for a configuration measured more than once.
fn title(ctx: &PageCtx, r: &Summary, what: &str) -> String {
    let config = config_of(ctx, r);
    let mut t = format!(
        "{} — {}: {what} over time, ",
        config.map_or_else(|| r.offering_name(), |o| o.name.clone()),
        ctx.analysis.data.test_of(r)
    );
    if let Some(host) = r.host.name.as_deref().filter(|h| !h.trim().is_empty()) {
        t.push_str(host);
        t.push_str(", ");
    }
    t.push_str(&format!("run {}", r.repetition));
    let remeasured = config.is_some_and(|o| o.measurements.len() > 1);
    if let Some(day) = r
        .started_at
        .as_deref()
        .and_then(|s| s.get(..10))
        .filter(|_| remeasured)
    {
        t.push_str(&format!(" of {day}"));
    }
    t
}

/// A direction's series when it holds any samples.
fn pick(s: &Option<Box<Series>>) -> Option<&Series> {
    s.as_deref()
        .filter(|s| !s.iops.is_empty() || !s.bw.is_empty())
}

/// The latency panel of a series: mean completion latency where fio logged
/// it, else mean total latency, in one display unit for the whole run.
fn latency_panel(series: &Series, interval_s: f64) -> Option<charts::LatencyPanel> {
    let (values, what) = match (&series.clat, &series.lat) {
        (Some(c), _) if !c.is_empty() => (c, "mean completion latency"),
        (_, Some(l)) if !l.is_empty() => (l, "mean latency"),
        _ => return None,
    };
    let usable = |v: &&f64| v.is_finite() && **v >= 0.0;
    let largest = values.iter().filter(usable).copied().fold(0.0, f64::max);
    let du = display_unit(Unit::Seconds, largest);
    // the same rolling median as the levels above, over the same samples
    let rolling = detect(values, interval_s)
        .map(|d| d.rolling)
        .unwrap_or_default();
    Some(charts::LatencyPanel {
        what: what.to_string(),
        unit: du.label.to_string(),
        values: values.iter().map(|v| v / du.factor).collect(),
        rolling: rolling.iter().map(|v| v / du.factor).collect(),
    })
}

/// One chart per record of `records` and its timeline (in the order
/// given), drawn from its judged direction and series: reads before writes,
/// bandwidth for a throughput test, IOPS otherwise. The files are
/// `charts/<study>/<test>/timeline-<record id>.svg`, the same for the test
/// page and the run page. `inline` draws them into the page; else the page
/// shows the files as lazily loaded images: a timeline of 45 minutes is
/// some 100 KB of SVG, and a test page of twenty of them would be megabytes.
pub(super) fn charts(
    ctx: &PageCtx,
    site: &dyn Output,
    records: &[(&Summary, &Timeline)],
    sslug: &str,
    tslug: &str,
    kind: TestKind,
    inline: bool,
) -> anyhow::Result<Vec<TimelineView>> {
    let mut out = Vec::new();
    for &(r, tl) in records {
        let Some((dir, series)) = pick(&tl.read)
            .map(|s| ("read", s))
            .or_else(|| pick(&tl.write).map(|s| ("write", s)))
        else {
            continue;
        };
        let by_bw = kind == TestKind::Throughput && !series.bw.is_empty() || series.iops.is_empty();
        let (values, unit) = if by_bw {
            (&series.bw, Unit::BytesPerSec)
        } else {
            (&series.iops, Unit::Iops)
        };
        let Some(d) = detect(values, tl.interval_s) else {
            continue;
        };
        let largest = values.iter().copied().fold(0.0, f64::max);
        let du = display_unit(unit, largest);
        let scaled = |v: f64| v / du.factor;
        let level = |v: f64| with_unit(v, du);
        let burst = d.burst.map(level);
        let sustained = level(d.sustained);
        let volume = d.burst_volume.map(|v| {
            if by_bw {
                with_unit(v, display_unit(Unit::Bytes, v))
            } else {
                format!("{} I/Os", count_words(v))
            }
        });
        let run_s = values.len() as f64 * tl.interval_s;
        // a run that never left its burst reads as one, whatever it
        // looked like alone
        let left_out = left_out_why(ctx, r);
        let pattern = if left_out.is_some() {
            crate::record::Pattern::NotExhausted
        } else {
            d.pattern
        };
        let mut caption = charts::caption(&charts::Words {
            pattern: pattern.name(),
            burst: burst.as_deref(),
            sustained: &sustained,
            burst_s: d.burst_duration_s,
            volume: volume.as_deref(),
            on_off_s: d.on_s.zip(d.off_s),
            run_s,
            // a level not reached is no steady state, however still its end
            steady: d.steady.reached && pattern != crate::record::Pattern::NotExhausted,
        });
        let limit = limit_of(&ctx.opts.limits, r);
        let limit = limit.as_deref();
        let burst_promised =
            limit.and_then(|l| promised_burst(l.promise(by_bw, r.subject.size_gb), unit));
        let promise = limit.and_then(|l| {
            let promised = l.promise(by_bw, r.subject.size_gb);
            if left_out.is_some() {
                // its level is the burst it never left, against the
                // promised burst, never the promised baseline
                let burst_only = Promise {
                    baseline: None,
                    ..promised
                };
                promised_words(burst_only, Some(d.sustained), d.sustained, unit)
            } else {
                promised_words(promised, d.burst, d.sustained, unit)
            }
        });
        if let Some(why) = &left_out {
            caption.push_str(&format!(
                "; burst not exhausted, left out of the sustained level: {why}"
            ));
        }
        // a run that ended at a level that could be a burst says how long
        // it watched: never a bare "flat"
        if let Some(w) = r
            .warnings
            .iter()
            .find(|w| w.starts_with(crate::record::BURST_NOT_EXCLUDED))
        {
            caption.push_str(&format!("; {w}"));
        }
        if let Some(p) = &promise {
            caption.push_str(&format!(". Measured / promised: {p}"));
        }
        // the burst's kind and length as promised, beside what the
        // detector saw (which may disagree: both are shown)
        if let Some(b) = &burst_promised {
            caption.push_str(&format!(". Promised: {b}"));
        }
        let what = if by_bw { "throughput" } else { "IOPS" };
        let spec = charts::TimelineChart {
            title: title(ctx, r, &format!("{dir} {what}")),
            desc: format!(
                "Per-second {dir} {what} in {} of record {}, with its rolling median, the burst and sustained levels found, and the burst shaded.",
                du.label, r.id
            ),
            unit: du.label.to_string(),
            interval_s: tl.interval_s,
            values: values.iter().copied().map(scaled).collect(),
            rolling: d.rolling.iter().copied().map(scaled).collect(),
            rolling_start_s: d.start_s,
            burst: d.burst.map(scaled),
            // the level of a run that never left its burst is no sustained one
            sustained: left_out.is_none().then(|| scaled(d.sustained)),
            burst_end_s: d.burst_duration_s,
            caption,
            latency: latency_panel(series, tl.interval_s),
        };
        let chart = ctx.chart(
            site,
            format!("charts/{sslug}/{tslug}/timeline-{}.svg", r.id),
            charts::draw(&spec),
        )?;
        let chart = if inline {
            chart
        } else {
            // what the chart found, in words, for who cannot see it
            chart.as_image(format!("{}: {}", spec.title, spec.caption))
        };
        out.push(TimelineView {
            anchor: format!("timeline-{}", r.id),
            chart,
            promised: match (limit, &promise, &burst_promised) {
                (Some(l), Some(_), None) => {
                    format!(
                        "Promised levels: {} {}, {}.",
                        l.provider,
                        l.offering,
                        l.note()
                    )
                }
                (Some(l), _, Some(b)) => {
                    format!(
                        "Promised levels: {} {} ({b}), {}.",
                        l.provider,
                        l.offering,
                        l.note()
                    )
                }
                _ => String::new(),
            },
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_twenty_timelines_the_first_of_each_of_twenty_configurations_are_drawn() {
        use crate::analysis::testing::record;
        let runs: Vec<(String, Summary)> = (0..25)
            .flat_map(|o| (1..=2).map(move |rep| (o, rep)))
            .map(|(o, rep)| {
                let mut r = record(
                    &format!("o{o:02}.r{rep}"),
                    "P",
                    &format!("v{o:02}"),
                    None,
                    "t",
                    &[],
                );
                r.timeline = Some(Box::new(Timeline {
                    interval_s: 1.0,
                    read: None,
                    write: None,
                    trim: None,
                    logs: Default::default(),
                    pattern: None,
                    burst_on_s: None,
                    burst_off_s: None,
                }));
                (r.offering_name(), r.into())
            })
            .collect();
        let sorted: Vec<(&str, &Summary)> = runs.iter().map(|(n, r)| (n.as_str(), r)).collect();
        let (drawn, note) = on_test_page(&sorted);
        let ids: Vec<&str> = drawn.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids.len(), 20);
        assert_eq!((ids[0], ids[1], ids[19]), ("o00.r1", "o01.r1", "o19.r1"));
        assert!(
            note.starts_with("50 runs kept fio's per-second log, too many to draw here: drawn is the first run of each of the first 20 of its 25 configurations."),
            "{note}"
        );
        // twenty are all drawn, without a word
        let (drawn, note) = on_test_page(&sorted[..20]);
        assert_eq!((drawn.len(), note.as_str()), (20, ""));
    }

    #[test]
    fn counts_read_in_words() {
        assert_eq!(count_words(5.4e6), "5.4 M");
        assert_eq!(count_words(40_000.0), "40.0 k");
        assert_eq!(count_words(900.0), "900");
    }

    #[test]
    fn measured_against_promised() {
        assert_eq!(
            against(2980.0, Some(3000.0), Unit::Iops),
            "2,980 / 3,000 IOPS (99%)"
        );
        // one unit for both, chosen by the larger
        assert_eq!(
            against(98.3e6, Some(131.072e6), Unit::BytesPerSec),
            "98.3 / 131 MB/s (75%)"
        );
        assert_eq!(against(300.0, None, Unit::Iops), "300 IOPS");
        assert_eq!(against(5.0, Some(0.0), Unit::Iops), "5.00 / 0 IOPS");
        // a share that overflows is not shown: never `(inf%)`
        let tiny = against(3000.0, Some(5e-324), Unit::Iops);
        assert!(!tiny.contains("inf") && !tiny.contains('%'), "{tiny}");
        let p = Promise {
            baseline: Some(300.0),
            burst: Some(3000.0),
            ..Promise::default()
        };
        // a burst's length only where the list gives it
        assert_eq!(promised_burst(p, Unit::Iops), None);
        let periodic = crate::analysis::limits::BurstTime {
            kind: Some(crate::analysis::limits::BurstKind::Periodic),
            seconds: Some(60.0),
            period_s: Some(120.0),
        };
        let credit = crate::analysis::limits::BurstTime {
            kind: Some(crate::analysis::limits::BurstKind::Credit),
            seconds: Some(1800.0),
            period_s: None,
        };
        let with = |burst: f64, burst_time| Promise {
            burst: Some(burst),
            burst_time,
            ..p
        };
        assert_eq!(
            promised_burst(with(7500.0, periodic), Unit::Iops).as_deref(),
            Some("bursts to 7,500 IOPS for 60 s in every 120 s")
        );
        assert_eq!(
            promised_burst(with(170e6, credit), Unit::BytesPerSec).as_deref(),
            Some("bursts to 170 MB/s for up to 30 min")
        );
        assert_eq!(
            promised_words(p, Some(2980.0), 301.0, Unit::Iops).unwrap(),
            "burst 2,980 / 3,000 IOPS (99%), sustained 301 / 300 IOPS (100%)"
        );
        // no burst measured: only the sustained level is compared
        assert_eq!(
            promised_words(p, None, 150.0, Unit::Iops).unwrap(),
            "sustained 150 / 300 IOPS (50%)"
        );
        assert!(promised_words(Promise::default(), Some(1.0), 1.0, Unit::Iops).is_none());
    }
}
