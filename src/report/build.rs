//! Turns the analysis into pages and charts: the view models of
//! `report::pages`, filled with strings from `report::format`.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context, Result};
use askama::Template;

use crate::analysis::stats::{OfferingData, Study, LARGE_SPREAD_CV};
use crate::analysis::value::{self, human_name, is_headline, metric_order, ValueTable, BANDS};
use crate::ingest::Problem;
use crate::record::{Record, Source};
use crate::report::charts;
use crate::report::format::{self, display_unit};
use crate::report::pages::*;
use crate::report::site::Site;
use crate::report::{unique_slugs, Analysis, Options};
use crate::units::Unit;

/// Where every page lives. Paths are relative to the site root.
struct Paths {
    study: BTreeMap<String, String>,
    offering: BTreeMap<(String, String), String>,
    test: BTreeMap<(String, String), String>,
}

impl Paths {
    fn new(a: &Analysis) -> Paths {
        let study = unique_slugs(a.data.studies.keys().map(String::as_str));
        let mut offering = BTreeMap::new();
        let mut test = BTreeMap::new();
        for (name, s) in &a.data.studies {
            for (o, slug) in unique_slugs(s.offerings.keys().map(String::as_str)) {
                offering.insert((name.clone(), o), slug);
            }
            for (t, slug) in unique_slugs(s.tests.iter().map(String::as_str)) {
                test.insert((name.clone(), t), slug);
            }
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
            .get(&(study.to_string(), test.to_string()))
            .map(String::as_str)
            .unwrap_or("x")
    }

    fn offering_page(&self, study: &str, offering: &str) -> String {
        let o = self
            .offering
            .get(&(study.to_string(), offering.to_string()))
            .map(String::as_str)
            .unwrap_or("x");
        format!("offerings/{}/{o}.html", self.study_slug(study))
    }

    fn test_page(&self, study: &str, test: &str) -> String {
        format!(
            "tests/{}/{}.html",
            self.study_slug(study),
            self.test_slug(study, test)
        )
    }

    fn run_page(&self, id: &str) -> String {
        format!("runs/{id}.html")
    }
}

fn link(text: impl Into<String>, root: &str, path: &str) -> Link {
    Link {
        text: text.into(),
        href: format!("{root}{path}"),
    }
}

fn meta(opts: &Options, title: String, root: &str, crumbs: Vec<Link>) -> PageMeta {
    PageMeta {
        title,
        site_title: opts.title.clone(),
        root: root.to_string(),
        crumbs,
        version: env!("CARGO_PKG_VERSION").to_string(),
    }
}

/// Renders a chart, adds its standalone file to the site, and returns the
/// view; a chart that cannot be drawn becomes a note, never a dead link.
fn chart(site: &mut Site, path: String, root: &str, drawn: Result<String>) -> ChartView {
    match drawn {
        Ok(svg) => {
            let inline = match svg.trim_start().strip_prefix("<?xml") {
                Some(rest) => rest.split_once("?>").map(|(_, r)| r).unwrap_or(rest),
                None => svg.as_str(),
            }
            .trim()
            .to_string();
            site.add(path.clone(), svg.into_bytes());
            ChartView {
                svg: inline,
                file: format!("{root}{path}"),
                unavailable: String::new(),
                alt: String::new(),
            }
        }
        Err(e) => ChartView {
            svg: String::new(),
            file: String::new(),
            unavailable: format!("{e:#}"),
            alt: String::new(),
        },
    }
}

fn verdict_class(verdict: Option<&str>) -> String {
    verdict.map(crate::record::slug).unwrap_or_default()
}

fn direction(unit: Unit) -> &'static str {
    if unit.higher_is_better() {
        "higher is better"
    } else {
        "lower is better"
    }
}

fn render(site: &mut Site, path: String, page: &impl Template) -> Result<()> {
    let html = page
        .render()
        .with_context(|| format!("failed to render `{path}`"))?;
    site.add(path, html.into_bytes());
    Ok(())
}

/// Builds every page and chart.
pub fn pages(a: &Analysis, problems: &[Problem], opts: &Options, site: &mut Site) -> Result<()> {
    let paths = Paths::new(a);
    index(a, &paths, problems, opts, site)?;
    value_page(a, &paths, opts, site)?;
    for (study, s) in &a.data.studies {
        for test in &s.tests {
            test_page(a, &paths, opts, study, test, site)?;
        }
        for off in s.offerings.values() {
            offering_page(a, &paths, opts, study, off, site)?;
        }
    }
    for r in &a.records {
        run_page(&paths, opts, r, site)?;
    }
    Ok(())
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

fn baseline_text(sv: &value::StudyValue) -> String {
    match &sv.baseline {
        Some(b) => format!("{b} ({})", sv.baseline_reason),
        None => "none: no offering in this study has a price, so there are no ratios".to_string(),
    }
}

/// A value chart for a table, when at least two priced offerings have the metric.
fn value_chart_for(
    inline: bool,
    study: &Study,
    sv: &value::StudyValue,
    t: &ValueTable,
    site: &mut Site,
    path: String,
    root: &str,
) -> Option<ChartView> {
    let priced: Vec<&value::ValueRow> = t
        .rows
        .iter()
        .filter(|r| r.price_ratio.is_some() && r.median > 0.0)
        .collect();
    if priced.len() < 2 {
        return None;
    }
    let du = display_unit(t.unit, priced.iter().map(|r| r.median).fold(0.0, f64::max));
    let currency = priced
        .first()
        .and_then(|r| r.price.as_ref())
        .map(|p| p.currency.clone())
        .unwrap_or_default();
    let human = human_name(&t.metric);
    let names: Vec<&str> = priced.iter().map(|r| r.offering.as_str()).collect();
    let labels = chart_labels(study, &names);
    let points: Vec<charts::ValuePoint> = priced
        .iter()
        .zip(labels)
        .map(|(r, label)| charts::ValuePoint {
            label,
            price_per_gb: r
                .price
                .as_ref()
                .and_then(|p| p.per_gb_month())
                .unwrap_or(0.0),
            performance: r.median / du.factor,
        })
        .collect();
    let baseline = priced.iter().position(|r| r.is_baseline);
    let spec = charts::ValueChart {
        title: format!("{}: {human} vs price per GB ({})", sv.study, t.test),
        desc: format!(
            "Price per GB-month against median {human} in {} for {} offerings of study {}; lines of equal value run through the baseline {}.",
            du.label,
            points.len(),
            sv.study,
            t.baseline_row()
                .map(|r| r.offering.as_str())
                .unwrap_or("(none)")
        ),
        x_label: format!("price per GB-month ({currency})"),
        y_label: format!("{human} ({})", du.label),
        higher_is_better: t.unit.higher_is_better(),
        points,
        baseline,
    };
    let alt = spec.desc.clone();
    let view = chart(site, path, root, charts::value_chart(&spec));
    Some(if inline { view } else { view.as_image(alt) })
}

/// Sorts priced offerings: another currency than the baseline's, currency, price.
type PriceKey<'a> = (bool, &'a str, f64);

fn index(
    a: &Analysis,
    paths: &Paths,
    problems: &[Problem],
    opts: &Options,
    site: &mut Site,
) -> Result<()> {
    let root = "";
    let mut studies = Vec::new();
    for sv in &a.values {
        let Some(study) = a.data.studies.get(&sv.study) else {
            continue;
        };
        let sslug = paths.study_slug(&sv.study).to_string();
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
                            p.per_gb_month().unwrap_or(f64::INFINITY),
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
                    link: link(&o.name, root, &paths.offering_page(&sv.study, &o.name)),
                    price: price
                        .map(format::price_per_gb)
                        .unwrap_or_else(|| "unknown".to_string()),
                    price_note: price.and_then(|p| p.note.clone()).unwrap_or_default(),
                    size: o
                        .size_gb
                        .map(format::size_gb)
                        .unwrap_or_else(|| "unknown".into()),
                    monthly: match (sv.monthly_costs.get(&o.name).copied().flatten(), price) {
                        (Some(c), Some(p)) => format::money(c, &p.currency),
                        _ => "unknown".to_string(),
                    },
                    runs: o.records.len().to_string(),
                    is_baseline: sv.baseline.as_deref() == Some(o.name.as_str()),
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
                    test: link(&t.test, root, &paths.test_page(&sv.study, &t.test)),
                    sentence,
                    class: verdict_class(row.verdict),
                });
            }
            if !items.is_empty() {
                headlines.push(OfferingHeadlines {
                    offering: link(&o.name, root, &paths.offering_page(&sv.study, &o.name)),
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
            if let Some(c) = value_chart_for(true, study, sv, t, site, path, root) {
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
                .map(|t| link(t, root, &paths.test_page(&sv.study, t)))
                .collect(),
            charts: charts_out,
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
        page: meta(opts, opts.title.clone(), root, Vec::new()),
        studies,
        records: format!(
            "Built from {} records in {} studies{}.",
            a.records.len(),
            a.data.studies.len(),
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

fn value_page(a: &Analysis, paths: &Paths, opts: &Options, site: &mut Site) -> Result<()> {
    let root = "";
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
    let mut studies = Vec::new();
    for sv in &a.values {
        let sslug = paths.study_slug(&sv.study).to_string();
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
        let mut tables = Vec::new();
        for t in &sv.tables {
            let tslug = paths.test_slug(&sv.study, &t.test).to_string();
            let mslug = metric_slugs_by_test
                .get(t.test.as_str())
                .and_then(|m| m.get(&t.metric))
                .cloned()
                .unwrap_or_else(|| "x".into());
            let du = display_unit(t.unit, t.rows.iter().map(|r| r.median).fold(0.0, f64::max));
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
            let rows = t
                .rows
                .iter()
                .map(|r| ValueRowView {
                    offering: link(
                        &r.offering,
                        root,
                        &paths.offering_page(&sv.study, &r.offering),
                    ),
                    price: r
                        .price
                        .as_ref()
                        .map(format::price_per_gb)
                        .unwrap_or_else(|| "unknown".into()),
                    median: format::with_unit(r.median, du),
                    runs: r.runs.to_string(),
                    price_ratio: r.price_ratio.map(format::ratio).unwrap_or_default(),
                    performance_ratio: r.performance_ratio.map(format::ratio).unwrap_or_default(),
                    value_ratio: r.value_ratio.map(format::ratio_data).unwrap_or_default(),
                    verdict: format::verdict_sentence(r, &human, t.unit.higher_is_better())
                        .or_else(|| value::why_no_verdict(r, t, base_price))
                        .unwrap_or_default(),
                    class: verdict_class(r.verdict),
                    monthly: match (r.monthly_cost, &r.price) {
                        (Some(c), Some(p)) => format::money(c, &p.currency),
                        _ => String::new(),
                    },
                    per_cost: r
                        .per_cost
                        .map(|v| {
                            let shown = format::with_unit(v, display_unit(t.unit, v));
                            // the column is headed with the baseline's currency
                            match &r.price {
                                Some(p) if p.currency != currency => {
                                    format!("{shown} per {}", p.currency)
                                }
                                _ => shown,
                            }
                        })
                        .unwrap_or_default(),
                })
                .collect();
            let chart_path = format!("charts/{sslug}/value/{tslug}--{mslug}.svg");
            let chart = a
                .data
                .studies
                .get(&sv.study)
                .and_then(|study| value_chart_for(false, study, sv, t, site, chart_path, root));
            tables.push(ValueTableView {
                anchor: format!("{sslug}--{tslug}--{mslug}"),
                test: link(&t.test, root, &paths.test_page(&sv.study, &t.test)),
                metric: human,
                metric_id: t.metric.clone(),
                direction: direction(t.unit).to_string(),
                per_cost_label: format!("per {currency} per month"),
                baseline_note: match (t.baseline_row(), &sv.baseline) {
                    (Some(b), Some(study_base)) if b.offering != *study_base => format!(
                        "Compared with {}, the cheapest per GB with a result here: {study_base} has none.",
                        b.offering
                    ),
                    _ => String::new(),
                },
                rows,
                has_chart: chart.is_some(),
                chart: chart.unwrap_or_default(),
            });
        }
        studies.push(StudyValueView {
            name: sv.study.clone(),
            anchor: format!("study-{sslug}"),
            baseline: baseline_text(sv),
            tables,
        });
    }
    let page = ValuePage {
        page: meta(opts, "Price and performance".into(), root, vec![link("Overview", root, "index.html")]),
        bands,
        spread: format!(
            "Medians are over repetitions; test pages flag a coefficient of variation of {} or more as a large spread.",
            format::percent(LARGE_SPREAD_CV)
        ),
        studies,
    };
    render(site, "value.html".into(), &page)
}

fn run_link(paths: &Paths, root: &str, r: &Record) -> RunLink {
    RunLink {
        link: link(&r.id, root, &paths.run_page(&r.id)),
        offering: r.offering_name(),
        test: r.test.id.clone(),
        repetition: r.repetition.to_string(),
        status: r.status.name().to_string(),
        started: r.started_at.clone().unwrap_or_else(|| "unknown".into()),
    }
}

fn json_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn test_page(
    a: &Analysis,
    paths: &Paths,
    opts: &Options,
    study: &str,
    test: &str,
    site: &mut Site,
) -> Result<()> {
    let root = "../../";
    let Some(s) = a.data.studies.get(study) else {
        return Ok(());
    };
    let sslug = paths.study_slug(study).to_string();
    let tslug = paths.test_slug(study, test).to_string();
    let records: Vec<&Record> = s
        .offerings
        .values()
        .filter_map(|o| o.tests.get(test))
        .flat_map(|t| t.records.iter().filter_map(|&i| a.records.get(i).copied()))
        .collect();
    let mut sorted = records.clone();
    sorted.sort_by(|x, y| {
        (x.offering_name(), x.repetition, &x.id).cmp(&(y.offering_name(), y.repetition, &y.id))
    });
    let tools: BTreeSet<String> = records
        .iter()
        .map(|r| r.test.tool.name().to_string())
        .collect();
    let commands: BTreeSet<String> = records
        .iter()
        .filter_map(|r| r.test.command.clone())
        .collect();
    let mut commands: Vec<String> = commands.into_iter().collect();
    if commands.len() > 10 {
        let more = commands.len() - 10;
        commands.truncate(10);
        commands.push(format!("... and {more} more command lines (see the runs)"));
    }
    let mut params: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for r in &records {
        for (k, v) in &r.test.parameters {
            params.entry(k.as_str()).or_default().insert(json_text(v));
        }
    }
    let parameters = params
        .into_iter()
        .map(|(k, v)| Pair {
            key: k.to_string(),
            value: capped(v.into_iter().collect()),
        })
        .collect();
    let mut metric_names: Vec<&String> = a
        .values
        .iter()
        .find(|sv| sv.study == study)
        .map(|sv| {
            sv.tables
                .iter()
                .filter(|t| t.test == test)
                .map(|t| &t.metric)
                .collect()
        })
        .unwrap_or_default();
    metric_names.sort_by_key(|m| metric_order(m));
    let mslugs = unique_slugs(metric_names.iter().map(|m| m.as_str()));
    let mut metrics = Vec::new();
    for metric in &metric_names {
        let Some(t) = a.table(study, test, metric) else {
            continue;
        };
        let mslug = mslugs
            .get(metric.as_str())
            .cloned()
            .unwrap_or_else(|| "x".into());
        let stats: Vec<(&str, &crate::analysis::stats::Summary)> = t
            .rows
            .iter()
            .filter_map(|r| {
                let st = s
                    .offerings
                    .get(&r.offering)?
                    .tests
                    .get(test)?
                    .metrics
                    .get(metric.as_str())?;
                Some((r.offering.as_str(), &st.summary))
            })
            .collect();
        let du = display_unit(t.unit, stats.iter().map(|(_, s)| s.max).fold(0.0, f64::max));
        let human = human_name(metric);
        let rows = stats
            .iter()
            .map(|(o, sm)| StatRow {
                offering: link(*o, root, &paths.offering_page(study, o)),
                median: format::with_unit(sm.median, du),
                min: format::with_unit(sm.min, du),
                max: format::with_unit(sm.max, du),
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
            .collect();
        let spec = charts::BarChart {
            title: format!("{study}: {human} ({test})"),
            desc: format!(
                "Median {human} in {} per offering over repetitions, with the min-max spread, for test {test} of study {study}; {}.",
                du.label,
                direction(t.unit)
            ),
            unit: du.label.to_string(),
            higher_is_better: t.unit.higher_is_better(),
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
        let chart_view = chart(
            site,
            format!("charts/{sslug}/{tslug}/{mslug}.svg"),
            root,
            charts::bar_chart(&spec),
        );
        metrics.push(MetricSection {
            anchor: format!("metric-{mslug}"),
            human,
            metric: metric.to_string(),
            unit: if du.label.is_empty() {
                "count".into()
            } else {
                du.label.to_string()
            },
            direction: direction(t.unit).to_string(),
            rows,
            chart: chart_view,
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
        percentiles.push(chart(
            site,
            format!("charts/{sslug}/{tslug}/latency-{dir}.svg"),
            root,
            charts::percentile_chart(&spec),
        ));
    }
    let page = TestPage {
        page: meta(
            opts,
            format!("{test} in {study}"),
            root,
            vec![
                link("Overview", root, "index.html"),
                link(study, root, &format!("index.html#study-{sslug}")),
            ],
        ),
        study: study.to_string(),
        test: test.to_string(),
        tools: tools.into_iter().collect::<Vec<_>>().join(", "),
        commands,
        parameters,
        metrics,
        percentiles,
        runs: sorted.iter().map(|r| run_link(paths, root, r)).collect(),
    };
    render(site, paths.test_page(study, test), &page)
}

/// Distinct values joined with ` / `; past ten, the rest are counted, so a
/// parameter that differs in every run does not swell the page.
fn capped(mut values: Vec<String>) -> String {
    const SHOWN: usize = 10;
    if values.len() > SHOWN {
        let more = values.len() - SHOWN;
        values.truncate(SHOWN);
        values.push(format!("... {more} more (see the runs)"));
    }
    values.join(" / ")
}

/// Distinct values of a field over records, `unknown` where absent.
fn distinct(records: &[&Record], f: impl Fn(&Record) -> Option<String>) -> String {
    let vals: BTreeSet<String> = records
        .iter()
        .map(|r| f(r).unwrap_or_else(|| "unknown".into()))
        .collect();
    capped(vals.into_iter().collect())
}

fn host_pairs(records: &[&Record]) -> Vec<Pair> {
    let p = |k: &str, v: String| Pair {
        key: k.into(),
        value: v,
    };
    vec![
        p("CPU", distinct(records, |r| r.host.cpu_model.clone())),
        p(
            "CPUs",
            distinct(records, |r| r.host.cpu_count.map(|c| c.to_string())),
        ),
        p(
            "memory",
            distinct(records, |r| r.host.memory_bytes.map(format::bytes)),
        ),
        p("kernel", distinct(records, |r| r.host.kernel.clone())),
        p("OS", distinct(records, |r| r.host.os.clone())),
        p("architecture", distinct(records, |r| r.host.arch.clone())),
        p(
            "virtualisation",
            distinct(records, |r| r.host.virtualization.clone()),
        ),
        p(
            "description",
            distinct(records, |r| r.host.description.clone()),
        ),
    ]
}

fn target_pairs(records: &[&Record]) -> Vec<Pair> {
    let p = |k: &str, v: String| Pair {
        key: k.into(),
        value: v,
    };
    vec![
        p("path", distinct(records, |r| r.target.path.clone())),
        p(
            "filesystem",
            distinct(records, |r| r.target.fs_type.clone()),
        ),
        p(
            "mount options",
            distinct(records, |r| r.target.mount_options.clone()),
        ),
        p(
            "mount point",
            distinct(records, |r| r.target.mount_point.clone()),
        ),
        p("device", distinct(records, |r| r.target.device.clone())),
        p(
            "rotational",
            distinct(records, |r| {
                r.target
                    .rotational
                    .map(|b| if b { "yes" } else { "no" }.to_string())
            }),
        ),
        p(
            "scheduler",
            distinct(records, |r| r.target.scheduler.clone()),
        ),
        p(
            "size",
            distinct(records, |r| r.target.size_bytes.map(format::bytes)),
        ),
        p(
            "free at start",
            distinct(records, |r| r.target.free_bytes.map(format::bytes)),
        ),
        p(
            "description",
            distinct(records, |r| r.target.description.clone()),
        ),
    ]
}

fn offering_page(
    a: &Analysis,
    paths: &Paths,
    opts: &Options,
    study: &str,
    off: &OfferingData,
    site: &mut Site,
) -> Result<()> {
    let root = "../../";
    let sslug = paths.study_slug(study).to_string();
    let records: Vec<&Record> = off
        .records
        .iter()
        .filter_map(|&i| a.records.get(i).copied())
        .collect();
    let sv = a.values.iter().find(|v| v.study == study);
    let price = sv
        .and_then(|v| v.prices.get(&off.name))
        .and_then(Option::as_ref);
    let cost = sv
        .and_then(|v| v.monthly_costs.get(&off.name))
        .copied()
        .flatten();
    let p = |k: &str, v: String| Pair {
        key: k.into(),
        value: v,
    };
    let mut subject = vec![
        p(
            "provider",
            off.provider.clone().unwrap_or_else(|| "unknown".into()),
        ),
        p(
            "offering",
            off.offering.clone().unwrap_or_else(|| "unknown".into()),
        ),
        p("region", distinct(&records, |r| r.subject.region.clone())),
        p(
            "size",
            off.size_gb
                .map(format::size_gb)
                .unwrap_or_else(|| "unknown".into()),
        ),
        p(
            "price per GB-month",
            price
                .map(format::price_per_gb)
                .unwrap_or_else(|| "unknown".into()),
        ),
    ];
    if let Some(note) = price.and_then(|p| p.note.clone()) {
        subject.push(p("price source", note));
    }
    subject.push(p(
        "monthly cost of the tested configuration",
        match (cost, price) {
            (Some(c), Some(pr)) => format::money(c, &pr.currency),
            _ => "unknown".into(),
        },
    ));
    for (k, v) in &off.labels {
        subject.push(p(&format!("label {k}"), v.clone()));
    }
    let tests = off
        .tests
        .iter()
        .map(|(test, t)| {
            let mut ms: Vec<(&String, &crate::analysis::stats::MetricStats)> =
                t.metrics.iter().collect();
            ms.sort_by_key(|(m, _)| metric_order(m));
            OfferingTest {
                link: link(test, root, &paths.test_page(study, test)),
                metrics: ms
                    .into_iter()
                    .map(|(m, st)| {
                        let sm = &st.summary;
                        let du = display_unit(st.unit, sm.max);
                        let how = if sm.single_run() {
                            " (single run)".to_string()
                        } else {
                            format!(
                                " (median of {}, {} to {}, CV {}{})",
                                sm.n,
                                format::with_unit(sm.min, du),
                                format::with_unit(sm.max, du),
                                sm.cv.map(format::percent).unwrap_or_else(|| "n/a".into()),
                                if sm.large_spread() {
                                    ", large spread"
                                } else {
                                    ""
                                }
                            )
                        };
                        Pair {
                            key: human_name(m),
                            value: format!("{}{how}", format::with_unit(sm.median, du)),
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    let mut runs: Vec<&Record> = records.clone();
    runs.sort_by(|x, y| (&x.test.id, x.repetition, &x.id).cmp(&(&y.test.id, y.repetition, &y.id)));
    let page = OfferingPage {
        page: meta(
            opts,
            off.name.clone(),
            root,
            vec![
                link("Overview", root, "index.html"),
                link(study, root, &format!("index.html#study-{sslug}")),
            ],
        ),
        name: off.name.clone(),
        study: study.to_string(),
        subject,
        host: host_pairs(&records),
        target: target_pairs(&records),
        tests,
        runs: runs.iter().map(|r| run_link(paths, root, r)).collect(),
    };
    render(site, paths.offering_page(study, &off.name), &page)
}

fn opt(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| "unknown".into())
}

fn run_page(paths: &Paths, opts: &Options, r: &Record, site: &mut Site) -> Result<()> {
    let root = "../";
    let study = r.study();
    let sslug = paths.study_slug(study).to_string();
    let p = |k: &str, v: String| Pair {
        key: k.into(),
        value: v,
    };
    let mut figures = Vec::new();
    let source = match &r.source {
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
    let run = vec![
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
    let tool = vec![
        p("tool", r.test.tool.name().into()),
        p("version", opt(&r.test.tool_version)),
        p("test id", r.test.id.clone()),
    ];
    let parameters = r
        .test
        .parameters
        .iter()
        .map(|(k, v)| p(k, json_text(v)))
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
    let mut ms: Vec<(&String, &crate::record::Metric)> = r.metrics.iter().collect();
    ms.sort_by_key(|(m, _)| metric_order(m));
    let metrics = ms
        .into_iter()
        .map(|(m, v)| RunMetric {
            human: human_name(m),
            metric: m.clone(),
            value: Unit::parse(&v.unit)
                .map(|u| format::value(v.value, u))
                .unwrap_or_else(|| format!("{} {}", format::number(v.value), v.unit)),
            canonical: format!("{} {}", format::data(v.value), v.unit),
        })
        .collect();
    let raw = r.raw.clone().unwrap_or_default();
    let rec = [r];
    let page = RunPage {
        page: meta(
            opts,
            format!("Run {}", r.id),
            root,
            vec![
                link("Overview", root, "index.html"),
                link(study, root, &format!("index.html#study-{sslug}")),
                link(
                    r.offering_name(),
                    root,
                    &paths.offering_page(study, &r.offering_name()),
                ),
            ],
        ),
        id: r.id.clone(),
        offering: link(
            r.offering_name(),
            root,
            &paths.offering_page(study, &r.offering_name()),
        ),
        test: link(&r.test.id, root, &paths.test_page(study, &r.test.id)),
        status: r.status.name().into(),
        error: r.error.clone().unwrap_or_default(),
        run,
        source,
        figures,
        tool,
        command: r.test.command.clone().unwrap_or_default(),
        parameters,
        subject,
        host: host_pairs(&rec),
        target: target_pairs(&rec),
        metrics,
        stdout: raw.stdout.unwrap_or_default(),
        stderr: raw.stderr.unwrap_or_default(),
        exit_code: raw.exit_code.map(|c| c.to_string()).unwrap_or_default(),
    };
    render(site, paths.run_page(&r.id), &page)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_distinct_values_are_counted_not_listed() {
        let few: Vec<String> = ["a", "b"].iter().map(|s| s.to_string()).collect();
        assert_eq!(capped(few), "a / b");
        let many: Vec<String> = (0..12).map(|i| format!("v{i:02}")).collect();
        assert_eq!(
            capped(many),
            "v00 / v01 / v02 / v03 / v04 / v05 / v06 / v07 / v08 / v09 / ... 2 more (see the runs)"
        );
    }
}
