//! The latency percentile chart: a row per offering with p50, p99 and p99.9
//! as distinct markers on one axis.

use anyhow::Result;

use super::key::Key;
use super::rows::*;
use super::scale::Scale;
use super::svg::*;
use super::text::*;
use super::*;

/// Latency percentiles of one offering.
#[derive(Clone, Debug, PartialEq)]
pub struct PercentileSeries {
    /// Series label (offering name).
    pub label: String,
    /// p50, p99, p99.9 in the display unit; `None` where unknown.
    pub p50: Option<f64>,
    pub p99: Option<f64>,
    pub p99_9: Option<f64>,
}

/// A latency percentile chart (p50, p99, p99.9 per offering).
#[derive(Clone, Debug, PartialEq)]
pub struct PercentileChart {
    pub title: String,
    pub desc: String,
    /// Display unit of latency, e.g. `ms`.
    pub unit: String,
    pub series: Vec<PercentileSeries>,
}

/// Draws a latency percentile chart, wide and following the reader's colour
/// scheme, as a standalone SVG document (see [`Chart::draw`] for the others).
///
/// One row per offering with p50, p99 and p99.9 as distinct markers on a
/// shared axis, logarithmic when the drawn values span ten times or more.
/// Values that cannot be drawn (not finite, negative, zero on a log axis) are
/// named in the `<desc>`.
pub fn percentile_chart(chart: &PercentileChart) -> Result<String> {
    chart.draw(Look::WIDE)
}

impl Chart for PercentileChart {
    /// Every field, in order.
    fn content_key(&self) -> ChartId {
        Key::new("PercentileChart")
            .text("title", &self.title)
            .text("desc", &self.desc)
            .text("unit", &self.unit)
            .list("series", self.series.iter(), PercentileSeries::key)
            .finish()
    }

    fn draw_keyed(&self, look: Look, key: ChartId) -> Result<String> {
        draw_percentiles(self, look, key)
    }
}

fn draw_percentiles(chart: &PercentileChart, look: Look, key: ChartId) -> Result<String> {
    const NAMES: [&str; 3] = ["p50", "p99", "p99.9"];
    let mut notes = Vec::new();
    let hidden = chart.series.len().saturating_sub(MAX_ROWS);
    let series = chart.series.get(..MAX_ROWS).unwrap_or(&chart.series);
    let unit = one_line(&chart.unit);

    let mut candidates = Vec::new();
    for s in series {
        for v in [s.p50, s.p99, s.p99_9].into_iter().flatten() {
            if v.is_finite() && v >= 0.0 {
                candidates.push(v);
            }
        }
    }
    let plot = if look.narrow { NARROW_PLOT } else { ROW_PLOT };
    let xs = Scale::fit(&candidates, plot.0, plot.1, true);
    let mut rows: Vec<[Option<f64>; 3]> = Vec::new();
    let mut summary = Vec::new();
    for s in series {
        let name = one_line(&s.label);
        let mut row = [None; 3];
        let mut parts = Vec::new();
        for (k, v) in [s.p50, s.p99, s.p99_9].into_iter().enumerate() {
            let Some(v) = v else {
                parts.push(format!("{} unknown", NAMES[k]));
                continue;
            };
            if xs.can_show(v) {
                row[k] = Some(v);
                parts.push(format!("{} {}", NAMES[k], fmt_num(v)));
            } else {
                notes.push(format!(
                    "{name} {} = {v} not drawn{}",
                    NAMES[k],
                    xs.why_not()
                ));
            }
        }
        if row.iter().all(Option::is_none) {
            parts.push("nothing drawn".to_string());
        }
        summary.push(format!("{name}: {}", parts.join(", ")));
        rows.push(row);
    }
    if hidden > 0 {
        notes.push(format!(
            "{hidden} more offerings not drawn (at most {MAX_ROWS} fit)"
        ));
    }
    let desc = join_desc(
        &chart.desc,
        &[
            format!(
                "Latency percentiles per offering in {unit}, lower is better, {} scale.",
                xs.kind()
            ),
            summary.join("; "),
            notes.join("; "),
        ],
    );

    let room = RowFrame::label_room(look);
    let labels: Vec<Vec<String>> = series
        .iter()
        .map(|s| wrap_lines(&one_line(&s.label), room, LABEL_PX, 2))
        .collect();
    let lines = labels.iter().map(Vec::len).max().unwrap_or(1);
    let drop = title_drop(&chart.title, look);
    let frame = RowFrame::new(look, 66.0 + drop, rows.len(), hidden, lines);
    let height = frame.height;
    let mut doc = Doc::begin(look, "pct", key, height, &chart.title, &desc);
    if rows.is_empty() {
        doc.no_data(height);
        return doc.finish();
    }

    const LEGEND: [&str; 3] = ["p50 (median)", "p99", "p99.9"];
    let mut legend = Vec::new();
    let mut x = plot.0 + 6.0;
    for name in LEGEND {
        legend.push(x);
        x += 10.0 + text_width(name, SMALL_PX) + 24.0;
    }
    let ticks = frame.ticks(&xs);
    frame.grid(&mut doc, &xs, &ticks, true);
    frame.axis(&mut doc, false);
    doc.plot("dd-ink", |b| {
        for (i, row) in rows.iter().enumerate() {
            let drawn: Vec<f64> = row.iter().flatten().map(|v| xs.map(*v)).collect();
            let lo = drawn.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = drawn.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if drawn.len() > 1 && hi > lo {
                let cy = px(frame.mid(i));
                b.draw_line((px(lo), cy), (px(hi), cy), &stroke(NEUTRAL, 2));
            }
        }
    });
    // one group per marker kind, so that the style colours each per theme
    for k in 0..3 {
        doc.plot(&format!("dd-marks dd-c{}", MARK_COLOUR[k]), |b| {
            for (i, row) in rows.iter().enumerate() {
                if let Some(v) = row[k] {
                    marker(b, k, xs.map(v), frame.mid(i));
                }
            }
            marker(b, k, legend[k], 45.0 + drop);
        });
    }
    for (name, x) in LEGEND.iter().zip(&legend) {
        doc.text(Txt::new(x + 10.0, 49.5 + drop, name).size(SMALL_PX));
    }
    for (i, row) in rows.iter().enumerate() {
        let tip = summary
            .get(i)
            .map(|t| format!("{t} (in {unit})"))
            .unwrap_or_default();
        frame.label(&mut doc, i, &labels[i], &tip);
        if row.iter().all(Option::is_none) {
            doc.text(
                Txt::new(plot.0 + 6.0, frame.band(i) + 17.0, "no data")
                    .size(SMALL_PX)
                    .muted(),
            );
        }
    }
    let caption = format!(
        "latency, {} (lower is better{})",
        fit(&unit, 300.0, SMALL_PX),
        if xs.log { ", log scale" } else { "" }
    );
    frame.finish(doc, &xs, &ticks, &caption)
}

impl PercentileSeries {
    /// This series' fields, added to the chart's id hash.
    fn key(&self, k: Key) -> Key {
        k.text("label", &self.label)
            .maybe_number("p50", self.p50)
            .maybe_number("p99", self.p99)
            .maybe_number("p99_9", self.p99_9)
    }
}

/// Palette index of the p50, p99 and p99.9 markers.
const MARK_COLOUR: [usize; 3] = [0, 1, 3];

/// Percentile marker `k` (0 = p50 circle, 1 = p99 square, 2 = p99.9 triangle):
/// shape and colour both differ, so neither colour vision nor print is needed.
pub(super) fn marker(b: &mut Shapes<'_>, k: usize, x: f64, y: f64) {
    let (x, y) = (px(x), px(y));
    let colour = PALETTE[MARK_COLOUR[k.min(2)]];
    match k {
        0 => b.draw_circle((x, y), 5, &colour.filled(), true),
        1 => b.draw_rect((x - 5, y - 5), (x + 5, y + 5), &colour.filled(), true),
        _ => b.fill_polygon(
            [(x, y - 7), (x - 6, y + 5), (x + 6, y + 5)],
            &colour.filled(),
        ),
    };
}
