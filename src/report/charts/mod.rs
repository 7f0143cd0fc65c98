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
//! input, ids included: each spec spells out the content key its ids are
//! hashed from.
//!
//! One file per chart family (`bar`, `percentile`, `value`), the row frame
//! that bar and percentile charts share (`rows`), axes (`scale`), the SVG
//! document (`svg`), text measuring and wording (`text`) and content keys
//! (`key`).

mod bar;
mod distribution;
mod key;
mod percentile;
mod qdepth;
mod rows;
mod scale;
mod svg;
mod text;
mod value;

#[cfg(test)]
mod tests;

pub use bar::{bar_chart, Bar, BarChart};
pub use distribution::{distribution_chart, pct_label, DistributionChart, DistributionSeries};
pub use percentile::{percentile_chart, PercentileChart, PercentileSeries};
pub use qdepth::{qd_chart, QdChart, QdPoint};
pub use value::{value_chart, ValueChart, ValuePoint};

use plotters::style::RGBColor;

/// Width of every chart in SVG user units; pages scale it with `width="100%"`.
const WIDTH: f64 = 720.0;

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
