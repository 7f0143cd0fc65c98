//! SVG charts drawn with plotters. The only producer of markup that pages
//! embed unescaped: every label passed in is escaped here.
//!
//! Values come in already scaled to the display unit named in `unit`
//! (the caller picks MB/s, ms, ... in `report::format`).

use anyhow::{bail, Result};

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

/// Draws a bar chart as a standalone SVG document.
pub fn bar_chart(_chart: &BarChart) -> Result<String> {
    bail!("charts are not drawn yet")
}

/// Draws a latency percentile chart as a standalone SVG document.
pub fn percentile_chart(_chart: &PercentileChart) -> Result<String> {
    bail!("charts are not drawn yet")
}

/// Draws the price vs performance chart as a standalone SVG document.
pub fn value_chart(_chart: &ValueChart) -> Result<String> {
    bail!("charts are not drawn yet")
}
