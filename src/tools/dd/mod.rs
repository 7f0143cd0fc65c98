//! `dd`: building its command line and parsing its output: the final
//! summary line of every coreutils and BusyBox version, run by `run`
//! ([`parse_run`]) or pasted into a log (with its command line, in a shell
//! loop, from a terminal with `status=progress`), and the reports of the
//! scripts that run dd (`scripts`). Which forms are read, the metrics and
//! parameters a run gives, and why a translated log is refused (asking for
//! `LC_ALL=C`): docs/import.md, "Formats read".

use std::collections::BTreeMap;

use anyhow::{bail, Result};
use serde_json::Value;

use super::argv::{BuildCtx, Invocation, Params};
use super::{first_line, Command, Install, Judge, Output, Parsed};
use crate::metrics::TestKind;
use crate::record::{Metric, Tool};
use crate::tools::number::{self, BadNumber};
use crate::units::{split_number, Unit};

mod invocation;
mod scripts;

#[cfg(test)]
mod tests;

pub use invocation::command;

// ---------------------------------------------------------------- parsing

/// What a dd test measures, as far as its text proves it: writing a file,
/// reading one to `/dev/null` (or `/dev/zero`), or neither for sure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// `if=/dev/zero of=FILE`: the bandwidth is `write_bw`.
    Write,
    /// `if=FILE of=/dev/null`: the bandwidth is `read_bw`.
    Read,
    /// Nothing in the text proves a direction (no command line; `if=/dev/zero
    /// of=/dev/null`; output to the terminal): the bandwidth is `bw`, the
    /// test id `dd-unknown-<bs>`, and the test is never judged.
    Unknown,
    /// dd's output goes into a pipe (`dd if=F bs=1M | md5sum`, `| nc`) or its
    /// input comes from one (`pv F | dd of=/dev/sdb`): the rate is the other
    /// program's as much as the storage's. The bandwidth is `bw`, the test id
    /// `dd-pipe-<bs>`, and the test is never judged.
    Pipe,
}

impl Direction {
    /// The record parameter `direction` of a run whose direction is not
    /// proven (`unknown`, `pipe`); `None` for a write or a read.
    pub fn not_judged(self) -> Option<&'static str> {
        match self {
            Direction::Write | Direction::Read => None,
            Direction::Unknown => Some("unknown"),
            Direction::Pipe => Some("pipe"),
        }
    }

    /// The bandwidth metric of a run in this direction.
    fn bandwidth(self) -> &'static str {
        match self {
            Direction::Write => "write_bw",
            Direction::Read => "read_bw",
            Direction::Unknown | Direction::Pipe => "bw",
        }
    }
}

/// Whether `text` looks like output of this tool: a summary line, an
/// `N+M records in` line, or the same lines in another language (so that
/// `import` can say to rerun under `LC_ALL=C` instead of "unrecognised").
pub fn looks_like(text: &str) -> bool {
    recognised_script(text)
        || output_lines(text).any(|line| match line {
            Line::Normal(l) => {
                !matches!(summary(l), SummaryLine::No)
                    || records_line(l).is_some()
                    || foreign_line(l)
            }
            // an interrupted run leaves only progress updates: still dd's
            Line::Progress(l) => l
                .split('\r')
                .any(|seg| matches!(summary(seg), SummaryLine::Yes(_))),
        })
}

/// Whether `text` is the report of a benchmark script whose dd runs are
/// read in its own layout (bench.sh, nench, iobench, yabs's dd tests; see
/// `scripts`). Such a report can quote other tools' lines (nench's
/// ioping), so `import` recognises it before trying the other tools.
pub fn recognised_script(text: &str) -> bool {
    scripts::recognised(text).is_some()
}

/// Parses dd's output into one result per summary line, in canonical units.
///
/// Fails when there is no summary line (naming the form expected), when only
/// `status=progress` updates are present, and when the output is in another
/// language than C/English (asking for `LC_ALL=C`).
pub fn parse(text: &str) -> Result<Vec<Parsed>> {
    if let Some(script) = scripts::recognised(text) {
        return scripts::parse(script, text);
    }
    let version = text.lines().find_map(version_line);
    let mut results = Vec::new();
    let mut command: Option<PastedCommand> = None;
    let mut records: BTreeMap<String, Value> = BTreeMap::new();
    // summary-shaped lines not yet followed by `records in`/`out` lines
    let mut pending: Vec<Summary> = Vec::new();
    // summary-shaped lines followed by them: progress if the summary after
    // the records lines covers them
    let mut doubtful: Vec<Summary> = Vec::new();
    let mut saw_progress = false;
    // the first half of a summary wrapped after `copied,`
    let mut wrapped: Option<String> = None;
    // the first records line in another language, for the error when no
    // summary can be read
    let mut foreign_records: Option<String> = None;
    // where each result's part of the text ends (see `Parsed::part`)
    let mut ends: Vec<usize> = Vec::new();
    let mut offset = 0;
    for (piece, line) in text.split('\n').zip(output_lines(text)) {
        let at = offset;
        offset = (offset + piece.len() + 1).min(text.len());
        let line = match line {
            Line::Progress(_) => {
                saw_progress = true;
                continue;
            }
            Line::Normal(l) => l,
        };
        // a summary a page or a mail wrapped after `copied,` goes on in the
        // next line: read as one line, not dropped
        let joined;
        let line = match wrapped.take() {
            Some(head) => {
                joined = format!("{head} {}", line.trim());
                if matches!(summary(&joined), SummaryLine::Yes(_)) {
                    &joined
                } else {
                    line
                }
            }
            None => line,
        };
        if cut_summary(line) {
            wrapped = Some(line.trim().to_string());
            continue;
        }
        if let Some(cmd) = command_line(line) {
            for s in doubtful.drain(..).chain(pending.drain(..)) {
                results.push(result(
                    &s,
                    command.clone(),
                    &BTreeMap::new(),
                    version.clone(),
                ));
                ends.push(at);
            }
            command = Some(cmd);
            records.clear();
            continue;
        }
        if let Some(counts) = records_line(line) {
            let (key, full, partial) =
                counts.map_err(|e| anyhow::Error::new(e).context("dd output"))?;
            // dd prints its records lines right before the final summary:
            // a summary above them is the last status=progress update of a
            // terminal copy that lost its carriage returns
            doubtful.append(&mut pending);
            records.insert(format!("records_{key}"), Value::from(full));
            records.insert(format!("records_{key}_partial"), Value::from(partial));
            continue;
        }
        match summary(line) {
            SummaryLine::No => {
                if foreign_summary_line(line) {
                    bail!(locale_error(line));
                }
                // translated records lines above a C-locale summary (a
                // partly translated system) leave the summary readable
                if foreign_records.is_none() && foreign_records_line(line) {
                    foreign_records = Some(line.to_string());
                }
            }
            SummaryLine::Foreign => bail!(locale_error(line)),
            SummaryLine::Bad(e) => return Err(anyhow::Error::new(e).context("dd output")),
            SummaryLine::Yes(s) if records.is_empty() => pending.push(s),
            SummaryLine::Yes(s) => {
                for d in doubtful.drain(..) {
                    if d.bytes <= s.bytes && d.seconds <= s.seconds {
                        saw_progress = true;
                    } else {
                        let none = BTreeMap::new();
                        results.push(result(&d, command.clone(), &none, version.clone()));
                        ends.push(at);
                    }
                }
                results.push(result(&s, command.clone(), &records, version.clone()));
                ends.push(offset);
                records.clear();
            }
        }
    }
    for s in doubtful.drain(..).chain(pending.drain(..)) {
        results.push(result(
            &s,
            command.clone(),
            &BTreeMap::new(),
            version.clone(),
        ));
        ends.push(text.len());
    }
    // each result keeps the lines since the one before it; the text after
    // the last goes with the last
    let mut cuts = vec![0];
    cuts.extend(ends.iter().take(ends.len().saturating_sub(1)));
    for (r, part) in results.iter_mut().zip(super::parts_at(text, &cuts)) {
        r.part = Some(part);
    }
    // a file of several runs: each says its position in it (1 for the
    // first), as the record id's `.n` does
    if results.len() > 1 {
        for (k, r) in results.iter_mut().enumerate() {
            r.parameters
                .insert("run_in_file".into(), Value::from(k + 1));
        }
    }
    if results.is_empty() {
        if let Some(line) = foreign_records {
            bail!(locale_error(&line));
        }
        if saw_progress {
            bail!("dd output holds only status=progress updates, no final summary line (`N bytes (...) copied, T s, R MB/s`); was dd interrupted?");
        }
        bail!("no dd summary line found (expected `N bytes (...) copied, T s, R MB/s` as dd prints it under LC_ALL=C)");
    }
    Ok(results)
}

/// Parses the output of `run`'s own dd command, which dd prints without
/// the command: the summary as [`parse`] reads it, with the direction the
/// command proves (`run` writes `if=/dev/zero of=FILE`), so a run's record
/// has `write_bw` as an imported log with its command line has.
pub fn parse_run(invocation: &Invocation, text: &str) -> Result<Vec<Parsed>> {
    let mut results = parse(text)?;
    let line = std::iter::once(invocation.program.as_str())
        .chain(invocation.args.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    let direction = command_line(&line).map_or(Direction::Unknown, |c| direction_of(&c));
    if direction.not_judged().is_some() {
        return Ok(results);
    }
    for r in results.iter_mut().filter(|r| r.command.is_none()) {
        // `run` names the test itself
        r.test_id = None;
        r.parameters.remove("direction");
        if let Some(bw) = r.metrics.remove("bw") {
            r.metrics.insert(direction.bandwidth().into(), bw);
        }
    }
    Ok(results)
}

/// The first half of a summary line wrapped after its `copied,`
/// (`1073741824 bytes (1.1 GB) copied,` and then `2.28735 s, 469 MB/s`).
fn cut_summary(line: &str) -> bool {
    let t = line.trim();
    let after = t.trim_start_matches(|c: char| c.is_ascii_digit());
    after.len() < t.len() && after.starts_with(" byte") && t.ends_with(" copied,")
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
    /// A summary line whose byte count or time is not a number >= 0.
    Bad(BadNumber),
}

/// Reads `N byte(s) [(...)] copied, T s|seconds, RATE`.
fn summary(line: &str) -> SummaryLine {
    let t = line.trim();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let (Some(num), Some(rest)) = (t.get(..digits), t.get(digits..)) else {
        return SummaryLine::No;
    };
    if num.is_empty() {
        // `fast bytes (8.4 MB, 8.0 MiB) copied, ...`: a summary line whose
        // byte count is not a number
        let (first, after) = t.split_once(' ').unwrap_or((t, ""));
        let shaped = (after.starts_with("bytes") || after.starts_with("byte "))
            && after.contains(" copied, ");
        if shaped {
            return SummaryLine::Bad(BadNumber::new("the byte count of dd's summary line", first));
        }
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
        return SummaryLine::Bad(BadNumber::new("the byte count of dd's summary line", num));
    };
    let after = rest.get(copied + "copied, ".len()..).unwrap_or("");
    let time_field = "the time of dd's summary line";
    let Some((seconds, tail)) = split_number(after) else {
        // `-nan s`, `inf s`: no locale prints these
        let word = after.split([' ', ',']).next().unwrap_or_default();
        let lower = word.to_ascii_lowercase();
        if lower.starts_with('-') || ["nan", "inf", "+inf", "infinity"].contains(&lower.as_str()) {
            return SummaryLine::Bad(BadNumber::new(time_field, word));
        }
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
    if let Err(e) = number::checked(time_field, seconds) {
        return SummaryLine::Bad(e);
    }
    let rate = tail.trim_start().strip_prefix(',').unwrap_or("").trim();
    SummaryLine::Yes(Summary {
        bytes,
        seconds,
        infinite_rate: rate.starts_with("Infinity") || rate.starts_with("inf"),
    })
}

/// `N+M records in` / `N+M records out`: `("in"|"out", N, M)`; an error
/// when `N` or `M` is not a whole number >= 0.
fn records_line(line: &str) -> Option<Result<(&'static str, u64, u64), BadNumber>> {
    let (counts, words) = line.trim().split_once(' ')?;
    let key = match words.trim() {
        "records in" => "in",
        "records out" => "out",
        _ => return None,
    };
    let (full, partial) = counts.split_once('+')?;
    let count = |text: &str, what: &str| {
        text.parse::<u64>().map_err(|_| {
            BadNumber::new(
                &format!("the {what} count of dd's `records {key}` line"),
                text,
            )
        })
    };
    Some(count(full, "full-block").and_then(|f| Ok((key, f, count(partial, "partial-block")?))))
}

/// A line that is dd output in another language: a records line or a
/// summary line (see [`foreign_records_line`], [`foreign_summary_line`]).
fn foreign_line(line: &str) -> bool {
    foreign_records_line(line) || foreign_summary_line(line)
}

/// dd's `N+M records in/out` line in another language: one `N+M` pair and
/// words, no other digit (`1024+0 Datensätze ein`, `记录了4096+0 的读入`,
/// `1+0 записей получено`, `1024+0 レコード入力`).
fn foreign_records_line(line: &str) -> bool {
    let t = line.trim();
    if records_line(t).is_some() {
        return false;
    }
    let Some(plus) = t.find('+') else {
        return false;
    };
    let (before, after) = t.split_at(plus);
    let after = after.get(1..).unwrap_or("");
    let full = before.len() - before.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let partial = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = format!(
        "{}{}",
        before.get(..before.len() - full).unwrap_or(""),
        after.get(partial..).unwrap_or("")
    );
    full > 0
        && partial > 0
        && !rest.chars().any(|c| c.is_ascii_digit())
        && rest.chars().any(char::is_alphabetic)
}

/// dd's summary line in another language, in the forms GNU coreutils'
/// translations print it: `N <word> (...) <word>, T s, R MB/s`
/// (`Bytes ... kopiert`, `octets ... copiés`, `bytes ... copiados`, `байт ...
/// скопирован`), the same with `、` or `，` between the fields and no space
/// after the number (`536870912 バイト (537 MB) コピーされました、 7.35 秒、 73.0
/// MB/秒`, `4294967296字节(4.3 GB)已复制，15.7479 秒，273 MB/秒`), and the
/// older Russian order (`скопировано 2147483648 байт (2,1 GB), 4,17 c, 515
/// MB/c`). Told by its last field, a rate in `B/` per a unit, after at
/// least two fields, in a line that starts with the byte count or holds
/// words outside ASCII, and that has a parenthesised size, a decimal comma
/// or words outside ASCII.
fn foreign_summary_line(line: &str) -> bool {
    let t = line.trim();
    let separators = |c: char| c == ',' || c == '，' || c == '、';
    let fields: Vec<&str> = t.split(separators).map(str::trim).collect();
    let Some(rate) = fields.last() else {
        return false;
    };
    let digits = rate.len() - rate.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rate_shaped = digits > 0 && (rate.contains("B/") || rate.contains("Б/"));
    let starts_with_count = t.starts_with(|c: char| c.is_ascii_digit());
    let translated = !t.is_ascii();
    // dd's own marks: the size in parentheses or a decimal comma (an
    // ASCII line of figures without them is another tool's: ioping's
    // `4 requests completed in 4.14 ms, 16 KiB read, 966 iops, 3.78 MiB/s`)
    let decimal_comma = t.as_bytes().windows(3).any(|w| {
        w.first().is_some_and(u8::is_ascii_digit)
            && w.get(1) == Some(&b',')
            && w.get(2).is_some_and(u8::is_ascii_digit)
    });
    let dd_marks = translated || t.contains('(') || decimal_comma;
    fields.len() >= 3 && rate_shaped && dd_marks && (starts_with_count || translated) && {
        // the C form (with its decimal point) is read, not refused here
        !matches!(summary(t), SummaryLine::Yes(_))
    }
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
    /// dd's output goes on into a pipe (`dd ... | md5sum`).
    pipe_out: bool,
    /// dd's input comes from a pipe (`pv F | dd of=...`).
    pipe_in: bool,
    /// Where a `>` redirection sends dd's output (`dd if=F > /dev/null`).
    redirect: Option<String>,
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
    let start = start?;
    let (text, pipe_out) = shell_command(line.get(start..)?);
    // `a | dd ...`, not `a || dd ...`
    let before = line.get(..start).unwrap_or("");
    let pipe_in = before.replace("||", "").contains('|');
    let mut operands = BTreeMap::new();
    let mut redirect = None;
    let mut tokens = text.split_whitespace().skip(1);
    while let Some(token) = tokens.next() {
        // `> F`, `>F`, `1> F`: stdout into a file (not `2>`, `>&2`, `&>`)
        if let Some(target) = token.strip_prefix("1>").or_else(|| token.strip_prefix('>')) {
            if !target.starts_with('&') && !token.starts_with(">>") {
                let target = if target.is_empty() {
                    tokens.next()
                } else {
                    Some(target)
                };
                redirect = target.map(str::to_string);
            }
            continue;
        }
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
        pipe_out,
        pipe_in,
        redirect,
    })
}

/// The dd command alone, from `dd` to the first `;`, `|` or `&&` outside
/// quotes (`; done` of a loop, `2>&1 | tail -1`) or a trailing `# comment`,
/// and whether it ends in a pipe (`|`, not `||`).
fn shell_command(from_dd: &str) -> (&str, bool) {
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    let mut end = from_dd.len();
    let mut pipe = false;
    for (i, c) in from_dd.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '"' | '\'' => quote = Some(c),
                ';' | '|' => {
                    pipe = c == '|' && from_dd.get(i + 1..i + 2) != Some("|");
                    end = i;
                    break;
                }
                '&' if from_dd.get(i + 1..i + 2) == Some("&") => {
                    end = i;
                    break;
                }
                '#' if prev.is_whitespace() => {
                    end = i;
                    break;
                }
                _ => {}
            },
        }
        prev = c;
    }
    (from_dd.get(..end).unwrap_or(from_dd).trim(), pipe)
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
    let direction = direction_of(&cmd);
    if let Some(why) = direction.not_judged() {
        parsed
            .parameters
            .insert("direction".into(), Value::from(why));
    }
    // dd's default block size is 512; obs/ibs stand in for bs per side
    let side = match direction {
        Direction::Read => "ibs",
        _ => "obs",
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

/// What a pasted command proves it measures. `of=/dev/null` (or
/// `/dev/zero`, which discards writes too) with an `if=` that is a file or a
/// device reads; an `of=` that is a file writes; a pipe on either side of
/// dd is [`Direction::Pipe`]; no `of=` and no pipe (the terminal), or
/// `if=/dev/zero of=/dev/null` (no storage at all), is
/// [`Direction::Unknown`]. A `> F` redirection counts as `of=F`;
/// `of=/dev/stdout` counts as no `of=`.
fn direction_of(cmd: &PastedCommand) -> Direction {
    let op = |k: &str| cmd.operands.get(k).map(String::as_str);
    let sink = |p: &str| matches!(p, "/dev/null" | "/dev/zero");
    let generator = |p: &str| matches!(p, "/dev/zero" | "/dev/urandom" | "/dev/random");
    if cmd.pipe_in && op("if").is_none() {
        return Direction::Pipe;
    }
    // `of=/dev/stdout` is dd's standard output, as no `of=` is
    let of = op("of").filter(|of| !matches!(*of, "/dev/stdout" | "/dev/fd/1"));
    match of.or(cmd.redirect.as_deref()) {
        None if cmd.pipe_out => Direction::Pipe,
        None => Direction::Unknown,
        Some(of) if sink(of) => match op("if") {
            Some(input) if !generator(input) => Direction::Read,
            _ => Direction::Unknown,
        },
        Some(_) => Direction::Write,
    }
}

/// The block size a run without a command line proves by its own numbers:
/// `N+0 records out` (no partial record) of `bytes` that `N` divides.
fn block_size_from_records(bytes: u64, records: &BTreeMap<String, Value>) -> Option<u64> {
    let full = records.get("records_out")?.as_u64()?;
    let partial = records.get("records_out_partial")?.as_u64()?;
    (full > 0 && partial == 0 && bytes % full == 0).then(|| bytes / full)
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
    let direction = match command {
        Some(cmd) => apply_command(&mut parsed, cmd),
        None => {
            // nothing proves what the run measured: an honest id, never judged
            let bs = block_size_from_records(s.bytes, records);
            parsed.test_id = Some(match bs {
                Some(bs) => test_id(Direction::Unknown, bs, "", "", ""),
                None => "dd-unknown".to_string(),
            });
            parsed
                .parameters
                .insert("direction".into(), Value::from("unknown"));
            Direction::Unknown
        }
    };
    let m = &mut parsed.metrics;
    m.insert("bytes".into(), Metric::new(s.bytes as f64, Unit::Bytes));
    if s.seconds > 0.0 && !s.infinite_rate {
        m.insert("elapsed".into(), Metric::new(s.seconds, Unit::Seconds));
        if s.bytes > 0 {
            m.insert(
                direction.bandwidth().into(),
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
        Direction::Unknown => format!("dd-unknown-{bs_text}"),
        Direction::Pipe => format!("dd-pipe-{bs_text}"),
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

/// The caveat of a dd write from `/dev/zero` (parameter `if`, and a
/// direction proven: not `unknown` nor `pipe`), as published results and
/// every pasted dd log have it: storage that compresses or deduplicates
/// stores almost nothing of a stream of zeros, so the rate may measure
/// that and not the disk. The result stands (it is what was published)
/// and is judged as before; its record says so. `run` feeds dd
/// incompressible bytes instead ([`command`]).
pub fn zeros_caveat(params: &BTreeMap<String, Value>) -> Option<&'static str> {
    let param = |k: &str| params.get(k).and_then(Value::as_str);
    (param("if") == Some("/dev/zero") && param("direction").is_none()).then_some(ZEROS_CAVEAT)
}

/// The words of [`zeros_caveat`].
pub const ZEROS_CAVEAT: &str = "dd wrote zeros from /dev/zero: storage that compresses or \
deduplicates (ZFS or btrfs with compression, VDO, many SANs and cloud block stores) stores \
almost none of them, so this rate may measure that, not the disk; diskdash run feeds dd \
incompressible bytes instead";

// --------------------------------------------------------------- registry

/// dd in the tool registry.
pub struct Dd;

/// How many bytes a dd record says it wrote: `bs` times `count`, else
/// the `bytes` dd reported.
fn written_bytes(params: &BTreeMap<String, Value>) -> Option<u64> {
    let bytes = |k: &str| super::param_bytes(params, k);
    match (bytes("bs"), bytes("count")) {
        (Some(bs), Some(count)) => Some(bs.saturating_mul(count)),
        _ => bytes("bytes"),
    }
}

impl Output for Dd {
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

    fn parse_run(&self, invocation: &Invocation, text: &str) -> Result<Vec<Parsed>> {
        parse_run(invocation, text)
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
}

impl Command for Dd {
    fn build(&self, params: &Params, ctx: &BuildCtx) -> Result<Invocation> {
        command(params, ctx)
    }

    fn headline(&self, _params: &Params) -> &'static str {
        "write_bw"
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

impl Install for Dd {
    fn version_probe(&self) -> Option<(&'static str, &'static str)> {
        Some(("dd", "--version"))
    }

    fn package(&self, _family: &str) -> &'static str {
        "coreutils"
    }
}

impl Judge for Dd {
    // a run whose direction is not proven is shown, never judged; a read
    // through a warm page cache measures memory
    fn kind(&self, params: &BTreeMap<String, Value>) -> TestKind {
        let param = |k: &str| params.get(k).and_then(Value::as_str);
        if matches!(param("direction"), Some("unknown" | "pipe")) {
            TestKind::Unknown
        } else if param("cache") == Some("warm") {
            TestKind::PageCache
        } else {
            TestKind::Throughput
        }
    }

    fn caveat(&self, params: &BTreeMap<String, Value>) -> Option<&'static str> {
        zeros_caveat(params)
    }

    // how much dd wrote in what blocks, with which flags, from what input;
    // the file it wrote to is bookkeeping
    fn identity(
        &self,
        params: &BTreeMap<String, Value>,
        ram: Option<u64>,
    ) -> Vec<(&'static str, String)> {
        let bytes = |k: &str| super::param_bytes(params, k);
        let mut parts = Vec::new();
        if let Some(bs) = bytes("bs") {
            parts.push(("bs", format!("bs {}", crate::format::size(bs))));
        }
        if let Some(total) = written_bytes(params) {
            // a 2x RAM write is one test on any machine
            let bs = bytes("bs").unwrap_or(0);
            parts.push(("size", super::size_words(total, ram, bs)));
        }
        for key in ["conv", "oflag", "iflag"] {
            if let Some(v) = super::param_text(params, key) {
                parts.push((key, format!("{key}={v}")));
            }
        }
        // `run` wrote from /dev/zero without recording it until it fed dd
        // incompressible bytes, which it records as `input`
        if let Some(input) = super::param_text(params, "input") {
            parts.push(("input", format!("{input} input")));
        }
        match super::param_text(params, "if").as_deref() {
            None | Some("/dev/zero") => {}
            Some(dev @ ("/dev/urandom" | "/dev/random")) => {
                parts.push(("input", format!("from {dev}")))
            }
            Some(_) => parts.push(("input", "from a file".into())),
        }
        parts
    }

    // without a sync flag dd ends when the page cache has taken the data
    fn cache_trap(
        &self,
        params: &BTreeMap<String, Value>,
        ram: Option<u64>,
    ) -> Option<super::Trap> {
        let text = |k: &str| super::param_text(params, k).unwrap_or_default();
        // only where the record says how dd was told to write (output alone
        // does not), and only for writes (a read goes to /dev/null)
        let stated = params.contains_key("bs") || params.contains_key("count");
        if !stated || text("of") == "/dev/null" || params.contains_key("direction") {
            return None;
        }
        // a write of twice the memory or more passes through the page cache
        // rather than into it: what is still unwritten when dd ends is at
        // most the kernel's dirty limit (20% of the memory by default), a
        // tenth of such a write at most, the rule bonnie++'s size follows
        if let (Some(total), Some(ram)) = (written_bytes(params), ram) {
            if total >= ram.saturating_mul(2) {
                return None;
            }
        }
        let has = |k: &str, flags: &[&str]| text(k).split(',').any(|f| flags.contains(&f.trim()));
        let synced =
            has("conv", &["fdatasync", "fsync"]) || has("oflag", &["dsync", "sync", "direct"]);
        (!synced).then(|| super::Trap {
            short: "no sync flag".into(),
            why: "dd wrote without a sync flag (no conv=fdatasync or fsync, no oflag=dsync, sync or direct), so it stopped the clock when the page cache had taken the data, before the storage had it".into(),
        })
    }
}
