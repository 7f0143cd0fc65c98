//! dd's command line built from a suite's parameters.

use anyhow::{bail, Context, Result};

use crate::tools::argv::{BuildCtx, Feed, Invocation, OutputFrom, ParamReader, Params};

const DD_PARAMS: &[&str] = &["bs", "count", "size", "conv", "oflag", "iflag"];

/// The record parameter `input` of a dd test `run` feeds, saying what dd
/// read: bytes no storage can compress or deduplicate.
pub const INCOMPRESSIBLE: &str = "incompressible";

/// Builds `dd of=<dir>/dd.dat bs=.. count=.. iflag=fullblock [conv=..]
/// [oflag=..]` under `LC_ALL=C` (so the summary line is parsed in one
/// language), reading incompressible bytes diskdash writes to its standard
/// input (a [`Feed`] of exactly `bs` × `count` bytes), not `/dev/zero`,
/// whose zeros compressing or deduplicating storage barely writes.
/// `iflag=fullblock` makes dd gather whole blocks from the pipe, which
/// hands it at most 64 KiB a read: without it, `count` would count short
/// reads and dd would write fewer bytes in smaller blocks than asked.
/// Parameters: `bs` (default `1M`), and `count` (blocks, `1k` = 1024) or
/// `size` (total bytes, `2xRAM`); `conv`, `oflag`, `iflag` as dd takes them
/// (`fullblock` is added to a suite's `iflag`). The record's parameters
/// say `input = "incompressible"`.
pub fn command(params: &Params, ctx: &BuildCtx) -> Result<Invocation> {
    let mut p = ParamReader::new("dd", params, ctx.memory_bytes);
    let bs_text = p.string("bs")?.unwrap_or_else(|| "1M".to_string());
    let (bs, _) = dd_number(&bs_text).context("dd parameter `bs`")?;
    if bs == 0 {
        bail!("dd parameter `bs = {bs_text}`: expected a block size above zero");
    }
    let count_text = p.string("count")?;
    let size = p.size("size")?;
    let (count, count_arg) = match (count_text, size) {
        (Some(_), Some(_)) => bail!("dd: give `count` or `size`, not both"),
        (Some(c), None) => {
            let (n, bytes) = dd_number(&c).context("dd parameter `count`")?;
            if bytes {
                bail!(
                    "dd parameter `count = {c}`: dd counts bytes, not blocks, for a number ending in B; give `size` for an amount of bytes"
                );
            }
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
        format!("of={}", out_file.display()),
        format!("bs={bs_text}"),
        format!("count={count_arg}"),
    ];
    let mut parameters = Params::new();
    // in bytes, as imported records have it
    parameters.insert("bs".into(), bs.into());
    parameters.insert("count".into(), count.into());
    let iflag = match p.string("iflag")? {
        Some(v) if v.split(',').any(|f| f.trim() == "fullblock") => v,
        Some(v) if !v.trim().is_empty() => format!("fullblock,{v}"),
        _ => "fullblock".to_string(),
    };
    args.push(format!("iflag={iflag}"));
    parameters.insert("iflag".into(), iflag.into());
    for key in ["conv", "oflag"] {
        if let Some(v) = p.string(key)? {
            args.push(format!("{key}={v}"));
            parameters.insert(key.into(), v.into());
        }
    }
    p.finish(DD_PARAMS)?;
    let bytes = bs.saturating_mul(count);
    parameters.insert("bytes".into(), bytes.into());
    parameters.insert("input".into(), INCOMPRESSIBLE.into());
    Ok(Invocation {
        program: "dd".into(),
        args,
        env: vec![("LC_ALL".into(), "C".into())],
        output: OutputFrom::Stderr,
        bytes,
        // a pessimistic 100 MB/s until a repetition has been measured
        estimate_s: 0.5 + bytes as f64 / 100e6,
        parameters,
        stdin: Some(Feed {
            bytes,
            seed: Feed::seed_for(&out_file),
        }),
    })
}

/// A number as GNU dd reads its operands: whole digits and an optional
/// suffix, `c` 1, `w` 2, `b` 512, `k`/`K`, `M`, `G`, `T`, `P`, `E` powers of
/// 1024 (also with `iB`: `MiB`), and with `B` powers of 1000 (`kB`, `MB`).
/// `1MB` is 1,000,000 bytes to dd, so the record's sizes must read it so.
/// Also returns whether the text ends in `B` (dd then counts a `count` in
/// bytes). Fractions, hex and dd's `x` products are refused.
fn dd_number(text: &str) -> Result<(u64, bool)> {
    let t = text.trim();
    let expected = || {
        anyhow::anyhow!(
            "`{text}`: expected a whole number with an optional dd suffix (k, M, G; kB, MB for powers of 1000; c, w, b)"
        )
    };
    let end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, suffix) = t.split_at(end);
    let n: u64 = digits.parse().map_err(|_| expected())?;
    let mult: u64 = match suffix {
        "" | "c" => 1,
        "w" => 2,
        "b" => 512,
        _ => {
            let mut chars = suffix.chars();
            let power = match chars.next() {
                Some('k' | 'K') => 1,
                Some('M') => 2,
                Some('G') => 3,
                Some('T') => 4,
                Some('P') => 5,
                Some('E') => 6,
                _ => return Err(expected()),
            };
            let base: u64 = match chars.as_str() {
                "" | "iB" => 1024,
                "B" => 1000,
                _ => return Err(expected()),
            };
            base.checked_pow(power).ok_or_else(expected)?
        }
    };
    let value = n
        .checked_mul(mult)
        .ok_or_else(|| anyhow::anyhow!("`{text}`: too large"))?;
    Ok((value, suffix.ends_with('B')))
}
