//! The metric vocabulary: every metric name diskdash knows, its name for
//! people, the order pages show it in, whether the index leads with it, the
//! unit its name implies, and which metrics of a test measure the storage
//! and so are judged. Report, ingest and analysis read it here.

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
    m("mixed_iops", "mixed read/write IOPS", true),
    m("read_iops_sustained", "sustained read IOPS", true),
    m("write_iops_sustained", "sustained write IOPS", true),
    m("read_iops_burst", "burst read IOPS", false),
    m("write_iops_burst", "burst write IOPS", false),
    m("iops", "IOPS", true),
    m("seq_block_read_bw", "sequential block read", true),
    m("seq_block_write_bw", "sequential block write", true),
    m("seq_write_bw", "sequential write", true),
    m("read_bw", "read throughput", true),
    m("write_bw", "write throughput", true),
    m("mixed_bw", "mixed read/write throughput", true),
    m("read_bw_sustained", "sustained read throughput", true),
    m("write_bw_sustained", "sustained write throughput", true),
    m("read_bw_burst", "burst read throughput", false),
    m("write_bw_burst", "burst write throughput", false),
    m("bw", "throughput", true),
    m("lat_avg", "average latency", true),
    m("read_lat_mean", "mean read latency", false),
    m("read_clat_p1", "1st percentile read latency", false),
    m("read_clat_p5", "5th percentile read latency", false),
    m("read_clat_p10", "10th percentile read latency", false),
    m("read_clat_p20", "20th percentile read latency", false),
    m("read_clat_p30", "30th percentile read latency", false),
    m("read_clat_p40", "40th percentile read latency", false),
    m("read_clat_p50", "median read latency", false),
    m("read_clat_p60", "60th percentile read latency", false),
    m("read_clat_p70", "70th percentile read latency", false),
    m("read_clat_p80", "80th percentile read latency", false),
    m("read_clat_p90", "90th percentile read latency", false),
    m("read_clat_p95", "95th percentile read latency", false),
    m("read_clat_p99", "99th percentile read latency", false),
    m("read_clat_p99_5", "99.5th percentile read latency", false),
    m("read_clat_p99_9", "99.9th percentile read latency", false),
    m("read_clat_p99_95", "99.95th percentile read latency", false),
    m("read_clat_p99_99", "99.99th percentile read latency", false),
    m("write_lat_mean", "mean write latency", false),
    m("write_clat_p1", "1st percentile write latency", false),
    m("write_clat_p5", "5th percentile write latency", false),
    m("write_clat_p10", "10th percentile write latency", false),
    m("write_clat_p20", "20th percentile write latency", false),
    m("write_clat_p30", "30th percentile write latency", false),
    m("write_clat_p40", "40th percentile write latency", false),
    m("write_clat_p50", "median write latency", false),
    m("write_clat_p60", "60th percentile write latency", false),
    m("write_clat_p70", "70th percentile write latency", false),
    m("write_clat_p80", "80th percentile write latency", false),
    m("write_clat_p90", "90th percentile write latency", false),
    m("write_clat_p95", "95th percentile write latency", false),
    m("write_clat_p99", "99th percentile write latency", false),
    m("write_clat_p99_5", "99.5th percentile write latency", false),
    m("write_clat_p99_9", "99.9th percentile write latency", false),
    m(
        "write_clat_p99_95",
        "99.95th percentile write latency",
        false,
    ),
    m(
        "write_clat_p99_99",
        "99.99th percentile write latency",
        false,
    ),
    m("mixed_clat_p1", "1st percentile mixed latency", false),
    m("mixed_clat_p5", "5th percentile mixed latency", false),
    m("mixed_clat_p10", "10th percentile mixed latency", false),
    m("mixed_clat_p20", "20th percentile mixed latency", false),
    m("mixed_clat_p30", "30th percentile mixed latency", false),
    m("mixed_clat_p40", "40th percentile mixed latency", false),
    m("mixed_clat_p50", "median mixed latency", false),
    m("mixed_clat_p60", "60th percentile mixed latency", false),
    m("mixed_clat_p70", "70th percentile mixed latency", false),
    m("mixed_clat_p80", "80th percentile mixed latency", false),
    m("mixed_clat_p90", "90th percentile mixed latency", false),
    m("mixed_clat_p95", "95th percentile mixed latency", false),
    m("mixed_clat_p99", "99th percentile mixed latency", false),
    m("mixed_clat_p99_5", "99.5th percentile mixed latency", false),
    m("mixed_clat_p99_9", "99.9th percentile mixed latency", false),
    m(
        "mixed_clat_p99_95",
        "99.95th percentile mixed latency",
        false,
    ),
    m(
        "mixed_clat_p99_99",
        "99.99th percentile mixed latency",
        false,
    ),
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
    m("burst_duration", "burst duration", false),
    m(
        "burst_ios",
        "I/Os of the burst above the sustained level",
        false,
    ),
    m(
        "burst_bytes",
        "bytes of the burst above the sustained level",
        false,
    ),
    m("steady_state", "steady state reached", false),
    m("ss_range", "steady-state range", false),
    m("ss_slope", "steady-state slope", false),
    m(
        "fio_ss_attained",
        "steady state reached by fio's own check",
        false,
    ),
    m("fio_ss_criterion", "fio's steady-state criterion", false),
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

/// A fio completion latency percentile metric (`read_clat_p99_9`) split
/// into its direction (`read`, `write`, `mixed`) and the percentile (99.9);
/// `None` for any other metric. fio's default list gives p1 to p99_99, a
/// `percentile_list` of the user's own any other (`p99_999`).
pub fn clat_percentile(metric: &str) -> Option<(&str, f64)> {
    let (dir, rest) = metric.split_once("_clat_p")?;
    if !matches!(dir, "read" | "write" | "mixed") {
        return None;
    }
    let (whole, frac) = rest.split_once('_').unwrap_or((rest, ""));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !(frac.is_empty() || digits(frac)) {
        return None;
    }
    let text = if frac.is_empty() {
        whole.to_string()
    } else {
        format!("{whole}.{frac}")
    };
    let p: f64 = text.parse().ok()?;
    (p > 0.0 && p <= 100.0).then_some((dir, p))
}

/// The metric's name for people: "random seeks", "sequential block read CPU use".
/// Unknown metrics keep their name with `_` read as spaces, except fio
/// percentiles outside the table ("99.999th percentile read latency").
pub fn human_name(metric: &str) -> String {
    let (base, suffix) = twin(metric);
    let human = METRIC_NAMES
        .iter()
        .find(|n| n.metric == base)
        .map(|n| n.human.to_string())
        .or_else(|| {
            let (dir, _) = clat_percentile(base)?;
            let p = base.split_once("_clat_p")?.1.replace('_', ".");
            Some(format!("{p}th percentile {dir} latency"))
        })
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
pub fn metric_order(metric: &str) -> (usize, u8, &str) {
    let (base, suffix) = twin(metric);
    let twin_rank = match suffix {
        None => 0,
        Some("latency") => 1,
        Some(_) => 2,
    };
    match METRIC_NAMES.iter().position(|n| n.metric == base) {
        Some(i) => (i, twin_rank, ""),
        None => (METRIC_NAMES.len(), 0, metric),
    }
}

/// The unit a metric name implies, for the names whose unit is fixed.
pub fn expected_unit(name: &str) -> Option<Unit> {
    // the timeline's levels keep the unit of the metric they qualify
    if let Some(base) = name
        .strip_suffix("_burst")
        .or_else(|| name.strip_suffix("_sustained"))
    {
        return expected_unit(base);
    }
    match name {
        "burst_duration" => return Some(Unit::Seconds),
        "burst_ios" | "steady_state" | "fio_ss_attained" => return Some(Unit::Count),
        "burst_bytes" => return Some(Unit::Bytes),
        "ss_range" | "ss_slope" | "fio_ss_criterion" => return Some(Unit::Percent),
        _ => {}
    }
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

/// Whether a larger value of `metric` is better: as its unit says
/// ([`Unit::higher_is_better`]), except `burst_duration`, whose seconds are
/// how long the burst lasts, not how long something takes.
pub fn higher_is_better(metric: &str, unit: Unit) -> bool {
    metric == "burst_duration" || unit.higher_is_better()
}

/// The suffix of a timeline's sustained level (`read_iops_sustained`).
pub const SUSTAINED: &str = "_sustained";

/// The suffix of a timeline's burst level (`read_iops_burst`).
pub const BURST: &str = "_burst";

/// The SNIA steady-state metrics of a timeline: `steady_state` (1 reached,
/// 0 not), `ss_range` and `ss_slope` (% of the mean). Never judged on their
/// own; a sustained verdict whose steady state was not reached says so
/// ("worth it, steady state not reached"), and the value page shows them
/// beside the verdict.
pub const STEADY_STATE: [&str; 3] = ["steady_state", "ss_range", "ss_slope"];

/// What a test measures, as far as judging goes. Each tool says which kind
/// a test's parameters make (`tools::Judge::kind`); the kind says which
/// of its metrics get a value table and a verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TestKind {
    /// I/O bound by operations, not bytes: fio random tests, and sequential
    /// ones below 64 KiB blocks. Judged on IOPS and p99 completion latency.
    BlockIo,
    /// Throughput: fio sequential tests at 64 KiB blocks and more, dd,
    /// ioping's sequential test. Judged on bandwidth.
    Throughput,
    /// ioping's request latency test. Judged on average latency.
    Latency,
    /// ioping's seek test (`-R`). Judged on the seek rate.
    Seek,
    /// ioping's cached test (`-C`): it measures the page cache, not the
    /// storage, so it is shown and never judged.
    PageCache,
    /// bonnie++: judged on block write and read, rewrite, random seeks and
    /// sequential and random creates.
    FileSystem,
    /// Nothing known about the test: shown, never judged.
    Unknown,
}

impl TestKind {
    /// The metrics that measure the storage in a test of this kind: the
    /// only ones with a value table, a verdict and a row in `value.csv`.
    /// Everything else (bytes, elapsed times, runtimes, io_bytes, request
    /// counts, CPU use, bonnie++'s `_lat` twins, fio's mean latencies) is
    /// shown on test and run pages and in the summaries, never judged.
    ///
    /// The list holds both the whole-run metrics and the sustained levels
    /// of a timeline; [`TestKind::judges_in`] says which of the two a test
    /// is judged on. The burst levels, `burst_duration`, `burst_ios` and
    /// `burst_bytes` are never judged: the burst is said beside the
    /// sustained verdict. The steady-state metrics ([`STEADY_STATE`]) are
    /// not judged either, since a value ratio of a 0/1 flag means nothing:
    /// they qualify the sustained verdict instead.
    pub fn judged(self) -> &'static [&'static str] {
        match self {
            TestKind::BlockIo => &[
                "read_iops",
                "write_iops",
                "mixed_iops",
                "read_clat_p99",
                "write_clat_p99",
                "mixed_clat_p99",
                "read_iops_sustained",
                "write_iops_sustained",
            ],
            TestKind::Throughput => &[
                "read_bw",
                "write_bw",
                "mixed_bw",
                "bw",
                "read_bw_sustained",
                "write_bw_sustained",
            ],
            TestKind::Latency => &["lat_avg"],
            TestKind::Seek => &["iops"],
            TestKind::FileSystem => &[
                "seq_block_write_bw",
                "seq_block_read_bw",
                // a publication's unlabelled bonnie++ "sequential output"
                "seq_write_bw",
                "rewrite_bw",
                "random_seeks",
                "seq_create",
                "random_create",
            ],
            TestKind::PageCache | TestKind::Unknown => &[],
        }
    }

    /// Whether `metric` is in this kind's judged list (whole-run or
    /// sustained; [`TestKind::judges_in`] tells which a test is judged on).
    pub fn judges(self, metric: &str) -> bool {
        self.judged().contains(&metric)
    }

    /// Whether `metric` is judged in a test of this kind that is `timed`
    /// (some configuration's records carry a sustained level the kind
    /// judges, see [`TestKind::is_timed`]). A timed test is judged on its
    /// sustained levels alone: its whole-run IOPS, bandwidth and
    /// percentiles average the burst and the drained periods together, so
    /// they are shown, never judged. An untimed test is judged on its
    /// whole-run metrics.
    pub fn judges_in(self, metric: &str, timed: bool) -> bool {
        self.judges(metric) && metric.ends_with(SUSTAINED) == timed
    }

    /// Whether a test with these metrics is timed: one of them is a
    /// sustained level this kind judges.
    pub fn is_timed<'a>(self, mut metrics: impl Iterator<Item = &'a str>) -> bool {
        metrics.any(|m| m.ends_with(SUSTAINED) && self.judges(m))
    }

    /// What a reader is told about a kind that is never judged.
    pub fn note(self) -> Option<&'static str> {
        match self {
            TestKind::PageCache => Some(
                "this test reads through the page cache, so it measures the machine's memory, not the storage: shown, never judged",
            ),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_longer_burst_is_better_but_a_longer_latency_is_not() {
        assert!(higher_is_better("burst_duration", Unit::Seconds));
        assert!(!higher_is_better("read_clat_p99", Unit::Seconds));
        assert!(!higher_is_better("ss_range", Unit::Percent));
        assert!(higher_is_better("read_iops", Unit::Iops));
    }

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
    fn every_fio_percentile_has_a_name_and_only_p99_is_judged() {
        assert_eq!(human_name("read_clat_p95"), "95th percentile read latency");
        assert_eq!(human_name("write_clat_p1"), "1st percentile write latency");
        assert_eq!(
            human_name("mixed_clat_p99_99"),
            "99.99th percentile mixed latency"
        );
        assert_eq!(human_name("read_clat_p50"), "median read latency");
        // outside fio's default list
        assert_eq!(
            human_name("read_clat_p99_999"),
            "99.999th percentile read latency"
        );
        assert!(metric_order("read_clat_p1") < metric_order("read_clat_p50"));
        assert!(metric_order("read_clat_p99_9") < metric_order("read_clat_p99_99"));
        assert!(metric_order("read_clat_p99_99") < metric_order("write_lat_mean"));
        assert_eq!(clat_percentile("read_clat_p99_95"), Some(("read", 99.95)));
        assert_eq!(clat_percentile("mixed_clat_p1"), Some(("mixed", 1.0)));
        assert_eq!(clat_percentile("read_clat_mean"), None);
        assert_eq!(clat_percentile("read_clat_p"), None);
        assert_eq!(clat_percentile("seq_clat_p50"), None);
        for dir in ["read", "write", "mixed"] {
            for p in ["p1", "p50", "p95", "p99_5", "p99_9", "p99_99"] {
                let name = format!("{dir}_clat_{p}");
                assert!(!is_headline(&name), "{name}");
                assert!(!TestKind::BlockIo.judges(&name), "{name}");
                assert_eq!(expected_unit(&name), Some(Unit::Seconds));
            }
            assert!(TestKind::BlockIo.judges(&format!("{dir}_clat_p99")));
        }
    }

    #[test]
    fn only_storage_metrics_are_judged() {
        assert!(TestKind::BlockIo.judges("read_iops"));
        assert!(TestKind::BlockIo.judges("write_clat_p99"));
        for bookkeeping in ["read_bw", "read_lat_mean", "read_io_bytes", "runtime"] {
            assert!(!TestKind::BlockIo.judges(bookkeeping), "{bookkeeping}");
        }
        assert!(TestKind::Throughput.judges("write_bw"));
        assert!(!TestKind::Throughput.judges("bytes") && !TestKind::Throughput.judges("elapsed"));
        assert!(TestKind::Seek.judges("iops") && !TestKind::Seek.judges("requests"));
        assert!(TestKind::FileSystem.judges("random_seeks"));
        for twin in [
            "random_seeks_cpu",
            "random_seeks_lat",
            "seq_stat",
            "random_delete",
        ] {
            assert!(!TestKind::FileSystem.judges(twin), "{twin}");
        }
        assert!(TestKind::PageCache.judged().is_empty() && TestKind::PageCache.note().is_some());
        assert!(TestKind::Unknown.judged().is_empty());
        // what lasts is judged; the burst is shown beside it
        assert!(TestKind::BlockIo.judges("read_iops_sustained"));
        assert!(TestKind::Throughput.judges("write_bw_sustained"));
        // the steady-state flag qualifies the sustained verdict: no table
        for ss in STEADY_STATE {
            assert!(!TestKind::BlockIo.judges(ss) && !TestKind::Throughput.judges(ss));
        }
        // fio's own steady-state verdict is shown beside diskdash's, not judged
        for burst in [
            "read_iops_burst",
            "read_bw_burst",
            "burst_duration",
            "burst_ios",
            "fio_ss_attained",
            "fio_ss_criterion",
        ] {
            assert!(!TestKind::BlockIo.judges(burst) && !TestKind::Throughput.judges(burst));
        }
    }

    #[test]
    fn a_timed_test_is_judged_on_its_sustained_levels_alone() {
        let k = TestKind::BlockIo;
        assert!(k.is_timed(["read_iops", "read_iops_sustained"].into_iter()));
        // a bandwidth level alone does not time a test judged on IOPS
        assert!(!k.is_timed(["read_iops", "read_bw_sustained"].into_iter()));
        assert!(TestKind::Throughput.is_timed(["read_bw_sustained"].into_iter()));
        for whole_run in ["read_iops", "write_iops", "mixed_iops", "read_clat_p99"] {
            assert!(k.judges_in(whole_run, false), "{whole_run}");
            assert!(!k.judges_in(whole_run, true), "{whole_run}");
        }
        assert!(k.judges_in("read_iops_sustained", true));
        assert!(!k.judges_in("read_iops_sustained", false));
        assert!(!k.judges_in("read_iops_burst", true));
        assert!(!k.judges_in("steady_state", true));
        assert!(!TestKind::Throughput.judges_in("read_bw", true));
        assert!(TestKind::Throughput.judges_in("read_bw_sustained", true));
    }

    #[test]
    fn names_imply_units() {
        assert_eq!(expected_unit("read_iops"), Some(Unit::Iops));
        assert_eq!(expected_unit("seq_block_read_bw"), Some(Unit::BytesPerSec));
        assert_eq!(expected_unit("random_seeks_cpu"), Some(Unit::Percent));
        assert_eq!(expected_unit("read_clat_p99"), Some(Unit::Seconds));
        assert_eq!(expected_unit("seq_create_lat"), Some(Unit::Seconds));
        assert_eq!(expected_unit("random_seeks"), None);
        assert_eq!(expected_unit("read_iops_sustained"), Some(Unit::Iops));
        assert_eq!(expected_unit("write_bw_burst"), Some(Unit::BytesPerSec));
        assert_eq!(expected_unit("burst_duration"), Some(Unit::Seconds));
        assert_eq!(expected_unit("burst_ios"), Some(Unit::Count));
        assert_eq!(expected_unit("burst_bytes"), Some(Unit::Bytes));
        assert_eq!(expected_unit("steady_state"), Some(Unit::Count));
        assert_eq!(expected_unit("ss_slope"), Some(Unit::Percent));
        assert_eq!(expected_unit("fio_ss_attained"), Some(Unit::Count));
        assert_eq!(expected_unit("fio_ss_criterion"), Some(Unit::Percent));
    }
}
