//! A test page's section per metric: its table and bar chart, and past
//! [`TABLE_ROWS_SHOWN`] configurations a page of its own with every row.

use super::*;

/// Every metric `test` gave in `s`, judged or not, in the order of the
/// metric vocabulary.
pub(super) fn metric_names<'a>(
    s: &'a crate::analysis::stats::Study,
    test: &str,
) -> Vec<&'a String> {
    // every metric the test gave, judged or not: bookkeeping stays here;
    // fio's percentiles beyond p50, p99 and p99.9 (fourteen per direction)
    // are shown in the latency distribution, not a section each
    let mut metric_names: Vec<&String> = s
        .offerings
        .values()
        .filter_map(|o| o.tests.get(test))
        .flat_map(|t| t.metrics.keys())
        .filter(|m| {
            crate::metrics::clat_percentile(m).is_none_or(|(_, p)| [50.0, 99.0, 99.9].contains(&p))
        })
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    metric_names.sort_by_cached_key(|m| metric_order(m));
    metric_names
}

/// A section per metric of `metric_names`, each with its chart; a table
/// longer than [`TABLE_ROWS_SHOWN`] gets its page.
pub(super) fn build(
    scope: Scope,
    metric_names: &[&String],
    site: &dyn Output,
) -> Result<Vec<MetricSection>> {
    let Scope {
        ctx,
        s,
        study,
        test,
        sslug,
        tslug,
        order,
        inline,
    } = scope;
    let mslugs = unique_slugs(metric_names.iter().map(|m| m.as_str()));
    let mut metrics = Vec::new();
    for metric in metric_names {
        let mslug = mslugs
            .get(metric.as_str())
            .cloned()
            .unwrap_or_else(|| "x".into());
        let judged = s.judges(test, metric);
        let mut unit = None;
        let stats: Vec<(&str, &crate::analysis::stats::Summary)> = order
            .iter()
            .filter_map(|o| {
                let st = s
                    .offerings
                    .get(*o)?
                    .tests
                    .get(test)?
                    .metrics
                    .get(metric.as_str())?;
                // one unit per section: the first configuration's
                if *unit.get_or_insert(st.unit) != st.unit {
                    return None;
                }
                Some((*o, &st.summary))
            })
            .collect();
        let Some(unit) = unit else { continue };
        let du = display_unit(unit, stats.iter().map(|(_, s)| s.max).fold(0.0, f64::max));
        let human = human_name(metric);
        let higher = crate::metrics::higher_is_better(metric, unit);
        // the first `n` rows, linked from the page `ctx` builds
        let rows = |ctx: &PageCtx, n: usize| -> Vec<StatRow> {
            stats
                .iter()
                .take(n)
                .map(|(o, sm)| StatRow {
                    offering: ctx.link(*o, &ctx.paths.offering_page(study, o)),
                    median: format::value(sm.median, unit),
                    min: format::value(sm.min, unit),
                    max: format::value(sm.max, unit),
                    runs: sm.n.to_string(),
                    cv: sm.cv.map(format::percent).unwrap_or_default(),
                    flag: if sm.single_run() {
                        "single run".into()
                    } else if sm.large_spread() {
                        "large spread".into()
                    } else {
                        String::new()
                    },
                })
                .collect()
        };
        let spec = charts::BarChart {
            title: format!("{study}: {human} ({test})"),
            desc: format!(
                "Median {human} in {} per offering over repetitions, with the min-max spread, for test {test} of study {study}; {}.",
                du.label,
                direction(higher)
            ),
            unit: du.label.to_string(),
            higher_is_better: higher,
            bars: stats
                .iter()
                .zip(chart_labels(s, &stats.iter().map(|(o, _)| *o).collect::<Vec<_>>()))
                .map(|((_, sm), label)| charts::Bar {
                    label,
                    median: sm.median / du.factor,
                    min: sm.min / du.factor,
                    max: sm.max / du.factor,
                    runs: sm.n,
                })
                .collect(),
        };
        let chart_view = inline_or_image(
            inline,
            ctx.chart(
                site,
                format!("charts/{sslug}/{tslug}/{mslug}.svg"),
                charts::draw(&spec),
            )?,
            &spec.desc,
        );
        // the section's words; its rows and chart are added where it is shown
        let words = MetricSection {
            anchor: format!("metric-{mslug}"),
            human,
            metric: metric.to_string(),
            unit: if du.label.is_empty() {
                "count".into()
            } else {
                du.label.to_string()
            },
            direction: direction(higher).to_string(),
            judged: if judged {
                super::JUDGED.into()
            } else {
                "shown, not judged".into()
            },
            ..MetricSection::default()
        };
        let (mut more, mut whole) = (String::new(), Link::default());
        if stats.len() > TABLE_ROWS_SHOWN {
            // every row on a page of its own, one level further down; the
            // chart stays on the test page
            let path = format!("tests/{sslug}/{tslug}/{mslug}.html");
            let deeper = ctx.at("../../../");
            let test_page = ctx.paths.test_page(study, test);
            let page = MetricPage {
                page: deeper.meta(
                    format!("{} in {test}, {study}", words.human),
                    vec![
                        deeper.link("Overview", "index.html"),
                        deeper.link(study, &format!("index.html#study-{sslug}")),
                        deeper.link(test, &test_page),
                    ],
                ),
                test: deeper.link(test, &test_page),
                section: deeper.link(
                    "its section of the test page",
                    &format!("{test_page}#{}", words.anchor),
                ),
                study: study.to_string(),
                metrics: vec![MetricSection {
                    rows: rows(&deeper, stats.len()),
                    ..words.clone()
                }],
            };
            render(site, path.clone(), &page)?;
            more = format::count_of(
                stats.len() - TABLE_ROWS_SHOWN,
                "more configuration",
                "more configurations",
            );
            whole = ctx.link("the whole table", &path);
        }
        metrics.push(MetricSection {
            rows: rows(&ctx, TABLE_ROWS_SHOWN),
            chart: chart_view,
            more,
            whole,
            ..words
        });
    }
    Ok(metrics)
}
