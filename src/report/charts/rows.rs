//! The frame that the bar and percentile charts share: a row per series
//! under the title, a horizontal value axis below them with ticks and a
//! caption, and a note when rows were cut.

use anyhow::Result;
use plotters::backend::DrawingBackend;

use super::scale::Scale;
use super::svg::*;
use super::*;

/// Rows drawn at most in a bar or percentile chart; the rest are named in the note.
pub(super) const MAX_ROWS: usize = 200;
/// Height of one row in bar and percentile charts.
pub(super) const ROW: f64 = 26.0;
/// Right edge of the row labels.
pub(super) const LABEL_RIGHT: f64 = 260.0;
/// Plot area of bar and percentile charts, left to right.
pub(super) const ROW_PLOT: (f64, f64) = (LABEL_RIGHT + 8.0, 650.0);

/// Where the rows of a bar or percentile chart go, and the parts around them
/// that both charts draw the same way.
pub(super) struct RowFrame {
    /// Top of the first row.
    top: f64,
    /// Rows drawn.
    rows: usize,
    /// Rows left out past [`MAX_ROWS`].
    hidden: usize,
    /// The value axis, under the last row.
    axis_y: f64,
    /// Height of the whole chart.
    pub(super) height: f64,
}

impl RowFrame {
    /// A frame of `rows` rows from `top`, with a note line when `hidden` rows were cut.
    pub(super) fn new(top: f64, rows: usize, hidden: usize) -> RowFrame {
        let axis_y = top + ROW * rows as f64;
        let footer = if hidden > 0 { 20.0 } else { 0.0 };
        let height = if rows == 0 {
            110.0
        } else {
            axis_y + 50.0 + footer
        };
        RowFrame {
            top,
            rows,
            hidden,
            axis_y,
            height,
        }
    }

    /// Top of row `i`.
    pub(super) fn y(&self, i: usize) -> f64 {
        self.top + ROW * i as f64
    }

    /// The vertical middle of row `i`.
    pub(super) fn mid(&self, i: usize) -> f64 {
        self.y(i) + 13.0
    }

    /// Grid lines at the ticks, and a line through each row when `row_lines`.
    pub(super) fn grid(
        &self,
        doc: &mut Doc,
        xs: &Scale,
        ticks: &[f64],
        row_lines: bool,
    ) -> Result<()> {
        doc.plot("dd-grid", self.height, |b| {
            for t in ticks {
                let x = px(xs.map(*t));
                b.draw_line(
                    (x, px(self.top - 4.0)),
                    (x, px(self.axis_y)),
                    &stroke(NEUTRAL, 1),
                )
                .map_err(draw_err)?;
            }
            if row_lines {
                for i in 0..self.rows {
                    let cy = px(self.mid(i));
                    b.draw_line(
                        (px(ROW_PLOT.0), cy),
                        (px(ROW_PLOT.1), cy),
                        &stroke(NEUTRAL, 1),
                    )
                    .map_err(draw_err)?;
                }
            }
            Ok(())
        })
    }

    /// The value axis, with a line up the left of the rows when `left_line`.
    pub(super) fn axis(&self, doc: &mut Doc, left_line: bool) -> Result<()> {
        doc.plot("dd-axis", self.height, |b| {
            let x0 = px(ROW_PLOT.0);
            if left_line {
                b.draw_line(
                    (x0, px(self.top - 4.0)),
                    (x0, px(self.axis_y)),
                    &stroke(NEUTRAL, 1),
                )
                .map_err(draw_err)?;
            }
            b.draw_line(
                (x0, px(self.axis_y)),
                (px(ROW_PLOT.1), px(self.axis_y)),
                &stroke(NEUTRAL, 1),
            )
            .map_err(draw_err)
        })
    }

    /// The label of row `i`, right-aligned left of the plot, with the whole story as tooltip.
    pub(super) fn label(&self, doc: &mut Doc, i: usize, shown: &str, tip: &str) {
        doc.text(
            Txt::new(LABEL_RIGHT, self.y(i) + 17.5, shown)
                .anchor("end")
                .tip(tip),
        );
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
            Txt::new((ROW_PLOT.0 + ROW_PLOT.1) / 2.0, self.axis_y + 40.0, caption)
                .anchor("middle")
                .size(SMALL_PX),
        );
        if self.hidden > 0 {
            let note = format!("{} more not shown", self.hidden);
            doc.text(
                Txt::new(LABEL_RIGHT, self.axis_y + 60.0, &note)
                    .anchor("end")
                    .muted(),
            );
        }
        doc.finish()
    }
}
