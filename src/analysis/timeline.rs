//! Burst and sustained: classifies a per-second series (IOPS or bandwidth)
//! as flat, credit-burst, periodic-burst or not-exhausted, with its burst
//! and sustained levels and the SNIA steady-state test of the sustained
//! level. A pure function over numbers; `docs/run.md` ("Burst and
//! sustained") describes the same algorithm in words.

use std::collections::BTreeMap;

use crate::metrics::TestKind;
pub use crate::record::Pattern;
use crate::record::{Metric, Series, Timeline};
use crate::units::Unit;

/// The samples before this time (seconds from the start) are left out:
/// fio's first seconds hold queue ramp-up, not the volume.
pub const SKIP_S: f64 = 3.0;

/// Runs at least this long use the full windows; shorter ones scale every
/// window by `length / FULL_SCALE_S`.
pub const FULL_SCALE_S: f64 = 1800.0;

/// The SNIA steady-state test over the last five rounds of a series.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SteadyState {
    /// Whether both the range and the slope are within their limits.
    pub reached: bool,
    /// Max minus min of the round means, % of their mean (limit 20).
    pub range_pct: f64,
    /// Excursion of the least-squares line across the window (slope times
    /// window width), % of the mean (limit 10).
    pub slope_pct: f64,
    /// Length of one round in seconds (60 for long runs, scaled for short).
    pub round_s: f64,
}

/// What [`detect`] found in a series.
#[derive(Clone, Debug, PartialEq)]
pub struct Detection {
    /// The class of the series.
    pub pattern: Pattern,
    /// Sustained level S: median of the last max(300 s, 20%) of the run
    /// (for periodic bursts, the median of the low phases).
    pub sustained: f64,
    /// Early level E: median of seconds 5 to 65 (scaled).
    pub early: f64,
    /// Burst level B (credit and periodic bursts).
    pub burst: Option<f64>,
    /// Burst duration t_drop in seconds from the start (credit bursts).
    pub burst_duration_s: Option<f64>,
    /// What was served above S before t_drop: I/Os for an IOPS series,
    /// bytes for a bandwidth series (credit bursts).
    pub burst_volume: Option<f64>,
    /// Mean length of a high phase in seconds (periodic bursts).
    pub on_s: Option<f64>,
    /// Mean length of a low phase in seconds (periodic bursts).
    pub off_s: Option<f64>,
    /// The steady-state test of the end of the run.
    pub steady: SteadyState,
    /// Time in seconds of the first sample the detection used.
    pub start_s: f64,
    /// The 15 s (scaled) rolling median, one value per used sample.
    pub rolling: Vec<f64>,
    /// How far, as a fraction of a level, the rolling median may stray
    /// from it and still be at it: 10%, or more where the run's own
    /// per-second noise makes its rolling median wander further (see
    /// [`tolerance`]).
    pub tolerance: f64,
    /// Time in seconds at the end of the last sample: the run's length.
    pub length_s: f64,
}

/// The windows of one run, scaled to its length.
#[derive(Clone, Copy, Debug)]
struct Windows {
    /// Rolling median width in samples (odd).
    rolling: usize,
    /// Earliest t_drop, seconds.
    min_drop_s: f64,
    /// Early level window, seconds from the start.
    early: (f64, f64),
    /// Sustained window, seconds from the end.
    sustained_s: f64,
    /// Steady-state round, seconds.
    round_s: f64,
    /// Periodic crossings are counted after this time, seconds.
    periodic_after_s: f64,
}

impl Windows {
    fn for_run(length_s: f64, interval_s: f64) -> Windows {
        let f = (length_s / FULL_SCALE_S).min(1.0);
        let samples = |s: f64| (s / interval_s).round().max(1.0) as usize;
        let mut rolling = samples(15.0 * f).max(3);
        if rolling % 2 == 0 {
            rolling += 1;
        }
        Windows {
            rolling,
            min_drop_s: (30.0 * f).max(3.0 * interval_s),
            early: (
                (5.0 * f).max(SKIP_S),
                (65.0 * f).max(SKIP_S + 3.0 * interval_s),
            ),
            sustained_s: (300.0 * f).max(0.2 * length_s),
            round_s: (60.0 * f).max(interval_s),
            periodic_after_s: (60.0 * f).max(SKIP_S),
        }
    }
}

/// Median of `v` (the mean of the two middle values for an even count);
/// `None` when empty.
pub fn median(v: &[f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    Some(if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    })
}

/// The smallest tolerance: a level within 10% is the same level.
pub const MIN_TOLERANCE: f64 = 0.10;

/// The largest tolerance, however noisy the run: a level half as high
/// again, or half as low, is always another level.
pub const MAX_TOLERANCE: f64 = 0.50;

/// The per-second noise of a series (or a stretch of it, with its rolling
/// median): the robust standard deviation
/// (1.4826 × the median absolute deviation) of each sample from its
/// rolling median, as a fraction of that median. Level changes barely
/// move it (a step disturbs a few samples near its edge), so a burst does
/// not count as noise; 0 for a series without positive levels.
pub fn noise(x: &[f64], rolling: &[f64]) -> f64 {
    let dev: Vec<f64> = x
        .iter()
        .zip(rolling)
        .filter(|(_, r)| **r > 0.0)
        .map(|(v, r)| (v - r).abs() / r)
        .collect();
    median(&dev).map_or(0.0, |m| 1.4826 * m)
}

/// The per-second noise of a series from its successive differences: the
/// robust standard deviation (1.4826 × the median absolute difference of
/// two neighbouring samples, as a fraction of their mean, over √2). A
/// change of level is one difference of many, so it does not count; 0
/// for fewer than two positive samples.
pub fn step_noise(x: &[f64]) -> f64 {
    let d: Vec<f64> = x
        .windows(2)
        .filter(|p| p[0] + p[1] > 0.0)
        .map(|p| 2.0 * (p[1] - p[0]).abs() / (p[0] + p[1]))
        .collect();
    median(&d).map_or(0.0, |m| 1.4826 * m / std::f64::consts::SQRT_2)
}

/// The tolerance of a rolling median of width `w` over samples of
/// relative noise `sigma`: four standard errors of a median of `w`
/// samples (1.2533 σ / √w; four, as the run has many such medians and
/// its S is itself a median of noisy samples), at least
/// [`MIN_TOLERANCE`] and at most [`MAX_TOLERANCE`]. A flat volume with
/// ±15% per-second noise and a 3-sample rolling median (a run of a few
/// minutes) gets about 30%, with a 15-sample one (a run of half an hour)
/// about 14%.
pub fn tolerance(sigma: f64, w: usize) -> f64 {
    let t = 4.0 * 1.2533 * sigma / (w.max(1) as f64).sqrt();
    if t.is_finite() {
        t.clamp(MIN_TOLERANCE, MAX_TOLERANCE)
    } else {
        MAX_TOLERANCE
    }
}

/// Consecutive rolling-median samples on one side of a level, outside its
/// tolerance, that make a change of level: half the rolling window (what
/// a step takes to pass through the median), at least 2. Fewer, or
/// samples alternating above and below (a throttle's jitter), are the
/// level.
pub fn persistence(w: usize) -> usize {
    (w / 2 + 1).max(2)
}

/// Where the rolling median settles at `level` to the end: the first index
/// of the last stretch of `rolling` with no change of level (no
/// [`persistence`] `p` consecutive samples on one side of `level` beyond
/// `tol`), starting at a sample within `tol`; `None` when the last sample
/// is already part of a change.
fn settled_from(rolling: &[f64], level: f64, tol: f64, p: usize) -> Option<usize> {
    let mut first = None;
    // (side, count) of the current run of samples outside the tolerance
    let mut run: (i8, usize) = (0, 0);
    for i in (0..rolling.len()).rev() {
        let r = rolling[i];
        if (r - level).abs() <= tol * level {
            first = Some(i);
            run = (0, 0);
            continue;
        }
        let side = if r > level { 1 } else { -1 };
        run = if run.0 == side {
            (side, run.1 + 1)
        } else {
            (side, 1)
        };
        if run.1 >= p {
            break;
        }
    }
    first
}

/// Whether `rolling` leaves `level` anywhere: [`persistence`] `p`
/// consecutive samples on one side of it beyond `tol`.
fn changes(rolling: &[f64], level: f64, tol: f64, p: usize) -> bool {
    let mut run: (i8, usize) = (0, 0);
    for &r in rolling {
        if (r - level).abs() <= tol * level {
            run = (0, 0);
            continue;
        }
        let side = if r > level { 1 } else { -1 };
        run = if run.0 == side {
            (side, run.1 + 1)
        } else {
            (side, 1)
        };
        if run.1 >= p {
            return true;
        }
    }
    false
}

/// Centred rolling median of width `w` (odd), shrinking at the edges.
pub fn rolling_median(v: &[f64], w: usize) -> Vec<f64> {
    let half = w / 2;
    (0..v.len())
        .map(|i| {
            let lo = i.saturating_sub(half);
            let hi = (i + half + 1).min(v.len());
            median(&v[lo..hi]).expect("a window is never empty")
        })
        .collect()
}

/// Classifies `samples`, one per `interval_s` seconds from the start of the
/// run (sample `i` covers up to `(i + 1) * interval_s`). Samples up to
/// [`SKIP_S`] are left out; `None` when fewer than 10 remain, when the
/// interval is not positive, or when a sample is not a finite non-negative
/// number.
pub fn detect(samples: &[f64], interval_s: f64) -> Option<Detection> {
    if !(interval_s.is_finite() && interval_s > 0.0)
        || samples.iter().any(|v| !v.is_finite() || *v < 0.0)
    {
        return None;
    }
    let skip = (SKIP_S / interval_s).round() as usize;
    let x = samples.get(skip..)?;
    if x.len() < 10 {
        return None;
    }
    let start_s = skip as f64 * interval_s;
    // time at the end of used sample i
    let t = |i: usize| start_s + (i + 1) as f64 * interval_s;
    let end_s = t(x.len() - 1);
    let w = Windows::for_run(end_s, interval_s);
    let rolling = rolling_median(x, w.rolling);

    let in_time = |lo: f64, hi: f64| -> Vec<f64> {
        (0..x.len())
            .filter(|&i| t(i) > lo && t(i) <= hi)
            .map(|i| x[i])
            .collect()
    };
    let sustained_window = in_time(end_s - w.sustained_s, end_s);
    let s = median(&sustained_window)?;
    let mut early_window = in_time(w.early.0, w.early.1);
    if early_window.is_empty() {
        early_window = x[..x.len().min(3)].to_vec();
    }
    let e = median(&early_window)?;
    let steady = steady_state(x, interval_s, w.round_s);
    // the run's noise, the larger of: the spread of one second against
    // the next over the whole run (a step is one pair of many), and over
    // the sustained window the spread around a rolling median three times
    // as wide as the one that is compared (a throttle whose level swings
    // for seconds at a time moves the narrow median with it, not the wide
    // one; a slow fall moves both)
    let from = (0..x.len())
        .position(|i| t(i) > end_s - w.sustained_s)
        .unwrap_or(0);
    // only over the window (and the half width before it that its first
    // medians see), not the whole run
    let wide_w = 3 * w.rolling;
    let lo = from.saturating_sub(wide_w / 2);
    let wide = rolling_median(&x[lo..], wide_w);
    let sigma_steps = step_noise(x);
    let sigma = sigma_steps.max(noise(&x[from..], &wide[from - lo..]));
    let tol = tolerance(sigma, w.rolling);
    let p = persistence(w.rolling);

    let mut d = Detection {
        pattern: Pattern::Flat,
        sustained: s,
        early: e,
        burst: None,
        burst_duration_s: None,
        burst_volume: None,
        on_s: None,
        off_s: None,
        steady,
        start_s,
        rolling: rolling.clone(),
        tolerance: tol,
        length_s: end_s,
    };
    // how far apart two levels must be to be two levels at this tolerance
    let ratio = |t: f64| (1.0 + t) / (1.0 - t);

    // credit burst: the earliest time after which the rolling median stays
    // at S (within the tolerance, brief or alternating excursions
    // allowed), if that time is late enough to be a burst
    if e >= 1.2 * s {
        if let Some(first) = settled_from(&rolling, s, tol, p) {
            // t_drop is where the settled stretch begins
            let t_drop = t(first) - interval_s;
            // the settled stretch must hold at least half the sustained
            // window, so that S is the level after the drop
            let before = &x[..first];
            // and the burst must stand out of the run's noise
            let apart = median(before).is_some_and(|b| b >= s * ratio(tol).max(1.2));
            if t_drop >= w.min_drop_s && first > 0 && end_s - t_drop >= w.sustained_s / 2.0 && apart
            {
                d.pattern = Pattern::CreditBurst;
                d.burst = median(before);
                d.burst_duration_s = Some(t_drop);
                d.burst_volume = Some(
                    before.iter().map(|v| (v - s).max(0.0)).sum::<f64>() * interval_s
                        + (skip as f64 * interval_s) * (d.burst.unwrap_or(s) - s).max(0.0),
                );
                return Some(d);
            }
        }
    }

    // the rolling median's own noise must not pass for two levels
    let noise_tol = (4.0 * 1.2533 * sigma_steps / (w.rolling as f64).sqrt()).min(MAX_TOLERANCE);
    let min_ratio = ratio(noise_tol).max(ratio(tol)).max(1.2);
    if let Some((b, low, on, off)) = periodic(&rolling, x, &t, w.periodic_after_s, min_ratio) {
        d.pattern = Pattern::PeriodicBurst;
        d.burst = Some(b);
        d.sustained = low;
        d.on_s = Some(on * interval_s);
        d.off_s = Some(off * interval_s);
        return Some(d);
    }

    // the end of the run must be at S, and not moving; an end the SNIA
    // test finds steady is at its level, however its rolling median
    // wanders within the run's noise
    let tail_from = (0..x.len())
        .position(|i| t(i) > end_s - 5.0 * w.round_s)
        .unwrap_or(0);
    let end_settled = !changes(&rolling[tail_from..], s, tol, p);
    // the slope of noise alone over few samples can pass 10%: a slope
    // within three of its standard errors (σ √(12 / n) of the mean over
    // n samples) is not a level still moving
    let per = ((steady.round_s / interval_s).round() as usize).max(1);
    let n = (per * (x.len() / per).clamp(1, 5)) as f64;
    let slope_limit = (300.0 * sigma * (12.0 / n).sqrt()).max(10.0);
    if e >= 1.2 * s || (!end_settled && !steady.reached) || steady.slope_pct > slope_limit {
        d.pattern = Pattern::NotExhausted;
    }
    Some(d)
}

/// Periodic bursts: upward crossings of the midpoint between the high and
/// low levels of the rolling median after `after_s`, at least three (two
/// full periods), with intervals whose coefficient of variation is below
/// 20%. Returns (B, S, mean on length, mean off length) in samples.
fn periodic(
    rolling: &[f64],
    x: &[f64],
    t: &dyn Fn(usize) -> f64,
    after_s: f64,
    min_ratio: f64,
) -> Option<(f64, f64, f64, f64)> {
    let from = (0..x.len()).position(|i| t(i) > after_s)?;
    let r = &rolling[from..];
    let mut sorted = r.to_vec();
    sorted.sort_by(f64::total_cmp);
    let q = |p: f64| sorted[((sorted.len() - 1) as f64 * p).round() as usize];
    let (lo, hi) = (q(0.1), q(0.9));
    if hi < min_ratio * lo || hi <= 0.0 {
        return None;
    }
    let mid = (hi + lo) / 2.0;
    let up: Vec<usize> = (1..r.len())
        .filter(|&i| r[i - 1] < mid && r[i] >= mid)
        .collect();
    if up.len() < 3 {
        return None;
    }
    let gaps: Vec<f64> = up.windows(2).map(|p| (p[1] - p[0]) as f64).collect();
    let mean = gaps.iter().sum::<f64>() / gaps.len() as f64;
    let var = gaps.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / gaps.len() as f64;
    if var.sqrt() / mean >= 0.2 {
        return None;
    }
    let high: Vec<f64> = (0..r.len())
        .filter(|&i| r[i] >= mid)
        .map(|i| x[from + i])
        .collect();
    let low: Vec<f64> = (0..r.len())
        .filter(|&i| r[i] < mid)
        .map(|i| x[from + i])
        .collect();
    // over whole periods only, so that a partial one does not bias on/off
    let (a, z) = (up[0], up[up.len() - 1]);
    let on = (a..z).filter(|&i| r[i] >= mid).count() as f64 / gaps.len() as f64;
    Some((median(&high)?, median(&low)?, on, mean - on))
}

/// The SNIA PTS steady-state test over the last five rounds of `round_s`
/// seconds (fewer when the run is shorter: at least two).
pub fn steady_state(x: &[f64], interval_s: f64, round_s: f64) -> SteadyState {
    let per = ((round_s / interval_s).round() as usize).max(1);
    let rounds = (x.len() / per).clamp(1, 5);
    let window = &x[x.len() - rounds * per..];
    let means: Vec<f64> = window
        .chunks(per)
        .map(|c| c.iter().sum::<f64>() / c.len() as f64)
        .collect();
    let mean = means.iter().sum::<f64>() / means.len() as f64;
    let max = means.iter().copied().fold(f64::MIN, f64::max);
    let min = means.iter().copied().fold(f64::MAX, f64::min);
    // least squares over the samples of the window, in value per sample
    let n = window.len() as f64;
    let xm = (n - 1.0) / 2.0;
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for (i, v) in window.iter().enumerate() {
        let dx = i as f64 - xm;
        sxy += dx * (v - mean);
        sxx += dx * dx;
    }
    let slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    let pct = |v: f64| if mean > 0.0 { 100.0 * v / mean } else { 0.0 };
    let range_pct = pct(max - min);
    let slope_pct = pct(slope.abs() * (n - 1.0));
    SteadyState {
        reached: rounds >= 2 && range_pct <= 20.0 && slope_pct <= 10.0,
        range_pct,
        slope_pct,
        round_s: per as f64 * interval_s,
    }
}

/// Classifies a record's timeline and returns the metrics it gives:
/// `<dir>_iops_sustained` and `<dir>_bw_sustained` for each direction with
/// data, `<dir>_iops_burst`/`<dir>_bw_burst` where a burst was found, and
/// from the judged series (bandwidth for a throughput test, IOPS for the
/// others; reads before writes) `burst_duration`, `burst_ios` or
/// `burst_bytes`, `steady_state`, `ss_range` and `ss_slope`. Sets
/// `pattern` and the periodic on/off times on `timeline`. Series too short
/// to classify give nothing.
pub fn classify(timeline: &mut Timeline, kind: TestKind) -> BTreeMap<String, Metric> {
    let mut out = BTreeMap::new();
    let interval = timeline.interval_s;
    let dirs: Vec<(&str, &Series)> = [("read", &timeline.read), ("write", &timeline.write)]
        .into_iter()
        .filter_map(|(d, s)| s.as_deref().map(|s| (d, s)))
        .collect();
    let by_bw = kind == TestKind::Throughput;
    let mut primary: Option<(Detection, bool)> = None;
    for (dir, series) in dirs {
        for (values, what, unit, is_bw) in [
            (&series.iops, "iops", Unit::Iops, false),
            (&series.bw, "bw", Unit::BytesPerSec, true),
        ] {
            let Some(d) = detect(values, interval) else {
                continue;
            };
            out.insert(
                format!("{dir}_{what}_sustained"),
                Metric::new(d.sustained, unit),
            );
            if let Some(b) = d.burst {
                out.insert(format!("{dir}_{what}_burst"), Metric::new(b, unit));
            }
            if primary.is_none() && is_bw == by_bw {
                primary = Some((d, is_bw));
            }
        }
    }
    timeline.pattern = None;
    timeline.burst_on_s = None;
    timeline.burst_off_s = None;
    if let Some((d, is_bw)) = primary {
        timeline.pattern = Some(d.pattern);
        timeline.burst_on_s = d.on_s;
        timeline.burst_off_s = d.off_s;
        if let Some(t) = d.burst_duration_s {
            out.insert("burst_duration".into(), Metric::new(t, Unit::Seconds));
        }
        if let Some(v) = d.burst_volume {
            let (name, unit) = if is_bw {
                ("burst_bytes", Unit::Bytes)
            } else {
                ("burst_ios", Unit::Count)
            };
            out.insert(name.into(), Metric::new(v.round(), unit));
        }
        let ss = d.steady;
        out.insert(
            "steady_state".into(),
            Metric::new(if ss.reached { 1.0 } else { 0.0 }, Unit::Count),
        );
        out.insert("ss_range".into(), Metric::new(ss.range_pct, Unit::Percent));
        out.insert("ss_slope".into(), Metric::new(ss.slope_pct, Unit::Percent));
    }
    out
}

/// Gives `record` (a fio test) the timeline of fio per-second logs of one
/// run, `files` holding (file name, bytes) of one prefix, and the metrics
/// [`classify`] finds, without replacing metrics the record has. Latency
/// units follow the record's fio version. Fails when a log is not UTF-8
/// or does not parse, naming it.
pub fn attach_logs(
    record: &mut crate::record::Record,
    files: &[(String, Vec<u8>)],
) -> anyhow::Result<()> {
    use crate::tools::fio::log;
    let mut texts = Vec::new();
    let mut digests = BTreeMap::new();
    for (name, bytes) in files {
        digests.insert(name.clone(), crate::digest::hex_sha256(bytes));
        let text = std::str::from_utf8(bytes)
            .map_err(|_| anyhow::anyhow!("fio log `{name}` is not UTF-8 text"))?;
        texts.push((name.clone(), text.to_string()));
    }
    let lat_ns = log::lat_ns(record.test.tool_version.as_deref());
    let mut timeline = log::timeline(&texts, lat_ns)?;
    timeline.logs = digests;
    let kind = crate::tools::spec(crate::record::Tool::Fio).kind(&record.test.parameters);
    for (name, metric) in classify(&mut timeline, kind) {
        if !record.metrics.contains_key(&name) {
            record.metrics.insert(&name, metric);
        }
    }
    record.timeline = Some(Box::new(timeline));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic noise in [-1, 1): a linear congruential generator.
    fn noise(n: usize, seed: u64) -> Vec<f64> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
            })
            .collect()
    }

    fn with_noise(v: Vec<f64>, amp: f64, seed: u64) -> Vec<f64> {
        v.iter()
            .zip(noise(v.len(), seed))
            .map(|(x, n)| x * (1.0 + amp * n))
            .collect()
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs()
    }

    #[test]
    fn gp2_bucket_is_found_with_its_volume() {
        // a 100 GB gp2 volume: 3000 IOPS for 2000 s, then 300, run 45 min
        let series: Vec<f64> = (0..2700)
            .map(|i| if i < 2000 { 3000.0 } else { 300.0 })
            .collect();
        let d = detect(&with_noise(series, 0.05, 1), 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::CreditBurst);
        assert!(close(d.burst.unwrap(), 3000.0, 0.02), "{:?}", d.burst);
        assert!(close(d.sustained, 300.0, 0.02), "{}", d.sustained);
        let t = d.burst_duration_s.unwrap();
        assert!((t - 2000.0).abs() <= 10.0, "{t}");
        // (3000 - 300) IOPS for 2000 s: 5.4 M I/Os
        let v = d.burst_volume.unwrap();
        assert!(close(v, 5.4e6, 0.02), "{v}");
        assert!(d.steady.reached, "{:?}", d.steady);
    }

    #[test]
    fn exact_gp2_numbers() {
        let series: Vec<f64> = (0..2700)
            .map(|i| if i < 2000 { 3000.0 } else { 300.0 })
            .collect();
        let d = detect(&series, 1.0).unwrap();
        assert_eq!(d.burst, Some(3000.0));
        assert_eq!(d.sustained, 300.0);
        assert_eq!(d.burst_duration_s, Some(2000.0));
        assert_eq!(d.burst_volume, Some(2700.0 * 2000.0));
        assert_eq!(d.steady.range_pct, 0.0);
        assert_eq!(d.steady.slope_pct, 0.0);
        assert_eq!(d.steady.round_s, 60.0);
    }

    #[test]
    fn noise_of_15_percent_around_one_level_is_flat() {
        let d = detect(&with_noise(vec![1000.0; 1800], 0.15, 7), 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::Flat, "{:?}", d.steady);
        assert!(close(d.sustained, 1000.0, 0.03));
        assert!(d.steady.reached && d.steady.range_pct < 20.0);
        assert_eq!(d.burst, None);
    }

    #[test]
    fn a_burst_shorter_than_30_s_is_not_a_credit_burst() {
        // 20 s of 3000 after the skipped seconds, then 300 for half an hour
        let series: Vec<f64> = (0..1800)
            .map(|i| if i < 23 { 3000.0 } else { 300.0 })
            .collect();
        let d = detect(&series, 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::Flat);
        assert_eq!(d.sustained, 300.0);
        assert_eq!(d.burst_duration_s, None);
    }

    #[test]
    fn a_drop_in_the_last_5_percent_is_not_exhausted() {
        let series: Vec<f64> = (0..2000)
            .map(|i| if i < 1920 { 3000.0 } else { 300.0 })
            .collect();
        let d = detect(&series, 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::NotExhausted);
        assert_eq!(d.burst, None);
        // S is a bound: the level the run had not yet left
        assert_eq!(d.sustained, 3000.0);
        assert!(!d.steady.reached, "{:?}", d.steady);
    }

    #[test]
    fn a_level_still_falling_at_the_end_is_not_exhausted() {
        let series: Vec<f64> = (0..1800).map(|i| 3000.0 - i as f64).collect();
        let d = detect(&series, 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::NotExhausted);
        assert!(!d.steady.reached);
        assert!(d.steady.slope_pct > 10.0);
    }

    #[test]
    fn a_60_s_periodic_burst() {
        // 20 s at 3000, 40 s at 500, for half an hour
        let series: Vec<f64> = (0..1800)
            .map(|i| if i % 60 < 20 { 3000.0 } else { 500.0 })
            .collect();
        let d = detect(&with_noise(series, 0.05, 3), 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::PeriodicBurst);
        assert!(close(d.burst.unwrap(), 3000.0, 0.03));
        assert!(close(d.sustained, 500.0, 0.03));
        let (on, off) = (d.on_s.unwrap(), d.off_s.unwrap());
        assert!(
            (on - 20.0).abs() <= 2.0 && (off - 40.0).abs() <= 2.0,
            "{on} {off}"
        );
    }

    /// A series at `level` whose every second strays by up to `amp` (a
    /// fraction, uniform), `n` seconds long.
    fn noisy(level: f64, n: usize, amp: f64, seed: u64) -> Vec<f64> {
        with_noise(vec![level; n], amp, seed)
    }

    #[test]
    fn a_flat_volume_with_15_percent_noise_is_flat_at_any_length() {
        // an HDD's per-second IOPS, +-15% around 1,000, from a 1-minute
        // run (3-sample rolling median) to a 45-minute one; the sustained
        // level and the steady state never contradict each other
        for n in [60, 120, 300, 600, 1200, 2700] {
            for seed in 1..=20 {
                let d = detect(&noisy(1000.0, n, 0.15, seed), 1.0).unwrap();
                assert_eq!(d.pattern, Pattern::Flat, "{n} s, seed {seed}: {d:?}");
                assert!(
                    close(d.sustained, 1000.0, 0.1),
                    "{n} {seed} {}",
                    d.sustained
                );
                assert_eq!(d.burst, None);
                assert!(d.tolerance >= MIN_TOLERANCE && d.tolerance <= MAX_TOLERANCE);
            }
        }
        // the tolerance comes from the noise: a quiet run keeps 10%, a
        // noisy short one gets more
        let quiet = detect(&noisy(1000.0, 120, 0.01, 1), 1.0).unwrap();
        assert_eq!(quiet.tolerance, MIN_TOLERANCE);
        let loud = detect(&noisy(1000.0, 120, 0.15, 1), 1.0).unwrap();
        assert!(loud.tolerance > 0.15, "{}", loud.tolerance);
        assert_eq!(loud.length_s, 120.0);
    }

    #[test]
    fn noise_does_not_hide_a_burst_or_a_fall() {
        // the same noise on a 2-minute credit burst: 2,000 for 22 s, then 200
        let series: Vec<f64> = (0..120)
            .map(|i| if i < 22 { 2000.0 } else { 200.0 })
            .collect();
        for seed in 1..=10 {
            let d = detect(&with_noise(series.clone(), 0.15, seed), 1.0).unwrap();
            assert_eq!(d.pattern, Pattern::CreditBurst, "seed {seed}: {d:?}");
            assert!(close(d.burst.unwrap(), 2000.0, 0.1), "{d:?}");
            assert!(close(d.sustained, 200.0, 0.1), "{}", d.sustained);
            let t = d.burst_duration_s.unwrap();
            assert!((t - 22.0).abs() <= 2.0, "seed {seed}: {t}");
        }
        // and a level still falling 30% over the run is not a level
        let falling: Vec<f64> = (0..600).map(|i| 1000.0 - 0.5 * i as f64).collect();
        let d = detect(&with_noise(falling, 0.15, 4), 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::NotExhausted, "{d:?}");
    }

    /// A throttle's jitter: `level` alternating `swing` (a fraction) above
    /// and below it, `slice` seconds at a time.
    fn jitter(level: f64, swing: f64, slice: usize, i: usize) -> f64 {
        if (i / slice) % 2 == 0 {
            level * (1.0 + swing)
        } else {
            level * (1.0 - swing)
        }
    }

    #[test]
    fn a_throttle_jittering_around_its_level_is_that_level() {
        // a real cgroup throttle after the bucket empties: 2,000 IOPS for
        // 22 s, then 200 alternating 12% each second (224, 176, ...)
        let series: Vec<f64> = (0..120)
            .map(|i| {
                if i < 22 {
                    2000.0
                } else {
                    jitter(200.0, 0.12, 1, i)
                }
            })
            .collect();
        let d = detect(&series, 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::CreditBurst, "{d:?}");
        assert_eq!(d.burst, Some(2000.0));
        assert_eq!(d.burst_duration_s, Some(22.0));
        assert!(close(d.sustained, 200.0, 0.13), "{}", d.sustained);
        // 45 minutes of gp2 whose baseline swings 12% in 3 s slices: its
        // 15 s rolling median alternates between 264 and 336, a few
        // samples at a time
        let series: Vec<f64> = (0..2700)
            .map(|i| {
                if i < 2000 {
                    3000.0
                } else {
                    jitter(300.0, 0.12, 3, i)
                }
            })
            .collect();
        let d = detect(&series, 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::CreditBurst, "{d:?}");
        assert_eq!(d.burst, Some(3000.0));
        let t = d.burst_duration_s.unwrap();
        assert!((t - 2000.0).abs() <= 10.0, "{t}");
        // the same baseline without the burst is flat, not periodic and not
        // "not exhausted": a 24% swing is the level's noise, not two levels
        let series: Vec<f64> = (0..2700).map(|i| jitter(300.0, 0.12, 3, i)).collect();
        let d = detect(&series, 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::Flat, "{d:?}");
        assert!(close(d.sustained, 300.0, 0.13), "{}", d.sustained);
        let (lo, hi) = d
            .rolling
            .iter()
            .fold((f64::MAX, 0.0f64), |(l, h), &r| (l.min(r), h.max(r)));
        assert!(
            close(lo, 264.0, 1e-9) && close(hi, 336.0, 1e-9),
            "{lo} {hi}"
        );
    }

    #[test]
    fn a_change_of_level_must_persist() {
        // the rolling median of a flat run with one excursion of a single
        // sample (one stalled second is smoothed, two of five are not)
        let mut r = vec![100.0; 20];
        r[10] = 150.0;
        assert!(!changes(&r, 100.0, 0.1, 2));
        assert_eq!(settled_from(&r, 100.0, 0.1, 2), Some(0));
        // alternating sides never persist
        for (i, v) in r.iter_mut().enumerate().skip(5) {
            *v = if i % 2 == 0 { 115.0 } else { 85.0 };
        }
        assert!(!changes(&r, 100.0, 0.1, 2));
        // two on one side do
        r[6] = 120.0;
        r[7] = 120.0;
        assert!(changes(&r, 100.0, 0.1, 2));
        assert_eq!(
            settled_from(&r, 100.0, 0.1, 2),
            None,
            "no sample after 7 is within 10%"
        );
        assert_eq!(persistence(3), 2);
        assert_eq!(persistence(15), 8);
        assert_eq!(tolerance(0.0, 15), MIN_TOLERANCE);
        assert_eq!(tolerance(10.0, 3), MAX_TOLERANCE);
        assert_eq!(tolerance(f64::NAN, 3), MAX_TOLERANCE);
        assert_eq!(super::noise(&[], &[]), 0.0);
        assert_eq!(step_noise(&[5.0]), 0.0);
        assert_eq!(step_noise(&[0.0, 0.0, 0.0]), 0.0);
        // 90, 110, 90, 110: each step is 20% of the pair's mean
        let s = step_noise(&[90.0, 110.0, 90.0, 110.0]);
        assert!(
            (s - 1.4826 * 0.2 / std::f64::consts::SQRT_2).abs() < 1e-12,
            "{s}"
        );
    }

    /// The read IOPS per second of a record of `tests/fixtures/emulated/`
    /// (real fio behind a throttled loop device, 90 s).
    fn emulated(json: &str) -> Vec<f64> {
        let r: crate::record::Record = serde_json::from_str(json).unwrap();
        r.timeline.unwrap().read.unwrap().iops
    }

    #[test]
    fn the_emulated_volumes_keep_their_class_under_15_percent_noise() {
        let burst = emulated(include_str!(
            "../../tests/fixtures/emulated/credit-burst.json"
        ));
        let flat = emulated(include_str!(
            "../../tests/fixtures/emulated/empty-bucket.json"
        ));
        // as recorded: the real throttle's jitter is within 10%
        let d = detect(&burst, 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::CreditBurst);
        assert_eq!((d.burst, d.sustained), (Some(2000.0), 200.0));
        assert_eq!(d.tolerance, MIN_TOLERANCE);
        let d = detect(&flat, 1.0).unwrap();
        assert_eq!(
            (d.pattern, d.sustained, d.burst),
            (Pattern::Flat, 200.0, None)
        );
        // the same seconds with +-15% noise on each (an HDD, a busy host)
        for seed in 1..=10 {
            let d = detect(&with_noise(burst.clone(), 0.15, seed), 1.0).unwrap();
            assert_eq!(d.pattern, Pattern::CreditBurst, "seed {seed}: {d:?}");
            assert!(close(d.burst.unwrap(), 2000.0, 0.1), "{:?}", d.burst);
            assert!(close(d.sustained, 200.0, 0.1), "{}", d.sustained);
            let t = d.burst_duration_s.unwrap();
            assert!((t - 23.0).abs() <= 2.0, "seed {seed}: {t}");
            assert!(d.tolerance > MIN_TOLERANCE, "{}", d.tolerance);
            let d = detect(&with_noise(flat.clone(), 0.15, seed), 1.0).unwrap();
            assert_eq!(d.pattern, Pattern::Flat, "seed {seed}: {d:?}");
            assert!(close(d.sustained, 200.0, 0.1), "{}", d.sustained);
        }
    }

    #[test]
    fn short_runs_scale_the_windows() {
        // 60 s: 2000 IOPS for 20 s, then 200 (the emulated volume's shape)
        let series: Vec<f64> = (0..60)
            .map(|i| if i < 20 { 2000.0 } else { 200.0 })
            .collect();
        let d = detect(&series, 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::CreditBurst);
        assert_eq!((d.burst, d.sustained), (Some(2000.0), 200.0));
        assert_eq!(d.burst_duration_s, Some(20.0));
        // the three skipped seconds count at the burst level
        assert_eq!(d.burst_volume, Some(1800.0 * 20.0));
        // a limit toggling every 5 s over 60 s
        let toggling: Vec<f64> = (0..60)
            .map(|i| if (i / 5) % 2 == 0 { 2000.0 } else { 200.0 })
            .collect();
        let d = detect(&toggling, 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::PeriodicBurst);
        assert_eq!((d.burst, d.sustained), (Some(2000.0), 200.0));
        // and an empty bucket is one level
        let d = detect(&with_noise(vec![200.0; 60], 0.05, 9), 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::Flat);
    }

    #[test]
    fn a_real_toggling_throttle_with_mixed_seconds_is_periodic() {
        // read IOPS per second of real fio behind a cgroup throttle toggling
        // between 2000 and 200 every 5 s (tests/burst_emulated.rs): each
        // edge falls inside a second, so every period has a mixed sample
        // (1081, 1282, 1000, ...), the throttle's slices jitter (2160,
        // 1936), and the first high phase is cut short by fio's start
        let series = [
            2000.0, 2000.0, 1081.0, 199.0, 200.0, 200.0, 200.0, 1282.0, 2000.0, 2000.0, 2000.0,
            2000.0, 1000.0, 180.0, 199.0, 200.0, 200.0, 1288.0, 1998.0, 2000.0, 2000.0, 2000.0,
            1000.0, 160.0, 199.0, 200.0, 199.0, 1284.0, 2000.0, 1998.0, 2000.0, 2000.0, 1000.0,
            128.0, 200.0, 180.0, 219.0, 1146.0, 1936.0, 2160.0, 2040.0, 2000.0, 1000.0, 155.0,
            200.0, 200.0, 200.0, 1281.0, 2000.0, 2000.0, 2000.0, 2000.0, 952.0, 200.0, 200.0,
            200.0, 200.0, 1288.0, 2000.0, 2000.0, 2000.0, 2000.0, 928.0, 200.0, 200.0, 200.0,
            200.0, 1281.0, 2000.0, 2000.0, 2000.0, 2000.0, 1000.0, 135.0, 200.0, 199.0, 200.0,
            1281.0, 2000.0, 2000.0, 2000.0, 2000.0, 800.0, 160.0, 200.0, 200.0, 200.0, 1280.0,
            2000.0, 2000.0,
        ];
        let d = detect(&series, 1.0).unwrap();
        assert_eq!(d.pattern, Pattern::PeriodicBurst);
        assert_eq!((d.burst, d.sustained), (Some(2000.0), 200.0));
        let (on, off) = (d.on_s.unwrap(), d.off_s.unwrap());
        assert!(
            (on - 5.0).abs() <= 0.5 && (off - 5.0).abs() <= 0.5,
            "{on} {off}"
        );
        assert!((on + off - 10.0).abs() < 1e-9, "{on} {off}");
    }

    #[test]
    fn steady_state_follows_the_snia_limits() {
        // five rounds whose means are 90, 100, 110, 100, 100: range 20% of 100
        let mut x = Vec::new();
        for m in [90.0, 100.0, 110.0, 100.0, 100.0] {
            x.extend(std::iter::repeat_n(m, 60));
        }
        let s = steady_state(&x, 1.0, 60.0);
        assert!((s.range_pct - 20.0).abs() < 1e-9);
        assert!(s.reached, "{s:?}");
        // a ramp of 1 per sample over 300 samples at mean ~1000: 29.9%
        let ramp: Vec<f64> = (0..300).map(|i| 850.0 + i as f64).collect();
        let s = steady_state(&ramp, 1.0, 60.0);
        assert!((s.slope_pct - 299.0 / 999.5 * 100.0).abs() < 1e-9, "{s:?}");
        assert!(!s.reached);
    }

    #[test]
    fn a_timeline_gives_judged_and_shown_metrics() {
        let iops: Vec<f64> = (0..2700)
            .map(|i| if i < 2000 { 3000.0 } else { 300.0 })
            .collect();
        let bw = iops.iter().map(|v| v * 4096.0).collect();
        let mut tl = Timeline {
            interval_s: 1.0,
            read: Some(Box::new(Series {
                iops,
                bw,
                lat: None,
                clat: None,
            })),
            write: None,
            trim: None,
            logs: BTreeMap::new(),
            pattern: None,
            burst_on_s: None,
            burst_off_s: None,
        };
        let m = classify(&mut tl, TestKind::BlockIo);
        let v = |n: &str| m.get(n).map(|m| (m.value, m.unit));
        assert_eq!(tl.pattern, Some(Pattern::CreditBurst));
        assert_eq!(v("read_iops_burst"), Some((3000.0, "IOPS")));
        assert_eq!(v("read_iops_sustained"), Some((300.0, "IOPS")));
        assert_eq!(v("read_bw_sustained"), Some((300.0 * 4096.0, "B/s")));
        assert_eq!(v("burst_duration"), Some((2000.0, "s")));
        assert_eq!(v("burst_ios"), Some((5.4e6, "count")));
        assert_eq!(v("steady_state"), Some((1.0, "count")));
        assert_eq!(v("ss_range"), Some((0.0, "%")));
        assert_eq!(v("burst_bytes"), None);
        // a throughput test is judged on its bandwidth series
        let m = classify(&mut tl, TestKind::Throughput);
        assert_eq!(m.get("burst_bytes").map(|m| m.value), Some(5.4e6 * 4096.0));
        assert!(!m.contains_key("burst_ios"));
        for name in m.keys() {
            let unit = crate::metrics::expected_unit(name).unwrap();
            assert_eq!(unit.as_str(), m[name].unit, "{name}");
        }
    }

    #[test]
    fn bad_input_gives_nothing() {
        assert_eq!(detect(&[1.0; 12], 0.0), None);
        assert_eq!(
            detect(&[1.0; 13], 1.0).map(|d| d.pattern),
            Some(Pattern::Flat)
        );
        assert_eq!(detect(&[1.0; 13], 1.0).unwrap().start_s, 3.0);
        // three skipped, nine left
        assert_eq!(detect(&[1.0; 12], 1.0), None);
        assert_eq!(detect(&[1.0, f64::NAN, 1.0, 1.0], 1.0), None);
        assert_eq!(median(&[3.0, 1.0, 2.0, 10.0]), Some(2.5));
        assert_eq!(
            rolling_median(&[1.0, 9.0, 1.0, 1.0], 3),
            vec![5.0, 1.0, 1.0, 1.0]
        );
    }
}
