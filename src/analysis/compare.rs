//! Two sets of records compared, configuration by configuration: for every
//! test and judged metric measured on both sides, the ratio new / base of
//! the medians (oriented so that above 1 is better), its range over the
//! two sides' spreads, and whether it fell below a threshold beyond that
//! range. `diskdash compare` prints it; the rules are in docs/compare.md.
//!
//! Each side is grouped by [`stats::group_with`], as a site is, so the
//! runs a site leaves out of a sustained level are left out here too, and
//! a metric is compared only where both sides' studies judge it
//! ([`Study::judges`]).

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{bail, Result};

use crate::analysis::limits::Limits;
use crate::analysis::stats::{self, Dataset, OfferingData, Study, Summary};
use crate::record;
use crate::units::Unit;

/// What makes two configurations of the two sides one: provider,
/// offering, size, provisioned IOPS and MB/s (the numbers as bits), as
/// the site groups records, never the display name, which depends on what
/// else a study holds.
type Key = (
    Option<String>,
    Option<String>,
    Option<u64>,
    Option<u64>,
    Option<u64>,
);

fn key_of(o: &OfferingData) -> Key {
    let bits = |v: Option<f64>| v.map(f64::to_bits);
    (
        o.provider.clone(),
        o.offering.clone(),
        bits(o.size_gb),
        bits(o.provisioned_iops),
        bits(o.provisioned_mbps),
    )
}

/// The records of one side grouped as a site groups them (sorted by id,
/// one record per id), with the published limits that tell a run left out
/// of a sustained level.
pub fn dataset<'a>(
    records: impl IntoIterator<Item = &'a record::Summary>,
    limits: &Limits,
) -> Dataset {
    let mut records: Vec<&record::Summary> = records.into_iter().collect();
    // NOTE: as `Analysis::with_limits` orders them, so the numbers are the site's
    records.sort_by(|a, b| a.id.cmp(&b.id));
    records.dedup_by(|a, b| a.id == b.id);
    stats::group_with(&records, limits)
}

/// One side of a comparison: its configurations, each in the study that
/// holds it.
pub struct Side<'d> {
    configs: BTreeMap<Key, (&'d Study, &'d OfferingData, &'d str)>,
}

impl<'d> Side<'d> {
    /// The configurations of `data`. Fails, naming the configuration and
    /// its studies, when one configuration is in more than one study: a
    /// side is one measurement of each configuration, and which of the two
    /// to compare would be a guess.
    pub fn of(data: &'d Dataset) -> Result<Side<'d>> {
        let mut configs = BTreeMap::new();
        let mut studies: BTreeMap<Key, Vec<&str>> = BTreeMap::new();
        for (name, study) in &data.studies {
            for o in study.offerings.values() {
                configs.insert(key_of(o), (study, o, name.as_str()));
                studies.entry(key_of(o)).or_default().push(name);
            }
        }
        if let Some((key, names)) = studies.iter().find(|(_, n)| n.len() > 1) {
            let name = configs.get(key).map(|(_, o, _)| configuration_name(o));
            let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            bail!(
                "the configuration {} is in the studies {}: compare takes one measurement of \
                 each configuration per side (give the directory of one study)",
                name.unwrap_or_default(),
                quoted.join(" and ")
            );
        }
        Ok(Side { configs })
    }
}

/// A configuration for people, every known part spelled out (a
/// comparison spans two sets of records, so no part goes without saying):
/// `AWS io2 · 500 GB · 16,000 IOPS · 250 MB/s`.
fn configuration_name(o: &OfferingData) -> String {
    let mut name = o.offering_name.clone();
    let parts = [
        o.size_gb.map(crate::format::size_gb),
        o.provisioned_iops
            .map(|v| crate::format::value(v, Unit::Iops)),
        o.provisioned_mbps
            .map(|v| crate::format::value(v * 1e6, Unit::BytesPerSec)),
    ];
    for p in parts.into_iter().flatten() {
        name.push_str(" · ");
        name.push_str(&p);
    }
    name
}

/// One side's figures of a compared metric.
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    /// The study that holds the configuration on this side.
    pub study: String,
    /// The numbers over the side's runs (canonical unit).
    pub summary: Summary,
}

/// Where a ratio lies against the threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// At or above the threshold over its whole range (the ratio itself
    /// where a side ran once).
    Ok,
    /// The range reaches below the threshold, but not all of it: the
    /// spread does not tell a regression from noise.
    WithinUncertainty,
    /// Below the threshold over its whole range (the ratio itself where a
    /// side ran once).
    Regressed,
    /// No ratio: a median of zero where it would divide.
    NoRatio,
}

impl Verdict {
    /// As the table and the JSON say it: `ok`, `within uncertainty`,
    /// `regressed`, `no ratio`.
    pub fn words(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::WithinUncertainty => "within uncertainty",
            Verdict::Regressed => "regressed",
            Verdict::NoRatio => "no ratio",
        }
    }
}

/// One configuration, test and judged metric measured on both sides.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The configuration for people ([`configuration_name`]).
    pub configuration: String,
    /// Provider as recorded.
    pub provider: Option<String>,
    /// Offering as recorded.
    pub offering: Option<String>,
    /// Size in GB.
    pub size_gb: Option<f64>,
    /// Provisioned IOPS.
    pub provisioned_iops: Option<f64>,
    /// Provisioned MB/s.
    pub provisioned_mbps: Option<f64>,
    /// The test as the site names it (its id, or the id with what sets
    /// it apart).
    pub test: String,
    /// Metric name.
    pub metric: String,
    /// Canonical unit of both sides' figures.
    pub unit: Unit,
    /// Whether a larger value is better (else the ratio is base / new).
    pub higher_is_better: bool,
    /// The base side's figures.
    pub base: Figures,
    /// The new side's figures.
    pub new: Figures,
    /// new / base (base / new for a lower-is-better metric), so that
    /// above 1 is better; `None` where a zero would divide.
    pub ratio: Option<f64>,
    /// The ratio's range over the two sides' spreads ([`range`]); `None`
    /// when either side ran once, or without a ratio.
    pub range: Option<(f64, f64)>,
    /// Where the ratio lies against the threshold.
    pub verdict: Verdict,
}

impl Row {
    /// Whether either side has a single run behind its median.
    pub fn single_run(&self) -> bool {
        self.base.summary.single_run() || self.new.summary.single_run()
    }
}

/// What one side holds and the other does not: a configuration, a test of
/// a configuration both hold, or a judged metric of a test both hold.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Unmatched {
    /// The configuration for people.
    pub configuration: String,
    /// The test, when the configuration is on both sides.
    pub test: Option<String>,
    /// The judged metric, when the test is on both sides.
    pub metric: Option<String>,
}

/// Two sides compared.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The lowest ratio that is not a regression.
    pub threshold: f64,
    /// Every configuration, test and judged metric on both sides, in
    /// configuration, test and metric order.
    pub rows: Vec<Row>,
    /// What only the base side holds, sorted.
    pub only_in_base: Vec<Unmatched>,
    /// What only the new side holds, sorted.
    pub only_in_new: Vec<Unmatched>,
}

impl Comparison {
    /// The rows that regressed.
    pub fn regressed(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|r| r.verdict == Verdict::Regressed)
    }
}

/// new / base of two medians, oriented so that above 1 is better (base /
/// new for a lower-is-better metric). A zero of a higher-is-better metric
/// on the new side is a result (0); a zero divisor is no ratio.
// NOTE: the performance ratio's rule of `value/tables.rs`, new in place of
// the configuration and base in place of the baseline.
pub fn ratio(base: f64, new: f64, higher_is_better: bool) -> Option<f64> {
    let (r, zero_ok) = if higher_is_better {
        (new / base, true)
    } else {
        (base / new, false)
    };
    (r.is_finite() && (r > 0.0 || zero_ok && r == 0.0)).then_some(r)
}

/// The ratio's range over the two sides' spreads: from the new side's
/// worst run against the base's best to its best against the base's worst,
/// as the value verdict's range is made. `None` when either side ran once
/// (its spread is unknown) or an end has no ratio.
pub fn range(base: &Summary, new: &Summary, higher_is_better: bool) -> Option<(f64, f64)> {
    if base.single_run() || new.single_run() {
        return None;
    }
    let (lo, hi) = if higher_is_better {
        (
            ratio(base.max, new.min, true),
            ratio(base.min, new.max, true),
        )
    } else {
        (
            ratio(base.min, new.max, false),
            ratio(base.max, new.min, false),
        )
    };
    lo.zip(hi)
}

/// Where `ratio` lies against `threshold`: regressed when its whole
/// `range` is below it, within uncertainty when the range reaches below
/// it, ok otherwise; without a range (a single run) the ratio decides.
/// Ratios are taken to three decimals, as value verdicts are
/// ([`crate::analysis::value::verdict`]), so that 0.7 divided out as
/// 0.69999999 is 0.7.
pub fn verdict(ratio: Option<f64>, range: Option<(f64, f64)>, threshold: f64) -> Verdict {
    let r3 = |v: f64| (v * 1000.0).round() / 1000.0;
    let below = |v: f64| r3(v) < threshold;
    match (ratio, range) {
        (None, _) => Verdict::NoRatio,
        (Some(_), Some((_, hi))) if below(hi) => Verdict::Regressed,
        (Some(_), Some((lo, _))) if below(lo) => Verdict::WithinUncertainty,
        (Some(_), Some(_)) => Verdict::Ok,
        (Some(r), None) if below(r) => Verdict::Regressed,
        (Some(_), None) => Verdict::Ok,
    }
}

/// Compares every configuration, test and judged metric of `new` with
/// `base`'s; what only one side holds is listed apart.
pub fn compare(base: &Side, new: &Side, threshold: f64) -> Comparison {
    let mut rows = Vec::new();
    let mut only_in_base = BTreeSet::new();
    let mut only_in_new = BTreeSet::new();
    let keys: BTreeSet<&Key> = base.configs.keys().chain(new.configs.keys()).collect();
    for key in keys {
        let Some((_, o, _)) = new.configs.get(key).or(base.configs.get(key)) else {
            continue;
        };
        let configuration = configuration_name(o);
        let unmatched = |test: Option<&str>, metric: Option<&str>| Unmatched {
            configuration: configuration.clone(),
            test: test.map(str::to_string),
            metric: metric.map(str::to_string),
        };
        let (b, n) = match (base.configs.get(key), new.configs.get(key)) {
            (Some(b), Some(n)) => (b, n),
            (Some(_), None) => {
                only_in_base.insert(unmatched(None, None));
                continue;
            }
            (None, _) => {
                only_in_new.insert(unmatched(None, None));
                continue;
            }
        };
        let (b_study, b_off, b_name) = *b;
        let (n_study, n_off, n_name) = *n;
        let tests: BTreeSet<&String> = b_off.tests.keys().chain(n_off.tests.keys()).collect();
        for test in tests {
            let (bt, nt) = match (b_off.tests.get(test), n_off.tests.get(test)) {
                (Some(bt), Some(nt)) => (bt, nt),
                (Some(_), None) => {
                    only_in_base.insert(unmatched(Some(test), None));
                    continue;
                }
                (None, _) => {
                    only_in_new.insert(unmatched(Some(test), None));
                    continue;
                }
            };
            let b_judged: BTreeSet<&str> = bt
                .metrics
                .keys()
                .map(String::as_str)
                .filter(|m| b_study.judges(test, m))
                .collect();
            let n_judged: BTreeSet<&str> = nt
                .metrics
                .keys()
                .map(String::as_str)
                .filter(|m| n_study.judges(test, m))
                .collect();
            let mut metrics: Vec<&str> = b_judged.union(&n_judged).copied().collect();
            metrics.sort_by_key(|m| crate::metrics::metric_order(m));
            for metric in metrics {
                let (bm, nm) = match (bt.metrics.get(metric), nt.metrics.get(metric)) {
                    (Some(bm), Some(nm))
                        if b_judged.contains(metric)
                            && n_judged.contains(metric)
                            && bm.unit == nm.unit =>
                    {
                        (bm, nm)
                    }
                    _ if b_judged.contains(metric) => {
                        only_in_base.insert(unmatched(Some(test), Some(metric)));
                        continue;
                    }
                    _ => {
                        only_in_new.insert(unmatched(Some(test), Some(metric)));
                        continue;
                    }
                };
                let higher = crate::metrics::higher_is_better(metric, bm.unit);
                let r = ratio(bm.summary.median, nm.summary.median, higher);
                let range = r.and(range(&bm.summary, &nm.summary, higher));
                rows.push(Row {
                    configuration: configuration.clone(),
                    provider: n_off.provider.clone(),
                    offering: n_off.offering.clone(),
                    size_gb: n_off.size_gb,
                    provisioned_iops: n_off.provisioned_iops,
                    provisioned_mbps: n_off.provisioned_mbps,
                    test: test.clone(),
                    metric: metric.to_string(),
                    unit: bm.unit,
                    higher_is_better: higher,
                    base: Figures {
                        study: b_name.to_string(),
                        summary: bm.summary.clone(),
                    },
                    new: Figures {
                        study: n_name.to_string(),
                        summary: nm.summary.clone(),
                    },
                    ratio: r,
                    range,
                    verdict: verdict(r, range, threshold),
                });
            }
        }
    }
    Comparison {
        threshold,
        rows,
        only_in_base: only_in_base.into_iter().collect(),
        only_in_new: only_in_new.into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::testing::record;

    fn summary(values: &[f64]) -> Summary {
        Summary::of(values).unwrap()
    }

    #[test]
    fn the_ratio_is_oriented_so_that_above_one_is_better() {
        assert_eq!(ratio(1000.0, 700.0, true), Some(0.7));
        // a latency 25% higher: 1 ms then 1.25 ms is 0.8x
        assert_eq!(ratio(0.001, 0.00125, false), Some(0.8));
        // nothing left on the new side is a result; a zero divisor is not
        assert_eq!(ratio(1000.0, 0.0, true), Some(0.0));
        assert_eq!(ratio(0.0, 700.0, true), None);
        assert_eq!(ratio(0.001, 0.0, false), None);
        assert_eq!(ratio(0.0, 0.001, false), None);
    }

    #[test]
    fn the_range_pairs_each_sides_worst_with_the_others_best() {
        let base = summary(&[98.0, 100.0, 102.0]);
        let new = summary(&[68.6, 70.0, 71.4]);
        let (lo, hi) = range(&base, &new, true).unwrap();
        assert!((lo - 68.6 / 102.0).abs() < 1e-12, "{lo}");
        assert!((hi - 71.4 / 98.0).abs() < 1e-12, "{hi}");
        // a latency: the new side's slowest against the base's fastest
        let base = summary(&[0.9, 1.0, 1.1]);
        let new = summary(&[1.2, 1.3, 1.4]);
        let (lo, hi) = range(&base, &new, false).unwrap();
        assert!((lo - 0.9 / 1.4).abs() < 1e-12, "{lo}");
        assert!((hi - 1.1 / 1.2).abs() < 1e-12, "{hi}");
        // a single run on either side has no spread to give a range
        assert_eq!(range(&summary(&[100.0]), &new, true), None);
        assert_eq!(range(&base, &summary(&[1.3]), false), None);
    }

    #[test]
    fn a_regression_is_a_whole_range_below_the_threshold() {
        let t = 0.9;
        assert_eq!(
            verdict(Some(0.7), Some((0.67, 0.73)), t),
            Verdict::Regressed
        );
        // below the threshold, but the spread reaches above it
        assert_eq!(
            verdict(Some(0.85), Some((0.78, 0.95)), t),
            Verdict::WithinUncertainty
        );
        // above it, with a range reaching below
        assert_eq!(
            verdict(Some(1.0), Some((0.85, 1.15)), t),
            Verdict::WithinUncertainty
        );
        assert_eq!(verdict(Some(1.0), Some((0.9, 1.1)), t), Verdict::Ok);
        // a single run: the ratio decides
        assert_eq!(verdict(Some(0.89), None, t), Verdict::Regressed);
        assert_eq!(verdict(Some(0.9), None, t), Verdict::Ok);
        // 0.7 as floating point divides it is 0.7
        assert_eq!(verdict(Some(0.699_999_9), None, 0.7), Verdict::Ok);
        assert_eq!(verdict(Some(0.6994), None, 0.7), Verdict::Regressed);
        assert_eq!(verdict(None, None, t), Verdict::NoRatio);
        // a lower threshold lets the 30% drop pass
        assert_eq!(verdict(Some(0.7), Some((0.67, 0.73)), 0.6), Verdict::Ok);
    }

    /// Summaries of `records`, grouped as one side.
    fn side_data(records: Vec<crate::record::Record>) -> Dataset {
        let s: Vec<record::Summary> = records.into_iter().map(record::Summary::from).collect();
        dataset(&s, &Limits::default())
    }

    fn iops(id: &str, offering: &str, v: f64) -> crate::record::Record {
        record(
            id,
            "P",
            offering,
            Some(0.1),
            "fio-randread",
            // read_bw is shown for a 4 KiB random read, never judged
            &[("read_iops", v, "IOPS"), ("read_bw", v * 4096.0, "B/s")],
        )
    }

    #[test]
    fn configurations_match_by_what_makes_them_and_judged_metrics_alone_compare() {
        let base = side_data(vec![
            iops("b1", "fast", 1000.0),
            iops("b2", "fast", 980.0),
            iops("b3", "fast", 1020.0),
            iops("b4", "gone", 50.0),
        ]);
        // the new side also holds a 200 GB `fast`, so its 100 GB one is
        // named `P fast · 100 GB` there: still the same configuration
        let mut bigger = iops("n4", "fast", 2000.0);
        bigger.subject.size_gb = Some(200.0);
        let mut other_study = iops("n5", "fresh", 10.0);
        other_study.subject.study = Some("t".into());
        let new = side_data(vec![
            iops("n1", "fast", 700.0),
            iops("n2", "fast", 686.0),
            iops("n3", "fast", 714.0),
            bigger,
            other_study,
        ]);
        assert!(new.studies["s"].offerings.contains_key("P fast · 100 GB"));
        let c = compare(&Side::of(&base).unwrap(), &Side::of(&new).unwrap(), 0.9);
        assert_eq!(c.rows.len(), 1, "{:?}", c.rows);
        let row = &c.rows[0];
        assert_eq!(
            (
                row.configuration.as_str(),
                row.test.as_str(),
                row.metric.as_str()
            ),
            ("P fast · 100 GB", "fio-randread", "read_iops")
        );
        assert_eq!(
            (row.base.summary.median, row.new.summary.median),
            (1000.0, 700.0)
        );
        assert!((row.ratio.unwrap() - 0.7).abs() < 1e-12);
        let (lo, hi) = row.range.unwrap();
        assert!((lo - 686.0 / 1020.0).abs() < 1e-12 && (hi - 714.0 / 980.0).abs() < 1e-12);
        assert_eq!(row.verdict, Verdict::Regressed);
        assert_eq!(c.regressed().count(), 1);
        let names = |u: &[Unmatched]| -> Vec<String> {
            u.iter().map(|u| u.configuration.clone()).collect()
        };
        assert_eq!(names(&c.only_in_base), ["P gone · 100 GB"]);
        assert_eq!(
            names(&c.only_in_new),
            ["P fast · 200 GB", "P fresh · 100 GB"]
        );
    }

    #[test]
    fn tests_and_metrics_on_one_side_are_listed_not_compared() {
        let base = side_data(vec![
            iops("b1", "x", 1000.0),
            record(
                "b2",
                "P",
                "x",
                Some(0.1),
                "ioping-seek",
                &[("iops", 300.0, "IOPS")],
            ),
        ]);
        let new = side_data(vec![record(
            "n1",
            "P",
            "x",
            Some(0.1),
            "fio-randread",
            &[("read_iops", 1000.0, "IOPS"), ("read_clat_p99", 0.002, "s")],
        )]);
        let c = compare(&Side::of(&base).unwrap(), &Side::of(&new).unwrap(), 0.9);
        assert_eq!(c.rows.len(), 1);
        assert_eq!(c.rows[0].verdict, Verdict::Ok);
        assert!(c.rows[0].single_run() && c.rows[0].range.is_none());
        assert_eq!(
            c.only_in_base,
            [Unmatched {
                configuration: "P x · 100 GB".into(),
                test: Some("ioping-seek".into()),
                metric: None,
            }]
        );
        assert_eq!(
            c.only_in_new,
            [Unmatched {
                configuration: "P x · 100 GB".into(),
                test: Some("fio-randread".into()),
                metric: Some("read_clat_p99".into()),
            }]
        );
    }

    #[test]
    fn one_configuration_in_two_studies_of_a_side_is_refused() {
        let mut again = iops("b2", "x", 900.0);
        again.subject.study = Some("later".into());
        let data = side_data(vec![iops("b1", "x", 1000.0), again]);
        let e = Side::of(&data).err().unwrap().to_string();
        assert_eq!(
            e,
            "the configuration P x · 100 GB is in the studies `later` and `s`: compare takes \
             one measurement of each configuration per side (give the directory of one study)"
        );
    }

    /// A run of a sustained test classified `pattern`, `runtime` s long.
    fn timed(
        id: &str,
        pattern: crate::record::Pattern,
        runtime: f64,
        metrics: &[(&str, f64, &str)],
    ) -> crate::record::Record {
        let test = "fio-sustained-randread-4k-qd32";
        let mut r = record(id, "Azure", "P15", Some(0.1), test, metrics);
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
    fn a_run_the_site_leaves_out_of_a_sustained_level_is_left_out_here() {
        use crate::record::Pattern::*;
        // a 45-minute run bursts for 30 minutes, then holds 1,100 IOPS; a
        // 20-minute run never left the burst: its 3,500 is no sustained level
        let long = |id: &str| {
            timed(
                id,
                CreditBurst,
                2700.0,
                &[
                    ("read_iops_sustained", 1100.0, "IOPS"),
                    ("read_iops_burst", 3500.0, "IOPS"),
                    ("burst_duration", 1800.0, "s"),
                ],
            )
        };
        let short = timed(
            "b2",
            Flat,
            1200.0,
            &[("read_iops_sustained", 3500.0, "IOPS")],
        );
        let base = side_data(vec![long("b1"), short]);
        let new = side_data(vec![long("n1")]);
        let c = compare(&Side::of(&base).unwrap(), &Side::of(&new).unwrap(), 0.9);
        // judged on the sustained level alone (the burst is not judged)
        let metrics: Vec<&str> = c.rows.iter().map(|r| r.metric.as_str()).collect();
        assert_eq!(metrics, ["read_iops_sustained"]);
        let row = &c.rows[0];
        // pooled with the short run, the base would be 2,300 and 0.48x
        assert_eq!((row.base.summary.n, row.base.summary.median), (1, 1100.0));
        assert_eq!(row.ratio, Some(1.0));
        assert_eq!(row.verdict, Verdict::Ok);
    }

    #[test]
    fn a_configuration_name_spells_every_known_part() {
        let mut r = iops("a", "io2", 100.0);
        let subject = &mut r.subject;
        subject.provider = Some("AWS".into());
        subject.size_gb = Some(500.0);
        subject
            .labels
            .insert("provisioned_iops".into(), "16000".into());
        subject
            .labels
            .insert("provisioned_mbps".into(), "250".into());
        let data = side_data(vec![r]);
        let o = data.studies["s"].offerings.values().next().unwrap();
        assert_eq!(o.name, "AWS io2");
        assert_eq!(
            configuration_name(o),
            "AWS io2 · 500 GB · 16,000 IOPS · 250 MB/s"
        );
    }
}
