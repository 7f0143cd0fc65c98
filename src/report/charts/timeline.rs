//! The timeline chart: a time-based test's per-second IOPS or bandwidth,
//! its rolling median, horizontal lines at the burst and sustained levels,
//! the burst shaded, and a caption in words ("3,000 IOPS for 33 min (5.4 M
//! I/Os), then 300 IOPS; steady state reached"), and below it, on the same
//! time axis, the per-second latency where fio logged it.

use anyhow::Result;

use super::key::Key;
use super::scale::Scale;
use super::svg::*;
use super::text::*;
use super::*;

/// One timeline, values already in the display unit.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineChart {
    pub title: String,
    pub desc: String,
    /// Display unit of the values, e.g. `IOPS` or `MB/s`.
    pub unit: String,
    /// Seconds between samples.
    pub interval_s: f64,
    /// One value per interval from the start of the run.
    pub values: Vec<f64>,
    /// The rolling median, one value per sample from `rolling_start_s` on.
    pub rolling: Vec<f64>,
    /// Seconds from the start of the first rolling-median sample.
    pub rolling_start_s: f64,
    /// The burst level B, if there is one.
    pub burst: Option<f64>,
    /// The sustained level S.
    pub sustained: Option<f64>,
    /// Where the burst ends (t_drop), seconds from the start.
    pub burst_end_s: Option<f64>,
    /// The caption, in words (see [`caption`]).
    pub caption: String,
    /// The latency series drawn in a second panel below, on the same time axis.
    pub latency: Option<LatencyPanel>,
}

/// A per-second latency series, values already in the display unit.
#[derive(Clone, Debug, PartialEq)]
pub struct LatencyPanel {
    /// What the values are, e.g. `mean completion latency`.
    pub what: String,
    /// Display unit, e.g. `ms`.
    pub unit: String,
    /// One value per interval from the start of the run, like the values above.
    pub values: Vec<f64>,
    /// Its rolling median, one value per sample from the chart's `rolling_start_s` on.
    pub rolling: Vec<f64>,
}

/// What [`caption`] says about one timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Words<'a> {
    /// `flat`, `credit-burst`, `periodic-burst` or `not-exhausted`.
    pub pattern: &'a str,
    /// The burst level, formatted with its unit (`3,000 IOPS`).
    pub burst: Option<&'a str>,
    /// The sustained level, formatted with its unit (`300 IOPS`).
    pub sustained: &'a str,
    /// Burst duration in seconds (credit bursts).
    pub burst_s: Option<f64>,
    /// Burst volume, formatted (`5.4 M I/Os`).
    pub volume: Option<&'a str>,
    /// High and low phase lengths in seconds (periodic bursts).
    pub on_off_s: Option<(f64, f64)>,
    /// Length of the run in seconds.
    pub run_s: f64,
    /// Whether the SNIA steady-state test passed.
    pub steady: bool,
}

/// The caption of a timeline: "3,000 IOPS for 33 min (5.4 M I/Os), then 300
/// IOPS; steady state reached".
pub fn caption(w: &Words<'_>) -> String {
    let steady = if w.steady {
        "steady state reached"
    } else {
        "no steady state"
    };
    let level = match (w.pattern, w.burst) {
        ("credit-burst", Some(b)) => {
            let how_long = w
                .burst_s
                .map(|s| format!(" for {}", crate::format::duration_words(s)))
                .unwrap_or_default();
            let volume = w.volume.map(|v| format!(" ({v})")).unwrap_or_default();
            format!("{b}{how_long}{volume}, then {}", w.sustained)
        }
        ("periodic-burst", Some(b)) => match w.on_off_s {
            Some((on, off)) => format!(
                "{b} for {} in every {}, {} between",
                crate::format::duration_words(on),
                crate::format::duration_words(on + off),
                w.sustained
            ),
            None => format!("{b} in bursts, {} between", w.sustained),
        },
        ("not-exhausted", _) => format!(
            "sustained level not reached in {}: at least {}",
            crate::format::duration_words(w.run_s),
            w.sustained
        ),
        _ => format!("{} throughout", w.sustained),
    };
    format!("{level}; {steady}")
}

/// What the thin and the thick line of a timeline are, above its plot.
const TIMELINE_KEY: &str = "thin: each second, thick: rolling median";

/// Draws a timeline chart, wide and following the reader's colour scheme.
pub fn timeline_chart(chart: &TimelineChart) -> Result<String> {
    chart.draw(Look::WIDE)
}

impl Chart for TimelineChart {
    /// Title, unit and the number of values.
    fn content_key(&self) -> ChartId {
        Key::new("TimelineChart")
            .text("title", &self.title)
            .text("unit", &self.unit)
            .count("values", self.values.len())
            .finish()
    }

    fn draw_keyed(&self, look: Look, key: ChartId) -> Result<String> {
        draw_timeline(self, look, key)
    }
}

/// The most points a line of a timeline chart is drawn with: a chart is
/// some 800 units wide, so more points than this fall on the same pixels,
/// while each one costs the SVG some 15 bytes.
pub const MAX_DRAWN_POINTS: usize = 2000;

/// The samples of `values` a line is drawn through, as (index, value):
/// every usable one (finite, not negative) when there are at most
/// [`MAX_DRAWN_POINTS`]; else, for each of `MAX_DRAWN_POINTS / 2` runs of
/// consecutive samples, its lowest and its highest in time order, so that
/// a burst's edge or a one-second stall still shows.
pub fn drawn_points(values: &[f64]) -> Vec<(usize, f64)> {
    let ok = |v: &f64| v.is_finite() && *v >= 0.0;
    if values.len() <= MAX_DRAWN_POINTS {
        return values
            .iter()
            .enumerate()
            .filter(|(_, v)| ok(v))
            .map(|(i, v)| (i, *v))
            .collect();
    }
    let buckets = MAX_DRAWN_POINTS / 2;
    let mut out = Vec::with_capacity(MAX_DRAWN_POINTS);
    for b in 0..buckets {
        let (start, end) = (b * values.len() / buckets, (b + 1) * values.len() / buckets);
        let run = values
            .get(start..end)
            .unwrap_or_default()
            .iter()
            .enumerate()
            .filter(|(_, v)| ok(v))
            .map(|(i, v)| (start + i, *v));
        let mut lo: Option<(usize, f64)> = None;
        let mut hi: Option<(usize, f64)> = None;
        for p in run {
            if lo.is_none_or(|l| p.1 < l.1) {
                lo = Some(p);
            }
            if hi.is_none_or(|h| p.1 > h.1) {
                hi = Some(p);
            }
        }
        match (lo, hi) {
            (Some(l), Some(h)) if l.0 == h.0 => out.push(l),
            (Some(l), Some(h)) if l.0 < h.0 => out.extend([l, h]),
            (Some(l), Some(h)) => out.extend([h, l]),
            _ => {}
        }
    }
    out
}

/// One latency panel's grid, ticks (those that fit its height), per-second
/// line and rolling median, between `top` and `bottom`.
fn draw_series(
    doc: &mut Doc,
    chart: &TimelineChart,
    values: &[f64],
    rolling: &[f64],
    (left, right): (f64, f64),
    (top, bottom): (f64, f64),
    x: &dyn Fn(f64) -> f64,
) {
    let ok = |v: &f64| v.is_finite() && *v >= 0.0;
    let usable: Vec<f64> = values.iter().copied().filter(ok).collect();
    let ys = Scale::fit(&usable, bottom, top, false);
    let ticks = ys.ticks();
    // labels 12 units high need about 20 units between them
    let every = ticks
        .windows(2)
        .next()
        .map(|w| (20.0 / (ys.map(w[0]) - ys.map(w[1])).abs()).ceil().max(1.0) as usize)
        .unwrap_or(1);
    for t in ticks.iter().step_by(every) {
        let y = ys.map(*t);
        doc.polyline("dd-grid", &[(left, y), (right, y)], false);
        let label = super::scale::fmt_tick(*t, &ys);
        doc.text(
            Txt::new(left - 6.0, y + 4.0, &label)
                .anchor("end")
                .size(SMALL_PX)
                .muted(),
        );
    }
    let line: Vec<(f64, f64)> = drawn_points(values)
        .into_iter()
        .map(|(i, v)| (x((i + 1) as f64 * chart.interval_s), ys.map(v)))
        .collect();
    doc.polyline("dd-axis", &line, false);
    let median: Vec<(f64, f64)> = drawn_points(rolling)
        .into_iter()
        .map(|(i, v)| {
            let t = chart.rolling_start_s + (i + 1) as f64 * chart.interval_s;
            (x(t), ys.map(v))
        })
        .collect();
    if median.len() > 1 {
        doc.polyline("dd-ink", &median, true);
    }
}

/// The most lines a timeline's caption takes below the chart.
const CAPTION_LINES: usize = 16;

fn draw_timeline(chart: &TimelineChart, look: Look, key: ChartId) -> Result<String> {
    let width = look.width();
    let drop = title_drop(&chart.title, look);
    // the whole caption, on as many lines as it takes (a promise and its
    // source run long on a phone's narrow drawing); the cap only keeps a
    // hostile caption from growing the drawing without bound
    let caption_lines = wrap_lines(&chart.caption, width - 24.0, LABEL_PX, CAPTION_LINES);
    let top = 50.0 + drop;
    let plot_h = if look.narrow { 150.0 } else { 200.0 };
    let lat = chart
        .latency
        .as_ref()
        .filter(|l| l.values.iter().any(|v| v.is_finite() && *v >= 0.0));
    // the latency panel: a gap with its label, then its plot
    let lat_h = if look.narrow { 80.0 } else { 100.0 };
    let lat_top = top + plot_h + 34.0;
    let bottom = match lat {
        Some(_) => lat_top + lat_h,
        None => top + plot_h,
    };
    let height = bottom + 40.0 + 18.0 * caption_lines.len() as f64;
    let mut said = vec![chart.caption.clone()];
    if let Some(l) = lat {
        said.push(format!("Below: per-second {} in {}.", l.what, l.unit));
    }
    let desc = join_desc(&chart.desc, &said);
    let mut doc = Doc::begin(look, "timeline", key, height, &chart.title, &desc);
    let usable: Vec<f64> = chart
        .values
        .iter()
        .copied()
        .filter(|v| v.is_finite() && *v >= 0.0)
        .collect();
    if usable.is_empty() || chart.interval_s.is_nan() || chart.interval_s <= 0.0 {
        doc.no_data(height);
        return doc.finish();
    }
    let plot_bottom = top + plot_h;
    let ys = Scale::fit(&usable, plot_bottom, top, false);
    // room on the left for the widest value tick, drawn 6 units from the plot
    let widest_tick = ys
        .ticks()
        .iter()
        .map(|t| text_width(&super::scale::fmt_tick(*t, &ys), SMALL_PX))
        .fold(0.0, f64::max);
    let left = f64::max(
        if look.narrow { 44.0 } else { 64.0 },
        4.0 + widest_tick + 6.0,
    );
    let right = width - 16.0;
    let end_s = chart.values.len() as f64 * chart.interval_s;
    let x = |t: f64| left + (t / end_s).clamp(0.0, 1.0) * (right - left);
    doc.text(
        Txt::new(left, top - 8.0, &one_line(&chart.unit))
            .size(SMALL_PX)
            .muted(),
    );
    // the key: which of the two lines is which
    doc.text(
        Txt::new(right, top - 8.0, TIMELINE_KEY)
            .anchor("end")
            .size(SMALL_PX)
            .muted(),
    );
    // grid and value ticks
    for t in ys.ticks() {
        let y = ys.map(t);
        doc.polyline("dd-grid", &[(left, y), (right, y)], false);
        let label = super::scale::fmt_tick(t, &ys);
        doc.text(
            Txt::new(left - 6.0, y + 4.0, &label)
                .anchor("end")
                .size(SMALL_PX)
                .muted(),
        );
    }
    if let Some(t_drop) = chart.burst_end_s {
        doc.shade(x(0.0), top, x(t_drop) - x(0.0), plot_h);
        if lat.is_some() {
            doc.shade(x(0.0), lat_top, x(t_drop) - x(0.0), lat_h);
        }
    }
    let series: Vec<(f64, f64)> = drawn_points(&chart.values)
        .into_iter()
        .map(|(i, v)| (x((i + 1) as f64 * chart.interval_s), ys.map(v)))
        .collect();
    doc.polyline("dd-axis", &series, false);
    let rolling: Vec<(f64, f64)> = drawn_points(&chart.rolling)
        .into_iter()
        .map(|(i, v)| {
            let t = chart.rolling_start_s + (i + 1) as f64 * chart.interval_s;
            (x(t), ys.map(v))
        })
        .collect();
    if rolling.len() > 1 {
        doc.polyline("dd-ink", &rolling, true);
    }
    // the levels in words and with separators, as the caption below says them
    for (level, name) in [(chart.burst, "burst"), (chart.sustained, "sustained")] {
        let Some(v) = level.filter(|v| v.is_finite() && *v >= 0.0) else {
            continue;
        };
        let y = ys.map(v);
        doc.polyline("dd-eq dd-eq1", &[(left, y), (right, y)], false);
        let label = format!(
            "{name} {} {}",
            crate::format::number(v),
            one_line(&chart.unit)
        );
        doc.text(
            Txt::new(right - 4.0, y - 5.0, &label)
                .anchor("end")
                .size(SMALL_PX)
                .halo(),
        );
    }
    doc.polyline(
        "dd-axis",
        &[(left, plot_bottom), (right, plot_bottom)],
        false,
    );
    if let Some(l) = lat {
        let label = format!("{} ({})", l.what, l.unit);
        doc.text(
            Txt::new(left, lat_top - 8.0, &one_line(&label))
                .size(SMALL_PX)
                .muted(),
        );
        draw_series(
            &mut doc,
            chart,
            &l.values,
            &l.rolling,
            (left, right),
            (lat_top, bottom),
            &x,
        );
        doc.polyline("dd-axis", &[(left, bottom), (right, bottom)], false);
    }
    // time ticks in minutes past two minutes, else seconds
    let minutes = end_s >= 120.0;
    let span = if minutes { end_s / 60.0 } else { end_s };
    let tx = Scale::fit(&[span], left, right, false);
    for t in tx.ticks() {
        let secs = if minutes { t * 60.0 } else { t };
        if secs > end_s + 1e-9 {
            continue;
        }
        let label = format!(
            "{}{}",
            super::scale::fmt_tick(t, &tx),
            if minutes { " min" } else { " s" }
        );
        // the last label ends at the plot's edge rather than past the chart's
        let anchor = if x(secs) > right - 20.0 {
            "end"
        } else {
            "middle"
        };
        doc.text(
            Txt::new(x(secs), bottom + 18.0, &label)
                .anchor(anchor)
                .size(SMALL_PX)
                .muted(),
        );
    }
    for (i, line) in caption_lines.iter().enumerate() {
        doc.text(Txt::new(12.0, bottom + 44.0 + 18.0 * i as f64, line));
    }
    doc.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gp2() -> TimelineChart {
        let values: Vec<f64> = (0..2700)
            .map(|i| if i < 2000 { 3000.0 } else { 300.0 })
            .collect();
        let d = crate::timeline::detect(&values, 1.0).unwrap();
        TimelineChart {
            title: "AWS gp2 100 GB: 4 KiB random reads over time".into(),
            desc: "per-second read IOPS".into(),
            unit: "IOPS".into(),
            interval_s: 1.0,
            values,
            rolling: d.rolling.clone(),
            rolling_start_s: d.start_s,
            burst: d.burst,
            sustained: Some(d.sustained),
            burst_end_s: d.burst_duration_s,
            caption: caption(&Words {
                pattern: d.pattern.name(),
                burst: Some("3,000 IOPS"),
                sustained: "300 IOPS",
                burst_s: d.burst_duration_s,
                volume: Some("5.4 M I/Os"),
                on_off_s: None,
                run_s: 2700.0,
                steady: d.steady.reached,
            }),
            latency: None,
        }
    }

    #[test]
    fn the_caption_says_it_in_words() {
        assert_eq!(
            gp2().caption,
            "3,000 IOPS for 33 min (5.4 M I/Os), then 300 IOPS; steady state reached"
        );
        let w = Words {
            pattern: "periodic-burst",
            burst: Some("2,000 IOPS"),
            sustained: "200 IOPS",
            burst_s: None,
            volume: None,
            on_off_s: Some((20.0, 40.0)),
            run_s: 1800.0,
            steady: false,
        };
        assert_eq!(
            caption(&w),
            "2,000 IOPS for 20 s in every 60 s, 200 IOPS between; no steady state"
        );
        let w = Words {
            pattern: "not-exhausted",
            on_off_s: None,
            burst: None,
            sustained: "3,000 IOPS",
            run_s: 1200.0,
            ..w
        };
        assert_eq!(
            caption(&w),
            "sustained level not reached in 20 min: at least 3,000 IOPS; no steady state"
        );
        let w = Words {
            pattern: "flat",
            sustained: "900 IOPS",
            steady: true,
            ..w
        };
        assert_eq!(caption(&w), "900 IOPS throughout; steady state reached");
        assert_eq!(crate::format::duration_words(7200.0), "2.0 h");
    }

    #[test]
    fn the_chart_shows_levels_burst_and_caption_in_every_look() {
        let chart = gp2();
        let drawn = draw(&chart).unwrap();
        for svg in [&drawn.wide, &drawn.narrow, &drawn.light, &drawn.dark] {
            assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
            assert!(svg.contains(">burst 3,000 IOPS<"), "{svg}");
            assert!(svg.contains(">sustained 300 IOPS<"), "no S line");
            assert!(svg.contains(">thin: each second, thick: rolling median<"));
            assert!(svg.contains("fill-opacity=\"0.18\""), "no burst shade");
            assert!(svg.contains("5.4 M I/Os"));
            assert!(svg.contains(" min<"), "time axis in minutes");
        }
        // the shade spans the first 2000 of 2700 s of the 64..704 plot
        let w = (704.0 - 64.0) * 2000.0 / 2700.0;
        assert!(drawn.wide.contains(&format!("width=\"{w:.1}\"")), "{w}");
        assert_ne!(drawn.wide, drawn.narrow);
        // same input, same bytes
        assert_eq!(draw(&chart).unwrap().wide, drawn.wide);
        let empty = TimelineChart {
            values: vec![],
            ..chart
        };
        assert!(timeline_chart(&empty).unwrap().contains("no data to chart"));
    }
    #[test]
    fn a_long_caption_is_drawn_whole_on_a_phone() {
        // the as-typed study's Premium SSD caption: its promise and source
        // ran past six lines of the narrow drawing and were cut
        let mut chart = gp2();
        chart.caption = "3,500 IOPS for 19 s, then not measured; at the promised burst of \
            3,500 IOPS; burst not excluded beyond 19 s. Measured / promised: burst 3,500 / \
            3,500 IOPS (100%). Promised: burst 3,500 IOPS for up to 30 min, then 500 IOPS \
            (Azure Premium SSD, promised as of 2023-03-16, MicrosoftDocs/azure-docs \
            includes/disk-storage-premium-ssd-sizes.md, more than a year old)."
            .into();
        let drawn = draw(&chart).unwrap();
        for svg in [&drawn.wide, &drawn.narrow] {
            assert!(!svg.contains('…'), "{svg}");
            assert!(svg.contains("more than a year old).</text>"), "{svg}");
        }
        let lines = |svg: &str| svg.matches("class=\"dd-t\" font-size=\"13\"").count();
        assert!(
            lines(&drawn.narrow) > lines(&drawn.wide),
            "the narrow drawing wraps more"
        );
    }

    #[test]
    fn latency_is_drawn_below_on_the_same_time_axis() {
        let mut chart = gp2();
        let lat: Vec<f64> = chart.values.iter().map(|v| 32_000.0 / v).collect();
        chart.latency = Some(LatencyPanel {
            what: "mean completion latency".into(),
            unit: "ms".into(),
            rolling: lat[3..].to_vec(),
            values: lat,
        });
        let without = draw(&gp2()).unwrap();
        let drawn = draw(&chart).unwrap();
        for (svg, plain) in [
            (&drawn.wide, &without.wide),
            (&drawn.narrow, &without.narrow),
        ] {
            assert!(svg.contains(">mean completion latency (ms)<"), "axis label");
            assert!(svg.contains("Below: per-second mean completion latency in ms."));
            // 107 ms after the burst: the panel's axis reaches 150
            assert!(svg.contains(">150<"), "latency ticks");
            // the burst is shaded in both panels, the time axis drawn once
            assert_eq!(svg.matches("fill-opacity=\"0.18\"").count(), 2);
            assert_eq!(svg.matches(" min<").count(), plain.matches(" min<").count());
            let height = |s: &str| {
                let v = s.split("viewBox=\"0 0 ").nth(1).unwrap();
                v.split(['"', ' ']).nth(1).unwrap().parse::<f64>().unwrap()
            };
            assert!(height(svg) >= height(plain) + 100.0, "a panel below");
        }
        // a series of nothing but gaps draws no panel
        chart.latency.as_mut().unwrap().values = vec![f64::NAN; 10];
        assert!(!draw(&chart).unwrap().wide.contains("latency (ms)"));
    }

    #[test]
    fn a_long_series_is_drawn_through_its_lows_and_highs_per_bucket() {
        // a week of seconds: 3,000 IOPS with one 1-second stall and one
        // 1-second spike, which a plain every-n-th sample would miss
        let mut values = vec![3000.0; 604_800];
        values[123_457] = 0.0;
        values[400_001] = 9000.0;
        let points = drawn_points(&values);
        assert!(points.len() <= MAX_DRAWN_POINTS, "{}", points.len());
        assert!(points.contains(&(123_457, 0.0)));
        assert!(points.contains(&(400_001, 9000.0)));
        assert!(points.windows(2).all(|w| w[0].0 < w[1].0), "in time order");
        // a short one is drawn whole, without its unusable samples
        assert_eq!(drawn_points(&[1.0, f64::NAN, 3.0]), [(0, 1.0), (2, 3.0)]);
    }
}
