//! The price vs performance chart: a labelled point per offering, with lines
//! of equal value through the baseline.

use anyhow::Result;

use super::key::Key;
use super::scale::fmt_tick;
use super::svg::*;
use super::text::*;
use super::value_layout::*;
use super::*;

/// One offering on the price vs performance chart.
#[derive(Clone, Debug, PartialEq)]
pub struct ValuePoint {
    pub label: String,
    /// Price per GB-month.
    pub price_per_gb: f64,
    /// Performance in the display unit (for lower-is-better metrics the caller
    /// passes the value as is and sets `higher_is_better = false`).
    pub performance: f64,
}

/// Price per GB vs performance, with lines of equal value through the baseline.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueChart {
    pub title: String,
    pub desc: String,
    /// e.g. `price per GB-month (USD)`.
    pub x_label: String,
    /// e.g. `random seeks (ops/s)`.
    pub y_label: String,
    pub higher_is_better: bool,
    pub points: Vec<ValuePoint>,
    /// Index into `points` of the baseline offering, if any.
    pub baseline: Option<usize>,
}

/// Points drawn at most on a value chart.
pub(super) const MAX_POINTS: usize = 200;

/// Draws the price vs performance chart, wide and following the reader's
/// colour scheme, as a standalone SVG document (see [`Chart::draw`]).
///
/// A point per offering with a direct label when every label finds a spot
/// free of others, else a number at each point and a key below the plot
/// that maps each number to the full name; each axis is logarithmic when its
/// values span ten times or more. With a drawable baseline, lines of equal
/// value (0.5x, 1x, 2x the baseline's performance per price) show who gives
/// more for the money. Offerings that cannot be drawn are named in the
/// `<desc>`.
pub fn value_chart(chart: &ValueChart) -> Result<String> {
    chart.draw(Look::WIDE)
}

impl Chart for ValueChart {
    /// Every field, in order.
    fn content_key(&self) -> ChartId {
        Key::new("ValueChart")
            .text("title", &self.title)
            .text("desc", &self.desc)
            .text("x_label", &self.x_label)
            .text("y_label", &self.y_label)
            .flag("higher_is_better", self.higher_is_better)
            .list("points", self.points.iter(), ValuePoint::key)
            .maybe_count("baseline", self.baseline)
            .finish()
    }

    fn draw_keyed(&self, look: Look, key: ChartId) -> Result<String> {
        draw_value(self, look, key)
    }
}

fn draw_value(chart: &ValueChart, look: Look, key: ChartId) -> Result<String> {
    let lay = value_layout_in(chart, look);
    let mut doc = Doc::begin(look, "value", key, lay.height, &chart.title, &lay.desc);
    if lay.points.is_empty() {
        doc.no_data(lay.height);
        return doc.finish();
    }
    let (xs, ys) = (&lay.xs, &lay.ys);
    let (xticks, yticks) = (xs.ticks_fitting(SMALL_PX), ys.ticks());
    doc.plot("dd-grid", |b| {
        for t in &xticks {
            let x = px(xs.map(*t));
            b.draw_line((x, px(ys.a)), (x, px(ys.b)), &stroke(NEUTRAL, 1));
        }
        for t in &yticks {
            let y = px(ys.map(*t));
            b.draw_line((px(xs.a), y), (px(xs.b), y), &stroke(NEUTRAL, 1));
        }
    });
    doc.plot("dd-axis", |b| {
        let corner = (px(xs.a), px(ys.a));
        b.draw_line(corner, (px(xs.b), px(ys.a)), &stroke(NEUTRAL, 1));
        b.draw_line(corner, (px(xs.a), px(ys.b)), &stroke(NEUTRAL, 1));
    });
    // to a tenth of a unit, not the shapes' whole units, which make curves jagged
    for line in &lay.lines {
        doc.polyline(
            if line.multiple == 1.0 {
                "dd-eq1"
            } else {
                "dd-eq"
            },
            &line.path,
            line.multiple == 1.0,
        );
    }
    doc.plot("dd-ink", |b| {
        for p in lay.points.iter().filter(|p| p.baseline) {
            b.draw_circle((px(p.x), px(p.y)), 10, &stroke(NEUTRAL, 2), false);
        }
    });
    // one group per colour, so that the style colours each per theme
    for (c, colour) in PALETTE.iter().enumerate().take(lay.points.len()) {
        doc.plot(&format!("dd-points dd-c{c}"), |b| {
            for (i, p) in lay.points.iter().enumerate().skip(c).step_by(PALETTE.len()) {
                b.draw_point((px(p.x), px(p.y)), 6, &colour.filled(), i);
            }
        });
    }
    for line in &lay.lines {
        let end = line.label_at;
        let words = line_words(line.multiple);
        doc.text(
            Txt::new(end.0 - 4.0, end.1 - 6.0, &words)
                .anchor("end")
                .size(SMALL_PX)
                .muted()
                .halo(),
        );
    }
    for (i, p) in lay.points.iter().enumerate() {
        doc.text(
            Txt::new(p.label_x, p.label_y, &p.shown)
                .anchor(p.anchor)
                .size(SMALL_PX)
                .tip(&p.tip)
                .halo()
                .label_for(i),
        );
    }
    for t in &xticks {
        let s = fmt_tick(*t, xs);
        doc.text(
            Txt::new(xs.map(*t), ys.a + 18.0, &s)
                .anchor("middle")
                .size(SMALL_PX)
                .muted(),
        );
    }
    for t in &yticks {
        let s = fmt_tick(*t, ys);
        doc.text(
            Txt::new(xs.a - 6.0, ys.map(*t) + 4.0, &s)
                .anchor("end")
                .size(SMALL_PX)
                .muted(),
        );
    }
    let x_caption = format!(
        "{}{}",
        fit(&one_line(&chart.x_label), doc.width() - 140.0, SMALL_PX),
        if xs.log { " (log scale)" } else { "" }
    );
    doc.text(
        Txt::new((xs.a + xs.b) / 2.0, ys.a + 40.0, &x_caption)
            .anchor("middle")
            .size(SMALL_PX),
    );
    let n = lay.y_caption.len();
    for (i, line) in lay.y_caption.iter().enumerate() {
        if look.narrow {
            // above the plot: beside it, it would leave the tick labels no room
            let y = ys.b - 22.0 - CAPTION_LINE * (n - 1 - i) as f64;
            doc.text(Txt::new(12.0, y, line).size(SMALL_PX));
        } else {
            let mid = (ys.a + ys.b) / 2.0;
            doc.text(
                Txt::new(16.0 + CAPTION_LINE * i as f64, mid, line)
                    .anchor("middle")
                    .size(SMALL_PX)
                    .rotate(),
            );
        }
    }
    let mut note_y = ys.a + 66.0;
    for note in &lay.visible_notes {
        doc.text(Txt::new(12.0, note_y, note).size(SMALL_PX).muted());
        note_y += 18.0;
    }
    if !lay.key.is_empty() {
        for (c, colour) in PALETTE.iter().enumerate().take(lay.key.len()) {
            doc.plot(&format!("dd-points dd-c{c}"), |b| {
                for k in lay.key.iter().skip(c).step_by(PALETTE.len()) {
                    b.draw_circle((px(k.x + 5.0), px(k.y - 4.0)), 5, &colour.filled(), true);
                }
            });
        }
        for k in &lay.key {
            let n = k.number.to_string();
            doc.text_class(Txt::new(k.x + 14.0, k.y, &n).size(SMALL_PX), "dd-t dd-h");
            for (j, line) in k.lines.iter().enumerate() {
                let y = k.y + KEY_LINE * j as f64;
                doc.text(Txt::new(k.x + KEY_INDENT, y, line).size(SMALL_PX));
            }
        }
    }
    doc.finish()
}

impl ValuePoint {
    /// This point's fields, added to the chart's id hash.
    fn key(&self, k: Key) -> Key {
        k.text("label", &self.label)
            .number("price_per_gb", self.price_per_gb)
            .number("performance", self.performance)
    }
}
