//! The history section of an offering page: for a configuration measured
//! more than once, a table and a chart per judged metric of each
//! measurement's median.

use anyhow::Result;

use super::*;
use crate::analysis::stats::OfferingData;
use crate::report::site::Output;
use crate::report::story::history::{self, HistoryRow};

/// One judged metric over the measurements, on the offering page.
#[derive(Clone, Debug, Default)]
pub struct HistoryView {
    /// `fio-randread-4k-qd64: random read IOPS`.
    pub heading: String,
    pub rows: Vec<HistoryRow>,
    pub chart: ChartView,
}

/// The days since 1970 of a `YYYY-MM-DD` date.
fn day(date: &str) -> Option<f64> {
    let t = humantime::parse_rfc3339(&format!("{date}T00:00:00Z")).ok()?;
    let s = t.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs();
    Some((s / 86_400) as f64)
}

/// The history views of `off` in `study` (empty without a history), each
/// chart written as `charts/<study>/history-<offering>-<n>.svg`.
pub(super) fn views(
    ctx: &PageCtx,
    study: &str,
    off: &OfferingData,
    site: &dyn Output,
) -> Result<Vec<HistoryView>> {
    let sslug = ctx.paths.study_slug(study);
    let oslug = ctx.paths.offering_slug(study, &off.name);
    let several_studies = off.history.iter().any(|p| p.study != off.history[0].study);
    let mut out = Vec::new();
    for (n, t) in history::tables(off).into_iter().enumerate() {
        let values: Vec<(&HistoryRow, history::HistoryValues)> =
            t.rows.iter().filter_map(|r| Some((r, r.values?))).collect();
        let Some((_, first)) = values.first() else {
            continue;
        };
        let unit = first.unit;
        let largest = values.iter().map(|(_, v)| v.max).fold(0.0, f64::max);
        let du = crate::format::display_unit(unit, largest);
        let points = values
            .iter()
            .filter(|(_, v)| v.unit == unit)
            .filter_map(|(r, v)| {
                Some(charts::DatedMedian {
                    label: if several_studies {
                        format!("{} · {}", r.date, r.study)
                    } else {
                        r.date.clone()
                    },
                    day: day(&r.date)?,
                    median: v.median / du.factor,
                    min: v.min / du.factor,
                    max: v.max / du.factor,
                    runs: v.runs,
                })
            })
            .collect();
        let heading = format!("{}: {}", t.test, t.human);
        let spec = charts::HistoryChart {
            title: format!("{}: {} over time", off.name, heading),
            desc: format!(
                "The median {} of {} in each measurement.",
                t.human, off.name
            ),
            unit: du.label.to_string(),
            higher_is_better: crate::metrics::higher_is_better(&t.metric, unit),
            points,
        };
        let chart = ctx.chart(
            site,
            format!("charts/{sslug}/history-{oslug}-{n}.svg"),
            charts::draw(&spec),
        )?;
        out.push(HistoryView {
            heading,
            rows: t.rows,
            chart,
        });
    }
    Ok(out)
}
