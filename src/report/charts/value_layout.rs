//! Where everything on a value chart goes: scales, points and their
//! labels, the lines of equal value and the numbered key, computed before
//! any drawing so that tests can check the geometry.

use super::scale::{fmt_tick, Scale};
use super::svg::title_drop;
use super::text::*;
use super::value::{ValueChart, ValuePoint, MAX_POINTS};
use super::*;

/// Where everything on a value chart goes, computed before any drawing so
/// that tests can check the geometry.
#[derive(Debug)]
pub(super) struct ValueLayout {
    pub(super) xs: Scale,
    pub(super) ys: Scale,
    pub(super) points: Vec<PlacedPoint>,
    pub(super) lines: Vec<EqualValueLine>,
    pub(super) desc: String,
    pub(super) visible_notes: Vec<String>,
    /// The numbered key, when direct labels would collide; empty otherwise.
    pub(super) key: Vec<KeyEntry>,
    pub(super) height: f64,
    /// The performance axis's caption, on as many lines as it needs:
    /// beside the plot (turned) in the wide look, above it in the narrow one.
    pub(super) y_caption: Vec<String>,
}

/// Line height of the performance axis's caption.
pub(super) const CAPTION_LINE: f64 = 15.0;

/// One entry of the numbered key: the number drawn at the point, and the
/// full name, on one or two lines, at (`x`, `y`) (the first baseline).
#[derive(Debug)]
pub(super) struct KeyEntry {
    pub(super) number: usize,
    pub(super) lines: Vec<String>,
    pub(super) x: f64,
    pub(super) y: f64,
}

/// Line height of key entries, and where the name starts after the dot and number.
pub(super) const KEY_LINE: f64 = 15.0;
pub(super) const KEY_INDENT: f64 = 40.0;

/// An offering's point and label on the value chart, in SVG units.
#[derive(Debug)]
pub(super) struct PlacedPoint {
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) baseline: bool,
    pub(super) shown: String,
    pub(super) tip: String,
    pub(super) label_x: f64,
    pub(super) label_y: f64,
    pub(super) anchor: &'static str,
}

/// A line of constant performance per price, `multiple` times the baseline's.
#[derive(Debug)]
pub(super) struct EqualValueLine {
    pub(super) multiple: f64,
    pub(super) path: Vec<(f64, f64)>,
    /// Right end of the line's label, on the line.
    pub(super) label_at: (f64, f64),
}

/// The layout of the wide chart.
#[cfg(test)]
pub(super) fn value_layout(chart: &ValueChart) -> ValueLayout {
    value_layout_in(chart, Look::WIDE)
}

/// The layout of `chart` drawn in `look`.
pub(super) fn value_layout_in(chart: &ValueChart, look: Look) -> ValueLayout {
    let width = look.width();
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
    let plot_height = if look.narrow { 300.0 } else { 368.0 };
    // whole words on as many lines as it takes, never cut in the middle of one
    let y_caption = wrap_lines(
        &format!(
            "{y_name} ({}{})",
            better_words(chart.higher_is_better),
            if Scale::fit(&perfs, 1.0, 0.0, true).log {
                ", log scale"
            } else {
                ""
            }
        ),
        if look.narrow {
            width - 24.0
        } else {
            plot_height
        },
        SMALL_PX,
        3,
    );
    let extra = CAPTION_LINE * (y_caption.len().max(1) - 1) as f64;
    let top = 52.0 + title_drop(&chart.title, look) + if look.narrow { 28.0 + extra } else { 0.0 };
    let bottom = top + plot_height;
    let ys = Scale::fit(&perfs, bottom, top, true);
    let widest_tick = ys
        .ticks()
        .iter()
        .map(|t| text_width(&fmt_tick(*t, &ys), SMALL_PX))
        .fold(0.0, f64::max);
    let (left, right) = if look.narrow {
        (12.0 + widest_tick + 10.0, width - 16.0)
    } else {
        (80.0 + extra, width - 24.0)
    };
    let xs = Scale::fit(&prices, left, right, true);
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
            visible_notes.extend(wrap(&text, width - 24.0, SMALL_PX));
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
        visible_notes.extend(wrap(&text, width - 24.0, SMALL_PX));
    }

    let mut points: Vec<PlacedPoint> = drawn
        .iter()
        .map(|(i, p, name)| {
            let baseline = Some(*i) == chart.baseline;
            let suffix = if baseline { " (baseline)" } else { "" };
            let shown = [name, suffix].concat();
            let tip = [
                &shown,
                ": ",
                &fmt_num(p.price_per_gb),
                " ",
                &x_name,
                ", ",
                &fmt_num(p.performance),
                " ",
                &y_name,
            ]
            .concat();
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
        // and no other line's label
        let spot = [1.0, 0.85, 0.7, 0.55, 0.4]
            .into_iter()
            .map(|f| along(&line.path, f))
            .find(|(x, y)| {
                let (l, r) = (x - 4.0 - w, x - 4.0);
                !points.iter().any(|p| {
                    p.x + 6.0 > l && p.x - 6.0 < r && p.y + 6.0 > y - 17.0 && p.y - 6.0 < y - 3.0
                }) && !fixed.iter().any(|(bl, br, by): &(f64, f64, f64)| {
                    l < *br && *bl < r && (y - 6.0 - by).abs() < 14.0
                })
            });
        line.label_at = spot.unwrap_or(line.label_at);
        // a label ending near the left edge is moved right to stay whole
        line.label_at.0 = line.label_at.0.max(2.0 + 4.0 + w);
        let (x, y) = line.label_at;
        fixed.push((x - 4.0 - w, x - 4.0, y - 6.0));
    }
    // full names beside the points when every one finds a free spot, else numbers and a key
    let mut key = Vec::new();
    let notes_end = bottom + 52.0 + 18.0 * visible_notes.len() as f64;
    if !place_labels(&mut points, fixed.clone(), width) {
        let columns = if look.narrow || points.len() < 4 {
            1
        } else {
            2
        };
        let column = (width - 24.0) / columns as f64;
        let per_column = points.len().div_ceil(columns);
        let mut y = notes_end + 16.0;
        let mut tops = vec![y; columns];
        for (i, p) in points.iter_mut().enumerate() {
            let c = i / per_column.max(1);
            y = tops[c];
            let lines = wrap_lines(&p.shown, column - KEY_INDENT - 8.0, SMALL_PX, 2);
            tops[c] += KEY_LINE * lines.len() as f64 + 6.0;
            key.push(KeyEntry {
                number: i + 1,
                lines,
                x: 12.0 + column * c as f64,
                y,
            });
            p.shown = (i + 1).to_string();
        }
        place_labels(&mut points, fixed, width);
    }
    let key_end = key
        .iter()
        .map(|k| k.y + KEY_LINE * (k.lines.len() as f64 - 1.0) + 10.0)
        .fold(notes_end, f64::max);

    let height = if points.is_empty() { 110.0 } else { key_end };
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
        key,
        height,
        y_caption,
    }
}

/// The screen path of `performance / price = multiple x baseline's`
/// (`performance * price` for lower-is-better metrics), clipped to the plot.
pub(super) fn equal_value_path(
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
/// Returns whether every label found a free spot inside `width`.
pub(super) fn place_labels(
    points: &mut [PlacedPoint],
    fixed: Vec<(f64, f64, f64)>,
    width: f64,
) -> bool {
    let mut all_free = true;
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
                && r <= width - 2.0
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
        all_free &= choice.is_some();
        let (right, ty, l, r) = choice.unwrap_or({
            if x + 10.0 + w <= width - 2.0 {
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
    all_free
}

/// The point a fraction `f` (0..=1) of the way along `path`, counting its points evenly.
pub(super) fn along(path: &[(f64, f64)], f: f64) -> (f64, f64) {
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
pub(super) fn line_words(multiple: f64) -> String {
    if multiple == 1.0 {
        "1x baseline value".to_string()
    } else {
        format!("{multiple}x value")
    }
}
