//! `ioping`: building its command line and parsing its output: the 0.9
//! and 1.x text summaries, `-B` batch lines and `-J` JSON, with the command
//! line pasted above them ([`test_id`]). The forms, what each field means,
//! the metrics and parameters a run gives: docs/import.md, "Formats read".

use std::collections::BTreeMap;

use anyhow::{bail, Context, Result};
use serde_json::Value;

use super::argv::{BuildCtx, Invocation, Params};
use super::{first_line, Command, Install, Judge, Output, Parsed};
use crate::metrics::TestKind;
use crate::record::{Metric, Tool};
use crate::tools::number::{self, BadNumber};
use crate::units::{self, split_number, Prefixes, Unit};

mod invocation;

#[cfg(test)]
mod tests;

pub use invocation::command;

// ---------------------------------------------------------------- parsing

/// What every error says ioping output should look like.
const EXPECTED: &str = "expected ioping's summary (`N requests completed in T, ..., X iops, Y MiB/s`), its -B batch line (8 or 10 numbers) or its -J JSON array";

/// Whether `text` looks like output of this tool.
pub fn looks_like(text: &str) -> bool {
    if text.contains("ioping statistics ---") || text.contains(" requests completed in ") {
        return true;
    }
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let has_command = lines.iter().any(|l| command_line(l).is_some());
    let body: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| command_line(l).is_none())
        .collect();
    let json = body
        .first()
        .is_some_and(|l| l.trim_start().starts_with('['))
        && text.contains("\"stat\"")
        && text.contains("\"mdev\"");
    let batch = !body.is_empty() && body.iter().all(|l| batch_line(l).is_some());
    json || (batch && (has_command || body.len() <= 64))
}

/// Parses ioping's output into one result per run, in canonical units.
///
/// Fails, naming the forms expected, when no summary, batch line or JSON
/// statistics are found, or when a summary line cannot be read.
pub fn parse(text: &str) -> Result<Vec<Parsed>> {
    let lines: Vec<&str> = text.lines().collect();
    let version = lines.iter().find_map(|l| version_line(l));
    // each pasted command line starts a new run
    let mut segments: Vec<(Option<PastedCommand>, &[&str])> = Vec::new();
    let mut start = 0;
    let mut command = None;
    for (i, line) in lines.iter().enumerate() {
        if let Some(cmd) = command_line(line) {
            if let Some(seg) = lines.get(start..i) {
                segments.push((command.take(), seg));
            }
            command = Some(cmd);
            start = i + 1;
        }
    }
    if let Some(seg) = lines.get(start..) {
        segments.push((command, seg));
    }
    let mut results = Vec::new();
    for (cmd, seg) in segments {
        for mut parsed in parse_segment(seg)? {
            let shown = Shown::of(&parsed);
            match &cmd {
                Some(cmd) => {
                    shown.agrees_with(cmd)?;
                    apply_command(&mut parsed, cmd);
                }
                None => parsed.test_id = Some(shown.test_id()),
            }
            // a JSON or batch result is its whole segment
            parsed.part.get_or_insert_with(|| lines_text(seg));
            parsed.tool_version.clone_from(&version);
            results.push(parsed);
        }
    }
    if results.is_empty() {
        bail!("no ioping results found ({EXPECTED})");
    }
    Ok(results)
}

/// The results of one run's output lines: text summaries, else the JSON,
/// else the last batch line.
fn parse_segment(lines: &[&str]) -> Result<Vec<Parsed>> {
    let mut results = Vec::new();
    // each summary keeps the lines since the one before it, up to its
    // `min/avg/max/mdev` line; the last one the rest
    let mut part_start = 0;
    for (i, line) in lines.iter().enumerate() {
        if !line.contains("requests completed in ") {
            continue;
        }
        let mut parsed = completed_line(line)?;
        // the lines that belong to this summary: up to the next one
        let rest = lines.get(i + 1..).unwrap_or(&[]);
        let end = rest
            .iter()
            .position(|l| l.contains("requests completed in "))
            .unwrap_or(rest.len());
        for l in rest.get(..end).unwrap_or(&[]) {
            if let Some(stats) = l.trim().strip_prefix("min/avg/max/mdev") {
                latency_line(stats, &mut parsed)?;
            } else if l.contains("generated ") {
                ignored_counts(l, &mut parsed);
            }
        }
        // per-request lines above the summary name the request size and
        // direction
        let above = lines.get(..i).unwrap_or(&[]);
        if let Some(size) = above.iter().rev().find_map(|l| request_line(l)) {
            parsed
                .parameters
                .entry("size".into())
                .or_insert(Value::from(size));
        }
        if let Some(op) = above.iter().rev().find_map(|l| request_direction(l)) {
            parsed
                .parameters
                .entry("operation".into())
                .or_insert(Value::from(op));
        }
        if parsed
            .metrics
            .get("requests")
            .is_some_and(|m| m.value == 0.0)
        {
            parsed.metrics.retain(|k, _| k == "requests");
        }
        let stats = lines
            .get(i + 1)
            .is_some_and(|l| l.trim().starts_with("min/avg/max/mdev"));
        let part_end = i + 1 + usize::from(stats);
        parsed.part = Some(lines_text(lines.get(part_start..part_end).unwrap_or(&[])));
        part_start = part_end;
        results.push(parsed);
    }
    if let (Some(last), Some(rest)) = (results.last_mut(), lines.get(part_start..)) {
        if let Some(part) = &mut last.part {
            part.push_str(&lines_text(rest));
        }
    }
    if !results.is_empty() {
        return Ok(results);
    }
    if let Some(i) = lines.iter().position(|l| l.trim_start().starts_with('[')) {
        let json = lines.get(i..).unwrap_or(&[]).join("\n");
        return Ok(vec![parse_json(&json)?]);
    }
    match lines.iter().rev().find_map(|l| batch_line(l)) {
        Some(fields) => {
            let fields = fields.map_err(|e| anyhow::Error::new(e).context("ioping -B output"))?;
            Ok(vec![batch(&fields)])
        }
        None => Ok(Vec::new()),
    }
}

/// Lines joined back into text, each ended by a newline.
fn lines_text(lines: &[&str]) -> String {
    lines.iter().flat_map(|l| [l, "\n"]).collect()
}

/// A non-negative number at the start of `text`, with the rest.
fn number(text: &str) -> Option<(f64, &str)> {
    split_number(text).filter(|(v, _)| *v >= 0.0)
}

/// A number with an optional count suffix (`k`, `M`, `G`, `T`: powers of
/// 1000): `5.67 k` → 5670.
fn count(text: &str) -> Option<f64> {
    let (v, suffix) = number(text)?;
    units::count(v, suffix)
}

/// A time as ioping prints it, in seconds: `977.9 ms`, `4.00 s`, `1.2 min`.
fn time(text: &str) -> Option<f64> {
    let (v, unit) = number(text)?;
    units::seconds(v, unit)
}

/// A bandwidth as ioping prints it (`22.6 MiB/s`, 0.8's `mb/s`), in bytes
/// per second; ioping's sizes are always binary.
fn rate(text: &str) -> Option<f64> {
    let (v, unit) = number(text)?;
    units::bytes_per_sec(v, unit, Prefixes::Binary)
}

/// A byte size unit as ioping prints it (`B`, `KiB`, `MiB`, 0.8's `kb`),
/// always binary.
fn size_multiplier(unit: &str) -> Option<f64> {
    units::byte_multiplier(unit, Prefixes::Binary)
}

/// Reads `N requests completed in T, [S read|written,] X iops, Y MiB/s`,
/// with an optional `N too fast, N too slow,` in front.
fn completed_line(line: &str) -> Result<Parsed> {
    let bad = || {
        format!(
            "cannot read ioping summary line `{}` ({EXPECTED})",
            line.trim()
        )
    };
    let (head, tail) = line
        .split_once("requests completed in ")
        .with_context(bad)?;
    let mut parsed = Parsed::default();
    let mut head_fields: Vec<&str> = head.split(", ").map(str::trim).collect();
    let figure = |what: &str, text: &str, read: fn(&str) -> Option<f64>| {
        let field = format!("the {what} of ioping's summary line");
        number::from_text(&field, text, read)
            .map_err(|e| anyhow::Error::new(e).context("ioping output"))
    };
    let requests = figure("request count", head_fields.pop().with_context(bad)?, count)?;
    for f in head_fields {
        ignored_field(f, &mut parsed);
    }
    let mut fields = tail.split(", ").map(str::trim);
    let elapsed = figure("time", fields.next().with_context(bad)?, time)?;
    let (mut iops, mut bw) = (None, None);
    for f in fields {
        if let Some(n) = f.strip_suffix("iops") {
            iops = Some(figure("IOPS", n, count)?);
        } else if f.ends_with("/s") {
            bw = Some(figure("bandwidth", f, rate)?);
        } else if f.ends_with(" read") {
            parsed
                .parameters
                .insert("operation".into(), Value::from("read"));
        } else if f.ends_with(" written") {
            parsed
                .parameters
                .insert("operation".into(), Value::from("write"));
        }
    }
    let m = &mut parsed.metrics;
    m.insert("requests".into(), Metric::new(requests, Unit::Count));
    m.insert(
        "iops".into(),
        Metric::new(iops.with_context(bad)?, Unit::Iops),
    );
    m.insert(
        "bw".into(),
        Metric::new(bw.with_context(bad)?, Unit::BytesPerSec),
    );
    parsed
        .parameters
        .insert("requests_time".into(), Value::from(elapsed));
    Ok(parsed)
}

/// `N too fast` / `N too slow` into the parameters.
fn ignored_field(field: &str, parsed: &mut Parsed) {
    for (suffix, key) in [(" too fast", "too_fast"), (" too slow", "too_slow")] {
        if let Some(n) = field.trim().strip_suffix(suffix).and_then(count) {
            parsed.parameters.insert(key.into(), Value::from(n));
        }
    }
}

/// The `N too fast, N too slow,` in front of a `generated` line.
fn ignored_counts(line: &str, parsed: &mut Parsed) {
    let head = line.split("generated ").next().unwrap_or("");
    for f in head.split(", ") {
        ignored_field(f, parsed);
    }
}

/// ` = a us / b us / c ms / d us`, or ` = a/b/c/d ms` with one unit.
fn latency_line(stats: &str, parsed: &mut Parsed) -> Result<()> {
    let bad = || {
        format!("cannot read ioping latency line `min/avg/max/mdev{stats}` (expected `= a us / b us / c ms / d us`)")
    };
    let values = stats.trim().strip_prefix('=').with_context(bad)?;
    let parts: Vec<&str> = values.split('/').map(str::trim).collect();
    if parts.len() != 4 {
        bail!(bad());
    }
    let last_unit = parts
        .last()
        .and_then(|p| split_number(p))
        .map(|(_, u)| u)
        .filter(|u| !u.is_empty())
        .with_context(bad)?;
    for (name, part) in ["lat_min", "lat_avg", "lat_max", "lat_mdev"]
        .iter()
        .zip(parts)
    {
        let field = format!("the {} of ioping's min/avg/max/mdev line", &name[4..]);
        // a figure there, but not a number >= 0 (`-5 us`, `nan us`)
        let Some((_, unit)) = number(part) else {
            return Err(anyhow::Error::new(BadNumber::new(&field, part)).context("ioping output"));
        };
        let s = if unit.is_empty() {
            time(&format!("{part} {last_unit}"))
        } else {
            time(part)
        }
        .with_context(bad)?;
        parsed
            .metrics
            .insert((*name).into(), Metric::new(s, Unit::Seconds));
    }
    Ok(())
}

/// A per-request line (`4 KiB <<< /tmp (...): request=2 time=538.9 us`,
/// or 0.9's `4096 bytes from /tmp (...): request=2 time=0.2 ms`):
/// the request size in bytes.
fn request_line(line: &str) -> Option<u64> {
    // 1.x: `4 KiB <<< /tmp (...)`; 0.9: `4096 bytes from /tmp (...)`
    let marked = line.contains(" <<< ") || line.contains(" >>> ") || line.contains(" from ");
    if !marked || !line.contains("request=") {
        return None;
    }
    let (value, rest) = split_number(line)?;
    let unit = rest.split_whitespace().next()?;
    let bytes = value * size_multiplier(unit)?;
    (bytes.is_finite() && bytes >= 0.0 && bytes < u64::MAX as f64).then(|| bytes.round() as u64)
}

/// The direction a 1.x per-request line shows: `<<<` read, `>>>` write
/// (0.9's `from` says neither).
fn request_direction(line: &str) -> Option<&'static str> {
    if !line.contains("request=") {
        return None;
    }
    if line.contains(" <<< ") {
        Some("read")
    } else if line.contains(" >>> ") {
        Some("write")
    } else {
        None
    }
}

/// What ioping's output itself shows of a run: the request size (its
/// per-request lines, `-J`'s `io.size`) and the direction (`read` or
/// `written` in its summary, `<<<` or `>>>` in its request lines, `-J`'s
/// `io.operation`).
#[derive(Debug, Default, PartialEq)]
struct Shown {
    size: Option<u64>,
    operation: Option<String>,
}

impl Shown {
    /// What a result parsed from the output alone (no command applied) shows.
    fn of(parsed: &Parsed) -> Shown {
        Shown {
            size: parsed.parameters.get("size").and_then(Value::as_u64),
            operation: parsed
                .parameters
                .get("operation")
                .and_then(Value::as_str)
                .map(str::to_string),
        }
    }

    /// The test id of output without its command line: only what the
    /// output proves, `ioping-<read|write>-<size>` (`ioping-read-4k`), one
    /// part where the other is not shown, `ioping-unknown` where neither
    /// is (a `-B` line alone). The mode (`-R`, `-L`) is never guessed, so
    /// no such id is one of the benchmark set's.
    fn test_id(&self) -> String {
        let parts: Vec<String> = [
            self.operation.clone(),
            self.size.map(crate::units::short_size),
        ]
        .into_iter()
        .flatten()
        .collect();
        if parts.is_empty() {
            "ioping-unknown".to_string()
        } else {
            format!("ioping-{}", parts.join("-"))
        }
    }

    /// Fails, naming both, when the pasted command asks for another
    /// request size (`-s`) or direction (`-W` writes, no `-W` reads; `-G`
    /// does both) than the output below it shows.
    fn agrees_with(&self, cmd: &PastedCommand) -> Result<()> {
        let wrong = |asked: String, shown: String| {
            anyhow::anyhow!(
                "the pasted command `{}` asks for {asked}, but the ioping output below it shows {shown}; \
                 paste each output under the command that printed it, or without a command",
                cmd.text
            )
        };
        let asked = cmd.options.get(&'s').and_then(|s| size_arg(s));
        if let (Some(asked), Some(shown)) = (asked, self.size) {
            if asked != shown {
                return Err(wrong(
                    format!("{asked}-byte requests (`-s {}`)", cmd.options[&'s']),
                    format!("{shown}-byte requests"),
                ));
            }
        }
        if !cmd.flags.contains('G') {
            let asked = if cmd.flags.contains('W') {
                "write"
            } else {
                "read"
            };
            if let Some(shown) = self.operation.as_deref() {
                if shown != asked {
                    let how = if asked == "write" {
                        "writes (`-W`)"
                    } else {
                        "reads (no `-W`)"
                    };
                    let done = if shown == "write" { "writes" } else { "reads" };
                    return Err(wrong(how.to_string(), done.to_string()));
                }
            }
        }
        Ok(())
    }
}

/// A `-B` line: 8 or 10 numbers. A line of 8 or 10 words that starts
/// with a number and has at most two words that are not (`15387 fast
/// ...`) is one too: an error naming the first field that is not a number
/// >= 0 (a word, a negative, `nan` or `inf`).
fn batch_line(line: &str) -> Option<Result<Vec<f64>, BadNumber>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if !matches!(words.len(), 8 | 10) {
        return None;
    }
    let numbers: Vec<Option<f64>> = words.iter().map(|w| w.parse::<f64>().ok()).collect();
    let not_numbers = numbers.iter().filter(|n| n.is_none()).count();
    if numbers.first().copied().flatten().is_none() || not_numbers > 2 {
        return None;
    }
    let checked = words
        .iter()
        .zip(&numbers)
        .enumerate()
        .map(|(i, (w, n))| {
            let field = format!("field {} of the -B line", i + 1);
            match n {
                Some(v) => number::checked(&field, *v),
                None => Err(BadNumber::new(&field, w)),
            }
        })
        .collect();
    Some(checked)
}

/// Metrics from a batch line; ten fields are 1.x (ns), eight are 0.9 (us).
fn batch(fields: &[f64]) -> Parsed {
    // per second: nanoseconds (1.x) or microseconds (0.9)
    let scale = if fields.len() == 10 { 1e9 } else { 1e6 };
    let field = |i: usize| fields.get(i).copied().unwrap_or(0.0);
    let mut parsed = Parsed::default();
    let m = &mut parsed.metrics;
    m.insert("requests".into(), Metric::new(field(0), Unit::Count));
    if field(0) > 0.0 {
        m.insert("iops".into(), Metric::new(field(2), Unit::Iops));
        m.insert("bw".into(), Metric::new(field(3), Unit::BytesPerSec));
        for (i, name) in ["lat_min", "lat_avg", "lat_max", "lat_mdev"]
            .iter()
            .enumerate()
        {
            m.insert(
                (*name).into(),
                Metric::new(field(4 + i) / scale, Unit::Seconds),
            );
        }
    }
    parsed
        .parameters
        .insert("requests_time".into(), Value::from(field(1) / scale));
    if let Some(total) = fields.get(8) {
        parsed
            .parameters
            .insert("requests_total".into(), Value::from(*total));
    }
    parsed
}

/// Metrics from `-J` output: the last object with `stat`.
fn parse_json(text: &str) -> Result<Parsed> {
    let bad = |what: &str| format!("ioping JSON: {what} ({EXPECTED})");
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let value = stream
        .next()
        .with_context(|| bad("empty"))?
        .with_context(|| bad("not valid JSON"))?;
    let items = value.as_array().with_context(|| bad("not an array"))?;
    let stat = items
        .iter()
        .rev()
        .find_map(|o| o.get("stat"))
        .with_context(|| bad("no object with `stat`"))?;
    let stat = stat
        .as_object()
        .with_context(|| bad("`stat` is not an object"))?;
    let num = |key: &str| -> Result<f64> {
        number::json_field(stat, key, &format!("stat.{key}"))
            .map_err(|e| anyhow::Error::new(e).context("ioping JSON"))?
            .with_context(|| bad(&format!("`stat.{key}` missing")))
    };
    let mut parsed = Parsed::default();
    let requests = num("count")?;
    parsed
        .metrics
        .insert("requests".into(), Metric::new(requests, Unit::Count));
    if requests > 0.0 {
        let m = &mut parsed.metrics;
        m.insert("iops".into(), Metric::new(num("iops")?, Unit::Iops));
        m.insert("bw".into(), Metric::new(num("bps")?, Unit::BytesPerSec));
        for (key, name) in [
            ("min", "lat_min"),
            ("avg", "lat_avg"),
            ("max", "lat_max"),
            ("mdev", "lat_mdev"),
        ] {
            m.insert(name.into(), Metric::new(num(key)? / 1e9, Unit::Seconds));
        }
    }
    parsed
        .parameters
        .insert("requests_time".into(), Value::from(num("time")? / 1e9));
    if let Some(io) = items.iter().rev().find_map(|o| o.get("io")) {
        if let Some(op) = io.get("operation").and_then(Value::as_str) {
            parsed
                .parameters
                .insert("operation".into(), Value::from(op));
        }
        if let Some(size) = io.get("size").and_then(Value::as_u64) {
            parsed.parameters.insert("size".into(), Value::from(size));
        }
    }
    Ok(parsed)
}

/// `ioping 1.3` (what `ioping -v` prints).
fn version_line(line: &str) -> Option<String> {
    let v = line.trim().strip_prefix("ioping ")?;
    (!v.is_empty() && v.bytes().all(|b| b.is_ascii_digit() || b == b'.')).then(|| v.to_string())
}

/// An ioping command line pasted above its output.
#[derive(Clone, Debug, Default, PartialEq)]
struct PastedCommand {
    /// From `ioping` to the end of the line.
    text: String,
    /// Flag letters (`R`, `L`, `C`, `B`, ...), each once, as given.
    flags: String,
    /// Option letter to its value as written (`c` → `10`).
    options: BTreeMap<char, String>,
    /// The directory, file or device.
    target: Option<String>,
}

/// Option letters that take a value.
const VALUE_OPTIONS: &str = "abcilopPrsStTwe";
/// Flags that change what is measured, in the order test ids list them.
const MODE_FLAGS: &str = "RLCDWGAYyNH";

/// ioping's long option names and their letters.
const LONG: [(&str, char); 34] = [
    ("async", 'A'),
    ("batch", 'B'),
    ("cached", 'C'),
    ("direct", 'D'),
    ("read-write", 'G'),
    ("hipri", 'H'),
    ("json", 'J'),
    ("linear", 'L'),
    ("nowait", 'N'),
    ("rapid", 'R'),
    ("write", 'W'),
    ("sync", 'Y'),
    ("dsync", 'y'),
    ("keep", 'k'),
    ("quiet", 'q'),
    ("time", 'I'),
    ("warmup", 'a'),
    ("burst", 'b'),
    ("count", 'c'),
    ("entropy", 'e'),
    ("interval", 'i'),
    ("speed-limit", 'l'),
    ("work-offset", 'o'),
    ("print-count", 'p'),
    ("print-interval", 'P'),
    ("rate-limit", 'r'),
    ("size", 's'),
    ("work-size", 'S'),
    ("min-time", 't'),
    ("max-time", 'T'),
    ("work-time", 'w'),
    ("help", 'h'),
    ("version", 'v'),
    ("verbose", 'V'),
];

/// A line running ioping (`$ ioping -R /mnt`, `sudo ioping -c 10 .`).
fn command_line(line: &str) -> Option<PastedCommand> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let at = tokens
        .iter()
        .position(|t| *t == "ioping" || t.ends_with("/ioping"))?;
    let args = tokens.get(at + 1..)?;
    let option_like = |t: &&str| {
        let t = t.trim_start_matches('-');
        t.len() < 20 && t.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
    };
    let dashed = args.iter().any(|t| t.starts_with('-') && option_like(t));
    let lone_path = args.len() == 1
        && args
            .first()
            .is_some_and(|t| t.starts_with('/') || t.starts_with('.') || t.starts_with('~'));
    if !(dashed || lone_path) || line.contains("ioping statistics") {
        return None;
    }
    let start = line.find(tokens.get(at)?)?;
    let mut inv = PastedCommand {
        text: line.get(start..)?.trim().to_string(),
        ..PastedCommand::default()
    };
    let mut i = 0;
    while let Some(token) = args.get(i) {
        i += 1;
        let Some(body) = token.strip_prefix('-') else {
            inv.target = Some((*token).to_string());
            continue;
        };
        let name = body.strip_prefix('-').unwrap_or(body);
        if let Some((_, letter)) = LONG.iter().find(|(n, _)| *n == name) {
            if VALUE_OPTIONS.contains(*letter) {
                if let Some(v) = args.get(i) {
                    inv.options.insert(*letter, (*v).to_string());
                    i += 1;
                }
            } else if !inv.flags.contains(*letter) {
                inv.flags.push(*letter);
            }
            continue;
        }
        for (pos, letter) in body.char_indices() {
            if VALUE_OPTIONS.contains(letter) {
                let attached = body.get(pos + letter.len_utf8()..).unwrap_or("");
                let value = if attached.is_empty() {
                    i += 1;
                    args.get(i - 1).map(|v| (*v).to_string())
                } else {
                    Some(attached.to_string())
                };
                if let Some(v) = value {
                    inv.options.insert(letter, v);
                }
                break;
            }
            if letter == 'I' {
                break; // its format can only be attached
            }
            if !inv.flags.contains(letter) {
                inv.flags.push(letter);
            }
        }
    }
    Some(inv)
}

/// Reads one ioping command line (`ioping -RL /mnt`, `$ ioping -c 10 .`)
/// into its test id (see [`test_id`]), parameters and command, with no
/// metrics: the same reading [`parse`] gives a command line pasted above
/// ioping's output.
///
/// Fails when the line runs no ioping with an option or a lone path.
pub fn read_command(line: &str) -> Result<Parsed> {
    let Some(inv) = command_line(line) else {
        bail!(
            "`{line}`: expected an ioping command line with options or a path, \
             such as `ioping -c 10 /mnt` or `ioping -RL /mnt`"
        );
    };
    let mut parsed = Parsed::default();
    apply_command(&mut parsed, &inv);
    Ok(parsed)
}

/// An ioping time argument in seconds (default unit seconds).
fn time_arg(text: &str) -> Option<f64> {
    match number(text)? {
        (v, "") => Some(v),
        _ => time(&text.to_ascii_lowercase()),
    }
}

/// An ioping size argument in bytes (binary suffixes, `sector`, `page`).
fn size_arg(text: &str) -> Option<u64> {
    let (value, unit) = split_number(text)?;
    let multiplier = match unit.to_ascii_lowercase().as_str() {
        "sector" => 512.0,
        "page" => 4096.0,
        u => size_multiplier(u)?,
    };
    let bytes = value * multiplier;
    (bytes >= 0.0 && bytes < u64::MAX as f64).then(|| bytes.round() as u64)
}

/// An ioping count argument (`k`, `m`, `g`, `t`: powers of 1000).
fn count_arg(text: &str) -> Option<u64> {
    let (value, suffix) = split_number(text)?;
    let n = units::count(value, &suffix.to_ascii_lowercase())?;
    (n >= 0.0 && n < u64::MAX as f64).then(|| n.round() as u64)
}

/// The command's parameters and test id onto a result.
fn apply_command(parsed: &mut Parsed, inv: &PastedCommand) {
    let p = &mut parsed.parameters;
    let opt = |c: char| inv.options.get(&c).map(String::as_str);
    if let Some(n) = opt('c').and_then(count_arg) {
        p.insert("count".into(), Value::from(n));
    }
    if let Some(n) = opt('s').and_then(size_arg) {
        p.insert("size".into(), Value::from(n));
    }
    if let Some(n) = opt('S').and_then(size_arg) {
        p.insert("work_size".into(), Value::from(n));
    }
    if let Some(s) = opt('i').and_then(time_arg) {
        p.insert("interval".into(), Value::from(s));
    }
    if let Some(s) = opt('w').and_then(time_arg) {
        p.insert("work_time".into(), Value::from(s));
    }
    let modes = mode_flags(&effective_flags(inv));
    p.insert("flags".into(), Value::from(modes.as_str()));
    if let Some(t) = &inv.target {
        p.insert("target".into(), Value::from(t.as_str()));
    }
    if inv.flags.contains('W') {
        p.entry("operation".to_string())
            .or_insert(Value::from("write"));
    }
    parsed.test_id = Some(test_id(&modes));
    parsed.command = Some(inv.text.clone());
}

/// The flags of the test the command runs: its letters, with `R` added when
/// the options spell out what `-R` sets (`-i 0 -w 3 -S 64m`, ioping's
/// manual: "sets default interval to zero, stops measurement after 3
/// seconds and increases default working set size to 64m"; `-q`, which
/// `-R` also sets, changes only the output). Long options (`-rapid`,
/// `--linear`) are letters already.
fn effective_flags(inv: &PastedCommand) -> String {
    let mut flags = inv.flags.clone();
    let opt = |c: char| inv.options.get(&c).map(String::as_str);
    let spelled_rapid = opt('i').and_then(time_arg) == Some(0.0)
        && opt('w').and_then(time_arg) == Some(3.0)
        && opt('S').and_then(size_arg) == Some(64 << 20);
    if spelled_rapid && !flags.contains('R') {
        flags.push('R');
    }
    flags
}

/// The mode flags among `flags`, each once, in [`MODE_FLAGS`] order.
fn mode_flags(flags: &str) -> String {
    MODE_FLAGS.chars().filter(|c| flags.contains(*c)).collect()
}

/// The test id of an ioping run from its flag letters (`"RL"`, `"R"`, `""`).
///
/// Only the flags that change what is measured count (`R L C D W G A Y y N
/// H`); output flags such as `B`, `J`, `q` and options such as `-c` do
/// not. A pasted command's flags are its effective mode: `-q -i 0 -w 3 -S
/// 64m` is `-R`, `-rapid -linear` is `-RL`. No mode flag is `ioping-latency` (`ioping -c 10 DIR`), `R` is
/// `ioping-seek`, `RL` is `ioping-seq`, `RLC` is `ioping-seq-cached`; any
/// other set is `ioping-` followed by its letters in the order above, so
/// `ioping -D -c 10` is `ioping-D` and `ioping -RLD` is `ioping-RLD`.
pub fn test_id(flags: &str) -> String {
    match mode_flags(flags).as_str() {
        "" => "ioping-latency".to_string(),
        "R" => "ioping-seek".to_string(),
        "RL" => "ioping-seq".to_string(),
        "RLC" => "ioping-seq-cached".to_string(),
        other => format!("ioping-{other}"),
    }
}

// --------------------------------------------------------------- registry

/// ioping in the tool registry.
pub struct Ioping;

impl Output for Ioping {
    fn tool(&self) -> Tool {
        Tool::Ioping
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

    // "ioping 1.3"
    fn version_from_text(&self, text: &str) -> Option<String> {
        Some(
            first_line(text)?
                .strip_prefix("ioping ")?
                .trim()
                .to_string(),
        )
    }
}

impl Command for Ioping {
    fn build(&self, params: &Params, ctx: &BuildCtx) -> Result<Invocation> {
        command(params, ctx)
    }

    fn headline(&self, params: &Params) -> &'static str {
        let flag = |k: &str| params.get(k).and_then(Value::as_bool).unwrap_or(false);
        if !flag("rapid") {
            "lat_avg"
        } else if flag("linear") {
            "bw"
        } else {
            "iops"
        }
    }
}

impl Install for Ioping {
    fn version_probe(&self) -> Option<(&'static str, &'static str)> {
        Some(("ioping", "-v"))
    }

    fn package(&self, _family: &str) -> &'static str {
        "ioping"
    }
}

impl Judge for Ioping {
    // records keep ioping's mode letters (`R`, `RL`, `RLC`)
    fn kind(&self, params: &BTreeMap<String, Value>) -> TestKind {
        let flags = params.get("flags").and_then(Value::as_str).unwrap_or("");
        if flags.contains('C') {
            TestKind::PageCache
        } else if flags.contains('R') && flags.contains('L') {
            TestKind::Throughput
        } else if flags.contains('R') {
            TestKind::Seek
        } else {
            TestKind::Latency
        }
    }

    // its mode letters, request size and direction; counts and intervals
    // only say how many requests were timed
    fn identity(
        &self,
        params: &BTreeMap<String, Value>,
        _ram: Option<u64>,
    ) -> Vec<(&'static str, String)> {
        let mut parts = Vec::new();
        if let Some(flags) = super::param_text(params, "flags") {
            let words = if flags.is_empty() {
                "no mode flags".to_string()
            } else {
                format!("-{flags}")
            };
            parts.push(("mode flags", words));
        }
        // ioping's defaults: 4 KiB read requests (`-s`, `-W`)
        let size = super::param_bytes(params, "size").unwrap_or(4096);
        parts.push((
            "request size",
            format!("{} requests", crate::format::size(size)),
        ));
        let op = super::param_text(params, "operation").unwrap_or_else(|| "read".into());
        parts.push(("direction", op));
        parts
    }
}
