//! The history chart: one configuration's median of one metric per
//! measurement, against the measurement's date, with each measurement's
//! min-max as a bar.

use anyhow::Result;

use super::key::Key;
use super::scale::{fmt_tick, Scale};
use super::svg::*;
use super::text::*;
use super::*;

/// Plot area: left, right, top, bottom.
const PLOT: (f64, f64, f64, f64) = (84.0, 660.0, 56.0, 300.0);

/// Measurements drawn at most: the newest; the older are named in the
/// `<desc>`.
const MAX_POINTS: usize = 24;

/// One measurement of the metric.
#[derive(Clone, Debug, PartialEq)]
pub struct DatedMedian {
    /// What the date axis shows under it (`2026-01-10`); user-supplied
    /// where a study name is added, escaped by the chart.
    pub label: String,
    /// Its date in days since 1970, which places it on the axis.
    pub day: f64,
    /// Median over its runs, in the chart's display unit.
    pub median: f64,
    /// Smallest and largest of its runs.
    pub min: f64,
    pub max: f64,
    /// Runs behind the median.
    pub runs: usize,
}

/// A metric's medians over time.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryChart {
    /// Title (also the SVG `<title>`).
    pub title: String,
    /// Longer description for screen readers (the SVG `<desc>`).
    pub desc: String,
    /// Display unit, e.g. `IOPS`.
    pub unit: String,
    /// Whether higher is better (shown in the axis caption).
    pub higher_is_better: bool,
    /// The measurements, in any order; drawn oldest first.
    pub points: Vec<DatedMedian>,
}

/// Draws the history chart as a standalone SVG document.
///
/// Each measurement at its date (the axis spans the first to the last): a
/// bar from its smallest to its largest run, and its median as a marker,
/// the medians joined by a line; a linear axis from zero. A measurement
/// whose numbers are not finite and >= 0 is left out and named in the
/// `<desc>`.
pub fn history_chart(chart: &HistoryChart) -> Result<String> {
    chart.draw(Look::WIDE)
}

impl Chart for HistoryChart {
    /// Every field, in order.
    fn content_key(&self) -> ChartId {
        Key::new("HistoryChart")
            .text("title", &self.title)
            .text("desc", &self.desc)
            .text("unit", &self.unit)
            .flag("higher_is_better", self.higher_is_better)
            .list("points", self.points.iter(), DatedMedian::key)
            .finish()
    }

    fn draw_keyed(&self, look: Look, key: ChartId) -> Result<String> {
        draw_in(self, look, key)
    }
}

impl DatedMedian {
    /// This point's fields, added to the chart's id hash.
    fn key(&self, k: Key) -> Key {
        k.text("label", &self.label)
            .number("day", self.day)
            .number("median", self.median)
            .number("min", self.min)
            .number("max", self.max)
            .count("runs", self.runs)
    }
}

/// Draws the chart in `look`; its narrow variant is the wide layout at full
/// width, scrolled sideways inside its figure on a phone.
fn draw_in(chart: &HistoryChart, look: Look, key: ChartId) -> Result<String> {
    let unit = one_line(&chart.unit);
    let mut notes = Vec::new();
    let mut points: Vec<&DatedMedian> = Vec::new();
    for p in &chart.points {
        let ok = |v: f64| v.is_finite() && v >= 0.0;
        if ok(p.median) && ok(p.min) && ok(p.max) && p.day.is_finite() {
            points.push(p);
        } else {
            notes.push(format!(
                "{} not drawn: not a number >= 0",
                one_line(&p.label)
            ));
        }
    }
    points.sort_by(|a, b| a.day.total_cmp(&b.day).then(a.label.cmp(&b.label)));
    let hidden = points.len().saturating_sub(MAX_POINTS);
    if hidden > 0 {
        notes.push(format!(
            "{hidden} older measurements not drawn (at most {MAX_POINTS} fit)"
        ));
        points.drain(..hidden);
    }
    let values: Vec<f64> = points.iter().flat_map(|p| [p.min, p.max]).collect();
    let ys = Scale::fit(&values, PLOT.3, PLOT.2, false);
    let (first, last) = match (points.first(), points.last()) {
        (Some(f), Some(l)) => (f.day, l.day),
        _ => (0.0, 0.0),
    };
    // dates spread over the axis; a single date in its middle
    let inset = 40.0;
    let x = |day: f64| {
        if last > first {
            PLOT.0 + inset + (day - first) / (last - first) * (PLOT.1 - PLOT.0 - 2.0 * inset)
        } else {
            (PLOT.0 + PLOT.1) / 2.0
        }
    };
    let summary: Vec<String> = points
        .iter()
        .map(|p| {
            format!(
                "{}: median {} {unit} ({} to {}, {})",
                one_line(&p.label),
                fmt_num(p.median),
                fmt_num(p.min),
                fmt_num(p.max),
                crate::format::count_of(p.runs, "run", "runs")
            )
        })
        .collect();
    let desc = join_desc(
        &chart.desc,
        &[
            format!(
                "The median in {unit} of each measurement ({}) against its date, with its smallest to largest run as a bar.",
                better_words(chart.higher_is_better)
            ),
            summary.join("; "),
            notes.join("; "),
        ],
    );
    let height = if points.is_empty() {
        110.0
    } else {
        PLOT.3 + 56.0
    };
    let mut doc = Doc::begin_fixed(look, "hist", key, height, &chart.title, &desc);
    if points.is_empty() {
        doc.no_data(height);
        return doc.finish();
    }
    let ticks = ys.ticks();
    doc.plot("dd-grid", |b| {
        for t in &ticks {
            let y = px(ys.map(*t));
            b.draw_line((px(PLOT.0), y), (px(PLOT.1), y), &stroke(NEUTRAL, 1));
        }
    });
    doc.plot("dd-axis", |b| {
        let (l, r, bot) = (px(PLOT.0), px(PLOT.1), px(PLOT.3));
        b.draw_line((l, bot), (r, bot), &stroke(NEUTRAL, 1));
        b.draw_line((l, bot), (l, px(PLOT.2)), &stroke(NEUTRAL, 1));
    });
    doc.plot("dd-bars", |b| {
        for p in &points {
            let cx = x(p.day);
            b.draw_rect(
                (px(cx - 6.0), px(ys.map(p.max))),
                (px(cx + 6.0), px(ys.map(p.min)).max(px(ys.map(p.max)) + 1)),
                &PALETTE[5].filled(),
                true,
            );
        }
    });
    doc.plot("dd-lines", |b| {
        let colour = PALETTE[0];
        let path: Vec<(i32, i32)> = points
            .iter()
            .map(|p| (px(x(p.day)), px(ys.map(p.median))))
            .collect();
        if path.len() > 1 {
            b.draw_path(path.iter().copied(), &stroke(colour, 2));
        }
        for (x, y) in &path {
            b.draw_rect((x - 5, y - 5), (x + 5, y + 5), &colour.filled(), true);
        }
    });
    // a date under each point, where it does not run into the one before
    let mut free_from = f64::NEG_INFINITY;
    for (p, tip) in points.iter().zip(&summary) {
        let cx = x(p.day);
        let label = fit(&one_line(&p.label), 160.0, SMALL_PX);
        let w = text_width(&label, SMALL_PX);
        if cx - w / 2.0 >= free_from {
            doc.text(
                Txt::new(cx, PLOT.3 + 18.0, &label)
                    .anchor("middle")
                    .size(SMALL_PX)
                    .tip(tip),
            );
            free_from = cx + w / 2.0 + 8.0;
        }
        doc.text(
            Txt::new(cx, ys.map(p.max) - 8.0, &fmt_num(p.median))
                .anchor("middle")
                .size(SMALL_PX)
                .halo(),
        );
    }
    for t in &ticks {
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
            "measured on (UTC date)",
        )
        .anchor("middle")
        .size(SMALL_PX),
    );
    let caption = format!(
        "{} ({})",
        fit(&unit, 120.0, SMALL_PX),
        better_words(chart.higher_is_better)
    );
    doc.text(
        Txt::new(18.0, (PLOT.2 + PLOT.3) / 2.0, &caption)
            .anchor("middle")
            .size(SMALL_PX)
            .rotate(),
    );
    doc.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(label: &str, day: f64, median: f64) -> DatedMedian {
        DatedMedian {
            label: label.into(),
            day,
            median,
            min: median * 0.9,
            max: median * 1.1,
            runs: 3,
        }
    }

    fn texts(svg: &str) -> Vec<String> {
        let doc = roxmltree::Document::parse(svg).unwrap();
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap_or_default().to_string())
            .collect()
    }

    #[test]
    fn medians_by_date_oldest_first_with_labels_escaped() {
        let chart = HistoryChart {
            title: "Acme <Std> & co: random read".into(),
            desc: "history".into(),
            unit: "IOPS".into(),
            higher_is_better: true,
            points: vec![
                p("2026-06-02 (<b>)", 20606.0, 700.0),
                p("2026-01-10", 20463.0, 1000.0),
            ],
        };
        let svg = history_chart(&chart).unwrap();
        let t = texts(&svg);
        let first = t.iter().position(|s| s == "2026-01-10").unwrap();
        let second = t.iter().position(|s| s == "2026-06-02 (<b>)").unwrap();
        assert!(first < second, "{t:?}");
        assert!(t.contains(&"1,000".to_string()) && t.contains(&"700".to_string()));
        assert!(svg.contains("Acme &lt;Std&gt; &amp; co"));
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let desc = doc
            .descendants()
            .find(|n| n.has_tag_name("desc"))
            .and_then(|n| n.text())
            .unwrap();
        assert!(
            desc.contains("2026-01-10: median 1,000 IOPS (900 to 1,100, 3 runs); 2026-06-02 (<b>): median 700 IOPS"),
            "{desc}"
        );
    }

    #[test]
    fn a_point_that_is_no_number_is_named_not_drawn() {
        let mut bad = p("2026-03-01", 20513.0, 5.0);
        bad.median = f64::NAN;
        let svg = history_chart(&HistoryChart {
            title: "t".into(),
            desc: String::new(),
            unit: "IOPS".into(),
            higher_is_better: true,
            points: vec![bad, p("2026-01-10", 20463.0, 10.0)],
        })
        .unwrap();
        assert!(svg.contains("2026-03-01 not drawn: not a number &gt;= 0"));
    }
}
