//! Statistics over repetitions: median, min, max, run count and coefficient
//! of variation per study, configuration, test and metric.
//!
//! A configuration is what was tested and is priced as one: study,
//! provider, offering, size and the provisioned IOPS and MB/s (labels
//! `provisioned_iops`, `provisioned_mbps`). Two sizes of one offering are
//! two configurations, each with its own rows, medians and verdicts.

use std::collections::{BTreeMap, BTreeSet};

use crate::analysis::limits::{Limit, Limits};
use crate::metrics::TestKind;
use crate::record::{self, Price, Status};
use crate::units::Unit;

mod group;
pub mod history;
pub use group::{group, group_with, quick_set_aside};
pub use history::{HistoryPoint, Measurement};

/// A coefficient of variation at or above this (10 %) flags a result as
/// spread widely: repetitions disagree too much to trust the median alone.
pub const LARGE_SPREAD_CV: f64 = 0.10;

/// Summary of one metric over the repetitions of one test on one offering.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Number of values (repetitions with this metric).
    pub n: usize,
    /// Median (mean of the two middle values for an even count).
    pub median: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Sample standard deviation / mean; `None` for a single run or a zero mean.
    pub cv: Option<f64>,
}

impl Summary {
    /// Summarises `values`; `None` when there are none or any is not finite.
    pub fn of(values: &[f64]) -> Option<Summary> {
        if values.is_empty() || values.iter().any(|v| !v.is_finite()) {
            return None;
        }
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let mid = n / 2;
        let median = if n % 2 == 1 {
            *sorted.get(mid)?
        } else {
            (*sorted.get(mid - 1)? + *sorted.get(mid)?) / 2.0
        };
        let mean = sorted.iter().sum::<f64>() / n as f64;
        let cv = if n >= 2 && mean != 0.0 {
            let var = sorted.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            Some(var.sqrt() / mean.abs())
        } else {
            None
        };
        Some(Summary {
            n,
            median,
            min: *sorted.first()?,
            max: *sorted.last()?,
            cv,
        })
    }

    /// Whether there is only one run behind the numbers.
    pub fn single_run(&self) -> bool {
        self.n == 1
    }

    /// Whether the spread over repetitions is large (`cv >= LARGE_SPREAD_CV`).
    pub fn large_spread(&self) -> bool {
        self.cv.is_some_and(|cv| cv >= LARGE_SPREAD_CV)
    }
}

/// One metric of one test on one offering.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricStats {
    /// Canonical unit.
    pub unit: Unit,
    /// The numbers over repetitions.
    pub summary: Summary,
}

/// One test on one offering: its records and per-metric statistics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TestResults {
    /// Indices into the record list, sorted by record id.
    pub records: Vec<usize>,
    /// Metric name to statistics, from records with status `ok` (without
    /// the sustained levels and steady state of the runs left out).
    pub metrics: BTreeMap<String, MetricStats>,
    /// Runs whose timeline never left the burst: not exhausted, and left
    /// out of the sustained level, in record order.
    pub left_out: Vec<LeftOut>,
    /// Judged metrics whose median is the cap of the instance the runs
    /// ran on ([`at_instance_limit`]): metric name to the reason, `at the
    /// instance's limit of 3,600 IOPS (m5.large)`. They get no verdict.
    pub capped: BTreeMap<String, String>,
    /// Runs of an older measurement of the configuration than the one its
    /// figures come from ([`history`]): left out of every figure, with
    /// the measurement's date in `why`, in record order.
    pub older: Vec<LeftOut>,
    /// The date of the measurement its figures come from, where the
    /// configuration was measured more than once in its study.
    pub measured: Option<String>,
}

/// A run of a timed test that never left its burst, so measured no
/// sustained level: "not exhausted", never "flat", and left out of its
/// configuration's sustained level and verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct LeftOut {
    /// Index into the record list.
    pub record: usize,
    /// The run's length in seconds (its `runtime`, else its duration).
    pub length_s: Option<f64>,
    /// Why, in words: `shorter than the 30 min burst another run
    /// showed`, `at the promised burst of 3,500 IOPS`.
    pub why: String,
}

impl TestResults {
    /// Whether the run of record `i` is left out of the sustained level
    /// (or, from an older measurement, of every figure).
    pub fn is_left_out(&self, i: usize) -> bool {
        self.left_out.iter().any(|l| l.record == i) || self.older_why(i).is_some()
    }

    /// Why the run of record `i` is left out as part of an older
    /// measurement, where it is.
    pub fn older_why(&self, i: usize) -> Option<&str> {
        // in record order
        let at = self.older.binary_search_by_key(&i, |l| l.record).ok()?;
        self.older.get(at).map(|l| l.why.as_str())
    }

    /// The runs left out, in words: `1 run of 20 min left out: shorter
    /// than the 30 min burst another run showed`; one clause per reason,
    /// joined with `; `. `None` when no run is left out.
    pub fn left_out_note(&self) -> Option<String> {
        let mut by_why: BTreeMap<&str, Vec<Option<f64>>> = BTreeMap::new();
        for l in &self.left_out {
            by_why.entry(&l.why).or_default().push(l.length_s);
        }
        let clauses: Vec<String> = by_why
            .into_iter()
            .map(|(why, lengths)| {
                let n = lengths.len();
                let runs = if n == 1 { "run" } else { "runs" };
                let words: BTreeSet<String> = lengths
                    .iter()
                    .map(|l| l.map(crate::format::duration_words).unwrap_or_default())
                    .collect();
                match words.iter().next() {
                    Some(w) if words.len() == 1 && !w.is_empty() => {
                        format!("{n} {runs} of {w} left out: {why}")
                    }
                    _ => format!("{n} {runs} left out: {why}"),
                }
            })
            .collect();
        (!clauses.is_empty()).then(|| clauses.join("; "))
    }
}

/// Whether `metric` comes from a run's sustained level (its level and
/// steady state), which a run left out does not give.
pub fn of_the_sustained_level(metric: &str) -> bool {
    metric.ends_with(crate::metrics::SUSTAINED)
        || matches!(metric, "steady_state" | "ss_range" | "ss_slope")
}

/// The runs of one configuration's timed test (`ok` record indices) that
/// never left their burst:
///
/// - a run classified flat or not exhausted, shorter than the burst
///   another run of the configuration showed (`burst_duration`), whose
///   level is not that run's sustained level (within the tolerance
///   below): it ran on the burst throughout;
/// - a run classified flat or not exhausted whose level is a promised
///   burst level from `--limits` (within its tolerance: the larger of 10%
///   and its steady-state range, at most 50%), where the promised
///   baseline is lower;
/// - first of all, a run of any pattern whose sustained level is its
///   instance's cap (a per-instance row of `--limits` for the record's
///   provider and `host.instance_type`: its baseline or burst, within the
///   tolerance above) and not the volume's promised level: "at the
///   instance's limit", a measure of the VM, not of the volume.
///
/// Works on what every record keeps when held as a summary (pattern,
/// metrics, parameters, host), so a site is the same however records are
/// held.
pub fn left_out(
    records: &[&record::Summary],
    indices: &[usize],
    limit: Option<&Limit>,
    size_gb: Option<f64>,
    limits: &Limits,
) -> Vec<LeftOut> {
    use crate::record::Pattern;
    let runs: Vec<(usize, &record::Summary)> = indices
        .iter()
        .filter_map(|&i| Some((i, *records.get(i)?)))
        .filter(|(_, r)| r.status == Status::Ok)
        .collect();
    let Some((_, first)) = runs.first() else {
        return Vec::new();
    };
    let kind = crate::tools::judge(first.test.tool).kind(&first.test.parameters);
    let (what, unit) = if kind == TestKind::Throughput {
        ("bw", Unit::BytesPerSec)
    } else {
        ("iops", Unit::Iops)
    };
    let metric =
        |r: &record::Summary, m: &str| r.metrics.get(m).map(|m| m.value).filter(|v| v.is_finite());
    let level = |r: &record::Summary| {
        metric(r, &format!("read_{what}_sustained"))
            .or_else(|| metric(r, &format!("write_{what}_sustained")))
    };
    let pattern = |r: &record::Summary| r.timeline.as_ref().and_then(|t| t.pattern);
    let tolerance = |r: &record::Summary| {
        let range = metric(r, "ss_range").map_or(0.0, |p| p / 100.0);
        range.clamp(
            crate::timeline::MIN_TOLERANCE,
            crate::timeline::MAX_TOLERANCE,
        )
    };
    let length = |r: &record::Summary| {
        r.test
            .parameters
            .get("runtime")
            .and_then(serde_json::Value::as_f64)
            .or(r.duration_s)
            .filter(|s| s.is_finite() && *s > 0.0)
    };
    // the longest credit burst of the configuration's runs, with the
    // level its run fell to
    let mut longest: Option<(f64, f64)> = None;
    for (_, r) in &runs {
        if pattern(r) != Some(Pattern::CreditBurst) {
            continue;
        }
        if let (Some(d), Some(s)) = (metric(r, "burst_duration"), level(r)) {
            if longest.is_none_or(|(l, _)| d > l) {
                longest = Some((d, s));
            }
        }
    }
    let by_bw = what == "bw";
    let promise = limit.map(|l| l.promise(by_bw, size_gb)).unwrap_or_default();
    // the level is the volume's own promise: the volume explains it
    let the_volumes = |s: f64, tol: f64| {
        [promise.baseline, promise.burst]
            .into_iter()
            .flatten()
            .any(|p| (s - p).abs() <= tol * p)
    };
    let mut out = Vec::new();
    for (i, r) in &runs {
        let Some(s) = level(r) else { continue };
        let tol = tolerance(r);
        let len = length(r);
        let instance = r.host.instance_type.as_deref();
        let cap = limits
            .instance_cap(r.subject.provider.as_deref(), instance)
            .map(|c| c.promise(by_bw, None));
        let at_cap = cap
            .into_iter()
            .flat_map(|c| [c.baseline, c.burst])
            .flatten()
            .find(|&c| c > 0.0 && (s - c).abs() <= tol * c && !the_volumes(s, tol));
        if let (Some(c), Some(inst)) = (at_cap, instance) {
            out.push(LeftOut {
                record: *i,
                length_s: len,
                why: format!(
                    "at the instance's limit of {} ({inst})",
                    crate::format::value(c, unit)
                ),
            });
            continue;
        }
        if !matches!(pattern(r), Some(Pattern::Flat | Pattern::NotExhausted)) {
            continue;
        }
        let why = match (longest, len) {
            (Some((d, after)), Some(l)) if l < d && (s - after).abs() > tol * after => {
                Some(format!(
                    "shorter than the {} burst another run showed",
                    crate::format::duration_words(d)
                ))
            }
            _ => None,
        };
        let why = why.or_else(|| {
            let b = promise.burst.filter(|b| *b > 0.0)?;
            let below = promise.baseline.is_none_or(|base| base < b * (1.0 - tol));
            ((s - b).abs() <= tol * b && below)
                .then(|| format!("at the promised burst of {}", crate::format::value(b, unit)))
        });
        if let Some(why) = why {
            out.push(LeftOut {
                record: *i,
                length_s: len,
                why,
            });
        }
    }
    out
}

/// Whether a median `value` of a rate metric (`*_iops`: IOPS; `*_bw`:
/// B/s) measured on instance `instance` of `provider` is that instance's
/// cap in `limits` (its baseline or burst within [`MIN_TOLERANCE`]
/// (crate::timeline::MIN_TOLERANCE)) and not the volume's promise
/// (`volume`, the configuration's own row): the reason in words, else `None`.
pub fn at_instance_limit(
    limits: &Limits,
    provider: Option<&str>,
    instance: Option<&str>,
    volume: Option<&Limit>,
    size_gb: Option<f64>,
    metric: &str,
    value: f64,
) -> Option<String> {
    let (by_bw, unit) = if metric.ends_with("_iops") {
        (false, Unit::Iops)
    } else if metric.ends_with("_bw") {
        (true, Unit::BytesPerSec)
    } else {
        return None;
    };
    let cap = limits
        .instance_cap(provider, instance)?
        .promise(by_bw, None);
    let tol = crate::timeline::MIN_TOLERANCE;
    let near = |p: f64| p > 0.0 && (value - p).abs() <= tol * p;
    let own = volume
        .map(|l| l.promise(by_bw, size_gb))
        .unwrap_or_default();
    if [own.baseline, own.burst].into_iter().flatten().any(near) {
        return None;
    }
    let c = [cap.baseline, cap.burst]
        .into_iter()
        .flatten()
        .find(|&c| near(c))?;
    Some(format!(
        "at the instance's limit of {} ({})",
        crate::format::value(c, unit),
        instance?
    ))
}

/// One tested configuration within a study.
#[derive(Clone, Debug, PartialEq)]
pub struct OfferingData {
    /// Name for people: `provider offering`, then ` · 500 GB`, ` · 6000 IOPS`
    /// and ` · 250 MB/s` for the parts that differ between the study's
    /// configurations (an unknown part is left out).
    pub name: String,
    /// `provider offering` alone, the name the price list and `--baseline` use.
    pub offering_name: String,
    /// Provider as recorded.
    pub provider: Option<String>,
    /// Offering as recorded.
    pub offering: Option<String>,
    /// Region of the first record (by id), which decides the catalogue
    /// price it gets.
    pub region: Option<String>,
    /// The price the records carry (the first record, by id, that has one).
    pub record_price: Option<Price>,
    /// Size of the tested volume in GB.
    pub size_gb: Option<f64>,
    /// Provisioned IOPS (label `provisioned_iops`).
    pub provisioned_iops: Option<f64>,
    /// Provisioned throughput (label `provisioned_mbps`), in the unit the
    /// offering sells it in: [`OfferingData::mbps_unit`].
    pub provisioned_mbps: Option<f64>,
    /// The unit the offering sells throughput in, as its published limits
    /// say (`MiB/s` for gp3); `MB/s` without a row.
    pub mbps_unit: &'static str,
    /// Labels of the first record (by id).
    pub labels: BTreeMap<String, String>,
    /// Indices of every record of this offering, sorted by record id.
    pub records: Vec<usize>,
    /// Test id to results.
    pub tests: BTreeMap<String, TestResults>,
    /// Its measurements in this study, oldest first ([`history`]).
    pub measurements: Vec<Measurement>,
    /// Where the configuration was measured more than once (in this study
    /// or with others): the judged medians of every measurement, by date,
    /// study, test and metric; empty otherwise.
    pub history: Vec<HistoryPoint>,
    /// Where it has a history: the date of its newest measurement in this
    /// study, the one its answer uses.
    pub measured: Option<String>,
}

impl OfferingData {
    /// How many of its runs its answer counts: every run but those of an
    /// older measurement, which are its history.
    pub fn current_runs(&self) -> usize {
        self.records
            .iter()
            .filter(|&&i| !self.tests.values().any(|t| t.older_why(i).is_some()))
            .count()
    }
}

/// One study: the configurations compared in it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Study {
    /// Configuration name to its data.
    pub offerings: BTreeMap<String, OfferingData>,
    /// Every test id seen in the study.
    pub tests: BTreeSet<String>,
    /// What each test measures, from its first record (by id): which of its
    /// metrics are judged.
    pub kinds: BTreeMap<String, TestKind>,
    /// The tests whose records measure the page cache or memory, with why
    /// ([`crate::analysis::judged`]): shown, never judged.
    pub traps: BTreeMap<String, String>,
}

impl Study {
    /// What `test` measures (`Unknown` for a test the study does not hold).
    pub fn kind(&self, test: &str) -> TestKind {
        self.kinds.get(test).copied().unwrap_or(TestKind::Unknown)
    }

    /// Whether `test` is timed in this study: some configuration's results
    /// carry a sustained level its kind judges, so that the test is judged
    /// on its sustained levels alone ([`TestKind::judges_in`]).
    pub fn is_timed(&self, test: &str) -> bool {
        self.kind(test).is_timed(
            self.offerings
                .values()
                .filter_map(|o| o.tests.get(test))
                .flat_map(|t| t.metrics.keys().map(String::as_str)),
        )
    }

    /// Whether `metric` of `test` gets a value table in this study: never
    /// for a cache trap ([`Study::traps`]).
    pub fn judges(&self, test: &str, metric: &str) -> bool {
        !self.traps.contains_key(test) && self.kind(test).judges_in(metric, self.is_timed(test))
    }

    /// Why `test` is shown and never judged, in words: the cache trap's
    /// reason, else its kind's note (`None` for a judged test).
    pub fn not_judged(&self, test: &str) -> Option<&str> {
        self.traps
            .get(test)
            .map(String::as_str)
            .or_else(|| self.kind(test).note())
    }
}

/// Records grouped by study, offering and test, with statistics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    /// Study name to study.
    pub studies: BTreeMap<String, Study>,
    /// Record id to the name of the test it is pooled in, for the records
    /// whose test is not named by its bare id ([`crate::analysis::identity`]).
    pub renamed: BTreeMap<String, String>,
}

impl Dataset {
    /// The name of the test record `r` is pooled in: its test id, or the
    /// id with what sets it apart (`dd-write-bulk (quick: 64 MiB)`).
    pub fn test_of<'a>(&'a self, r: &'a record::Summary) -> &'a str {
        self.renamed
            .get(&r.id)
            .map_or(r.test.id.as_str(), String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::limits::Limits;

    #[test]
    fn median_of_odd_and_even_counts() {
        let s = Summary::of(&[3.0, 1.0, 2.0]).unwrap();
        assert_eq!((s.n, s.median, s.min, s.max), (3, 2.0, 1.0, 3.0));
        let s = Summary::of(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!(s.median, 2.5);
    }

    #[test]
    fn coefficient_of_variation_uses_the_sample_deviation() {
        // mean 10, sample variance ((-2)^2 + 0 + 2^2) / 2 = 4, sd 2, cv 0.2
        let s = Summary::of(&[8.0, 10.0, 12.0]).unwrap();
        assert!((s.cv.unwrap() - 0.2).abs() < 1e-12);
        assert!(s.large_spread());
        let tight = Summary::of(&[99.0, 100.0, 101.0]).unwrap();
        assert!((tight.cv.unwrap() - 0.01).abs() < 1e-12);
        assert!(!tight.large_spread());
    }

    #[test]
    fn single_run_has_no_spread() {
        let s = Summary::of(&[473.4]).unwrap();
        assert!(s.single_run());
        assert_eq!(s.cv, None);
        assert!(!s.large_spread());
    }

    #[test]
    fn nothing_to_summarise() {
        assert_eq!(Summary::of(&[]), None);
        assert_eq!(Summary::of(&[1.0, f64::NAN]), None);
    }

    #[test]
    fn group_summarises_ok_records_and_keeps_the_others() {
        use crate::analysis::testing::record;
        let mut failed = record("c", "P", "x", Some(0.1), "t", &[]);
        failed.status = Status::Failed;
        failed.error = Some("fio missing".into());
        let recs = [
            record("a", "P", "x", Some(0.1), "t", &[("iops", 100.0, "IOPS")]),
            record("b", "P", "x", Some(0.2), "t", &[("iops", 300.0, "IOPS")]),
            failed,
            // the same metric in another unit is left out, not mixed in
            record("d", "P", "x", None, "t", &[("iops", 5.0, "ops/s")]),
        ];
        let recs = recs.map(record::Summary::from);
        let refs: Vec<&record::Summary> = recs.iter().collect();
        let data = group(&refs);
        let off = &data.studies["s"].offerings["P x"];
        assert_eq!(off.records, [0, 1, 2, 3]);
        // the first record (by id) with a price gives the record price
        assert_eq!(off.record_price.as_ref().unwrap().per_gb_month, 0.1);
        let t = &off.tests["t"];
        assert_eq!(t.records.len(), 4);
        let iops = &t.metrics.get("iops").unwrap();
        assert_eq!(iops.unit, Unit::Iops);
        assert_eq!((iops.summary.n, iops.summary.median), (2, 200.0));
    }

    /// A run of the sustained test of `offering`, classified `pattern`,
    /// `runtime` s long, with `metrics`.
    fn timed(
        id: &str,
        offering: &str,
        pattern: crate::record::Pattern,
        runtime: f64,
        metrics: &[(&str, f64, &str)],
    ) -> record::Record {
        let mut r = crate::analysis::testing::record(
            id,
            "Azure",
            offering,
            Some(0.1),
            "fio-sustained-randread-4k-qd32",
            metrics,
        );
        r.test
            .parameters
            .insert("runtime".into(), serde_json::Value::from(runtime));
        r.timeline = Some(Box::new(crate::record::Timeline {
            interval_s: 1.0,
            read: None,
            write: None,
            trim: None,
            logs: BTreeMap::new(),
            pattern: Some(pattern),
            burst_on_s: None,
            burst_off_s: None,
        }));
        r
    }

    #[test]
    fn runs_that_never_left_their_burst_are_left_out_with_why() {
        use crate::record::Pattern::*;
        // P15: a 45-minute run bursts at 3,500 for 30 minutes, then 1,100;
        // a 20-minute run stays at 3,500; another 20-minute one started
        // with an empty bucket, at 1,150 (within 10% of 1,100)
        let records = [
            timed(
                "a",
                "P15",
                CreditBurst,
                2700.0,
                &[
                    ("read_iops_sustained", 1100.0, "IOPS"),
                    ("read_iops_burst", 3500.0, "IOPS"),
                    ("burst_duration", 1800.0, "s"),
                    ("steady_state", 1.0, "count"),
                ],
            ),
            timed(
                "b",
                "P15",
                Flat,
                1200.0,
                &[
                    ("read_iops_sustained", 3500.0, "IOPS"),
                    ("steady_state", 1.0, "count"),
                    ("ss_range", 3.0, "%"),
                ],
            ),
            timed(
                "c",
                "P15",
                Flat,
                1200.0,
                &[("read_iops_sustained", 1150.0, "IOPS")],
            ),
        ];
        let records = records.map(record::Summary::from);
        let refs: Vec<&record::Summary> = records.iter().collect();
        let t = &group(&refs).studies["s"].offerings["Azure P15"].tests
            ["fio-sustained-randread-4k-qd32"];
        assert_eq!(t.left_out.len(), 1);
        assert_eq!(t.left_out[0].record, 1);
        assert_eq!(
            t.left_out_note().as_deref(),
            Some("1 run of 20 min left out: shorter than the 30 min burst another run showed")
        );
        // its level and steady state count for nothing; the others' do
        let s = &t.metrics["read_iops_sustained"].summary;
        assert_eq!((s.n, s.min, s.max), (2, 1100.0, 1150.0));
        assert_eq!(t.metrics["steady_state"].summary.n, 1);
        assert!(!t.metrics.contains_key("ss_range"));

        // alone, the 20-minute run is left out only where --limits
        // promises 3,500 as a burst
        let alone = [records[1].clone()];
        let refs: Vec<&record::Summary> = alone.iter().collect();
        let t = |l: &Limits| {
            group_with(&refs, l).studies["s"].offerings["Azure P15"].tests
                ["fio-sustained-randread-4k-qd32"]
                .clone()
        };
        assert!(t(&Limits::default()).left_out.is_empty());
        // (the columns without the optional `instance`)
        let header = crate::analysis::limits::COLUMNS[..12].join(",");
        let limits = |row: &str| Limits::parse(&format!("{header}\n{row}\n")).unwrap();
        let p15 = limits("Azure,P15,,,1100,,3500,,,,,");
        let left = t(&p15);
        assert_eq!(
            left.left_out_note().as_deref(),
            Some("1 run of 20 min left out: at the promised burst of 3,500 IOPS")
        );
        assert!(!left.metrics.contains_key("read_iops_sustained"));
        // a promise it is 10% off, or a baseline as high as the burst, is not
        assert!(t(&limits("Azure,P15,,,1100,,3900,,,,,"))
            .left_out
            .is_empty());
        assert!(t(&limits("Azure,P15,,,3500,,3500,,,,,"))
            .left_out
            .is_empty());
    }

    #[test]
    fn a_level_at_the_instance_cap_is_the_instances_limit_not_the_volumes() {
        use crate::record::Pattern::*;
        // an io2 volume promised 16,000 IOPS on an m5.large (AWS: 3,600
        // IOPS baseline, 18,750 for 30 minutes a day): 18,750 for 30
        // minutes, then 3,600
        let on = |id: &str, instance: Option<&str>, level: f64| {
            let mut r = timed(
                id,
                "io2",
                CreditBurst,
                2700.0,
                &[
                    ("read_iops_sustained", level, "IOPS"),
                    ("read_iops_burst", 18750.0, "IOPS"),
                    ("burst_duration", 1800.0, "s"),
                    ("steady_state", 1.0, "count"),
                    ("ss_range", 2.0, "%"),
                ],
            );
            r.subject.provider = Some("AWS".into());
            r.host.instance_type = instance.map(str::to_string);
            record::Summary::from(r)
        };
        let limits = Limits::parse(
            "provider,offering,size_min_gb,size_max_gb,baseline_iops,burst_iops,baseline_mbps,burst_mbps,source,as_of,instance\n\
             AWS,io2,,,16000,,,,,,\n\
             AWS,,,,3600,18750,81.25,593.75,aws,2026-12-03,m5.large\n",
        )
        .unwrap();
        let t = |records: &[record::Summary]| {
            let refs: Vec<&record::Summary> = records.iter().collect();
            group_with(&refs, &limits).studies["s"].offerings["AWS io2"].tests
                ["fio-sustained-randread-4k-qd32"]
                .clone()
        };
        let capped = t(&[on("a", Some("M5.Large"), 3610.0)]);
        assert_eq!(
            capped.left_out_note().as_deref(),
            Some("1 run of 45 min left out: at the instance's limit of 3,600 IOPS (M5.Large)")
        );
        assert!(!capped.metrics.contains_key("read_iops_sustained"));
        // at the instance's burst all along: its limit too
        let mut flat = on("b", Some("m5.large"), 18_700.0);
        if let Some(t) = flat.timeline.as_mut() {
            t.pattern = Some(Flat);
        }
        assert_eq!(
            t(&[flat]).left_out_note().as_deref(),
            Some("1 run of 45 min left out: at the instance's limit of 18,750 IOPS (m5.large)")
        );
        // the volume's own level, another instance, no instance, or a
        // level 10% off the cap: judged as the volume's
        for r in [
            on("c", Some("m5.large"), 16_000.0),
            on("d", Some("m5.4xlarge"), 3600.0),
            on("e", None, 3600.0),
            on("f", Some("m5.large"), 4000.0),
        ] {
            let kept = t(&[r]);
            assert!(kept.left_out.is_empty(), "{:?}", kept.left_out);
            assert!(kept.metrics.contains_key("read_iops_sustained"));
        }
    }
}
