//! `fio`: building its command line and parsing its output.

use anyhow::{bail, Result};

use super::Parsed;

// ---------------------------------------------------------------- parsing

/// Whether `text` looks like output of this tool.
pub fn looks_like(_text: &str) -> bool {
    false
}

/// Parses the tool's output into metrics in canonical units.
pub fn parse(_text: &str) -> Result<Vec<Parsed>> {
    bail!("the fio parser is not written yet")
}

// ----------------------------------------------------------- command line

use crate::run::plan::{BuildCtx, Invocation, OutputFrom, ParamReader, Params};

/// Options that would send fio's I/O or output somewhere other than the
/// job's scratch directory, so a suite may not set them.
const RESERVED: &[&str] = &[
    "name",
    "filename",
    "directory",
    "filename_format",
    "output",
    "output-format",
    "write_iolog",
    "write_bw_log",
    "write_lat_log",
    "write_iops_log",
    "write_hist_log",
    "exec_prerun",
    "exec_postrun",
];

/// Builds `fio --name=<id> --filename=<dir>/fio.dat --rw=.. --bs=..
/// --iodepth=.. --ioengine=.. --direct=.. --size=.. [--runtime=..]
/// --output-format=json --output=<dir>/fio.json`. Known parameters come in
/// that order; any other key is passed on as `--key=value` (sorted), except
/// those that would point fio outside the scratch directory.
pub fn command(params: &Params, ctx: &BuildCtx) -> Result<Invocation> {
    let mut p = ParamReader::new("fio", params, ctx.memory_bytes);
    let file = ctx.dir.join("fio.dat");
    let out = ctx.dir.join("fio.json");
    let mut args = vec![
        format!("--name={}", ctx.test_id),
        format!("--filename={}", file.display()),
    ];
    let mut parameters = Params::new();
    let defaults = [
        ("rw", "read"),
        ("bs", "4k"),
        ("iodepth", "1"),
        ("ioengine", "libaio"),
        ("direct", "1"),
    ];
    for (key, default) in defaults {
        let v = p.string(key)?.unwrap_or_else(|| default.to_string());
        args.push(format!("--{key}={v}"));
        parameters.insert(key.into(), json_scalar(&v));
    }
    let size_text = p.string("size")?.unwrap_or_else(|| "1G".to_string());
    let size = crate::run::plan::parse_size(&size_text, ctx.memory_bytes)
        .map_err(|e| anyhow::anyhow!("fio parameter `size`: {e}"))?;
    // fio takes plain sizes itself; an `NxRAM` size is passed resolved
    let size_arg = if size_text.contains("RAM") || size_text.contains("ram") {
        size.to_string()
    } else {
        size_text.clone()
    };
    args.push(format!("--size={size_arg}"));
    parameters.insert("size".into(), size.into());
    let runtime = p.count("runtime")?;
    let mut estimate = 1.0 + size as f64 / 50e6;
    if let Some(r) = runtime {
        args.push(format!("--runtime={r}"));
        parameters.insert("runtime".into(), r.into());
        estimate = estimate.min(1.0 + r as f64);
    }
    for (k, v) in p.rest() {
        if RESERVED.contains(&k.as_str()) {
            bail!(
                "fio parameter `{k}` cannot be set in a suite: diskdash chooses where fio writes"
            );
        }
        match v {
            serde_json::Value::Bool(true) => args.push(format!("--{k}")),
            serde_json::Value::Bool(false) => continue,
            serde_json::Value::String(s) => args.push(format!("--{k}={s}")),
            serde_json::Value::Number(n) => args.push(format!("--{k}={n}")),
            other => bail!("fio parameter `{k} = {other}`: expected a string, number or boolean"),
        }
        parameters.insert(k.clone(), v.clone());
    }
    args.push("--output-format=json".into());
    args.push(format!("--output={}", out.display()));
    Ok(Invocation {
        program: "fio".into(),
        args,
        env: Vec::new(),
        output: OutputFrom::File(out),
        bytes: size,
        estimate_s: estimate,
        parameters,
    })
}

/// A number stays a number in the record, everything else a string.
fn json_scalar(text: &str) -> serde_json::Value {
    match text.parse::<u64>() {
        Ok(n) => n.into(),
        Err(_) => text.into(),
    }
}
