//! Run lists that stay small at any scale: an offering page or a test page
//! with more than [`RUNS_SHOWN`] runs lists, instead of every run, one row
//! per test (or per configuration) linking to the runs of that test on that
//! configuration, in pages of at most [`RUNS_SHOWN`] runs each
//! (`offerings/<study>/<offering>/<test>.html`, then `-2.html`, ...).

use anyhow::Result;
use askama::Template;

use super::*;
use crate::analysis::stats::OfferingData;
use crate::record::Summary;
use crate::report::site::Output;

/// The most runs one page lists.
pub const RUNS_SHOWN: usize = 1000;

/// A group of runs too many to list on the page itself: how many, and the
/// pages that list them.
#[derive(Clone, Debug, Default)]
pub struct RunGroup {
    /// The test (on an offering page) or configuration (on a test page).
    pub link: Link,
    /// How many runs, in words.
    pub runs: String,
    /// The pages listing them, `1`, `2`, ...
    pub pages: Vec<Link>,
}

/// A page of the runs of one test on one configuration.
#[derive(Template, Debug)]
#[template(path = "runlist.html")]
pub struct RunListPage {
    pub page: PageMeta,
    pub offering: Link,
    pub test: Link,
    /// `runs 1001 to 2000 of 10000`.
    pub span: String,
    /// Links to every page of the list; the current one has an empty href.
    pub pages: Vec<Link>,
    pub runs: Vec<RunLink>,
}

/// Whether the page of `off` lists its runs by test.
pub(super) fn offering_bounded(off: &OfferingData) -> bool {
    off.records.len() > RUNS_SHOWN
}

/// Whether the page of `test` in `study` lists its runs by configuration.
pub(super) fn test_bounded(study: &Study, test: &str) -> bool {
    study
        .offerings
        .values()
        .filter_map(|o| o.tests.get(test))
        .map(|t| t.records.len())
        .sum::<usize>()
        > RUNS_SHOWN
}

/// The tests of `study` whose pages list their runs by configuration (see
/// [`test_bounded`]), found in one pass over its configurations.
pub(super) fn bounded_tests(study: &Study) -> BTreeSet<&str> {
    let mut runs: BTreeMap<&str, usize> = BTreeMap::new();
    for (test, t) in study.offerings.values().flat_map(|o| &o.tests) {
        *runs.entry(test).or_default() += t.records.len();
    }
    runs.into_iter()
        .filter(|&(_, n)| n > RUNS_SHOWN)
        .map(|(test, _)| test)
        .collect()
}

/// Where page `n` (0-based) of the runs of `test` on `offering` lives.
fn list_page(ctx: &PageCtx, study: &str, offering: &str, test: &str, n: usize) -> String {
    let dir = ctx
        .paths
        .offering_page(study, offering)
        .trim_end_matches(".html")
        .to_string();
    let t = ctx.paths.test_slug(study, test);
    match n {
        0 => format!("{dir}/{t}.html"),
        n => format!("{dir}/{t}-{}.html", n + 1),
    }
}

/// How many pages `count` runs take.
fn page_count(count: usize) -> usize {
    count.div_ceil(RUNS_SHOWN).max(1)
}

/// The row of one test (or configuration) with its run-list pages, linked
/// from the page `ctx` is at.
pub(super) fn group(
    ctx: &PageCtx,
    study: &str,
    link: Link,
    offering: &str,
    test: &str,
    count: usize,
) -> RunGroup {
    RunGroup {
        link,
        runs: count.to_string(),
        pages: (0..page_count(count))
            .map(|n| {
                ctx.link(
                    (n + 1).to_string(),
                    &list_page(ctx, study, offering, test, n),
                )
            })
            .collect(),
    }
}

/// Builds the run-list pages of every test on the configuration `off` of
/// `study`, where its offering page or the test page lists runs by group
/// (the tests in `bounded`, from [`bounded_tests`]). `ctx` is at the site
/// root.
pub(super) fn build(
    ctx: PageCtx,
    study: &str,
    off: &OfferingData,
    bounded_tests: &BTreeSet<&str>,
    site: &dyn Output,
) -> Result<()> {
    let at = ctx.at("../../../");
    let sslug = ctx.paths.study_slug(study).to_string();
    let bounded = offering_bounded(off);
    for (test, t) in &off.tests {
        if !bounded && !bounded_tests.contains(test.as_str()) {
            continue;
        }
        let mut runs: Vec<&Summary> = t
            .records
            .iter()
            .filter_map(|&i| ctx.analysis.records.get(i).copied())
            .collect();
        runs.sort_by(|x, y| (x.repetition, &x.id).cmp(&(y.repetition, &y.id)));
        let pages = page_count(runs.len());
        for (n, chunk) in runs.chunks(RUNS_SHOWN).enumerate() {
            let path = list_page(&ctx, study, &off.name, test, n);
            let first = n * RUNS_SHOWN + 1;
            let page = RunListPage {
                page: at.meta(
                    format!("Runs of {test} on {}", off.name),
                    vec![
                        at.link("Overview", "index.html"),
                        at.link(study, &format!("index.html#study-{sslug}")),
                        at.link(&off.name, &ctx.paths.offering_page(study, &off.name)),
                    ],
                ),
                offering: at.link(&off.name, &ctx.paths.offering_page(study, &off.name)),
                test: at.link(test, &ctx.paths.test_page(study, test)),
                span: format!(
                    "runs {first} to {} of {}",
                    first + chunk.len() - 1,
                    runs.len()
                ),
                pages: (0..pages)
                    .map(|m| Link {
                        text: (m + 1).to_string(),
                        href: if m == n {
                            String::new()
                        } else {
                            format!("{}{}", at.root, list_page(&ctx, study, &off.name, test, m))
                        },
                    })
                    .collect(),
                runs: chunk.iter().map(|r| at.run_link(r)).collect(),
            };
            render(site, path, &page)?;
        }
    }
    Ok(())
}
