//! Burst and sustained: classifies a per-second series (IOPS or bandwidth)
//! as flat, credit-burst, periodic-burst or not-exhausted, with its burst
//! and sustained levels and the SNIA steady-state test of the sustained
//! level. A pure function over numbers; `docs/run.md` ("Burst and
//! sustained") describes the same algorithm in words.

use crate::record::Pattern;

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
pub(super) fn settled_from(rolling: &[f64], level: f64, tol: f64, p: usize) -> Option<usize> {
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
pub(super) fn changes(rolling: &[f64], level: f64, tol: f64, p: usize) -> bool {
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
