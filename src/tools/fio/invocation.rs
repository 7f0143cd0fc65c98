//! fio's command line built from a suite's parameters.

use std::path::Path;

use anyhow::{bail, Result};

use super::options::{is_time_based, option_size, suite_options, DEFAULT_ENGINE};
use crate::tools::argv::{parse_size, BuildCtx, Invocation, OutputFrom, ParamReader, Params};

/// Job options that would send fio's I/O, output or logs somewhere other
/// than the job's scratch directory, run other programs, or touch the
/// system (I/O scheduler, cgroups), so a suite may not set them. They are
/// fio's canonical names: a suite's keys are resolved to those first
/// ([`suite_options`]), so an alias or abbreviation of one is refused too.
/// fio's own command-line options (`--output`, `--client`, `--trigger`,
/// ...) are refused there, and the `exec` engine's (`program`,
/// `arguments`, `std_redirect`) are no option of an engine a suite may
/// choose.
const RESERVED: &[&str] = &[
    "name",
    "filename",
    "directory",
    "filename_format",
    "opendir",
    "write_iolog",
    "read_iolog",
    "replay_redirect",
    "merge_blktrace_file",
    "write_bw_log",
    "write_lat_log",
    "write_iops_log",
    "write_hist_log",
    // diskdash asks for the per-second logs of a time-based test itself
    "log_avg_msec",
    "log_hist_msec",
    "log_window_value",
    "log_offset",
    "log_prio",
    "log_compression",
    "log_store_compressed",
    "log_alternate_epoch",
    "per_job_logs",
    "exec_prerun",
    "exec_postrun",
    "ioscheduler",
    "cgroup",
];

/// Job options that would make fio write more than its `size`, which
/// diskdash checks against the target's free space before the test:
/// `fill_device` writes until the filesystem is full, `filesize` lays the
/// file out at another size, `file_append` writes past its end, and
/// `nrfiles` splits the job over files diskdash does not name.
const PAST_SIZE: &[&str] = &["fill_device", "filesize", "file_append", "nrfiles"];

/// The I/O engines a suite may choose: fio's own engines that do plain
/// I/O on the job's file. Others run programs (`exec`), load code
/// (`external:/path/lib.so`, a path) or reach devices and the network.
pub const IOENGINES: &[&str] = &[
    "libaio", "io_uring", "psync", "sync", "pvsync", "pvsync2", "posixaio", "mmap", "null",
];

/// Builds `fio --name=<id> --filename=<dir>/fio.dat --rw=.. --bs=..
/// --iodepth=.. --ioengine=.. --direct=.. --size=.. [--runtime=..]
/// --output-format=json --output=<dir>/fio.json`. Known parameters come in
/// that order; any other key is passed on as `--key=value` (sorted), except
/// those that would point fio outside the scratch directory.
///
/// `size = "auto"` is [`auto_size`] of the free space the run was planned
/// with. A test given a `data_file` (a sustained test reading the pre-filled
/// file) does its I/O there, writes no file of its own and is given its size
/// in bytes, as the pre-fill is ([`prefill_command`]).
pub fn command(params: &Params, ctx: &BuildCtx) -> Result<Invocation> {
    // diskdash's own keys first: no fio option has their names
    let mut params = params.clone();
    let prefilled = take_flag(&mut params, PREFILLED)?.unwrap_or(false);
    let timeline = take_flag(&mut params, TIMELINE)?.unwrap_or(true);
    if prefilled && ctx.data_file.is_none() {
        bail!("fio parameter `{PREFILLED} = true`: this run has no pre-filled file for the test to read");
    }
    // every rule below reads fio's own names for the options
    let suite = suite_options(&params)?;
    let params = &suite.params;
    let mut p = ParamReader::new("fio", params, ctx.memory_bytes);
    let own_file = ctx.dir.join("fio.dat");
    let file = ctx.data_file.unwrap_or(&own_file);
    let out = ctx.dir.join("fio.json");
    let mut args = vec![format!("--name={}", ctx.test_id), filename_arg(file)];
    let mut parameters = Params::new();
    // fio applies kb_base to the options after it only: it goes first
    let kb_base = p.string("kb_base")?;
    if let Some(k) = &kb_base {
        args.push(format!("--kb_base={k}"));
        parameters.insert("kb_base".into(), json_scalar(k));
    }
    let kb_base_si = kb_base.as_deref() == Some("1000");
    let defaults = [
        ("rw", "read"),
        ("bs", "4k"),
        ("iodepth", "1"),
        ("ioengine", DEFAULT_ENGINE),
        ("direct", "1"),
    ];
    // `bsrange` and `bssplit` set fio's block sizes in place of `bs`: the
    // record then states those, and no one block size
    let other_bs = ["bsrange", "bssplit"]
        .into_iter()
        .find(|k| params.contains_key(*k));
    if let Some(other) = other_bs {
        if params.contains_key("bs") {
            bail!(
                "fio parameters {} and {} both set fio's block sizes: give one",
                suite.label("bs"),
                suite.label(other)
            );
        }
    }
    // `atomic` is O_DIRECT I/O whatever `direct` says
    if flag_set(params, "atomic") && params.contains_key("direct") && !flag_set(params, "direct") {
        bail!(
            "fio parameter {} is direct I/O, but {} asks for buffered I/O: give one",
            suite.label("atomic"),
            suite.label("direct")
        );
    }
    for (key, default) in defaults {
        if key == "bs" && other_bs.is_some() {
            continue;
        }
        // (the engine is one of IOENGINES: `suite_options` checked it)
        let v = p.string(key)?.unwrap_or_else(|| default.to_string());
        args.push(format!("--{key}={v}"));
        // a plain block size is stored in bytes, as imported records have it
        let value = match option_size(&v, kb_base_si) {
            Some(bytes) if key == "bs" => bytes.into(),
            _ => json_scalar(&v),
        };
        parameters.insert(key.into(), value);
    }
    let size_text = p.string("size")?.unwrap_or_else(|| "1G".to_string());
    // fio takes plain sizes itself; `auto` and an `NxRAM` size are passed resolved
    let (size, mut size_arg) = if size_text.trim() == AUTO_SIZE {
        let size = auto_size(ctx.free_bytes);
        (size, size.to_string())
    } else if size_text.contains("RAM") || size_text.contains("ram") {
        let size = parse_size(&size_text, ctx.memory_bytes)
            .map_err(|e| anyhow::anyhow!("fio parameter `size`: {e}"))?;
        (size, size.to_string())
    } else {
        // read as fio reads it: by default `1MiB` is 10^6 bytes to fio
        let size = option_size(&size_text, kb_base_si).ok_or_else(|| {
            anyhow::anyhow!(
                "fio parameter `size = {size_text}`: expected a size such as 64M, 1G or 2xRAM"
            )
        })?;
        (size, size_text.clone())
    };
    if ctx.data_file.is_some() {
        // the very bytes the pre-fill wrote, whatever kb_base says
        size_arg = size.to_string();
    }
    args.push(format!("--size={size_arg}"));
    parameters.insert("size".into(), size.into());
    if prefilled {
        // what the test read is part of what it measured
        parameters.insert(PREFILLED.into(), true.into());
    }
    let runtime = p.count("runtime")?;
    // fio lays its file out first, unless it is the pre-filled one
    let mut estimate = if ctx.data_file.is_some() {
        1.0
    } else {
        layout_estimate(size)
    };
    if let Some(r) = runtime {
        args.push(format!("--runtime={r}"));
        // seconds as a float, as the parser gives it for imported records
        parameters.insert("runtime".into(), (r as f64).into());
        estimate = if is_time_based(params) {
            // it runs the whole runtime, after laying the file out
            estimate + r as f64
        } else {
            estimate.min(1.0 + r as f64)
        };
    }
    for (k, v) in p.rest() {
        if RESERVED.contains(&k.as_str()) {
            bail!(
                "fio parameter {} cannot be set in a suite: diskdash chooses where fio writes",
                suite.label(k)
            );
        }
        if PAST_SIZE.contains(&k.as_str()) {
            bail!(
                "fio parameter {} cannot be set in a suite: it would make fio write more than \
                 its `size`, which diskdash checks against the target's free space (set `size`)",
                suite.label(k)
            );
        }
        // `mem=mmap:FILE` backs the buffers with a file of that name
        if k == "mem" && v.as_str().is_some_and(|s| s.contains(':')) {
            bail!(
                "fio parameter {}: a backing file cannot be set in a suite: diskdash chooses where fio writes",
                suite.setting(k, v)
            );
        }
        let name = suite.command_name(k);
        match v {
            serde_json::Value::Bool(true) => args.push(format!("--{name}")),
            serde_json::Value::Bool(false) => continue,
            serde_json::Value::String(s) => args.push(format!("--{name}={s}")),
            serde_json::Value::Number(n) => args.push(format!("--{name}={n}")),
            other => bail!("fio parameter `{k} = {other}`: expected a string, number or boolean"),
        }
        parameters.insert(k.clone(), v.clone());
    }
    // a time-based test gets per-second logs (see `LOG_PREFIX`); a ramp
    // would hide the first seconds, which is where a burst is
    if is_time_based(params) && runtime.is_some() && timeline {
        if params.contains_key("ramp_time") {
            bail!(
                "fio parameter {} cannot be set on a time-based test: its per-second log must start with the test",
                suite.label("ramp_time")
            );
        }
        let prefix = ctx.dir.join(LOG_PREFIX);
        for log in ["write_iops_log", "write_bw_log", "write_lat_log"] {
            args.push(format!("--{log}={}", prefix.display()));
        }
        args.push("--log_avg_msec=1000".into());
    }
    args.push("--output-format=json".into());
    args.push(format!("--output={}", out.display()));
    Ok(Invocation {
        program: "fio".into(),
        args,
        env: Vec::new(),
        output: OutputFrom::File(out),
        // the pre-filled file exists already: the test adds no file
        bytes: if ctx.data_file.is_some() { 0 } else { size },
        estimate_s: estimate,
        parameters,
        stdin: None,
    })
}

/// A fio test's key that makes it do its I/O on the pre-filled file (the
/// one the sustained tests read, [`prefill_command`]) instead of a file of
/// its own: `prefilled = true`. The record states it as a parameter.
pub const PREFILLED: &str = "prefilled";

/// A fio test's key that, set to `false`, keeps a time-based test from
/// writing per-second logs: it then has no timeline, and is judged on its
/// whole-run figures (IOPS and p99 latency) like a size-bound test.
pub const TIMELINE: &str = "timeline";

/// Whether a fio test's parameters ask for the pre-filled file.
pub fn wants_prefilled(params: &Params) -> bool {
    params.get(PREFILLED) == Some(&serde_json::Value::Bool(true))
}

/// Removes diskdash's own boolean key `key` from a fio test's parameters,
/// refusing a value that is not `true` or `false`.
fn take_flag(params: &mut Params, key: &str) -> Result<Option<bool>> {
    match params.remove(key) {
        None => Ok(None),
        Some(serde_json::Value::Bool(b)) => Ok(Some(b)),
        Some(other) => bail!("fio parameter `{key} = {other}`: expected true or false"),
    }
}

/// Whether flag `key` is set to a true value (`true`, a non-zero number,
/// any text but `0` and `false`).
fn flag_set(params: &Params, key: &str) -> bool {
    match params.get(key) {
        Some(serde_json::Value::Bool(b)) => *b,
        Some(serde_json::Value::Number(n)) => n.as_f64() != Some(0.0),
        Some(serde_json::Value::String(s)) => !matches!(s.trim(), "0" | "false"),
        _ => false,
    }
}

/// `--filename=<path>`: fio splits its value at `:` (several files), so a
/// colon in the path is escaped.
fn filename_arg(file: &Path) -> String {
    format!(
        "--filename={}",
        file.display().to_string().replace(':', "\\:")
    )
}

/// Seconds to write `bytes` at a modest 50 MB/s, plus one.
fn layout_estimate(bytes: u64) -> f64 {
    1.0 + bytes as f64 / 50e6
}

/// The `size` value that sizes a fio test by the target's free space.
pub const AUTO_SIZE: &str = "auto";

/// The most `size = "auto"` gives: 16 GiB.
pub const AUTO_SIZE_MAX: u64 = 16 << 30;

/// The size `size = "auto"` stands for: min(16 GiB, half the free space),
/// rounded down to a MiB and at least one; 16 GiB when the free space is
/// unknown (the run's free-space check then cannot refuse it either).
pub fn auto_size(free_bytes: Option<u64>) -> u64 {
    const MIB: u64 = 1 << 20;
    let half = free_bytes.map_or(AUTO_SIZE_MAX, |f| f / 2);
    (half.min(AUTO_SIZE_MAX) / MIB).max(1) * MIB
}

/// The fio job name of the pre-fill, and its key for a replayed run.
pub const PREFILL_NAME: &str = "prefill";

/// The pre-fill's command: one sequential write of `size` bytes over
/// `file` in 1 MiB blocks with `--refill_buffers` (fresh random data in
/// every block, so that nothing below can compress or deduplicate it),
/// flushed at the end, with the sustained tests' `ioengine` and `direct`;
/// its JSON output goes to `dir/fio.json`. Reads of the file then never
/// meet blocks a thin-provisioned volume has not allocated, nor ones it
/// answers with zeros.
pub fn prefill_command(
    file: &Path,
    size: u64,
    dir: &Path,
    ioengine: &str,
    direct: &str,
) -> Invocation {
    let out = dir.join("fio.json");
    let args = vec![
        format!("--name={PREFILL_NAME}"),
        filename_arg(file),
        "--rw=write".into(),
        "--bs=1M".into(),
        "--iodepth=16".into(),
        format!("--ioengine={ioengine}"),
        format!("--direct={direct}"),
        format!("--size={size}"),
        "--refill_buffers".into(),
        "--end_fsync=1".into(),
        "--output-format=json".into(),
        format!("--output={}", out.display()),
    ];
    let mut parameters = Params::new();
    parameters.insert("rw".into(), "write".into());
    parameters.insert("bs".into(), (1u64 << 20).into());
    parameters.insert("iodepth".into(), 16.into());
    parameters.insert("ioengine".into(), json_scalar(ioengine));
    parameters.insert("direct".into(), json_scalar(direct));
    parameters.insert("size".into(), size.into());
    parameters.insert("refill_buffers".into(), true.into());
    parameters.insert("end_fsync".into(), 1.into());
    Invocation {
        program: "fio".into(),
        args,
        env: Vec::new(),
        output: OutputFrom::File(out),
        bytes: size,
        estimate_s: layout_estimate(size),
        parameters,
        stdin: None,
    }
}

/// The prefix of the per-second logs fio writes into the job's directory
/// for a time-based test (`fio_iops.1.log`, `fio_bw.1.log`, `fio_lat.1.log`,
/// `fio_clat.1.log`, `fio_slat.1.log`).
pub const LOG_PREFIX: &str = "fio";

/// A number stays a number in the record, everything else a string.
fn json_scalar(text: &str) -> serde_json::Value {
    match text.parse::<u64>() {
        Ok(n) => n.into(),
        Err(_) => text.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The command of a test whose suite entry is `toml` (without `id`
    /// and `tool`).
    fn build(toml: &str) -> Result<Invocation> {
        let params: Params = toml::from_str(toml).unwrap();
        let ctx = BuildCtx {
            dir: Path::new("/s/t.r1"),
            memory_bytes: None,
            is_root: false,
            test_id: "t",
            free_bytes: None,
            data_file: None,
        };
        command(&params, &ctx)
    }

    fn refusal(toml: &str) -> String {
        format!("{:#}", build(toml).unwrap_err())
    }

    #[test]
    fn an_abbreviated_ramp_time_cannot_hide_the_start_of_a_time_based_test() {
        // fio 3.33 read `--ramp=2` as `--ramp_time=2`; newer fio also has `ramp_size`
        let e = refusal("time_based = true\nruntime = 20\nramp = 2");
        assert!(
            e.contains("`ramp` abbreviates 2 fio options (ramp_time, ramp_size)"),
            "{e}"
        );
        let e = refusal("time_based = true\nruntime = 20\nramp_t = 2");
        assert!(
            e.contains(
                "fio parameter `ramp_t` (fio's `ramp_time`) cannot be set on a time-based test"
            ),
            "{e}"
        );
        // a size-bound test may ramp, under fio's own name
        let i = build("runtime = 20\nramp_t = 2").unwrap();
        assert!(
            i.args.contains(&"--ramp_time=2".to_string()),
            "{:?}",
            i.args
        );
        assert_eq!(i.parameters["ramp_time"], 2);
    }

    #[test]
    fn aliases_set_the_options_the_record_states() {
        let i = build("readwrite = 'randwrite'\nbuffered = 1\nblocksize = '64k'\niodepth_lo = 4")
            .unwrap();
        for want in [
            "--rw=randwrite",
            "--direct=0",
            "--bs=64k",
            "--iodepth_low=4",
        ] {
            assert!(i.args.contains(&want.to_string()), "{want}: {:?}", i.args);
        }
        assert!(!i
            .args
            .iter()
            .any(|a| a.starts_with("--readwrite") || a.starts_with("--buffered")));
        assert_eq!(i.parameters["rw"], "randwrite");
        assert_eq!(i.parameters["direct"], 0);
        assert_eq!(i.parameters["bs"], 65536);
        assert!(!i.parameters.contains_key("readwrite"));
        assert!(!i.parameters.contains_key("buffered"));
        let e = refusal("rw = 'randread'\nreadwrite = 'randwrite'");
        assert!(
            e.contains("both set fio's `rw`, to different values"),
            "{e}"
        );
    }

    #[test]
    fn options_that_override_bs_or_direct_leave_the_record_no_false_value() {
        // fio takes its block sizes from bssplit: the record states no `bs`
        let i = build("bssplit = '4k/50:64k/50'").unwrap();
        assert!(
            !i.args.iter().any(|a| a.starts_with("--bs=")),
            "{:?}",
            i.args
        );
        assert!(i.args.contains(&"--bssplit=4k/50:64k/50".to_string()));
        assert!(!i.parameters.contains_key("bs"));
        assert_eq!(i.parameters["bssplit"], "4k/50:64k/50");
        let i = build("blocksize_range = '4k-64k'").unwrap();
        assert!(i.args.contains(&"--blocksize_range=4k-64k".to_string()));
        assert!(!i.parameters.contains_key("bs"));
        assert_eq!(i.parameters["bsrange"], "4k-64k");
        let e = refusal("bs = '4k'\nblocksize_range = '4k-64k'");
        assert_eq!(
            e,
            "fio parameters `bs` and `blocksize_range` (fio's `bsrange`) both set fio's block sizes: give one"
        );
        // atomic I/O is direct I/O
        let e = refusal("atomic = 1\nbuffered = 1");
        assert!(
            e.contains(
                "`atomic` is direct I/O, but `buffered` (fio's `direct`) asks for buffered I/O"
            ),
            "{e}"
        );
        let i = build("atomic = 1").unwrap();
        assert_eq!(i.parameters["direct"], 1);
    }

    #[test]
    fn keys_fio_cannot_resolve_are_refused_naming_them() {
        let e = refusal("iodep = 8");
        assert!(
            e.contains(
                "`iodep` abbreviates 7 fio options (iodepth, iodepth_batch, iodepth_batch_submit, "
            ),
            "{e}"
        );
        let e = refusal("xyzzy = 1");
        assert!(e.contains("fio parameter `xyzzy` is no fio option"), "{e}");
        // the engine allow-list reads the canonical name
        let e = refusal("ioeng = 'exec'");
        assert!(
            e.contains("fio parameter `ioeng = exec` (fio's `ioengine`): expected one of"),
            "{e}"
        );
        // a reserved option under an alias
        let e = refusal("log_max_value = 1");
        assert!(
            e.contains("`log_max_value` (fio's `log_window_value`) cannot be set in a suite"),
            "{e}"
        );
        let e = refusal("mem = 'mmap:/etc/x'");
        assert!(e.contains("backing file"), "{e}");
    }

    #[test]
    fn the_prefilled_and_timeline_keys_choose_the_file_and_the_logs() {
        let timed = "time_based = true\nruntime = 30";
        let logs = |i: &Invocation| i.args.iter().filter(|a| a.contains("_log")).count();
        // a time-based test keeps its per-second logs unless told not to
        assert_eq!(logs(&build(timed).unwrap()), 3);
        let quiet = build(&format!("{timed}\ntimeline = false")).unwrap();
        assert_eq!(logs(&quiet), 0);
        assert!(!quiet.args.iter().any(|a| a.contains("timeline")));
        assert!(!quiet.parameters.contains_key("timeline"));
        // the pre-filled file is read in place of the test's own
        let params: Params = toml::from_str("prefilled = true\nsize = '64M'").unwrap();
        let ctx = BuildCtx {
            dir: Path::new("/s/t.r1"),
            memory_bytes: None,
            is_root: false,
            test_id: "t",
            free_bytes: None,
            data_file: Some(Path::new("/s/prefill/fio.dat")),
        };
        let i = command(&params, &ctx).unwrap();
        assert_eq!(i.args[1], "--filename=/s/prefill/fio.dat");
        assert_eq!(i.bytes, 0);
        assert_eq!(i.parameters["prefilled"], true);
        assert!(!i.args.iter().any(|a| a.contains("prefilled")));
        // without a pre-filled file to read, or not a boolean: refused by name
        let e = refusal("prefilled = true");
        assert!(
            e.contains("`prefilled = true`: this run has no pre-filled file"),
            "{e}"
        );
        let e = refusal("timeline = 'no'");
        assert!(
            e.contains("fio parameter `timeline = \"no\"`: expected true or false"),
            "{e}"
        );
    }

    #[test]
    fn options_that_write_past_the_size_checked_against_free_space_are_refused() {
        for (key, canonical) in [
            ("fill_fs = 1", "`fill_fs` (fio's `fill_device`)"),
            ("fill_device = 1", "`fill_device`"),
            ("filesize = '100g'", "`filesize`"),
            ("file_append = 1", "`file_append`"),
            ("nr_files = 8", "`nr_files` (fio's `nrfiles`)"),
        ] {
            let e = refusal(key);
            assert!(
                e.contains(&format!(
                    "fio parameter {canonical} cannot be set in a suite"
                )) && e.contains("checks against the target's free space"),
                "{key}: {e}"
            );
        }
        // io_size repeats I/O over the same file: no more space
        let with = build("io_size = '4g'").unwrap();
        assert_eq!(with.bytes, build("").unwrap().bytes);
        assert_eq!(with.parameters["io_size"], "4g");
    }
}
