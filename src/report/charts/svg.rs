//! Writing the SVG document: the root, `<title>`, `<desc>`, theme style and
//! text elements, and the groups shapes are drawn into.

use std::fmt::Write as _;

use anyhow::Result;

use super::scale::{fmt_tick, Scale};
use super::text::*;
use super::*;
use crate::format::push_fixed;

/// The `<style>` of a chart in `theme`. Scoped to `.dd-chart` because an
/// inline SVG's `<style>` applies to the whole page; CSS beats the colour
/// attributes the shapes carry. Series colours are the classes `dd-c0`..`dd-c5`.
pub(super) fn css(theme: Theme) -> &'static str {
    // the same three strings in every chart: made once
    static CSS: std::sync::OnceLock<[String; 3]> = std::sync::OnceLock::new();
    let [auto, light, dark] =
        CSS.get_or_init(|| [Theme::Auto, Theme::Light, Theme::Dark].map(make_css));
    match theme {
        Theme::Auto => auto,
        Theme::Light => light,
        Theme::Dark => dark,
    }
}

fn make_css(theme: Theme) -> String {
    let mut out = String::from(
        ".dd-chart text{font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",Arial,sans-serif}\
.dd-chart .dd-h{font-weight:600}\
.dd-chart .dd-halo{paint-order:stroke;stroke-width:3px;stroke-linejoin:round}\
.dd-chart .dd-eq *{stroke-dasharray:6 4}",
    );
    let light = || colours(LIGHT_BG, "#1f2328", "#57606a", "#d8dee4", &PALETTE);
    let dark = || colours(DARK_BG, "#e6edf3", "#9da7b3", "#30363d", &DARK_PALETTE);
    match theme {
        Theme::Auto => {
            out.push_str(&light());
            let _ = write!(out, "@media (prefers-color-scheme:dark){{{}}}", dark());
        }
        Theme::Light => out.push_str(&light()),
        Theme::Dark => out.push_str(&dark()),
    }
    out
}

/// `doc`, drawn in [`Theme::Auto`], in `theme` instead: the one `<style>`
/// element it opens with holds the other theme's rules. Its title and
/// description come before the style but are escaped, so they never hold
/// `<style>` themselves.
pub(super) fn restyle(doc: &str, theme: Theme) -> String {
    const OPEN: &str = "<style>";
    const CLOSE: &str = "</style>";
    let auto = css(Theme::Auto);
    // the first `<style>` is the element, so the style is found without
    // searching for all of it
    let (head, tail) = match doc.find(OPEN) {
        Some(at)
            if doc[at + OPEN.len()..].starts_with(auto)
                && doc[at + OPEN.len() + auto.len()..].starts_with(CLOSE) =>
        {
            (
                &doc[..at],
                &doc[at + OPEN.len() + auto.len() + CLOSE.len()..],
            )
        }
        _ => match doc.split_once(&format!("{OPEN}{auto}{CLOSE}")) {
            Some(parts) => parts,
            None => return doc.to_string(),
        },
    };
    let style = css(theme);
    let mut out = String::with_capacity(head.len() + style.len() + tail.len() + 15);
    out.push_str(head);
    out.push_str(OPEN);
    out.push_str(style);
    out.push_str(CLOSE);
    out.push_str(tail);
    out
}

/// The colour rules of one theme: background, text, muted text and lines,
/// grid, and the series palette.
fn colours(bg: Rgb, fg: &str, muted: &str, grid: &str, palette: &[Rgb]) -> String {
    let bg = hex(bg);
    let mut out = format!(
        ".dd-chart .dd-bg{{fill:{bg}}}.dd-chart .dd-t{{fill:{fg}}}.dd-chart .dd-m{{fill:{muted}}}\
.dd-chart .dd-halo{{stroke:{bg}}}.dd-chart .dd-grid *{{stroke:{grid}}}.dd-chart .dd-axis *{{stroke:{muted}}}\
.dd-chart .dd-ink *{{stroke:{fg}}}.dd-chart .dd-eq *{{stroke:{muted}}}.dd-chart .dd-eq1 *{{stroke:{fg}}}"
    );
    for (i, c) in palette.iter().enumerate() {
        let _ = write!(out, ".dd-chart .dd-c{i} *{{fill:{}}}", hex(*c));
    }
    out
}

/// `#rrggbb`.
pub(super) fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// Escapes text for SVG content and attribute values; characters XML 1.0
/// forbids become U+FFFD so the document always parses.
pub(super) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_esc(&mut out, s);
    out
}

/// [`esc`] of `s`, appended to `out`.
pub(super) fn push_esc(out: &mut String, s: &str) {
    // runs of characters that stay as they are go in at once; a byte at a
    // time, as every character to replace but two is ASCII
    let mut plain = 0;
    for (i, b) in s.bytes().enumerate() {
        let replacement = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            b'\t' | b'\n' | b'\r' | 0x20..=0x7F => continue,
            // the rest of the control characters
            0x00..=0x1F => "\u{FFFD}",
            // U+FFFE and U+FFFF, not characters XML allows, start with 0xEF
            // (and surrogates cannot be in a `str`); every other byte
            // beyond ASCII is part of a character XML allows
            0xEF if matches!(s[i..].chars().next(), Some('\u{FFFE}' | '\u{FFFF}')) => "\u{FFFD}",
            _ => continue,
        };
        // `i` starts a character: an ASCII byte, or the lead byte 0xEF
        out.push_str(&s[plain..i]);
        out.push_str(replacement);
        plain = i + if b < 0x80 { 1 } else { 3 };
    }
    out.push_str(&s[plain..]);
}

/// A text element to write: position, look, content and an optional tooltip.
pub(super) struct Txt<'a> {
    x: f64,
    y: f64,
    text: &'a str,
    size: f64,
    class: &'static str,
    anchor: &'static str,
    tip: Option<&'a str>,
    rotate: bool,
    halo: bool,
    label_for: Option<usize>,
}

impl<'a> Txt<'a> {
    pub(super) fn new(x: f64, y: f64, text: &'a str) -> Self {
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
            label_for: None,
        }
    }
    pub(super) fn size(mut self, size: f64) -> Self {
        self.size = size;
        self
    }
    pub(super) fn anchor(mut self, anchor: &'static str) -> Self {
        self.anchor = anchor;
        self
    }
    pub(super) fn muted(mut self) -> Self {
        self.class = "dd-m";
        self
    }
    pub(super) fn tip(mut self, tip: &'a str) -> Self {
        self.tip = Some(tip);
        self
    }
    pub(super) fn rotate(mut self) -> Self {
        self.rotate = true;
        self
    }
    /// Marks the text `data-label-for="index"`: the label of the point drawn
    /// with [`Shapes::draw_point`] and that index.
    pub(super) fn label_for(mut self, index: usize) -> Self {
        self.label_for = Some(index);
        self
    }
    /// Outlines the text in the background colour, for text drawn over lines.
    pub(super) fn halo(mut self) -> Self {
        self.halo = true;
        self
    }
}

/// Line height of a chart title.
const TITLE_LINE: f64 = 20.0;

/// Lines a title wraps onto at most before it is cut: enough for a
/// configuration, a test, a metric, a machine and a run at 360 wide.
const TITLE_MAX_LINES: usize = 6;

/// How much wider a title is drawn than [`text_width`] estimates: titles
/// are bold, which takes some 10% more room than the regular weight.
const TITLE_BOLD: f64 = 1.1;

/// The title as drawn: on as many lines as `width` needs, up to
/// [`TITLE_MAX_LINES`], broken at spaces.
pub(super) fn title_lines(title: &str, width: f64) -> Vec<String> {
    wrap_lines(
        &one_line(title),
        (width - 24.0) / TITLE_BOLD,
        TITLE_PX,
        TITLE_MAX_LINES,
    )
}

/// How much lower than with a one-line title a chart's content starts.
pub(super) fn title_drop(title: &str, look: Look) -> f64 {
    TITLE_LINE * (title_lines(title, look.width()).len().max(1) - 1) as f64
}

/// The SVG document being written: our own root, `<title>`, `<desc>`, style
/// and text, with the shapes drawn into groups inside it.
pub(super) struct Doc {
    out: String,
    width: f64,
    /// Whether the content is in a group moved down below the title's extra
    /// lines, to be closed when the document is.
    shifted: bool,
}

impl Doc {
    /// Starts the document; ids come from `key` (hashed from the chart's fields),
    /// so they are stable and differ between charts inlined on one page.
    /// The narrow variant's ids end in `-n`, as both variants are inlined on one page.
    pub(super) fn begin(
        look: Look,
        kind: &str,
        key: ChartId,
        height: f64,
        title: &str,
        desc: &str,
    ) -> Doc {
        Doc::begin_as(look, kind, key, height, title, desc, false)
    }

    /// Starts a chart whose layout leaves room for a one-line title only:
    /// in the wide look, and in the narrow look as the wide layout at its
    /// full width (text stays 12 px as rendered), which the page lets scroll
    /// sideways inside its figure rather than shrinking it; ids and class
    /// are the narrow variant's. A title on more lines moves everything
    /// below it down and makes the chart that much taller than `height`.
    pub(super) fn begin_fixed(
        look: Look,
        kind: &str,
        key: ChartId,
        height: f64,
        title: &str,
        desc: &str,
    ) -> Doc {
        Doc::begin_as(look, kind, key, height, title, desc, true)
    }

    fn begin_as(
        look: Look,
        kind: &str,
        key: ChartId,
        height: f64,
        title: &str,
        desc: &str,
        wide_layout: bool,
    ) -> Doc {
        // drawn at the wide width in every look, and one-line title room
        let (fixed, shift) = (wide_layout && look.narrow, wide_layout);
        let mut id = format!("dd-{kind}-");
        id.push_str(&key.hex());
        if look.narrow {
            id.push_str("-n");
        }
        let width = if fixed { super::WIDTH } else { look.width() };
        let title = one_line(title);
        let lines = title_lines(&title, width);
        let drop = if shift {
            TITLE_LINE * (lines.len().max(1) - 1) as f64
        } else {
            0.0
        };
        let height = height + drop;
        let variant = match (look.narrow, fixed) {
            (true, true) => "dd-narrow dd-fixed",
            (true, false) => "dd-narrow",
            _ => "dd-wide",
        };
        // whole units, as `{:.0}` writes them
        let (w, h) = (
            crate::format::fixed(width, 0),
            crate::format::fixed(height, 0),
        );
        let size = if fixed {
            format!("width=\"{w}\" style=\"max-width:none;height:auto\"")
        } else {
            format!("width=\"100%\" style=\"max-width:{w}px;height:auto\"")
        };
        let style = css(look.theme);
        // a chart takes about 36 bytes per unit of height (a 50-row bar
        // chart 37 KB): room for it at once, instead of growing by doubling
        let mut out = String::with_capacity(6 * 1024 + 36 * height.clamp(0.0, 30_000.0) as usize);
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"dd-chart {variant}\" viewBox=\"0 0 {w} {h}\" \
{size} role=\"img\" aria-labelledby=\"{id}-title {id}-desc\">\n\
<title id=\"{id}-title\">{}</title>\n<desc id=\"{id}-desc\">{}</desc>\n<style>{style}</style>\n\
<rect class=\"dd-bg\" width=\"{w}\" height=\"{h}\"/>\n",
            esc(&title),
            esc(desc.trim())
        );
        let mut doc = Doc {
            out,
            width,
            shifted: drop > 0.0,
        };
        let cut = lines.join(" ") != title;
        for (i, line) in lines.iter().enumerate() {
            let mut t = Txt::new(12.0, 26.0 + TITLE_LINE * i as f64, line).size(TITLE_PX);
            t.tip = cut.then_some(title.as_str());
            doc.text_class(t, "dd-t dd-h");
        }
        if doc.shifted {
            doc.out.push_str("<g transform=\"translate(0 ");
            push_fixed(&mut doc.out, drop, 0);
            doc.out.push_str(")\">\n");
        }
        doc
    }

    /// Writes "no data" in the middle of an empty chart.
    pub(super) fn no_data(&mut self, height: f64) {
        self.text(
            Txt::new(self.width / 2.0, height / 2.0 + 16.0, "no data to chart")
                .anchor("middle")
                .muted(),
        );
    }

    /// Width of the viewBox.
    pub(super) fn width(&self) -> f64 {
        self.width
    }

    pub(super) fn text(&mut self, t: Txt<'_>) {
        let class = t.class;
        self.text_class(t, class);
    }

    pub(super) fn text_class(&mut self, t: Txt<'_>, class: &str) {
        let out = &mut self.out;
        if let Some(tip) = t.tip {
            out.push_str("<g><title>");
            push_esc(out, tip);
            out.push_str("</title>");
        }
        if t.rotate {
            out.push_str("<text transform=\"translate(");
            push_fixed(out, t.x, 1);
            out.push(' ');
            push_fixed(out, t.y, 1);
            out.push_str(") rotate(-90)\"");
        } else {
            out.push_str("<text x=\"");
            push_fixed(out, t.x, 1);
            out.push_str("\" y=\"");
            push_fixed(out, t.y, 1);
            out.push('"');
        }
        out.push_str(" class=\"");
        out.push_str(class);
        if t.halo {
            out.push_str(" dd-halo");
        }
        out.push_str("\" font-size=\"");
        push_fixed(out, t.size, 0);
        out.push('"');
        if let Some(i) = t.label_for {
            out.push_str(" data-label-for=\"");
            out.push_str(itoa::Buffer::new().format(i));
            out.push('"');
        }
        if t.anchor != "start" {
            out.push_str(" text-anchor=\"");
            out.push_str(t.anchor);
            out.push('"');
        }
        out.push('>');
        push_esc(out, t.text);
        out.push_str("</text>");
        if t.tip.is_some() {
            out.push_str("</g>");
        }
        out.push('\n');
    }

    /// Lets the chart draw shapes into a group with `class` (which the style colours).
    pub(super) fn plot(&mut self, class: &str, draw: impl FnOnce(&mut Shapes<'_>)) {
        self.out.push_str("<g class=\"");
        self.out.push_str(class);
        self.out.push_str("\">\n");
        draw(&mut Shapes { out: &mut self.out });
        self.out.push_str("</g>\n");
    }

    /// A polyline in `class` with coordinates to a tenth of a unit.
    pub(super) fn polyline(&mut self, class: &str, path: &[(f64, f64)], thick: bool) {
        let out = &mut self.out;
        out.push_str("<g class=\"");
        out.push_str(class);
        out.push_str("\"><polyline points=\"");
        for (i, (x, y)) in path.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            push_fixed(out, *x, 1);
            out.push(',');
            push_fixed(out, *y, 1);
        }
        out.push_str("\" fill=\"none\" stroke=\"#808080\" stroke-width=\"");
        out.push_str(if thick { "2" } else { "1" });
        out.push_str("\"/></g>\n");
    }

    /// A translucent neutral rectangle marking a span (a timeline's burst),
    /// readable on the light and the dark background alike.
    pub(super) fn shade(&mut self, x: f64, y: f64, w: f64, h: f64) {
        let out = &mut self.out;
        for (name, v) in [
            ("<rect x=\"", x),
            ("\" y=\"", y),
            ("\" width=\"", w),
            ("\" height=\"", h),
        ] {
            out.push_str(name);
            push_fixed(out, v, 1);
        }
        out.push_str("\" fill=\"#808080\" fill-opacity=\"0.18\"/>\n");
    }

    /// Tick labels under a horizontal axis at `axis_y`.
    pub(super) fn ticks_below(&mut self, xs: &Scale, ticks: &[f64], axis_y: f64) {
        for t in ticks {
            let s = fmt_tick(*t, xs);
            // a label centred on a tick near an edge is moved in to stay whole
            let half = text_width(&s, SMALL_PX) / 2.0;
            let x = xs.map(*t).min(self.width - 2.0 - half).max(2.0 + half);
            self.text(
                Txt::new(x, axis_y + 18.0, &s)
                    .anchor("middle")
                    .size(SMALL_PX)
                    .muted(),
            );
        }
    }

    pub(super) fn finish(mut self) -> Result<String> {
        if self.shifted {
            self.out.push_str("</g>\n");
        }
        self.out.push_str("</svg>\n");
        Ok(self.out)
    }
}
