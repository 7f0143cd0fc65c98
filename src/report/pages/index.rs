//! `index.html`: per study, the offerings by price, the headline verdicts
//! and one price vs performance chart.

use anyhow::Result;
use askama::Template;

use super::value::{baseline_text, value_chart_for};
use super::*;
use crate::analysis::stats::OfferingData;
use crate::analysis::value::{PriceBasis, ValueTable};
use crate::ingest::Problem;
use crate::metrics::{human_name, is_headline, metric_order};
use crate::report::format;
use crate::report::site::Site;

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
    /// Failed and skipped runs, one line each.
    pub failures: Vec<String>,
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
    /// `configuration: test failed: error` for every run without a result.
    pub failures: Vec<String>,
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

/// Sorts priced offerings: another currency than the baseline's, currency, price.
type PriceKey<'a> = (bool, &'a str, f64);

/// Builds `index.html`; `problems` are the records left out, listed at the end.
pub(super) fn build(ctx: PageCtx, problems: &[Problem], site: &mut Site) -> Result<()> {
    let mut studies = Vec::new();
    for sv in &ctx.analysis.values {
        let Some(study) = ctx.analysis.data.studies.get(&sv.study) else {
            continue;
        };
        let sslug = ctx.paths.study_slug(&sv.study).to_string();
        let base_currency = sv
            .baseline
            .as_ref()
            .and_then(|b| sv.prices.get(b))
            .and_then(Option::as_ref)
            .map(|p| p.currency.as_str());
        // the baseline's currency first, by price; other currencies after,
        // since 15 JPY is not dearer than 0.70 USD
        let mut offerings: Vec<(&OfferingData, Option<PriceKey>)> = study
            .offerings
            .values()
            .map(|o| {
                let p = sv.prices.get(&o.name).and_then(Option::as_ref);
                (
                    o,
                    p.map(|p| {
                        (
                            Some(p.currency.as_str()) != base_currency,
                            p.currency.as_str(),
                            match sv.basis {
                                Some(PriceBasis::Monthly) => {
                                    sv.monthly_costs.get(&o.name).copied().flatten()
                                }
                                _ => p.per_gb_month(),
                            }
                            .unwrap_or(f64::INFINITY),
                        )
                    }),
                )
            })
            .collect();
        offerings.sort_by(|(a, pa), (b, pb)| match (pa, pb) {
            (Some((ca, ka, x)), Some((cb, kb, y))) => (ca, ka)
                .cmp(&(cb, kb))
                .then(x.total_cmp(y))
                .then_with(|| a.name.cmp(&b.name)),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => a.name.cmp(&b.name),
        });
        let offering_rows = offerings
            .iter()
            .map(|(o, _)| {
                let price = sv.prices.get(&o.name).and_then(Option::as_ref);
                OfferingRow {
                    link: ctx.link(&o.name, &ctx.paths.offering_page(&sv.study, &o.name)),
                    price: price
                        .map(format::price_per_gb)
                        .unwrap_or_else(|| "unknown".to_string()),
                    price_note: price.and_then(|p| p.note.clone()).unwrap_or_default(),
                    size: o
                        .size_gb
                        .map(format::size_gb)
                        .unwrap_or_else(|| "unknown".into()),
                    monthly: monthly_text(sv, &o.name),
                    runs: o.records.len().to_string(),
                    is_baseline: sv.baseline.as_deref() == Some(o.name.as_str()),
                    failures: failure_lines(sv, &o.name),
                }
            })
            .collect();
        // headline verdicts, grouped by offering in price order
        let mut headlines = Vec::new();
        for (o, _) in &offerings {
            let mut items = Vec::new();
            for t in sv.tables.iter().filter(|t| is_headline(&t.metric)) {
                let Some(row) = t.rows.iter().find(|r| r.offering == o.name) else {
                    continue;
                };
                if row.is_baseline {
                    continue;
                }
                let Some(sentence) = format::verdict_sentence(
                    row,
                    &human_name(&t.metric),
                    t.unit.higher_is_better(),
                ) else {
                    continue;
                };
                items.push(Headline {
                    test: ctx.link(&t.test, &ctx.paths.test_page(&sv.study, &t.test)),
                    sentence,
                    class: verdict_class(row.verdict),
                });
            }
            if !items.is_empty() {
                headlines.push(OfferingHeadlines {
                    offering: ctx.link(&o.name, &ctx.paths.offering_page(&sv.study, &o.name)),
                    items,
                });
            }
        }
        // one price vs performance chart: the first headline metric (in
        // display order) that at least two priced offerings have
        let mut charts_out = Vec::new();
        let mut candidates: Vec<&ValueTable> = sv
            .tables
            .iter()
            .filter(|t| is_headline(&t.metric))
            .filter(|t| t.rows.iter().filter(|r| r.price_ratio.is_some()).count() >= 2)
            .collect();
        candidates.sort_by_key(|t| (metric_order(&t.metric), t.test.clone()));
        if let Some(t) = candidates.first() {
            let path = format!("charts/{sslug}/overview.svg");
            if let Some(c) = value_chart_for(ctx, true, study, sv, t, site, path) {
                charts_out.push(c);
            }
        }
        studies.push(StudySummary {
            name: sv.study.clone(),
            anchor: format!("study-{sslug}"),
            baseline: baseline_text(sv),
            offerings: offering_rows,
            headlines,
            tests: study
                .tests
                .iter()
                .map(|t| ctx.link(t, &ctx.paths.test_page(&sv.study, t)))
                .collect(),
            charts: charts_out,
            failures: offerings
                .iter()
                .flat_map(|(o, _)| {
                    failure_lines(sv, &o.name)
                        .into_iter()
                        .map(move |l| format!("{}: {l}", o.name))
                })
                .collect(),
        });
    }
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
    let page = IndexPage {
        page: ctx.meta(ctx.opts.title.clone(), Vec::new()),
        studies,
        records: format!(
            "Built from {} records in {} studies{}.",
            ctx.analysis.records.len(),
            ctx.analysis.data.studies.len(),
            if left_out.is_empty() {
                String::new()
            } else {
                format!("; {} left out (listed at the end)", left_out.len())
            }
        ),
        left_out,
    };
    render(site, "index.html".into(), &page)
}
