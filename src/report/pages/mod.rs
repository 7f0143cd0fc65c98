//! The pages: one module per page kind, each with its askama view models
//! next to the code that fills them. Every field is a string formatted in
//! `crate::format` (or SVG from `report::charts`), so templates only loop
//! and branch. This module holds what pages share: the `PageCtx` every
//! builder reads, where each page lives, and the common view models.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context, Result};
use askama::Template;

use crate::analysis::stats::{OfferingData, Study};
use crate::analysis::Analysis;
use crate::format;
use crate::ingest::Problem;
use crate::record::Summary;
use crate::report::site::Output;
use crate::report::{charts, unique_slugs, Options};
use crate::units::Unit;

mod burst;
pub mod command;
mod history;
mod host_tables;
pub mod index;
mod machines;
pub mod offering;
mod qdepth;
pub mod run;
pub mod runlist;
pub mod study;
pub mod test;
mod timeline;
pub mod value;

use host_tables::{host_pairs, target_pairs, Tables};

/// What every page shares: titles and the path back to the site root.
#[derive(Clone, Debug, Default)]
pub struct PageMeta {
    /// Page title.
    pub title: String,
    /// Site title (`--title`).
    pub site_title: String,
    /// Relative path from the page to the site root (`""`, `"../"`, `"../../"`).
    root: String,
    /// Breadcrumb links above the title (hrefs relative to the page).
    pub crumbs: Vec<Link>,
    /// diskdash version, for the footer.
    pub version: String,
}

/// A link.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Link {
    /// Link text.
    pub text: String,
    /// Relative href.
    pub href: String,
}

/// A key and a value in a details table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pair {
    /// What the value is.
    pub key: String,
    /// The value, formatted.
    pub value: String,
}

/// A chart embedded in a page, or the reason it is missing.
#[derive(Clone, Debug, Default)]
pub struct ChartView {
    /// The SVG document our chart code drew, to inline; empty when
    /// unavailable or when the page shows the standalone file as an image.
    /// It is the only inline copy: small screens are shown the narrow
    /// variant's files through a `<picture>` instead (docs/publishing.md).
    pub svg: String,
    /// The narrow variant's size in CSS pixels (its viewBox), so that its
    /// image takes its room before it loads.
    pub narrow_width: String,
    pub narrow_height: String,
    /// Whether the narrow variant is the wide layout kept at its width
    /// (scrolled inside its figure) rather than reflowed.
    pub narrow_fixed: bool,
    /// Href of the standalone file (light theme); empty when unavailable.
    pub file: String,
    /// Hrefs of its dark twin and of the narrow light and dark variants.
    pub dark_file: String,
    pub narrow_file: String,
    pub narrow_dark_file: String,
    /// Why there is no chart; empty when there is one.
    pub unavailable: String,
    /// Text for readers who cannot see it, when shown as an image.
    pub alt: String,
    /// The configurations the chart does not draw, with why (`Not drawn:
    /// Cloud spare (no price)`); empty when it draws every one.
    pub left_out: String,
}

impl ChartView {
    /// The same chart shown from its standalone file (`<img>`, loaded
    /// lazily) instead of inline: for pages with many charts.
    pub fn as_image(mut self, alt: String) -> ChartView {
        if self.available() {
            self.svg.clear();
            self.alt = alt;
        }
        self
    }

    /// Whether the chart was drawn.
    pub fn available(&self) -> bool {
        self.unavailable.is_empty()
    }
}

/// A run in a list.
#[derive(Clone, Debug, Default)]
pub struct RunLink {
    pub link: Link,
    pub offering: String,
    pub test: String,
    pub repetition: String,
    pub status: String,
    pub started: String,
}

/// Where every page lives. Paths are relative to the site root.
struct Paths {
    study: BTreeMap<String, String>,
    /// Study, then offering, to the offering's slug.
    offering: BTreeMap<String, BTreeMap<String, String>>,
    /// Study, then test id, to the test's slug.
    test: BTreeMap<String, BTreeMap<String, String>>,
}

impl Paths {
    fn new(a: &Analysis) -> Paths {
        let study = crate::report::unique_slugs_besides(
            a.data.studies.keys().map(String::as_str),
            &crate::report::SITE_WIDE_DATA,
        );
        let mut offering = BTreeMap::new();
        let mut test = BTreeMap::new();
        for (name, s) in &a.data.studies {
            offering.insert(
                name.clone(),
                unique_slugs(s.offerings.keys().map(String::as_str)),
            );
            test.insert(
                name.clone(),
                unique_slugs(s.tests.iter().map(String::as_str)),
            );
        }
        Paths {
            study,
            offering,
            test,
        }
    }

    fn study_slug(&self, study: &str) -> &str {
        self.study.get(study).map(String::as_str).unwrap_or("x")
    }

    fn test_slug(&self, study: &str, test: &str) -> &str {
        self.test
            .get(study)
            .and_then(|tests| tests.get(test))
            .map(String::as_str)
            .unwrap_or("x")
    }

    fn offering_slug(&self, study: &str, offering: &str) -> &str {
        self.offering
            .get(study)
            .and_then(|offerings| offerings.get(offering))
            .map(String::as_str)
            .unwrap_or("x")
    }

    fn offering_page(&self, study: &str, offering: &str) -> String {
        [
            "offerings/",
            self.study_slug(study),
            "/",
            self.offering_slug(study, offering),
            ".html",
        ]
        .concat()
    }

    fn test_page(&self, study: &str, test: &str) -> String {
        [
            "tests/",
            self.study_slug(study),
            "/",
            self.test_slug(study, test),
            ".html",
        ]
        .concat()
    }

    fn study_page(&self, study: &str) -> String {
        format!("studies/{}.html", self.study_slug(study))
    }

    fn run_page(&self, id: &str) -> String {
        ["runs/", id, ".html"].concat()
    }
}

/// What every page builder reads: the analysis, where each page lives, the
/// build's settings, and how far the page being built is from the site root.
/// The site being filled is passed beside it, as the one thing builders change.
#[derive(Clone, Copy)]
struct PageCtx<'a> {
    /// Everything the pages are made from.
    analysis: &'a Analysis<'a>,
    /// Where every page lives.
    paths: &'a Paths,
    /// Settings of the build (site title, baseline, prices).
    opts: &'a Options,
    /// The tool output, series and command of a record, for the pages
    /// that show them.
    whole: &'a dyn Apart,
    /// Relative path from the page to the site root (`""`, `"../"`, `"../../"`).
    root: &'static str,
}

impl<'a> PageCtx<'a> {
    /// The same context for a page `root` away from the site root.
    fn at(self, root: &'static str) -> PageCtx<'a> {
        PageCtx { root, ..self }
    }

    /// A link from this page to `path` (relative to the site root).
    fn link(&self, text: impl Into<String>, path: &str) -> Link {
        Link {
            text: text.into(),
            href: [self.root, path].concat(),
        }
    }

    /// What the page shares with every other: titles, root and breadcrumbs.
    fn meta(&self, title: String, crumbs: Vec<Link>) -> PageMeta {
        PageMeta {
            title,
            site_title: self.opts.title.clone(),
            root: self.root.to_string(),
            crumbs,
            version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }

    /// Renders a chart, writes its standalone files, and returns the view;
    /// a chart that cannot be drawn becomes a note, never a dead link.
    /// The standalone files are `path` (light), `-dark.svg`, `-narrow.svg`
    /// and `-narrow-dark.svg` beside it.
    fn chart(
        &self,
        site: &dyn Output,
        path: String,
        drawn: Result<charts::Drawn>,
    ) -> Result<ChartView> {
        Ok(match drawn {
            Ok(d) => {
                let stem = path.strip_suffix(".svg").unwrap_or(&path).to_string();
                let href = |file: String, svg: String| -> Result<String> {
                    site.write(&file, svg.as_bytes())?;
                    Ok(format!("{}{file}", self.root))
                };
                let (narrow_width, narrow_height) = view_box(&d.narrow);
                ChartView {
                    alt: svg_title(&d.wide),
                    narrow_fixed: d.narrow.contains("dd-fixed"),
                    narrow_width,
                    narrow_height,
                    svg: trimmed(d.wide),
                    file: href(path, d.light)?,
                    dark_file: href(format!("{stem}-dark.svg"), d.dark)?,
                    narrow_file: href(format!("{stem}-narrow.svg"), d.narrow_light)?,
                    narrow_dark_file: href(format!("{stem}-narrow-dark.svg"), d.narrow_dark)?,
                    ..ChartView::default()
                }
            }
            Err(e) => ChartView {
                unavailable: format!("{e:#}"),
                ..ChartView::default()
            },
        })
    }

    /// A run in a list, linked from this page.
    fn run_link(&self, r: &Summary) -> RunLink {
        RunLink {
            link: self.link(&r.id, &self.paths.run_page(&r.id)),
            offering: r.offering_name(),
            test: self.analysis.data.test_of(r).to_string(),
            repetition: r.repetition.to_string(),
            status: match self.older_why(r) {
                Some(why) => format!("{}, left out: {why}", r.status.name()),
                None => r.status.name().to_string(),
            },
            started: r.started_at.clone().unwrap_or_else(|| "unknown".into()),
        }
    }

    /// Why `r` is left out of its configuration's figures as part of an
    /// older measurement, where it is.
    fn older_why(&self, r: &Summary) -> Option<&'a str> {
        let study = self.analysis.data.studies.get(r.study())?;
        // the records are sorted by id
        let i = self
            .analysis
            .records
            .binary_search_by(|x| x.id.as_str().cmp(&r.id))
            .ok()?;
        let test = self.analysis.data.test_of(r);
        study
            .offerings
            .values()
            .filter(|o| o.measured.is_some())
            .filter_map(|o| o.tests.get(test))
            .find_map(|t| t.older_why(i))
    }
}

/// The width and height of an SVG document's root `viewBox`, as written
/// (`("360", "646")`); empty where it has none.
fn view_box(svg: &str) -> (String, String) {
    let dims = svg
        .split_once("viewBox=\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map(|(v, _)| v.split(' ').skip(2).map(str::to_string).collect::<Vec<_>>());
    match dims.as_deref() {
        Some([w, h]) => (w.clone(), h.clone()),
        _ => (String::new(), String::new()),
    }
}

/// The text of an SVG document's first `<title>`, unescaped (the page
/// escapes it again), for the `alt` of its image.
fn svg_title(svg: &str) -> String {
    let Some(title) = svg
        .split_once("<title")
        .and_then(|(_, rest)| rest.split_once('>'))
        .and_then(|(_, rest)| rest.split_once("</title>"))
        .map(|(t, _)| t)
    else {
        return String::new();
    };
    title
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// `s` without its leading and trailing whitespace, trimmed where it is
/// rather than copied: a chart inlined on a page is tens of kilobytes.
fn trimmed(mut s: String) -> String {
    let end = s.trim_end().len();
    s.truncate(end);
    let start = s.len() - s.trim_start().len();
    s.drain(..start);
    s
}

/// The CSS class of a verdict (`worth-it`, ...), empty without one.
fn verdict_class(verdict: Option<&str>) -> String {
    verdict.map(crate::record::slug).unwrap_or_default()
}

/// `higher is better` or `lower is better`.
fn direction(higher_is_better: bool) -> &'static str {
    if higher_is_better {
        "higher is better"
    } else {
        "lower is better"
    }
}

/// Renders a page and adds it to the site at `path`.
fn render<T: Template>(site: &dyn Output, path: String, page: &T) -> Result<()> {
    // room for a run page at once, instead of growing by doubling from
    // the template's guess
    let mut html = String::with_capacity(PAGE_ROOM.max(T::SIZE_HINT));
    page.render_into(&mut html)
        .with_context(|| format!("failed to render `{path}`"))?;
    site.write(&path, html.as_bytes())
}

/// The room a page is rendered into at first: more than most pages take
/// (a run page of small tool output takes 4 to 7 KB).
const PAGE_ROOM: usize = 16 * 1024;

/// Builds the pages `0..n` in parallel (`build` is given a page's number),
/// each writing its files as it makes them: pages wait in memory only while
/// they are being built, whatever the number of pages, and no thread waits
/// for another's page. Every page is a job of its own, so that a few big
/// pages next to each other are spread over the threads. The site is the
/// same, byte for byte, whatever the number of threads: where two pages
/// write one path they write the same bytes (a run page writes again the
/// timeline chart its test page drew). The first error in page order is
/// returned, as a loop would.
fn in_parallel(
    n: usize,
    site: &dyn Output,
    build: impl Fn(usize, &dyn Output) -> Result<()> + Sync,
) -> Result<()> {
    use rayon::prelude::*;
    let done: Vec<Result<()>> = (0..n)
        .into_par_iter()
        .with_max_len(1)
        .map(|item| build(item, site))
        .collect();
    done.into_iter().collect()
}

/// `f` of every item, run in parallel; the results in item order.
fn par_map<T: Sync, R: Send>(
    items: &[T],
    site: &dyn Output,
    f: impl Fn(&T, &dyn Output) -> R + Sync,
) -> Vec<R> {
    use rayon::prelude::*;
    items
        .par_iter()
        .with_max_len(1)
        .map(|item| f(item, site))
        .collect()
}

/// Files a build makes beside its pages (the data exports): each writes
/// its files to the output it is given.
pub type Beside<'a> = dyn Fn(&dyn Output) -> Result<()> + Sync + 'a;

/// The parts of a record that only the pages drawing them need: its tool
/// output (the run page) and its timeline with the series (the run page and
/// the test page's charts over time).
#[derive(Clone, Debug, Default)]
pub struct Parts<'r> {
    pub raw: Option<std::borrow::Cow<'r, crate::record::Raw>>,
    pub timeline: Option<std::borrow::Cow<'r, crate::record::Timeline>>,
}

/// Where the pages find what a [`Summary`] is held without: the tool
/// output, the timeline's series and the command line, read again from the
/// record's file or taken from where they are kept (see `ingest::Found`).
pub trait Apart: Sync {
    /// The record's [`Parts`].
    fn parts(&self, r: &Summary) -> Result<Parts<'_>>;
    /// The command line the record's test ran.
    fn command(&self, r: &Summary) -> Option<String>;
}

/// Builds every page and chart into `site`, and the files `beside` makes
/// in parallel with them; `whole` gives the pages that show a record's
/// tool output, series or command those parts.
pub fn build(
    a: &Analysis,
    problems: &[Problem],
    opts: &Options,
    site: &dyn Output,
    whole: &dyn Apart,
    beside: &[&Beside],
) -> Result<()> {
    let paths = Paths::new(a);
    let ctx = PageCtx {
        analysis: a,
        paths: &paths,
        opts,
        whole,
        root: "",
    };
    // every page, as jobs built in parallel: the test pages first (their
    // charts make them the largest), then the files made beside the pages,
    // the overview and value pages, each study's page, per study its
    // offering pages and run lists, and last the run pages, many and
    // small, which keep both threads busy to the end (a run page's job is
    // its record's place after the others, not an entry in their list:
    // 100,000 entries would be 4 MB)
    enum Job<'j> {
        Beside(&'j Beside<'j>),
        Index,
        Value,
        Study(&'j crate::analysis::value::StudyValue),
        Test(&'j str, &'j str),
        Offering(&'j str, &'j OfferingData),
        RunList(&'j str, &'j OfferingData, &'j BTreeSet<&'j str>),
    }
    let studies = &a.data.studies;
    let mut jobs: Vec<Job> = Vec::new();
    for (study, s) in studies {
        jobs.extend(s.tests.iter().map(|t| Job::Test(study, t)));
    }
    jobs.extend(beside.iter().map(|&b| Job::Beside(b)));
    jobs.extend([Job::Index, Job::Value]);
    jobs.extend(a.values.iter().map(Job::Study));
    let bounded: Vec<BTreeSet<&str>> = studies.values().map(runlist::bounded_tests).collect();
    for ((study, s), bounded) in studies.iter().zip(&bounded) {
        jobs.extend(s.offerings.values().map(|o| Job::Offering(study, o)));
        jobs.extend(
            s.offerings
                .values()
                .map(|o| Job::RunList(study, o, bounded)),
        );
    }
    let nested = ctx.at("../../");
    let runs = ctx.at("../");
    let details = Tables::new(&a.records);
    let pages = jobs.len();
    in_parallel(pages + a.records.len(), site, |i, site| {
        let Some(job) = jobs.get(i) else {
            // runs/<id>.html
            let r = a.records[i - pages];
            return run::build(runs, r, whole.parts(r)?, &details, site);
        };
        match job {
            Job::Beside(make) => make(site),
            Job::Index => index::build(ctx, problems, site),
            Job::Value => value::build(ctx, site),
            // studies/<study>.html
            Job::Study(sv) => study::build(ctx.at("../"), sv, site),
            // tests/<study>/<test>.html and offerings/<study>/<offering>.html
            Job::Test(study, test) => test::build(nested, study, test, site),
            Job::Offering(study, off) => offering::build(nested, study, off, site),
            // offerings/<study>/<offering>/<test>.html, where runs are too many
            Job::RunList(study, off, bounded) => runlist::build(ctx, study, off, bounded, site),
        }
    })
}

/// Chart labels for offerings of one study: when they all share one
/// provider, the provider is left out (the chart title names the study and
/// the table below has full names), so that labels cut to fit stay distinct.
fn chart_labels(study: &Study, names: &[&str]) -> Vec<String> {
    let offs: Vec<Option<&OfferingData>> = names.iter().map(|n| study.offerings.get(*n)).collect();
    let first = offs
        .first()
        .copied()
        .flatten()
        .and_then(|o| o.provider.as_deref());
    let shared = names.len() >= 2
        && first.is_some()
        && offs
            .iter()
            .all(|o| o.is_some_and(|o| o.provider.as_deref() == first && o.offering.is_some()));
    names
        .iter()
        .zip(&offs)
        .map(|(name, o)| match o.and_then(|o| o.offering.clone()) {
            Some(off) if shared => off,
            _ => name.to_string(),
        })
        .collect()
}

/// Distinct values joined with ` / `; past ten, the rest are counted, so a
/// parameter that differs in every run does not swell the page.
fn capped<S: AsRef<str>>(values: &[S]) -> String {
    let shown: Vec<&str> = values
        .iter()
        .take(CAPPED_SHOWN)
        .map(AsRef::as_ref)
        .collect();
    capped_of(&shown, values.len())
}

/// How many values [`capped`] shows.
const CAPPED_SHOWN: usize = 10;

/// The first values of `total` joined as [`capped`] joins them.
fn capped_of(shown: &[&str], total: usize) -> String {
    let mut out: Vec<&str> = shown.iter().take(CAPPED_SHOWN).copied().collect();
    let more;
    if total > out.len() {
        more = format!("... {} more (see the runs)", total - out.len());
        out.push(&more);
    }
    out.join(" / ")
}

/// Distinct values of a field over items (records, or their hosts or
/// targets), `unknown` where absent.
fn distinct<T>(items: &[&T], f: impl Fn(&T) -> Option<String>) -> String {
    let vals: BTreeSet<String> = items
        .iter()
        .map(|r| f(r).unwrap_or_else(|| "unknown".into()))
        .collect();
    capped(&vals.into_iter().collect::<Vec<_>>())
}

/// Each of `items` once by where it is held: records share equal parts
/// (`ingest` holds one copy of each), so that the values of a field are
/// formatted once per copy instead of once per record.
fn held_once<'r, T: 'r>(items: impl Iterator<Item = &'r std::sync::Arc<T>>) -> Vec<&'r T> {
    let mut held: Vec<&T> = items.map(|a| &**a).collect();
    held.sort_unstable_by_key(|t| std::ptr::from_ref(*t) as usize);
    held.dedup_by(|a, b| std::ptr::eq(*a, *b));
    held
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_built_in_parallel_are_all_added_and_the_first_error_in_page_order_wins() {
        let site = crate::report::site::Memory::default();
        in_parallel(40, &site, |i, site| {
            site.write(&format!("p/{i}.html"), i.to_string().as_bytes())
        })
        .unwrap();
        // a later call may write a path again: the later content stays
        in_parallel(2, &site, |i, site| {
            site.write(&format!("p/{i}.html"), format!("again {i}").as_bytes())
        })
        .unwrap();
        let err = in_parallel(40, &site, |i, _| match i {
            7 | 30 => anyhow::bail!("page {i} failed"),
            _ => Ok(()),
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "page 7 failed");
        let files = site.into_site().files;
        assert_eq!(files.len(), 40);
        assert_eq!(files["p/17.html"], b"17");
        assert_eq!(files["p/1.html"], b"again 1");
    }

    #[test]
    fn a_charts_image_takes_the_size_and_title_of_its_svg() {
        let svg = "<svg class=\"dd-chart dd-narrow\" viewBox=\"0 0 360 646\" width=\"100%\">\n<title id=\"x-title\">A &amp; B &lt;gp3&gt; &#39;q&#39;</title>\n<g><title>bar</title></g></svg>";
        assert_eq!(view_box(svg), ("360".to_string(), "646".to_string()));
        assert_eq!(svg_title(svg), "A & B <gp3> 'q'");
        assert_eq!(view_box("<svg>"), (String::new(), String::new()));
        assert_eq!(svg_title("<svg/>"), "");
    }

    #[test]
    fn trimmed_in_place_is_trim() {
        for s in [
            "",
            " ",
            "<svg/>",
            "\n <svg>\n</svg>\n\n",
            "\u{3000}x\u{a0} ",
        ] {
            assert_eq!(trimmed(s.to_string()), s.trim(), "{s:?}");
        }
    }

    #[test]
    fn many_distinct_values_are_counted_not_listed() {
        let few: Vec<String> = ["a", "b"].iter().map(|s| s.to_string()).collect();
        assert_eq!(capped(&few), "a / b");
        let many: Vec<String> = (0..12).map(|i| format!("v{i:02}")).collect();
        assert_eq!(
            capped(&many),
            "v00 / v01 / v02 / v03 / v04 / v05 / v06 / v07 / v08 / v09 / ... 2 more (see the runs)"
        );
    }
}
