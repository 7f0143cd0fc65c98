//! A page per offering within a study: what it is and costs, the hosts and
//! targets it ran on, its medians per test, and its runs.

use anyhow::Result;
use askama::Template;

use super::*;
use crate::analysis::stats::OfferingData;
use crate::format;
use crate::metrics::{human_name, metric_order};
use crate::record::Summary;
use crate::report::site::Output;

/// One test on an offering page.
#[derive(Clone, Debug, Default)]
pub struct OfferingTest {
    pub link: Link,
    /// Its judged metrics, shown.
    pub metrics: Vec<Pair>,
    /// Its other metrics, folded under `more_summary`.
    pub more: Vec<Pair>,
    /// `12 more figures, not judged` (`12 figures, none judged` where
    /// `metrics` is empty).
    pub more_summary: String,
    /// Where the configuration has a history: which measurement the
    /// figures come from, and the runs of older ones left out; else empty.
    pub note: String,
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
    /// The tests with a judged figure, shown.
    pub tests: Vec<OfferingTest>,
    /// The tests with none, folded under `unjudged_summary`, each with
    /// every figure it gave.
    pub unjudged: Vec<OfferingTest>,
    pub unjudged_summary: String,
    /// Its spread across machines, when it was measured on several.
    pub machines: Vec<super::machines::MachineGroup>,
    pub runs: Vec<RunLink>,
    /// Instead of `runs`, past `runlist::RUNS_SHOWN` runs: one row per test.
    pub run_groups: Vec<super::runlist::RunGroup>,
    /// What the grouped table is, in words; empty when runs are listed.
    pub runs_note: String,
    /// What the fold of `runs` holds: `120 runs, each with its own page`.
    pub runs_summary: String,
    /// Each judged metric over the configuration's measurements; empty
    /// when it was measured once.
    pub history: Vec<super::history::HistoryView>,
    /// The date of the measurement its figures come from, where it has a
    /// history; else empty.
    pub measured: String,
    /// What the fold of `history` holds.
    pub history_summary: String,
}

/// Builds the page of offering `off` in `study`.
pub(super) fn build(
    ctx: PageCtx,
    study: &str,
    off: &OfferingData,
    site: &dyn Output,
) -> Result<()> {
    let sslug = ctx.paths.study_slug(study).to_string();
    let records: Vec<&Summary> = off
        .records
        .iter()
        .filter_map(|&i| ctx.analysis.records.get(i).copied())
        .collect();
    let sv = ctx.analysis.values.iter().find(|v| v.study == study);
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
        p(
            "region",
            distinct(&held_once(records.iter().map(|r| &r.subject)), |s| {
                s.region.clone()
            }),
        ),
        p(
            "size",
            off.size_gb
                .map(format::size_gb)
                .unwrap_or_else(|| "unknown".into()),
        ),
        p(
            "price per GB-month",
            match sv {
                // with its price converted into the baseline's currency
                Some(v) if price.is_some() => crate::report::story::price_per_gb_text(v, &off.name),
                _ => price
                    .map(|p| p.per_gb_text())
                    .unwrap_or_else(|| "unknown".into()),
            },
        ),
    ];
    if let Some(note) = price.and_then(|p| p.note.clone()) {
        subject.push(p("price source", note));
    }
    subject.push(p(
        "monthly cost of the tested configuration",
        match (cost, price, sv) {
            (Some(_), Some(_), Some(v)) => crate::report::story::monthly_text(v, &off.name),
            (Some(c), Some(pr), None) => format::money(c, &pr.currency),
            _ => "unknown".into(),
        },
    ));
    // which rate converted it, or why none could
    if let Some(v) = sv {
        if let Some(c) = crate::report::story::conversion_of(v, &off.name) {
            subject.push(p("exchange rate", c.sentence()));
        } else if let Some(why) = v.no_rate.get(&off.name) {
            subject.push(p("exchange rate", format!("none: {why}, so not compared")));
        }
    }
    for (k, v) in &off.labels {
        subject.push(p(&format!("label {k}"), v.clone()));
    }
    let (tests, unjudged): (Vec<OfferingTest>, Vec<OfferingTest>) = off
        .tests
        .iter()
        .map(|(test, t)| {
            let mut ms: Vec<(&String, &crate::analysis::stats::MetricStats)> =
                t.metrics.iter().collect();
            ms.sort_by_cached_key(|(m, _)| metric_order(m));
            let note = match (&off.measured, &t.measured) {
                (Some(newest), Some(d)) => {
                    let mut note = format!("Measured {d}");
                    if d != newest {
                        note.push_str(", an older measurement: no newer one has this test");
                    }
                    if !t.older.is_empty() {
                        note.push_str(&format!(
                            "; {} of older measurements left out (the history below shows them)",
                            format::count_of(t.older.len(), "run", "runs")
                        ));
                    }
                    note.push('.');
                    note
                }
                _ => String::new(),
            };
            let judged = |m: &str| {
                ctx.analysis
                    .data
                    .studies
                    .get(study)
                    .is_some_and(|s| s.judges(test, m))
            };
            let mut metrics = Vec::new();
            let mut more = Vec::new();
            for (judged, pair) in ms.into_iter().map(|(m, st)| {
                let sm = &st.summary;
                let how = if sm.single_run() {
                    " (single run)".to_string()
                } else {
                    format!(
                        " (median of {}, {} to {}, CV {}{})",
                        sm.n,
                        format::value(sm.min, st.unit),
                        format::value(sm.max, st.unit),
                        sm.cv.map(format::percent).unwrap_or_else(|| "n/a".into()),
                        if sm.large_spread() {
                            ", large spread"
                        } else {
                            ""
                        }
                    )
                };
                (
                    judged(m),
                    Pair {
                        key: human_name(m),
                        value: format!("{}{how}", format::value(sm.median, st.unit)),
                    },
                )
            }) {
                if judged {
                    metrics.push(pair);
                } else {
                    more.push(pair);
                }
            }
            OfferingTest {
                note,
                link: ctx.link(test, &ctx.paths.test_page(study, test)),
                more_summary: if metrics.is_empty() {
                    format!(
                        "{}, none judged",
                        format::count_of(more.len(), "figure", "figures")
                    )
                } else {
                    format!(
                        "{}, not judged",
                        format::count_of(more.len(), "more figure", "more figures")
                    )
                },
                metrics,
                more,
            }
        })
        .partition(|t| !t.metrics.is_empty());
    let bounded = super::runlist::offering_bounded(off);
    let mut runs: Vec<&Summary> = if bounded { Vec::new() } else { records.clone() };
    runs.sort_by(|x, y| (&x.test.id, x.repetition, &x.id).cmp(&(&y.test.id, y.repetition, &y.id)));
    let run_groups = if bounded {
        off.tests
            .iter()
            .map(|(test, t)| {
                let link = ctx.link(test, &ctx.paths.test_page(study, test));
                super::runlist::group(&ctx, study, link, &off.name, test, t.records.len())
            })
            .collect()
    } else {
        Vec::new()
    };
    let history = super::history::views(&ctx, study, off, site)?;
    let page = OfferingPage {
        page: ctx.meta(
            off.name.clone(),
            vec![
                ctx.link("Overview", "index.html"),
                ctx.link(study, &format!("index.html#study-{sslug}")),
            ],
        ),
        name: off.name.clone(),
        study: study.to_string(),
        subject,
        host: host_pairs(&records),
        target: target_pairs(&records),
        unjudged_summary: format!(
            "{} with no judged figure, each with every figure it gave",
            format::count_of(unjudged.len(), "more test", "more tests")
        ),
        tests,
        unjudged,
        machines: super::machines::groups(ctx, study, &[off.name.as_str()], site)?,
        runs: runs.iter().map(|r| ctx.run_link(r)).collect(),
        run_groups,
        runs_note: if bounded {
            format!(
                "{} runs, too many for one page: each test's are listed on pages of at most {}.",
                records.len(),
                super::runlist::RUNS_SHOWN
            )
        } else {
            String::new()
        },
        runs_summary: format!(
            "{}, each with its own page",
            format::count_of(records.len(), "run", "runs")
        ),
        history_summary: format!(
            "{} over {}: a table and a chart each",
            format::count_of(history.len(), "judged metric", "judged metrics"),
            format::count_of(
                history.iter().map(|h| h.rows.len()).max().unwrap_or(0),
                "measurement",
                "measurements"
            )
        ),
        history,
        measured: off.measured.clone().unwrap_or_default(),
    };
    render(site, ctx.paths.offering_page(study, &off.name), &page)
}
