//! Askama view models: every field is a string formatted in
//! `report::format` (or SVG from `report::charts`), so templates only loop
//! and branch.

use askama::Template;

/// What every page shares: titles and the path back to the site root.
#[derive(Clone, Debug, Default)]
pub struct PageMeta {
    /// Page title.
    pub title: String,
    /// Site title (`--title`).
    pub site_title: String,
    /// Relative path from the page to the site root (`""`, `"../"`, `"../../"`).
    pub root: String,
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
#[derive(Clone, Debug, Default)]
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
    pub svg: String,
    /// Href of the standalone file; empty when unavailable.
    pub file: String,
    /// Why there is no chart; empty when there is one.
    pub unavailable: String,
    /// Text for readers who cannot see it, when shown as an image.
    pub alt: String,
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

/// One offering on the index.
#[derive(Clone, Debug, Default)]
pub struct OfferingRow {
    pub link: Link,
    pub price: String,
    pub price_note: String,
    pub size: String,
    pub monthly: String,
    pub runs: String,
    pub is_baseline: bool,
}

/// A headline verdict.
#[derive(Clone, Debug, Default)]
pub struct Headline {
    /// The test it comes from.
    pub test: Link,
    /// `4.7x the price, 4.2x the random seeks: nearly worth it`.
    pub sentence: String,
    /// CSS class from the verdict (`worth-it`, `nearly-worth-it`, ...).
    pub class: String,
}

/// The headline verdicts of one offering.
#[derive(Clone, Debug, Default)]
pub struct OfferingHeadlines {
    /// The offering.
    pub offering: Link,
    /// Its verdicts, in test and metric order.
    pub items: Vec<Headline>,
}

/// One study on the index.
#[derive(Clone, Debug, Default)]
pub struct StudySummary {
    pub name: String,
    pub anchor: String,
    pub baseline: String,
    pub offerings: Vec<OfferingRow>,
    pub headlines: Vec<OfferingHeadlines>,
    pub tests: Vec<Link>,
    pub charts: Vec<ChartView>,
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

/// One verdict band, for the explanation on `value.html`.
#[derive(Clone, Debug, Default)]
pub struct BandRow {
    pub range: String,
    pub verdict: String,
    pub meaning: String,
}

/// One row of a value table.
#[derive(Clone, Debug, Default)]
pub struct ValueRowView {
    pub offering: Link,
    pub price: String,
    pub median: String,
    pub runs: String,
    pub price_ratio: String,
    pub performance_ratio: String,
    pub value_ratio: String,
    pub verdict: String,
    pub class: String,
    pub monthly: String,
    pub per_cost: String,
}

/// One test and metric on `value.html`.
#[derive(Clone, Debug, Default)]
pub struct ValueTableView {
    pub anchor: String,
    pub test: Link,
    pub metric: String,
    pub metric_id: String,
    pub direction: String,
    pub per_cost_label: String,
    /// Says so when this table compares with another offering than the study's baseline.
    pub baseline_note: String,
    pub rows: Vec<ValueRowView>,
    pub chart: ChartView,
    pub has_chart: bool,
}

/// One study on `value.html`.
#[derive(Clone, Debug, Default)]
pub struct StudyValueView {
    pub name: String,
    pub anchor: String,
    pub baseline: String,
    pub tables: Vec<ValueTableView>,
}

/// `value.html`.
#[derive(Template, Debug)]
#[template(path = "value.html")]
pub struct ValuePage {
    pub page: PageMeta,
    pub bands: Vec<BandRow>,
    pub spread: String,
    pub studies: Vec<StudyValueView>,
}

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
    pub rows: Vec<StatRow>,
    pub chart: ChartView,
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

/// A page per test within a study.
#[derive(Template, Debug)]
#[template(path = "test.html")]
pub struct TestPage {
    pub page: PageMeta,
    pub study: String,
    pub test: String,
    pub tools: String,
    pub commands: Vec<String>,
    pub parameters: Vec<Pair>,
    pub metrics: Vec<MetricSection>,
    pub percentiles: Vec<ChartView>,
    pub runs: Vec<RunLink>,
}

/// One test on an offering page.
#[derive(Clone, Debug, Default)]
pub struct OfferingTest {
    pub link: Link,
    pub metrics: Vec<Pair>,
}

/// A page per offering within a study.
#[derive(Template, Debug)]
#[template(path = "offering.html")]
pub struct OfferingPage {
    pub page: PageMeta,
    pub name: String,
    pub study: String,
    pub subject: Vec<Pair>,
    pub host: Vec<Pair>,
    pub target: Vec<Pair>,
    pub tests: Vec<OfferingTest>,
    pub runs: Vec<RunLink>,
}

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
    pub value: String,
    pub canonical: String,
}

/// A page per record.
#[derive(Template, Debug)]
#[template(path = "run.html")]
pub struct RunPage {
    pub page: PageMeta,
    pub id: String,
    pub offering: Link,
    pub test: Link,
    pub status: String,
    pub error: String,
    pub run: Vec<Pair>,
    pub source: Vec<Pair>,
    pub figures: Vec<FigureRow>,
    pub tool: Vec<Pair>,
    pub command: String,
    pub parameters: Vec<Pair>,
    pub subject: Vec<Pair>,
    pub host: Vec<Pair>,
    pub target: Vec<Pair>,
    pub metrics: Vec<RunMetric>,
    pub stdout: String,
    pub stderr: String,
    pub exit_code: String,
}
