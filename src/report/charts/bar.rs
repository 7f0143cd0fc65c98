//! The bar chart: a row per offering, the median as a bar from zero with a
//! min-max whisker.

use anyhow::Result;

use super::key::Key;
use super::rows::*;
use super::scale::{Scale, BAR_LOG_RATIO};
use super::svg::*;
use super::text::*;
use super::*;

/// One bar: the median over repetitions, with the min-max spread.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Series label (offering name); user-supplied, escaped by the chart.
    pub label: String,
    /// Median value, in the chart's display unit.
    pub median: f64,
    /// Smallest value over repetitions.
    pub min: f64,
    /// Largest value over repetitions.
    pub max: f64,
    /// Number of repetitions behind the median.
    pub runs: usize,
}

/// A bar chart comparing offerings on one metric.
#[derive(Clone, Debug, PartialEq)]
pub struct BarChart {
    /// Title (also the SVG `<title>`).
    pub title: String,
    /// Longer description for screen readers (the SVG `<desc>`).
    pub desc: String,
    /// Axis label with the display unit, e.g. `MB/s`.
    pub unit: String,
    /// Whether higher is better (shown in the axis caption).
    pub higher_is_better: bool,
    /// The bars, in display order.
    pub bars: Vec<Bar>,
}

/// Draws a bar chart, wide and following the reader's colour scheme, as a
/// standalone SVG document (see [`Chart::draw`] for the other looks).
///
/// Bars are horizontal, from zero to the median, with a whisker from min to
/// max; the axis is logarithmic when the largest bar is more than 20 times
/// the smallest. A bar whose median is not a finite number >= 0 is left out
/// and named in the `<desc>`.
pub fn bar_chart(chart: &BarChart) -> Result<String> {
    chart.draw(Look::WIDE)
}

impl Chart for BarChart {
    /// Every field, in order.
    fn content_key(&self) -> ChartId {
        Key::new("BarChart")
            .text("title", &self.title)
            .text("desc", &self.desc)
            .text("unit", &self.unit)
            .flag("higher_is_better", self.higher_is_better)
            .list("bars", self.bars.iter(), Bar::key)
            .finish()
    }

    fn draw_keyed(&self, look: Look, key: ChartId) -> Result<String> {
        draw_bars(&BarWords::new(self), look, key)
    }

    fn draw_widths(&self, key: ChartId) -> Result<[String; 2]> {
        let words = BarWords::new(self);
        Ok([
            draw_bars(&words, Look::WIDE, key)?,
            draw_bars(
                &words,
                Look {
                    narrow: true,
                    theme: Theme::Auto,
                },
                key,
            )?,
        ])
    }
}

/// What a bar chart says, the same in every look: the bars drawn, their
/// names, medians and tooltips, the description and the axis caption.
struct BarWords<'c> {
    chart: &'c BarChart,
    rows: Vec<&'c Bar>,
    hidden: usize,
    spreads: Vec<Option<(f64, f64)>>,
    medians: Vec<f64>,
    extent: Vec<f64>,
    names: Vec<String>,
    median_text: Vec<String>,
    tips: Vec<String>,
    desc: String,
    caption: String,
}

impl<'c> BarWords<'c> {
    fn new(chart: &'c BarChart) -> BarWords<'c> {
        let mut notes = Vec::new();
        let mut rows = Vec::new();
        for bar in &chart.bars {
            if bar.median.is_finite() && bar.median >= 0.0 {
                rows.push(bar);
            } else {
                notes.push(format!(
                    "{} not drawn: median {} is not a number >= 0",
                    one_line(&bar.label),
                    bar.median
                ));
            }
        }
        let hidden = rows.len().saturating_sub(MAX_ROWS);
        rows.truncate(MAX_ROWS);
        if hidden > 0 {
            notes.push(format!(
                "{hidden} more bars not drawn (at most {MAX_ROWS} fit)"
            ));
        }
        let unit = one_line(&chart.unit);
        let better = better_words(chart.higher_is_better);

        let spreads: Vec<Option<(f64, f64)>> = rows.iter().map(|b| spread(b)).collect();
        let medians: Vec<f64> = rows.iter().map(|b| b.median).collect();
        let mut extent = medians.clone();
        extent.extend(spreads.iter().flatten().map(|s| s.1));
        // whether the axis is logarithmic depends on the values alone
        let log = Scale::fit_bars(&medians, &extent, ROW_PLOT.0, ROW_PLOT.1).log;

        // each bar's name and median as written, once for every place they show
        let names: Vec<String> = rows.iter().map(|b| one_line(&b.label)).collect();
        let median_text: Vec<String> = rows.iter().map(|b| fmt_num(b.median)).collect();
        let mut summary = Vec::new();
        let mut tips = Vec::new();
        for (i, ((bar, name), median)) in rows.iter().zip(&names).zip(&median_text).enumerate() {
            let runs = runs_words(bar);
            summary.push([name, ": ", median, " ", &unit, &runs].concat());
            let mut tip = [name, ": median ", median, " ", &unit].concat();
            if let Some((lo, hi)) = spreads[i] {
                tip.extend([", min ", &fmt_num(lo), " max ", &fmt_num(hi)]);
            }
            tip.push_str(&runs);
            tips.push(tip);
        }
        let scale_words = if log {
            format!(
                ", on a log scale (the largest bar is more than {BAR_LOG_RATIO:.0} times the smallest)"
            )
        } else {
            String::new()
        };
        let desc = join_desc(
            &chart.desc,
            &[
                format!(
                    "Median per offering in {unit}, {better}{scale_words}; whiskers span min to max over runs."
                ),
                summary.join("; "),
                notes.join("; "),
            ],
        );
        let caption = format!(
            "{} ({better}{})",
            fit(&unit, 200.0, SMALL_PX),
            if log { ", log scale" } else { "" }
        );
        BarWords {
            chart,
            rows,
            hidden,
            spreads,
            medians,
            extent,
            names,
            median_text,
            tips,
            desc,
            caption,
        }
    }
}

fn draw_bars(w: &BarWords, look: Look, key: ChartId) -> Result<String> {
    let (chart, rows, spreads) = (w.chart, &w.rows, &w.spreads);
    let plot = if look.narrow { NARROW_PLOT } else { ROW_PLOT };
    let xs = Scale::fit_bars(&w.medians, &w.extent, plot.0, plot.1);

    // full names, wrapped to two lines; only a longer one is cut, at its end
    let room = RowFrame::label_room(look);
    let labels: Vec<Vec<String>> = rows
        .iter()
        .zip(&w.names)
        .map(|(bar, name)| {
            // a no-break space, so that a wrapped label never ends in "(1"
            if bar.runs == 1 {
                wrap_lines(&format!("{name} (1\u{a0}run)"), room, LABEL_PX, 2)
            } else {
                wrap_lines(name, room, LABEL_PX, 2)
            }
        })
        .collect();
    let lines = labels.iter().map(Vec::len).max().unwrap_or(1);
    let top = 44.0 + title_drop(&chart.title, look);
    let frame = RowFrame::new(look, top, rows.len(), w.hidden, lines);
    let height = frame.height;
    let mut doc = Doc::begin(look, "bar", key, height, &chart.title, &w.desc);
    if rows.is_empty() {
        doc.no_data(height);
        return doc.finish();
    }

    let ticks = frame.ticks(&xs);
    frame.grid(&mut doc, &xs, &ticks, false);
    frame.axis(&mut doc, true);
    let at = |v: f64| xs.map(v.max(xs.lo));
    doc.plot("dd-bars dd-c0", |b| {
        for (i, bar) in rows.iter().enumerate() {
            let y = frame.band(i);
            b.draw_rect(
                (px(plot.0), px(y + 5.0)),
                (px(at(bar.median)), px(y + 21.0)),
                &PALETTE[0].filled(),
                true,
            );
        }
    });
    doc.plot("dd-ink", |b| {
        for (i, s) in spreads.iter().enumerate() {
            let Some((lo, hi)) = s else { continue };
            let cy = px(frame.mid(i));
            let (x0, x1) = (px(at(*lo)), px(at(*hi)));
            let ink = stroke(NEUTRAL, 2);
            b.draw_line((x0, cy), (x1, cy), &ink);
            b.draw_line((x0, cy - 5), (x0, cy + 5), &ink);
            b.draw_line((x1, cy - 5), (x1, cy + 5), &ink);
        }
    });

    for (i, bar) in rows.iter().enumerate() {
        frame.label(&mut doc, i, &labels[i], &w.tips[i]);
        let end = spreads[i].map_or(bar.median, |s| s.1.max(bar.median));
        doc.text(Txt::new(at(end) + 6.0, frame.band(i) + 17.0, &w.median_text[i]).size(SMALL_PX));
    }
    frame.finish(doc, &xs, &ticks, &w.caption)
}

impl Bar {
    /// This bar's fields, added to the chart's id hash.
    fn key(&self, k: Key) -> Key {
        k.text("label", &self.label)
            .number("median", self.median)
            .number("min", self.min)
            .number("max", self.max)
            .count("runs", self.runs)
    }
}

/// The min-max whisker of a bar, when there is a spread to show.
pub(super) fn spread(bar: &Bar) -> Option<(f64, f64)> {
    let ok = bar.runs > 1
        && bar.min.is_finite()
        && bar.max.is_finite()
        && 0.0 <= bar.min
        && bar.min < bar.max;
    ok.then_some((bar.min, bar.max))
}

/// ` (1 run)`, ` (5 runs)`: how many runs a median is of.
pub(super) fn runs_words(bar: &Bar) -> String {
    match bar.runs {
        1 => " (1 run)".to_string(),
        n => [" (", &n.to_string(), " runs)"].concat(),
    }
}
