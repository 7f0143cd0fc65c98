//! SVG charts, a family per file: `bar` (median with min-max whisker),
//! `percentile` (latency percentiles), `distribution` (latency against
//! percentile), `machines` (a configuration's machines side by side),
//! `timeline` (a run's level over time), `history` (a configuration's
//! measurements by date), `qdepth` (IOPS and latency against queue depth)
//! and `value` (price against performance with lines of equal value; its
//! layout in `value_layout`). The only producer of markup that pages embed
//! unescaped: every label passed in is escaped here.
//!
//! Values come in already scaled to the display unit named in `unit`
//! (the caller picks MB/s, ms, ... in `crate::format`).
//!
//! This module writes every byte of a chart itself: the `<svg>` root,
//! `<title>`/`<desc>`, a theme `<style>` (light and dark), every text
//! element, the equal-value curves, and the shapes (`shapes::Shapes`), so
//! no drawing library and no font library is linked. Text widths are estimated
//! on the wide side, since the reader's font is unknown. Each chart is drawn
//! in several looks ([`draw`]): 720 units wide, and 360 wide with its layout
//! reflowed (row labels above the marks, fewer ticks) for phone screens, so
//! that no text renders below 9 px; each in a theme that follows the reader's
//! colour scheme (inlined on pages) or a fixed light or dark one (standalone
//! files). Both scale with `width="100%"`. The output depends only on the
//! input, ids included: each spec feeds its field values to the hash its ids
//! are made of.
//!
//! Besides the families: the row frame that bar, percentile and machines
//! charts share (`rows`), axes (`scale`), the SVG document (`svg`), the
//! shapes (`shapes`), text measuring and wording (`text`) and chart ids
//! hashed from field values (`key`).

mod bar;
mod distribution;
mod history;
mod key;
mod machines;
mod percentile;
mod qdepth;
mod rows;
mod scale;
mod shapes;
mod svg;
mod text;
mod timeline;
mod value;
mod value_layout;

#[cfg(test)]
mod tests;

pub use bar::{bar_chart, Bar, BarChart};
pub use distribution::{distribution_chart, pct_label, DistributionChart, DistributionSeries};
pub use history::{history_chart, DatedMedian, HistoryChart};
pub use key::ChartId;
pub use machines::{MachineChart, MachineMark};
pub use percentile::{percentile_chart, PercentileChart, PercentileSeries};
pub use qdepth::{qd_chart, QdChart, QdPoint};
pub use timeline::{caption, timeline_chart, LatencyPanel, TimelineChart, Words};
pub use value::{value_chart, ValueChart, ValuePoint};

use anyhow::Result;
use shapes::{px, stroke, Rgb, Shapes};

/// Width of a wide chart in SVG user units; pages scale it with `width="100%"`.
const WIDTH: f64 = 720.0;
/// Width of the narrow variant, drawn for phone screens: at 358 px rendered
/// its 12-unit text is still 12 px, where the wide chart's would be 6.
const NARROW_WIDTH: f64 = 360.0;

/// Font sizes, never below 12 in either variant: a wide chart is shown down
/// to 569 px (a 601 px screen) and a narrow one at 358 px or more, so the
/// smallest text renders at 9 px or more.
const TITLE_PX: f64 = 16.0;
const LABEL_PX: f64 = 13.0;
const SMALL_PX: f64 = 12.0;

/// Series colours on the light background: Okabe-Ito without black and
/// yellow, with its orange and sky blue darkened (the originals reach only
/// 2.2:1 on white); every colour has 3:1 or more against `#fff`.
const PALETTE: [Rgb; 6] = [
    Rgb(0x00, 0x72, 0xB2),
    Rgb(0xB5, 0x7E, 0x00),
    Rgb(0x00, 0x9E, 0x73),
    Rgb(0xD5, 0x5E, 0x00),
    Rgb(0xCC, 0x79, 0xA7),
    Rgb(0x3A, 0x8F, 0xC6),
];
/// The same series on the dark background: the Okabe-Ito originals, each
/// 3:1 or more against `#0d1117`.
const DARK_PALETTE: [Rgb; 6] = [
    Rgb(0x00, 0x72, 0xB2),
    Rgb(0xE6, 0x9F, 0x00),
    Rgb(0x00, 0x9E, 0x73),
    Rgb(0xD5, 0x5E, 0x00),
    Rgb(0xCC, 0x79, 0xA7),
    Rgb(0x56, 0xB4, 0xE9),
];
/// Background of the light and the dark theme.
const LIGHT_BG: Rgb = Rgb(0xFF, 0xFF, 0xFF);
const DARK_BG: Rgb = Rgb(0x0D, 0x11, 0x17);
/// Drawn colour of grid, axes and whiskers; the `<style>` recolours them per theme,
/// this grey only shows where a host strips the style and reads on light and dark.
const NEUTRAL: Rgb = Rgb(0x80, 0x80, 0x80);

/// The colour scheme a chart is drawn in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Follows the reader's `prefers-color-scheme`: for SVG inlined in a page.
    Auto,
    /// Always light: standalone files, so a chart embedded in a light page
    /// never turns into a dark box.
    Light,
    /// Always dark: the standalone `-dark.svg` twin.
    Dark,
}

/// How a chart is drawn: its width variant and colour scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// The narrow variant (360 wide, reflowed) rather than the wide one (720).
    pub narrow: bool,
    pub theme: Theme,
}

impl Look {
    /// The wide chart, following the reader's colour scheme.
    pub const WIDE: Look = Look {
        narrow: false,
        theme: Theme::Auto,
    };

    /// Width of the chart's viewBox.
    fn width(self) -> f64 {
        if self.narrow {
            NARROW_WIDTH
        } else {
            WIDTH
        }
    }
}

/// A chart spec that can be drawn in any [`Look`].
pub trait Chart {
    /// The id the chart's elements are named with, hashed from its field
    /// values (see `key`), the same in every look.
    fn content_key(&self) -> ChartId;

    /// Draws the chart as a standalone SVG document whose ids come from
    /// `key`, its [`Chart::content_key`].
    fn draw_keyed(&self, look: Look, key: ChartId) -> Result<String>;

    /// Draws the chart as a standalone SVG document.
    fn draw(&self, look: Look) -> Result<String> {
        self.draw_keyed(look, self.content_key())
    }

    /// Draws the chart wide and narrow, following the reader's colour
    /// scheme, with ids from `key`; a chart whose words are the same at
    /// both widths works them out once.
    fn draw_widths(&self, key: ChartId) -> Result<[String; 2]> {
        let look = |narrow| Look {
            narrow,
            theme: Theme::Auto,
        };
        Ok([
            self.draw_keyed(look(false), key)?,
            self.draw_keyed(look(true), key)?,
        ])
    }
}

/// Every variant of one chart that the site needs.
#[derive(Clone, Debug, Default)]
pub struct Drawn {
    /// Wide, following the reader's colour scheme: inlined on pages.
    pub wide: String,
    /// Narrow, following the reader's colour scheme: inlined on pages, shown
    /// on small screens instead of `wide`.
    pub narrow: String,
    /// The standalone files: wide light, wide dark, narrow light, narrow dark.
    pub light: String,
    pub dark: String,
    pub narrow_light: String,
    pub narrow_dark: String,
}

/// Draws every variant of `chart`.
///
/// Each width is drawn once: a theme changes nothing but the `<style>`
/// element (`svg::css`), so the fixed light and dark files are the
/// reader-following drawing with its style swapped, byte for byte what
/// drawing them in their own look gives (a test holds every chart kind to
/// that).
pub fn draw(chart: &impl Chart) -> Result<Drawn> {
    // the key is spelt out once for both widths
    let key = chart.content_key();
    let [wide, narrow] = chart.draw_widths(key)?;
    Ok(Drawn {
        light: svg::restyle(&wide, Theme::Light),
        dark: svg::restyle(&wide, Theme::Dark),
        narrow_light: svg::restyle(&narrow, Theme::Light),
        narrow_dark: svg::restyle(&narrow, Theme::Dark),
        wide,
        narrow,
    })
}
