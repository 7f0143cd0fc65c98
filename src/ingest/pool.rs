//! The loader's pool: the parts records share, each held once for a build.
//!
//! The records of one run mostly carry the same source, subject, host,
//! target, test and list of metric names. The loader parses a chunk of
//! files in parallel, then hands the chunk's records to [`Pool::share`] on
//! one thread, which points each record at the copy already held or holds
//! the record's own for later records. Plain maps owned by the loader: no
//! lock, nothing kept beyond the build.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use std::sync::Arc;

use crate::record::{Host, MetricNames, Record, Source, Subject, Target, TestInfo};

/// The parts held so far.
#[derive(Default)]
pub(super) struct Pool {
    hosts: HashSet<Arc<Host>>,
    targets: HashSet<Arc<Target>>,
    metric_names: HashSet<Arc<MetricNames>>,
    /// A subject holds floats and a test JSON values, so neither has
    /// `Hash`: these are keyed by their JSON text.
    subjects: HashMap<String, Arc<Subject>>,
    tests: HashMap<String, Arc<TestInfo>>,
    sources: HashMap<String, Arc<Source>>,
}

/// The JSON text of a record's subject, test and source: what the pool
/// knows them by. Written beside the parse, in parallel, so that the one
/// thread sharing the parts only looks them up.
pub(super) struct Keys([Option<String>; 3]);

impl Keys {
    /// The keys of `r`'s parts (`None` for a part that cannot be written,
    /// which is then held as it is), its test's `without_command` when the
    /// loader holds the command apart.
    pub(super) fn of(r: &Record, without_command: bool) -> Keys {
        let test = if without_command && r.test.command.is_some() {
            let test = TestInfo {
                command: None,
                ..(*r.test).clone()
            };
            serde_json::to_string(&test).ok()
        } else {
            serde_json::to_string(&*r.test).ok()
        };
        Keys([
            serde_json::to_string(&*r.subject).ok(),
            test,
            serde_json::to_string(&*r.source).ok(),
        ])
    }
}

impl Pool {
    /// Makes `r` point to the copies already held of its parts, or holds
    /// its own as the copies for later records; `keys` are [`Keys::of`] `r`.
    pub(super) fn share(&mut self, r: &mut Record, keys: Keys) {
        by_value(&mut self.hosts, &mut r.host);
        by_value(&mut self.targets, &mut r.target);
        by_value(&mut self.metric_names, r.metrics.names_mut());
        let [subject, test, source] = keys.0;
        by_json(&mut self.subjects, &mut r.subject, subject);
        by_json(&mut self.tests, &mut r.test, test);
        by_json(&mut self.sources, &mut r.source, source);
    }
}

fn by_value<T: Eq + Hash>(set: &mut HashSet<Arc<T>>, value: &mut Arc<T>) {
    match set.get(value) {
        Some(held) => *value = held.clone(),
        None => {
            set.insert(value.clone());
        }
    }
}

fn by_json<T>(map: &mut HashMap<String, Arc<T>>, value: &mut Arc<T>, key: Option<String>) {
    // a part that cannot be written as JSON is held as it is
    let Some(key) = key else {
        return;
    };
    match map.get(&key) {
        Some(held) => *value = held.clone(),
        None => {
            map.insert(key, value.clone());
        }
    }
}
