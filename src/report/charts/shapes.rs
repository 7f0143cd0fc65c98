//! Shapes drawn into a chart's document: lines, rectangles, circles,
//! polylines and polygons in whole units, each written as one element
//! straight into the document (attributes in a fixed order, colours in
//! upper-case hex). Drawing into a string cannot fail.

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Rgb(pub(super) u8, pub(super) u8, pub(super) u8);

/// How a shape is drawn: its colour and the width of its outline (1 for a
/// filled shape, where a circle still names it).
#[derive(Clone, Copy, Debug)]
pub(super) struct Style {
    colour: Rgb,
    width: u32,
}

impl Rgb {
    /// A filled shape of this colour.
    pub(super) fn filled(self) -> Style {
        Style {
            colour: self,
            width: 1,
        }
    }
}

/// A line style of `colour`, `width` units wide.
pub(super) fn stroke(colour: Rgb, width: u32) -> Style {
    Style { colour, width }
}

/// A coordinate in whole units; non-finite values become 0.
pub(super) fn px(v: f64) -> i32 {
    if v.is_finite() {
        v.round().clamp(-1e6, 1e6) as i32
    } else {
        0
    }
}

/// Shapes drawn into a chart's document (see [`super::svg::Doc::plot`]).
pub(super) struct Shapes<'a> {
    pub(super) out: &'a mut String,
}

impl Shapes<'_> {
    /// A line from `from` to `to`.
    pub(super) fn draw_line(&mut self, from: (i32, i32), to: (i32, i32), style: &Style) {
        self.out.push_str("<line opacity=\"1\"");
        self.colour("stroke", style.colour);
        self.number("stroke-width", i64::from(style.width));
        self.number("x1", from.0.into());
        self.number("y1", from.1.into());
        self.number("x2", to.0.into());
        self.number("y2", to.1.into());
        self.out.push_str("/>\n");
    }

    /// A rectangle from `upper_left` to `bottom_right`, filled or outlined.
    pub(super) fn draw_rect(
        &mut self,
        upper_left: (i32, i32),
        bottom_right: (i32, i32),
        style: &Style,
        fill: bool,
    ) {
        self.out.push_str("<rect");
        self.number("x", upper_left.0.into());
        self.number("y", upper_left.1.into());
        self.number("width", i64::from(bottom_right.0) - i64::from(upper_left.0));
        self.number(
            "height",
            i64::from(bottom_right.1) - i64::from(upper_left.1),
        );
        self.out.push_str(" opacity=\"1\"");
        self.fill_and_stroke(style.colour, fill);
        self.out.push_str("/>\n");
    }

    /// A circle of `radius` around `center`, filled or outlined.
    pub(super) fn draw_circle(
        &mut self,
        center: (i32, i32),
        radius: u32,
        style: &Style,
        fill: bool,
    ) {
        self.out.push_str("<circle");
        self.number("cx", center.0.into());
        self.number("cy", center.1.into());
        self.number("r", radius.into());
        self.out.push_str(" opacity=\"1\"");
        self.fill_and_stroke(style.colour, fill);
        self.number("stroke-width", i64::from(style.width));
        self.out.push_str("/>\n");
    }

    /// A filled circle like [`Shapes::draw_circle`]'s, marked
    /// `data-point="index"` so that a checker can find the label that names
    /// it (marked `data-label-for` with the same index).
    pub(super) fn draw_point(
        &mut self,
        center: (i32, i32),
        radius: u32,
        style: &Style,
        index: usize,
    ) {
        self.draw_circle(center, radius, style, true);
        // the circle just written ends in "/>\n"
        self.out.truncate(self.out.len() - 3);
        self.number("data-point", index as i64);
        self.out.push_str("/>\n");
    }

    /// A line through `path`.
    pub(super) fn draw_path(&mut self, path: impl IntoIterator<Item = (i32, i32)>, style: &Style) {
        self.out.push_str("<polyline fill=\"none\" opacity=\"1\"");
        self.colour("stroke", style.colour);
        self.number("stroke-width", i64::from(style.width));
        self.points(path);
        self.out.push_str("/>\n");
    }

    /// A filled polygon with corners `path`.
    pub(super) fn fill_polygon(
        &mut self,
        path: impl IntoIterator<Item = (i32, i32)>,
        style: &Style,
    ) {
        self.out.push_str("<polygon opacity=\"1\"");
        self.colour("fill", style.colour);
        self.points(path);
        self.out.push_str("/>\n");
    }

    /// ` fill` and ` stroke`: the colour on one, `none` on the other.
    fn fill_and_stroke(&mut self, colour: Rgb, fill: bool) {
        if fill {
            self.colour("fill", colour);
            self.out.push_str(" stroke=\"none\"");
        } else {
            self.out.push_str(" fill=\"none\"");
            self.colour("stroke", colour);
        }
    }

    /// ` name="#RRGGBB"`.
    fn colour(&mut self, name: &str, Rgb(r, g, b): Rgb) {
        const HEX: &[u8; 16] = b"0123456789ABCDEF";
        self.out.push(' ');
        self.out.push_str(name);
        self.out.push_str("=\"#");
        for v in [r, g, b] {
            self.out.push(HEX[usize::from(v >> 4)] as char);
            self.out.push(HEX[usize::from(v & 15)] as char);
        }
        self.out.push('"');
    }

    /// ` name="v"`.
    fn number(&mut self, name: &str, v: i64) {
        self.out.push(' ');
        self.out.push_str(name);
        self.out.push_str("=\"");
        push_int(self.out, v);
        self.out.push('"');
    }

    /// ` points="x,y x,y "`, a space after each point.
    fn points(&mut self, path: impl IntoIterator<Item = (i32, i32)>) {
        self.out.push_str(" points=\"");
        for (x, y) in path {
            push_int(self.out, x.into());
            self.out.push(',');
            push_int(self.out, y.into());
            self.out.push(' ');
        }
        self.out.push('"');
    }
}

/// `v` in decimal digits.
fn push_int(out: &mut String, v: i64) {
    out.push_str(itoa::Buffer::new().format(v));
}
