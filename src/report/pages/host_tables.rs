//! The host and target tables: the rows of each distinct host and
//! target, for the offering pages (all of an offering's runs in one table)
//! and the run pages (one record's, made once for the runs that share it).

use super::{distinct, held_once, Pair};
use crate::format;
use crate::record::Summary;

pub(super) fn host_pairs(records: &[&Summary]) -> Vec<Pair> {
    host_rows(&held_once(records.iter().map(|r| &r.host)))
}

pub(super) fn target_pairs(records: &[&Summary]) -> Vec<Pair> {
    target_rows(&held_once(records.iter().map(|r| &r.target)))
}

/// The host and target tables of each distinct host and target, by value:
/// a run page shows its record's, made once for all the runs that share it.
pub(super) struct Tables<'r> {
    hosts: std::collections::HashMap<&'r crate::record::Host, Vec<Pair>>,
    targets: std::collections::HashMap<&'r crate::record::Target, Vec<Pair>>,
}

impl<'r> Tables<'r> {
    pub(super) fn new(records: &[&'r Summary]) -> Tables<'r> {
        let mut d = Tables {
            hosts: Default::default(),
            targets: Default::default(),
        };
        for r in records {
            d.hosts
                .entry(&*r.host)
                .or_insert_with(|| host_rows(&[&*r.host]));
            d.targets
                .entry(&*r.target)
                .or_insert_with(|| target_rows(&[&*r.target]));
        }
        d
    }

    /// The host table of one record.
    pub(super) fn host(&self, r: &Summary) -> std::borrow::Cow<'_, [Pair]> {
        match self.hosts.get(&*r.host) {
            Some(rows) => rows.into(),
            None => host_pairs(&[r]).into(),
        }
    }

    /// The target table of one record.
    pub(super) fn target(&self, r: &Summary) -> std::borrow::Cow<'_, [Pair]> {
        match self.targets.get(&*r.target) {
            Some(rows) => rows.into(),
            None => target_pairs(&[r]).into(),
        }
    }
}

fn host_rows(records: &[&crate::record::Host]) -> Vec<Pair> {
    let p = |k: &str, v: String| Pair {
        key: k.into(),
        value: v,
    };
    // the machine's name and the instance type only where a record names one
    let machine = records
        .iter()
        .any(|r| r.name.is_some())
        .then(|| p("machine", distinct(records, |r| r.name.clone())));
    let instance = records.iter().any(|r| r.instance_type.is_some()).then(|| {
        p(
            "instance type",
            distinct(records, |r| r.instance_type.clone()),
        )
    });
    let mut rows: Vec<Pair> = machine.into_iter().chain(instance).collect();
    rows.extend([
        p("CPU", distinct(records, |r| r.cpu_model.clone())),
        p(
            "CPUs",
            distinct(records, |r| r.cpu_count.map(|c| c.to_string())),
        ),
        p(
            "memory",
            distinct(records, |r| r.memory_bytes.map(format::memory)),
        ),
        p("kernel", distinct(records, |r| r.kernel.clone())),
        p("OS", distinct(records, |r| r.os.clone())),
        p("architecture", distinct(records, |r| r.arch.clone())),
        p(
            "virtualisation",
            distinct(records, |r| r.virtualization.clone()),
        ),
        p("description", distinct(records, |r| r.description.clone())),
    ]);
    rows
}

fn target_rows(records: &[&crate::record::Target]) -> Vec<Pair> {
    let p = |k: &str, v: String| Pair {
        key: k.into(),
        value: v,
    };
    // a target in memory or compressing (`run` says so): shown first,
    // and only where a record has it
    let warning = records
        .iter()
        .any(|r| r.warning.is_some())
        .then(|| p("warning", distinct(records, |r| r.warning.clone())));
    warning
        .into_iter()
        .chain([
            p("path", distinct(records, |r| r.path.clone())),
            p("filesystem", distinct(records, |r| r.fs_type.clone())),
            p(
                "mount options",
                distinct(records, |r| r.mount_options.clone()),
            ),
            p("mount point", distinct(records, |r| r.mount_point.clone())),
            p("device", distinct(records, |r| r.device.clone())),
            p(
                "rotational",
                distinct(records, |r| {
                    r.rotational
                        .map(|b| if b { "yes" } else { "no" }.to_string())
                }),
            ),
            p("scheduler", distinct(records, |r| r.scheduler.clone())),
            p(
                "size",
                distinct(records, |r| r.size_bytes.map(format::bytes)),
            ),
            p(
                "free at start",
                distinct(records, |r| r.free_bytes.map(format::bytes)),
            ),
            p("description", distinct(records, |r| r.description.clone())),
        ])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Target;

    #[test]
    fn a_target_s_warning_heads_its_table_only_where_a_record_has_one() {
        let plain = Target::default();
        let tmpfs = Target {
            warning: Some("the target is on tmpfs".into()),
            ..Target::default()
        };
        let rows = target_rows(&[&tmpfs]);
        assert_eq!(rows[0].key, "warning");
        assert_eq!(rows[0].value, "the target is on tmpfs");
        assert!(!target_rows(&[&plain]).iter().any(|r| r.key == "warning"));
        assert_eq!(
            target_rows(&[&plain]).len() + 1,
            target_rows(&[&plain, &tmpfs]).len()
        );
    }
}
