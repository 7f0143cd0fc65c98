//! `value.html`: per study, test and metric, price against performance with
//! ratios and verdicts, and the value charts.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;
use askama::Template;

use super::*;
use crate::analysis::stats::{Study, LARGE_SPREAD_CV};
use crate::analysis::value::{self, ValueTable, BANDS};
use crate::format::{self, display_unit};
use crate::metrics::human_name;
use crate::report::site::Output;
use crate::report::story::{failure_lines, monthly_text};
use crate::report::{charts, unique_slugs};

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
    pub median: String,
    pub price_ratio: String,
    /// What the price ratio divides: `monthly`, `per GB`.
    pub basis: String,
    pub performance_ratio: String,
    pub value_ratio: String,
    pub verdict: String,
    pub class: String,
    pub monthly: String,
    pub per_cost: String,
    /// For a sustained level: the burst level and its ratios
    /// (`3,000 IOPS while credits last: 10.0x, value 2.50`).
    pub burst: String,
    /// For a sustained level: `reached (range 4.1%, slope 2.0%)`.
    pub steady: String,
}

/// Rows a value table shows on `value.html`; a longer one links to a page
/// of its own, so that the page stays small with hundreds of configurations.
pub const TABLE_ROWS_SHOWN: usize = 50;

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
    /// For a sustained level: what it is and what is not judged beside it.
    pub sustained_note: String,
    /// Whether the table judges a sustained level (a steady-state column).
    pub is_sustained: bool,
    /// Whether a row has a burst (a burst column).
    pub has_burst: bool,
    pub rows: Vec<ValueRowView>,
    /// `450 more configurations` when the rows are the first of a long
    /// table, which `whole` links to; empty otherwise.
    pub more: String,
    pub whole: Link,
    pub chart: ChartView,
    pub has_chart: bool,
}

/// One study on `value.html`.
#[derive(Clone, Debug, Default)]
pub struct StudyValueView {
    pub name: String,
    pub anchor: String,
    /// Link to the study's own page.
    pub page: Link,
    pub baseline: String,
    /// Which exchange rate of which date converted each other currency.
    pub rates: Vec<String>,
    /// The configurations not compared for lack of an exchange rate, and
    /// why; empty when there are none.
    pub no_rate: String,
    /// Which prices come from the built-in catalogue, and as of when
    /// ([`crate::report::story::catalogue_sentence`]); empty for none.
    pub catalogue: String,
    /// `configuration: test failed: error` for every run without a result.
    pub failures: Vec<String>,
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

/// The study's baseline and why, or why there is none.
pub(super) fn baseline_text(sv: &value::StudyValue) -> String {
    match &sv.baseline {
        Some(b) => format!("{b} ({})", sv.baseline_reason),
        None => "none: no offering in this study has a price, so there are no ratios".to_string(),
    }
}

/// A value chart for a table, when at least two priced offerings have the metric.
pub(super) fn value_chart_for(
    ctx: PageCtx,
    inline: bool,
    study: &Study,
    sv: &value::StudyValue,
    t: &ValueTable,
    site: &dyn Output,
    path: String,
) -> Option<Result<ChartView>> {
    // the chart's x axis is the cost the study's verdicts divide
    let basis = sv.basis?;
    let priced: Vec<&value::ValueRow> = t
        .rows
        .iter()
        .filter(|r| r.price_basis == Some(basis) && r.median > 0.0)
        .collect();
    if priced.len() < 2 {
        return None;
    }
    let du = display_unit(t.unit, priced.iter().map(|r| r.median).fold(0.0, f64::max));
    // the baseline's currency, which converted prices are in
    let currency = sv
        .currency
        .clone()
        .or_else(|| {
            priced
                .first()
                .and_then(|r| r.price.as_ref())
                .map(|p| p.currency.clone())
        })
        .unwrap_or_default();
    let converted: Vec<&str> = sv
        .conversions
        .iter()
        .filter(|c| {
            priced
                .iter()
                .any(|r| r.rate.is_some() && r.price.as_ref().is_some_and(|p| p.currency == c.from))
        })
        .map(|c| c.from.as_str())
        .collect();
    let human = human_name(&t.metric);
    let names: Vec<&str> = priced.iter().map(|r| r.offering.as_str()).collect();
    let labels = chart_labels(study, &names);
    let points: Vec<charts::ValuePoint> = priced
        .iter()
        .zip(labels)
        .map(|(r, label)| charts::ValuePoint {
            // a short test measured on a burst is drawn where it was
            // measured, but says it is not what the verdict is made of
            label: match r.measured.filter(|m| !m.keeps_verdict()) {
                Some(m) => format!("{label} ({})", m.words()),
                None => label,
            },
            // in the baseline's currency: a converted price at its rate
            price_per_gb: match basis {
                value::PriceBasis::Monthly => r.converted_monthly_cost(),
                value::PriceBasis::PerGb => r.converted_per_gb(),
            }
            .unwrap_or(0.0),
            performance: r.median / du.factor,
        })
        .collect();
    let baseline = priced.iter().position(|r| r.is_baseline);
    let spec = charts::ValueChart {
        title: format!("{}: {human} vs {} ({})", sv.study, basis.words(), t.test),
        desc: format!(
            "{} against median {human} in {} for {} configurations of study {}; lines of equal value run through the baseline {}.{}{}{}",
            match basis {
                value::PriceBasis::Monthly => "Monthly cost",
                value::PriceBasis::PerGb => "Price per GB-month",
            },
            du.label,
            points.len(),
            sv.study,
            t.baseline_row()
                .map(|r| r.offering.as_str())
                .unwrap_or("(none)"),
            if converted.is_empty() {
                String::new()
            } else {
                format!(
                    " Prices in {} converted to {currency} at the study's exchange rates.",
                    converted.join(", ")
                )
            },
            if priced
                .iter()
                .any(|r| r.measured.is_some_and(|m| !m.keeps_verdict()))
            {
                " Points marked while bursting were measured on a burst that a sustained test shows does not last, and are not judged."
            } else {
                ""
            },
            // a cost at the level a price includes says so, as the tables do
            included_notes(sv, &priced, basis),
        ),
        x_label: match basis {
            value::PriceBasis::Monthly => format!("monthly cost ({currency})"),
            value::PriceBasis::PerGb => format!("price per GB-month ({currency})"),
        },
        y_label: format!("{human} ({})", du.label),
        higher_is_better: t.unit.higher_is_better(),
        points,
        baseline,
    };
    let alt = spec.desc.clone();
    // every configuration of the study the chart does not draw, with why
    let drawn = |name: &str| priced.iter().any(|r| r.offering == name);
    let left_out: Vec<String> = sv
        .prices
        .keys()
        .filter(|name| !drawn(name))
        .map(|name| {
            let why = match t.rows.iter().find(|r| r.offering == *name) {
                Some(r) if r.median <= 0.0 => "no positive result".to_string(),
                Some(r) if r.price_basis != Some(basis) => sv
                    .not_judged_in(t)
                    .into_iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, why)| why)
                    .unwrap_or_else(|| format!("no {}", basis.words())),
                _ => format!("no {} result", t.test),
            };
            format!("{name} ({why})")
        })
        .collect();
    let view = ctx.chart(site, path, charts::draw(&spec));
    Some(view.map(|mut view| {
        if !left_out.is_empty() {
            view.left_out = format!("Not drawn: {}.", left_out.join("; "));
        }
        if inline {
            view
        } else {
            view.as_image(alt)
        }
    }))
}

/// What the monthly costs of the chart's configurations assume where a
/// price includes IOPS or MB/s that their records name no figure for:
/// ` AWS gp3 · 100 GB: 3,000 IOPS and 125 MiB/s included; ...`; empty
/// otherwise.
fn included_notes(
    sv: &value::StudyValue,
    priced: &[&value::ValueRow],
    basis: value::PriceBasis,
) -> String {
    if basis != value::PriceBasis::Monthly {
        return String::new();
    }
    priced
        .iter()
        .filter_map(|r| {
            let note = sv.cost_notes.get(&r.offering)?;
            Some(format!(" {}: {note}.", r.offering))
        })
        .collect()
}

/// Builds `value.html`.
pub(super) fn build(ctx: PageCtx, site: &dyn Output) -> Result<()> {
    let bands = BANDS
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let upper = i
                .checked_sub(1)
                .and_then(|j| BANDS.get(j))
                .map(|u| u.at_least);
            let range = match (b.at_least.is_finite(), upper) {
                (true, None) => format!("{:.1} or more", b.at_least),
                (true, Some(u)) => format!("{:.1} to {u:.1}", b.at_least),
                (false, Some(u)) => format!("below {u:.1}"),
                (false, None) => "any".to_string(),
            };
            BandRow {
                range,
                verdict: b.verdict.to_string(),
                meaning: b.meaning.to_string(),
            }
        })
        .collect();
    // every table's slugs and chart, the charts drawn in parallel
    let mut slugged = Vec::new();
    for sv in &ctx.analysis.values {
        let sslug = ctx.paths.study_slug(&sv.study).to_string();
        let metric_slugs_by_test: BTreeMap<&str, BTreeMap<String, String>> = sv
            .tables
            .iter()
            .map(|t| t.test.as_str())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .map(|test| {
                let metrics = sv
                    .tables
                    .iter()
                    .filter(|t| t.test == test)
                    .map(|t| t.metric.as_str());
                (test, unique_slugs(metrics))
            })
            .collect();
        for t in &sv.tables {
            let tslug = ctx.paths.test_slug(&sv.study, &t.test).to_string();
            let mslug = metric_slugs_by_test
                .get(t.test.as_str())
                .and_then(|m| m.get(&t.metric))
                .cloned()
                .unwrap_or_else(|| "x".into());
            slugged.push((sv, t, sslug.clone(), tslug, mslug));
        }
    }
    let mut charts = super::par_map(&slugged, site, |(sv, t, sslug, tslug, mslug), site| {
        let chart_path = format!("charts/{sslug}/value/{tslug}--{mslug}.svg");
        ctx.analysis
            .data
            .studies
            .get(&sv.study)
            .and_then(|study| value_chart_for(ctx, false, study, sv, t, site, chart_path))
    })
    .into_iter();
    let mut slugged = slugged.into_iter().peekable();
    let mut studies = Vec::new();
    let mut whole_pages = Vec::new();
    for sv in &ctx.analysis.values {
        let sslug = ctx.paths.study_slug(&sv.study).to_string();
        let mut tables = Vec::new();
        while let Some((_, t, _, tslug, mslug)) = slugged.next_if(|(of, ..)| std::ptr::eq(*of, sv))
        {
            let chart = charts.next().flatten().transpose()?;
            let human = human_name(&t.metric);
            let base_price = sv
                .baseline
                .as_ref()
                .and_then(|b| sv.prices.get(b))
                .and_then(Option::as_ref);
            let currency = base_price
                .map(|p| p.currency.clone())
                .or_else(|| {
                    t.rows
                        .iter()
                        .find_map(|r| r.price.as_ref().map(|p| p.currency.clone()))
                })
                .unwrap_or_else(|| "USD".into());
            let mut rows = row_views(ctx, sv, t, &currency);
            // a long table: value.html shows its first rows (in cost order)
            // and links to a page with all of them
            let (more, whole) = if rows.len() > TABLE_ROWS_SHOWN {
                let href = format!("value/{sslug}/{tslug}--{mslug}.html");
                whole_pages.push((sv, t, currency.clone(), href.clone()));
                let more = rows.len() - TABLE_ROWS_SHOWN;
                rows.truncate(TABLE_ROWS_SHOWN);
                (
                    format::count_of(more, "more configuration", "more configurations"),
                    ctx.link("the whole table", &href),
                )
            } else {
                (String::new(), Link::default())
            };
            tables.push(ValueTableView {
                anchor: format!("{sslug}--{tslug}--{mslug}"),
                test: ctx.link(&t.test, &ctx.paths.test_page(&sv.study, &t.test)),
                metric: human,
                metric_id: t.metric.clone(),
                direction: direction(t.unit.higher_is_better()).to_string(),
                per_cost_label: format!("per {currency} per month"),
                baseline_note: match (t.baseline_row(), &sv.baseline) {
                    (Some(b), Some(study_base)) if b.offering != *study_base => format!(
                        "Compared with {}, the cheapest with a result here: {study_base} has none.",
                        b.offering
                    ),
                    _ => String::new(),
                },
                sustained_note: match t.metric.strip_suffix(crate::metrics::SUSTAINED) {
                    Some(base) if t.is_sustained() => format!(
                        "Judged on the sustained level, what the volume gives once any burst is spent. The whole-run {} and latency percentiles of this test average the burst and what follows, so they are shown on the test page and not judged. Where a volume bursts, the burst column gives its burst level (a flat volume's is its sustained level) against the baseline's.",
                        human_name(base)
                    ),
                    _ => String::new(),
                },
                is_sustained: t.is_sustained(),
                has_burst: t.rows.iter().any(|r| r.burst.is_some()),
                rows,
                more,
                whole,
                has_chart: chart.is_some(),
                chart: chart.unwrap_or_default(),
            });
        }
        studies.push(StudyValueView {
            name: sv.study.clone(),
            anchor: format!("study-{sslug}"),
            page: ctx.link(&sv.study, &ctx.paths.study_page(&sv.study)),
            baseline: baseline_text(sv),
            rates: crate::report::story::rate_sentences(sv),
            no_rate: crate::report::story::no_rate_sentence(sv).unwrap_or_default(),
            catalogue: crate::report::story::catalogue_sentence(sv).unwrap_or_default(),
            failures: ctx
                .analysis
                .data
                .studies
                .get(&sv.study)
                .map(|st| {
                    st.offerings
                        .keys()
                        .flat_map(|o| {
                            failure_lines(sv, o)
                                .into_iter()
                                .map(move |l| format!("{o}: {l}"))
                        })
                        .collect()
                })
                .unwrap_or_default(),
            tables,
        });
    }
    let page = ValuePage {
        page: ctx.meta( "Price and performance".into(), vec![ctx.link("Overview", "index.html")]),
        bands,
        spread: format!(
            "Medians are over repetitions; test pages flag a coefficient of variation of {} or more as a large spread.",
            format::percent(LARGE_SPREAD_CV)
        ),
        studies,
    };
    render(site, "value.html".into(), &page)?;
    // value/<study>/<test>--<metric>.html: the long tables whole
    let nested = ctx.at("../../");
    for (sv, t, currency, href) in whole_pages {
        let human = human_name(&t.metric);
        let page = WholeTablePage {
            page: nested.meta(
                format!("{}: {human}, value in {}", t.test, sv.study),
                vec![
                    nested.link("Overview", "index.html"),
                    nested.link("Value", "value.html"),
                    nested.link(
                        &sv.study,
                        &format!("value.html#study-{}", ctx.paths.study_slug(&sv.study)),
                    ),
                ],
            ),
            test: nested.link(&t.test, &ctx.paths.test_page(&sv.study, &t.test)),
            study: nested.link(&sv.study, &ctx.paths.study_page(&sv.study)),
            baseline: baseline_text(sv),
            t: ValueTableView {
                direction: direction(t.unit.higher_is_better()).to_string(),
                per_cost_label: format!("per {currency} per month"),
                is_sustained: t.is_sustained(),
                has_burst: t.rows.iter().any(|r| r.burst.is_some()),
                rows: row_views(nested, sv, t, &currency),
                ..ValueTableView::default()
            },
        };
        render(site, href, &page)?;
    }
    Ok(())
}

/// A value table too long for `value.html`, whole.
#[derive(Template, Debug)]
#[template(path = "value_table.html")]
pub struct WholeTablePage {
    pub page: PageMeta,
    pub test: Link,
    pub study: Link,
    pub baseline: String,
    pub t: ValueTableView,
}

/// The rows of one value table as a page at `ctx`'s depth shows them.
fn row_views(
    ctx: PageCtx,
    sv: &value::StudyValue,
    t: &ValueTable,
    currency: &str,
) -> Vec<ValueRowView> {
    let mut rows: Vec<ValueRowView> = t
        .rows
        .iter()
        .map(|r| ValueRowView {
            offering: ctx.link(
                &r.offering,
                &ctx.paths.offering_page(&sv.study, &r.offering),
            ),
            median: format::value(r.median, t.unit),
            price_ratio: r.price_ratio.map(format::ratio).unwrap_or_default(),
            basis: match r.price_basis {
                Some(value::PriceBasis::Monthly) => "monthly".into(),
                Some(value::PriceBasis::PerGb) => "per GB".into(),
                None => String::new(),
            },
            performance_ratio: r.performance_ratio.map(format::ratio).unwrap_or_default(),
            value_ratio: r.value_ratio.map(format::ratio_table).unwrap_or_default(),
            // the ratios have columns of their own: the verdict in words
            verdict: r
                .verdict_text()
                .or_else(|| r.no_verdict.clone())
                .unwrap_or_default(),
            class: verdict_class(r.verdict),
            monthly: monthly_text(sv, &r.offering),
            per_cost: r
                .per_cost
                .map(|v| {
                    let shown = format::value(v, t.unit);
                    // the column is headed with the baseline's currency,
                    // which a converted cost is in
                    match &r.price {
                        Some(p) if p.currency != currency && r.rate.is_none() => {
                            format!("{shown} per {}", p.currency)
                        }
                        _ => shown,
                    }
                })
                .unwrap_or_default(),
            burst: r
                .burst
                .as_ref()
                .map(|b| {
                    let mut text =
                        format!("{} {}", format::value(b.level, t.unit), b.while_words());
                    if let Some(p) = b.performance_ratio {
                        text.push_str(&format!(": {}", format::ratio(p)));
                    }
                    if let Some(v) = b.value_ratio {
                        text.push_str(&format!(", value {}", format::ratio_table(v)));
                    }
                    text
                })
                .unwrap_or_default(),
            steady: r
                .steady
                .as_ref()
                .map(value::Steady::text)
                .unwrap_or_default(),
        })
        .collect();
    // a timed test's configurations without a timeline: named, not compared
    rows.extend(t.unmeasured.iter().map(|u| ValueRowView {
        offering: ctx.link(
            &u.offering,
            &ctx.paths.offering_page(&sv.study, &u.offering),
        ),
        verdict: u.reason.clone(),
        monthly: monthly_text(sv, &u.offering),
        ..ValueRowView::default()
    }));
    rows
}
