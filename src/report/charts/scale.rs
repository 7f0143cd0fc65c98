//! Axes: linear from zero or logarithmic, with 1-2-5 ticks and their labels.

use super::text::text_width;

/// Bars go on a log axis when the largest is more than this many times the smallest.
pub(super) const BAR_LOG_RATIO: f64 = 20.0;

/// Decades a log axis labels at most: past this many it labels every
/// second, third, .. decade, so that the ticks of any axis, however wide,
/// are a handful.
const MAX_LOG_TICK_DECADES: f64 = 10.0;

/// A linear (from zero) or logarithmic axis mapping values onto `a..b` in SVG units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Scale {
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) log: bool,
    /// SVG coordinate of `lo`.
    pub(super) a: f64,
    /// SVG coordinate of `hi`.
    pub(super) b: f64,
    /// Tick step of a linear axis.
    pub(super) step: f64,
}

impl Scale {
    /// Fits finite values >= 0; logarithmic when allowed and the positive
    /// values span ten times or more, otherwise linear from zero.
    pub(super) fn fit(values: &[f64], a: f64, b: f64, allow_log: bool) -> Scale {
        let usable = values
            .iter()
            .copied()
            .filter(|v| v.is_finite() && *v >= 0.0);
        let max = usable.clone().fold(0.0, f64::max);
        let min_pos = usable.filter(|v| *v > 0.0).fold(f64::INFINITY, f64::min);
        if allow_log && spans_decade(min_pos, max) {
            let lo = nice_floor(min_pos);
            let hi = nice_ceil(max);
            if lo > 0.0 && hi.is_finite() && hi > lo {
                return Scale {
                    lo,
                    hi,
                    log: true,
                    a,
                    b,
                    step: 0.0,
                };
            }
        }
        let max = if max > 0.0 { max } else { 1.0 };
        let step = nice_ceil(max / 5.0);
        let mut hi = (max / step).ceil() * step;
        if !(hi.is_finite() && hi > 0.0) {
            hi = max;
        }
        Scale {
            lo: 0.0,
            hi,
            log: false,
            a,
            b,
            step,
        }
    }

    /// The axis of a bar chart: logarithmic when every bar is above zero and
    /// the largest `medians` is more than [`BAR_LOG_RATIO`] times the
    /// smallest, else linear from zero; `extent` (bars and whiskers) must fit.
    /// A log axis starts at the power of ten at least two times below the
    /// shortest bar, so that every bar keeps a visible length.
    pub(super) fn fit_bars(medians: &[f64], extent: &[f64], a: f64, b: f64) -> Scale {
        let all_positive = medians.iter().all(|v| v.is_finite() && *v > 0.0);
        let min = medians.iter().copied().fold(f64::INFINITY, f64::min);
        let max = extent
            .iter()
            .copied()
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max);
        let top = medians.iter().copied().fold(0.0, f64::max);
        if all_positive && !medians.is_empty() && top / min > BAR_LOG_RATIO {
            let mut lo = 10f64.powf(min.log10().floor());
            if min / lo < 2.0 {
                lo /= 10.0;
            }
            let hi = nice_ceil(max);
            if lo > 0.0 && hi.is_finite() && hi > lo {
                return Scale {
                    lo,
                    hi,
                    log: true,
                    a,
                    b,
                    step: 0.0,
                };
            }
        }
        Scale::fit(extent, a, b, false)
    }

    pub(super) fn axis_t(&self, v: f64) -> f64 {
        if self.log {
            v.log10()
        } else {
            v
        }
    }

    pub(super) fn value_at_t(&self, t: f64) -> f64 {
        if self.log {
            10f64.powf(t)
        } else {
            t
        }
    }

    /// The SVG coordinate of `v`.
    pub(super) fn map(&self, v: f64) -> f64 {
        let (t0, t1) = (self.axis_t(self.lo), self.axis_t(self.hi));
        let span = t1 - t0;
        if !(span.is_finite() && span > 0.0) {
            return self.a;
        }
        self.a + (self.axis_t(v) - t0) / span * (self.b - self.a)
    }

    pub(super) fn can_show(&self, v: f64) -> bool {
        v.is_finite() && if self.log { v > 0.0 } else { v >= 0.0 }
    }

    pub(super) fn why_not(&self) -> &'static str {
        if self.log {
            " (not a positive number, on a log scale)"
        } else {
            " (not a number >= 0)"
        }
    }

    pub(super) fn kind(&self) -> &'static str {
        if self.log {
            "logarithmic"
        } else {
            "linear"
        }
    }

    /// Tick values: 0, step, .. on a linear axis; 1-2-5 per decade on a log
    /// axis, thinned to fewer labels when it spans many decades.
    pub(super) fn ticks(&self) -> Vec<f64> {
        if !self.log {
            let n = (self.hi / self.step).round();
            if !(1.0..=20.0).contains(&n) {
                return vec![self.lo, self.hi];
            }
            return (0..=n as usize).map(|i| self.step * i as f64).collect();
        }
        // a count of decades, never a range of values: the loop below runs
        // at most MAX_LOG_TICK_DECADES + 1 times however far apart lo and hi
        // are (a subnormal next to an hour spans 330 decades)
        if !(self.lo > 0.0 && self.hi.is_finite() && self.hi >= self.lo) {
            return Vec::new();
        }
        // both within -324..=309 for finite positive values
        let d0 = self.lo.log10().floor();
        let d1 = self.hi.log10().ceil();
        let decades = (d1 - d0).max(1.0);
        let mantissas: &[f64] = if decades <= 3.0 {
            &[1.0, 2.0, 5.0]
        } else {
            &[1.0]
        };
        let every = (decades / MAX_LOG_TICK_DECADES).ceil();
        let steps = ((d1 - d0) / every).floor().max(0.0) as i32;
        let mut out = Vec::new();
        for k in 0..=steps {
            let d = (d0 + every * f64::from(k)) as i32;
            for m in mantissas {
                let t = m * 10f64.powi(d);
                if t > 0.0
                    && t.is_finite()
                    && t >= self.lo * (1.0 - 1e-9)
                    && t <= self.hi * (1.0 + 1e-9)
                {
                    out.push(t);
                }
            }
        }
        out
    }
}

impl Scale {
    /// The ticks whose labels at `px` fit side by side: all of them, else on
    /// a log axis the decades only, else every second, third, .. of those.
    pub(super) fn ticks_fitting(&self, px: f64) -> Vec<f64> {
        let fits = |ts: &[f64]| {
            ts.windows(2).all(|w| {
                let gap = (self.map(w[1]) - self.map(w[0])).abs();
                let need = (text_width(&fmt_tick(w[0], self), px)
                    + text_width(&fmt_tick(w[1], self), px))
                    / 2.0
                    + 8.0;
                gap >= need
            })
        };
        let mut base = self.ticks();
        if fits(&base) {
            return base;
        }
        if self.log {
            base.retain(|t| (t.log10() - t.log10().round()).abs() < 1e-9);
        }
        for k in 1..=base.len().max(1) {
            let ts: Vec<f64> = base.iter().step_by(k).copied().collect();
            if fits(&ts) {
                return ts;
            }
        }
        base.truncate(1);
        base
    }
}

/// Whether positive values from `min_pos` to `max` span ten times or more.
pub(super) fn spans_decade(min_pos: f64, max: f64) -> bool {
    min_pos.is_finite() && min_pos > 0.0 && max / min_pos >= 10.0
}

/// The largest 1, 2 or 5 times a power of ten that is <= `v`; `v` itself
/// when that power of ten is not a positive finite number (a subnormal `v`,
/// whose power of ten underflows to zero) or `v` is not finite and > 0.
pub(super) fn nice_floor(v: f64) -> f64 {
    let d = 10f64.powf(v.log10().floor());
    if !(v.is_finite() && v > 0.0 && d.is_finite() && d > 0.0) {
        return v;
    }
    [5.0, 2.0, 1.0]
        .into_iter()
        .map(|m| m * d)
        .find(|c| c.is_finite() && *c <= v * (1.0 + 1e-9))
        .unwrap_or(d)
}

/// The smallest 1, 2 or 5 times a power of ten that is >= `v`; `v` itself
/// when there is no such finite number (`v` near `f64::MAX`) or `v` is not
/// finite and > 0.
pub(super) fn nice_ceil(v: f64) -> f64 {
    let d = 10f64.powf(v.log10().floor());
    if !(v.is_finite() && v > 0.0 && d.is_finite() && d > 0.0) {
        return v;
    }
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * d)
        .find(|c| *c >= v * (1.0 - 1e-9))
        .filter(|c| c.is_finite())
        .unwrap_or(v)
}

/// A tick label with as many decimals as the tick spacing needs.
pub(super) fn fmt_tick(v: f64, scale: &Scale) -> String {
    let unit = if scale.log { v } else { scale.step };
    if v == 0.0 {
        return "0".to_string();
    }
    if unit.abs() < 0.0001 || v.abs() >= 1e9 {
        return format!("{v:.0e}");
    }
    let decimals = (-unit.abs().log10().floor()).clamp(0.0, 4.0) as usize;
    // thousands separators, as every number on the page has them: `2,500`
    let s = crate::format::fixed(v.abs(), decimals);
    let (whole, frac) = s.split_once('.').unwrap_or((&s, ""));
    let sign = if v < 0.0 { "-" } else { "" };
    let whole = crate::format::grouped(whole);
    if frac.is_empty() {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{frac}")
    }
}
