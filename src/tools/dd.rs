//! `dd`: building its command line and parsing its output.
//!
//! The parser reads dd's final summary line in every form people have
//! pasted over the years:
//!
//! - coreutils 5.x: `9437184000 bytes (9.4 GB) copied, 34.6279 seconds, 273 MB/s`
//! - coreutils 6.1 to 8.24: `134217728 bytes (134 MB) copied, 0.25 s, 537 MB/s`
//! - coreutils 8.25 on: `134217728 bytes (134 MB, 128 MiB) copied, 0.300751 s, 446 MB/s`
//! - coreutils 9.x: `1 byte copied, 0.000144264 s, 6.9 kB/s`
//! - BusyBox: `134217728 bytes (128.0MB) copied, 0.123456 seconds, 1.0GB/s`
//!
//! Seconds may be printed with `%g` (`2.4e-05 s`) and the rate may be
//! `Infinity B/s`. Lines holding a carriage return are `status=progress`
//! updates and never count as the summary. Every summary line (outside
//! progress) is one result, so a log of several runs gives several results;
//! each takes the `N+M records in/out` lines and the pasted command line
//! (`$ dd if=/dev/zero of=test bs=8k count=16k oflag=dsync`) above it.
//!
//! Metrics: `bytes` (B) always; `elapsed` (s) and the bandwidth, bytes
//! divided by seconds (more exact than the rounded rate dd prints), only
//! when dd measured a time above zero, a finite rate and more than zero
//! bytes. So `0 s, Infinity B/s` gives only `bytes`. The bandwidth is
//! `read_bw` when the pasted command writes to `/dev/null`, else `write_bw`
//! (dd's usual benchmark, also when no command line is in the text).
//!
//! Parameters: from the command line `if`, `of`, `conv`, `oflag`, `iflag`
//! as written and `bs`, `ibs`, `obs`, `count` as numbers (see
//! [`parse_size`]); from the output `records_in`, `records_out` (full
//! records) and `records_in_partial`, `records_out_partial`. The version
//! comes from a `dd (coreutils) 9.1` or `BusyBox v1.36.1` line as
//! `coreutils 9.1` or `busybox 1.36.1`.
//!
//! Output in another language (`Bytes (134 MB, 128 MiB) kopiert, 0,25 s`,
//! `octets`, decimal commas) is refused with an error asking for
//! `LC_ALL=C`: guessing at translated words could misread a number.

use std::collections::BTreeMap;

use anyhow::{bail, Context, Result};
use serde_json::Value;

use super::argv::{BuildCtx, Invocation, OutputFrom, ParamReader, Params};
use super::{first_line, Parsed, ToolSpec};
use crate::record::{Metric, Tool};
use crate::units::{split_number, Unit};

// ---------------------------------------------------------------- parsing

/// What a dd test measures: writing a file, or reading one to `/dev/null`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// `if=/dev/zero of=FILE`: the bandwidth is `write_bw`.
    Write,
    /// `if=FILE of=/dev/null`: the bandwidth is `read_bw`.
    Read,
}

/// Whether `text` looks like output of this tool: a summary line, an
/// `N+M records in` line, or the same lines in another language (so that
/// `import` can say to rerun under `LC_ALL=C` instead of "unrecognised").
pub fn looks_like(text: &str) -> bool {
    output_lines(text).any(|line| match line {
        Line::Normal(l) => {
            !matches!(summary(l), SummaryLine::No) || records_line(l).is_some() || foreign_line(l)
        }
        // an interrupted run leaves only progress updates: still dd's
        Line::Progress(l) => l
            .split('\r')
            .any(|seg| matches!(summary(seg), SummaryLine::Yes(_))),
    })
}

/// Parses dd's output into one result per summary line, in canonical units.
///
/// Fails when there is no summary line (naming the form expected), when only
/// `status=progress` updates are present, and when the output is in another
/// language than C/English (asking for `LC_ALL=C`).
pub fn parse(text: &str) -> Result<Vec<Parsed>> {
    let version = text.lines().find_map(version_line);
    let mut results = Vec::new();
    let mut command: Option<PastedCommand> = None;
    let mut records: BTreeMap<String, Value> = BTreeMap::new();
    let mut saw_progress = false;
    for line in output_lines(text) {
        let line = match line {
            Line::Progress(_) => {
                saw_progress = true;
                continue;
            }
            Line::Normal(l) => l,
        };
        if let Some(cmd) = command_line(line) {
            command = Some(cmd);
            records.clear();
            continue;
        }
        if let Some((key, full, partial)) = records_line(line) {
            records.insert(format!("records_{key}"), Value::from(full));
            records.insert(format!("records_{key}_partial"), Value::from(partial));
            continue;
        }
        match summary(line) {
            SummaryLine::No => {
                if foreign_line(line) {
                    bail!(locale_error(line));
                }
            }
            SummaryLine::Foreign => bail!(locale_error(line)),
            SummaryLine::Yes(s) => {
                results.push(result(&s, command.take(), &records, version.clone()));
                records.clear();
            }
        }
    }
    if results.is_empty() {
        if saw_progress {
            bail!("dd output holds only status=progress updates, no final summary line (`N bytes (...) copied, T s, R MB/s`); was dd interrupted?");
        }
        bail!("no dd summary line found (expected `N bytes (...) copied, T s, R MB/s` as dd prints it under LC_ALL=C)");
    }
    Ok(results)
}

/// The error for output dd printed in another language.
fn locale_error(line: &str) -> String {
    format!(
        "dd output is not in the C locale (`{}`): translated words and decimal commas cannot be read safely; run dd under `LC_ALL=C` and import that output",
        line.trim()
    )
}

/// One line of output, with `status=progress` updates told apart.
enum Line<'a> {
    /// A line as dd ends it with a newline.
    Normal(&'a str),
    /// A line holding carriage returns: progress updates dd overwrote.
    Progress(&'a str),
}

/// The text's lines; a trailing `\r` (CRLF files) does not make a line a
/// progress line, an inner one does.
fn output_lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    text.split('\n').map(|l| {
        let l = l.strip_suffix('\r').unwrap_or(l);
        if l.contains('\r') {
            Line::Progress(l)
        } else {
            Line::Normal(l)
        }
    })
}

/// A summary line's numbers.
#[derive(Debug, PartialEq)]
struct Summary {
    bytes: u64,
    seconds: f64,
    infinite_rate: bool,
}

/// What a line is, seen as a summary line.
#[derive(Debug, PartialEq)]
enum SummaryLine {
    /// Not a summary line.
    No,
    /// A summary line in the C locale.
    Yes(Summary),
    /// A summary line with English words but a decimal comma, or otherwise
    /// unreadable in a way that a locale explains.
    Foreign,
}

/// Reads `N byte(s) [(...)] copied, T s|seconds, RATE`.
fn summary(line: &str) -> SummaryLine {
    let t = line.trim();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let (Some(num), Some(rest)) = (t.get(..digits), t.get(digits..)) else {
        return SummaryLine::No;
    };
    if num.is_empty() {
        return SummaryLine::No;
    }
    let Some(rest) = rest
        .strip_prefix(" bytes")
        .or_else(|| rest.strip_prefix(" byte"))
    else {
        return SummaryLine::No;
    };
    let Some(copied) = rest.find("copied, ") else {
        return SummaryLine::No;
    };
    // between the word and "copied": nothing, or one parenthesised size
    let between = rest.get(..copied).unwrap_or("").trim();
    if !(between.is_empty() || (between.starts_with('(') && between.ends_with(')'))) {
        return SummaryLine::No;
    }
    let Ok(bytes) = num.parse::<u64>() else {
        return SummaryLine::No;
    };
    let after = rest.get(copied + "copied, ".len()..).unwrap_or("");
    let Some((seconds, tail)) = split_number(after) else {
        return SummaryLine::Foreign;
    };
    // "0,25 s": the comma is a decimal comma, not a field separator
    if tail.starts_with(',')
        && tail
            .get(1..2)
            .is_some_and(|c| c.bytes().all(|b| b.is_ascii_digit()))
    {
        return SummaryLine::Foreign;
    }
    let Some(tail) = tail
        .strip_prefix("seconds")
        .or_else(|| tail.strip_prefix("second"))
        .or_else(|| tail.strip_prefix('s'))
    else {
        return SummaryLine::Foreign;
    };
    if seconds < 0.0 {
        return SummaryLine::No;
    }
    let rate = tail.trim_start().strip_prefix(',').unwrap_or("").trim();
    SummaryLine::Yes(Summary {
        bytes,
        seconds,
        infinite_rate: rate.starts_with("Infinity") || rate.starts_with("inf"),
    })
}

/// `N+M records in` / `N+M records out`: `("in"|"out", N, M)`.
fn records_line(line: &str) -> Option<(&'static str, u64, u64)> {
    let (counts, words) = line.trim().split_once(' ')?;
    let key = match words.trim() {
        "records in" => "in",
        "records out" => "out",
        _ => return None,
    };
    let (full, partial) = counts.split_once('+')?;
    Some((key, full.parse().ok()?, partial.parse().ok()?))
}

/// A line that is dd output in another language: `N+M <words>` records
/// lines, or summaries `N <word> (...) <word>, T, RATE` whose word is not
/// `byte(s)`, recognised by a parenthesised size or a decimal comma.
fn foreign_line(line: &str) -> bool {
    let t = line.trim();
    let Some((first, words)) = t.split_once(' ') else {
        return false;
    };
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if let Some((full, partial)) = first.split_once('+') {
        return numeric(full) && numeric(partial) && !words.starts_with("records ");
    }
    let rate_last = t.rsplit(", ").next().is_some_and(|f| f.contains('/'));
    let decimal_comma = t.as_bytes().windows(3).any(|w| {
        w.first().is_some_and(u8::is_ascii_digit)
            && w.get(1) == Some(&b',')
            && w.get(2).is_some_and(u8::is_ascii_digit)
    });
    numeric(first)
        && !words.starts_with("byte")
        && t.contains(", ")
        && rate_last
        && (words.contains('(') || decimal_comma)
}

/// `dd (coreutils) 9.1`, `dd (GNU coreutils) 8.32`, `BusyBox v1.36.1 ...`.
fn version_line(line: &str) -> Option<String> {
    let t = line.trim();
    if let Some(rest) = t.strip_prefix("dd (") {
        let (package, version) = rest.split_once(") ")?;
        if package.ends_with("coreutils") {
            let v = version.split_whitespace().next()?;
            return Some(format!("coreutils {v}"));
        }
    }
    let rest = t.strip_prefix("BusyBox v")?;
    let v = rest.split_whitespace().next()?;
    Some(format!("busybox {v}"))
}

/// A dd command line pasted above the output.
#[derive(Clone, Debug, Default, PartialEq)]
struct PastedCommand {
    /// From `dd` to the end of the line.
    text: String,
    /// `key=value` operands as written.
    operands: BTreeMap<String, String>,
}

/// The operands whose presence makes a line a dd command line.
const OPERANDS: [&str; 10] = [
    "if", "of", "bs", "ibs", "obs", "count", "conv", "oflag", "iflag", "status",
];

/// A line running dd (`$ dd if=... of=...`, `sudo dd ...`,
/// `LC_ALL=C /bin/dd ...`): the command from `dd` on, with its operands.
fn command_line(line: &str) -> Option<PastedCommand> {
    let mut offset = 0;
    let mut start = None;
    for token in line.split(' ') {
        let t = token.trim();
        if t == "dd" || t.ends_with("/dd") {
            start = Some(offset + token.find(t).unwrap_or(0));
            break;
        }
        offset += token.len() + 1;
    }
    let text = line.get(start?..)?.trim();
    let mut operands = BTreeMap::new();
    for token in text.split_whitespace().skip(1) {
        let token = token.trim_matches(|c| c == '"' || c == '\'');
        if let Some((k, v)) = token.split_once('=') {
            if OPERANDS.contains(&k) {
                operands.insert(
                    k.to_string(),
                    v.trim_matches(|c| c == '"' || c == '\'').to_string(),
                );
            }
        }
    }
    (!operands.is_empty()).then(|| PastedCommand {
        text: text.to_string(),
        operands,
    })
}

/// Reads one dd command line (`dd if=/dev/zero of=f bs=8k count=16k
/// oflag=dsync`, also after a prompt, `sudo` or `LC_ALL=C`) into its test
/// id, parameters and command, with no metrics: the same reading [`parse`]
/// gives a command line pasted above dd's output.
///
/// Fails when the line runs no dd with a known operand or when its block
/// size cannot be read (so no test id can be given).
pub fn read_command(line: &str) -> Result<Parsed> {
    let Some(cmd) = command_line(line) else {
        bail!(
            "`{line}`: expected a dd command line with operands such as \
             `dd if=/dev/zero of=FILE bs=8k count=16k`"
        );
    };
    let mut parsed = Parsed::default();
    apply_command(&mut parsed, cmd);
    if parsed.test_id.is_none() {
        bail!("`{line}`: expected a block size dd reads (`bs=8k`, `bs=1M`)");
    }
    Ok(parsed)
}

/// The command's parameters, test id and text onto a result; returns the
/// direction it measures (a read when it writes to `/dev/null`).
fn apply_command(parsed: &mut Parsed, cmd: PastedCommand) -> Direction {
    let op = |k: &str| cmd.operands.get(k).map(String::as_str);
    for key in ["if", "of", "conv", "oflag", "iflag"] {
        if let Some(v) = op(key) {
            parsed.parameters.insert(key.to_string(), Value::from(v));
        }
    }
    for key in ["bs", "ibs", "obs", "count"] {
        if let Some(v) = op(key) {
            let value = parse_size(v).map_or_else(|| Value::from(v), Value::from);
            parsed.parameters.insert(key.to_string(), value);
        }
    }
    let direction = if op("of") == Some("/dev/null") {
        Direction::Read
    } else {
        Direction::Write
    };
    // dd's default block size is 512; obs/ibs stand in for bs per side
    let side = match direction {
        Direction::Write => "obs",
        Direction::Read => "ibs",
    };
    let bs = op("bs").or_else(|| op(side)).map_or(Some(512), parse_size);
    if let Some(bs) = bs {
        parsed.test_id = Some(test_id(
            direction,
            bs,
            op("conv").unwrap_or(""),
            op("oflag").unwrap_or(""),
            op("iflag").unwrap_or(""),
        ));
    }
    parsed.command = Some(cmd.text);
    direction
}

/// Builds one result from a summary and what stood above it.
fn result(
    s: &Summary,
    command: Option<PastedCommand>,
    records: &BTreeMap<String, Value>,
    version: Option<String>,
) -> Parsed {
    let mut parsed = Parsed {
        parameters: records.clone(),
        tool_version: version,
        ..Parsed::default()
    };
    let direction = command.map_or(Direction::Write, |cmd| apply_command(&mut parsed, cmd));
    let m = &mut parsed.metrics;
    m.insert("bytes".into(), Metric::new(s.bytes as f64, Unit::Bytes));
    if s.seconds > 0.0 && !s.infinite_rate {
        m.insert("elapsed".into(), Metric::new(s.seconds, Unit::Seconds));
        if s.bytes > 0 {
            let name = match direction {
                Direction::Write => "write_bw",
                Direction::Read => "read_bw",
            };
            m.insert(
                name.into(),
                Metric::new(s.bytes as f64 / s.seconds, Unit::BytesPerSec),
            );
        }
    }
    parsed
}

/// Parses a dd size operand (`bs=`, `count=`) into a number.
///
/// Suffixes as GNU dd reads them: `c` 1, `w` 2, `b` 512, `kB` 1000,
/// `K`/`k`/`KiB` 1024, `MB` 10⁶, `M`/`MiB` 2²⁰, and so on up to `E`; BSD
/// dd's lowercase `m` and `g` are read as 2²⁰ and 2³⁰. `AxB` multiplies.
/// `None` for anything else or on overflow.
pub fn parse_size(text: &str) -> Option<u64> {
    let text = text.trim();
    if let Some((a, b)) = text.split_once('x') {
        return parse_size(a)?.checked_mul(parse_size(b)?);
    }
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let number: u64 = text.get(..digits)?.parse().ok()?;
    let suffix = text.get(digits..)?;
    let multiplier: u64 = match suffix {
        "" | "c" => 1,
        "w" => 2,
        "b" => 512,
        _ => {
            let (letter, unit) = suffix.split_at_checked(1)?;
            let power = match letter {
                "K" | "k" => 1,
                "M" | "m" => 2,
                "G" | "g" => 3,
                "T" => 4,
                "P" => 5,
                "E" => 6,
                _ => return None,
            };
            let base: u64 = match unit {
                "" | "iB" => 1024,
                "B" => 1000,
                _ => return None,
            };
            base.checked_pow(power)?
        }
    };
    number.checked_mul(multiplier)
}

/// The test id of a dd run, the same for `run` and `import`.
///
/// `conv`, `oflag` and `iflag` are dd's comma-separated operand values
/// (empty when absent). A write's sync mode joins, in this order,
/// `fdatasync` (conv=fdatasync), `fsync` (conv=fsync), `dsync`
/// (oflag=dsync), `sync` (oflag=sync) and `direct` (oflag=direct) with `-`.
/// A 1 MiB write with `fdatasync` alone is `dd-write-bulk`; other writes are
/// `dd-write-<bs>[-<sync>]` (`dd-write-128k-fdatasync`, `dd-write-1m`).
/// A read is `dd-read-<bs>`, with `-direct` for iflag=direct.
pub fn test_id(direction: Direction, bs: u64, conv: &str, oflag: &str, iflag: &str) -> String {
    let has = |list: &str, word: &str| list.split(',').any(|w| w.trim() == word);
    let bs_text = crate::units::short_size(bs);
    match direction {
        Direction::Read => {
            if has(iflag, "direct") {
                format!("dd-read-{bs_text}-direct")
            } else {
                format!("dd-read-{bs_text}")
            }
        }
        Direction::Write => {
            let modes: Vec<&str> = [
                (conv, "fdatasync"),
                (conv, "fsync"),
                (oflag, "dsync"),
                (oflag, "sync"),
                (oflag, "direct"),
            ]
            .into_iter()
            .filter(|(list, word)| has(list, word))
            .map(|(_, word)| word)
            .collect();
            if bs == 1024 * 1024 && modes == ["fdatasync"] {
                "dd-write-bulk".to_string()
            } else if modes.is_empty() {
                format!("dd-write-{bs_text}")
            } else {
                format!("dd-write-{bs_text}-{}", modes.join("-"))
            }
        }
    }
}

// ----------------------------------------------------------- command line

const DD_PARAMS: &[&str] = &["bs", "count", "size", "conv", "oflag", "iflag"];

/// Builds `dd if=/dev/zero of=<dir>/dd.dat bs=.. count=.. [conv=..] [oflag=..]`
/// under `LC_ALL=C` (so the summary line is parsed in one language).
/// Parameters: `bs` (default `1M`), and `count` (blocks, `1k` = 1024) or
/// `size` (total bytes, `2xRAM`); `conv`, `oflag`, `iflag` as dd takes them.
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
        "if=/dev/zero".to_string(),
        format!("of={}", out_file.display()),
        format!("bs={bs_text}"),
        format!("count={count_arg}"),
    ];
    let mut parameters = Params::new();
    // in bytes, as imported records have it
    parameters.insert("bs".into(), bs.into());
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

// --------------------------------------------------------------- registry

/// dd in the tool registry.
pub struct Dd;

impl ToolSpec for Dd {
    fn tool(&self) -> Tool {
        Tool::Dd
    }

    fn looks_like(&self, text: &str) -> bool {
        looks_like(text)
    }

    fn parse(&self, text: &str) -> Result<Vec<Parsed>> {
        parse(text)
    }

    fn read_command(&self, line: &str) -> Result<Parsed> {
        read_command(line)
    }

    fn build(&self, params: &Params, ctx: &BuildCtx) -> Result<Invocation> {
        command(params, ctx)
    }

    fn headline(&self, _params: &Params) -> &'static str {
        "write_bw"
    }

    fn version_probe(&self) -> Option<(&'static str, &'static str)> {
        Some(("dd", "--version"))
    }

    // "dd (coreutils) 9.1", "dd (GNU coreutils) 8.32", "BusyBox v1.36.1 ..."
    fn version_from_text(&self, text: &str) -> Option<String> {
        let line = first_line(text)?;
        if let Some(rest) = line.strip_prefix("BusyBox v") {
            Some(format!("busybox {}", rest.split_whitespace().next()?))
        } else if line.contains("coreutils") {
            Some(format!("coreutils {}", line.rsplit(' ').next()?))
        } else {
            None
        }
    }

    fn package(&self, _family: &str) -> &'static str {
        "coreutils"
    }

    // dd takes `count` or `size`: the file's choice replaces the base's
    fn drop_replaced(&self, base: &mut Params, new: &Params) {
        for (given, other) in [("count", "size"), ("size", "count")] {
            if new.contains_key(given) && !new.contains_key(other) {
                base.remove(other);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        let path = format!("{}/tests/fixtures/dd/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn one(name: &str) -> Parsed {
        let mut all = parse(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        assert_eq!(all.len(), 1, "{name}");
        all.remove(0)
    }

    fn value(p: &Parsed, metric: &str) -> Option<f64> {
        p.metrics.get(metric).map(|m| m.value)
    }

    fn unit<'a>(p: &'a Parsed, metric: &str) -> &'a str {
        p.metrics.get(metric).map_or("", |m| m.unit.as_str())
    }

    fn param(p: &Parsed, key: &str) -> Option<Value> {
        p.parameters.get(key).cloned()
    }

    #[test]
    fn gnu_9_1_fdatasync_write() {
        let p = one("gnu91-write-128k-fdatasync.txt");
        assert_eq!(value(&p, "bytes"), Some(134217728.0));
        assert_eq!(unit(&p, "bytes"), "B");
        assert_eq!(value(&p, "elapsed"), Some(0.300751));
        assert_eq!(unit(&p, "elapsed"), "s");
        // bytes / seconds, not the rounded "446 MB/s"
        assert_eq!(value(&p, "write_bw"), Some(134217728.0 / 0.300751));
        assert_eq!(value(&p, "write_bw").map(f64::round), Some(446_275_251.0));
        assert_eq!(unit(&p, "write_bw"), "B/s");
        assert_eq!(p.metrics.len(), 3);
        assert_eq!(p.test_id.as_deref(), Some("dd-write-128k-fdatasync"));
        assert_eq!(
            p.command.as_deref(),
            Some("dd if=/dev/zero of=test bs=128k count=1k conv=fdatasync")
        );
        assert_eq!(param(&p, "bs"), Some(Value::from(131072)));
        assert_eq!(param(&p, "count"), Some(Value::from(1024)));
        assert_eq!(param(&p, "conv"), Some(Value::from("fdatasync")));
        assert_eq!(param(&p, "if"), Some(Value::from("/dev/zero")));
        assert_eq!(param(&p, "of"), Some(Value::from("test")));
        assert_eq!(param(&p, "records_in"), Some(Value::from(1024)));
        assert_eq!(param(&p, "records_in_partial"), Some(Value::from(0)));
        assert_eq!(param(&p, "records_out"), Some(Value::from(1024)));
        assert_eq!(p.tool_version, None);
    }

    #[test]
    fn gnu_9_1_dsync_write() {
        let p = one("gnu91-write-8k-dsync.txt");
        assert_eq!(value(&p, "write_bw"), Some(8388608.0 / 0.346904));
        assert_eq!(value(&p, "elapsed"), Some(0.346904));
        assert_eq!(p.test_id.as_deref(), Some("dd-write-8k-dsync"));
        assert_eq!(param(&p, "oflag"), Some(Value::from("dsync")));
    }

    #[test]
    fn gnu_9_1_without_command_has_no_id_and_is_a_write() {
        let p = one("gnu91-bare-1m-fdatasync.txt");
        assert_eq!(p.test_id, None);
        assert_eq!(p.command, None);
        assert_eq!(value(&p, "write_bw"), Some(16777216.0 / 0.0580356));
        assert_eq!(param(&p, "records_out"), Some(Value::from(16)));
    }

    #[test]
    fn gnu_version_line_and_bulk_id() {
        let p = one("gnu91-with-version.txt");
        assert_eq!(p.tool_version.as_deref(), Some("coreutils 9.1"));
        assert_eq!(p.test_id.as_deref(), Some("dd-write-bulk"));
        assert_eq!(value(&p, "write_bw"), Some(16777216.0 / 0.0481808));
    }

    #[test]
    fn one_byte_copied() {
        let p = one("gnu91-one-byte.txt");
        assert_eq!(value(&p, "bytes"), Some(1.0));
        assert_eq!(value(&p, "elapsed"), Some(0.000144264));
        assert_eq!(value(&p, "write_bw"), Some(1.0 / 0.000144264));
        assert_eq!(p.test_id.as_deref(), Some("dd-write-1"));
    }

    #[test]
    fn progress_updates_are_not_the_summary() {
        let p = one("gnu91-progress.txt");
        assert_eq!(value(&p, "bytes"), Some(50331648.0));
        assert_eq!(value(&p, "elapsed"), Some(2.58355));
        assert_eq!(value(&p, "write_bw"), Some(50331648.0 / 2.58355));
        assert_eq!(p.test_id.as_deref(), Some("dd-write-4k-dsync"));
        assert_eq!(param(&p, "count"), Some(Value::from(12288)));
    }

    #[test]
    fn only_progress_is_an_error() {
        let e = parse(&fixture("progress-interrupted.txt")).unwrap_err();
        assert!(e.to_string().contains("status=progress"), "{e}");
    }

    #[test]
    fn read_to_dev_null_gives_read_bw() {
        let p = one("gnu91-read.txt");
        assert_eq!(value(&p, "read_bw"), Some(50331648.0 / 0.00934708));
        assert_eq!(value(&p, "write_bw"), None);
        assert_eq!(p.test_id.as_deref(), Some("dd-read-1m"));
    }

    #[test]
    fn partial_records_and_exponent_seconds() {
        let p = one("gnu91-read-partial.txt");
        assert_eq!(param(&p, "records_in"), Some(Value::from(0)));
        assert_eq!(param(&p, "records_in_partial"), Some(Value::from(1)));
        assert_eq!(param(&p, "records_out_partial"), Some(Value::from(1)));
        assert_eq!(value(&p, "elapsed"), Some(3.0996e-05));
        assert_eq!(value(&p, "read_bw"), Some(3000.0 / 3.0996e-05));
    }

    #[test]
    fn coreutils_5_seconds_word() {
        let p = one("coreutils5-bulk.txt");
        assert_eq!(value(&p, "bytes"), Some(9437184000.0));
        assert_eq!(value(&p, "elapsed"), Some(34.6279));
        assert_eq!(value(&p, "write_bw"), Some(9437184000.0 / 34.6279));
        assert_eq!(value(&p, "write_bw").map(f64::round), Some(272_531_225.0));
        assert_eq!(p.test_id.as_deref(), Some("dd-write-bulk"));
        assert_eq!(param(&p, "count"), Some(Value::from(9000)));
    }

    #[test]
    fn coreutils_6_to_8_24_one_size() {
        let p = one("coreutils6-write-128k-dsync.txt");
        assert_eq!(value(&p, "elapsed"), Some(0.25));
        assert_eq!(value(&p, "write_bw"), Some(536870912.0));
        assert_eq!(p.test_id.as_deref(), Some("dd-write-128k-dsync"));
        assert_eq!(
            p.command.as_deref(),
            Some("dd if=/dev/zero of=test bs=128k count=1k oflag=dsync")
        );
    }

    #[test]
    fn g_format_exponent() {
        let p = one("coreutils8-exponent.txt");
        assert_eq!(value(&p, "elapsed"), Some(2.4e-05));
        assert_eq!(value(&p, "write_bw"), Some(512.0 / 2.4e-05));
        assert_eq!(p.test_id.as_deref(), Some("dd-write-512"));
    }

    #[test]
    fn infinity_rate_gives_only_bytes() {
        let p = one("coreutils8-infinity.txt");
        assert_eq!(value(&p, "bytes"), Some(512.0));
        assert_eq!(p.metrics.len(), 1);
    }

    #[test]
    fn zero_bytes_gives_no_bandwidth() {
        let p = parse("0 bytes copied, 4.3685e-05 s, 0.0 kB/s\n")
            .unwrap()
            .remove(0);
        assert_eq!(value(&p, "bytes"), Some(0.0));
        assert_eq!(value(&p, "elapsed"), Some(4.3685e-05));
        assert_eq!(value(&p, "write_bw"), None);
    }

    #[test]
    fn busybox_form() {
        let p = one("busybox.txt");
        assert_eq!(value(&p, "elapsed"), Some(0.123456));
        assert_eq!(value(&p, "write_bw"), Some(134217728.0 / 0.123456));
        assert_eq!(p.test_id.as_deref(), Some("dd-write-8m-fsync"));
    }

    #[test]
    fn busybox_version_line() {
        let text = format!(
            "BusyBox v1.36.1 (2023-07-27 17:12:24 UTC) multi-call binary.\n{}",
            fixture("busybox.txt")
        );
        let p = parse(&text).unwrap().remove(0);
        assert_eq!(p.tool_version.as_deref(), Some("busybox 1.36.1"));
        assert_eq!(
            version_line("dd (GNU coreutils) 8.32").as_deref(),
            Some("coreutils 8.32")
        );
    }

    #[test]
    fn several_runs_give_several_results() {
        let all = parse(&fixture("two-runs.txt")).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].test_id.as_deref(), Some("dd-write-8k-fdatasync"));
        assert_eq!(value(&all[0], "write_bw"), Some(268435456.0));
        assert_eq!(param(&all[0], "records_out"), Some(Value::from(16384)));
        assert_eq!(all[1].test_id.as_deref(), Some("dd-read-1m-direct"));
        assert_eq!(value(&all[1], "read_bw"), Some(1073741824.0));
        assert_eq!(param(&all[1], "records_out"), Some(Value::from(128)));
    }

    #[test]
    fn other_languages_are_refused_with_lc_all_c() {
        for name in [
            "locale-de.txt",
            "locale-fr.txt",
            "decimal-comma-english.txt",
        ] {
            let e = parse(&fixture(name)).unwrap_err().to_string();
            assert!(e.contains("LC_ALL=C"), "{name}: {e}");
            assert!(looks_like(&fixture(name)), "{name}");
        }
        // "1,5 s" must never become 1 or 15 seconds
        let e = parse("1 byte copied, 1,5 s, 0,7 B/s")
            .unwrap_err()
            .to_string();
        assert!(e.contains("LC_ALL=C"), "{e}");
    }

    #[test]
    fn garbage_is_an_error_naming_the_summary() {
        let e = parse("hello\nworld\n").unwrap_err().to_string();
        assert!(e.contains("copied"), "{e}");
        assert!(parse("").is_err());
    }

    #[test]
    fn looks_like_dd_only() {
        assert!(looks_like(&fixture("gnu91-write-8k-dsync.txt")));
        assert!(looks_like(&fixture("busybox.txt")));
        assert!(!looks_like(FIO_TEXT));
        assert!(!looks_like(FIO_JSON));
        assert!(!looks_like(BONNIE_CSV));
        assert!(!looks_like(IOPING_TEXT));
    }

    #[test]
    fn sizes_read_as_dd_reads_them() {
        assert_eq!(parse_size("8k"), Some(8192));
        assert_eq!(parse_size("8K"), Some(8192));
        assert_eq!(parse_size("16k"), Some(16384));
        assert_eq!(parse_size("1M"), Some(1048576));
        assert_eq!(parse_size("1MiB"), Some(1048576));
        assert_eq!(parse_size("1m"), Some(1048576));
        assert_eq!(parse_size("1kB"), Some(1000));
        assert_eq!(parse_size("2MB"), Some(2_000_000));
        assert_eq!(parse_size("1G"), Some(1 << 30));
        assert_eq!(parse_size("1GB"), Some(1_000_000_000));
        assert_eq!(parse_size("3b"), Some(1536));
        assert_eq!(parse_size("3w"), Some(6));
        assert_eq!(parse_size("10c"), Some(10));
        assert_eq!(parse_size("2x512"), Some(1024));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size("1E"), Some(1 << 60));
        assert_eq!(parse_size("16E"), None);
        assert_eq!(parse_size("1Q"), None);
        assert_eq!(parse_size("k"), None);
        assert_eq!(parse_size(""), None);
        assert_eq!(parse_size("1.5M"), None);
    }

    #[test]
    fn ids_follow_the_runner_rule() {
        use Direction::{Read, Write};
        let m = 1048576;
        assert_eq!(test_id(Write, m, "fdatasync", "", ""), "dd-write-bulk");
        assert_eq!(test_id(Write, m, "", "", ""), "dd-write-1m");
        assert_eq!(
            test_id(Write, m, "fdatasync", "direct", ""),
            "dd-write-1m-fdatasync-direct"
        );
        assert_eq!(
            test_id(Write, m, "notrunc,fdatasync", "", ""),
            "dd-write-bulk"
        );
        assert_eq!(
            test_id(Write, 131072, "fdatasync", "", ""),
            "dd-write-128k-fdatasync"
        );
        assert_eq!(
            test_id(Write, 8192, "fdatasync", "", ""),
            "dd-write-8k-fdatasync"
        );
        assert_eq!(
            test_id(Write, 131072, "", "dsync", ""),
            "dd-write-128k-dsync"
        );
        assert_eq!(test_id(Write, 8192, "", "dsync", ""), "dd-write-8k-dsync");
        assert_eq!(test_id(Write, 4096, "", "sync", ""), "dd-write-4k-sync");
        assert_eq!(
            test_id(Write, 4096, "fsync", "direct,dsync", ""),
            "dd-write-4k-fsync-dsync-direct"
        );
        assert_eq!(test_id(Read, m, "", "", ""), "dd-read-1m");
        assert_eq!(test_id(Read, m, "", "", "direct"), "dd-read-1m-direct");
    }

    #[test]
    fn command_lines_with_prompts_sudo_and_env() {
        let c =
            command_line("root@host:/mnt# sudo LC_ALL=C /bin/dd if=/dev/zero of=x bs=1M").unwrap();
        assert_eq!(c.text, "/bin/dd if=/dev/zero of=x bs=1M");
        assert_eq!(c.operands.get("bs").map(String::as_str), Some("1M"));
        assert_eq!(command_line("dd (coreutils) 9.1"), None);
        assert_eq!(command_line("$ dd --version"), None);
        let p = parse("dd of=x if=/dev/zero\n1 byte copied, 0.5 s, 2 B/s\n")
            .unwrap()
            .remove(0);
        // no bs: dd's default of 512 bytes
        assert_eq!(p.test_id.as_deref(), Some("dd-write-512"));
    }

    const FIO_TEXT: &str = "randread: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=64\nfio-3.33\nStarting 1 process\n\nrandread: (groupid=0, jobs=1): err= 0: pid=1: Mon Nov 30 00:00:00 2026\n  read: IOPS=26.2k, BW=102MiB/s (107MB/s)(512MiB/5001msec)\n    clat (usec): min=38, max=2600, avg=68.87, stdev=35.60\n\nRun status group 0 (all jobs):\n   READ: bw=102MiB/s (107MB/s), 102MiB/s-102MiB/s (107MB/s-107MB/s), io=512MiB (537MB), run=5001-5001msec\n";
    const FIO_JSON: &str = "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [ { \"jobname\" : \"randread\", \"read\" : { \"io_bytes\" : 536870912, \"bw\" : 104857, \"iops\" : 26214.4 } } ]\n}\n";
    // bonnie++ 2.00a `-s 0 -n 1 -q`, captured on the development machine
    const BONNIE_CSV: &str = "1.98,2.00a,vm,1,1795985127,,,,,,,,,,,,,,,,,1,,,,,1353,35,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,,,,,,,5038us,59us,4055us,8230us,13us,4055us\n";
    const IOPING_TEXT: &str = "--- /tmp (ext4 /dev/vda 252.0 GiB) ioping statistics ---\n4 requests completed in 4.14 ms, 16 KiB read, 966 iops, 3.78 MiB/s\ngenerated 5 requests in 4.00 s, 20 KiB, 1 iops, 5.00 KiB/s\nmin/avg/max/mdev = 538.9 us / 1.03 ms / 1.68 ms / 488.1 us\n";

    #[test]
    fn read_command_gives_id_parameters_and_command() {
        let p = read_command("$ dd if=/dev/zero of=test bs=8k count=16k oflag=dsync").unwrap();
        assert_eq!(p.test_id.as_deref(), Some("dd-write-8k-dsync"));
        assert_eq!(
            p.command.as_deref(),
            Some("dd if=/dev/zero of=test bs=8k count=16k oflag=dsync")
        );
        let expected: BTreeMap<String, Value> = [
            ("bs", Value::from(8192)),
            ("count", Value::from(16384)),
            ("if", Value::from("/dev/zero")),
            ("of", Value::from("test")),
            ("oflag", Value::from("dsync")),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        assert_eq!(p.parameters, expected);
        assert!(p.metrics.is_empty());
        let read = read_command("dd if=big of=/dev/null bs=1M iflag=direct").unwrap();
        assert_eq!(read.test_id.as_deref(), Some("dd-read-1m-direct"));
        assert_eq!(
            read_command("dd if=/dev/zero of=f bs=1M conv=fdatasync")
                .unwrap()
                .test_id
                .as_deref(),
            Some("dd-write-bulk")
        );
    }

    #[test]
    fn read_command_is_what_parse_takes_from_a_pasted_line() {
        let line = "dd if=/dev/zero of=test bs=128k count=1k conv=fdatasync";
        let text = format!(
            "{line}\n1024+0 records in\n1024+0 records out\n\
             134217728 bytes (134 MB, 128 MiB) copied, 0.300751 s, 446 MB/s\n"
        );
        let parsed = parse(&text).unwrap().remove(0);
        let read = read_command(line).unwrap();
        assert_eq!(read.test_id, parsed.test_id);
        assert_eq!(read.command, parsed.command);
        for (k, v) in &read.parameters {
            assert_eq!(parsed.parameters.get(k), Some(v), "{k}");
        }
    }

    #[test]
    fn read_command_refuses_what_names_no_test() {
        let e = read_command("ls -l").unwrap_err().to_string();
        assert!(e.contains("expected a dd command line"), "{e}");
        let e = read_command("dd if=/dev/zero of=f bs=huge")
            .unwrap_err()
            .to_string();
        assert!(e.contains("expected a block size"), "{e}");
    }
}
