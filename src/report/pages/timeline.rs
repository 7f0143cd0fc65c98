//! The timeline charts of a test's records: per-second IOPS (bandwidth for
//! a throughput test) with the levels the detector found and a caption.

use crate::analysis::timeline::detect;
use crate::metrics::TestKind;
use crate::record::{Record, Series};
use crate::report::charts;
use crate::report::format::{display_unit, with_unit};
use crate::report::site::Site;
use crate::units::Unit;

use super::{ChartView, PageCtx};

/// A large count in words: `5.4 M`, `40.0 k`, `900`.
fn count_words(v: f64) -> String {
    for (step, name) in [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")] {
        if v >= step {
            return format!("{:.1} {name}", v / step);
        }
    }
    format!("{v:.0}")
}

/// A direction's series when it holds any samples.
fn pick(s: &Option<Series>) -> Option<&Series> {
    s.as_ref()
        .filter(|s| !s.iops.is_empty() || !s.bw.is_empty())
}

/// One chart per record of `records` that has a timeline (in the order
/// given), drawn from its judged direction and series: reads before writes,
/// bandwidth for a throughput test, IOPS otherwise.
pub(super) fn charts(
    ctx: &PageCtx,
    site: &mut Site,
    records: &[&Record],
    sslug: &str,
    tslug: &str,
    kind: TestKind,
) -> Vec<ChartView> {
    let mut out = Vec::new();
    for r in records {
        let Some(tl) = &r.timeline else { continue };
        let Some((dir, series)) = pick(&tl.read)
            .map(|s| ("read", s))
            .or_else(|| pick(&tl.write).map(|s| ("write", s)))
        else {
            continue;
        };
        let by_bw = kind == TestKind::Throughput && !series.bw.is_empty() || series.iops.is_empty();
        let (values, unit) = if by_bw {
            (&series.bw, Unit::BytesPerSec)
        } else {
            (&series.iops, Unit::Iops)
        };
        let Some(d) = detect(values, tl.interval_s) else {
            continue;
        };
        let largest = values.iter().copied().fold(0.0, f64::max);
        let du = display_unit(unit, largest);
        let scaled = |v: f64| v / du.factor;
        let level = |v: f64| with_unit(v, du);
        let burst = d.burst.map(level);
        let sustained = level(d.sustained);
        let volume = d.burst_volume.map(|v| {
            if by_bw {
                with_unit(v, display_unit(Unit::Bytes, v))
            } else {
                format!("{} I/Os", count_words(v))
            }
        });
        let run_s = values.len() as f64 * tl.interval_s;
        let caption = charts::caption(&charts::Words {
            pattern: d.pattern.name(),
            burst: burst.as_deref(),
            sustained: &sustained,
            burst_s: d.burst_duration_s,
            volume: volume.as_deref(),
            on_off_s: d.on_s.zip(d.off_s),
            run_s,
            steady: d.steady.reached,
        });
        let what = if by_bw { "throughput" } else { "IOPS" };
        let spec = charts::TimelineChart {
            title: format!("{}: {dir} {what} over time ({}, r{})", r.offering_name(), r.test.id, r.repetition),
            desc: format!(
                "Per-second {dir} {what} in {} of record {}, with its rolling median, the burst and sustained levels found, and the burst shaded.",
                du.label, r.id
            ),
            unit: du.label.to_string(),
            interval_s: tl.interval_s,
            values: values.iter().copied().map(scaled).collect(),
            rolling: d.rolling.iter().copied().map(scaled).collect(),
            rolling_start_s: d.start_s,
            burst: d.burst.map(scaled),
            sustained: Some(scaled(d.sustained)),
            burst_end_s: d.burst_duration_s,
            caption,
        };
        out.push(ctx.chart(
            site,
            format!("charts/{sslug}/{tslug}/timeline-{}.svg", r.id),
            charts::draw(&spec),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_in_words() {
        assert_eq!(count_words(5.4e6), "5.4 M");
        assert_eq!(count_words(40_000.0), "40.0 k");
        assert_eq!(count_words(900.0), "900");
    }
}
