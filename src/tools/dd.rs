//! `dd`: building its command line and parsing its output.

use anyhow::{bail, Result};

use super::Parsed;

// ---------------------------------------------------------------- parsing

/// Whether `text` looks like output of this tool.
pub fn looks_like(_text: &str) -> bool {
    false
}

/// Parses the tool's output into metrics in canonical units.
pub fn parse(_text: &str) -> Result<Vec<Parsed>> {
    bail!("the dd parser is not written yet")
}

// ----------------------------------------------------------- command line

use crate::run::plan::{BuildCtx, Invocation, OutputFrom, ParamReader, Params};

const DD_PARAMS: &[&str] = &["bs", "count", "size", "conv", "oflag", "iflag"];

/// Builds `dd if=/dev/zero of=<dir>/dd.dat bs=.. count=.. [conv=..] [oflag=..]`
/// under `LC_ALL=C` (so the summary line is parsed in one language).
/// Parameters: `bs` (default `1M`), and `count` (blocks, `1k` = 1024) or
/// `size` (total bytes, `2xRAM`); `conv`, `oflag`, `iflag` as dd takes them.
pub fn command(params: &Params, ctx: &BuildCtx) -> Result<Invocation> {
    let mut p = ParamReader::new("dd", params, ctx.memory_bytes);
    let bs_text = p.string("bs")?.unwrap_or_else(|| "1M".to_string());
    let bs = crate::run::plan::parse_size(&bs_text, None)
        .map_err(|e| anyhow::anyhow!("dd parameter `bs`: {e}"))?;
    if bs == 0 {
        bail!("dd parameter `bs = {bs_text}`: expected a block size above zero");
    }
    let count_text = p.string("count")?;
    let size = p.size("size")?;
    let (count, count_arg) = match (count_text, size) {
        (Some(_), Some(_)) => bail!("dd: give `count` or `size`, not both"),
        (Some(c), None) => {
            let n = crate::run::plan::parse_size(&c, None)
                .map_err(|e| anyhow::anyhow!("dd parameter `count`: {e}"))?;
            (n, c)
        }
        (None, Some(s)) => {
            let n = (s / bs).max(1);
            (n, n.to_string())
        }
        (None, None) => bail!("dd: expected `count` (blocks) or `size` (bytes)"),
    };
    let out_file = ctx.dir.join("dd.dat");
    let mut args = vec![
        "if=/dev/zero".to_string(),
        format!("of={}", out_file.display()),
        format!("bs={bs_text}"),
        format!("count={count_arg}"),
    ];
    let mut parameters = Params::new();
    parameters.insert("bs".into(), bs_text.clone().into());
    parameters.insert("count".into(), count.into());
    for key in ["conv", "oflag", "iflag"] {
        if let Some(v) = p.string(key)? {
            args.push(format!("{key}={v}"));
            parameters.insert(key.into(), v.into());
        }
    }
    p.finish(DD_PARAMS)?;
    let bytes = bs.saturating_mul(count);
    parameters.insert("bytes".into(), bytes.into());
    Ok(Invocation {
        program: "dd".into(),
        args,
        env: vec![("LC_ALL".into(), "C".into())],
        output: OutputFrom::Stderr,
        bytes,
        // a pessimistic 100 MB/s until a repetition has been measured
        estimate_s: 0.5 + bytes as f64 / 100e6,
        parameters,
    })
}
