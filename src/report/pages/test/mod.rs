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
use crate::record::Summary;
use crate::report::site::Output;
use crate::report::{charts, unique_slugs};
use crate::units::Unit;

mod header;
mod latency;
mod metric_sections;
mod runs;

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

/// The word a judged metric's heading carries (`MetricSection::judged`).
const JUDGED: &str = "judged";

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
    /// The metrics the page leads with: those judged, or the first where
    /// none is, each a comparison chart and its table.
    pub metrics: Vec<MetricSection>,
    /// The other metrics, folded below the rest of the page.
    pub more_metrics: Vec<MetricSection>,
    /// What the fold holds: `12 more metrics, shown but not judged: a
    /// chart and a table each`.
    pub more_metrics_summary: String,
    pub percentiles: Vec<ChartView>,
    pub distributions: Vec<DistributionView>,
    /// Per-second charts of the records that kept a timeline.
    pub timelines: Vec<super::timeline::TimelineView>,
    /// Which runs `timelines` draws, when not every one that kept a
    /// timeline; empty when it draws them all.
    pub timelines_note: String,
    /// What the fold of `timelines` holds: `Over time: 12 charts, one per run`.
    pub timelines_summary: String,
    pub runs: Vec<RunLink>,
    /// Instead of `runs`, past `runlist::RUNS_SHOWN` runs: one row per
    /// configuration.
    pub run_groups: Vec<super::runlist::RunGroup>,
    /// What the grouped table is, in words; empty when runs are listed.
    pub runs_note: String,
}

/// What every section of a test page is built from.
#[derive(Clone, Copy)]
struct Scope<'a> {
    ctx: PageCtx<'a>,
    s: &'a crate::analysis::stats::Study,
    study: &'a str,
    test: &'a str,
    sslug: &'a str,
    tslug: &'a str,
    /// Configurations in the order of the test's first value table (by
    /// cost), the rest after by name.
    order: &'a [&'a str],
    /// Whether the page draws its charts inline (else as images).
    inline: bool,
}

/// Builds the page of `test` in `study`, with its charts.
pub(super) fn build(ctx: PageCtx, study: &str, test: &str, site: &dyn Output) -> Result<()> {
    let Some(s) = ctx.analysis.data.studies.get(study) else {
        return Ok(());
    };
    let sslug = ctx.paths.study_slug(study).to_string();
    let tslug = ctx.paths.test_slug(study, test).to_string();
    let held = &ctx.analysis.records;
    let groups = groups(held, s, test);
    let keyed = keyed(&groups, held);
    let sorted: Vec<&Summary> = keyed.iter().map(|&(_, r)| r).collect();
    let metric_names = metric_sections::metric_names(s, test);
    let kind = s.kinds.get(test).copied().unwrap_or(TestKind::Unknown);
    let order = config_order(ctx, s, study, test);
    let scope = Scope {
        ctx,
        s,
        study,
        test,
        sslug: &sslug,
        tslug: &tslug,
        order: &order,
        inline: inline_charts(configs(s, test), metric_names.len()),
    };
    let header::Header {
        tools,
        commands,
        more_commands,
        parameters,
    } = header::build(ctx, &keyed, &sorted);
    let (metrics, more_metrics) = lead(metric_sections::build(scope, &metric_names, site)?);
    let more_metrics_summary = format!(
        "{}, shown but not judged: a chart and a table each",
        format::count_of(more_metrics.len(), "more metric", "more metrics")
    );
    let percentiles = latency::percentiles(scope, site)?;
    let distributions = latency::distributions(scope, site)?;
    let (timelines, timelines_note) = runs::timelines(scope, kind, &keyed, site)?;
    let runs::RunList {
        runs,
        run_groups,
        runs_note,
    } = runs::list(scope, &sorted);
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
        tools,
        kind_note: s.not_judged(test).unwrap_or_default().to_string(),
        commands,
        more_commands,
        parameters,
        timelines_summary: format!(
            "Over time: {}",
            format::count_of(timelines.len(), "chart, one per run", "charts, one per run")
        ),
        metrics,
        more_metrics,
        more_metrics_summary,
        percentiles,
        distributions,
        timelines,
        timelines_note,
        runs,
        run_groups,
        runs_note,
    };
    render(site, ctx.paths.test_page(study, test), &page)
}

/// The metric sections a test page leads with (the judged ones, or the
/// first where none is judged) and the rest, in their order.
fn lead(sections: Vec<MetricSection>) -> (Vec<MetricSection>, Vec<MetricSection>) {
    let (mut lead, mut rest): (Vec<_>, Vec<_>) =
        sections.into_iter().partition(|m| m.judged == JUDGED);
    if lead.is_empty() && !rest.is_empty() {
        lead.push(rest.remove(0));
    }
    (lead, rest)
}

/// The records of each configuration of `test`, with the name its records
/// give it (one configuration's records share their provider and
/// offering), built once per configuration, not per record or comparison.
fn groups<'a>(
    held: &[&Summary],
    s: &'a crate::analysis::stats::Study,
    test: &str,
) -> Vec<(String, &'a [usize])> {
    s.offerings
        .values()
        .filter_map(|o| o.tests.get(test))
        .filter_map(|t| {
            let first = held.get(*t.records.first()?)?;
            Some((first.offering_name(), t.records.as_slice()))
        })
        .collect()
}

/// Every record of `groups` with its configuration's name, by name,
/// repetition and id.
fn keyed<'a, 'r>(
    groups: &'a [(String, &[usize])],
    held: &[&'r Summary],
) -> Vec<(&'a str, &'r Summary)> {
    let mut keyed: Vec<(&str, &Summary)> = groups
        .iter()
        .flat_map(|(name, of)| {
            of.iter()
                .filter_map(|&i| held.get(i).copied())
                .map(move |r| (name.as_str(), r))
        })
        .collect();
    keyed.sort_by(|(xn, x), (yn, y)| (xn, x.repetition, &x.id).cmp(&(yn, y.repetition, &y.id)));
    keyed
}

/// Configurations in the order of the test's first value table (by cost),
/// the rest after by name.
fn config_order<'a>(
    ctx: PageCtx<'a>,
    s: &'a crate::analysis::stats::Study,
    study: &str,
    test: &str,
) -> Vec<&'a str> {
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
    order
}

/// How many configurations ran `test`.
fn configs(s: &crate::analysis::stats::Study, test: &str) -> usize {
    s.offerings
        .values()
        .filter(|o| o.tests.contains_key(test))
        .count()
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
