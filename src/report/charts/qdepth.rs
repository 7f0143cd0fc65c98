//! The queue-depth chart, as fio-plot draws it: one configuration's IOPS as
//! bars (left axis) and p99 completion latency as a line (right axis)
//! against fio's iodepth.

use anyhow::Result;

use super::key::Key;
use super::scale::{fmt_tick, Scale};
use super::svg::*;
use super::text::*;
use super::*;

/// Plot area: left, right, top, bottom.
const PLOT: (f64, f64, f64, f64) = (84.0, 636.0, 70.0, 330.0);

/// Depths drawn at most; the rest are named in the `<desc>`.
const MAX_DEPTHS: usize = 16;

/// One queue depth of one configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct QdPoint {
    /// fio's `iodepth`.
    pub iodepth: u32,
    /// IOPS (median over repetitions); `None` where unknown.
    pub iops: Option<f64>,
    /// p99 completion latency in the chart's latency unit; `None` where unknown.
    pub p99: Option<f64>,
}

/// IOPS and p99 latency of one configuration against queue depth.
#[derive(Clone, Debug, PartialEq)]
pub struct QdChart {
    /// Title (also the SVG `<title>`).
    pub title: String,
    /// Longer description for screen readers (the SVG `<desc>`).
    pub desc: String,
    /// Display unit of the p99 latency, e.g. `ms`.
    pub latency_unit: String,
    /// The depths, in any order; drawn from the shallowest.
    pub points: Vec<QdPoint>,
}

/// Draws the queue-depth chart as a standalone SVG document.
///
/// A category per depth, shallowest first: a bar of IOPS on a linear left
/// axis from zero, and a p99 marker joined by a line on the right axis,
/// logarithmic when the latencies span ten times or more. A value that is
/// not a number >= 0 (or not positive on a log axis) is left out and named
/// in the `<desc>`.
pub fn qd_chart(chart: &QdChart) -> Result<String> {
    chart.draw(Look::WIDE)
}

impl Chart for QdChart {
    /// Every field, in order.
    fn content_key(&self) -> ChartId {
        Key::new("QdChart")
            .text("title", &self.title)
            .text("desc", &self.desc)
            .text("latency_unit", &self.latency_unit)
            .list("points", self.points.iter(), QdPoint::key)
            .finish()
    }

    fn draw_keyed(&self, look: Look, key: ChartId) -> Result<String> {
        draw_in(self, look, key)
    }
}

/// Draws the chart in `look`; its narrow variant is the wide layout at full
/// width, scrolled sideways inside its figure on a phone.
fn draw_in(chart: &QdChart, look: Look, key: ChartId) -> Result<String> {
    let unit = one_line(&chart.latency_unit);
    let mut notes = Vec::new();
    let mut points = chart.points.clone();
    points.sort_by_key(|p| p.iodepth);
    let hidden = points.len().saturating_sub(MAX_DEPTHS);
    if hidden > 0 {
        notes.push(format!(
            "{hidden} deeper queue depths not drawn (at most {MAX_DEPTHS} fit)"
        ));
        points.truncate(MAX_DEPTHS);
    }
    let usable = |v: &Option<f64>| v.filter(|v| v.is_finite() && *v >= 0.0);
    let iops_vals: Vec<f64> = points.iter().filter_map(|p| usable(&p.iops)).collect();
    let lat_vals: Vec<f64> = points.iter().filter_map(|p| usable(&p.p99)).collect();
    let left = Scale::fit(&iops_vals, PLOT.3, PLOT.2, false);
    let right = Scale::fit(&lat_vals, PLOT.3, PLOT.2, true);
    // what each depth draws
    let mut bars = Vec::new();
    let mut marks = Vec::new();
    let mut summary = Vec::new();
    for p in &points {
        let bar = usable(&p.iops);
        let mark = usable(&p.p99).filter(|v| right.can_show(*v));
        for (what, v, drawn) in [("IOPS", p.iops, bar), ("p99", p.p99, mark)] {
            if let (Some(v), None) = (v, drawn) {
                notes.push(format!(
                    "queue depth {} {what} = {v} not drawn (not a usable number)",
                    p.iodepth
                ));
            }
        }
        summary.push(format!(
            "queue depth {}: {}, p99 {}",
            p.iodepth,
            bar.map_or("IOPS unknown".to_string(), |v| format!(
                "{} IOPS",
                fmt_num(v)
            )),
            mark.map_or("unknown".to_string(), |v| format!("{} {unit}", fmt_num(v)))
        ));
        bars.push(bar);
        marks.push(mark);
    }
    let desc = join_desc(
        &chart.desc,
        &[
            format!(
                "IOPS as bars on the left axis (linear, higher is better) and p99 completion latency in {unit} as a line on the right axis ({}, lower is better), against queue depth.",
                right.kind()
            ),
            summary.join("; "),
            notes.join("; "),
        ],
    );
    let drawable = bars.iter().chain(&marks).any(Option::is_some);
    let height = if drawable { PLOT.3 + 56.0 } else { 110.0 };
    let mut doc = Doc::begin_fixed(look, "qd", key, height, &chart.title, &desc);
    if !drawable {
        doc.no_data(height);
        return doc.finish();
    }
    let slot = (PLOT.1 - PLOT.0) / points.len() as f64;
    let cx = |i: usize| PLOT.0 + slot * (i as f64 + 0.5);
    let half = (slot * 0.3).min(36.0);
    let (lticks, rticks) = (left.ticks(), right.ticks());
    doc.plot("dd-grid", |b| {
        for t in &lticks {
            let y = px(left.map(*t));
            b.draw_line((px(PLOT.0), y), (px(PLOT.1), y), &stroke(NEUTRAL, 1));
        }
    });
    doc.plot("dd-axis", |b| {
        let (l, r, bot) = (px(PLOT.0), px(PLOT.1), px(PLOT.3));
        b.draw_line((l, bot), (r, bot), &stroke(NEUTRAL, 1));
        b.draw_line((l, bot), (l, px(PLOT.2)), &stroke(NEUTRAL, 1));
        b.draw_line((r, bot), (r, px(PLOT.2)), &stroke(NEUTRAL, 1));
    });
    doc.plot("dd-bars", |b| {
        for (i, v) in bars.iter().enumerate() {
            let Some(v) = v else { continue };
            b.draw_rect(
                (px(cx(i) - half), px(left.map(*v))),
                (px(cx(i) + half), px(PLOT.3)),
                &PALETTE[0].filled(),
                true,
            );
        }
        // legend swatch
        b.draw_rect((96, 42), (110, 54), &PALETTE[0].filled(), true);
    });
    let line: Vec<(usize, f64)> = marks
        .iter()
        .enumerate()
        .filter_map(|(i, v)| Some((i, (*v)?)))
        .collect();
    doc.plot("dd-lines", |b| {
        let colour = PALETTE[3];
        let path: Vec<(i32, i32)> = line
            .iter()
            .map(|(i, v)| (px(cx(*i)), px(right.map(*v))))
            .collect();
        if path.len() > 1 {
            b.draw_path(path.iter().copied(), &stroke(colour, 2));
        }
        for (x, y) in &path {
            b.draw_rect((x - 5, y - 5), (x + 5, y + 5), &colour.filled(), true);
        }
        // legend swatch
        let x0 = px(LEGEND_LINE_X);
        b.draw_line((x0, 48), (x0 + 22, 48), &stroke(colour, 2));
        b.draw_rect((x0 + 6, 43), (x0 + 16, 53), &colour.filled(), true);
    });
    doc.text(Txt::new(116.0, 52.5, "IOPS (bars, left axis)").size(SMALL_PX));
    let legend_line = format!(
        "p99 latency, {} (line, right axis)",
        fit(&unit, 80.0, SMALL_PX)
    );
    doc.text(Txt::new(LEGEND_LINE_X + 28.0, 52.5, &legend_line).size(SMALL_PX));
    for (i, p) in points.iter().enumerate() {
        let label = p.iodepth.to_string();
        let tip = summary.get(i).cloned().unwrap_or_default();
        doc.text(
            Txt::new(cx(i), PLOT.3 + 18.0, &label)
                .anchor("middle")
                .size(SMALL_PX)
                .tip(&tip),
        );
        if let Some(v) = bars[i] {
            let value = fmt_num(v);
            doc.text(
                Txt::new(cx(i), left.map(v) - 5.0, &value)
                    .anchor("middle")
                    .size(SMALL_PX)
                    .halo(),
            );
        }
    }
    for t in &lticks {
        let s = fmt_tick(*t, &left);
        doc.text(
            Txt::new(PLOT.0 - 6.0, left.map(*t) + 4.0, &s)
                .anchor("end")
                .size(SMALL_PX)
                .muted(),
        );
    }
    for t in &rticks {
        let s = fmt_tick(*t, &right);
        doc.text(
            Txt::new(PLOT.1 + 6.0, right.map(*t) + 4.0, &s)
                .size(SMALL_PX)
                .muted(),
        );
    }
    doc.text(
        Txt::new(
            (PLOT.0 + PLOT.1) / 2.0,
            PLOT.3 + 40.0,
            "queue depth (fio iodepth)",
        )
        .anchor("middle")
        .size(SMALL_PX),
    );
    let mid = (PLOT.2 + PLOT.3) / 2.0;
    doc.text(
        Txt::new(18.0, mid, "IOPS (higher is better)")
            .anchor("middle")
            .size(SMALL_PX)
            .rotate(),
    );
    let r_caption = format!(
        "p99 latency, {} (lower is better{})",
        fit(&unit, 80.0, SMALL_PX),
        if right.log { ", log scale" } else { "" }
    );
    doc.text(
        Txt::new(WIDTH - 12.0, mid, &r_caption)
            .anchor("middle")
            .size(SMALL_PX)
            .rotate(),
    );
    doc.finish()
}

/// Left end of the latency legend entry.
const LEGEND_LINE_X: f64 = 290.0;

impl QdPoint {
    /// This point's fields, added to the chart's id hash.
    fn key(&self, k: Key) -> Key {
        k.count("iodepth", self.iodepth as usize)
            .maybe_number("iops", self.iops)
            .maybe_number("p99", self.p99)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(points: Vec<QdPoint>) -> QdChart {
        QdChart {
            title: "Acme <Standard> & co: randread 4k".into(),
            desc: "d".into(),
            latency_unit: "ms".into(),
            points,
        }
    }

    fn p(iodepth: u32, iops: f64, p99: f64) -> QdPoint {
        QdPoint {
            iodepth,
            iops: Some(iops),
            p99: Some(p99),
        }
    }

    fn texts(doc: &roxmltree::Document) -> Vec<String> {
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap_or_default().to_string())
            .collect()
    }

    #[test]
    fn bars_and_a_line_per_depth_shallowest_first() {
        let svg = qd_chart(&chart(vec![
            p(64, 45200.0, 6.72),
            p(1, 10900.0, 0.155),
            p(16, 33000.0, 4.49),
            p(4, 24900.0, 0.668),
        ]))
        .unwrap();
        let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
        let t = texts(&doc);
        // depths in order along the axis
        let depth_x: Vec<f64> = ["1", "4", "16", "64"]
            .iter()
            .map(|d| {
                let n = doc
                    .descendants()
                    .find(|n| n.has_tag_name("text") && n.text() == Some(d))
                    .unwrap_or_else(|| panic!("depth {d} in {t:?}"));
                n.attribute("x").unwrap().parse().unwrap()
            })
            .collect();
        assert!(depth_x.windows(2).all(|w| w[0] < w[1]), "{depth_x:?}");
        for v in ["10,900", "24,900", "33,000", "45,200"] {
            assert!(t.contains(&v.to_string()), "{v} in {t:?}");
        }
        let group = |class: &str| {
            doc.descendants()
                .find(|n| n.attribute("class") == Some(class))
                .unwrap()
        };
        // four bars and the legend swatch
        let rects = group("dd-bars")
            .descendants()
            .filter(|n| n.has_tag_name("rect"))
            .count();
        assert_eq!(rects, 5);
        // four p99 markers, the legend's, and the line through them
        let lines = group("dd-lines");
        assert_eq!(
            lines
                .descendants()
                .filter(|n| n.has_tag_name("rect"))
                .count(),
            5
        );
        assert!(lines.descendants().any(|n| n.has_tag_name("polyline")));
        // the latencies span 43x: a log right axis
        assert!(t
            .iter()
            .any(|s| s == "p99 latency, ms (lower is better, log scale)"));
        let desc = doc
            .descendants()
            .find(|n| n.has_tag_name("desc"))
            .and_then(|n| n.text())
            .unwrap();
        assert!(
            desc.contains(
                "queue depth 1: 10,900 IOPS, p99 0.155 ms; queue depth 4: 24,900 IOPS, p99 0.668 ms"
            ),
            "{desc}"
        );
        assert!(svg.contains("Acme &lt;Standard&gt; &amp; co"));
        for n in doc.descendants().filter(|n| n.has_tag_name("text")) {
            let size: f64 = n.attribute("font-size").unwrap().parse().unwrap();
            assert!(size >= 12.0);
        }
    }

    #[test]
    fn missing_values_are_named_and_nothing_is_no_data() {
        let svg = qd_chart(&chart(vec![
            p(1, 100.0, 1.0),
            QdPoint {
                iodepth: 8,
                iops: Some(f64::NAN),
                p99: None,
            },
        ]))
        .unwrap();
        assert!(svg.contains("queue depth 8 IOPS = NaN not drawn"), "{svg}");
        assert!(svg.contains("queue depth 8: IOPS unknown, p99 unknown"));
        let empty = qd_chart(&chart(vec![])).unwrap();
        assert!(empty.contains("no data to chart"));
    }
}
