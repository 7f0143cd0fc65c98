//! SVG charts: bar (median with min-max whisker), latency percentiles, and
//! price vs performance with lines of equal value. The only producer of
//! markup that pages embed unescaped: every label passed in is escaped here.
//!
//! Values come in already scaled to the display unit named in `unit`
//! (the caller picks MB/s, ms, ... in `report::format`).
//!
//! Plotters (without its font features, so no fontconfig or freetype) draws
//! the shapes through its SVG backend. Without a font library it can only
//! guess text extents and writes fixed colours, so this module writes the
//! `<svg>` root, `<title>`/`<desc>`, a theme `<style>` (light and dark), every
//! text element and the equal-value curves itself. Text widths are estimated
//! on the wide side, since the reader's font is unknown. Each chart is 720
//! units wide and scales with `width="100%"`; the output depends only on the
//! input, ids included.

use std::fmt::Write as _;

use anyhow::{anyhow, Result};
use plotters::backend::{DrawingBackend, SVGBackend};
use plotters::style::{Color, RGBColor, ShapeStyle};
use sha2::{Digest, Sha256};

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

/// Width of every chart in SVG user units; pages scale it with `width="100%"`.
const WIDTH: f64 = 720.0;
/// Rows drawn at most in a bar or percentile chart; the rest are named in the note.
const MAX_ROWS: usize = 200;
/// Points drawn at most on a value chart.
const MAX_POINTS: usize = 200;
/// Height of one row in bar and percentile charts.
const ROW: f64 = 26.0;
/// Right edge of the row labels.
const LABEL_RIGHT: f64 = 260.0;
/// Plot area of bar and percentile charts, left to right.
const ROW_PLOT: (f64, f64) = (LABEL_RIGHT + 8.0, 650.0);
/// Font sizes, never below 12 at 720 wide.
const TITLE_PX: f64 = 16.0;
const LABEL_PX: f64 = 13.0;
const SMALL_PX: f64 = 12.0;

/// Okabe-Ito, without black and yellow, which vanish on dark and on light pages.
const PALETTE: [RGBColor; 6] = [
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0x56, 0xB4, 0xE9),
];
/// Drawn colour of grid, axes and whiskers; the `<style>` recolours them per theme,
/// this grey only shows where a host strips the style and reads on light and dark.
const NEUTRAL: RGBColor = RGBColor(0x80, 0x80, 0x80);

/// Theme colours. Scoped to `.dd-chart` because an inline SVG's `<style>`
/// applies to the whole page; CSS beats the colour attributes plotters writes.
const CSS: &str = ".dd-chart text{font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",Arial,sans-serif}\
.dd-chart .dd-bg{fill:#fff}.dd-chart .dd-t{fill:#1f2328}.dd-chart .dd-m{fill:#57606a}\
.dd-chart .dd-h{font-weight:600}\
.dd-chart .dd-halo{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}\
.dd-chart .dd-grid *{stroke:#d8dee4}.dd-chart .dd-axis *{stroke:#57606a}.dd-chart .dd-ink *{stroke:#1f2328}\
.dd-chart .dd-eq *{stroke:#57606a;stroke-dasharray:6 4}.dd-chart .dd-eq1 *{stroke:#1f2328}\
@media (prefers-color-scheme:dark){.dd-chart .dd-bg{fill:#0d1117}.dd-chart .dd-t{fill:#e6edf3}\
.dd-chart .dd-m{fill:#9da7b3}.dd-chart .dd-grid *{stroke:#30363d}.dd-chart .dd-axis *{stroke:#9da7b3}\
.dd-chart .dd-ink *{stroke:#e6edf3}.dd-chart .dd-eq *{stroke:#9da7b3}.dd-chart .dd-eq1 *{stroke:#e6edf3}\
.dd-chart .dd-halo{stroke:#0d1117}}";

/// Draws a bar chart as a standalone SVG document.
///
/// Bars are horizontal, from zero to the median, with a whisker from min to
/// max; a bar whose median is not a finite number >= 0 is left out and named
/// in the `<desc>`. Fails only if plotters fails to draw into memory.
pub fn bar_chart(chart: &BarChart) -> Result<String> {
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

    let mut summary = Vec::new();
    for bar in &rows {
        summary.push(format!(
            "{}: {} {unit}{}",
            one_line(&bar.label),
            fmt_num(bar.median),
            runs_words(bar)
        ));
    }
    let desc = join_desc(
        &chart.desc,
        &[
            format!("Median per offering in {unit}, {better}; whiskers span min to max over runs."),
            summary.join("; "),
            notes.join("; "),
        ],
    );

    let top = 44.0;
    let axis_y = top + ROW * rows.len() as f64;
    let footer = if hidden > 0 { 20.0 } else { 0.0 };
    let height = if rows.is_empty() {
        110.0
    } else {
        axis_y + 50.0 + footer
    };
    let mut doc = Doc::begin("bar", &format!("{chart:?}"), height, &chart.title, &desc);
    if rows.is_empty() {
        doc.no_data(height);
        return doc.finish();
    }

    let spreads: Vec<Option<(f64, f64)>> = rows.iter().map(|b| spread(b)).collect();
    let mut extent: Vec<f64> = rows.iter().map(|b| b.median).collect();
    extent.extend(spreads.iter().flatten().map(|s| s.1));
    let xs = Scale::fit(&extent, ROW_PLOT.0, ROW_PLOT.1, false);

    let ticks = xs.ticks();
    doc.plot("dd-grid", height, |b| {
        for t in &ticks {
            let x = px(xs.map(*t));
            b.draw_line((x, px(top - 4.0)), (x, px(axis_y)), &stroke(NEUTRAL, 1))
                .map_err(draw_err)?;
        }
        Ok(())
    })?;
    doc.plot("dd-axis", height, |b| {
        let x0 = px(ROW_PLOT.0);
        b.draw_line((x0, px(top - 4.0)), (x0, px(axis_y)), &stroke(NEUTRAL, 1))
            .map_err(draw_err)?;
        b.draw_line(
            (x0, px(axis_y)),
            (px(ROW_PLOT.1), px(axis_y)),
            &stroke(NEUTRAL, 1),
        )
        .map_err(draw_err)
    })?;
    doc.plot("dd-bars", height, |b| {
        for (i, bar) in rows.iter().enumerate() {
            let y = top + ROW * i as f64;
            b.draw_rect(
                (px(ROW_PLOT.0), px(y + 5.0)),
                (px(xs.map(bar.median)), px(y + 21.0)),
                &PALETTE[0].filled(),
                true,
            )
            .map_err(draw_err)?;
        }
        Ok(())
    })?;
    doc.plot("dd-ink", height, |b| {
        for (i, s) in spreads.iter().enumerate() {
            let Some((lo, hi)) = s else { continue };
            let cy = px(top + ROW * i as f64 + 13.0);
            let (x0, x1) = (px(xs.map(*lo)), px(xs.map(*hi)));
            let ink = stroke(NEUTRAL, 2);
            b.draw_line((x0, cy), (x1, cy), &ink).map_err(draw_err)?;
            b.draw_line((x0, cy - 5), (x0, cy + 5), &ink)
                .map_err(draw_err)?;
            b.draw_line((x1, cy - 5), (x1, cy + 5), &ink)
                .map_err(draw_err)?;
        }
        Ok(())
    })?;

    for (i, bar) in rows.iter().enumerate() {
        let y = top + ROW * i as f64;
        let suffix = if bar.runs == 1 { " (1 run)" } else { "" };
        let name = one_line(&bar.label);
        let room = LABEL_RIGHT - 8.0 - text_width(suffix, LABEL_PX);
        let shown = format!("{}{suffix}", fit(&name, room, LABEL_PX));
        let tip = format!(
            "{name}: median {} {unit}{}{}",
            fmt_num(bar.median),
            spreads[i]
                .map(|(lo, hi)| format!(", min {} max {}", fmt_num(lo), fmt_num(hi)))
                .unwrap_or_default(),
            runs_words(bar)
        );
        doc.text(
            Txt::new(LABEL_RIGHT, y + 17.5, &shown)
                .anchor("end")
                .tip(&tip),
        );
        let end = spreads[i].map_or(bar.median, |s| s.1.max(bar.median));
        let value = fmt_num(bar.median);
        doc.text(Txt::new(xs.map(end) + 6.0, y + 17.0, &value).size(SMALL_PX));
    }
    doc.ticks_below(&xs, &ticks, axis_y);
    let caption = format!("{} ({better})", fit(&unit, 300.0, SMALL_PX));
    doc.text(
        Txt::new((ROW_PLOT.0 + ROW_PLOT.1) / 2.0, axis_y + 40.0, &caption)
            .anchor("middle")
            .size(SMALL_PX),
    );
    if hidden > 0 {
        let note = format!("{hidden} more not shown");
        doc.text(
            Txt::new(LABEL_RIGHT, axis_y + 60.0, &note)
                .anchor("end")
                .muted(),
        );
    }
    doc.finish()
}

/// Draws a latency percentile chart as a standalone SVG document.
///
/// One row per offering with p50, p99 and p99.9 as distinct markers on a
/// shared axis, logarithmic when the drawn values span ten times or more.
/// Values that cannot be drawn (not finite, negative, zero on a log axis) are
/// named in the `<desc>`. Fails only if plotters fails to draw into memory.
pub fn percentile_chart(chart: &PercentileChart) -> Result<String> {
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
    let xs = Scale::fit(&candidates, ROW_PLOT.0, ROW_PLOT.1, true);
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

    let top = 66.0;
    let axis_y = top + ROW * rows.len() as f64;
    let footer = if hidden > 0 { 20.0 } else { 0.0 };
    let height = if rows.is_empty() {
        110.0
    } else {
        axis_y + 50.0 + footer
    };
    let mut doc = Doc::begin("pct", &format!("{chart:?}"), height, &chart.title, &desc);
    if rows.is_empty() {
        doc.no_data(height);
        return doc.finish();
    }

    const LEGEND: [&str; 3] = ["p50 (median)", "p99", "p99.9"];
    let mut legend = Vec::new();
    let mut x = ROW_PLOT.0 + 6.0;
    for name in LEGEND {
        legend.push(x);
        x += 10.0 + text_width(name, SMALL_PX) + 24.0;
    }
    let ticks = xs.ticks();
    doc.plot("dd-grid", height, |b| {
        for t in &ticks {
            let x = px(xs.map(*t));
            b.draw_line((x, px(top - 4.0)), (x, px(axis_y)), &stroke(NEUTRAL, 1))
                .map_err(draw_err)?;
        }
        for i in 0..rows.len() {
            let cy = px(top + ROW * i as f64 + 13.0);
            b.draw_line(
                (px(ROW_PLOT.0), cy),
                (px(ROW_PLOT.1), cy),
                &stroke(NEUTRAL, 1),
            )
            .map_err(draw_err)?;
        }
        Ok(())
    })?;
    doc.plot("dd-axis", height, |b| {
        b.draw_line(
            (px(ROW_PLOT.0), px(axis_y)),
            (px(ROW_PLOT.1), px(axis_y)),
            &stroke(NEUTRAL, 1),
        )
        .map_err(draw_err)
    })?;
    doc.plot("dd-ink", height, |b| {
        for (i, row) in rows.iter().enumerate() {
            let drawn: Vec<f64> = row.iter().flatten().map(|v| xs.map(*v)).collect();
            let lo = drawn.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = drawn.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if drawn.len() > 1 && hi > lo {
                let cy = px(top + ROW * i as f64 + 13.0);
                b.draw_line((px(lo), cy), (px(hi), cy), &stroke(NEUTRAL, 2))
                    .map_err(draw_err)?;
            }
        }
        Ok(())
    })?;
    doc.plot("dd-marks", height, |b| {
        for (i, row) in rows.iter().enumerate() {
            let cy = top + ROW * i as f64 + 13.0;
            for (k, v) in row.iter().enumerate() {
                if let Some(v) = v {
                    marker(b, k, xs.map(*v), cy)?;
                }
            }
        }
        for (k, x) in legend.iter().enumerate() {
            marker(b, k, *x, 45.0)?;
        }
        Ok(())
    })?;
    for (name, x) in LEGEND.iter().zip(&legend) {
        doc.text(Txt::new(x + 10.0, 49.5, name).size(SMALL_PX));
    }
    for (i, (s, row)) in series.iter().zip(&rows).enumerate() {
        let y = top + ROW * i as f64;
        let name = one_line(&s.label);
        let shown = fit(&name, LABEL_RIGHT - 8.0, LABEL_PX);
        let tip = summary
            .get(i)
            .map(|t| format!("{t} (in {unit})"))
            .unwrap_or_default();
        doc.text(
            Txt::new(LABEL_RIGHT, y + 17.5, &shown)
                .anchor("end")
                .tip(&tip),
        );
        if row.iter().all(Option::is_none) {
            doc.text(
                Txt::new(ROW_PLOT.0 + 6.0, y + 17.0, "no data")
                    .size(SMALL_PX)
                    .muted(),
            );
        }
    }
    doc.ticks_below(&xs, &ticks, axis_y);
    let caption = format!(
        "latency, {} (lower is better{})",
        fit(&unit, 300.0, SMALL_PX),
        if xs.log { ", log scale" } else { "" }
    );
    doc.text(
        Txt::new((ROW_PLOT.0 + ROW_PLOT.1) / 2.0, axis_y + 40.0, &caption)
            .anchor("middle")
            .size(SMALL_PX),
    );
    if hidden > 0 {
        let note = format!("{hidden} more not shown");
        doc.text(
            Txt::new(LABEL_RIGHT, axis_y + 60.0, &note)
                .anchor("end")
                .muted(),
        );
    }
    doc.finish()
}

/// Draws the price vs performance chart as a standalone SVG document.
///
/// A point per offering with a direct label; each axis is logarithmic when its
/// values span ten times or more. With a drawable baseline, lines of equal
/// value (0.5x, 1x, 2x the baseline's performance per price) show who gives
/// more for the money. Offerings that cannot be drawn are named in the
/// `<desc>`. Fails only if plotters fails to draw into memory.
pub fn value_chart(chart: &ValueChart) -> Result<String> {
    let lay = value_layout(chart);
    let mut doc = Doc::begin(
        "value",
        &format!("{chart:?}"),
        lay.height,
        &chart.title,
        &lay.desc,
    );
    if lay.points.is_empty() {
        doc.no_data(lay.height);
        return doc.finish();
    }
    let (xs, ys) = (&lay.xs, &lay.ys);
    let (xticks, yticks) = (xs.ticks(), ys.ticks());
    doc.plot("dd-grid", lay.height, |b| {
        for t in &xticks {
            let x = px(xs.map(*t));
            b.draw_line((x, px(ys.a)), (x, px(ys.b)), &stroke(NEUTRAL, 1))
                .map_err(draw_err)?;
        }
        for t in &yticks {
            let y = px(ys.map(*t));
            b.draw_line((px(xs.a), y), (px(xs.b), y), &stroke(NEUTRAL, 1))
                .map_err(draw_err)?;
        }
        Ok(())
    })?;
    doc.plot("dd-axis", lay.height, |b| {
        let corner = (px(xs.a), px(ys.a));
        b.draw_line(corner, (px(xs.b), px(ys.a)), &stroke(NEUTRAL, 1))
            .map_err(draw_err)?;
        b.draw_line(corner, (px(xs.a), px(ys.b)), &stroke(NEUTRAL, 1))
            .map_err(draw_err)
    })?;
    // written here rather than by plotters, whose whole-pixel points make curves jagged
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
    doc.plot("dd-ink", lay.height, |b| {
        for p in lay.points.iter().filter(|p| p.baseline) {
            b.draw_circle((px(p.x), px(p.y)), 10, &stroke(NEUTRAL, 2), false)
                .map_err(draw_err)?;
        }
        Ok(())
    })?;
    doc.plot("dd-points", lay.height, |b| {
        for (i, p) in lay.points.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            b.draw_circle((px(p.x), px(p.y)), 6, &colour.filled(), true)
                .map_err(draw_err)?;
        }
        Ok(())
    })?;
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
    for p in &lay.points {
        doc.text(
            Txt::new(p.label_x, p.label_y, &p.shown)
                .anchor(p.anchor)
                .size(SMALL_PX)
                .tip(&p.tip)
                .halo(),
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
        fit(&one_line(&chart.x_label), 420.0, SMALL_PX),
        if xs.log { " (log scale)" } else { "" }
    );
    doc.text(
        Txt::new((xs.a + xs.b) / 2.0, ys.a + 40.0, &x_caption)
            .anchor("middle")
            .size(SMALL_PX),
    );
    let y_caption = format!(
        "{} ({}{})",
        fit(&one_line(&chart.y_label), 260.0, SMALL_PX),
        better_words(chart.higher_is_better),
        if ys.log { ", log scale" } else { "" }
    );
    let mid = (ys.a + ys.b) / 2.0;
    doc.text(
        Txt::new(16.0, mid, &y_caption)
            .anchor("middle")
            .size(SMALL_PX)
            .rotate(),
    );
    let mut note_y = ys.a + 66.0;
    for note in &lay.visible_notes {
        doc.text(Txt::new(12.0, note_y, note).size(SMALL_PX).muted());
        note_y += 18.0;
    }
    doc.finish()
}

/// Where everything on a value chart goes, computed before any drawing so
/// that tests can check the geometry.
#[derive(Debug)]
struct ValueLayout {
    xs: Scale,
    ys: Scale,
    points: Vec<PlacedPoint>,
    lines: Vec<EqualValueLine>,
    desc: String,
    visible_notes: Vec<String>,
    height: f64,
}

/// An offering's point and label on the value chart, in SVG units.
#[derive(Debug)]
struct PlacedPoint {
    x: f64,
    y: f64,
    baseline: bool,
    shown: String,
    tip: String,
    label_x: f64,
    label_y: f64,
    anchor: &'static str,
}

/// A line of constant performance per price, `multiple` times the baseline's.
#[derive(Debug)]
struct EqualValueLine {
    multiple: f64,
    path: Vec<(f64, f64)>,
    /// Right end of the line's label, on the line.
    label_at: (f64, f64),
}

fn value_layout(chart: &ValueChart) -> ValueLayout {
    let x_name = one_line(&chart.x_label);
    let y_name = one_line(&chart.y_label);
    let mut notes = Vec::new();
    let mut kept: Vec<(usize, &ValuePoint)> = Vec::new();
    for (i, p) in chart.points.iter().enumerate() {
        // a price of zero or less has no value ratio, and negative performance is not data
        let ok = p.price_per_gb.is_finite()
            && p.price_per_gb > 0.0
            && p.performance.is_finite()
            && p.performance >= 0.0;
        if ok {
            kept.push((i, p));
        } else {
            notes.push(format!(
                "{} not drawn: price {} or performance {} is not a usable number",
                one_line(&p.label),
                p.price_per_gb,
                p.performance
            ));
        }
    }
    let hidden = kept.len().saturating_sub(MAX_POINTS);
    kept.truncate(MAX_POINTS);
    if hidden > 0 {
        notes.push(format!(
            "{hidden} more offerings not drawn (at most {MAX_POINTS} fit)"
        ));
    }
    let prices: Vec<f64> = kept.iter().map(|(_, p)| p.price_per_gb).collect();
    let perfs: Vec<f64> = kept.iter().map(|(_, p)| p.performance).collect();
    let (top, bottom) = (52.0, 420.0);
    let xs = Scale::fit(&prices, 80.0, 696.0, true);
    let ys = Scale::fit(&perfs, bottom, top, true);
    let mut drawn = Vec::new();
    let mut summary = Vec::new();
    for (i, p) in kept {
        let name = one_line(&p.label);
        if !ys.can_show(p.performance) {
            notes.push(format!(
                "{name} not drawn: performance {}{}",
                p.performance,
                ys.why_not()
            ));
            continue;
        }
        summary.push(format!(
            "{name}: {} {x_name}, {} {y_name}",
            fmt_num(p.price_per_gb),
            fmt_num(p.performance)
        ));
        drawn.push((i, p, name));
    }

    let base = chart
        .baseline
        .and_then(|b| drawn.iter().find(|(i, _, _)| *i == b))
        .map(|(_, p, name)| (p.price_per_gb, p.performance, name.clone()));
    let mut lines = Vec::new();
    let mut visible_notes = Vec::new();
    let better = better_words(chart.higher_is_better);
    let lines_desc = match &base {
        Some((bx, by, name)) if *by > 0.0 => {
            for multiple in [0.5, 1.0, 2.0] {
                let path = equal_value_path(&xs, &ys, *bx, *by, multiple, chart.higher_is_better);
                if path.len() >= 2 {
                    let label_at = path.last().copied().unwrap_or_default();
                    lines.push(EqualValueLine {
                        multiple,
                        path,
                        label_at,
                    });
                }
            }
            let side = if chart.higher_is_better {
                "above"
            } else {
                "below"
            };
            let text = format!(
                "Lines: equal value for money at 0.5x, 1x and 2x the baseline {name}; points {side} the 1x line give more for their price."
            );
            visible_notes.extend(wrap(&text, WIDTH - 24.0, SMALL_PX));
            text
        }
        Some((_, _, name)) => {
            format!("No equal-value lines: baseline {name} has zero performance.")
        }
        None if chart.baseline.is_some() => {
            "No equal-value lines: the baseline is not drawn.".to_string()
        }
        None => "No equal-value lines: no baseline given.".to_string(),
    };
    if !notes.is_empty() {
        let n = chart.points.len().saturating_sub(drawn.len());
        let text = format!("{n} not drawn (no usable price or performance); see the description.");
        visible_notes.extend(wrap(&text, WIDTH - 24.0, SMALL_PX));
    }

    let label_room = if drawn.len() <= 12 { 220.0 } else { 110.0 };
    let mut points: Vec<PlacedPoint> = drawn
        .iter()
        .map(|(i, p, name)| {
            let baseline = Some(*i) == chart.baseline;
            let suffix = if baseline { " (baseline)" } else { "" };
            let shown = format!(
                "{}{suffix}",
                fit(name, label_room - text_width(suffix, SMALL_PX), SMALL_PX)
            );
            let tip = format!(
                "{name}{suffix}: {} {x_name}, {} {y_name}",
                fmt_num(p.price_per_gb),
                fmt_num(p.performance)
            );
            let (x, y) = (xs.map(p.price_per_gb), ys.map(p.performance));
            PlacedPoint {
                x,
                y,
                baseline,
                shown,
                tip,
                label_x: x,
                label_y: y,
                anchor: "start",
            }
        })
        .collect();
    // the line labels sit at the right-hand ends; point labels keep clear of them
    let mut fixed = Vec::new();
    for line in &mut lines {
        let w = text_width(&line_words(line.multiple), SMALL_PX);
        // from the right-hand end inwards, the first spot that covers no point
        let spot = [1.0, 0.85, 0.7, 0.55, 0.4]
            .into_iter()
            .map(|f| along(&line.path, f))
            .find(|(x, y)| {
                !points.iter().any(|p| {
                    p.x + 6.0 > x - 4.0 - w
                        && p.x - 6.0 < x - 4.0
                        && p.y + 6.0 > y - 17.0
                        && p.y - 6.0 < y - 3.0
                })
            });
        line.label_at = spot.unwrap_or(line.label_at);
        let (x, y) = line.label_at;
        fixed.push((x - 4.0 - w, x - 4.0, y - 6.0));
    }
    place_labels(&mut points, fixed);

    let height = if points.is_empty() {
        110.0
    } else {
        bottom + 52.0 + 18.0 * visible_notes.len() as f64
    };
    let desc = join_desc(
        &chart.desc,
        &[
            format!(
                "Price ({}) against performance ({}, {better}); price on a {} scale, performance on a {} scale.",
                x_name,
                y_name,
                xs.kind(),
                ys.kind()
            ),
            lines_desc,
            summary.join("; "),
            notes.join("; "),
        ],
    );
    ValueLayout {
        xs,
        ys,
        points,
        lines,
        desc,
        visible_notes,
        height,
    }
}

/// The screen path of `performance / price = multiple x baseline's`
/// (`performance * price` for lower-is-better metrics), clipped to the plot.
fn equal_value_path(
    xs: &Scale,
    ys: &Scale,
    bx: f64,
    by: f64,
    multiple: f64,
    higher: bool,
) -> Vec<(f64, f64)> {
    // y = k * x when higher is better, y = k / x otherwise
    let (k, f): (f64, fn(f64, f64) -> f64) = if higher {
        (multiple * by / bx, |k, x| k * x)
    } else {
        (by * bx / multiple, |k, x| k / x)
    };
    let (ylo, yhi) = (ys.lo, ys.hi);
    let (mut x0, mut x1) = if higher {
        (ylo / k, yhi / k)
    } else {
        (k / yhi, k / ylo)
    };
    x0 = x0.max(xs.lo);
    x1 = x1.min(xs.hi);
    if !higher {
        x0 = x0.max(f64::MIN_POSITIVE);
    }
    if !(x0.is_finite() && x1.is_finite() && x1 > x0) {
        return Vec::new();
    }
    // straight on screen only when both axes transform the same way as the curve
    let straight = if higher {
        xs.log == ys.log
    } else {
        xs.log && ys.log
    };
    let steps = if straight { 1 } else { 48 };
    let (t0, t1) = (xs.axis_t(x0), xs.axis_t(x1));
    (0..=steps)
        .map(|i| {
            let x = xs.value_at_t(t0 + (t1 - t0) * i as f64 / steps as f64);
            (xs.map(x), ys.map(f(k, x).clamp(ylo, yhi)))
        })
        .collect()
}

/// Puts each point's label beside it, right or left and nudged up or down,
/// at the first spot that covers no other label or point; crowded labels
/// fall back to the right of their point. Order is fixed, so output is too.
fn place_labels(points: &mut [PlacedPoint], fixed: Vec<(f64, f64, f64)>) {
    let dots: Vec<(f64, f64)> = points.iter().map(|p| (p.x, p.y)).collect();
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|a, b| points[*a].y.total_cmp(&points[*b].y).then(a.cmp(b)));
    // (left, right, baseline y) of labels placed so far
    let mut boxes = fixed;
    for i in order {
        let (x, y) = (points[i].x, points[i].y);
        let w = text_width(&points[i].shown, SMALL_PX);
        let free = |l: f64, r: f64, ty: f64| {
            let (top, bottom) = (ty - 11.0, ty + 3.0);
            l >= 2.0
                && r <= WIDTH - 2.0
                && !boxes
                    .iter()
                    .any(|(bl, br, by)| l < *br && *bl < r && (ty - by).abs() < 14.0)
                && !dots.iter().enumerate().any(|(j, (dx, dy))| {
                    j != i
                        && *dx + 6.0 > l
                        && *dx - 6.0 < r
                        && *dy + 6.0 > top
                        && *dy - 6.0 < bottom
                })
        };
        let mut choice = None;
        'search: for dy in [0.0, -12.0, 12.0, -24.0, 24.0] {
            for right in [true, false] {
                let ty = y + 4.0 + dy;
                let (l, r) = if right {
                    (x + 10.0, x + 10.0 + w)
                } else {
                    (x - 10.0 - w, x - 10.0)
                };
                if free(l, r, ty) {
                    choice = Some((right, ty, l, r));
                    break 'search;
                }
            }
        }
        let (right, ty, l, r) = choice.unwrap_or({
            if x + 10.0 + w <= WIDTH - 2.0 {
                (true, y + 4.0, x + 10.0, x + 10.0 + w)
            } else {
                (false, y + 4.0, x - 10.0 - w, x - 10.0)
            }
        });
        let p = &mut points[i];
        p.label_y = ty;
        (p.label_x, p.anchor) = if right {
            (x + 10.0, "start")
        } else {
            (x - 10.0, "end")
        };
        boxes.push((l, r, ty));
    }
}

/// The point a fraction `f` (0..=1) of the way along `path`, counting its points evenly.
fn along(path: &[(f64, f64)], f: f64) -> (f64, f64) {
    let last = path.len().saturating_sub(1);
    let t = f.clamp(0.0, 1.0) * last as f64;
    let i = (t.floor() as usize).min(last.saturating_sub(1));
    match (path.get(i), path.get(i + 1)) {
        (Some(a), Some(b)) => {
            let u = t - i as f64;
            (a.0 + (b.0 - a.0) * u, a.1 + (b.1 - a.1) * u)
        }
        (Some(a), None) => *a,
        _ => (0.0, 0.0),
    }
}

/// The label of the line of `multiple` times the baseline's value.
fn line_words(multiple: f64) -> String {
    if multiple == 1.0 {
        "1x baseline value".to_string()
    } else {
        format!("{multiple}x value")
    }
}

/// A linear (from zero) or logarithmic axis mapping values onto `a..b` in SVG units.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Scale {
    lo: f64,
    hi: f64,
    log: bool,
    /// SVG coordinate of `lo`.
    a: f64,
    /// SVG coordinate of `hi`.
    b: f64,
    /// Tick step of a linear axis.
    step: f64,
}

impl Scale {
    /// Fits finite values >= 0; logarithmic when allowed and the positive
    /// values span ten times or more, otherwise linear from zero.
    fn fit(values: &[f64], a: f64, b: f64, allow_log: bool) -> Scale {
        let usable = values
            .iter()
            .copied()
            .filter(|v| v.is_finite() && *v >= 0.0);
        let max = usable.clone().fold(0.0, f64::max);
        let min_pos = usable.filter(|v| *v > 0.0).fold(f64::INFINITY, f64::min);
        if allow_log && spans_decade(min_pos, max) {
            let lo = nice_floor(min_pos);
            let hi = nice_ceil(max);
            if lo > 0.0 && hi.is_finite() && hi > lo {
                return Scale {
                    lo,
                    hi,
                    log: true,
                    a,
                    b,
                    step: 0.0,
                };
            }
        }
        let max = if max > 0.0 { max } else { 1.0 };
        let step = nice_ceil(max / 5.0);
        let mut hi = (max / step).ceil() * step;
        if !(hi.is_finite() && hi > 0.0) {
            hi = max;
        }
        Scale {
            lo: 0.0,
            hi,
            log: false,
            a,
            b,
            step,
        }
    }

    fn axis_t(&self, v: f64) -> f64 {
        if self.log {
            v.log10()
        } else {
            v
        }
    }

    fn value_at_t(&self, t: f64) -> f64 {
        if self.log {
            10f64.powf(t)
        } else {
            t
        }
    }

    /// The SVG coordinate of `v`.
    fn map(&self, v: f64) -> f64 {
        let (t0, t1) = (self.axis_t(self.lo), self.axis_t(self.hi));
        let span = t1 - t0;
        if !(span.is_finite() && span > 0.0) {
            return self.a;
        }
        self.a + (self.axis_t(v) - t0) / span * (self.b - self.a)
    }

    fn can_show(&self, v: f64) -> bool {
        v.is_finite() && if self.log { v > 0.0 } else { v >= 0.0 }
    }

    fn why_not(&self) -> &'static str {
        if self.log {
            " (not a positive number, on a log scale)"
        } else {
            " (not a number >= 0)"
        }
    }

    fn kind(&self) -> &'static str {
        if self.log {
            "logarithmic"
        } else {
            "linear"
        }
    }

    /// Tick values: 0, step, .. on a linear axis; 1-2-5 per decade on a log
    /// axis, thinned to fewer labels when it spans many decades.
    fn ticks(&self) -> Vec<f64> {
        if !self.log {
            let n = (self.hi / self.step).round();
            if !(1.0..=20.0).contains(&n) {
                return vec![self.lo, self.hi];
            }
            return (0..=n as usize).map(|i| self.step * i as f64).collect();
        }
        let d0 = self.lo.log10().floor() as i32;
        let d1 = self.hi.log10().ceil() as i32;
        let decades = (d1 - d0).max(1);
        let mantissas: &[f64] = if decades <= 3 {
            &[1.0, 2.0, 5.0]
        } else {
            &[1.0]
        };
        let every = (decades + 9) / 10;
        let mut out = Vec::new();
        for d in (d0..=d1).filter(|d| (d - d0) % every == 0) {
            for m in mantissas {
                let t = m * 10f64.powi(d);
                if t >= self.lo * (1.0 - 1e-9) && t <= self.hi * (1.0 + 1e-9) {
                    out.push(t);
                }
            }
        }
        out
    }
}

fn spans_decade(min_pos: f64, max: f64) -> bool {
    min_pos.is_finite() && min_pos > 0.0 && max / min_pos >= 10.0
}

/// The largest 1, 2 or 5 times a power of ten that is <= `v` (> 0).
fn nice_floor(v: f64) -> f64 {
    let d = 10f64.powf(v.log10().floor());
    [5.0, 2.0, 1.0]
        .into_iter()
        .map(|m| m * d)
        .find(|c| *c <= v * (1.0 + 1e-9))
        .unwrap_or(d)
}

/// The smallest 1, 2 or 5 times a power of ten that is >= `v` (> 0).
fn nice_ceil(v: f64) -> f64 {
    let d = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * d)
        .find(|c| *c >= v * (1.0 - 1e-9))
        .unwrap_or(10.0 * d)
}

/// The min-max whisker of a bar, when there is a spread to show.
fn spread(bar: &Bar) -> Option<(f64, f64)> {
    let ok = bar.runs > 1
        && bar.min.is_finite()
        && bar.max.is_finite()
        && 0.0 <= bar.min
        && bar.min < bar.max;
    ok.then_some((bar.min, bar.max))
}

fn runs_words(bar: &Bar) -> String {
    match bar.runs {
        1 => " (1 run)".to_string(),
        n => format!(" ({n} runs)"),
    }
}

fn better_words(higher_is_better: bool) -> &'static str {
    if higher_is_better {
        "higher is better"
    } else {
        "lower is better"
    }
}

/// The caller's description followed by the generated sentences that are not empty.
fn join_desc(desc: &str, parts: &[String]) -> String {
    let mut out: Vec<&str> = vec![desc.trim()];
    out.extend(parts.iter().map(|p| p.trim()));
    out.retain(|p| !p.is_empty());
    out.join(" ")
}

/// A number in fixed precision: three significant digits, no more than needed.
fn fmt_num(v: f64) -> String {
    let a = v.abs();
    if !v.is_finite() {
        return "n/a".to_string();
    }
    if a == 0.0 {
        return "0".to_string();
    }
    if a < 0.001 {
        return format!("{v:.2e}");
    }
    let decimals = (2 - a.log10().floor() as i32).clamp(0, 4) as usize;
    format!("{v:.decimals$}")
}

/// A tick label with as many decimals as the tick spacing needs.
fn fmt_tick(v: f64, scale: &Scale) -> String {
    let unit = if scale.log { v } else { scale.step };
    if v == 0.0 {
        return "0".to_string();
    }
    if unit.abs() < 0.0001 || v.abs() >= 1e9 {
        return format!("{v:.0e}");
    }
    let decimals = (-unit.abs().log10().floor()).clamp(0.0, 4.0) as usize;
    format!("{v:.decimals$}")
}

/// A label on one line: control characters become spaces.
fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// Escapes text for SVG content and attribute values; characters XML 1.0
/// forbids become U+FFFD so the document always parses.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t'
            | '\n'
            | '\r'
            | '\u{20}'..='\u{D7FF}'
            | '\u{E000}'..='\u{FFFD}'
            | '\u{10000}'..='\u{10FFFF}' => out.push(c),
            _ => out.push('\u{FFFD}'),
        }
    }
    out
}

/// Estimated width of `s` at `px`; SVG has no text metrics without fonts, so
/// this errs wide: CJK and emoji count a full em, capitals and digits more than lower case.
fn text_width(s: &str, px: f64) -> f64 {
    s.chars()
        .map(|c| match c {
            '\u{1100}'..='\u{115F}'
            | '\u{2E80}'..='\u{A4CF}'
            | '\u{AC00}'..='\u{D7A3}'
            | '\u{F900}'..='\u{FAFF}'
            | '\u{FE30}'..='\u{FE4F}'
            | '\u{FF00}'..='\u{FF60}'
            | '\u{FFE0}'..='\u{FFE6}'
            | '\u{1F300}'..='\u{1FAFF}'
            | '\u{20000}'..='\u{3FFFD}' => 1.0,
            'i' | 'j' | 'l' | 't' | 'f' | 'r' | 'I' | '.' | ',' | ':' | ';' | '\'' | '|' | '!'
            | ' ' | '(' | ')' => 0.38,
            'm' | 'w' | 'M' | 'W' | '@' => 0.98,
            c if c.is_ascii_uppercase() || c.is_ascii_digit() => 0.72,
            _ => 0.62,
        })
        .sum::<f64>()
        * px
}

/// `s` broken at spaces into lines that fit `max` at `px`; a word too long
/// for a line is cut with an ellipsis.
fn wrap(s: &str, max: f64, px: f64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if text_width(&candidate, px) <= max || line.is_empty() {
            line = candidate;
        } else {
            lines.push(fit(&line, max, px));
            line = word.to_string();
        }
    }
    if !line.is_empty() {
        lines.push(fit(&line, max, px));
    }
    lines
}

/// `s` cut to fit `max` at `px`, with an ellipsis in the middle when cut:
/// offerings of one provider often differ only at the end of their names
/// ("... Standard (SATA)" vs "... High-Performance (SSD)"), so both ends stay.
fn fit(s: &str, max: f64, px: f64) -> String {
    if text_width(s, px) <= max {
        return s.to_string();
    }
    let room = max - text_width("…", px);
    let chars: Vec<char> = s.chars().collect();
    let mut head = String::new();
    let mut tail: Vec<char> = Vec::new();
    let (mut i, mut j) = (0, chars.len());
    // take characters alternately from the front and the back while they fit
    while i < j {
        let front = tail.len() >= head.chars().count();
        let c = if front { chars[i] } else { chars[j - 1] };
        let width = text_width(&head, px)
            + text_width(&tail.iter().rev().collect::<String>(), px)
            + text_width(&c.to_string(), px);
        if width > room {
            break;
        }
        if front {
            head.push(c);
            i += 1;
        } else {
            tail.push(c);
            j -= 1;
        }
    }
    let tail: String = tail.iter().rev().collect();
    format!("{}…{}", head.trim_end(), tail.trim_start())
}

fn px(v: f64) -> i32 {
    if v.is_finite() {
        v.round().clamp(-1e6, 1e6) as i32
    } else {
        0
    }
}

fn stroke(colour: RGBColor, width: u32) -> ShapeStyle {
    colour.stroke_width(width)
}

fn draw_err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow!("drawing chart: {e}")
}

/// Percentile marker `k` (0 = p50 circle, 1 = p99 square, 2 = p99.9 triangle):
/// shape and colour both differ, so neither colour vision nor print is needed.
fn marker(b: &mut SVGBackend<'_>, k: usize, x: f64, y: f64) -> Result<()> {
    let (x, y) = (px(x), px(y));
    let colour = PALETTE[[0, 1, 3][k.min(2)]];
    match k {
        0 => b.draw_circle((x, y), 5, &colour.filled(), true),
        1 => b.draw_rect((x - 5, y - 5), (x + 5, y + 5), &colour.filled(), true),
        _ => b.fill_polygon(
            [(x, y - 7), (x - 6, y + 5), (x + 6, y + 5)],
            &colour.filled(),
        ),
    }
    .map_err(draw_err)
}

/// A text element to write: position, look, content and an optional tooltip.
struct Txt<'a> {
    x: f64,
    y: f64,
    text: &'a str,
    size: f64,
    class: &'static str,
    anchor: &'static str,
    tip: Option<&'a str>,
    rotate: bool,
    halo: bool,
}

impl<'a> Txt<'a> {
    fn new(x: f64, y: f64, text: &'a str) -> Self {
        Txt {
            x,
            y,
            text,
            size: LABEL_PX,
            class: "dd-t",
            anchor: "start",
            tip: None,
            rotate: false,
            halo: false,
        }
    }
    fn size(mut self, size: f64) -> Self {
        self.size = size;
        self
    }
    fn anchor(mut self, anchor: &'static str) -> Self {
        self.anchor = anchor;
        self
    }
    fn muted(mut self) -> Self {
        self.class = "dd-m";
        self
    }
    fn tip(mut self, tip: &'a str) -> Self {
        self.tip = Some(tip);
        self
    }
    fn rotate(mut self) -> Self {
        self.rotate = true;
        self
    }
    /// Outlines the text in the background colour, for text drawn over lines.
    fn halo(mut self) -> Self {
        self.halo = true;
        self
    }
}

/// The SVG document being written: our own root, `<title>`, `<desc>`, style
/// and text; plotters draws the shapes into groups inside it.
struct Doc {
    out: String,
}

impl Doc {
    /// Starts the document; ids come from a hash of `key` (the chart's data),
    /// so they are stable and differ between charts inlined on one page.
    fn begin(kind: &str, key: &str, height: f64, title: &str, desc: &str) -> Doc {
        let hash = Sha256::digest(key.as_bytes());
        let mut id = format!("dd-{kind}-");
        for byte in hash.iter().take(5) {
            let _ = write!(id, "{byte:02x}");
        }
        let title = one_line(title);
        let mut out = String::with_capacity(16 * 1024);
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"dd-chart\" viewBox=\"0 0 {WIDTH:.0} {height:.0}\" \
width=\"100%\" style=\"max-width:{WIDTH:.0}px;height:auto\" role=\"img\" aria-labelledby=\"{id}-title {id}-desc\">\n\
<title id=\"{id}-title\">{}</title>\n<desc id=\"{id}-desc\">{}</desc>\n<style>{CSS}</style>\n\
<rect class=\"dd-bg\" width=\"{WIDTH:.0}\" height=\"{height:.0}\"/>\n",
            esc(&title),
            esc(desc.trim())
        );
        let mut doc = Doc { out };
        let shown = fit(&title, WIDTH - 24.0, TITLE_PX);
        let tip = (shown != title).then_some(title.as_str());
        let mut t = Txt::new(12.0, 26.0, &shown).size(TITLE_PX);
        t.tip = tip;
        doc.text_class(t, "dd-t dd-h");
        doc
    }

    /// Writes "no data" in the middle of an empty chart.
    fn no_data(&mut self, height: f64) {
        self.text(
            Txt::new(WIDTH / 2.0, height / 2.0 + 16.0, "no data to chart")
                .anchor("middle")
                .muted(),
        );
    }

    fn text(&mut self, t: Txt<'_>) {
        let class = t.class;
        self.text_class(t, class);
    }

    fn text_class(&mut self, t: Txt<'_>, class: &str) {
        let out = &mut self.out;
        if let Some(tip) = t.tip {
            let _ = write!(out, "<g><title>{}</title>", esc(tip));
        }
        let (x, y) = (t.x, t.y);
        let place = if t.rotate {
            format!("transform=\"translate({x:.1} {y:.1}) rotate(-90)\"")
        } else {
            format!("x=\"{x:.1}\" y=\"{y:.1}\"")
        };
        let anchor = if t.anchor == "start" {
            String::new()
        } else {
            format!(" text-anchor=\"{}\"", t.anchor)
        };
        let halo = if t.halo { " dd-halo" } else { "" };
        let _ = write!(
            out,
            "<text {place} class=\"{class}{halo}\" font-size=\"{:.0}\"{anchor}>{}</text>",
            t.size,
            esc(t.text)
        );
        if t.tip.is_some() {
            out.push_str("</g>");
        }
        out.push('\n');
    }

    /// Lets plotters draw shapes into a group with `class` (which the style colours).
    fn plot(
        &mut self,
        class: &str,
        height: f64,
        draw: impl FnOnce(&mut SVGBackend<'_>) -> Result<()>,
    ) -> Result<()> {
        let mut buf = String::new();
        {
            let mut backend =
                SVGBackend::with_string(&mut buf, (WIDTH as u32, px(height).max(1) as u32));
            draw(&mut backend)?;
            backend.present().map_err(draw_err)?;
        }
        // plotters opens its own <svg> root on the first line; keep what is inside it
        let inner = buf.split_once('\n').map_or("", |(_, rest)| rest);
        let inner = inner.strip_suffix("</svg>\n").unwrap_or(inner);
        let _ = write!(self.out, "<g class=\"{class}\">\n{inner}</g>\n");
        Ok(())
    }

    /// A polyline in `class` with coordinates to a tenth of a unit.
    fn polyline(&mut self, class: &str, path: &[(f64, f64)], thick: bool) {
        let mut points = String::new();
        for (x, y) in path {
            let _ = write!(points, "{x:.1},{y:.1} ");
        }
        let width = if thick { 2 } else { 1 };
        let _ = writeln!(
            self.out,
            "<g class=\"{class}\"><polyline points=\"{}\" fill=\"none\" stroke=\"#808080\" stroke-width=\"{width}\"/></g>",
            points.trim_end()
        );
    }

    /// Tick labels under a horizontal axis at `axis_y`.
    fn ticks_below(&mut self, xs: &Scale, ticks: &[f64], axis_y: f64) {
        for t in ticks {
            let s = fmt_tick(*t, xs);
            self.text(
                Txt::new(xs.map(*t), axis_y + 18.0, &s)
                    .anchor("middle")
                    .size(SMALL_PX)
                    .muted(),
            );
        }
    }

    fn finish(mut self) -> Result<String> {
        self.out.push_str("</svg>\n");
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EVIL: &str = "<script>alert(1)</script> & \"quotes\"";

    fn bar(label: &str, median: f64, min: f64, max: f64, runs: usize) -> Bar {
        Bar {
            label: label.to_string(),
            median,
            min,
            max,
            runs,
        }
    }

    fn pct(label: &str, p50: f64, p99: f64, p99_9: f64) -> PercentileSeries {
        PercentileSeries {
            label: label.to_string(),
            p50: Some(p50),
            p99: Some(p99),
            p99_9: Some(p99_9),
        }
    }

    fn point(label: &str, price: f64, perf: f64) -> ValuePoint {
        ValuePoint {
            label: label.to_string(),
            price_per_gb: price,
            performance: perf,
        }
    }

    fn sample_bars() -> BarChart {
        BarChart {
            title: "Sequential block read (bonnie++)".to_string(),
            desc: "rackspace-2013 study.".to_string(),
            unit: "MB/s".to_string(),
            higher_is_better: true,
            bars: vec![
                bar("Rackspace SATA volume", 104.2, 98.0, 110.5, 5),
                bar("Rackspace SSD volume", 108.7, 90.1, 130.0, 5),
                bar(
                    "A provider with a really very long offering name indeed",
                    55.0,
                    0.0,
                    0.0,
                    1,
                ),
            ],
        }
    }

    fn sample_percentiles() -> PercentileChart {
        PercentileChart {
            title: "fio random read 4k QD64: completion latency".to_string(),
            desc: String::new(),
            unit: "ms".to_string(),
            series: vec![
                pct("Rackspace SATA volume", 2.1, 18.0, 45.0),
                pct("Rackspace SSD volume", 0.21, 0.9, 3.2),
                PercentileSeries {
                    label: "local NVMe".to_string(),
                    p50: Some(0.08),
                    p99: Some(0.3),
                    p99_9: None,
                },
            ],
        }
    }

    fn sample_value() -> ValueChart {
        ValueChart {
            title: "Random seeks vs price".to_string(),
            desc: String::new(),
            x_label: "price per GB-month (USD)".to_string(),
            y_label: "random seeks (ops/s)".to_string(),
            higher_is_better: true,
            points: vec![
                point("Rackspace SATA volume", 0.15, 310.0),
                point("Rackspace SSD volume", 0.70, 1302.0),
                point("local NVMe", 0.08, 9000.0),
                point("cheap HDD box", 0.02, 95.0),
            ],
            baseline: Some(0),
        }
    }

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"))
    }

    fn all_samples() -> Vec<String> {
        vec![
            bar_chart(&sample_bars()).unwrap(),
            percentile_chart(&sample_percentiles()).unwrap(),
            value_chart(&sample_value()).unwrap(),
        ]
    }

    /// The element children of `node`.
    fn kids<'a, 'i>(node: roxmltree::Node<'a, 'i>) -> Vec<roxmltree::Node<'a, 'i>> {
        node.children().filter(|n| n.is_element()).collect()
    }

    fn distance_to_path(p: (f64, f64), path: &[(f64, f64)]) -> f64 {
        path.windows(2)
            .map(|w| {
                let (a, b) = (w[0], w[1]);
                let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                let len2 = dx * dx + dy * dy;
                let t = if len2 == 0.0 {
                    0.0
                } else {
                    (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
                };
                let (cx, cy) = (a.0 + t * dx, a.1 + t * dy);
                ((p.0 - cx).powi(2) + (p.1 - cy).powi(2)).sqrt()
            })
            .fold(f64::INFINITY, f64::min)
    }

    #[test]
    fn cut_labels_of_one_provider_stay_distinguishable() {
        let a = fit("Cloud Block Storage Standard (SATA)", 150.0, LABEL_PX);
        let b = fit(
            "Cloud Block Storage High-Performance (SSD)",
            150.0,
            LABEL_PX,
        );
        assert_ne!(a, b);
        assert!(a.ends_with("(SATA)") && b.ends_with("(SSD)"), "{a} / {b}");
        assert!(a.starts_with("Cloud") && a.contains('…'));
        assert!(text_width(&a, LABEL_PX) <= 150.0);
        assert_eq!(fit("short", 150.0, LABEL_PX), "short");
    }

    #[test]
    fn hostile_labels_appear_only_escaped_in_every_chart() {
        let escaped = "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;";
        let mut bars = sample_bars();
        bars.title = EVIL.to_string();
        bars.desc = EVIL.to_string();
        bars.unit = EVIL.to_string();
        bars.bars[0].label = EVIL.to_string();
        let mut pcts = sample_percentiles();
        pcts.title = EVIL.to_string();
        pcts.unit = EVIL.to_string();
        pcts.series[1].label = EVIL.to_string();
        let mut value = sample_value();
        value.title = EVIL.to_string();
        value.x_label = EVIL.to_string();
        value.y_label = EVIL.to_string();
        value.points[0].label = EVIL.to_string();
        for svg in [
            bar_chart(&bars).unwrap(),
            percentile_chart(&pcts).unwrap(),
            value_chart(&value).unwrap(),
        ] {
            assert!(!svg.contains("<script"), "raw markup in:\n{svg}");
            assert!(!svg.contains("\"quotes\""), "raw quotes in:\n{svg}");
            assert!(
                svg.contains(escaped),
                "full escaped label missing in:\n{svg}"
            );
            let doc = parse(&svg);
            assert!(doc.descendants().all(|n| n.tag_name().name() != "script"));
            let title = kids(doc.root_element())[0];
            assert_eq!(title.text(), Some(EVIL), "the title round-trips as text");
            // the label's tooltip carries the whole label as text, not markup
            assert!(doc.descendants().any(|n| n.tag_name().name() == "title"
                && n.text().is_some_and(|t| t.starts_with(EVIL) && t != EVIL)));
        }
    }

    #[test]
    fn title_and_desc_come_first_and_label_the_image() {
        for svg in all_samples() {
            assert_eq!(
                svg.matches("<svg").count(),
                1,
                "plotters' own root is not kept"
            );
            let doc = parse(&svg);
            let root = doc.root_element();
            assert_eq!(root.tag_name().name(), "svg");
            assert_eq!(root.attribute("role"), Some("img"));
            assert_eq!(
                root.attribute("viewBox").map(|v| v.starts_with("0 0 720 ")),
                Some(true)
            );
            assert_eq!(root.attribute("width"), Some("100%"));
            let children = kids(root);
            let (title, desc) = (children[0], children[1]);
            assert_eq!(title.tag_name().name(), "title");
            assert_eq!(desc.tag_name().name(), "desc");
            let ids = format!(
                "{} {}",
                title.attribute("id").unwrap(),
                desc.attribute("id").unwrap()
            );
            assert_eq!(root.attribute("aria-labelledby"), Some(ids.as_str()));
            assert!(
                desc.text().is_some_and(|t| t.len() > 40),
                "desc says something"
            );
            for text in doc.descendants().filter(|n| n.tag_name().name() == "text") {
                let size: f64 = text.attribute("font-size").unwrap().parse().unwrap();
                assert!(size >= 12.0, "font-size {size} under 12");
            }
        }
        let svg = bar_chart(&sample_bars()).unwrap();
        let doc = parse(&svg);
        let desc = kids(doc.root_element())[1].text().unwrap().to_string();
        assert!(
            desc.starts_with("rackspace-2013 study. Median per offering in MB/s, higher is better"),
            "{desc}"
        );
        assert!(
            desc.contains("Rackspace SSD volume: 109 MB/s (5 runs)"),
            "{desc}"
        );
    }

    #[test]
    fn same_input_gives_the_same_bytes_and_ids_follow_the_data() {
        assert_eq!(all_samples(), all_samples());
        let a = bar_chart(&sample_bars()).unwrap();
        let mut other = sample_bars();
        other.bars[0].median = 105.0;
        let b = bar_chart(&other).unwrap();
        let id = |svg: &str| {
            parse(svg)
                .root_element()
                .attribute("aria-labelledby")
                .unwrap()
                .to_string()
        };
        assert_ne!(id(&a), id(&b), "two charts on one page must not share ids");
        assert!(id(&a).starts_with("dd-bar-"));
    }

    #[test]
    fn log_scale_only_when_values_span_ten_times() {
        assert!(Scale::fit(&[1.0, 10.0], 0.0, 100.0, true).log);
        assert!(!Scale::fit(&[1.0, 9.99], 0.0, 100.0, true).log);
        assert!(
            !Scale::fit(&[1.0, 1000.0], 0.0, 100.0, false).log,
            "bars stay linear"
        );
        assert!(
            Scale::fit(&[0.0, 5.0, 50.0], 0.0, 100.0, true).log,
            "zero does not count"
        );
        assert!(!Scale::fit(&[7.0], 0.0, 100.0, true).log, "a single point");
        assert!(!Scale::fit(&[], 0.0, 100.0, true).log);

        let wide = percentile_chart(&sample_percentiles()).unwrap();
        assert!(wide.contains("lower is better, logarithmic scale."));
        let mut narrow = sample_percentiles();
        narrow.series = vec![pct("a", 1.0, 2.0, 4.0), pct("b", 1.5, 3.0, 9.0)];
        let narrow = percentile_chart(&narrow).unwrap();
        assert!(narrow.contains("lower is better, linear scale."));

        let lay = value_layout(&sample_value());
        assert!(
            lay.xs.log && lay.ys.log,
            "0.02..0.70 and 95..9000 span decades"
        );
        let mut close = sample_value();
        close.points = vec![
            point("a", 0.10, 100.0),
            point("b", 0.15, 130.0),
            point("c", 0.3, 250.0),
        ];
        let lay = value_layout(&close);
        assert!(!lay.xs.log && !lay.ys.log, "3x and 2.5x do not");
        let mut mixed = close.clone();
        mixed.points[2].performance = 1000.0;
        let lay = value_layout(&mixed);
        assert!(!lay.xs.log && lay.ys.log);
    }

    #[test]
    fn scales_map_ends_and_decades_exactly() {
        let log = Scale::fit(&[1.0, 100.0], 100.0, 300.0, true);
        assert_eq!((log.lo, log.hi), (1.0, 100.0));
        assert_eq!(log.map(1.0), 100.0);
        assert_eq!(log.map(100.0), 300.0);
        assert!((log.map(10.0) - 200.0).abs() < 1e-9);
        let lin = Scale::fit(&[130.0, 20.0], 0.0, 300.0, true);
        assert_eq!((lin.lo, lin.hi, lin.step), (0.0, 150.0, 50.0));
        assert_eq!(lin.ticks(), vec![0.0, 50.0, 100.0, 150.0]);
        assert_eq!(lin.map(75.0), 150.0);
        assert_eq!(
            (nice_floor(0.023), nice_ceil(0.7), nice_ceil(310.0)),
            (0.02, 1.0, 500.0)
        );
        let wide = Scale::fit(&[0.02, 9000.0], 0.0, 1.0, true);
        assert_eq!((wide.lo, wide.hi), (0.02, 10000.0));
        assert_eq!(
            wide.ticks().len(),
            6,
            "1 tick per decade past three decades: {:?}",
            wide.ticks()
        );
    }

    #[test]
    fn the_equal_value_line_passes_through_the_baseline() {
        let mut cases = Vec::new();
        cases.push(sample_value()); // log-log, higher is better
        let mut linear = sample_value();
        linear.points = vec![
            point("a", 0.10, 100.0),
            point("b", 0.15, 130.0),
            point("c", 0.3, 250.0),
        ];
        linear.baseline = Some(1);
        cases.push(linear.clone());
        let mut latency = sample_value();
        latency.higher_is_better = false;
        latency.points = vec![
            point("SATA", 0.15, 18.0),
            point("SSD", 0.7, 0.9),
            point("NVMe", 0.3, 0.5),
        ];
        cases.push(latency.clone()); // linear price, log latency: a curve
        latency.points[2].price_per_gb = 0.03;
        cases.push(latency); // log-log, lower is better
        let mut checked = 0;
        for chart in &cases {
            let lay = value_layout(chart);
            let base = lay
                .points
                .iter()
                .find(|p| p.baseline)
                .expect("baseline drawn");
            let one = lay
                .lines
                .iter()
                .find(|l| l.multiple == 1.0)
                .expect("1x line");
            let d = distance_to_path((base.x, base.y), &one.path);
            assert!(
                d < 0.2,
                "1x line misses the baseline by {d} ({}/{})",
                lay.xs.kind(),
                lay.ys.kind()
            );
            let b = &chart.points[chart.baseline.unwrap()];
            // m times the value: same price, m times (or 1/m for latency) the performance
            for m in [0.5, 2.0] {
                let perf = if chart.higher_is_better {
                    b.performance * m
                } else {
                    b.performance / m
                };
                if perf < lay.ys.lo || perf > lay.ys.hi {
                    continue; // off the plot, where the line is clipped
                }
                let line = lay
                    .lines
                    .iter()
                    .find(|l| l.multiple == m)
                    .expect("line drawn");
                let d =
                    distance_to_path((lay.xs.map(b.price_per_gb), lay.ys.map(perf)), &line.path);
                assert!(d < 0.2, "{m}x line off by {d}");
                checked += 1;
            }

            // and in the drawing itself: the 1x polyline against the baseline's ring
            let svg = value_chart(chart).unwrap();
            let doc = parse(&svg);
            let group = |class: &str| {
                doc.descendants()
                    .find(|n| n.attribute("class") == Some(class))
                    .expect("group present")
            };
            let poly = kids(group("dd-eq1"))[0];
            let path: Vec<(f64, f64)> = poly
                .attribute("points")
                .unwrap()
                .split_whitespace()
                .map(|xy| {
                    let (x, y) = xy.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            let ring = kids(group("dd-ink"))[0];
            let at = |a: &str| ring.attribute(a).unwrap().parse::<f64>().unwrap();
            let d = distance_to_path((at("cx"), at("cy")), &path);
            assert!(d < 1.0, "drawn 1x line misses the drawn baseline by {d}");
        }
        assert!(checked >= 5, "only {checked} 0.5x/2x checks ran");
    }

    #[test]
    fn no_lines_without_a_drawable_baseline() {
        let mut chart = sample_value();
        chart.baseline = None;
        assert!(value_layout(&chart).lines.is_empty());
        chart.baseline = Some(99);
        let lay = value_layout(&chart);
        assert!(lay.lines.is_empty());
        assert!(lay
            .desc
            .contains("No equal-value lines: the baseline is not drawn."));
        chart.baseline = Some(0);
        chart.points[0].price_per_gb = 0.0;
        let lay = value_layout(&chart);
        assert!(lay.lines.is_empty());
        assert!(
            lay.desc
                .contains("Rackspace SATA volume not drawn: price 0"),
            "{}",
            lay.desc
        );
    }

    #[test]
    fn fifty_offerings_stay_well_under_100_kb() {
        let name = |i: usize| format!("Provider number {i} block storage, premium tier");
        let bars = BarChart {
            bars: (0..50)
                .map(|i| bar(&name(i), 100.0 + i as f64, 90.0, 150.0 + i as f64, 5))
                .collect(),
            ..sample_bars()
        };
        let pcts = PercentileChart {
            series: (0..50)
                .map(|i| {
                    pct(
                        &name(i),
                        0.1 * (i + 1) as f64,
                        1.0 + i as f64,
                        10.0 + i as f64,
                    )
                })
                .collect(),
            ..sample_percentiles()
        };
        let value = ValueChart {
            points: (0..50)
                .map(|i| point(&name(i), 0.01 * (i + 1) as f64, 100.0 * (50 - i) as f64))
                .collect(),
            ..sample_value()
        };
        for svg in [
            bar_chart(&bars).unwrap(),
            percentile_chart(&pcts).unwrap(),
            value_chart(&value).unwrap(),
        ] {
            assert!(svg.len() < 100_000, "{} bytes", svg.len());
            let texts = parse(&svg)
                .descendants()
                .filter(|n| n.tag_name().name() == "text")
                .count();
            assert!(texts >= 50, "every offering labelled: {texts} texts");
        }
    }

    #[test]
    fn bad_input_gives_a_valid_svg_that_says_what_was_left_out() {
        let empty_bars = bar_chart(&BarChart {
            bars: vec![],
            ..sample_bars()
        })
        .unwrap();
        let empty_pct = percentile_chart(&PercentileChart {
            series: vec![],
            ..sample_percentiles()
        })
        .unwrap();
        let empty_value = value_chart(&ValueChart {
            points: vec![],
            baseline: Some(0),
            ..sample_value()
        })
        .unwrap();
        for svg in [&empty_bars, &empty_pct, &empty_value] {
            parse(svg);
            assert!(svg.contains(">no data to chart</text>"));
        }

        let bars = BarChart {
            bars: vec![
                bar("nan", f64::NAN, 1.0, 2.0, 3),
                bar("negative", -5.0, -6.0, -4.0, 3),
                bar("inf", f64::INFINITY, 1.0, 2.0, 3),
                bar("zero", 0.0, 0.0, 0.0, 2),
                bar("odd spread", 5.0, f64::NAN, -1.0, 3),
            ],
            ..sample_bars()
        };
        let svg = bar_chart(&bars).unwrap();
        let desc = kids(parse(&svg).root_element())[1]
            .text()
            .unwrap()
            .to_string();
        for name in ["nan", "negative", "inf"] {
            assert!(desc.contains(&format!("{name} not drawn")), "{desc}");
        }
        assert!(
            desc.contains("zero: 0 MB/s (2 runs)") && desc.contains("odd spread: 5.00 MB/s"),
            "{desc}"
        );

        let pcts = PercentileChart {
            series: vec![
                PercentileSeries {
                    label: "zero p50".into(),
                    p50: Some(0.0),
                    p99: Some(2.0),
                    p99_9: Some(50.0),
                },
                PercentileSeries {
                    label: "nothing".into(),
                    p50: None,
                    p99: None,
                    p99_9: Some(f64::NAN),
                },
            ],
            ..sample_percentiles()
        };
        let svg = percentile_chart(&pcts).unwrap();
        let desc = kids(parse(&svg).root_element())[1]
            .text()
            .unwrap()
            .to_string();
        assert!(desc.contains("logarithmic"), "{desc}");
        assert!(
            desc.contains("zero p50 p50 = 0 not drawn (not a positive number, on a log scale)"),
            "{desc}"
        );
        assert!(desc.contains("nothing p99.9 = NaN not drawn"), "{desc}");
        assert!(svg.contains(">no data</text>"), "the empty row says so");

        let value = ValueChart {
            points: vec![
                point("only", 0.5, 100.0),
                point("free", 0.0, 10.0),
                point("broken", 0.2, f64::NAN),
            ],
            baseline: Some(0),
            ..sample_value()
        };
        let svg = value_chart(&value).unwrap();
        let desc = kids(parse(&svg).root_element())[1]
            .text()
            .unwrap()
            .to_string();
        assert!(
            desc.contains("free not drawn") && desc.contains("broken not drawn"),
            "{desc}"
        );
        assert!(
            desc.contains("only: 0.500 price per GB-month (USD), 100 random seeks (ops/s)"),
            "{desc}"
        );

        // extremes of the number line and of the label space never panic
        let weird = "\u{0}\u{1b}[31m\u{FFFF}tab\there\nnewline 🚀 日本語のラベル";
        let value = ValueChart {
            points: vec![
                point(weird, f64::MIN_POSITIVE, 1e-300),
                point("huge", 1e300, f64::MAX),
            ],
            baseline: Some(1),
            ..sample_value()
        };
        parse(&value_chart(&value).unwrap());
        let bars = BarChart {
            bars: vec![bar(weird, f64::MAX, 0.0, f64::MAX, 2)],
            ..sample_bars()
        };
        parse(&bar_chart(&bars).unwrap());
    }

    #[test]
    fn huge_lists_are_cut_to_what_fits_and_say_so() {
        let bars = BarChart {
            bars: (0..10_000)
                .map(|i| bar(&format!("b{i}"), i as f64, 0.0, 0.0, 1))
                .collect(),
            ..sample_bars()
        };
        let svg = bar_chart(&bars).unwrap();
        parse(&svg);
        assert!(svg.len() < 150_000, "{} bytes", svg.len());
        assert!(svg.contains(">9800 more not shown</text>"));
        assert!(svg.contains("9800 more bars not drawn (at most 200 fit)"));
        let pcts = PercentileChart {
            series: (0..5_000)
                .map(|i| pct(&format!("s{i}"), 1.0, 2.0, 3.0))
                .collect(),
            ..sample_percentiles()
        };
        let svg = percentile_chart(&pcts).unwrap();
        parse(&svg);
        assert!(svg.contains(">4800 more not shown</text>"));
        let value = ValueChart {
            points: (0..5_000)
                .map(|i| point(&format!("p{i}"), 1.0 + i as f64, 1.0))
                .collect(),
            ..sample_value()
        };
        let svg = value_chart(&value).unwrap();
        parse(&svg);
        assert!(svg.contains("4800 more offerings not drawn (at most 200 fit)"));
    }

    #[test]
    fn long_labels_are_cut_in_the_middle_with_the_whole_label_as_tooltip() {
        let long = "A provider with a really very long offering name indeed";
        let svg = bar_chart(&sample_bars()).unwrap();
        let doc = parse(&svg);
        let label = doc
            .descendants()
            .find(|n| {
                n.tag_name().name() == "text"
                    && n.text()
                        .is_some_and(|t| t.contains('…') && t.ends_with(" (1 run)"))
            })
            .expect("cut label with the single run marked");
        let shown = label.text().unwrap();
        let (head, tail) = shown.trim_end_matches(" (1 run)").split_once('…').unwrap();
        assert!(head.len() > 5 && tail.len() > 5, "{shown}");
        assert!(long.starts_with(head) && long.ends_with(tail), "{shown}");
        assert!(text_width(shown, LABEL_PX) <= LABEL_RIGHT - 8.0);
        let tip = kids(label.parent().unwrap())[0];
        assert_eq!(
            tip.text(),
            Some(format!("{long}: median 55.0 MB/s (1 run)").as_str())
        );
        // only the single run is marked in the drawing
        assert_eq!(svg.matches("(1 run)</text>").count(), 1);
        assert_eq!(fit("short", 100.0, 12.0), "short");
    }

    #[test]
    fn numbers_have_fixed_precision() {
        let cases = [
            (104.2, "104"),
            (55.0, "55.0"),
            (1.234, "1.23"),
            (0.21, "0.210"),
            (0.00012, "1.20e-4"),
            (0.0, "0"),
            (-3.5, "-3.50"),
        ];
        for (v, want) in cases {
            assert_eq!(fmt_num(v), want);
        }
        let lin = Scale::fit(&[0.3], 0.0, 1.0, false);
        assert_eq!(
            lin.ticks()
                .iter()
                .map(|t| fmt_tick(*t, &lin))
                .collect::<Vec<_>>(),
            ["0", "0.1", "0.2", "0.3"]
        );
    }

    /// Writes the sample charts for a look in a browser:
    /// `DISKDASH_CHART_SAMPLES=/some/dir cargo test --lib charts -- --ignored`.
    #[test]
    #[ignore]
    fn write_samples() {
        let Ok(dir) = std::env::var("DISKDASH_CHART_SAMPLES") else {
            return;
        };
        let dir = std::path::Path::new(&dir);
        let mut many = sample_value();
        many.points = (0..50)
            .map(|i| {
                point(
                    &format!("offering {i}"),
                    0.02 * (1.0 + i as f64 * 0.3),
                    50.0 * (1.0 + (i * 7 % 13) as f64),
                )
            })
            .collect();
        let mut evil = sample_bars();
        evil.bars.push(bar(EVIL, 1.0, 0.5, 2.0, 3));
        let mut latency = sample_value();
        latency.higher_is_better = false;
        latency.y_label = "read latency p99 (ms)".to_string();
        latency.points = vec![
            point("SATA", 0.15, 18.0),
            point("SSD", 0.7, 0.9),
            point("NVMe", 0.08, 0.3),
        ];
        let mut linear = sample_value();
        linear.points = vec![
            point("A", 0.10, 100.0),
            point("B", 0.15, 130.0),
            point("C", 0.3, 250.0),
        ];
        let charts = [
            ("bar.svg", bar_chart(&sample_bars())),
            ("bar-evil.svg", bar_chart(&evil)),
            ("pct.svg", percentile_chart(&sample_percentiles())),
            ("value.svg", value_chart(&sample_value())),
            ("value-50.svg", value_chart(&many)),
            ("value-latency.svg", value_chart(&latency)),
            ("value-linear.svg", value_chart(&linear)),
        ];
        for (name, svg) in charts {
            let svg = svg.expect("chart draws");
            crate::fsio::write_atomic(&dir.join(name), svg.as_bytes()).expect("sample written");
        }
    }
}
