//! A test page's latency sections (fio): percentiles per direction, and
//! the distribution of every percentile.

use super::*;

/// fio: the p50, p99 and p99.9 completion latency per direction, a chart
/// each; empty for tests without them.
pub(super) fn percentiles(scope: Scope, site: &dyn Output) -> Result<Vec<ChartView>> {
    let Scope {
        ctx,
        s,
        study,
        test,
        sslug,
        tslug,
        inline,
        ..
    } = scope;
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
        percentiles.push(inline_or_image(
            inline,
            ctx.chart(
                site,
                format!("charts/{sslug}/{tslug}/latency-{dir}.svg"),
                charts::draw(&spec),
            )?,
            &spec.desc,
        ));
    }
    Ok(percentiles)
}

/// fio's latency distribution per direction: every percentile's median over
/// repetitions against the percentile, a line per configuration (in
/// `order`), and a table of p50 to p99.99. Empty for tests without
/// percentiles.
pub(super) fn distributions(scope: Scope, site: &dyn Output) -> Result<Vec<DistributionView>> {
    let Scope {
        ctx,
        s,
        study,
        test,
        sslug,
        tslug,
        order,
        inline,
    } = scope;
    let mut out = Vec::new();
    for dir in ["read", "write", "mixed"] {
        // configuration, then (percentile, median seconds) in percentile order
        let mut lines: Vec<(&str, Vec<(f64, f64)>)> = Vec::new();
        for name in order {
            let Some(t) = s.offerings.get(*name).and_then(|o| o.tests.get(test)) else {
                continue;
            };
            let mut pts: Vec<(f64, f64)> = t
                .metrics
                .iter()
                .filter(|(_, m)| m.unit == Unit::Seconds)
                .filter_map(
                    |(metric, m)| match crate::metrics::clat_percentile(metric) {
                        Some((d, p)) if d == dir => Some((p, m.summary.median)),
                        _ => None,
                    },
                )
                .collect();
            // a distribution needs more than the one or two points of a
            // transcribed p99
            if pts.len() < 3 {
                continue;
            }
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            lines.push((name, pts));
        }
        if lines.is_empty() {
            continue;
        }
        let largest = lines
            .iter()
            .flat_map(|(_, p)| p.iter().map(|x| x.1))
            .fold(0.0, f64::max);
        let du = display_unit(Unit::Seconds, largest);
        let names: Vec<&str> = lines.iter().map(|(n, _)| *n).collect();
        let labels = chart_labels(s, &names);
        let spec = charts::DistributionChart {
            title: format!("{study}: {dir} completion latency by percentile ({test})"),
            desc: format!(
                "Median over repetitions of every {dir} completion latency percentile fio reported, in {}, per configuration, for test {test} of study {study}.",
                du.label
            ),
            unit: du.label.to_string(),
            series: lines
                .iter()
                .zip(labels)
                .map(|((_, pts), label)| charts::DistributionSeries {
                    label,
                    points: pts.iter().map(|(p, v)| (*p, v / du.factor)).collect(),
                })
                .collect(),
        };
        let chart = inline_or_image(
            inline,
            ctx.chart(
                site,
                format!("charts/{sslug}/{tslug}/distribution-{dir}.svg"),
                charts::draw(&spec),
            )?,
            &spec.desc,
        );
        let rows = lines
            .iter()
            .map(|(name, pts)| DistributionRow {
                config: ctx.link(*name, &ctx.paths.offering_page(study, name)),
                cells: TABLE_PCTS
                    .iter()
                    .map(|want| {
                        pts.iter()
                            .find(|(p, _)| (p - want).abs() < 1e-9)
                            .map(|(_, v)| format::with_unit(*v, du))
                            .unwrap_or_default()
                    })
                    .collect(),
            })
            .collect();
        out.push(DistributionView {
            heading: format!("{dir} completion latency"),
            chart,
            columns: TABLE_PCTS.iter().map(|p| charts::pct_label(*p)).collect(),
            rows,
        });
    }
    Ok(out)
}
