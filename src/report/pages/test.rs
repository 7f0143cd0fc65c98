//! A page per test within a study: parameters and command lines, a table
//! and bar chart per metric, and fio latency percentiles. A metric's table
//! of more than [`TABLE_ROWS_SHOWN`] configurations shows the first and
//! links to a page of its own with all of them.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;
use askama::Template;

use super::*;
use crate::format::{self, display_unit};
use crate::metrics::{human_name, metric_order, TestKind};
use crate::record::Record;
use crate::report::site::Site;
use crate::report::{charts, unique_slugs};
use crate::units::Unit;

/// One offering's numbers for one metric.
#[derive(Clone, Debug, Default)]
pub struct StatRow {
    pub offering: Link,
    pub median: String,
    pub min: String,
    pub max: String,
    pub runs: String,
    pub cv: String,
    /// `single run`, `large spread`, or empty.
    pub flag: String,
}

/// One metric on a test page.
#[derive(Clone, Debug, Default)]
pub struct MetricSection {
    pub anchor: String,
    pub human: String,
    pub metric: String,
    pub unit: String,
    pub direction: String,
    /// Whether the metric is judged, in words.
    pub judged: String,
    /// Per configuration, in the test's value order; on a test page the
    /// first [`TABLE_ROWS_SHOWN`] of a longer table.
    pub rows: Vec<StatRow>,
    pub chart: ChartView,
    /// `450 more configurations` when `rows` are the first of a longer
    /// table, which `whole` links to; empty otherwise.
    pub more: String,
    pub whole: Link,
}

/// Rows a metric's table shows on a test page; a longer one links to a page
/// of its own (`tests/<study>/<test>/<metric>.html`): a fio test has some
/// twenty metrics, and a table of each for hundreds of configurations
/// would make the page several megabytes. As many as a value table shows.
pub const TABLE_ROWS_SHOWN: usize = super::value::TABLE_ROWS_SHOWN;

/// One metric's table of a test with many configurations.
#[derive(Template, Debug)]
#[template(path = "metric.html")]
pub struct MetricPage {
    pub page: PageMeta,
    /// The test page, and the metric's section there (with the chart).
    pub test: Link,
    pub section: Link,
    pub study: String,
    /// The one section shown, its rows filled and no chart.
    pub metrics: Vec<MetricSection>,
}

/// One configuration's row in a latency distribution table.
#[derive(Clone, Debug, Default)]
pub struct DistributionRow {
    pub config: Link,
    /// The median over repetitions at each of the table's percentiles;
    /// empty where fio did not report it.
    pub cells: Vec<String>,
}

/// A fio direction's latency distribution: the chart of every percentile
/// and a compact table of the telling ones.
#[derive(Clone, Debug, Default)]
pub struct DistributionView {
    /// `read completion latency (ms)`.
    pub heading: String,
    pub chart: ChartView,
    /// `p50`, `p90`, `p99`, `p99.9`, `p99.99`.
    pub columns: Vec<String>,
    pub rows: Vec<DistributionRow>,
}

/// The percentiles of a distribution table.
const TABLE_PCTS: [f64; 5] = [50.0, 90.0, 99.0, 99.9, 99.99];

/// A page per test within a study.
#[derive(Template, Debug)]
#[template(path = "test.html")]
pub struct TestPage {
    pub page: PageMeta,
    pub study: String,
    pub test: String,
    pub tools: String,
    /// Why the test is never judged, for a kind that says so (page cache).
    pub kind_note: String,
    /// The command once per form, with what varies between runs.
    pub commands: Vec<super::command::CommandView>,
    /// How many more forms there are, in words; empty when all are shown.
    pub more_commands: String,
    pub parameters: Vec<Pair>,
    pub metrics: Vec<MetricSection>,
    pub percentiles: Vec<ChartView>,
    pub distributions: Vec<DistributionView>,
    /// Per-second charts of the records that kept a timeline.
    pub timelines: Vec<super::timeline::TimelineView>,
    /// Which runs `timelines` draws, when not every one that kept a
    /// timeline; empty when it draws them all.
    pub timelines_note: String,
    pub runs: Vec<RunLink>,
    /// Instead of `runs`, past `runlist::RUNS_SHOWN` runs: one row per
    /// configuration.
    pub run_groups: Vec<super::runlist::RunGroup>,
    /// What the grouped table is, in words; empty when runs are listed.
    pub runs_note: String,
}

/// Builds the page of `test` in `study`, with its charts.
pub(super) fn build(ctx: PageCtx, study: &str, test: &str, site: &mut Site) -> Result<()> {
    let Some(s) = ctx.analysis.data.studies.get(study) else {
        return Ok(());
    };
    let sslug = ctx.paths.study_slug(study).to_string();
    let tslug = ctx.paths.test_slug(study, test).to_string();
    // the records of each configuration, with the name its records give
    // it (one configuration's records share their provider and offering),
    // built once per configuration, not per record or comparison
    let held = &ctx.analysis.records;
    let groups: Vec<(String, &[usize])> = s
        .offerings
        .values()
        .filter_map(|o| o.tests.get(test))
        .filter_map(|t| {
            let first = held.get(*t.records.first()?)?;
            Some((first.offering_name(), t.records.as_slice()))
        })
        .collect();
    let mut keyed: Vec<(&str, &Record)> = groups
        .iter()
        .flat_map(|(name, of)| {
            of.iter()
                .filter_map(|&i| held.get(i).copied())
                .map(move |r| (name.as_str(), r))
        })
        .collect();
    keyed.sort_by(|(xn, x), (yn, y)| (xn, x.repetition, &x.id).cmp(&(yn, y.repetition, &y.id)));
    let sorted: Vec<&Record> = keyed.iter().map(|&(_, r)| r).collect();
    let bounded = super::runlist::test_bounded(s, test);
    let tools: BTreeSet<String> = sorted
        .iter()
        .map(|r| r.test.tool.name().to_string())
        .collect();
    // the command once, with what differs between runs listed below it
    // taken one at a time: a large build holds each run's command apart
    let mut summary = super::command::Summary::default();
    for (name, r) in &keyed {
        if let Some(line) = ctx.whole.command(r) {
            summary.add(name, &line);
        }
    }
    let (commands, more) = summary.finish();
    let more_commands = match more {
        0 => String::new(),
        n => format!("... and {n} more forms of the command (see the runs)"),
    };
    let mut params: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for r in &sorted {
        for (k, v) in &r.test.parameters {
            params
                .entry(k.as_str())
                .or_default()
                .insert(format::parameter(k, v));
        }
    }
    // a parameter with a value per run (the scratch path) would fill a
    // phone's screen: it is counted here, and listed under the command
    let parameters = params
        .into_iter()
        .map(|(k, v)| Pair {
            key: k.to_string(),
            value: if v.len() > PARAMETER_VALUES_SHOWN {
                format!("{} different values (each run's page has its own)", v.len())
            } else {
                capped(&v.into_iter().collect::<Vec<_>>())
            },
        })
        .collect();
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
    let mslugs = unique_slugs(metric_names.iter().map(|m| m.as_str()));
    let kind = s.kinds.get(test).copied().unwrap_or(TestKind::Unknown);
    // configurations in the order of the test's first value table (by
    // cost), the rest after by name
    let first_table = ctx
        .analysis
        .values
        .iter()
        .find(|sv| sv.study == study)
        .and_then(|sv| sv.tables.iter().find(|t| t.test == test));
    let mut order: Vec<&str> = first_table
        .map(|t| t.rows.iter().map(|r| r.offering.as_str()).collect())
        .unwrap_or_default();
    for name in s.offerings.keys() {
        if !order.contains(&name.as_str()) {
            order.push(name);
        }
    }
    let configs = s
        .offerings
        .values()
        .filter(|o| o.tests.contains_key(test))
        .count();
    let inline = inline_charts(configs, metric_names.len());
    let mut metrics = Vec::new();
    for metric in &metric_names {
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
            ),
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
                "judged".into()
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
    // fio: latency percentiles per direction
    let mut percentiles = Vec::new();
    for dir in ["read", "write"] {
        let names = [
            format!("{dir}_clat_p50"),
            format!("{dir}_clat_p99"),
            format!("{dir}_clat_p99_9"),
        ];
        let mut series = Vec::new();
        let mut largest: f64 = 0.0;
        for o in s.offerings.values() {
            let Some(t) = o.tests.get(test) else { continue };
            let get = |n: &String| {
                t.metrics
                    .get(n)
                    .filter(|m| m.unit == Unit::Seconds)
                    .map(|m| m.summary.median)
            };
            let vals = [get(&names[0]), get(&names[1]), get(&names[2])];
            if vals.iter().all(Option::is_none) {
                continue;
            }
            largest = vals.iter().flatten().fold(largest, |m, v| m.max(*v));
            series.push((o.name.clone(), vals));
        }
        if series.is_empty() {
            continue;
        }
        let du = display_unit(Unit::Seconds, largest);
        let names: Vec<String> = series.iter().map(|(n, _)| n.clone()).collect();
        let labels = chart_labels(s, &names.iter().map(String::as_str).collect::<Vec<_>>());
        let spec = charts::PercentileChart {
            title: format!("{study}: {dir} completion latency percentiles ({test})"),
            desc: format!(
                "Median over repetitions of the p50, p99 and p99.9 {dir} completion latency in {} per offering, test {test} of study {study}; lower is better.",
                du.label
            ),
            unit: du.label.to_string(),
            series: series
                .into_iter()
                .zip(labels)
                .map(|((_, [p50, p99, p99_9]), label)| charts::PercentileSeries {
                    label,
                    p50: p50.map(|v| v / du.factor),
                    p99: p99.map(|v| v / du.factor),
                    p99_9: p99_9.map(|v| v / du.factor),
                })
                .collect(),
        };
        percentiles.push(inline_or_image(
            inline,
            ctx.chart(
                site,
                format!("charts/{sslug}/{tslug}/latency-{dir}.svg"),
                charts::draw(&spec),
            ),
            &spec.desc,
        ));
    }
    let distributions = distributions(ctx, s, study, test, &order, inline, site);
    let (drawn, timelines_note) = super::timeline::on_test_page(&keyed);
    // their series, read again where the build holds records without them
    let parts: Vec<super::Parts> = drawn
        .iter()
        .map(|r| ctx.whole.parts(r))
        .collect::<Result<_>>()?;
    let timed: Vec<(&Record, &crate::record::Timeline)> = drawn
        .iter()
        .zip(&parts)
        .filter_map(|(r, p)| Some((*r, p.timeline.as_deref()?)))
        .collect();
    let timelines = super::timeline::charts(&ctx, site, &timed, &sslug, &tslug, kind, false);
    let page = TestPage {
        page: ctx.meta(
            format!("{test} in {study}"),
            vec![
                ctx.link("Overview", "index.html"),
                ctx.link(study, &format!("index.html#study-{sslug}")),
            ],
        ),
        study: study.to_string(),
        test: test.to_string(),
        tools: tools.into_iter().collect::<Vec<_>>().join(", "),
        kind_note: kind.note().unwrap_or_default().to_string(),
        commands,
        more_commands,
        parameters,
        metrics,
        percentiles,
        distributions,
        timelines,
        timelines_note,
        runs: if bounded {
            Vec::new()
        } else {
            sorted.iter().map(|r| ctx.run_link(r)).collect()
        },
        run_groups: if bounded {
            s.offerings
                .values()
                .filter_map(|o| Some((o, o.tests.get(test)?)))
                .map(|(o, t)| {
                    let link = ctx.link(&o.name, &ctx.paths.offering_page(study, &o.name));
                    super::runlist::group(&ctx, study, link, &o.name, test, t.records.len())
                })
                .collect()
        } else {
            Vec::new()
        },
        runs_note: if bounded {
            format!(
                "{} runs, too many for one page: each configuration's are listed on pages of at most {}.",
                sorted.len(),
                super::runlist::RUNS_SHOWN
            )
        } else {
            String::new()
        },
    };
    render(site, ctx.paths.test_page(study, test), &page)
}

/// Configurations past which a test page shows its charts from their
/// standalone files (`<img>`, loaded lazily) instead of inline: a chart
/// grows with its configurations, and a dozen of them inline would make the
/// page several megabytes.
pub const INLINE_CHARTS_MAX: usize = 100;

/// Bars a test page's metric charts draw inline at most, all of them
/// together (configurations times metrics): a bar inline takes about 0.9 KB
/// (the wide and the narrow drawing), and a fio test has some twenty
/// metrics, so past this the page shows its charts from their files too.
pub const INLINE_BARS_MAX: usize = 600;

/// Whether a test page of `configs` configurations and `metrics` metric
/// charts draws its charts inline (else as images).
fn inline_charts(configs: usize, metrics: usize) -> bool {
    configs <= INLINE_CHARTS_MAX && configs * metrics <= INLINE_BARS_MAX
}

/// At most this many distinct values of a parameter are listed on a test
/// page; past that they are counted.
const PARAMETER_VALUES_SHOWN: usize = 3;

/// `view` inline when `inline`, else as an image described by `alt`.
fn inline_or_image(inline: bool, view: ChartView, alt: &str) -> ChartView {
    if inline {
        view
    } else {
        view.as_image(alt.to_string())
    }
}

/// fio's latency distribution per direction: every percentile's median over
/// repetitions against the percentile, a line per configuration (in
/// `order`), and a table of p50 to p99.99. Empty for tests without
/// percentiles.
fn distributions(
    ctx: PageCtx,
    s: &crate::analysis::stats::Study,
    study: &str,
    test: &str,
    order: &[&str],
    inline: bool,
    site: &mut Site,
) -> Vec<DistributionView> {
    let sslug = ctx.paths.study_slug(study).to_string();
    let tslug = ctx.paths.test_slug(study, test).to_string();
    let mut out = Vec::new();
    for dir in ["read", "write", "mixed"] {
        // configuration, then (percentile, median seconds) in percentile order
        let mut lines: Vec<(&str, Vec<(f64, f64)>)> = Vec::new();
        for name in order {
            let Some(t) = s.offerings.get(*name).and_then(|o| o.tests.get(test)) else {
                continue;
            };
            let mut pts: Vec<(f64, f64)> = t
                .metrics
                .iter()
                .filter(|(_, m)| m.unit == Unit::Seconds)
                .filter_map(
                    |(metric, m)| match crate::metrics::clat_percentile(metric) {
                        Some((d, p)) if d == dir => Some((p, m.summary.median)),
                        _ => None,
                    },
                )
                .collect();
            // a distribution needs more than the one or two points of a
            // transcribed p99
            if pts.len() < 3 {
                continue;
            }
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            lines.push((name, pts));
        }
        if lines.is_empty() {
            continue;
        }
        let largest = lines
            .iter()
            .flat_map(|(_, p)| p.iter().map(|x| x.1))
            .fold(0.0, f64::max);
        let du = display_unit(Unit::Seconds, largest);
        let names: Vec<&str> = lines.iter().map(|(n, _)| *n).collect();
        let labels = chart_labels(s, &names);
        let spec = charts::DistributionChart {
            title: format!("{study}: {dir} completion latency by percentile ({test})"),
            desc: format!(
                "Median over repetitions of every {dir} completion latency percentile fio reported, in {}, per configuration, for test {test} of study {study}.",
                du.label
            ),
            unit: du.label.to_string(),
            series: lines
                .iter()
                .zip(labels)
                .map(|((_, pts), label)| charts::DistributionSeries {
                    label,
                    points: pts.iter().map(|(p, v)| (*p, v / du.factor)).collect(),
                })
                .collect(),
        };
        let chart = inline_or_image(
            inline,
            ctx.chart(
                site,
                format!("charts/{sslug}/{tslug}/distribution-{dir}.svg"),
                charts::draw(&spec),
            ),
            &spec.desc,
        );
        let rows = lines
            .iter()
            .map(|(name, pts)| DistributionRow {
                config: ctx.link(*name, &ctx.paths.offering_page(study, name)),
                cells: TABLE_PCTS
                    .iter()
                    .map(|want| {
                        pts.iter()
                            .find(|(p, _)| (p - want).abs() < 1e-9)
                            .map(|(_, v)| format::with_unit(*v, du))
                            .unwrap_or_default()
                    })
                    .collect(),
            })
            .collect();
        out.push(DistributionView {
            heading: format!("{dir} completion latency"),
            chart,
            columns: TABLE_PCTS.iter().map(|p| charts::pct_label(*p)).collect(),
            rows,
        });
    }
    out
}
