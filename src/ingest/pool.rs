//! The loader's pool: the parts records share, each held once for a build.
//!
//! The records of one run mostly carry the same source, subject, host,
//! target, test and list of metric names. The loader parses a chunk of
//! files in parallel, then hands the chunk's records to [`Pool::share`] on
//! one thread, which points each record at the copy already held or holds
//! the record's own for later records. Plain maps owned by the loader: no
//! lock, nothing kept beyond the build.

use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::Hash;
use std::sync::Arc;

use serde::Serialize;

use crate::record::{Host, MetricNames, Source, Subject, Summary, Target, TestInfo};

/// The parts held so far.
#[derive(Default)]
pub(super) struct Pool {
    hosts: HashSet<Arc<Host>>,
    targets: HashSet<Arc<Target>>,
    metric_names: HashSet<Arc<MetricNames>>,
    /// A subject holds floats and a test JSON values, so neither has
    /// `Hash`: these are keyed by their JSON text, written only for a part
    /// unlike the few held last (the records of a run are next to each
    /// other in file order, and its tests come round again).
    subjects: ByJson<Subject>,
    tests: ByJson<TestInfo>,
    sources: ByJson<Source>,
}

/// Parts keyed by their JSON text, and the few held last.
struct ByJson<T> {
    all: HashMap<String, Arc<T>>,
    recent: VecDeque<Arc<T>>,
}

impl<T> Default for ByJson<T> {
    fn default() -> Self {
        ByJson {
            all: HashMap::new(),
            recent: VecDeque::new(),
        }
    }
}

/// Parts of each kind compared by `==` before their JSON is written.
const RECENT: usize = 16;

impl Pool {
    /// Makes `r` point to the copies already held of its parts, or holds
    /// its own as the copies for later records.
    pub(super) fn share(&mut self, r: &mut Summary) {
        by_value(&mut self.hosts, &mut r.host);
        by_value(&mut self.targets, &mut r.target);
        by_value(&mut self.metric_names, r.metrics.names_mut());
        by_json(&mut self.subjects, &mut r.subject);
        by_json(&mut self.tests, &mut r.test);
        by_json(&mut self.sources, &mut r.source);
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

fn by_json<T: Serialize + PartialEq>(held: &mut ByJson<T>, value: &mut Arc<T>) {
    if let Some(same) = held.recent.iter().find(|h| ***h == **value) {
        *value = same.clone();
        return;
    }
    // a part that cannot be written as JSON is held as it is
    let Ok(key) = serde_json::to_string(&**value) else {
        return;
    };
    match held.all.get(&key) {
        Some(same) => *value = same.clone(),
        None => {
            held.all.insert(key, value.clone());
        }
    }
    if held.recent.len() == RECENT {
        held.recent.pop_back();
    }
    held.recent.push_front(value.clone());
}
