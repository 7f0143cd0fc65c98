//! `index.html`: the list of studies, newest measurement first, each with
//! its headline answer and a link to its page.

use anyhow::Result;
use askama::Template;

use super::*;
use crate::ingest::Problem;
use crate::report::site::Output;
use crate::report::story;

/// One study on the index.
#[derive(Clone, Debug, Default)]
pub struct StudySummary {
    /// Link to `studies/<study>.html`.
    pub link: Link,
    pub anchor: String,
    /// When it was measured where that is more than its date
    /// (`2026-12-07 to 2027-02-01`); empty otherwise.
    pub measured: String,
    /// The date of its newest measurement (`2027-02-01`, `2013-01`), the
    /// date under its title; empty when unknown.
    pub date: String,
    /// Its study file's summary and author; empty without them.
    pub summary: String,
    pub author: String,
    /// How the numbers came to be, joined.
    pub source: String,
    /// `3 configurations, 5 tests`.
    pub size: String,
    /// The study's headline, a sentence each.
    pub answer: Vec<String>,
    /// How many runs failed or were skipped, in words; empty for none.
    pub failures: String,
}

/// `index.html`.
#[derive(Template, Debug)]
#[template(path = "index.html")]
pub struct IndexPage {
    pub page: PageMeta,
    pub studies: Vec<StudySummary>,
    /// `file: reason` for each record left out.
    pub left_out: Vec<String>,
    pub records: String,
}

/// How many left-out files the index names; the rest are counted.
const LISTED_LEFT_OUT: usize = 100;

/// Builds `index.html`; `problems` are the records left out, listed at the
/// end (at most [`LISTED_LEFT_OUT`], the rest counted).
pub(super) fn build(ctx: PageCtx, problems: &[Problem], site: &dyn Output) -> Result<()> {
    let mut told: Vec<story::Story> = ctx
        .analysis
        .values
        .iter()
        .map(|sv| story::tell(ctx.analysis, sv))
        .collect();
    // newest measurement first; undated studies last, by name
    told.sort_by(|a, b| match (&a.latest, &b.latest) {
        (Some(x), Some(y)) => y.cmp(x).then_with(|| a.study.cmp(&b.study)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.study.cmp(&b.study),
    });
    let studies = told
        .into_iter()
        .map(|st| {
            let data = ctx.analysis.data.studies.get(&st.study);
            let configs = data.map_or(0, |d| d.offerings.len());
            let tests = data.map_or(0, |d| d.tests.len());
            let info = ctx.opts.study_info(&st.study);
            StudySummary {
                link: ctx.link(
                    ctx.opts.study_title(&st.study),
                    &ctx.paths.study_page(&st.study),
                ),
                date: st.latest.clone().unwrap_or_default(),
                summary: info.summary.unwrap_or_default(),
                author: info.author.unwrap_or_default(),
                anchor: format!("study-{}", ctx.paths.study_slug(&st.study)),
                measured: if st.latest.as_ref() == Some(&st.measured) {
                    String::new()
                } else {
                    st.measured.clone()
                },
                source: st.sources.join("; "),
                size: format!(
                    "{configs} configuration{}, {tests} test{}",
                    if configs == 1 { "" } else { "s" },
                    if tests == 1 { "" } else { "s" }
                ),
                answer: st.headline.clone(),
                failures: match st.failures.len() {
                    0 => String::new(),
                    1 => "1 run failed or was skipped".to_string(),
                    n => format!("{n} runs failed or were skipped"),
                },
            }
        })
        .collect();
    let mut left_out: Vec<String> = problems
        .iter()
        .map(|p| {
            let file = p
                .path
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| p.path.display().to_string());
            match p.line {
                Some(l) => format!("{file}:{l}: {}", p.message),
                None => format!("{file}: {}", p.message),
            }
        })
        .collect();
    left_out.sort();
    left_out.dedup();
    let total = left_out.len();
    // a bounded list: 100,000 bad files must not make a 10 MB page
    if total > LISTED_LEFT_OUT {
        left_out.truncate(LISTED_LEFT_OUT);
        left_out.push(format!(
            "and {} more (`diskdash check` on the records lists every one)",
            format::whole((total - LISTED_LEFT_OUT) as u64)
        ));
    }
    let page = IndexPage {
        page: ctx.meta(ctx.opts.title.clone(), Vec::new()),
        studies,
        records: format!(
            "Built from {} in {}{}.",
            format::count_of(ctx.analysis.records.len(), "record", "records"),
            format::count_of(ctx.analysis.data.studies.len(), "study", "studies"),
            if left_out.is_empty() {
                String::new()
            } else {
                format!("; {total} left out (listed at the end)")
            }
        ),
        left_out,
    };
    render(site, "index.html".into(), &page)
}
