//! The "Spread across machines" section of the study and offering pages,
//! and its twin in `data/<study>.md`: for each configuration measured on
//! several machines ([`crate::analysis::machines`]), on how many, the
//! spread between machines next to the spread within one for each judged
//! metric, a strip chart per metric, and the outlying machine with its
//! figures. A configuration measured on one machine gets nothing here.

use anyhow::Result;

use crate::analysis::machines::{self, Machines, MetricSpread};
use crate::format;
use crate::metrics::human_name;
use crate::report::charts;
use crate::report::site::Output;

use super::{ChartView, Link, PageCtx};

/// One judged metric's spread in the table.
#[derive(Clone, Debug, Default)]
pub struct SpreadRow {
    pub test: Link,
    /// `read IOPS`.
    pub metric: String,
    /// Machines with a value: `5`.
    pub machines: String,
    /// The range of the machines' medians and their CV: `1,800–3,050 IOPS
    /// (CV 19.6%)`.
    pub between: String,
    /// The typical CV of one machine's runs: `CV 1.0%`, or `single runs`.
    pub within: String,
    /// The outlying machine in words, or `none` (`none: 2 machines` below
    /// the count that can have one).
    pub outlier: String,
}

/// One configuration measured on several machines.
#[derive(Clone, Debug, Default)]
pub struct MachineGroup {
    pub config: Link,
    /// `measured on 5 machines`, with `and 3 records from an unnamed
    /// machine` where some carry no name.
    pub measured: String,
    pub rows: Vec<SpreadRow>,
    /// `web-4: 1,800 IOPS, 40% below the others' 2,950–3,050 IOPS
    /// (fio-randread-4k-qd64, read IOPS)`, one per outlier.
    pub outliers: Vec<String>,
    /// A strip chart per row.
    pub charts: Vec<ChartView>,
    /// What the folded table and charts are: `Per machine: 12 metrics in
    /// a table and 12 charts (4 machines),
    /// each machine's median (a dot) and the range of its runs (a bar)`.
    pub summary: String,
}

/// `measured on 5 machines (web-1, ...)`, and the unnamed records.
fn measured_words(m: &Machines) -> String {
    let mut s = format!(
        "measured on {} machines ({})",
        m.names.len(),
        super::capped(&m.names)
    );
    if m.unnamed > 0 {
        s.push_str(&format!(
            ", and {} from an unnamed machine, pooled in the figures but in no machine's",
            format::count_of(m.unnamed, "record", "records")
        ));
    }
    s
}

/// An outlier line: `web-4: 1,800 IOPS, 40% below the others' 2,950–3,050
/// IOPS (fio-randread-4k-qd64, read IOPS)`.
fn outlier_lines(m: &Machines) -> Vec<String> {
    m.outliers()
        .map(|(s, o)| {
            format!(
                "{}: {} ({}, {})",
                o.machine,
                machines::outlier_words(s, o),
                s.test,
                human_name(&s.metric)
            )
        })
        .collect()
}

fn row(ctx: &PageCtx, study: &str, s: &MetricSpread) -> SpreadRow {
    let du = format::display_unit(s.unit, s.between.max.abs());
    let between = format!(
        "{}–{}{}",
        format::number(s.between.min / du.factor),
        format::with_unit(s.between.max, du),
        s.between
            .cv
            .map(|cv| format!(" (CV {})", format::percent(cv)))
            .unwrap_or_default()
    );
    let outlier = match s.outliers.as_slice() {
        [] if s.machines.len() < machines::OUTLIER_MACHINES => {
            format!("none: {} machines", s.machines.len())
        }
        [] => "none".to_string(),
        list => list
            .iter()
            .map(|o| format!("{}: {}", o.machine, machines::outlier_words(s, o)))
            .collect::<Vec<_>>()
            .join("; "),
    };
    let mut machines_text = s.machines.len().to_string();
    if s.unnamed_runs > 0 {
        machines_text.push_str(&format!(
            " (and {} unnamed)",
            format::count_of(s.unnamed_runs, "run", "runs")
        ));
    }
    SpreadRow {
        test: ctx.link(&s.test, &ctx.paths.test_page(study, &s.test)),
        metric: human_name(&s.metric),
        machines: machines_text,
        between,
        within: s
            .within_cv
            .map(|cv| format!("CV {}", format::percent(cv)))
            .unwrap_or_else(|| "single runs".into()),
        outlier,
    }
}

/// The strip chart of one configuration's metric, its files added to `site`.
fn chart(
    ctx: &PageCtx,
    study: &str,
    m: &Machines,
    s: &MetricSpread,
    site: &dyn Output,
) -> Result<ChartView> {
    let largest = s
        .machines
        .iter()
        .map(|x| x.summary.max.abs())
        .fold(0.0, f64::max);
    let du = format::display_unit(s.unit, largest);
    let spec = charts::MachineChart {
        title: format!(
            "{} — {}: {} per machine",
            m.config,
            s.test,
            human_name(&s.metric)
        ),
        desc: format!(
            "{} of study {study}, {}: each machine's runs of {}.",
            m.config,
            measured_words(m),
            s.test
        ),
        unit: du.label.to_string(),
        higher_is_better: s.higher_is_better(),
        machines: s
            .machines
            .iter()
            .map(|x| charts::MachineMark {
                label: x.name.clone(),
                median: x.summary.median / du.factor,
                min: x.summary.min / du.factor,
                max: x.summary.max / du.factor,
                runs: x.summary.n,
                outlier: x.outlier,
            })
            .collect(),
    };
    let path = format!(
        "charts/{}/machines/{}-{}-{}.svg",
        ctx.paths.study_slug(study),
        ctx.paths.offering_slug(study, &m.config),
        ctx.paths.test_slug(study, &s.test),
        crate::record::slug(&s.metric)
    );
    ctx.chart(site, path, charts::draw(&spec))
}

/// The section for the configurations `names` of `study` (in that
/// order), their charts added to `site`: empty unless one was measured on
/// several machines.
pub(super) fn groups(
    ctx: PageCtx,
    study_name: &str,
    names: &[&str],
    site: &dyn Output,
) -> Result<Vec<MachineGroup>> {
    let Some(study) = ctx.analysis.data.studies.get(study_name) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for name in names {
        let Some(off) = study.offerings.get(*name) else {
            continue;
        };
        let Some(m) = machines::of_config(&ctx.analysis.records, study, off) else {
            continue;
        };
        let charts = m
            .spreads
            .iter()
            .map(|s| chart(&ctx, study_name, &m, s, site))
            .collect::<Result<Vec<_>>>()?;
        let outliers = outlier_lines(&m);
        out.push(MachineGroup {
            config: ctx.link(&m.config, &ctx.paths.offering_page(study_name, &m.config)),
            measured: measured_words(&m),
            rows: m.spreads.iter().map(|s| row(&ctx, study_name, s)).collect(),
            summary: format!(
                "Per machine: {} in a table and {} ({}), each machine's median (a dot) and the range of its runs (a bar)",
                format::count_of(m.spreads.len(), "metric", "metrics"),
                format::count_of(charts.len(), "chart", "charts"),
                format::count_of(m.names.len(), "machine", "machines")
            ),
            outliers,
            charts,
        });
    }
    Ok(out)
}

/// The section in `data/<study>.md`; empty without a group.
pub(super) fn markdown(groups: &[MachineGroup]) -> String {
    use crate::report::export::markdown::{md, Align, Table};
    if groups.is_empty() {
        return String::new();
    }
    // a line per configuration saying on which machines and how many of
    // its tests and metrics were measured so, then one table of the
    // outliers, each named once; the study page has every row
    let mut s = String::from("## Spread across machines\n\n");
    let is_outlier = |r: &SpreadRow| !r.outlier.starts_with("none");
    for g in groups {
        let outliers = g.rows.iter().filter(|r| is_outlier(r)).count();
        s.push_str(&format!(
            "{}: {}; {} of {} tests and metrics with an outlying machine.\n\n",
            md(&g.config.text),
            md(&g.measured),
            outliers,
            g.rows.len()
        ));
    }
    let several = groups.len() > 1;
    let mut columns = vec![
        ("test", Align::Left),
        ("metric", Align::Left),
        ("between machines", Align::Right),
        ("outlier", Align::Left),
    ];
    if several {
        columns.insert(0, ("configuration", Align::Left));
    }
    let mut table = Table::new(columns);
    let mut rows = 0;
    for g in groups {
        for r in g.rows.iter().filter(|r| is_outlier(r)) {
            let cells = [
                &g.config.text,
                &r.test.text,
                &r.metric,
                &r.between,
                &r.outlier,
            ];
            table.row(cells.into_iter().skip(usize::from(!several)));
            rows += 1;
        }
    }
    if rows > 0 {
        s.push_str(&table.render());
        s.push('\n');
    }
    s
}
