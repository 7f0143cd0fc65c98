//! `studies/<study>.html`: one study as a post a blogger can publish: when
//! and how it was measured, the executive summary, failures, the value
//! matrix, the cost vs performance chart and the configurations.

use anyhow::Result;
use askama::Template;

use super::*;
use crate::report::site::Output;
use crate::report::story::{self, Story};

/// A configuration in the study's table.
#[derive(Clone, Debug, Default)]
pub struct ConfigRow {
    pub link: Link,
    pub price: String,
    pub price_note: String,
    pub size: String,
    pub monthly: String,
    pub runs: String,
    pub is_baseline: bool,
}

/// Rows the value matrix shows; past them the page says how many more there
/// are and where each one's verdicts are, so that it stays small with
/// hundreds of configurations.
pub const MATRIX_ROWS_SHOWN: usize = 100;

/// `studies/<study>.html`.
#[derive(Template, Debug)]
#[template(path = "study.html")]
pub struct StudyPage {
    pub page: PageMeta,
    pub story: Story,
    /// Links to each configuration's page, in the matrix's row order.
    pub row_links: Vec<Link>,
    /// `400 more configurations follow in cost order` when the matrix
    /// shows only its first rows; empty otherwise.
    pub matrix_more: String,
    /// Links to each column's test page.
    pub column_links: Vec<Link>,
    pub configs: Vec<ConfigRow>,
    /// A cost vs performance chart per headline dimension: the first
    /// follows the answer, the others are folded below the matrix.
    pub charts: Vec<ChartView>,
    /// What the first chart shows and how to read it.
    pub first_chart_note: String,
    /// What the fold of the other charts holds.
    pub more_charts_summary: String,
    /// What the fold of `bursts` holds.
    pub bursts_summary: String,
    /// Workloads measured at several queue depths.
    pub queue_depths: Vec<super::qdepth::QdGroup>,
    /// Burst and sustained levels of the tests that kept a timeline.
    pub bursts: Vec<super::burst::BurstGroup>,
    /// The configurations measured on several machines.
    pub machines: Vec<super::machines::MachineGroup>,
    pub tests: Vec<Link>,
    /// Beside each test, why it is never judged (a cache trap's reason, or
    /// its kind's note); empty for a judged test.
    pub not_judged: Vec<String>,
    /// Link to `data/<study>.md`.
    pub markdown: Link,
}

/// Builds the page of one study.
pub(super) fn build(
    ctx: PageCtx,
    sv: &crate::analysis::value::StudyValue,
    site: &dyn Output,
) -> Result<()> {
    let Some(study) = ctx.analysis.data.studies.get(&sv.study) else {
        return Ok(());
    };
    let mut story = story::tell(ctx.analysis, sv);
    let title = ctx.opts.study_title(&sv.study);
    let sslug = ctx.paths.study_slug(&sv.study).to_string();
    let mut row_links: Vec<Link> = story
        .matrix
        .rows
        .iter()
        .map(|r| ctx.link(&r.config, &ctx.paths.offering_page(&sv.study, &r.config)))
        .collect();
    let column_links = story
        .matrix
        .columns
        .iter()
        .map(|c| ctx.link(&c.test, &ctx.paths.test_page(&sv.study, &c.test)))
        .collect();
    let configs = story
        .matrix
        .rows
        .iter()
        .filter_map(|r| study.offerings.get(&r.config).map(|o| (r, o)))
        .map(|(r, o)| {
            let price = sv.prices.get(&o.name).and_then(Option::as_ref);
            ConfigRow {
                link: ctx.link(&o.name, &ctx.paths.offering_page(&sv.study, &o.name)),
                price: r.price_per_gb.clone(),
                price_note: price.and_then(|p| p.note.clone()).unwrap_or_default(),
                size: o
                    .size_gb
                    .map(format::size_gb)
                    .unwrap_or_else(|| "unknown".into()),
                monthly: r.monthly.clone(),
                runs: o.current_runs().to_string(),
                is_baseline: r.is_baseline,
            }
        })
        .collect();
    let mut charts = Vec::new();
    let mut images = Vec::new();
    let mut first_chart_note = String::new();
    // a cost vs performance chart per headline dimension, the first as
    // the study's overview
    let mut dims = story::headline::dimensions(sv);
    if dims.is_empty() {
        dims.extend(story::key_table(sv).map(|t| (story::headline::Dimension::RandomIo, t)));
    }
    for (i, (dim, t)) in dims.iter().enumerate() {
        let path = match i {
            0 => format!("charts/{sslug}/overview.svg"),
            _ => format!("charts/{sslug}/{}.svg", crate::record::slug(dim.heading())),
        };
        if let Some(c) = super::value::value_chart_for(ctx, true, study, sv, t, site, path.clone())
            .transpose()?
        {
            if charts.is_empty() {
                first_chart_note = format!(
                    "{} against what each configuration costs: a point above the line of equal value through the baseline gives more for its price than the baseline, one below it less.",
                    capitalised(&story::headline::metric_words(t))
                );
            }
            images.push((
                format!("{title}: {} against cost", story::headline::metric_words(t)),
                path,
            ));
            charts.push(c);
        }
    }
    // configurations in the matrix's order, the rest after by name
    let mut order: Vec<&str> = story
        .matrix
        .rows
        .iter()
        .map(|r| r.config.as_str())
        .collect();
    for name in study.offerings.keys() {
        if !order.contains(&name.as_str()) {
            order.push(name);
        }
    }
    let queue_depths = super::qdepth::groups(ctx, &sv.study, &order, site)?;
    let bursts = super::burst::groups(ctx, &sv.study, study, &order);
    let machines = super::machines::groups(ctx, &sv.study, &order, site)?;
    // the post: its answer, table and first chart, then burst, machines
    // and history, each one table
    let info = ctx.opts.study_info(&sv.study);
    let mut markdown = crate::report::export::study_md(
        &story,
        crate::report::export::PostParts {
            title: &title,
            info: &info,
            front_matter: ctx.opts.front_matter,
            images: &images,
            base_url: ctx.opts.base_url.as_deref(),
        },
    );
    markdown.extend(super::burst::markdown(&bursts).into_bytes());
    markdown.extend(super::machines::markdown(&machines).into_bytes());
    markdown.extend(crate::report::export::study_md_history(&story));
    site.write(&format!("data/{sslug}.md"), &markdown)?;
    // hundreds of configurations: the matrix shows the first (the Markdown
    // keeps them all) and says where the others are
    let matrix_more = match story.matrix.rows.len().checked_sub(MATRIX_ROWS_SHOWN) {
        Some(more) if more > 0 => {
            story.matrix.rows.truncate(MATRIX_ROWS_SHOWN);
            row_links.truncate(MATRIX_ROWS_SHOWN);
            format!(
                "{} in cost order",
                format::count_of(
                    more,
                    "more configuration follows",
                    "more configurations follow"
                )
            )
        }
        _ => String::new(),
    };
    let page = StudyPage {
        page: ctx.meta(
            format!("Study: {title}"),
            vec![ctx.link("Overview", "index.html")],
        ),
        story,
        row_links,
        matrix_more,
        column_links,
        configs,
        more_charts_summary: format!(
            "{} against cost, one per headline dimension",
            format::count_of(
                charts.len().saturating_sub(1),
                "more chart",
                "more charts"
            )
        ),
        bursts_summary: format!(
            "{}: burst, sustained level, burst duration and volume, steady state, per configuration",
            format::count_of(bursts.len(), "test", "tests")
        ),
        charts,
        first_chart_note,
        queue_depths,
        bursts,
        machines,
        tests: study
            .tests
            .iter()
            .map(|t| ctx.link(t, &ctx.paths.test_page(&sv.study, t)))
            .collect(),
        not_judged: study
            .tests
            .iter()
            .map(|t| study.not_judged(t).unwrap_or_default().to_string())
            .collect(),
        markdown: ctx.link(format!("data/{sslug}.md"), &format!("data/{sslug}.md")),
    };
    render(site, ctx.paths.study_page(&sv.study), &page)
}

/// `s` with its first letter in capitals.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
