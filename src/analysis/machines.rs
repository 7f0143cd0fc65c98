//! Configurations measured on several machines: per judged metric, each
//! machine's median and the range of its runs (the spread within a
//! machine), the range and CV of the machines' medians (the spread between
//! machines), and the machine whose median lies far outside the others'.
//!
//! A machine is a record's `host.name`. Records without one cannot be told
//! apart, so they are counted, never guessed into a machine: a
//! configuration is measured on several machines only when its records
//! carry at least two distinct names. Only `ok` runs that are not left out
//! ([`TestResults::left_out`]) count.

use std::collections::BTreeMap;

use crate::analysis::stats::{OfferingData, Study, Summary, TestResults};
use crate::analysis::Analysis;
use crate::metrics::metric_order;
use crate::record::{self, Status};
use crate::units::Unit;

/// The least distance outside the others' range that makes a machine an
/// outlier, as a share of the others' median (10%, the spread
/// [`crate::analysis::stats::LARGE_SPREAD_CV`] calls large): when the other
/// machines agree exactly (their range has no width), ordinary run-to-run
/// noise is not a finding.
pub const OUTLIER_FLOOR: f64 = 0.10;

/// Machines there must be at least for one to be called an outlier: with
/// two, neither is "the odd one out".
pub const OUTLIER_MACHINES: usize = 3;

/// The name of the machine record `r` ran on; `None` when it has none
/// (or a blank one).
pub fn machine_of(r: &record::Summary) -> Option<&str> {
    r.host.name.as_deref().filter(|n| !n.trim().is_empty())
}

/// One machine's runs of one test and metric.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    /// `host.name`.
    pub name: String,
    /// The numbers over its runs (the spread within the machine).
    pub summary: Summary,
    /// Whether it is an outlier ([`MetricSpread::outliers`]).
    pub outlier: bool,
}

/// A machine whose median lies outside the other machines' range by more
/// than that range's width (at least [`OUTLIER_FLOOR`] of their median).
#[derive(Clone, Debug, PartialEq)]
pub struct Outlier {
    /// `host.name`.
    pub machine: String,
    /// Its median.
    pub median: f64,
    /// The other machines' lowest and highest median.
    pub others_low: f64,
    pub others_high: f64,
    /// The median of the other machines' medians.
    pub others_median: f64,
    /// Its median against the others': `-0.4` for 40% below.
    pub change: f64,
    /// Whether it is on the worse side (lower for a higher-is-better
    /// metric, higher for latency).
    pub worse: bool,
}

/// One judged metric of one test of a configuration measured on several
/// machines.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricSpread {
    /// Test name (as the study pools it).
    pub test: String,
    /// Metric name.
    pub metric: String,
    /// Canonical unit.
    pub unit: Unit,
    /// Each machine with a value, by name.
    pub machines: Vec<Machine>,
    /// The machines' medians summarised: their range, and their CV (the
    /// spread between machines).
    pub between: Summary,
    /// The median of the machines' own CVs (machines with two runs or
    /// more): the typical spread within a machine.
    pub within_cv: Option<f64>,
    /// Runs of this metric from records without a machine name, pooled in
    /// the configuration's figures but in no machine's.
    pub unnamed_runs: usize,
    /// The outlying machines, by name; empty with fewer than
    /// [`OUTLIER_MACHINES`] machines.
    pub outliers: Vec<Outlier>,
}

impl MetricSpread {
    /// Whether the metric is better higher.
    pub fn higher_is_better(&self) -> bool {
        crate::metrics::higher_is_better(&self.metric, self.unit)
    }
}

/// A configuration measured on several machines.
#[derive(Clone, Debug, PartialEq)]
pub struct Machines {
    /// Configuration name.
    pub config: String,
    /// The distinct machine names of its records, sorted.
    pub names: Vec<String>,
    /// Its records without a machine name.
    pub unnamed: usize,
    /// Per test (by name) and judged metric (in display order), where two
    /// machines or more have a value.
    pub spreads: Vec<MetricSpread>,
}

impl Machines {
    /// The outliers of every metric, with the metric's spread.
    pub fn outliers(&self) -> impl Iterator<Item = (&MetricSpread, &Outlier)> {
        self.spreads
            .iter()
            .flat_map(|s| s.outliers.iter().map(move |o| (s, o)))
    }
}

/// The machines of `off`, a configuration of `study` (`records`: the
/// analysis's records, which its indices point into); `None` when its
/// records carry fewer than two distinct machine names.
pub fn of_config(
    records: &[&record::Summary],
    study: &Study,
    off: &OfferingData,
) -> Option<Machines> {
    // the runs of an older measurement are its history, not its machines
    let current = |i: &usize| !off.tests.values().any(|t| t.older_why(*i).is_some());
    let mut names: Vec<String> = off
        .records
        .iter()
        .filter(|i| current(i))
        .filter_map(|&i| records.get(i).copied())
        .filter_map(machine_of)
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    if names.len() < 2 {
        return None;
    }
    let unnamed = off
        .records
        .iter()
        .filter(|i| current(i))
        .filter_map(|&i| records.get(i).copied())
        .filter(|r| machine_of(r).is_none())
        .count();
    let mut spreads = Vec::new();
    for (test, results) in &off.tests {
        let mut metrics: Vec<(&String, Unit)> = results
            .metrics
            .iter()
            .filter(|(m, _)| study.judges(test, m))
            .map(|(m, st)| (m, st.unit))
            .collect();
        metrics.sort_by_cached_key(|(m, _)| metric_order(m));
        for (metric, unit) in metrics {
            if let Some(s) = spread(records, test, results, metric, unit) {
                spreads.push(s);
            }
        }
    }
    Some(Machines {
        config: off.name.clone(),
        names,
        unnamed,
        spreads,
    })
}

/// The configurations of `study` measured on several machines, by name.
pub fn of_study(records: &[&record::Summary], study: &Study) -> Vec<Machines> {
    study
        .offerings
        .values()
        .filter_map(|o| of_config(records, study, o))
        .collect()
}

/// One metric's spread over machines; `None` with fewer than two machines
/// holding a value.
fn spread(
    records: &[&record::Summary],
    test: &str,
    results: &TestResults,
    metric: &str,
    unit: Unit,
) -> Option<MetricSpread> {
    let mut by_machine: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    let mut unnamed_runs = 0;
    for &i in &results.records {
        let Some(r) = records.get(i) else { continue };
        if r.status != Status::Ok || results.is_left_out(i) {
            continue;
        }
        let Some(m) = r.metrics.get(metric) else {
            continue;
        };
        if Unit::parse(m.unit) != Some(unit) || !m.value.is_finite() {
            continue;
        }
        match machine_of(r) {
            Some(name) => by_machine.entry(name).or_default().push(m.value),
            None => unnamed_runs += 1,
        }
    }
    let mut machines: Vec<Machine> = by_machine
        .into_iter()
        .filter_map(|(name, values)| {
            Some(Machine {
                name: name.to_string(),
                summary: Summary::of(&values)?,
                outlier: false,
            })
        })
        .collect();
    if machines.len() < 2 {
        return None;
    }
    let medians: Vec<f64> = machines.iter().map(|m| m.summary.median).collect();
    let between = Summary::of(&medians)?;
    let cvs: Vec<f64> = machines.iter().filter_map(|m| m.summary.cv).collect();
    let within_cv = Summary::of(&cvs).map(|s| s.median);
    let higher = crate::metrics::higher_is_better(metric, unit);
    let outliers = outliers(&machines, higher);
    for m in &mut machines {
        m.outlier = outliers.iter().any(|o| o.machine == m.name);
    }
    Some(MetricSpread {
        test: test.to_string(),
        metric: metric.to_string(),
        unit,
        machines,
        between,
        within_cv,
        unnamed_runs,
        outliers,
    })
}

/// The machines whose median lies outside the other machines' range by
/// more than the larger of that range's width and [`OUTLIER_FLOOR`] of
/// the others' median; none with fewer than [`OUTLIER_MACHINES`] machines.
/// `higher_is_better` tells which side is worse.
pub fn outliers(machines: &[Machine], higher_is_better: bool) -> Vec<Outlier> {
    if machines.len() < OUTLIER_MACHINES {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, m) in machines.iter().enumerate() {
        let others: Vec<f64> = machines
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, o)| o.summary.median)
            .collect();
        let Some(o) = Summary::of(&others) else {
            continue;
        };
        let margin = (o.max - o.min).max(OUTLIER_FLOOR * o.median.abs());
        let x = m.summary.median;
        let (below, above) = (o.min - x, x - o.max);
        if below <= margin && above <= margin {
            continue;
        }
        if o.median == 0.0 {
            continue;
        }
        let low = below > margin;
        out.push(Outlier {
            machine: m.name.clone(),
            median: x,
            others_low: o.min,
            others_high: o.max,
            others_median: o.median,
            change: (x - o.median) / o.median.abs(),
            worse: low == higher_is_better,
        });
    }
    out
}

/// One machine's part in one configuration: what `diskdash report` prints
/// per host after a fleet run, and `data/hosts.csv` holds.
#[derive(Clone, Debug, PartialEq)]
pub struct HostLine {
    /// `host.name`.
    pub host: String,
    /// Study name.
    pub study: String,
    /// Configuration name.
    pub config: String,
    /// Its records by status.
    pub ok: usize,
    pub failed: usize,
    pub skipped: usize,
    /// Where it is an outlier, one per test and metric.
    pub outlier: Vec<HostOutlier>,
}

/// A test and metric on which a machine is an outlier.
#[derive(Clone, Debug, PartialEq)]
pub struct HostOutlier {
    /// Test name.
    pub test: String,
    /// Metric name.
    pub metric: String,
    /// Its figures in words ([`outlier_words`]).
    pub words: String,
}

/// A line per machine and configuration, by study, configuration and
/// machine; empty unless the records come from two named machines or more.
pub fn host_lines(a: &Analysis) -> Vec<HostLine> {
    let mut named: Vec<&str> = a.records.iter().filter_map(|r| machine_of(r)).collect();
    named.sort_unstable();
    named.dedup();
    if named.len() < 2 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (study_name, study) in &a.data.studies {
        for off in study.offerings.values() {
            let mut lines: BTreeMap<&str, HostLine> = BTreeMap::new();
            for r in off.records.iter().filter_map(|&i| a.records.get(i)) {
                let Some(host) = machine_of(r) else { continue };
                let line = lines.entry(host).or_insert_with(|| HostLine {
                    host: host.to_string(),
                    study: study_name.clone(),
                    config: off.name.clone(),
                    ok: 0,
                    failed: 0,
                    skipped: 0,
                    outlier: Vec::new(),
                });
                match r.status {
                    Status::Ok => line.ok += 1,
                    Status::Failed => line.failed += 1,
                    Status::Skipped => line.skipped += 1,
                }
            }
            if let Some(m) = of_config(&a.records, study, off) {
                for (s, o) in m.outliers() {
                    if let Some(line) = lines.get_mut(o.machine.as_str()) {
                        line.outlier.push(HostOutlier {
                            test: s.test.clone(),
                            metric: s.metric.clone(),
                            words: outlier_words(s, o),
                        });
                    }
                }
            }
            out.extend(lines.into_values());
        }
    }
    out
}

/// An outlier's figures in words: `1,800 IOPS, 40% below the others'
/// 2,950–3,050 IOPS`.
pub fn outlier_words(s: &MetricSpread, o: &Outlier) -> String {
    use crate::format;
    let du = format::display_unit(s.unit, o.others_high.abs().max(o.median.abs()));
    let side = if o.change < 0.0 { "below" } else { "above" };
    format!(
        "{}, {}% {side} the others' {}–{}",
        format::with_unit(o.median, du),
        format::fixed(o.change.abs() * 100.0, 0),
        format::number(o.others_low / du.factor),
        format::with_unit(o.others_high, du),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::testing::record;

    /// A run of `offering` on machine `host` (none: unnamed) with `iops`.
    fn run(id: &str, offering: &str, host: Option<&str>, iops: f64) -> record::Summary {
        let mut r = record(id, "P", offering, Some(0.1), "t", &[("iops", iops, "IOPS")]);
        r.host.name = host.map(str::to_string);
        record::Summary::from(r)
    }

    fn machines_of(records: &[record::Summary], offering: &str) -> Option<Machines> {
        let refs: Vec<&record::Summary> = records.iter().collect();
        let data = crate::analysis::stats::group(&refs);
        let study = &data.studies["s"];
        of_config(&refs, study, &study.offerings[&format!("P {offering}")])
    }

    /// Five machines, three runs each: four near 3,000 IOPS, `web-4` at
    /// 1,800 (40% slower).
    fn five(slow: f64) -> Vec<record::Summary> {
        let medians = [("web-1", 2950.0), ("web-2", 3000.0), ("web-3", 3050.0)];
        let mut out = Vec::new();
        for (host, m) in medians
            .into_iter()
            .chain([("web-4", slow), ("web-5", 3000.0)])
        {
            for (k, d) in [-30.0, 0.0, 30.0].into_iter().enumerate() {
                out.push(run(&format!("{host}-{k}"), "x", Some(host), m + d));
            }
        }
        out
    }

    #[test]
    fn a_machine_40_percent_slower_among_four_that_agree_is_the_outlier() {
        let m = machines_of(&five(1800.0), "x").unwrap();
        assert_eq!(m.names.len(), 5);
        assert_eq!(m.unnamed, 0);
        let s = &m.spreads[0];
        assert_eq!((s.test.as_str(), s.metric.as_str()), ("t", "iops"));
        assert_eq!(s.machines.len(), 5);
        // between machines: 1,800 to 3,050; within: 30 / m each
        assert_eq!((s.between.min, s.between.max), (1800.0, 3050.0));
        let web4 = &s.machines[3];
        assert_eq!(web4.name, "web-4");
        assert_eq!((web4.summary.min, web4.summary.max), (1770.0, 1830.0));
        assert!(web4.outlier);
        assert_eq!(s.outliers.len(), 1);
        let o = &s.outliers[0];
        assert_eq!(o.machine, "web-4");
        assert_eq!(
            (o.others_low, o.others_high, o.others_median),
            (2950.0, 3050.0, 3000.0)
        );
        assert!((o.change + 0.4).abs() < 1e-12);
        assert!(o.worse);
        assert_eq!(
            outlier_words(s, o),
            "1,800 IOPS, 40% below the others' 2,950–3,050 IOPS"
        );
        // the machines' CVs: 30 / 1,800 for web-4 ... their median is web-2's
        let cv = |m: f64| 30.0 / m;
        assert!((s.within_cv.unwrap() - cv(3000.0)).abs() < 1e-12);
    }

    #[test]
    fn machines_that_agree_or_differ_by_ordinary_noise_name_no_outlier() {
        // all five near 3,000
        let m = machines_of(&five(3000.0), "x").unwrap();
        assert!(m.spreads[0].outliers.is_empty());
        // 2,750 is 200 below the others' lowest: more than their width
        // (100) but not 10% of their median (300)
        assert!(machines_of(&five(2750.0), "x").unwrap().spreads[0]
            .outliers
            .is_empty());
        // 2,650 is 300.01.. below: an outlier
        assert_eq!(
            machines_of(&five(2649.0), "x").unwrap().spreads[0]
                .outliers
                .len(),
            1
        );
    }

    #[test]
    fn two_machines_have_no_outlier_and_one_named_machine_is_not_several() {
        let two = [
            run("a", "x", Some("a"), 1000.0),
            run("b", "x", Some("b"), 3000.0),
        ];
        let m = machines_of(&two, "x").unwrap();
        assert_eq!(m.spreads[0].machines.len(), 2);
        assert!(m.spreads[0].outliers.is_empty());
        // one name and unnamed records: not several machines
        let one = [
            run("a", "x", Some("a"), 1000.0),
            run("b", "x", None, 3000.0),
            run("c", "x", None, 3000.0),
        ];
        assert_eq!(machines_of(&one, "x"), None);
    }

    #[test]
    fn the_machines_of_an_older_measurement_are_not_counted() {
        let at = |mut r: record::Summary, t: &str| {
            r.started_at = Some(t.to_string());
            r
        };
        // January on `old`, June on `a` and `b`
        let recs = [
            at(run("a", "x", Some("a"), 1000.0), "2026-06-02T10:00:00Z"),
            at(run("b", "x", Some("b"), 1100.0), "2026-06-02T10:10:00Z"),
            at(run("c", "x", Some("old"), 3000.0), "2026-01-10T10:00:00Z"),
        ];
        let m = machines_of(&recs, "x").unwrap();
        assert_eq!(m.names, ["a", "b"]);
        // January and June on one machine each: not several machines
        assert_eq!(machines_of(&recs[1..], "x"), None);
    }

    #[test]
    fn unnamed_records_are_counted_not_put_on_a_machine() {
        let recs = [
            run("a", "x", Some("a"), 1000.0),
            run("b", "x", Some("b"), 1100.0),
            run("c", "x", None, 3000.0),
        ];
        let m = machines_of(&recs, "x").unwrap();
        assert_eq!(m.unnamed, 1);
        assert_eq!(m.spreads[0].unnamed_runs, 1);
        assert_eq!(
            (m.spreads[0].between.min, m.spreads[0].between.max),
            (1000.0, 1100.0)
        );
    }

    #[test]
    fn the_verdicts_range_spans_every_machine_so_a_slow_one_widens_it() {
        use crate::analysis::prices::PriceBook;
        // a baseline on one machine (950, 1,000, 1,050 IOPS at 0.1) and
        // `x` on five at twice the price
        let with = |slow: f64| {
            let mut recs = five(slow);
            for (k, v) in [950.0, 1000.0, 1050.0].into_iter().enumerate() {
                let mut r = record(
                    &format!("b{k}"),
                    "P",
                    "base",
                    Some(0.1),
                    "t",
                    &[("iops", v, "IOPS")],
                );
                r.host.name = Some("b-1".into());
                recs.push(record::Summary::from(r));
            }
            for r in recs
                .iter_mut()
                .filter(|r| r.subject.offering.as_deref() == Some("x"))
            {
                std::sync::Arc::make_mut(&mut r.subject)
                    .price
                    .as_mut()
                    .unwrap()
                    .per_gb_month = 0.2;
            }
            let refs: Vec<&record::Summary> = recs.iter().collect();
            let data = crate::analysis::stats::group(&refs);
            let v =
                crate::analysis::value::analyse(&refs, &data, &PriceBook::default(), None).unwrap();
            v[0].tables[0]
                .rows
                .iter()
                .find(|r| r.offering == "P x")
                .unwrap()
                .clone()
        };
        // web-4 at 1,800: the range runs from its slowest run to the
        // fastest run of any machine, 1,770 / 1,050 / 2 = 0.843 to
        // 3,080 / 950 / 2 = 1.621, across a band: uncertain; the median
        // of the fifteen runs is 2,980 (1.49, worth it)
        let slow = with(1800.0);
        let (lo, hi) = slow.value_range.unwrap();
        assert!((lo - 1770.0 / 1050.0 / 2.0).abs() < 1e-12);
        assert!((hi - 3080.0 / 950.0 / 2.0).abs() < 1e-12);
        assert!((slow.value_ratio.unwrap() - 1.49).abs() < 1e-12);
        assert_eq!(
            slow.verdict_text().as_deref(),
            Some("worth it, uncertain: 0.84 to 1.62")
        );
        // it holds the range of the machines' medians, 1,800 to 3,050
        assert!(lo <= 1800.0 / 1050.0 / 2.0 && hi >= 3050.0 / 950.0 / 2.0);
        // five machines that agree: 2,920 / 1,050 / 2 = 1.390 at the
        // lowest, one band
        let agree = with(3000.0);
        assert!((agree.value_range.unwrap().0 - 2920.0 / 1050.0 / 2.0).abs() < 1e-12);
        assert_eq!(agree.verdict_text().as_deref(), Some("worth it"));
    }

    #[test]
    fn a_latency_outlier_is_worse_when_higher() {
        let ms = |name: &str, median: f64| Machine {
            name: name.into(),
            summary: Summary::of(&[median]).unwrap(),
            outlier: false,
        };
        let machines = [ms("a", 1.0), ms("b", 1.02), ms("c", 0.98), ms("d", 2.0)];
        let o = outliers(&machines, false);
        assert_eq!(o.len(), 1);
        assert_eq!(o[0].machine, "d");
        assert!(o[0].worse);
        assert!((o[0].change - 1.0).abs() < 1e-12);
        // the same figures as IOPS: d is the better one, still apart
        assert!(!outliers(&machines, true)[0].worse);
    }
}
