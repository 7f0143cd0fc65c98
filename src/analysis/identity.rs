//! What the report pools as one test: the test id, the suite that ran it
//! (where the record names one), every parameter that changes the result
//! ([`crate::tools::Judge::identity`]) and whether the record is a cache
//! trap ([`super::judged`]). Records of one id that differ in any of these
//! are different tests, each with its own rows, statistics and verdicts,
//! named after what differs: `dd-write-bulk (quick: 64 MiB)` and
//! `dd-write-bulk (standard: 2x RAM)`. An id with one identity in a study
//! keeps its bare name.
//!
//! [`of`] and [`names`] are the only place this is decided; the grouping
//! ([`super::stats::group_with`]) uses them, and every page and export
//! reads the names it gave ([`super::stats::Dataset::test_of`]).

use std::collections::BTreeSet;

use crate::record::Summary;
use crate::tools::Trap;

/// Everything that makes two records one test.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Identity {
    /// The test id.
    pub id: String,
    /// The suite that ran it (`quick`, `standard`, a suite file's name);
    /// `None` for imported records and records of older versions.
    pub suite: Option<String>,
    /// The result-changing parameters in words, in the tool's order.
    pub parts: Vec<(&'static str, String)>,
    /// Why the record measures the page cache, if it does.
    pub trap: Option<Trap>,
}

/// The identity of record `r`.
pub fn of(r: &Summary) -> Identity {
    Identity {
        id: r.test.id.clone(),
        suite: r.test.suite.clone(),
        parts: crate::tools::judge(r.test.tool).identity(&r.test.parameters, r.host.memory_bytes),
        trap: super::judged::cache_trap(r),
    }
}

/// The names of `identities` (of one study), in their order: the bare id
/// where the study holds one identity of that id, else the id followed by
/// what differs between its identities: the suite, then each parameter
/// that varies (`not recorded` where a record lacks it), then the trap.
pub fn names(identities: &[&Identity]) -> Vec<String> {
    identities
        .iter()
        .map(|me| {
            let twins: BTreeSet<&Identity> = identities
                .iter()
                .copied()
                .filter(|o| o.id == me.id)
                .collect();
            if twins.len() < 2 {
                return me.id.clone();
            }
            let varies = |f: &dyn Fn(&Identity) -> Option<String>| {
                twins.iter().map(|t| f(t)).collect::<BTreeSet<_>>().len() > 1
            };
            let suite = varies(&|t| t.suite.clone()).then(|| {
                me.suite
                    .clone()
                    .unwrap_or_else(|| "suite not recorded".into())
            });
            let mut keys: Vec<&'static str> = Vec::new();
            for t in &twins {
                for (k, _) in &t.parts {
                    if !keys.contains(k) {
                        keys.push(k);
                    }
                }
            }
            let part = |t: &Identity, key: &str| {
                t.parts
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, w)| w.clone())
            };
            // where the suite alone tells the twins apart, a part this
            // one's record does not give goes unsaid (`(standard)`, not
            // `(standard: file size not recorded)`)
            let suites: BTreeSet<Option<&String>> =
                twins.iter().map(|t| t.suite.as_ref()).collect();
            let suite_separates = suite.is_some() && suites.len() == twins.len();
            let mut words: Vec<String> = keys
                .iter()
                .filter(|k| varies(&|t| part(t, k)))
                .filter_map(|k| match part(me, k) {
                    Some(w) => Some(w),
                    None if suite_separates => None,
                    None => Some(format!("{k} not recorded")),
                })
                .collect();
            if varies(&|t| t.trap.as_ref().map(|x| x.short.clone())) {
                words.extend(me.trap.as_ref().map(|t| t.short.clone()));
            }
            match (suite, words.is_empty()) {
                (Some(s), true) => format!("{} ({s})", me.id),
                (Some(s), false) => format!("{} ({s}: {})", me.id, words.join(", ")),
                (None, true) => me.id.clone(),
                (None, false) => format!("{} ({})", me.id, words.join(", ")),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::judged::tests::with;
    use crate::record::Tool;
    use serde_json::json;

    const MIB: u64 = 1 << 20;
    const GIB: u64 = 1 << 30;

    fn named(records: &[crate::record::Record]) -> Vec<String> {
        let summaries: Vec<Summary> = records.iter().cloned().map(Summary::from).collect();
        let ids: Vec<Identity> = summaries.iter().map(of).collect();
        names(&ids.iter().collect::<Vec<_>>())
    }

    fn in_suite(mut r: crate::record::Record, suite: &str) -> crate::record::Record {
        r.test.suite = Some(suite.into());
        r
    }

    #[test]
    fn quick_and_standard_runs_of_one_id_are_two_tests_named_by_what_differs() {
        let dd = |count: u64, suite| {
            in_suite(
                with(
                    "dd-write-bulk",
                    Tool::Dd,
                    json!({"bs": MIB, "count": count, "conv": "fdatasync", "bytes": count * MIB}),
                    Some(24 * GIB),
                ),
                suite,
            )
        };
        // standard's 2x RAM on a 24 GiB machine is 48 GiB
        let records = [
            dd(64, "quick"),
            dd(49152, "standard"),
            dd(49152, "standard"),
        ];
        assert_eq!(
            named(&records),
            [
                "dd-write-bulk (quick: 64 MiB)",
                "dd-write-bulk (standard: 2x RAM)",
                "dd-write-bulk (standard: 2x RAM)"
            ]
        );
        // and 8 GiB on a 4 GiB machine is the same test
        let mut small = dd(8192, "standard");
        small.host.memory_bytes = Some(4 * GIB);
        assert_eq!(
            named(&[records[1].clone(), small.clone()]),
            ["dd-write-bulk", "dd-write-bulk"]
        );
        // where the memory is unknown, the size itself
        small.host.memory_bytes = None;
        assert_eq!(
            named(&[records[1].clone(), small]),
            ["dd-write-bulk (2x RAM)", "dd-write-bulk (8 GiB)"]
        );
        // alone, a test keeps its bare id
        assert_eq!(named(&records[1..]), ["dd-write-bulk", "dd-write-bulk"]);
        // the same parameters in two suites are still two tests
        assert_eq!(
            named(&[dd(64, "quick"), dd(64, "mine")]),
            ["dd-write-bulk (quick)", "dd-write-bulk (mine)"]
        );
        // an imported record names no suite
        let imported = with(
            "dd-write-bulk",
            Tool::Dd,
            json!({"bs": MIB, "count": 64}),
            None,
        );
        assert_eq!(
            named(&[dd(64, "quick"), imported])[1],
            "dd-write-bulk (suite not recorded: no sync flag)"
        );
        // the suite tells them apart: what one record does not give goes
        // unsaid, not "count not recorded"
        let mut no_size = dd(49152, "standard");
        let parameters = &mut no_size.test.parameters;
        parameters.remove("count");
        parameters.remove("bytes");
        assert_eq!(
            named(&[dd(64, "quick"), no_size]),
            ["dd-write-bulk (quick: 64 MiB)", "dd-write-bulk (standard)"]
        );
    }

    #[test]
    fn what_does_not_change_the_result_does_not_split_a_test() {
        let fio = |p| {
            with(
                "fio-sustained-randread-4k-qd32",
                Tool::Fio,
                p,
                Some(4 * GIB),
            )
        };
        // a time-based test's runtime and file size, fio's default of one
        // job, the file it wrote to
        let records = [
            fio(
                json!({"rw": "randread", "bs": 4096, "iodepth": 32, "direct": 1, "runtime": 2700, "time_based": true, "size": 16 * GIB}),
            ),
            fio(
                json!({"rw": "randread", "bs": 4096, "iodepth": 32, "direct": 1, "numjobs": 1, "runtime": 1200, "time_based": true, "size": GIB, "filename": "a"}),
            ),
        ];
        let ids: Vec<Identity> = records
            .iter()
            .cloned()
            .map(Summary::from)
            .map(|s| of(&s))
            .collect();
        assert_eq!(ids[0], ids[1]);
        // a size-bound test's file size does, and so does the depth
        let sized = |size: u64, depth: u64| {
            with(
                "fio-randread-4k-qd64",
                Tool::Fio,
                json!({"rw": "randread", "bs": 4096, "iodepth": depth, "direct": 1, "size": size, "runtime": 5}),
                None,
            )
        };
        assert_eq!(
            named(&[sized(64 * MIB, 64), sized(GIB, 64), sized(GIB, 1)]),
            [
                "fio-randread-4k-qd64 (QD 64, 64 MiB)",
                "fio-randread-4k-qd64 (QD 64, 1 GiB)",
                "fio-randread-4k-qd64 (QD 1, 1 GiB)"
            ]
        );
        // the standard suite's QD64 test before (a 1 GiB file, bound by
        // size) and now (time-based on the pre-filled file): two tests
        let timed = with(
            "fio-randread-4k-qd64",
            Tool::Fio,
            json!({"rw": "randread", "bs": 4096, "iodepth": 64, "direct": 1, "size": 7 * GIB, "runtime": 30, "time_based": true, "prefilled": true}),
            None,
        );
        let names = named(&[sized(GIB, 64), timed]);
        assert_ne!(names[0], names[1], "{names:?}");
        // bonnie++: file and memory sizes; ioping: its mode letters
        let bonnie = |file: u64| {
            with(
                "bonnie",
                Tool::Bonnie,
                json!({"file_size": file, "num_files": "256"}),
                None,
            )
        };
        assert_eq!(
            named(&[bonnie(16 * GIB), bonnie(8 * GIB)]),
            ["bonnie (16 GiB file)", "bonnie (8 GiB file)"]
        );
        let ioping = |flags: &str, count: u64| {
            with(
                "ioping-seek",
                Tool::Ioping,
                json!({"flags": flags, "count": count}),
                None,
            )
        };
        assert_eq!(
            named(&[ioping("R", 5), ioping("R", 10)]),
            ["ioping-seek", "ioping-seek"]
        );
        assert_eq!(
            named(&[ioping("R", 5), ioping("RL", 5)]),
            ["ioping-seek (-R)", "ioping-seek (-RL)"]
        );
    }

    #[test]
    fn a_trap_on_a_memory_target_is_a_test_of_its_own() {
        let fio = || {
            with(
                "fio-randread-4k-qd64",
                Tool::Fio,
                json!({"rw": "randread", "bs": 4096, "iodepth": 64, "direct": 1}),
                None,
            )
        };
        let mut tmpfs = fio();
        tmpfs.target.fs_type = Some("tmpfs".into());
        assert_eq!(
            named(&[fio(), tmpfs]),
            ["fio-randread-4k-qd64", "fio-randread-4k-qd64 (on tmpfs)"]
        );
    }
}
