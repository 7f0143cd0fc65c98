//! Which records are judged: the one rule that keeps a record whose
//! parameters or target make it measure the page cache or memory (a cache
//! trap) out of value tables, verdicts and headline answers. Such a record
//! is kept, grouped as a test of its own ([`super::identity`]) and shown
//! with the reason in words.
//!
//! The reasons, in the order they are asked (the first that applies is
//! given):
//!
//! - the target: `run` found it on a filesystem or device that keeps its
//!   data in memory or compresses it (`target.warning`, set for tmpfs,
//!   ramfs, zram, compressing btrfs and zfs), or the record names tmpfs or
//!   ramfs as its filesystem, or a zram device;
//! - the tool's parameters ([`crate::tools::Judge::cache_trap`]): dd
//!   without a sync flag, fio writing with `direct=0` or reading a file
//!   smaller than the memory with it, bonnie++ with a file under twice the
//!   memory.
//!
//! A new reason is one more function in [`REASONS`].

use crate::record::Summary;
use crate::tools::Trap;

/// Every reason a record is not judged, asked in order.
const REASONS: &[fn(&Summary) -> Option<Trap>] = &[in_memory_target, tool_parameters];

/// Why `r` measures the page cache or memory rather than the storage;
/// `None` for a record that is judged as its test's kind says.
pub fn cache_trap(r: &Summary) -> Option<Trap> {
    REASONS.iter().find_map(|reason| reason(r))
}

/// The target keeps its data in memory (or compresses it), as `run` saw
/// it or as an imported record's filesystem says.
fn in_memory_target(r: &Summary) -> Option<Trap> {
    let t = &r.target;
    if let Some(w) = t.warning.as_deref().filter(|w| !w.trim().is_empty()) {
        return Some(Trap {
            short: "target not a plain disk".into(),
            why: w.to_string(),
        });
    }
    let fs = t.fs_type.as_deref().map(str::trim);
    let zram = t
        .device
        .as_deref()
        .is_some_and(|d| d.trim_start_matches("/dev/").starts_with("zram"));
    let what = match fs {
        Some(fs @ ("tmpfs" | "ramfs")) => fs,
        _ if zram => "zram",
        _ => return None,
    };
    Some(Trap {
        short: format!("on {what}"),
        why: format!("the target is on {what}, which keeps its data in memory: the numbers measure RAM, not a disk"),
    })
}

/// The tool's own rule over the record's parameters and the machine's
/// memory.
fn tool_parameters(r: &Summary) -> Option<Trap> {
    crate::tools::judge(r.test.tool).cache_trap(&r.test.parameters, r.host.memory_bytes)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::record::{Record, Tool};

    /// An `ok` record of test `id` run by `tool` with `params`, on a
    /// machine with `ram` bytes of memory.
    pub(crate) fn with(
        id: &str,
        tool: Tool,
        params: serde_json::Value,
        ram: Option<u64>,
    ) -> Record {
        let mut r = crate::analysis::testing::record(id, "P", "x", Some(0.1), id, &[]);
        let test = &mut r.test;
        test.tool = tool;
        test.parameters = serde_json::from_value(params).unwrap();
        r.host.memory_bytes = ram;
        r
    }

    fn trap(r: &Record) -> Option<String> {
        cache_trap(&Summary::from(r.clone())).map(|t| t.short)
    }

    const GIB: u64 = 1 << 30;
    const MIB: u64 = 1 << 20;

    #[test]
    fn dd_without_a_sync_flag_measures_the_page_cache() {
        use serde_json::json;
        let dd = |p| trap(&with("dd-write-bulk", Tool::Dd, p, Some(8 * GIB)));
        // the 374 MB/s on a 21 MB/s volume: 64 MiB, no flag
        assert_eq!(
            dd(json!({"bs": MIB, "count": 64})).as_deref(),
            Some("no sync flag")
        );
        // a published 20 GiB run without one on an 8 GiB machine passes
        // through the cache: at most the dirty limit is unwritten at its end
        assert_eq!(
            dd(json!({"bs": MIB, "count": 20480, "if": "/dev/zero", "of": "10GB.file"})),
            None
        );
        // just under twice the memory is a trap; unknown memory is too
        assert_eq!(
            dd(json!({"bs": MIB, "count": 16383})).as_deref(),
            Some("no sync flag")
        );
        let unknown_ram = with(
            "dd-write-bulk",
            Tool::Dd,
            json!({"bs": MIB, "count": 20480}),
            None,
        );
        assert_eq!(trap(&unknown_ram).as_deref(), Some("no sync flag"));
        for synced in [
            json!({"bs": MIB, "count": 64, "conv": "fdatasync"}),
            json!({"bs": MIB, "count": 64, "conv": "notrunc,fsync"}),
            json!({"bs": 8192, "count": 512, "oflag": "dsync"}),
            json!({"bs": 8192, "count": 512, "oflag": "sync"}),
            json!({"bs": MIB, "count": 64, "oflag": "direct"}),
        ] {
            assert_eq!(dd(synced.clone()), None, "{synced}");
        }
        // dd's output alone does not say how it was told to write; a read
        // goes to /dev/null
        assert_eq!(dd(json!({})), None);
        assert_eq!(dd(json!({"bs": MIB, "count": 64, "of": "/dev/null"})), None);
        let why = cache_trap(&Summary::from(with(
            "d",
            Tool::Dd,
            json!({"bs": MIB, "count": 1}),
            None,
        )))
        .unwrap()
        .why;
        assert!(
            why.starts_with("dd wrote without a sync flag (no conv=fdatasync"),
            "{why}"
        );
    }

    #[test]
    fn fio_through_the_page_cache_is_a_trap_for_writes_and_small_reads() {
        use serde_json::json;
        let fio = |p, ram| trap(&with("fio-t", Tool::Fio, p, ram));
        let ram = Some(4 * GIB);
        // the 403,504 IOPS at 800x the cap
        assert_eq!(
            fio(
                json!({"rw": "randwrite", "bs": 4096, "direct": 0, "size": GIB}),
                ram
            )
            .as_deref(),
            Some("direct=0 writes")
        );
        assert_eq!(
            fio(json!({"rw": "write", "bs": MIB, "buffered": 1}), None).as_deref(),
            Some("direct=0 writes")
        );
        assert_eq!(
            fio(json!({"rw": "randrw", "bs": 4096, "direct": "0"}), None).as_deref(),
            Some("direct=0 writes")
        );
        // a read of a file the memory holds; not one larger, nor an unknown RAM
        assert_eq!(
            fio(
                json!({"rw": "randread", "bs": 4096, "direct": 0, "size": GIB}),
                ram
            )
            .as_deref(),
            Some("direct=0 reads under RAM")
        );
        assert_eq!(
            fio(
                json!({"rw": "randread", "direct": 0, "size": 16 * GIB}),
                ram
            ),
            None
        );
        assert_eq!(
            fio(json!({"rw": "randread", "direct": 0, "size": GIB}), None),
            None
        );
        // direct=1, or nothing recorded about it, is judged as before
        assert_eq!(fio(json!({"rw": "randwrite", "direct": 1}), ram), None);
        assert_eq!(fio(json!({"rw": "randwrite", "bs": 4096}), ram), None);
    }

    #[test]
    fn bonnie_with_a_file_under_twice_the_memory_is_a_trap() {
        use serde_json::json;
        let bonnie = |p, ram| {
            cache_trap(&Summary::from(with("bonnie", Tool::Bonnie, p, ram))).map(|t| t.why)
        };
        // quick's -s 64 -r 32 on an 8 GiB machine: -r alone would pass it
        let quick = json!({"file_size": 64 * MIB, "ram_size": 32 * MIB});
        assert_eq!(
            bonnie(quick.clone(), Some(8 * GIB)).as_deref(),
            Some("bonnie++ used a 64 MiB file on a machine with 8 GiB of memory, under twice the memory, so its reads and seeks can come from the page cache")
        );
        assert_eq!(bonnie(quick, None), None);
        // the machine's memory unknown: what bonnie++ was told stands in
        assert!(bonnie(json!({"file_size": 3 * GIB, "ram_size": 2 * GIB}), None).is_some());
        assert_eq!(
            bonnie(json!({"file_size": 4 * GIB, "ram_size": 2 * GIB}), None),
            None
        );
        assert_eq!(bonnie(json!({"file_size": 16 * GIB}), Some(8 * GIB)), None);
        assert_eq!(bonnie(json!({"file_size": 16 * GIB}), None), None);
    }

    #[test]
    fn a_target_in_memory_is_a_trap_whatever_the_tool() {
        use serde_json::json;
        let mut r = with(
            "fio-t",
            Tool::Fio,
            json!({"rw": "randread", "direct": 1}),
            None,
        );
        assert_eq!(trap(&r), None);
        r.target.fs_type = Some("tmpfs".into());
        assert_eq!(trap(&r).as_deref(), Some("on tmpfs"));
        // run's own sentence is the reason where it wrote one
        let warning = "the target is on /dev/zram0, a compressed block device in memory (zram): the numbers measure RAM and compression, not a disk";
        let t = &mut r.target;
        t.fs_type = Some("ext4".into());
        t.warning = Some(warning.into());
        let why = cache_trap(&Summary::from(r.clone())).unwrap().why;
        assert_eq!(why, warning);
        let t = &mut r.target;
        t.warning = None;
        t.device = Some("/dev/zram0".into());
        assert_eq!(trap(&r).as_deref(), Some("on zram"));
    }
}
