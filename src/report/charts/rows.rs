//! The frame that the bar and percentile charts share: a row per series
//! under the title, a horizontal value axis below them with ticks and a
//! caption, and a note when rows were cut. Wide charts put each row's label
//! left of its marks; narrow ones put it above them, across the full width.

use anyhow::Result;

use super::scale::Scale;
use super::svg::*;
use super::*;

/// Rows drawn at most in a bar or percentile chart; the rest are named in the note.
pub(super) const MAX_ROWS: usize = 200;
/// Height of the band of one row that holds its marks (bar, whisker, markers).
pub(super) const BAND: f64 = 26.0;
/// Line height of row labels.
const LABEL_LINE: f64 = 15.0;
/// Space between the marks of one row and the label of the next on a narrow chart.
const NARROW_GAP: f64 = 6.0;
/// Right edge of the row labels on a wide chart.
pub(super) const LABEL_RIGHT: f64 = 260.0;
/// Plot area of wide bar and percentile charts, left to right.
pub(super) const ROW_PLOT: (f64, f64) = (LABEL_RIGHT + 8.0, 650.0);
/// Plot area of narrow ones: labels go above, values right of the bars.
pub(super) const NARROW_PLOT: (f64, f64) = (12.0, 296.0);

/// Where the rows of a bar or percentile chart go, and the parts around them
/// that both charts draw the same way.
pub(super) struct RowFrame {
    look: Look,
    /// Top of the first row.
    top: f64,
    /// Rows drawn.
    rows: usize,
    /// Rows left out past [`MAX_ROWS`].
    hidden: usize,
    /// Lines of the longest row label (1 or 2); every row gets that height.
    lines: usize,
    /// Height of one row.
    row: f64,
    /// The value axis, under the last row.
    axis_y: f64,
    /// Left and right end of the plot.
    pub(super) plot: (f64, f64),
    /// Height of the whole chart.
    pub(super) height: f64,
}

impl RowFrame {
    /// A frame of `rows` rows from `top`, each tall enough for labels of
    /// `lines` lines, with a note line when `hidden` rows were cut.
    pub(super) fn new(look: Look, top: f64, rows: usize, hidden: usize, lines: usize) -> RowFrame {
        let lines = lines.clamp(1, 2);
        let row = if look.narrow {
            // a gap under the marks, so that a label sits nearer its own bar than the one above
            LABEL_LINE * lines as f64 + BAND + NARROW_GAP
        } else {
            BAND + LABEL_LINE * (lines - 1) as f64
        };
        let axis_y = top + row * rows as f64;
        let footer = if hidden > 0 { 20.0 } else { 0.0 };
        let height = if rows == 0 {
            110.0
        } else {
            axis_y + 50.0 + footer
        };
        RowFrame {
            look,
            top,
            rows,
            hidden,
            lines,
            row,
            axis_y,
            plot: if look.narrow { NARROW_PLOT } else { ROW_PLOT },
            height,
        }
    }

    /// The room one line of a row label has.
    pub(super) fn label_room(look: Look) -> f64 {
        if look.narrow {
            look.width() - 24.0
        } else {
            LABEL_RIGHT - 8.0
        }
    }

    /// Top of row `i`.
    fn y(&self, i: usize) -> f64 {
        self.top + self.row * i as f64
    }

    /// Top of the band of row `i` that holds its marks.
    pub(super) fn band(&self, i: usize) -> f64 {
        if self.look.narrow {
            self.y(i) + LABEL_LINE * self.lines as f64 - 2.0
        } else {
            self.y(i) + (self.row - BAND) / 2.0
        }
    }

    /// The vertical middle of the marks of row `i`.
    pub(super) fn mid(&self, i: usize) -> f64 {
        self.band(i) + BAND / 2.0
    }

    /// Grid lines at the ticks, and a line through each row when `row_lines`.
    pub(super) fn grid(&self, doc: &mut Doc, xs: &Scale, ticks: &[f64], row_lines: bool) {
        doc.plot("dd-grid", |b| {
            for t in ticks {
                let x = px(xs.map(*t));
                b.draw_line(
                    (x, px(self.top - 4.0)),
                    (x, px(self.axis_y)),
                    &stroke(NEUTRAL, 1),
                );
            }
            if row_lines {
                for i in 0..self.rows {
                    let cy = px(self.mid(i));
                    b.draw_line(
                        (px(self.plot.0), cy),
                        (px(self.plot.1), cy),
                        &stroke(NEUTRAL, 1),
                    );
                }
            }
        })
    }

    /// The value axis, with a line up the left of the rows when `left_line`.
    pub(super) fn axis(&self, doc: &mut Doc, left_line: bool) {
        doc.plot("dd-axis", |b| {
            let x0 = px(self.plot.0);
            if left_line {
                b.draw_line(
                    (x0, px(self.top - 4.0)),
                    (x0, px(self.axis_y)),
                    &stroke(NEUTRAL, 1),
                );
            }
            b.draw_line(
                (x0, px(self.axis_y)),
                (px(self.plot.1), px(self.axis_y)),
                &stroke(NEUTRAL, 1),
            );
        })
    }

    /// The label of row `i`, one line or two, with the whole story as
    /// tooltip: right-aligned left of the plot on a wide chart, above the
    /// marks on a narrow one.
    pub(super) fn label(&self, doc: &mut Doc, i: usize, lines: &[String], tip: &str) {
        let n = lines.len().max(1) as f64;
        for (k, line) in lines.iter().enumerate() {
            let k = k as f64;
            if self.look.narrow {
                let y = self.y(i) + 12.0 + LABEL_LINE * k;
                doc.text(Txt::new(self.plot.0, y, line).tip(tip).halo());
            } else {
                // the lines centred on the marks
                let y = self.mid(i) + 4.5 + LABEL_LINE * (k - (n - 1.0) / 2.0);
                doc.text(Txt::new(LABEL_RIGHT, y, line).anchor("end").tip(tip));
            }
        }
    }

    /// The ticks of `xs` whose labels fit side by side on this frame.
    pub(super) fn ticks(&self, xs: &Scale) -> Vec<f64> {
        xs.ticks_fitting(SMALL_PX)
    }

    /// Tick labels, the axis caption and the note on rows cut; ends the document.
    pub(super) fn finish(
        &self,
        mut doc: Doc,
        xs: &Scale,
        ticks: &[f64],
        caption: &str,
    ) -> Result<String> {
        doc.ticks_below(xs, ticks, self.axis_y);
        doc.text(
            Txt::new(
                (self.plot.0 + self.plot.1) / 2.0,
                self.axis_y + 40.0,
                caption,
            )
            .anchor("middle")
            .size(SMALL_PX),
        );
        if self.hidden > 0 {
            let note = format!("{} more not shown", self.hidden);
            let t = if self.look.narrow {
                Txt::new(self.plot.0, self.axis_y + 60.0, &note)
            } else {
                Txt::new(LABEL_RIGHT, self.axis_y + 60.0, &note).anchor("end")
            };
            doc.text(t.muted());
        }
        doc.finish()
    }
}
