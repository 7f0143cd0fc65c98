//! ioping's command line built from a suite's parameters.

use anyhow::{bail, Result};

use crate::tools::argv::{parse_size, BuildCtx, Invocation, OutputFrom, ParamReader, Params};
use crate::units::{self, split_number};

const IOPING_PARAMS: &[&str] = &[
    "count",
    "interval",
    "work_time",
    "size",
    "work_size",
    "rapid",
    "linear",
    "cached",
    "direct",
];

/// Builds `ioping -B [-c N] [-i T] [-w T] [-s SIZE] [-S SIZE] [-RLCD] DIR`.
/// `-B` (batch) prints the final statistics as raw integers, so nothing is
/// lost to rounding. Flags `rapid`, `linear`, `cached`, `direct` become one
/// `-RLCD` group in that order.
pub fn command(params: &Params, ctx: &BuildCtx) -> Result<Invocation> {
    let mut p = ParamReader::new("ioping", params, ctx.memory_bytes);
    let mut args = vec!["-B".to_string()];
    let mut parameters = Params::new();
    let count = p.count("count")?;
    if let Some(c) = count {
        args.push("-c".into());
        args.push(c.to_string());
        parameters.insert("count".into(), c.into());
    }
    let mut seconds = |key: &str, flag: &str, args: &mut Vec<String>| -> Result<Option<f64>> {
        let Some(v) = p.string(key)? else {
            return Ok(None);
        };
        let secs = match split_number(&v) {
            Some((n, "")) => n,
            Some((n, unit)) => units::seconds(n, unit).ok_or_else(|| {
                anyhow::anyhow!("ioping parameter `{key} = {v}`: unknown time unit")
            })?,
            None => bail!("ioping parameter `{key} = {v}`: expected a time such as 0.2 or 3s"),
        };
        args.push(flag.into());
        args.push(v.clone());
        // in seconds, as imported records have it
        parameters.insert(key.into(), secs.into());
        Ok(Some(secs))
    };
    let interval = seconds("interval", "-i", &mut args)?;
    let work_time = seconds("work_time", "-w", &mut args)?;
    let mut work_size = None;
    for (key, flag) in [("size", "-s"), ("work_size", "-S")] {
        if let Some(v) = p.string(key)? {
            let bytes = parse_size(&v, ctx.memory_bytes)
                .map_err(|e| anyhow::anyhow!("ioping parameter `{key}`: {e}"))?;
            args.push(flag.into());
            args.push(bytes.to_string());
            parameters.insert(key.into(), bytes.into());
            if key == "work_size" {
                work_size = Some(bytes);
            }
        }
    }
    let mut group = String::new();
    for (key, letter) in [
        ("rapid", 'R'),
        ("linear", 'L'),
        ("cached", 'C'),
        ("direct", 'D'),
    ] {
        if p.flag(key)? {
            group.push(letter);
        }
    }
    // the mode letters, as imported and transcribed records name them
    parameters.insert("flags".into(), group.clone().into());
    let rapid = group.starts_with('R');
    if !group.is_empty() {
        args.push(format!("-{group}"));
    }
    p.finish(IOPING_PARAMS)?;
    if count.is_none() && work_time.is_none() && !rapid {
        bail!("ioping: give `count`, `work_time` or `rapid = true`, or it never stops");
    }
    args.push(ctx.dir.display().to_string());
    // rapid mode runs 3 s unless -w says otherwise; otherwise one request per interval
    let estimate = match (work_time, count) {
        (Some(w), _) => w,
        (None, _) if rapid => 3.0,
        (None, Some(c)) => c as f64 * interval.unwrap_or(1.0),
        (None, None) => 3.0,
    };
    Ok(Invocation {
        program: "ioping".into(),
        args,
        env: Vec::new(),
        output: OutputFrom::Stdout,
        // ioping's temporary file is its working set (1 MiB unless -S); rapid
        // modes are counted at 64 MiB to be safe
        bytes: work_size.unwrap_or(if rapid { 64 << 20 } else { 1 << 20 }),
        estimate_s: estimate,
        parameters,
        stdin: None,
    })
}
