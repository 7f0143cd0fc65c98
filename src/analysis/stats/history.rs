//! A configuration measured more than once: its records split into
//! measurements by when they started, and its history (the medians of each
//! measurement, across studies).
//!
//! The rule: a configuration's records with a `started_at`, sorted by it,
//! form one measurement until a record starts more than 24 hours after the
//! one before it, which begins the next; a measurement's date is the UTC
//! date of its first record. A suite or a fleet run that crosses midnight
//! stays one measurement. Records without a `started_at` (most imported and
//! transcribed ones) belong to no measurement: they stay in the
//! configuration's figures, and give no history.

use std::collections::BTreeMap;
use std::time::UNIX_EPOCH;

use super::Summary;
use crate::record::{self, Status};
use crate::units::Unit;

/// A record starting more than this many seconds (24 hours) after the one
/// before it begins a new measurement.
pub const NEW_MEASUREMENT_AFTER_S: u64 = 24 * 3600;

/// One measurement of a configuration: records taken together.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The UTC date of its first record, `2026-06-02`.
    pub date: String,
    /// Its records (indices into the record list), in start order.
    pub records: Vec<usize>,
}

/// The seconds since 1970 of an RFC 3339 UTC time (as `validate` accepts
/// it, `t` and `z` in either case); `None` for anything else.
fn seconds(t: &str) -> Option<u64> {
    let t = humantime::parse_rfc3339(&t.to_ascii_uppercase()).ok()?;
    Some(t.duration_since(UNIX_EPOCH).ok()?.as_secs())
}

/// Splits records, given as (index, `started_at`), into measurements by
/// the rule of this module, oldest first. Records without a usable start
/// time are in none.
pub fn split(starts: &[(usize, Option<&str>)]) -> Vec<Measurement> {
    let mut dated: Vec<(u64, usize, &str)> = starts
        .iter()
        .filter_map(|&(i, t)| {
            let t = t?;
            Some((seconds(t)?, i, t.get(..10)?))
        })
        .collect();
    // by time, then by record, so that equal times split the same way
    // whatever order the records came in
    dated.sort_unstable();
    let mut out: Vec<Measurement> = Vec::new();
    let mut last: Option<u64> = None;
    for (s, i, date) in dated {
        match (out.last_mut(), last) {
            (Some(m), Some(l)) if s - l <= NEW_MEASUREMENT_AFTER_S => m.records.push(i),
            _ => out.push(Measurement {
                date: date.to_string(),
                records: vec![i],
            }),
        }
        last = Some(s);
    }
    out
}

/// The measurements of the records `indices` of `records`.
pub(super) fn measurements_of(records: &[&record::Summary], indices: &[usize]) -> Vec<Measurement> {
    let starts: Vec<(usize, Option<&str>)> = indices
        .iter()
        .filter_map(|&i| Some((i, records.get(i)?.started_at.as_deref())))
        .collect();
    split(&starts)
}

/// Why a record of an older measurement is left out of its
/// configuration's figures, in words.
pub fn older_why(date: &str) -> String {
    format!("an older measurement ({date}); the history on the offering page shows it")
}

/// Which measurement (its index in `measurements`) each record is in.
pub(super) fn index(measurements: &[Measurement]) -> BTreeMap<usize, usize> {
    measurements
        .iter()
        .enumerate()
        .flat_map(|(n, m)| m.records.iter().map(move |&i| (i, n)))
        .collect()
}

/// For a test of a configuration with two or more `measurements` (`which`:
/// their [`index`]), the measurement its figures come from: the newest
/// that holds one of `test_records`. Returns the test's records of its
/// other measurements (to leave out, with their measurement's date) and
/// that measurement's date; `None` when the test's records are in no
/// measurement.
pub(super) fn newest_of_test<'m>(
    measurements: &'m [Measurement],
    which: &BTreeMap<usize, usize>,
    test_records: &[usize],
) -> (Vec<(usize, &'m str)>, Option<&'m str>) {
    let of = |i: &usize| which.get(i).copied();
    let Some(newest) = test_records.iter().filter_map(of).max() else {
        return (Vec::new(), None);
    };
    let date = |n: usize| measurements.get(n).map(|m| m.date.as_str());
    let older = test_records
        .iter()
        .filter_map(|i| Some((*i, of(i)?)))
        .filter(|&(_, n)| n != newest)
        .filter_map(|(i, n)| Some((i, date(n)?)))
        .collect();
    (older, date(newest))
}

/// One judged metric of one test in one measurement of a configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryPoint {
    /// The study the measurement belongs to.
    pub study: String,
    /// The measurement's date, `2026-01-10`.
    pub date: String,
    /// The test's name in that study.
    pub test: String,
    /// The metric.
    pub metric: String,
    /// Its canonical unit.
    pub unit: Unit,
    /// Its numbers over the measurement's `ok` runs.
    pub summary: Summary,
}

/// The points of one measurement: every metric `judged` (test, metric) of
/// its `ok` records, in its first unit (a value in another unit is left
/// out), keyed by test and metric.
pub(super) fn points(
    records: &[&record::Summary],
    m: &Measurement,
    study: &str,
    test_of: impl Fn(&record::Summary) -> String,
    judged: impl Fn(&str, &str) -> bool,
) -> Vec<HistoryPoint> {
    let mut values: BTreeMap<(String, &str), (Unit, Vec<f64>)> = BTreeMap::new();
    for r in m.records.iter().filter_map(|&i| records.get(i).copied()) {
        if r.status != Status::Ok {
            continue;
        }
        let test = test_of(r);
        for (metric, v) in &r.metrics {
            if !judged(&test, metric) || !v.value.is_finite() {
                continue;
            }
            let Some(unit) = Unit::parse(v.unit) else {
                continue;
            };
            let slot = values
                .entry((test.clone(), metric))
                .or_insert((unit, Vec::new()));
            if slot.0 == unit {
                slot.1.push(v.value);
            }
        }
    }
    values
        .into_iter()
        .filter_map(|((test, metric), (unit, vals))| {
            Some(HistoryPoint {
                study: study.to_string(),
                date: m.date.clone(),
                test,
                metric: metric.to_string(),
                unit,
                summary: Summary::of(&vals)?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dates(ms: &[Measurement]) -> Vec<(&str, Vec<usize>)> {
        ms.iter()
            .map(|m| (m.date.as_str(), m.records.clone()))
            .collect()
    }

    #[test]
    fn a_gap_of_more_than_a_day_begins_a_measurement() {
        let ms = split(&[
            (0, Some("2026-06-02T10:00:00Z")),
            (1, Some("2026-01-10T09:00:00Z")),
            (2, Some("2026-01-10T09:05:00Z")),
            (3, Some("2026-06-02T10:10:00Z")),
            // exactly 24 hours after the one before: the same measurement
            (4, Some("2026-06-03T10:10:00Z")),
        ]);
        assert_eq!(
            dates(&ms),
            [("2026-01-10", vec![1, 2]), ("2026-06-02", vec![0, 3, 4])]
        );
        // a second more is a new one
        let ms = split(&[
            (0, Some("2026-06-02T10:00:00Z")),
            (1, Some("2026-06-03T10:00:01Z")),
        ]);
        assert_eq!(
            dates(&ms),
            [("2026-06-02", vec![0]), ("2026-06-03", vec![1])]
        );
    }

    #[test]
    fn a_run_across_midnight_is_one_measurement_dated_by_its_first_record() {
        let ms = split(&[
            (7, Some("2026-03-01T00:20:00Z")),
            (5, Some("2026-02-28T23:20:00Z")),
        ]);
        assert_eq!(dates(&ms), [("2026-02-28", vec![5, 7])]);
    }

    #[test]
    fn records_without_a_start_are_in_no_measurement() {
        let ms = split(&[
            (0, None),
            (1, Some("yesterday")),
            (2, Some("2026-01-10t09:00:00z")),
        ]);
        assert_eq!(dates(&ms), [("2026-01-10", vec![2])]);
        assert!(split(&[(0, None)]).is_empty());
    }

    #[test]
    fn a_test_takes_the_newest_measurement_that_holds_it() {
        let ms = split(&[
            (0, Some("2026-01-10T09:00:00Z")),
            (1, Some("2026-01-10T09:01:00Z")),
            (2, Some("2026-06-02T09:00:00Z")),
        ]);
        let which = index(&ms);
        // test with runs in both: January's left out
        assert_eq!(
            newest_of_test(&ms, &which, &[0, 2]),
            (vec![(0, "2026-01-10")], Some("2026-06-02"))
        );
        // test measured only in January keeps its runs
        assert_eq!(
            newest_of_test(&ms, &which, &[1]),
            (vec![], Some("2026-01-10"))
        );
        // undated runs: in no measurement, kept
        assert_eq!(newest_of_test(&ms, &which, &[9]), (vec![], None));
        assert_eq!(
            newest_of_test(&ms, &which, &[9, 0, 2]),
            (vec![(0, "2026-01-10")], Some("2026-06-02"))
        );
    }
}
