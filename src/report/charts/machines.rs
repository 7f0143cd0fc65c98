//! The machines strip chart: a row per machine a configuration ran on, its
//! median as a dot and the range of its runs as a bar, so the spread
//! between machines shows beside the spread within each; an outlying
//! machine is drawn with another mark and named so in its label.

use anyhow::Result;

use super::key::Key;
use super::rows::*;
use super::scale::Scale;
use super::svg::*;
use super::text::*;
use super::*;

/// One machine's row.
#[derive(Clone, Debug, PartialEq)]
pub struct MachineMark {
    /// Machine name (`host.name`); user-supplied, escaped by the chart.
    pub label: String,
    /// Median over its runs, in the chart's display unit.
    pub median: f64,
    /// Its smallest and largest run.
    pub min: f64,
    pub max: f64,
    /// Runs behind the median.
    pub runs: usize,
    /// Whether it is the outlier.
    pub outlier: bool,
}

/// A strip chart of one configuration's machines on one metric.
#[derive(Clone, Debug, PartialEq)]
pub struct MachineChart {
    /// Title (also the SVG `<title>`).
    pub title: String,
    /// Longer description for screen readers (the SVG `<desc>`).
    pub desc: String,
    /// Display unit, e.g. `IOPS`.
    pub unit: String,
    /// Whether higher is better (said in the axis caption).
    pub higher_is_better: bool,
    /// The machines, in display order.
    pub machines: Vec<MachineMark>,
}

/// What an outlier's label ends in.
const OUTLIER_WORDS: &str = " (outlier)";

/// Palette index of the median dot and of the outlier's mark.
const DOT: usize = 0;
const OUTLIER: usize = 3;

impl Chart for MachineChart {
    /// Every field, in order.
    fn content_key(&self) -> ChartId {
        Key::new("MachineChart")
            .text("title", &self.title)
            .text("desc", &self.desc)
            .text("unit", &self.unit)
            .flag("higher_is_better", self.higher_is_better)
            .list("machines", self.machines.iter(), MachineMark::key)
            .finish()
    }

    fn draw_keyed(&self, look: Look, key: ChartId) -> Result<String> {
        draw_machines(self, look, key)
    }
}

impl MachineMark {
    /// This row's fields, added to the chart's id hash.
    fn key(&self, k: Key) -> Key {
        k.text("label", &self.label)
            .number("median", self.median)
            .number("min", self.min)
            .number("max", self.max)
            .count("runs", self.runs)
            .flag("outlier", self.outlier)
    }

    /// Whether its figures can be drawn: finite, not negative, in order.
    fn drawable(&self) -> bool {
        [self.min, self.median, self.max]
            .iter()
            .all(|v| v.is_finite() && *v >= 0.0)
            && self.min <= self.median
            && self.median <= self.max
    }
}

fn draw_machines(chart: &MachineChart, look: Look, key: ChartId) -> Result<String> {
    let mut notes = Vec::new();
    let mut rows: Vec<&MachineMark> = Vec::new();
    for m in &chart.machines {
        if m.drawable() {
            rows.push(m);
        } else {
            notes.push(format!(
                "{} not drawn: its figures are not numbers >= 0 in order",
                one_line(&m.label)
            ));
        }
    }
    let hidden = rows.len().saturating_sub(MAX_ROWS);
    rows.truncate(MAX_ROWS);
    if hidden > 0 {
        notes.push(format!(
            "{hidden} more machines not drawn (at most {MAX_ROWS} fit)"
        ));
    }
    let unit = one_line(&chart.unit);
    let plot = if look.narrow { NARROW_PLOT } else { ROW_PLOT };
    let values: Vec<f64> = rows.iter().flat_map(|m| [m.min, m.max]).collect();
    let xs = Scale::fit(&values, plot.0, plot.1, false);
    let names: Vec<String> = rows
        .iter()
        .map(|m| {
            let name = one_line(&m.label);
            if m.outlier {
                name + OUTLIER_WORDS
            } else {
                name
            }
        })
        .collect();
    let summary: Vec<String> = rows
        .iter()
        .zip(&names)
        .map(|(m, name)| {
            let runs = if m.runs == 1 { "run" } else { "runs" };
            if m.runs > 1 {
                format!(
                    "{name}: median {} over {} {runs}, {} to {}",
                    fmt_num(m.median),
                    m.runs,
                    fmt_num(m.min),
                    fmt_num(m.max)
                )
            } else {
                format!("{name}: {} (1 {runs})", fmt_num(m.median))
            }
        })
        .collect();
    let desc = join_desc(
        &chart.desc,
        &[
            format!(
                "Each machine's median in {unit} (a dot) and the range of its runs (a bar), {}.",
                better_words(chart.higher_is_better)
            ),
            summary.join("; "),
            notes.join("; "),
        ],
    );
    let room = RowFrame::label_room(look);
    let labels: Vec<Vec<String>> = names
        .iter()
        .map(|n| wrap_lines(n, room, LABEL_PX, 2))
        .collect();
    let lines = labels.iter().map(Vec::len).max().unwrap_or(1);
    let drop = title_drop(&chart.title, look);
    let frame = RowFrame::new(look, 50.0 + drop, rows.len(), hidden, lines);
    let height = frame.height;
    let mut doc = Doc::begin(look, "mach", key, height, &chart.title, &desc);
    if rows.is_empty() {
        doc.no_data(height);
        return doc.finish();
    }
    let ticks = frame.ticks(&xs);
    frame.grid(&mut doc, &xs, &ticks, false);
    frame.axis(&mut doc, true);
    doc.plot("dd-ink", |b| {
        for (i, m) in rows.iter().enumerate() {
            let (lo, hi) = (xs.map(m.min), xs.map(m.max));
            if hi > lo {
                let cy = px(frame.mid(i));
                b.draw_line((px(lo), cy), (px(hi), cy), &stroke(NEUTRAL, 3));
            }
        }
    });
    // the dots, then the outliers' marks: a colour each per theme, and a
    // shape apart, so that neither colour vision nor print is needed
    doc.plot(&format!("dd-marks dd-c{DOT}"), |b| {
        for (i, m) in rows.iter().enumerate().filter(|(_, m)| !m.outlier) {
            let (x, y) = (px(xs.map(m.median)), px(frame.mid(i)));
            b.draw_circle((x, y), 5, &PALETTE[DOT].filled(), true);
        }
    });
    doc.plot(&format!("dd-marks dd-c{OUTLIER}"), |b| {
        for (i, m) in rows.iter().enumerate().filter(|(_, m)| m.outlier) {
            let (x, y) = (px(xs.map(m.median)), px(frame.mid(i)));
            b.fill_polygon(
                [(x, y - 7), (x + 7, y), (x, y + 7), (x - 7, y)],
                &PALETTE[OUTLIER].filled(),
            );
        }
    });
    for (i, line) in labels.iter().enumerate() {
        let tip = summary
            .get(i)
            .map(|t| format!("{t} (in {unit})"))
            .unwrap_or_default();
        frame.label(&mut doc, i, line, &tip);
    }
    let caption = format!(
        "{} per machine ({})",
        fit(&unit, 260.0, SMALL_PX),
        better_words(chart.higher_is_better)
    );
    frame.finish(doc, &xs, &ticks, &caption)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(label: &str, median: f64, outlier: bool) -> MachineMark {
        MachineMark {
            label: label.into(),
            median,
            min: median - 30.0,
            max: median + 30.0,
            runs: 3,
            outlier,
        }
    }

    fn chart() -> MachineChart {
        MachineChart {
            title: "P x: read IOPS per machine".into(),
            desc: String::new(),
            unit: "IOPS".into(),
            higher_is_better: true,
            machines: vec![
                mark("web-1", 2950.0, false),
                mark("web-<2>", 3000.0, false),
                mark("web-4", 1800.0, true),
            ],
        }
    }

    #[test]
    fn a_dot_per_machine_and_the_outlier_marked_and_named() {
        for narrow in [false, true] {
            let svg = chart()
                .draw(Look {
                    narrow,
                    theme: Theme::Auto,
                })
                .unwrap();
            assert_eq!(svg.matches("<circle").count(), 2, "{svg}");
            assert_eq!(svg.matches("<polygon").count(), 1);
            assert!(svg.contains(">web-4 (outlier)</text>"));
            // the label is escaped, in the text and the description
            assert!(svg.contains("web-&lt;2&gt;") && !svg.contains("web-<2>"));
            assert!(svg.contains("web-4 (outlier): median 1,800 over 3 runs, 1,770 to 1,830"));
            assert!(svg.contains("role=\"img\""));
        }
    }

    #[test]
    fn figures_that_cannot_be_drawn_are_named() {
        let mut c = chart();
        c.machines[1].median = f64::NAN;
        let svg = c.draw(Look::WIDE).unwrap();
        assert_eq!(svg.matches("<circle").count(), 1);
        assert!(svg.contains("web-&lt;2&gt; not drawn"));
    }
}
