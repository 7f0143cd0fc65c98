//! The latency distribution chart: completion latency against percentile,
//! a line per configuration, with the tail spread out so that p99.9 and
//! p99.99 are as far apart as p1 and p5.

use anyhow::Result;

use super::key::Key;
use super::scale::{fmt_tick, nice_ceil, nice_floor, Scale};
use super::svg::*;
use super::text::*;
use super::*;

/// Percentiles the x axis places evenly, from left to right; a percentile
/// between two of them sits between them in proportion to its "nines"
/// (`-log10(1 - p/100)`). The ends (0.1, 99.999) only show when a line
/// reaches them (a `percentile_list` of the user's own).
const ANCHORS: [f64; 10] = [0.1, 1.0, 5.0, 10.0, 50.0, 90.0, 99.0, 99.9, 99.99, 99.999];

/// Lines drawn at most; the rest are named in the `<desc>`.
const MAX_SERIES: usize = 24;

/// Plot area: left, right, top, bottom.
const PLOT: (f64, f64, f64, f64) = (84.0, 690.0, 52.0, 332.0);

/// One configuration's latency distribution.
#[derive(Clone, Debug, PartialEq)]
pub struct DistributionSeries {
    /// Series label (configuration name); user-supplied, escaped by the chart.
    pub label: String,
    /// `(percentile, latency)` pairs, latency in the chart's display unit,
    /// percentile in percent (99.9); any order.
    pub points: Vec<(f64, f64)>,
}

/// Latency against percentile, one line per configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct DistributionChart {
    /// Title (also the SVG `<title>`).
    pub title: String,
    /// Longer description for screen readers (the SVG `<desc>`).
    pub desc: String,
    /// Display unit of latency, e.g. `ms`.
    pub unit: String,
    /// The lines, in display order.
    pub series: Vec<DistributionSeries>,
}

/// The nines of a percentile: 90 is 1, 99 is 2, 99.9 is 3.
fn nines(p: f64) -> f64 {
    -(1.0 - p / 100.0).log10()
}

/// Where percentile `p` sits on an axis whose anchors `lo..=hi` (indices
/// into [`ANCHORS`]) are spaced evenly from `a` to `b`; `None` outside them.
pub(super) fn pct_position(p: f64, lo: usize, hi: usize, a: f64, b: f64) -> Option<f64> {
    let (first, last) = (*ANCHORS.get(lo)?, *ANCHORS.get(hi)?);
    if !(p.is_finite() && p >= first * (1.0 - 1e-12) && p <= last * (1.0 + 1e-12)) || hi <= lo {
        return None;
    }
    let step = (b - a) / (hi - lo) as f64;
    for i in lo..hi {
        let (p0, p1) = (ANCHORS[i], ANCHORS[i + 1]);
        if p <= p1 * (1.0 + 1e-12) {
            let f = ((nines(p) - nines(p0)) / (nines(p1) - nines(p0))).clamp(0.0, 1.0);
            return Some(a + step * ((i - lo) as f64 + f));
        }
    }
    Some(b)
}

/// `p99.9`, `p1`: a percentile as axis and table label.
pub fn pct_label(p: f64) -> String {
    let s = crate::format::fixed(p, 3);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("p{s}")
}

/// Draws the latency distribution chart as a standalone SVG document.
///
/// The y axis (latency) is logarithmic; the x axis places p1, p5, p10,
/// p50, p90, p99, p99.9 and p99.99 evenly. A point that cannot be drawn (a
/// latency that is not a positive number, a percentile outside 0.1 to
/// 99.999) is left out and named in the `<desc>`, as are lines past
/// [`MAX_SERIES`].
pub fn distribution_chart(chart: &DistributionChart) -> Result<String> {
    chart.draw(Look::WIDE)
}

impl Chart for DistributionChart {
    /// Every field, in order.
    fn content_key(&self) -> ChartId {
        Key::new("DistributionChart")
            .text("title", &self.title)
            .text("desc", &self.desc)
            .text("unit", &self.unit)
            .list("series", self.series.iter(), DistributionSeries::key)
            .finish()
    }

    fn draw_keyed(&self, look: Look, key: ChartId) -> Result<String> {
        draw_in(self, look, key)
    }
}

/// Draws the chart in `look`; its narrow variant is the wide layout at full
/// width, scrolled sideways inside its figure on a phone.
fn draw_in(chart: &DistributionChart, look: Look, key: ChartId) -> Result<String> {
    let unit = one_line(&chart.unit);
    let mut notes = Vec::new();
    let hidden = chart.series.len().saturating_sub(MAX_SERIES);
    let series = chart.series.get(..MAX_SERIES).unwrap_or(&chart.series);
    let in_range = |p: f64| p.is_finite() && p >= ANCHORS[0] && p <= ANCHORS[ANCHORS.len() - 1];
    // what each line draws, sorted by percentile
    let mut lines: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for s in series {
        let name = one_line(&s.label);
        let mut pts = Vec::new();
        for &(p, v) in &s.points {
            if in_range(p) && v.is_finite() && v > 0.0 {
                pts.push((p, v));
            } else {
                notes.push(format!(
                    "{name} {} = {v} not drawn (not a positive latency at a percentile from 0.1 to 99.999)",
                    pct_label(p)
                ));
            }
        }
        pts.sort_by(|x, y| x.0.total_cmp(&y.0));
        lines.push((name, pts));
    }
    lines.retain(|(name, pts)| {
        if pts.is_empty() {
            notes.push(format!("{name}: nothing drawn"));
        }
        !pts.is_empty()
    });
    if hidden > 0 {
        notes.push(format!(
            "{hidden} more lines not drawn (at most {MAX_SERIES} fit)"
        ));
    }
    let all: Vec<(f64, f64)> = lines.iter().flat_map(|(_, p)| p.iter().copied()).collect();
    // the x axis: p1 to p99.99, wider only when a line reaches past them
    let pmin = all.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let pmax = all.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    let lo = if pmin < ANCHORS[1] { 0 } else { 1 };
    let hi = if pmax > ANCHORS[8] { 9 } else { 8 };
    let ys = log_scale(all.iter().map(|p| p.1));

    let mut summary = Vec::new();
    for (name, pts) in &lines {
        let parts: Vec<String> = pts
            .iter()
            .map(|(p, v)| format!("{} {}", pct_label(*p), fmt_num(*v)))
            .collect();
        summary.push(format!("{name}: {}", parts.join(", ")));
    }
    let desc = join_desc(
        &chart.desc,
        &[
            format!(
                "Completion latency in {unit} (logarithmic scale, lower is better) against percentile, the tail spread out: {} evenly spaced.",
                ANCHORS[lo..=hi]
                    .iter()
                    .map(|p| pct_label(*p))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            summary.join("; "),
            notes.join("; "),
        ],
    );

    // the legend under the axis: two columns, or one where a name would
    // not fit half the width whole (names of one provider differ at the end)
    let legend_top = PLOT.3 + 64.0;
    let columns = if lines
        .iter()
        .all(|(name, _)| text_width(name, LABEL_PX) <= WIDTH / 2.0 - 60.0)
    {
        2
    } else {
        1
    };
    let legend_rows = lines.len().div_ceil(columns);
    let height = if lines.is_empty() {
        110.0
    } else {
        legend_top + 20.0 * legend_rows as f64 + 8.0
    };
    let mut doc = Doc::begin_fixed(look, "dist", key, height, &chart.title, &desc);
    if lines.is_empty() {
        doc.no_data(height);
        return doc.finish();
    }
    let x_of = |p: f64| pct_position(p, lo, hi, PLOT.0, PLOT.1).unwrap_or(PLOT.0);
    let yticks = ys.ticks();
    doc.plot("dd-grid", |b| {
        for a in &ANCHORS[lo..=hi] {
            let x = px(x_of(*a));
            b.draw_line((x, px(PLOT.2)), (x, px(PLOT.3)), &stroke(NEUTRAL, 1));
        }
        for t in &yticks {
            let y = px(ys.map(*t));
            b.draw_line((px(PLOT.0), y), (px(PLOT.1), y), &stroke(NEUTRAL, 1));
        }
    });
    doc.plot("dd-axis", |b| {
        let corner = (px(PLOT.0), px(PLOT.3));
        b.draw_line(corner, (px(PLOT.1), px(PLOT.3)), &stroke(NEUTRAL, 1));
        b.draw_line(corner, (px(PLOT.0), px(PLOT.2)), &stroke(NEUTRAL, 1));
    });
    doc.plot("dd-lines", |b| {
        for (k, (_, pts)) in lines.iter().enumerate() {
            let colour = PALETTE[k % PALETTE.len()];
            let path: Vec<(i32, i32)> = pts
                .iter()
                .map(|(p, v)| (px(x_of(*p)), px(ys.map(*v))))
                .collect();
            if path.len() > 1 {
                b.draw_path(path.iter().copied(), &stroke(colour, 2));
            }
            for &(x, y) in &path {
                point_mark(b, k, x, y);
            }
        }
        for k in 0..lines.len() {
            let (x, y) = legend_at(k, legend_top, columns);
            b.draw_line(
                (px(x), px(y - 4.0)),
                (px(x + 22.0), px(y - 4.0)),
                &stroke(PALETTE[k % PALETTE.len()], 2),
            );
            point_mark(b, k, px(x + 11.0), px(y - 4.0));
        }
    });
    for a in &ANCHORS[lo..=hi] {
        let label = pct_label(*a);
        doc.text(
            Txt::new(x_of(*a), PLOT.3 + 18.0, &label)
                .anchor("middle")
                .size(SMALL_PX)
                .muted(),
        );
    }
    for t in &yticks {
        let s = fmt_tick(*t, &ys);
        doc.text(
            Txt::new(PLOT.0 - 6.0, ys.map(*t) + 4.0, &s)
                .anchor("end")
                .size(SMALL_PX)
                .muted(),
        );
    }
    doc.text(
        Txt::new(
            (PLOT.0 + PLOT.1) / 2.0,
            PLOT.3 + 40.0,
            "percentile (the tail spread out)",
        )
        .anchor("middle")
        .size(SMALL_PX),
    );
    let y_caption = format!(
        "latency, {} (lower is better, log scale)",
        fit(&unit, 120.0, SMALL_PX)
    );
    doc.text(
        Txt::new(18.0, (PLOT.2 + PLOT.3) / 2.0, &y_caption)
            .anchor("middle")
            .size(SMALL_PX)
            .rotate(),
    );
    for (k, ((name, _), line)) in lines.iter().zip(&summary).enumerate() {
        let (x, y) = legend_at(k, legend_top, columns);
        let shown = fit(name, WIDTH / columns as f64 - 60.0, LABEL_PX);
        let tip = format!("{line} (in {unit})");
        doc.text(Txt::new(x + 30.0, y, &shown).tip(&tip));
    }
    doc.finish()
}

/// The baseline of legend entry `k` in `columns` columns (one or two),
/// left to right, top to bottom.
fn legend_at(k: usize, top: f64, columns: usize) -> (f64, f64) {
    let col = (k % columns) as f64;
    let row = (k / columns) as f64;
    (24.0 + col * (WIDTH / columns as f64), top + 20.0 * row)
}

/// A log axis over the positive `values`, from `PLOT.3` up to `PLOT.2`,
/// always a decade or more so that ticks have room.
fn log_scale(values: impl Iterator<Item = f64>) -> Scale {
    let (mut min, mut max) = (f64::INFINITY, 0.0f64);
    for v in values.filter(|v| v.is_finite() && *v > 0.0) {
        min = min.min(v);
        max = max.max(v);
    }
    if !(min.is_finite() && max > 0.0) {
        (min, max) = (1.0, 10.0);
    }
    let lo = nice_floor(min);
    let mut hi = nice_ceil(max);
    if hi < lo * 10.0 {
        hi = nice_ceil(lo * 10.0).min(f64::MAX);
    }
    Scale {
        lo,
        hi,
        log: true,
        a: PLOT.3,
        b: PLOT.2,
        step: 0.0,
    }
}

/// The marker of line `k`: the shape changes with each round of colours,
/// so lines sharing a colour still differ.
fn point_mark(b: &mut Shapes<'_>, k: usize, x: i32, y: i32) {
    let colour = PALETTE[k % PALETTE.len()].filled();
    match (k / PALETTE.len()) % 3 {
        0 => b.draw_circle((x, y), 4, &colour, true),
        1 => b.draw_rect((x - 4, y - 4), (x + 4, y + 4), &colour, true),
        _ => b.fill_polygon([(x, y - 5), (x - 5, y + 4), (x + 5, y + 4)], &colour),
    };
}

impl DistributionSeries {
    /// This series' fields, added to the chart's id hash.
    fn key(&self, k: Key) -> Key {
        k.text("label", &self.label)
            .list("points", self.points.iter(), |(p, v), k| {
                k.number("percentile", *p).number("latency", *v)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(series: Vec<DistributionSeries>) -> DistributionChart {
        DistributionChart {
            title: "t <&> study".into(),
            desc: "d".into(),
            unit: "ms".into(),
            series,
        }
    }

    fn fio_default(label: &str, scale: f64) -> DistributionSeries {
        let pcts = [
            1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9,
            99.95, 99.99,
        ];
        DistributionSeries {
            label: label.into(),
            points: pcts
                .iter()
                .enumerate()
                .map(|(i, p)| (*p, scale * (1.0 + i as f64 * i as f64 / 8.0)))
                .collect(),
        }
    }

    #[test]
    fn the_tail_is_spread_evenly() {
        // p1 .. p99.99: anchors 1..=8, seven steps of 100 units
        let at = |p| pct_position(p, 1, 8, 0.0, 700.0).unwrap();
        for (k, p) in [1.0, 5.0, 10.0, 50.0, 90.0, 99.0, 99.9, 99.99]
            .into_iter()
            .enumerate()
        {
            assert!((at(p) - 100.0 * k as f64).abs() < 1e-9, "{p}: {}", at(p));
        }
        // 99.5 sits in the 99..99.9 step by its nines: log10(2) of the way
        assert!((at(99.5) - (500.0 + 100.0 * 2f64.log10())).abs() < 1e-9);
        assert!(at(20.0) > at(10.0) && at(40.0) < at(50.0));
        assert_eq!(pct_position(99.999, 1, 8, 0.0, 700.0), None);
        assert_eq!(pct_position(0.5, 1, 8, 0.0, 700.0), None);
        assert_eq!(pct_label(99.99), "p99.99");
        assert_eq!(pct_label(50.0), "p50");
        assert_eq!(pct_label(99.5), "p99.5");
    }

    #[test]
    fn draws_a_line_per_configuration_on_a_log_axis_with_labels_escaped() {
        let svg = distribution_chart(&chart(vec![
            fio_default("Cheap <SATA> & co", 0.1),
            fio_default("Fast \"NVMe\"", 0.01),
        ]))
        .unwrap();
        let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
        let texts: Vec<String> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap_or_default().to_string())
            .collect();
        assert!(
            texts.contains(&"Cheap <SATA> & co".to_string()),
            "{texts:?}"
        );
        assert!(texts.contains(&"Fast \"NVMe\"".to_string()));
        assert!(svg.contains("Cheap &lt;SATA&gt; &amp; co"));
        for tick in ["p1", "p5", "p10", "p50", "p90", "p99", "p99.9", "p99.99"] {
            assert!(texts.contains(&tick.to_string()), "{tick}");
        }
        assert!(!texts.contains(&"p99.999".to_string()));
        // 0.01 ms .. 0.01 * (1 + 256/8) = 0.33 ms, and 0.1 .. 3.3: log ticks
        for tick in ["0.01", "0.1", "1"] {
            assert!(texts.contains(&tick.to_string()), "{tick} in {texts:?}");
        }
        assert!(texts.iter().any(|t| t.contains("log scale")));
        // no text under 12 units
        for n in doc.descendants().filter(|n| n.has_tag_name("text")) {
            let size: f64 = n.attribute("font-size").unwrap().parse().unwrap();
            assert!(size >= 12.0, "{size}");
        }
        // two lines of 17 points, each point marked
        let lines = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("dd-lines"))
            .unwrap();
        let circles = lines
            .descendants()
            .filter(|n| n.has_tag_name("circle"))
            .count();
        assert_eq!(circles, 2 * 17 + 2, "points and legend marks");
        let desc = doc
            .descendants()
            .find(|n| n.has_tag_name("desc"))
            .and_then(|n| n.text())
            .unwrap()
            .to_string();
        assert!(desc.contains("Fast \"NVMe\": p1 0.0100,"), "{desc}");
        assert!(desc.contains("p99.99 0.330"), "{desc}");
    }

    #[test]
    fn points_that_cannot_be_drawn_are_named() {
        let svg = distribution_chart(&chart(vec![DistributionSeries {
            label: "odd".into(),
            points: vec![(50.0, 1.0), (99.0, 0.0), (99.9999, 5.0), (99.9, f64::NAN)],
        }]))
        .unwrap();
        assert!(svg.contains("odd p99 = 0 not drawn"), "{svg}");
        assert!(
            svg.contains("odd p99.9999 = 5 not drawn") || svg.contains("odd p100 = 5 not drawn")
        );
        let empty = distribution_chart(&chart(vec![])).unwrap();
        assert!(empty.contains("no data to chart"));
    }

    #[test]
    fn any_latencies_give_a_handful_of_ticks_and_a_bounded_chart() {
        // a subnormal p10 next to an hour at p30 (330 decades), the widest
        // range validation accepts, equal and reversed percentiles, and the
        // ends of the doubles: each a few ticks and an SVG of a few kB
        let cases: [&[(f64, f64)]; 6] = [
            &[(1.0, 0.5), (10.0, 5e-324), (30.0, 3.6e6), (50.0, 0.6)],
            &[(1.0, 1e-6), (50.0, 1.0), (99.99, 1e10)],
            &[(1.0, 2.0), (50.0, 2.0), (99.0, 2.0)],
            &[(1.0, 9.0), (50.0, 3.0), (99.0, 1e-300)],
            &[(1.0, f64::MIN_POSITIVE), (99.0, f64::MAX)],
            &[(50.0, f64::MAX)],
        ];
        for points in cases {
            let values = points.iter().map(|p| p.1);
            let ys = log_scale(values);
            let ticks = ys.ticks();
            assert!(
                !ticks.is_empty() && ticks.len() <= 12,
                "{points:?}: {ticks:?}"
            );
            assert!(
                ticks.iter().all(|t| t.is_finite()
                    && *t >= ys.lo * (1.0 - 1e-9)
                    && *t <= ys.hi * (1.0 + 1e-9)),
                "{points:?}: {ticks:?} outside {ys:?}"
            );
            assert!(ys.lo > 0.0 && ys.hi.is_finite() && ys.hi > ys.lo, "{ys:?}");
            let svg = distribution_chart(&chart(vec![DistributionSeries {
                label: "edge".into(),
                points: points.to_vec(),
            }]))
            .unwrap();
            assert!(svg.len() < 20_000, "{points:?}: {} bytes", svg.len());
        }
        // the record, in seconds: 5e-324 .. 3,600, 328 decades with
        // a tick every 33rd (10^-324 underflows to zero and is left out)
        let ys = log_scale([5e-324, 0.0005, 3600.0].into_iter());
        assert_eq!((ys.lo, ys.hi), (5e-324, 5000.0));
        let ticks = ys.ticks();
        assert_eq!(ticks.len(), 9, "{ticks:?}");
        assert!((ticks[0] / 1e-291 - 1.0).abs() < 1e-9, "{ticks:?}");
    }

    #[test]
    fn a_user_percentile_list_widens_the_axis() {
        let svg = distribution_chart(&chart(vec![DistributionSeries {
            label: "x".into(),
            points: vec![(50.0, 1.0), (99.999, 9.0)],
        }]))
        .unwrap();
        assert!(svg.contains(">p99.999</text>"));
    }
}
