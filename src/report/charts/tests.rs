//! Chart tests: escaping, accessibility, determinism, scales, the
//! equal-value geometry, bad input and size limits.

use super::bar::*;
use super::percentile::*;
use super::scale::*;
use super::svg::{css, esc, hex};
use super::text::*;
use super::value::*;
use super::value_layout::*;
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
        assert_eq!(svg.matches("<svg").count(), 1, "one root element");
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
            let d = distance_to_path((lay.xs.map(b.price_per_gb), lay.ys.map(perf)), &line.path);
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

/// The text of the `<text>` elements of `doc` whose tooltip (the `<title>`
/// of their group) starts with `tip`, in order.
fn lines_with_tip(doc: &roxmltree::Document<'_>, tip: &str) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.tag_name().name() == "text")
        .filter(|n| {
            n.parent()
                .and_then(|g| kids(g).first().copied())
                .is_some_and(|t| {
                    t.tag_name().name() == "title" && t.text().is_some_and(|t| t.starts_with(tip))
                })
        })
        .map(|n| n.text().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn long_labels_wrap_to_two_lines_and_only_longer_ones_are_cut_at_the_end() {
    let sata = "Cloud Block Storage Standard (SATA)";
    let ssd = "Cloud Block Storage High-Performance (SSD)";
    let long = "A provider with a really very long offering name indeed, in a region far away, with a tier name that goes on";
    let mut chart = sample_bars();
    chart.bars = vec![
        bar(sata, 104.2, 98.0, 110.5, 5),
        bar(ssd, 108.7, 90.1, 130.0, 5),
        bar(long, 55.0, 0.0, 0.0, 1),
    ];
    for look in LOOKS {
        let svg = chart.draw(look).unwrap();
        let doc = parse(&svg);
        let room = super::rows::RowFrame::label_room(look);
        for name in [sata, ssd] {
            let lines = lines_with_tip(&doc, &format!("{name}:"));
            assert!(!lines.is_empty() && lines.len() <= 2, "{look:?} {lines:?}");
            assert_eq!(lines.join(" "), name, "{look:?}: the whole name, wrapped");
            for l in &lines {
                assert!(text_width(l, LABEL_PX) <= room, "{l}");
            }
        }
        let lines = lines_with_tip(&doc, &format!("{long}:"));
        assert_eq!(lines.len(), 2, "{look:?} {lines:?}");
        let shown = lines.join(" ");
        let kept = shown.strip_suffix('…').expect("cut at the end");
        assert!(long.starts_with(kept), "{shown}");
        // the tooltip keeps everything
        assert!(svg.contains(&format!("{long}: median 55.0 MB/s (1 run)")));
    }
    // only the single run is marked in the drawing
    let svg = bar_chart(&sample_bars()).unwrap();
    assert_eq!(svg.matches("(1\u{a0}run)</text>").count(), 1);
    assert_eq!(fit("short", 100.0, 12.0), "short");
}

#[test]
fn wrapping_breaks_at_spaces_and_inside_a_word_only_when_it_must() {
    assert_eq!(wrap_lines("short", 100.0, 12.0, 2), ["short"]);
    let w = text_width("aaaa bbbb", 12.0);
    assert_eq!(
        wrap_lines("aaaa bbbb cccc", w, 12.0, 2),
        ["aaaa bbbb", "cccc"]
    );
    let lines = wrap_lines("aaaa bbbb cccc dddd eeee", w, 12.0, 2);
    assert_eq!(lines[0], "aaaa bbbb");
    assert!(
        lines[1].ends_with('…') && lines[1].starts_with("cccc"),
        "{lines:?}"
    );
    assert!(text_width(&lines[1], 12.0) <= w);
    let word = "x".repeat(80);
    let lines = wrap_lines(&word, 100.0, 12.0, 2);
    assert_eq!(lines.len(), 2);
    assert!(
        lines.iter().all(|l| text_width(l, 12.0) <= 100.0),
        "{lines:?}"
    );
    assert!(wrap_lines("", 100.0, 12.0, 2).is_empty());
}

/// `wrap_lines` as first written, measuring every candidate line afresh:
/// the reference the incremental one must match to the byte.
fn wrap_lines_measured_afresh(s: &str, max: f64, px: f64, lines: usize) -> Vec<String> {
    fn cut(s: &str, max: f64, px: f64) -> String {
        if text_width(s, px) <= max {
            return s.to_string();
        }
        let room = max - text_width("…", px);
        let mut out = String::new();
        for c in s.chars() {
            out.push(c);
            if text_width(&out, px) > room {
                out.pop();
                break;
            }
        }
        format!("{}…", out.trim_end())
    }
    let lines = lines.max(1);
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut words: Vec<String> = Vec::new();
    for word in s
        .split(|c: char| c.is_whitespace() && c != '\u{a0}')
        .filter(|w| !w.is_empty())
    {
        let mut piece = String::new();
        for c in word.chars() {
            let mut next = piece.clone();
            next.push(c);
            if !piece.is_empty() && text_width(&next, px) > max {
                words.push(std::mem::take(&mut piece));
                piece.push(c);
            } else {
                piece = next;
            }
        }
        if !piece.is_empty() {
            words.push(piece);
        }
    }
    let mut i = 0;
    while i < words.len() {
        let candidate = if line.is_empty() {
            words[i].clone()
        } else {
            format!("{line} {}", words[i])
        };
        if line.is_empty() || text_width(&candidate, px) <= max {
            line = candidate;
            i += 1;
        } else {
            out.push(std::mem::take(&mut line));
            if out.len() == lines - 1 {
                let tail = words[i..].join(" ");
                line = cut(&tail, max, px);
                i = words.len();
            }
        }
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}

#[test]
fn wrapping_with_running_widths_matches_measuring_each_line_afresh() {
    // characters of every width class, ordinary and no-break spaces
    let alphabet: Vec<char> = "aiImMW0 7 (x)\u{a0}日本😀.,-Ab  ".chars().collect();
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut cut, mut whole) = (0, 0);
    for _ in 0..4000 {
        let len = (next() % 90) as usize;
        let s: String = (0..len)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .collect();
        // room from a few characters to a whole title line, at every text size
        let max = 8.0 + (next() % 700) as f64 * 0.5;
        let px = [SMALL_PX, LABEL_PX, TITLE_PX][(next() % 3) as usize];
        let lines = 1 + (next() % 4) as usize;
        let want = wrap_lines_measured_afresh(&s, max, px, lines);
        cut += usize::from(want.iter().any(|l| l.ends_with('…')));
        whole += usize::from(!s.is_empty() && want == [s.as_str()]);
        assert_eq!(
            wrap_lines(&s, max, px, lines),
            want,
            "{s:?} max {max} px {px} lines {lines}"
        );
    }
    // the cases cover lines cut at the end, and text that fits whole
    assert!(cut > 100, "{cut}");
    assert!(whole > 100, "{whole}");
}

/// Every look a chart is drawn in.
const LOOKS: [Look; 6] = [
    Look {
        narrow: false,
        theme: Theme::Auto,
    },
    Look {
        narrow: true,
        theme: Theme::Auto,
    },
    Look {
        narrow: false,
        theme: Theme::Light,
    },
    Look {
        narrow: false,
        theme: Theme::Dark,
    },
    Look {
        narrow: true,
        theme: Theme::Light,
    },
    Look {
        narrow: true,
        theme: Theme::Dark,
    },
];

/// The relative luminance of a colour (WCAG 2).
fn luminance(c: Rgb) -> f64 {
    let lin = |v: u8| {
        let v = v as f64 / 255.0;
        if v <= 0.03928 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c.0) + 0.7152 * lin(c.1) + 0.0722 * lin(c.2)
}

/// The WCAG contrast ratio of two colours.
fn contrast(a: Rgb, b: Rgb) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[test]
fn every_series_colour_has_3_to_1_contrast_in_its_theme() {
    assert_eq!(hex(LIGHT_BG), "#ffffff");
    assert_eq!(hex(DARK_BG), "#0d1117");
    for (c, light, dark) in PALETTE
        .iter()
        .zip(DARK_PALETTE)
        .map(|(l, d)| (l, contrast(*l, LIGHT_BG), contrast(d, DARK_BG)))
    {
        assert!(light >= 3.0, "{} on #fff: {light:.2}", hex(*c));
        assert!(
            dark >= 3.0,
            "dark twin of {} on #0d1117: {dark:.2}",
            hex(*c)
        );
    }
    // the colours drawn without a style read on both, too
    for c in PALETTE {
        assert!(contrast(c, DARK_BG) >= 3.0, "{} on #0d1117", hex(c));
    }
    // which is why orange and sky blue are darkened for the light theme
    assert!(contrast(Rgb(0xE6, 0x9F, 0x00), LIGHT_BG) < 3.0);
    assert!(contrast(Rgb(0x56, 0xB4, 0xE9), LIGHT_BG) < 3.0);
    // and the style uses these colours: light first, dark under the media query
    let auto = css(Theme::Auto);
    let (light, dark) = auto
        .split_once("@media (prefers-color-scheme:dark)")
        .unwrap();
    for i in 0..6 {
        assert!(light.contains(&format!(".dd-c{i} *{{fill:{}}}", hex(PALETTE[i]))));
        assert!(dark.contains(&format!(".dd-c{i} *{{fill:{}}}", hex(DARK_PALETTE[i]))));
    }
    assert_eq!(css(Theme::Light), light);
    assert!(!css(Theme::Dark).contains("prefers-color-scheme"));
    assert!(css(Theme::Dark).contains(".dd-bg{fill:#0d1117}"));
}

#[test]
fn standalone_looks_have_a_fixed_theme_and_the_inline_ones_follow_the_reader() {
    for svg in all_looks() {
        let (look, svg) = svg;
        let doc = parse(&svg);
        let style = doc
            .descendants()
            .find(|n| n.tag_name().name() == "style")
            .and_then(|n| n.text())
            .unwrap();
        assert_eq!(style, css(look.theme), "{look:?}");
        let root = doc.root_element();
        let want = if look.narrow { "0 0 360 " } else { "0 0 720 " };
        assert!(
            root.attribute("viewBox").unwrap().starts_with(want),
            "{look:?}"
        );
        let class = root.attribute("class").unwrap();
        assert_eq!(
            class,
            if look.narrow {
                "dd-chart dd-narrow"
            } else {
                "dd-chart dd-wide"
            }
        );
        // the two variants inlined on one page do not share ids
        let ids = root.attribute("aria-labelledby").unwrap();
        assert_eq!(ids.ends_with("-n-desc"), look.narrow, "{ids}");
    }
}

/// Every sample chart in every look.
fn all_looks() -> Vec<(Look, String)> {
    let mut out = Vec::new();
    for look in LOOKS {
        out.push((look, sample_bars().draw(look).unwrap()));
        out.push((look, sample_percentiles().draw(look).unwrap()));
        out.push((look, sample_value().draw(look).unwrap()));
        out.push((look, crowded_value().draw(look).unwrap()));
    }
    out
}

/// Fourteen configurations with long names that differ only at the end,
/// close together on both axes.
fn crowded_value() -> ValueChart {
    let mut chart = sample_value();
    chart.points = (0..14)
        .map(|i| {
            point(
                &format!(
                    "Cloud Block Storage Zone {} Tier {}",
                    i / 4,
                    [
                        "Standard (SATA)",
                        "Throughput (HDD)",
                        "High-Performance (SSD)",
                        "Premium (NVMe)"
                    ][i % 4]
                ),
                0.10 + 0.01 * i as f64,
                300.0 + 15.0 * (i * 5 % 7) as f64,
            )
        })
        .collect();
    chart
}

#[test]
fn text_renders_at_9_px_or_more_on_a_390_px_phone_and_on_wide_screens() {
    // a 390 px screen leaves 358 px for the chart; the wide chart is shown from 601 px (569 for the chart)
    for (look, svg) in all_looks() {
        let doc = parse(&svg);
        let view_w: f64 = doc
            .root_element()
            .attribute("viewBox")
            .unwrap()
            .split(' ')
            .nth(2)
            .unwrap()
            .parse()
            .unwrap();
        let shown_w = if look.narrow {
            358.0_f64.min(view_w)
        } else {
            569.0
        };
        let smallest = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "text")
            .map(|n| n.attribute("font-size").unwrap().parse::<f64>().unwrap())
            .fold(f64::INFINITY, f64::min);
        let rendered = smallest * shown_w / view_w;
        assert!(
            rendered >= 9.0,
            "{look:?}: smallest text {smallest} renders at {rendered:.1} px"
        );
        if !look.narrow {
            assert!(smallest * 720.0 / view_w >= 9.0);
        }
    }
}

#[test]
fn close_points_get_numbers_and_a_key_with_every_full_name() {
    // few points: each labelled with its full name, no two labels overlapping
    let lay = value_layout(&sample_value());
    assert!(lay.key.is_empty());
    for p in &lay.points {
        assert!(
            sample_value()
                .points
                .iter()
                .any(|q| p.shown.starts_with(&q.label)),
            "{}",
            p.shown
        );
    }
    let chart = crowded_value();
    for look in [LOOKS[0], LOOKS[1]] {
        let lay = value_layout_in(&chart, look);
        assert_eq!(lay.key.len(), 14, "{look:?}: crowded points get a key");
        for (i, (k, p)) in lay.key.iter().zip(&lay.points).enumerate() {
            assert_eq!(k.number, i + 1);
            assert_eq!(p.shown, (i + 1).to_string());
            let name = k.lines.join(" ");
            let suffix = if i == 0 { " (baseline)" } else { "" };
            assert_eq!(
                name,
                format!("{}{suffix}", chart.points[i].label),
                "the key names it in full"
            );
            // inside the chart, under the plot
            assert!(k.y > lay.ys.a + 40.0 && k.y < lay.height, "{k:?}");
            for l in &k.lines {
                assert!(
                    k.x + 40.0 + text_width(l, SMALL_PX) <= look.width() - 8.0,
                    "{l}"
                );
            }
        }
        // key entries do not overlap
        for (a, b) in lay.key.iter().zip(lay.key.iter().skip(1)) {
            if a.x == b.x {
                assert!(b.y >= a.y + 15.0 * a.lines.len() as f64, "{a:?} {b:?}");
            }
        }
        let svg = chart.draw(look).unwrap();
        let doc = parse(&svg);
        let texts: Vec<&str> = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "text")
            .filter_map(|n| n.text())
            .collect();
        for n in 1..=14 {
            assert!(
                texts.iter().filter(|t| **t == n.to_string()).count() >= 2,
                "number {n} at the point and in the key"
            );
        }
    }
}

#[test]
fn numbers_have_fixed_precision() {
    let cases = [
        (104.2, "104"),
        (55.0, "55.0"),
        (1.234, "1.23"),
        (0.21, "0.210"),
        (0.00012, "0.000120"),
        (158_584.0, "158,600"),
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
    // tick labels group thousands like every other number on the page
    let big = Scale::fit(&[2600.0], 0.0, 1.0, false);
    let labels: Vec<String> = big.ticks().iter().map(|t| fmt_tick(*t, &big)).collect();
    assert_eq!(labels, ["0", "1,000", "2,000", "3,000"]);
    assert_eq!(fmt_tick(-12_500.0, &big), "-12,500");
}

/// Writes the sample charts for a look in a browser:
/// `DISKDASH_CHART_SAMPLES=/some/dir cargo test --lib charts -- --ignored`.
#[test]
#[ignore = "writes sample charts to look at: set DISKDASH_CHART_SAMPLES"]
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
        ("bar", super::draw(&sample_bars())),
        ("bar-evil", super::draw(&evil)),
        ("pct", super::draw(&sample_percentiles())),
        ("value", super::draw(&sample_value())),
        ("value-14", super::draw(&crowded_value())),
        ("value-50", super::draw(&many)),
        ("value-latency", super::draw(&latency)),
        ("value-linear", super::draw(&linear)),
    ];
    for (name, drawn) in charts {
        let d = drawn.expect("chart draws");
        for (suffix, svg) in [
            ("", &d.light),
            ("-dark", &d.dark),
            ("-narrow", &d.narrow_light),
            ("-narrow-dark", &d.narrow_dark),
        ] {
            let file = dir.join(format!("{name}{suffix}.svg"));
            crate::fsio::write_atomic(&file, svg.as_bytes()).expect("sample written");
        }
    }
}

#[test]
fn ids_are_hashed_from_every_field_value() {
    let bars = BarChart {
        title: "t".to_string(),
        desc: "a \"d\"".to_string(),
        unit: "MB/s".to_string(),
        higher_is_better: true,
        bars: vec![bar("A", 1.5, 1.0, 2.0, 3)],
    };
    let id = bars.content_key();
    assert_eq!(
        id,
        bars.clone().content_key(),
        "the same fields, the same id"
    );
    // changing any one field moves the id
    let changed: [fn(&mut BarChart); 10] = [
        |c| c.title.push('x'),
        |c| c.desc.push('x'),
        |c| c.unit.push('x'),
        |c| c.higher_is_better = false,
        |c| c.bars[0].label.push('x'),
        |c| c.bars[0].median = 1.5000000000000002,
        |c| c.bars[0].min = -0.0,
        |c| c.bars[0].max = 2.5,
        |c| c.bars[0].runs = 4,
        |c| c.bars.push(bar("A", 1.5, 1.0, 2.0, 3)),
    ];
    for (i, change) in changed.iter().enumerate() {
        let mut other = bars.clone();
        change(&mut other);
        assert_ne!(other.content_key(), id, "change {i} kept the id");
    }
    // text is length-prefixed: moving a byte between fields moves the id
    let mut shifted = bars.clone();
    shifted.title = "ta".to_string();
    shifted.desc = " \"d\"".to_string();
    assert_ne!(shifted.content_key(), id);
    let mut pct = sample_percentiles();
    pct.series.truncate(1);
    let with = pct.content_key();
    pct.series[0].p99 = None;
    assert_ne!(
        pct.content_key(),
        with,
        "an absent value is not a present one"
    );
    let mut value = sample_value();
    let with = value.content_key();
    value.baseline = None;
    assert_ne!(value.content_key(), with);
    // the id names the chart's elements
    let svg = bar_chart(&bars).unwrap();
    let hex = id.hex();
    assert_eq!(hex.len(), 10);
    assert!(svg.contains(&format!(
        "aria-labelledby=\"dd-bar-{hex}-title dd-bar-{hex}-desc\""
    )));
}

#[test]
fn bars_go_on_a_log_axis_past_20_times_and_say_so() {
    let fits = |m: &[f64]| Scale::fit_bars(m, m, 0.0, 100.0);
    assert!(
        !fits(&[1.0, 20.0]).log,
        "20 times is not more than 20 times"
    );
    assert!(fits(&[1.0, 20.5]).log);
    assert!(
        !fits(&[0.0, 5.0, 500.0]).log,
        "a zero bar keeps the axis linear"
    );
    assert!(!fits(&[7.0]).log);
    // the shortest bar keeps a visible length
    let s = fits(&[10.0, 5000.0]);
    assert_eq!((s.lo, s.hi), (1.0, 5000.0));
    assert!(s.map(10.0) - s.map(s.lo) > 20.0);
    let mut chart = sample_bars();
    chart.bars = vec![
        bar("HDD", 150.0, 140.0, 160.0, 3),
        bar("NVMe", 90_000.0, 0.0, 0.0, 1),
    ];
    for look in [LOOKS[0], LOOKS[1]] {
        let svg = chart.draw(look).unwrap();
        assert!(
            svg.contains("MB/s (higher is better, log scale)</text>"),
            "{svg}"
        );
        assert!(svg.contains(
            "higher is better, on a log scale (the largest bar is more than 20 times the smallest)"
        ));
    }
    let svg = bar_chart(&sample_bars()).unwrap();
    assert!(!svg.contains("log scale"), "55 to 109 stays linear");
}

#[test]
fn ticks_thin_out_until_their_labels_fit() {
    let log = Scale::fit(&[0.02, 9.0], 12.0, 296.0, true);
    let ticks = log.ticks_fitting(SMALL_PX);
    assert!(ticks.len() < log.ticks().len(), "{ticks:?}");
    for w in ticks.windows(2) {
        let need = (text_width(&fmt_tick(w[0], &log), SMALL_PX)
            + text_width(&fmt_tick(w[1], &log), SMALL_PX))
            / 2.0;
        assert!(log.map(w[1]) - log.map(w[0]) >= need, "{ticks:?}");
    }
    let lin = Scale::fit(&[130.0], 0.0, 300.0, false);
    assert_eq!(lin.ticks_fitting(SMALL_PX), lin.ticks(), "room for all");
}

#[test]
fn restyled_looks_are_byte_for_byte_the_looks_drawn_on_their_own() {
    let mut hostile = sample_bars();
    hostile.title = format!("<style>{}</style>", css(Theme::Auto));
    hostile.desc = hostile.title.clone();
    let charts: Vec<Box<dyn Fn(Look) -> String>> = vec![
        Box::new(|l| sample_bars().draw(l).unwrap()),
        Box::new(move |l| hostile.draw(l).unwrap()),
        Box::new(|l| sample_percentiles().draw(l).unwrap()),
        Box::new(|l| sample_value().draw(l).unwrap()),
        Box::new(|l| crowded_value().draw(l).unwrap()),
        Box::new(|l| sample_machines().draw(l).unwrap()),
    ];
    for chart in &charts {
        struct Each<'a>(&'a dyn Fn(Look) -> String);
        impl Chart for Each<'_> {
            fn content_key(&self) -> ChartId {
                ChartId([0; 5])
            }
            fn draw_keyed(&self, look: Look, _: ChartId) -> anyhow::Result<String> {
                Ok((self.0)(look))
            }
        }
        let d = draw(&Each(chart.as_ref())).unwrap();
        let own = |narrow, theme| chart(Look { narrow, theme });
        assert_eq!(d.wide, own(false, Theme::Auto));
        assert_eq!(d.narrow, own(true, Theme::Auto));
        assert_eq!(d.light, own(false, Theme::Light));
        assert_eq!(d.dark, own(false, Theme::Dark));
        assert_eq!(d.narrow_light, own(true, Theme::Light));
        assert_eq!(d.narrow_dark, own(true, Theme::Dark));
    }
}

#[test]
fn every_look_drawn_from_one_key_is_the_look_drawn_on_its_own() {
    fn same(chart: &impl Chart) {
        let d = draw(chart).unwrap();
        let wide = chart.draw(Look::WIDE).unwrap();
        let narrow = chart
            .draw(Look {
                narrow: true,
                theme: Theme::Auto,
            })
            .unwrap();
        assert!(wide.contains(" id=\"dd-"), "{wide}");
        assert_eq!(d.wide, wide);
        assert_eq!(d.narrow, narrow);
    }
    same(&sample_bars());
    same(&sample_percentiles());
    same(&sample_value());
    same(&crowded_value());
    same(&sample_machines());
}

/// Three machines of one configuration, the third an outlier.
fn sample_machines() -> MachineChart {
    let mark = |label: &str, median: f64, outlier| MachineMark {
        label: label.into(),
        median,
        min: median * 0.98,
        max: median * 1.02,
        runs: 3,
        outlier,
    };
    MachineChart {
        title: "P x: read IOPS per machine".into(),
        desc: "fio-randread-4k-qd64".into(),
        unit: "IOPS".into(),
        higher_is_better: true,
        machines: vec![
            mark("web-1", 2950.0, false),
            mark("web-2", 3050.0, false),
            mark("web-3", 1800.0, true),
        ],
    }
}

/// The width of one character as first written, by ranges alone: the
/// reference the table for ASCII is held to.
fn em_by_ranges(c: char) -> f64 {
    match c {
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
    }
}

#[test]
fn every_character_is_as_wide_as_the_ranges_say() {
    let mut n = 0;
    for c in (0..=0x40000u32).filter_map(char::from_u32) {
        assert_eq!(
            text_width(c.encode_utf8(&mut [0; 4]), 1.0),
            em_by_ranges(c),
            "{c:?}"
        );
        n += 1;
    }
    assert!(n > 200_000);
    assert_eq!(text_width("Wi", 10.0), (0.98 + 0.38) * 10.0);
}

/// [`esc`] as first written, a character at a time: the reference the
/// byte-at-a-time version is held to.
fn esc_by_chars(s: &str) -> String {
    let mut out = String::new();
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

#[test]
fn escaping_a_byte_at_a_time_is_escaping_each_character() {
    let every: String = (0..=0x10FFFFu32).filter_map(char::from_u32).collect();
    assert_eq!(esc(&every), esc_by_chars(&every));
    for s in [
        "",
        "a<b>&\"c'",
        "\u{FFFE}x\u{FFFF}\u{FFFD}\u{EFFF}",
        "\u{0}\u{1F}\t\n\r\u{7F}",
        "日本\u{1F600}<",
    ] {
        assert_eq!(esc(s), esc_by_chars(s), "{s:?}");
    }
    assert_eq!(esc("\u{FFFF}<"), "\u{FFFD}&lt;");
}

#[test]
fn log_ticks_are_a_handful_for_any_positive_range() {
    // lo and hi from a subnormal to the largest double: the number of ticks
    // depends on neither, and none is zero or infinite
    let ends = [
        5e-324,
        1e-310,
        f64::MIN_POSITIVE,
        1e-9,
        0.3,
        1.0,
        3600.0,
        1e7,
        1e300,
        f64::MAX,
    ];
    for &lo in &ends {
        for &hi in &ends {
            let s = Scale {
                lo,
                hi,
                log: true,
                a: 0.0,
                b: 100.0,
                step: 0.0,
            };
            let ticks = s.ticks();
            assert!(ticks.len() <= 12, "{lo}..{hi}: {} ticks", ticks.len());
            assert!(
                ticks.iter().all(|t| t.is_finite() && *t > 0.0),
                "{lo}..{hi}: {ticks:?}"
            );
            if hi < lo {
                assert!(ticks.is_empty(), "{lo}..{hi}: reversed: {ticks:?}");
            }
        }
    }
    // 1e-9 .. 1e7 s: 16 decades, a tick every second one
    let s = Scale::fit(&[1e-9, 1e7], 0.0, 100.0, true);
    assert_eq!((s.lo, s.hi), (1e-9, 1e7));
    assert_eq!(s.ticks().len(), 9, "{:?}", s.ticks());
    // a subnormal is its own floor (its power of ten underflows to 0)
    assert_eq!(nice_floor(5e-324), 5e-324);
    assert_eq!(nice_ceil(f64::MAX), f64::MAX);
    assert_eq!(nice_ceil(1.5e308), f64::MAX.min(1.5e308));
}
