//! A page per record: where it came from, the command and its output, the
//! subject, host and target, and every metric.

use anyhow::Result;
use askama::Template;

use super::*;
use crate::format;
use crate::metrics::{human_name, metric_order};
use crate::record::{Source, Summary};
use crate::report::site::Output;
use crate::units::Unit;

/// A figure as a publication printed it.
#[derive(Clone, Debug, Default)]
pub struct FigureRow {
    pub label: String,
    pub value: String,
    pub metric: String,
    pub note: String,
}

/// A metric of one run.
#[derive(Clone, Debug, Default)]
pub struct RunMetric {
    pub human: String,
    pub metric: String,
    /// In its display unit with three significant digits: `2,848 IOPS`.
    pub value: String,
    /// The value as recorded, for `<data value>`: `2847.8013625111657`.
    pub raw: String,
    /// The unit it was recorded in: `IOPS`, `B/s`, `s`.
    pub unit: String,
}

/// A page per record.
#[derive(Template, Debug)]
#[template(path = "run.html")]
pub struct RunPage<'a, 'o> {
    pub page: PageMeta,
    pub id: String,
    pub offering: Link,
    pub test: Link,
    pub status: String,
    pub error: String,
    /// The record's warnings (`timeline not attached: ...`), each a line.
    pub warnings: Vec<String>,
    pub run: Vec<Pair>,
    pub source: Vec<Pair>,
    pub figures: Vec<FigureRow>,
    pub tool: Vec<Pair>,
    pub command: String,
    pub parameters: Vec<Pair>,
    pub subject: Vec<Pair>,
    pub host: std::borrow::Cow<'a, [Pair]>,
    pub target: std::borrow::Cow<'a, [Pair]>,
    pub metrics: Vec<RunMetric>,
    /// The record's timeline chart, when it kept one (the test page's file).
    pub timelines: Vec<super::timeline::TimelineView>,
    /// The tool's output as it printed it (at most
    /// [`crate::bounded::PAGE_LIMIT`] bytes of each stream), plain text that
    /// the template escapes.
    pub stdout: std::borrow::Cow<'o, str>,
    pub stderr: std::borrow::Cow<'o, str>,
    pub exit_code: String,
}

fn opt(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| "unknown".into())
}

/// Builds the page of record `r`, whose tool output and timeline are
/// `parts` (`r` may be held without them); its host and target tables are
/// taken from `details`.
pub(super) fn build(
    ctx: PageCtx,
    r: &Summary,
    parts: super::Parts,
    details: &Tables,
    site: &dyn Output,
) -> Result<()> {
    let study = r.study();
    let sslug = ctx.paths.study_slug(study).to_string();
    let p = |k: &str, v: String| Pair {
        key: k.into(),
        value: v,
    };
    let mut figures = Vec::new();
    let source = match &*r.source {
        Source::Run { diskdash_version } => vec![
            p("source", "measured by diskdash run".into()),
            p("diskdash version", diskdash_version.clone()),
        ],
        Source::Import {
            file,
            sha256,
            diskdash_version,
        } => vec![
            p("source", "imported from existing tool output".into()),
            p("file", file.clone()),
            p("SHA-256", sha256.clone()),
            p("diskdash version", diskdash_version.clone()),
        ],
        Source::Transcribed {
            publication,
            url,
            measured,
            figures: figs,
        } => {
            figures = figs
                .iter()
                .map(|f| FigureRow {
                    label: f.label.clone(),
                    value: format!("{} {}", f.value, f.unit),
                    metric: f.metric.clone(),
                    note: f.note.clone().unwrap_or_default(),
                })
                .collect();
            let mut v = vec![
                p("source", "transcribed from a publication".into()),
                p("publication", publication.clone()),
                p("measured", opt(measured)),
            ];
            if let Some(u) = url {
                v.push(p("address", u.clone()));
            }
            v
        }
    };
    let mut run = vec![
        p("record id", r.id.clone()),
        p("run id", opt(&r.run_id)),
        p("repetition", r.repetition.to_string()),
        p("started", opt(&r.started_at)),
        p(
            "duration",
            r.duration_s
                .map(format::duration)
                .unwrap_or_else(|| "unknown".into()),
        ),
    ];
    // a watched sustained test: its `runtime` parameter is the most it
    // could have run, this is what it did
    if let Some(stop) = &r.stop {
        run.push(p(
            "stopped",
            format!(
                "after {} of its {} window: {}",
                format::duration_words(stop.stopped_at_s),
                format::duration_words(stop.window_s),
                stop.reason.words()
            ),
        ));
    }
    let tool = vec![
        p("tool", r.test.tool.name().into()),
        p("version", opt(&r.test.tool_version)),
        p("test id", r.test.id.clone()),
    ];
    let parameters = r
        .test
        .parameters
        .iter()
        .map(|(k, v)| p(k, format::parameter(k, v)))
        .collect();
    let mut subject = vec![
        p("study", study.to_string()),
        p("provider", opt(&r.subject.provider)),
        p("offering", opt(&r.subject.offering)),
        p("region", opt(&r.subject.region)),
        p(
            "size",
            r.subject
                .size_gb
                .map(format::size_gb)
                .unwrap_or_else(|| "unknown".into()),
        ),
        p(
            "price per GB-month (as recorded)",
            r.subject
                .price
                .as_ref()
                .map(|pr| format!("{} {}", format::data(pr.per_gb_month), pr.currency))
                .unwrap_or_else(|| "unknown".into()),
        ),
    ];
    if let Some(note) = r.subject.price.as_ref().and_then(|pr| pr.note.clone()) {
        subject.push(p("price note", note));
    }
    for (k, v) in &r.subject.labels {
        subject.push(p(&format!("label {k}"), v.clone()));
    }
    let mut ms: Vec<(&str, crate::record::Metric)> = r.metrics.iter().collect();
    ms.sort_by_cached_key(|(m, _)| metric_order(m));
    let metrics = ms
        .into_iter()
        .map(|(m, v)| RunMetric {
            human: human_name(m),
            metric: m.to_string(),
            value: Unit::parse(v.unit)
                .map(|u| format::value(v.value, u))
                .unwrap_or_else(|| format!("{} {}", format::number(v.value), v.unit)),
            raw: format::data(v.value),
            unit: v.unit.to_string(),
        })
        .collect();
    let raw = parts.raw.unwrap_or_default();
    let test = ctx.analysis.data.test_of(r);
    // a cache trap says why it is not judged where its numbers are
    let mut warnings = r.warnings.clone();
    if let Some(trap) = crate::analysis::judged::cache_trap(r) {
        warnings.push(format!("not judged: {}", trap.why));
    }
    if let Some(why) = ctx.older_why(r) {
        warnings.push(format!("left out of its configuration's figures: {why}"));
    }
    let kind = ctx
        .analysis
        .data
        .studies
        .get(study)
        .and_then(|s| s.kinds.get(test).copied())
        .unwrap_or_else(|| crate::tools::judge(r.test.tool).kind(&r.test.parameters));
    let tslug = ctx.paths.test_slug(study, test).to_string();
    let timelines = match parts.timeline.as_deref() {
        Some(tl) => super::timeline::charts(&ctx, site, &[(r, tl)], &sslug, &tslug, kind, true)?,
        None => Vec::new(),
    };
    let offering = {
        let name = r.offering_name();
        let page = ctx.paths.offering_page(study, &name);
        ctx.link(name, &page)
    };
    let page = RunPage {
        page: ctx.meta(
            format!("Run {}", r.id),
            vec![
                ctx.link("Overview", "index.html"),
                ctx.link(study, &format!("index.html#study-{sslug}")),
                offering.clone(),
            ],
        ),
        id: r.id.clone(),
        offering,
        test: ctx.link(test, &ctx.paths.test_page(study, test)),
        status: r.status.name().into(),
        error: r.error.clone().unwrap_or_default(),
        warnings,
        run,
        source,
        figures,
        tool,
        command: ctx.whole.command(r).unwrap_or_default(),
        parameters,
        subject,
        host: details.host(r),
        target: details.target(r),
        metrics,
        timelines,
        stdout: page_excerpt(raw.stdout.as_deref()),
        stderr: page_excerpt(raw.stderr.as_deref()),
        exit_code: raw.exit_code.map(|c| c.to_string()).unwrap_or_default(),
    };
    render(site, ctx.paths.run_page(&r.id), &page)
}

/// At most [`crate::bounded::PAGE_LIMIT`] bytes of a stream on a page.
fn page_excerpt(text: Option<&str>) -> std::borrow::Cow<'_, str> {
    let text = text.unwrap_or_default();
    if text.len() <= crate::bounded::PAGE_LIMIT {
        text.into()
    } else {
        crate::bounded::excerpt(text, crate::bounded::PAGE_LIMIT)
            .0
            .into()
    }
}
