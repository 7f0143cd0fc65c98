//! The metric vocabulary: every metric name diskdash knows, its name for
//! people, the order pages show it in, whether the index leads with it, and
//! the unit its name implies. Report, ingest and analysis read it here.

use crate::units::Unit;

/// A metric's name for people, and whether it is a headline metric.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MetricName {
    /// The metric name in records.
    pub metric: &'static str,
    /// What readers call it.
    pub human: &'static str,
    /// Whether its verdict is shown on the index page.
    pub headline: bool,
}

const fn m(metric: &'static str, human: &'static str, headline: bool) -> MetricName {
    MetricName {
        metric,
        human,
        headline,
    }
}

/// Every known metric, in display order: the order metrics appear on pages.
/// Headline metrics come first, so that the index leads with them.
pub const METRIC_NAMES: &[MetricName] = &[
    m("random_seeks", "random seeks", true),
    m("read_iops", "read IOPS", true),
    m("write_iops", "write IOPS", true),
    m("iops", "IOPS", true),
    m("seq_block_read_bw", "sequential block read", true),
    m("seq_block_write_bw", "sequential block write", true),
    m("seq_write_bw", "sequential write", true),
    m("read_bw", "read throughput", true),
    m("write_bw", "write throughput", true),
    m("bw", "throughput", true),
    m("lat_avg", "average latency", true),
    m("read_lat_mean", "mean read latency", false),
    m("read_clat_p50", "median read latency", false),
    m("read_clat_p99", "99th percentile read latency", false),
    m("read_clat_p99_9", "99.9th percentile read latency", false),
    m("write_lat_mean", "mean write latency", false),
    m("write_clat_p50", "median write latency", false),
    m("write_clat_p99", "99th percentile write latency", false),
    m("write_clat_p99_9", "99.9th percentile write latency", false),
    m("lat_min", "minimum latency", false),
    m("lat_max", "maximum latency", false),
    m("lat_mdev", "latency deviation", false),
    m("seq_char_write_bw", "sequential character write", false),
    m("seq_char_read_bw", "sequential character read", false),
    m("rewrite_bw", "rewrite", false),
    m("seq_create", "sequential creates", false),
    m("seq_stat", "sequential stats", false),
    m("seq_delete", "sequential deletes", false),
    m("random_create", "random creates", false),
    m("random_stat", "random stats", false),
    m("random_delete", "random deletes", false),
];

/// Splits a `_cpu` or `_lat` twin into its base metric and suffix.
fn twin(metric: &str) -> (&str, Option<&'static str>) {
    for (suffix, word) in [("_cpu", "CPU use"), ("_lat", "latency")] {
        if let Some(base) = metric.strip_suffix(suffix) {
            if METRIC_NAMES.iter().any(|n| n.metric == base) {
                return (base, Some(word));
            }
        }
    }
    (metric, None)
}

/// The metric's name for people: "random seeks", "sequential block read CPU use".
/// Unknown metrics keep their name with `_` read as spaces.
pub fn human_name(metric: &str) -> String {
    let (base, suffix) = twin(metric);
    let human = METRIC_NAMES
        .iter()
        .find(|n| n.metric == base)
        .map(|n| n.human.to_string())
        .unwrap_or_else(|| base.replace('_', " "));
    match suffix {
        Some(s) => format!("{human} {s}"),
        None => human,
    }
}

/// Whether the metric's verdict is a headline (twins never are).
pub fn is_headline(metric: &str) -> bool {
    METRIC_NAMES
        .iter()
        .any(|n| n.metric == metric && n.headline)
}

/// Sort key putting metrics in display order: known ones in table order
/// (each followed by its twins), then unknown ones by name.
pub fn metric_order(metric: &str) -> (usize, u8, String) {
    let (base, suffix) = twin(metric);
    let twin_rank = match suffix {
        None => 0,
        Some("latency") => 1,
        Some(_) => 2,
    };
    match METRIC_NAMES.iter().position(|n| n.metric == base) {
        Some(i) => (i, twin_rank, String::new()),
        None => (METRIC_NAMES.len(), 0, metric.to_string()),
    }
}

/// The unit a metric name implies, for the names whose unit is fixed.
pub fn expected_unit(name: &str) -> Option<Unit> {
    if name.ends_with("_cpu") {
        Some(Unit::Percent)
    } else if name == "bw" || name.ends_with("_bw") {
        Some(Unit::BytesPerSec)
    } else if name == "iops" || name.ends_with("_iops") {
        Some(Unit::Iops)
    } else if name.starts_with("lat_") || name.contains("_lat") || name.contains("clat") {
        Some(Unit::Seconds)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_names_cover_twins_and_unknowns() {
        assert_eq!(human_name("random_seeks"), "random seeks");
        assert_eq!(
            human_name("seq_block_read_bw_cpu"),
            "sequential block read CPU use"
        );
        assert_eq!(human_name("random_create_lat"), "random creates latency");
        assert_eq!(human_name("my_metric"), "my metric");
        assert!(metric_order("random_seeks") < metric_order("random_seeks_lat"));
        assert!(metric_order("random_seeks_cpu") < metric_order("read_iops"));
        assert!(is_headline("random_seeks") && !is_headline("random_seeks_cpu"));
    }

    #[test]
    fn names_imply_units() {
        assert_eq!(expected_unit("read_iops"), Some(Unit::Iops));
        assert_eq!(expected_unit("seq_block_read_bw"), Some(Unit::BytesPerSec));
        assert_eq!(expected_unit("random_seeks_cpu"), Some(Unit::Percent));
        assert_eq!(expected_unit("read_clat_p99"), Some(Unit::Seconds));
        assert_eq!(expected_unit("seq_create_lat"), Some(Unit::Seconds));
        assert_eq!(expected_unit("random_seeks"), None);
    }
}
