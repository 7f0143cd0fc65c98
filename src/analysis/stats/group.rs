//! Grouping records into studies, configurations and tests: what makes two
//! records one configuration, the names configurations are shown by, and
//! each test's statistics.

use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

use super::history;
use super::{at_instance_limit, left_out, of_the_sustained_level, Dataset, OfferingData, Summary};
use super::{LeftOut, MetricStats, TestResults};
use crate::analysis::identity::{self, Identity};
use crate::analysis::limits::Limits;
use crate::metrics::TestKind;
use crate::record::{self, is_positive, Status};
use crate::units::Unit;

/// What makes two records one configuration: provider, offering (as
/// written), size, provisioned IOPS and MB/s, the numbers as bits so they
/// order and compare exactly. A provisioned figure equal to what the
/// offering includes at that size (gp3 labelled 3,000 IOPS and 125 MiB/s)
/// is no figure: the volume is the one sold without any. Borrowed from
/// the record it was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct ConfigKey<'r> {
    provider: Option<&'r str>,
    offering: Option<&'r str>,
    size_gb: Option<u64>,
    iops: Option<u64>,
    mbps: Option<u64>,
}

/// A label holding a positive number (`provisioned_iops = "6000"`).
pub(super) fn number_label(labels: &BTreeMap<String, String>, key: &str) -> Option<f64> {
    labels
        .get(key)
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| is_positive(*v))
}

impl<'r> ConfigKey<'r> {
    fn of(r: &'r record::Summary, limits: &Limits) -> ConfigKey<'r> {
        let bits = |v: Option<f64>| v.map(f64::to_bits);
        let provider = r.subject.provider.as_deref();
        let offering = r.subject.offering.as_deref();
        let size_gb = r.subject.size_gb.filter(|s| is_positive(*s));
        let included = Included::of(limits, provider, offering, size_gb);
        let bought = |label: &str, included: Option<f64>| {
            number_label(&r.subject.labels, label).filter(|v| Some(*v) != included)
        };
        ConfigKey {
            provider,
            offering,
            size_gb: bits(size_gb),
            iops: bits(bought("provisioned_iops", included.iops)),
            mbps: bits(bought("provisioned_mbps", included.mbps)),
        }
    }
}

/// What an offering's published limits give a volume of one size at a
/// fixed level, in the units a configuration is provisioned in (IOPS;
/// throughput in the unit the offering sells it in): the level its price
/// includes where nothing more is bought (gp3: 3,000 IOPS and 125 MiB/s).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Included {
    iops: Option<f64>,
    mbps: Option<f64>,
    /// The throughput unit of the offering's row (`MiB/s` for gp3), `MB/s`
    /// without a row.
    mbps_unit: &'static str,
}

impl Included {
    fn of(
        limits: &Limits,
        provider: Option<&str>,
        offering: Option<&str>,
        size_gb: Option<f64>,
    ) -> Included {
        let Some(row) = limits.find(provider, offering, size_gb) else {
            return Included {
                mbps_unit: "MB/s",
                ..Included::default()
            };
        };
        let unit_bytes = row.mbps_unit.bytes_per_sec(1.0);
        // a level that bursts above it is no level the price includes
        Included {
            iops: (row.burst_iops.is_none())
                .then(|| row.baseline_iops.at(size_gb))
                .flatten(),
            mbps: (row.burst_bw.is_none())
                .then(|| row.baseline_bw.at(size_gb).map(|b| b / unit_bytes))
                .flatten(),
            mbps_unit: row.mbps_unit.label(),
        }
    }
}

/// A whole number with thousands separators (`16,000`), a fraction as
/// written (`1.5`): a configuration's figures exactly as provisioned.
fn grouped(v: f64) -> String {
    let whole = short(v);
    if v.fract() != 0.0 || v < 1000.0 {
        return whole;
    }
    crate::format::grouped(&whole)
}

/// How many quick-suite runs the answer sets aside: those of a
/// configuration (in its study) that also has runs of the same test id
/// from another suite. The quick suite's short tests are for trying
/// diskdash out; a headline never rests on them over the standard
/// suite's (`crate::report::story::headline`), and they keep their pages.
pub fn quick_set_aside(records: &[&record::Summary], limits: &Limits) -> usize {
    let mut by_test: BTreeMap<(&str, ConfigKey, &str), (usize, bool)> = BTreeMap::new();
    for r in records {
        let e = by_test
            .entry((r.study(), ConfigKey::of(r, limits), r.test.id.as_str()))
            .or_default();
        match r.test.suite.as_deref() {
            Some("quick") => e.0 += 1,
            Some(_) => e.1 = true,
            None => {}
        }
    }
    by_test
        .values()
        .filter(|(_, other)| *other)
        .map(|(quick, _)| quick)
        .sum()
}

/// A number for a configuration name: `500`, `1.5`.
pub(super) fn short(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// Names the configurations of one study: `provider offering`, plus each
/// part (size, provisioned IOPS, provisioned MB/s) that takes more than one
/// known value in the study; unknown parts are left out, so a study whose
/// configurations differ only by offering reads as before. Should two
/// configurations still share a name (one size known, one not; gp3 as
/// sold and gp3 with IOPS bought), theirs spell out every part that tells
/// them apart: a figure not bought is the level the offering includes
/// (`3,000 IOPS`), else `no provisioned IOPS`; a size not known is
/// `size unknown`. Figures are written as bought (`16,000 IOPS`), MB/s in
/// the unit the offering sells them in (`500 MiB/s` for gp3).
pub(super) fn config_names(configs: &[(ConfigKey, String, Included)]) -> Vec<String> {
    type Part = fn(&ConfigKey) -> Option<u64>;
    type Default = fn(&Included) -> Option<f64>;
    let parts: [(Part, Default, &str, &str); 3] = [
        (|k| k.size_gb, |_| None, "GB", "size unknown"),
        (|k| k.iops, |i| i.iops, "IOPS", "no provisioned IOPS"),
        (|k| k.mbps, |i| i.mbps, "MB/s", "no provisioned MB/s"),
    ];
    let varies = |part: Part| {
        configs
            .iter()
            .filter_map(|(k, _, _)| part(k))
            .collect::<BTreeSet<_>>()
            .len()
            > 1
    };
    let shown: Vec<bool> = parts.iter().map(|(p, _, _, _)| varies(*p)).collect();
    // `spell[i]`: show part i even where unknown (for configurations whose
    // names would otherwise collide)
    let name = |k: &ConfigKey, base: &str, inc: &Included, spell: [bool; 3]| {
        let mut name = base.to_string();
        let mut unknown_parts = Vec::new();
        for (i, (((part, default, unit, unknown), shown), spell)) in
            parts.iter().zip(&shown).zip(spell).enumerate()
        {
            let unit = if i == 2 { inc.mbps_unit } else { unit };
            match part(k) {
                Some(b) if *shown || spell => {
                    name.push_str(&format!(" · {} {unit}", grouped(f64::from_bits(b))));
                }
                None if spell => match default(inc) {
                    Some(v) => name.push_str(&format!(" · {} {unit}", grouped(v))),
                    None => unknown_parts.push(*unknown),
                },
                _ => {}
            }
        }
        // neither figure: one part, not two
        let unknown = unknown_parts.join(" · ").replace(
            "no provisioned IOPS · no provisioned MB/s",
            "no provisioned IOPS or MB/s",
        );
        if !unknown.is_empty() {
            name.push_str(" · ");
            name.push_str(&unknown);
        }
        name
    };
    let first: Vec<String> = configs
        .iter()
        .map(|(k, b, inc)| name(k, b, inc, [false; 3]))
        .collect();
    configs
        .iter()
        .zip(&first)
        .map(|((k, b, inc), n)| {
            let twins: Vec<&ConfigKey> = configs
                .iter()
                .zip(&first)
                .filter(|(_, m)| *m == n)
                .map(|((k, _, _), _)| k)
                .collect();
            if twins.len() < 2 {
                return n.clone();
            }
            let mut spell = [false; 3];
            for (i, (part, _, _, _)) in parts.iter().enumerate() {
                spell[i] = twins.iter().map(|t| part(t)).collect::<BTreeSet<_>>().len() > 1;
            }
            name(k, b, inc, spell)
        })
        .collect()
}

/// Groups `records` (which must be sorted by id for a deterministic choice of
/// record price and labels) by study, configuration and test, and
/// summarises every metric. Records that are not `ok` are kept in the
/// groups but add no numbers; a metric whose unit is not canonical, or
/// differs from the unit its first record used, is left out.
pub fn group(records: &[&record::Summary]) -> Dataset {
    group_with(records, &Limits::default())
}

/// [`group`], with the published limits that tell a run at a promised
/// burst level (see [`left_out`]).
pub fn group_with(records: &[&record::Summary], limits: &Limits) -> Dataset {
    // each record's configuration is borrowed from it, and worked out again
    // where needed rather than held for every record; names are made once
    // per configuration and everything below is keyed by borrowed text, so
    // that a record costs lookups, not copies.
    // Configurations first, so that each study's names can say what differs.
    let mut configs: BTreeMap<&str, BTreeMap<ConfigKey, usize>> = BTreeMap::new();
    for (i, r) in records.iter().enumerate() {
        configs
            .entry(r.study())
            .or_default()
            .entry(ConfigKey::of(r, limits))
            .or_insert(i);
    }
    let names: BTreeMap<(&str, ConfigKey), String> = configs
        .into_iter()
        .flat_map(|(study, keys)| {
            let keys: Vec<(ConfigKey, String, Included)> = keys
                .into_iter()
                .map(|(k, first)| {
                    let size = k.size_gb.map(f64::from_bits);
                    let inc = Included::of(limits, k.provider, k.offering, size);
                    (k, records[first].offering_name(), inc)
                })
                .collect();
            let names = config_names(&keys);
            keys.into_iter()
                .zip(names)
                .map(move |((k, _, _), n)| ((study, k), n))
        })
        .collect();
    // what each record pools with: its test identity, named per study
    let identities: Vec<Identity> = records.par_iter().map(|r| identity::of(r)).collect();
    let mut distinct: BTreeMap<&str, BTreeSet<&Identity>> = BTreeMap::new();
    for (r, id) in records.iter().zip(&identities) {
        distinct.entry(r.study()).or_default().insert(id);
    }
    let test_names: BTreeMap<(&str, &Identity), String> = distinct
        .into_iter()
        .flat_map(|(study, ids)| {
            let ids: Vec<&Identity> = ids.into_iter().collect();
            let names = identity::names(&ids);
            ids.into_iter()
                .zip(names)
                .map(move |(id, name)| ((study, id), name))
        })
        .collect();
    let mut renamed = BTreeMap::new();
    let mut studies: BTreeMap<&str, StudyGroup> = BTreeMap::new();
    for (i, r) in records.iter().enumerate() {
        let key = &ConfigKey::of(r, limits);
        let study = studies.entry(r.study()).or_default();
        let Some(test) = test_names.get(&(r.study(), &identities[i])) else {
            continue;
        };
        let test = test.as_str();
        if test != r.test.id {
            renamed.insert(r.id.clone(), test.to_string());
        }
        study
            .kinds
            .entry(test)
            .or_insert_with(|| crate::tools::judge(r.test.tool).kind(&r.test.parameters));
        if let Some(trap) = &identities[i].trap {
            study.traps.entry(test).or_insert(&trap.why);
        }
        // every configuration was named above
        let Some(name) = names.get(&(r.study(), *key)) else {
            continue;
        };
        let off = study
            .offerings
            .entry(name.as_str())
            .or_insert_with(|| OfferingGroup {
                first: i,
                priced: None,
                records: Vec::new(),
                tests: BTreeMap::new(),
            });
        if off.priced.is_none()
            && r.subject
                .price
                .as_ref()
                .is_some_and(|p| is_positive(p.per_gb_month))
        {
            off.priced = Some(i);
        }
        off.records.push(i);
        off.tests.entry(test).or_default().records.push(i);
    }
    let mut data = Dataset {
        renamed,
        ..Dataset::default()
    };
    for (study_name, s) in studies {
        let study = data.studies.entry(study_name.to_string()).or_default();
        study.tests = s.kinds.keys().map(|t| t.to_string()).collect();
        study.kinds = s.kinds.iter().map(|(t, k)| (t.to_string(), *k)).collect();
        study.traps = s
            .traps
            .iter()
            .map(|(t, why)| (t.to_string(), why.to_string()))
            .collect();
        // each configuration summarised on its own, in parallel
        let offerings: Vec<(&str, OfferingGroup)> = s.offerings.into_iter().collect();
        let summarised: Vec<OfferingData> = offerings
            .into_par_iter()
            .map(|(name, o)| offering_data(records, name, o, limits))
            .collect();
        for off in summarised {
            study.offerings.insert(off.name.clone(), off);
        }
    }
    add_histories(records, &mut data, limits);
    data
}

/// Gives every configuration measured more than once (in one study or
/// across studies, matched by what makes a configuration, not by its
/// name) its history: the judged medians of each measurement, oldest
/// first, and the date its answer uses.
fn add_histories(records: &[&record::Summary], data: &mut Dataset, limits: &Limits) {
    // each configuration's measurements in every study: (study, name, index)
    let mut by_key: BTreeMap<ConfigKey, Vec<(&str, &str, usize)>> = BTreeMap::new();
    for (study, s) in &data.studies {
        for (name, o) in &s.offerings {
            let Some(first) = o.records.first().and_then(|&i| records.get(i)) else {
                continue;
            };
            for m in 0..o.measurements.len() {
                by_key
                    .entry(ConfigKey::of(first, limits))
                    .or_default()
                    .push((study, name, m));
            }
        }
    }
    let mut histories: Vec<(String, String, Vec<super::HistoryPoint>)> = Vec::new();
    for found in by_key.values().filter(|f| f.len() > 1) {
        let mut points = Vec::new();
        for &(study, name, m) in found {
            let s = &data.studies[study];
            let Some(m) = s.offerings[name].measurements.get(m) else {
                continue;
            };
            points.extend(history::points(
                records,
                m,
                study,
                |r| data.test_of(r).to_string(),
                |test, metric| s.judges(test, metric),
            ));
        }
        // by date, then study, test and metric
        points.sort_by(|a, b| {
            (&a.date, &a.study, &a.test, &a.metric).cmp(&(&b.date, &b.study, &b.test, &b.metric))
        });
        let configs: BTreeSet<(&str, &str)> = found.iter().map(|&(s, n, _)| (s, n)).collect();
        for (study, name) in configs {
            histories.push((study.to_string(), name.to_string(), points.clone()));
        }
    }
    for (study, name, points) in histories {
        if let Some(o) = data
            .studies
            .get_mut(&study)
            .and_then(|s| s.offerings.get_mut(&name))
        {
            o.measured = o.measurements.last().map(|m| m.date.clone());
            o.history = points;
        }
    }
}

/// The summary of one configuration's records, grouped by test.
pub(super) fn offering_data(
    records: &[&record::Summary],
    name: &str,
    o: OfferingGroup,
    limits: &Limits,
) -> OfferingData {
    let r = records[o.first];
    let key = ConfigKey::of(r, limits);
    let size_gb = key.size_gb.map(f64::from_bits);
    // the configuration's own provisioned figures, never the offering's default
    let limit = limits.for_config(
        r.subject.provider.as_deref(),
        r.subject.offering.as_deref(),
        size_gb,
        crate::analysis::limits::Provisioned::of(&r.subject.labels),
    );
    let limit = limit.as_deref();
    let name = name.to_string();
    let measurements = history::measurements_of(records, &o.records);
    let which = history::index(&measurements);
    let mut tests = BTreeMap::new();
    for (test, t) in o.tests {
        // measured more than once: each test's figures come from the
        // newest measurement that holds it, the others are its history
        let (older, measured) = if measurements.len() > 1 {
            history::newest_of_test(&measurements, &which, &t.records)
        } else {
            (Vec::new(), None)
        };
        let left: BTreeSet<usize> = older.iter().map(|&(i, _)| i).collect();
        let kept: Vec<usize> = t
            .records
            .iter()
            .copied()
            .filter(|i| !left.contains(i))
            .collect();
        // the values of one configuration's test at a time, not of
        // every record at once (25 MB for 100,000 fio records)
        let mut values: BTreeMap<(ConfigKey, &str), (Unit, Vec<f64>)> = BTreeMap::new();
        let left_out = left_out(records, &kept, limit, size_gb, limits);
        for &i in &kept {
            let r = records[i];
            if r.status != Status::Ok {
                continue;
            }
            let key = ConfigKey::of(r, limits);
            let left = left_out.iter().any(|l| l.record == i);
            for (metric, m) in &r.metrics {
                if left && of_the_sustained_level(metric) {
                    continue;
                }
                let Some(unit) = Unit::parse(m.unit) else {
                    continue;
                };
                if !m.value.is_finite() {
                    continue;
                }
                let slot = values.entry((key, metric)).or_insert((unit, Vec::new()));
                if slot.0 == unit {
                    slot.1.push(m.value);
                }
            }
        }
        let mut metrics = BTreeMap::new();
        // in configuration order, as two configurations of one name
        // have always been summarised: the last one's figures stand
        for ((_, metric), (unit, vals)) in values {
            if let Some(summary) = Summary::of(&vals) {
                metrics.insert(metric.to_string(), MetricStats { unit, summary });
            }
        }
        // a short test's judged rate at the cap of the one instance type
        // its runs ran on measured the VM, not the volume
        let instances: BTreeSet<Option<&str>> = kept
            .iter()
            .map(|&i| records[i])
            .filter(|r| r.status == Status::Ok)
            .map(|r| r.host.instance_type.as_deref())
            .collect();
        let mut capped = BTreeMap::new();
        if let [Some(instance)] = instances.iter().copied().collect::<Vec<_>>()[..] {
            for (metric, m) in &metrics {
                if of_the_sustained_level(metric) {
                    continue;
                }
                if let Some(why) = at_instance_limit(
                    limits,
                    r.subject.provider.as_deref(),
                    Some(instance),
                    limit,
                    size_gb,
                    metric,
                    m.summary.median,
                ) {
                    capped.insert(metric.clone(), why);
                }
            }
        }
        // in record order, which `TestResults::older_why` searches
        let mut older_runs: Vec<LeftOut> = older
            .iter()
            .map(|&(i, date)| LeftOut {
                record: i,
                length_s: None,
                why: history::older_why(date),
            })
            .collect();
        older_runs.sort_by_key(|l| l.record);
        tests.insert(
            test.to_string(),
            TestResults {
                records: t.records,
                metrics,
                left_out,
                capped,
                older: older_runs,
                measured: measured.map(str::to_string),
            },
        );
    }
    OfferingData {
        name,
        offering_name: r.offering_name(),
        provider: r.subject.provider.clone(),
        offering: r.subject.offering.clone(),
        region: r.subject.region.clone(),
        record_price: o.priced.and_then(|i| records[i].subject.price.clone()),
        size_gb: key.size_gb.map(f64::from_bits),
        provisioned_iops: key.iops.map(f64::from_bits),
        provisioned_mbps: key.mbps.map(f64::from_bits),
        mbps_unit: limit.map_or("MB/s", |l| l.mbps_unit.label()),
        labels: r.subject.labels.clone(),
        records: o.records,
        tests,
        measurements,
        history: Vec::new(),
        measured: None,
    }
}

/// One study while its records are grouped, keyed by text borrowed from them.
#[derive(Default)]
pub(super) struct StudyGroup<'r> {
    /// Test id to its kind, from the test's first record.
    kinds: BTreeMap<&'r str, TestKind>,
    /// Test name to why it is not judged, for the cache traps.
    traps: BTreeMap<&'r str, &'r str>,
    /// Configuration name to its records.
    offerings: BTreeMap<&'r str, OfferingGroup<'r>>,
}

/// One configuration's records while they are grouped.
pub(super) struct OfferingGroup<'r> {
    /// Its first record, which gives its labels and names.
    first: usize,
    /// Its first record with a positive price per GB-month.
    priced: Option<usize>,
    records: Vec<usize>,
    tests: BTreeMap<&'r str, TestGroup>,
}

/// One test's records of a configuration (their values are gathered
/// when the test is summarised).
#[derive(Default)]
pub(super) struct TestGroup {
    records: Vec<usize>,
}
