//! yabs (yet-another-bench-script) output: fio results as the script prints
//! them, read into one result per block size.
//!
//! yabs runs `fio --rw=randrw --rwmixread=50 --bs=<4k|64k|512k|1m>
//! --iodepth=64 --numjobs=2 --ioengine=libaio --direct=1 --runtime=30
//! --group_reporting --minimal` and prints, from fio's terse fields, read,
//! write and total bandwidth and IOPS:
//!
//! - its text block `fio Disk Speed Tests (Mixed R/W 50/50):` with rows
//!   `Read | 405.41 MB/s (101.3k) | 407.96 MB/s (6.3k)`. Figures are cut
//!   (not rounded) to two decimals, IOPS to one decimal of `k`. Before
//!   v2026-07-03 the script divided fio's KiB/s by 1000 and called it
//!   `MB/s` (so `MB` there is 1000 KiB and `KB` is KiB); from v2026-07-03
//!   on it prints true SI units. Text without the version header is read
//!   the old way, as nearly every paste predates the change;
//!   The table's column heads (`Block Size | 4k (IOPS) | 64k (IOPS)`) are
//!   yabs's alone, so a table whose heading was lost is still read;
//! - its `-j`/`-w` JSON: `"fio": [{"bs": "4k", "speed_r": 405417,
//!   "iops_r": 101354, ..., "speed_units": "KBps"}]`, where `KBps` is fio's
//!   KiB/s (no `speed_units` in v2022-08-17; in v2022-08-15 an array per
//!   block size, `["4k", speed_r, iops_r, speed_w, iops_w, ...]`).
//!
//! The results are fio's (tool `fio`), with parameters saying that yabs ran
//! it: `runner: "yabs"`, `yabs_version`, and what yabs passes to fio. A
//! file of several yabs runs (a README pasting several machines' runs)
//! gives every run's results, each with `run_in_file`, its position.

use std::collections::BTreeMap;

use anyhow::{bail, Result};
use serde_json::Value;

use super::options::option_size;
use super::test_id;
use crate::record::Metric;
use crate::tools::date::{self, Dated};
use crate::tools::number::{self, json_field, BadNumber};
use crate::tools::Parsed;
use crate::units::{self, Unit};

/// The heading of yabs's fio block.
const HEADING: &str = "fio Disk Speed Tests";

/// The first yabs version whose text prints SI units.
const SI_TEXT_FROM: &str = "v2026-07-03";

/// Whether `text` is yabs output with a fio section (text or JSON): its
/// heading, the exact column heads of its table, or its JSON.
pub(super) fn looks_like(text: &str) -> bool {
    text.contains(HEADING) || text.lines().any(yabs_heads) || !json_docs(text).is_empty()
}

/// Parses yabs output; `None` when `text` is not yabs's. Every yabs run
/// in the text gives its results (see [`tables`]); when the text holds at
/// least as many yabs JSON documents as fio tables (`-j` prints the JSON
/// after the text of the same run), the JSON is read, else the tables.
pub(super) fn parse(text: &str) -> Option<Result<Vec<Parsed>>> {
    let docs = json_docs(text);
    let tables = tables(text);
    if docs.is_empty() && tables.is_empty() {
        return None;
    }
    Some(if docs.len() >= tables.len() {
        from_json_docs(text, &docs)
    } else {
        from_tables(text, &tables)
    })
}

/// A yabs JSON document found in the text: where it starts, and the value.
struct JsonDoc {
    start: usize,
    doc: Value,
}

/// The longest yabs JSON document read: yabs's own are a few KiB.
const JSON_MAX: usize = 1 << 20;

/// How many `{` starts that are no JSON value are tried before the rest of
/// the text is taken to hold no yabs JSON, so that text of many such lines
/// is read in linear time.
const JSON_FAILED_MAX: usize = 64;

/// The yabs JSON documents of `text`, in order: objects with a `fio` array
/// of block sizes, starting at the text's first `{` or at a line that
/// starts with `{` (yabs prints `{"version":...` on a line of its own), each
/// at most [`JSON_MAX`] bytes; after [`JSON_FAILED_MAX`] starts that are no
/// JSON value, no more are tried.
fn json_docs(text: &str) -> Vec<JsonDoc> {
    let mut starts: Vec<usize> = text.find('{').into_iter().collect();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let indent = line.len() - line.trim_start().len();
        if line.trim_start().starts_with('{') {
            starts.push(offset + indent);
        }
        offset += line.len();
    }
    starts.sort_unstable();
    starts.dedup();
    let mut out = Vec::new();
    let mut done_to = 0;
    let mut failed = 0;
    for start in starts {
        if start < done_to {
            continue;
        }
        if failed >= JSON_FAILED_MAX {
            break;
        }
        let mut end = (start + JSON_MAX).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let Some(rest) = text.get(start..end) else {
            continue;
        };
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
        let Some(Ok(doc)) = stream.next() else {
            failed += 1;
            continue;
        };
        done_to = start + stream.byte_offset().max(1);
        if is_yabs_doc(&doc) {
            out.push(JsonDoc { start, doc });
        }
    }
    out
}

/// A yabs JSON document: an object with a `fio` array of block sizes,
/// each an object (`{"bs": "4k", "speed_r": ...}`, from v2022-08-17) or
/// an array (`["4k", speed_r, iops_r, speed_w, iops_w, ...]`, v2022-08-15).
fn is_yabs_doc(doc: &Value) -> bool {
    let Some(entries) = doc.get("fio").and_then(Value::as_array) else {
        return false;
    };
    entries.iter().any(|e| match e {
        Value::Object(o) => o.contains_key("speed_r") || o.contains_key("iops_r"),
        Value::Array(a) => a.len() >= 5 && a.first().is_some_and(Value::is_string),
        _ => false,
    })
}

/// The parameters yabs gives fio, for a block size.
fn parameters(bs: u64, version: Option<&str>, form: &str) -> BTreeMap<String, Value> {
    let mut p = BTreeMap::new();
    p.insert("rw".into(), Value::from("randrw"));
    p.insert("rwmixread".into(), Value::from(50));
    p.insert("bs".into(), Value::from(bs));
    p.insert("iodepth".into(), Value::from(64));
    p.insert("numjobs".into(), Value::from(2));
    p.insert("ioengine".into(), Value::from("libaio"));
    p.insert("direct".into(), Value::from(1));
    p.insert("runtime".into(), Value::from(30.0));
    p.insert("runner".into(), Value::from("yabs"));
    p.insert("yabs_output".into(), Value::from(form));
    if let Some(v) = version {
        p.insert("yabs_version".into(), Value::from(v));
    }
    p
}

/// One block size's figures in canonical units.
fn result(bs: u64, figures: [Option<f64>; 4], params: BTreeMap<String, Value>) -> Parsed {
    let mut metrics = BTreeMap::new();
    let names = [
        ("read_bw", Unit::BytesPerSec),
        ("write_bw", Unit::BytesPerSec),
        ("read_iops", Unit::Iops),
        ("write_iops", Unit::Iops),
    ];
    for ((name, unit), v) in names.into_iter().zip(figures) {
        // read as numbers >= 0; one made infinite by its unit is kept, for
        // validation to refuse
        if let Some(v) = v {
            metrics.insert(name.to_string(), Metric::new(v, unit));
        }
    }
    Parsed {
        metrics,
        parameters: params,
        test_id: Some(test_id("randrw", bs, 64, 2)),
        ..Parsed::default()
    }
}

/// Several runs: each result gets `run_in_file` (the run's position in
/// the text, from 1) and its run's part of the text as its raw output.
fn mark_runs(runs: Vec<Vec<Parsed>>, text: &str, cuts: &[usize]) -> Vec<Parsed> {
    let many = runs.len() > 1;
    let parts = crate::tools::parts_at(text, cuts);
    let mut out = Vec::new();
    for (k, (results, part)) in runs.into_iter().zip(parts).enumerate() {
        for mut p in results {
            if many {
                p.parameters
                    .insert("run_in_file".into(), Value::from(k + 1));
                p.part = Some(part.clone());
            }
            out.push(p);
        }
    }
    out
}

/// What a run is called in a message: `yabs run 2 of 3` when
/// the text holds several, else `yabs`.
fn run_name(k: usize, n: usize) -> String {
    if n > 1 {
        format!("yabs run {} of {n}", k + 1)
    } else {
        "yabs".to_string()
    }
}

fn from_json_docs(text: &str, docs: &[JsonDoc]) -> Result<Vec<Parsed>> {
    let mut runs = Vec::new();
    let mut cuts = Vec::new();
    let mut searched_from = 0;
    for (k, d) in docs.iter().enumerate() {
        let mut results = from_json(&d.doc, &run_name(k, docs.len()))?;
        // the header's `date` (with its zone) where the text of the run
        // is above its JSON, else the JSON's `time`
        let header = text.get(searched_from..d.start).and_then(header_date);
        let time = d.doc.get("time").and_then(Value::as_str);
        let when = header.or_else(|| time.and_then(date::compact));
        dated(&mut results, when);
        runs.push(results);
        cuts.push(if k == 0 { 0 } else { d.start });
        searched_from = d.start;
    }
    Ok(mark_runs(runs, text, &cuts))
}

/// The date yabs prints under its header box (`date`'s output, in the
/// machine's locale and zone: `Tue Feb  4 19:04:24 UTC 2020`, `Sun 23 Apr
/// 2023 01:41:14 PM EDT`): the last date line of a run's text above its
/// results.
fn header_date(run: &str) -> Option<Dated> {
    date::lines_in(run).pop().map(|(_, d)| d)
}

/// Gives every result of a run its date.
fn dated(results: &mut [Parsed], when: Option<Dated>) {
    for r in results {
        r.date = when.clone();
    }
}

fn from_json(doc: &Value, run: &str) -> Result<Vec<Parsed>> {
    let version = doc.get("version").and_then(Value::as_str);
    let mut out = Vec::new();
    for (i, e) in doc
        .get("fio")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        // v2022-08-15 printed each block size as an array
        let (obj, names) = match e {
            Value::Object(o) => (o.clone(), None),
            Value::Array(a) => {
                let keys = ["bs", "speed_r", "iops_r", "speed_w", "iops_w"];
                let o = keys
                    .iter()
                    .zip(a)
                    .map(|(k, v)| (k.to_string(), v.clone()))
                    .collect::<serde_json::Map<_, _>>();
                (o, Some(keys))
            }
            _ => continue,
        };
        let Some(bs) = obj
            .get("bs")
            .and_then(Value::as_str)
            .and_then(|b| option_size(b, false))
        else {
            continue;
        };
        let units = obj
            .get("speed_units")
            .and_then(Value::as_str)
            .unwrap_or("KBps");
        if units != "KBps" {
            bail!("{run} JSON output with speed_units `{units}` (expected `KBps`, fio's KiB/s)");
        }
        let n = |k: &str| {
            let field = match names.and_then(|n| n.iter().position(|x| *x == k)) {
                Some(at) => format!("fio[{i}][{at}] ({k})"),
                None => format!("fio[{i}].{k}"),
            };
            json_field(&obj, k, &field)
                .map_err(|e| anyhow::Error::new(e).context(format!("{run} JSON output")))
        };
        let kib = |k: &str| Ok::<_, anyhow::Error>(n(k)?.map(|v| v * 1024.0));
        let figures = [kib("speed_r")?, kib("speed_w")?, n("iops_r")?, n("iops_w")?];
        out.push(result(bs, figures, parameters(bs, version, "json")));
    }
    if out.is_empty() {
        bail!("{run} JSON output holds no fio results (expected a \"fio\" array of block sizes with speed_r, iops_r, speed_w, iops_w)");
    }
    Ok(out)
}

/// The version in yabs's header box (`#   v2023-04-23   #`).
pub(crate) fn text_version(text: &str) -> Option<&str> {
    text.lines().find_map(|l| {
        let t = l.trim().trim_matches('#').trim();
        let digits = t.strip_prefix('v')?;
        (digits.len() == 10
            && digits.bytes().enumerate().all(|(i, b)| {
                if i == 4 || i == 7 {
                    b == b'-'
                } else {
                    b.is_ascii_digit()
                }
            }))
        .then_some(t)
    })
}

/// `405.41 MB/s` as B/s: `MB` is 1000 KiB in old yabs text, 10⁶ B from
/// v2026-07-03.
fn text_speed(cell: &str, si: bool) -> Option<f64> {
    let mut words = cell.split_whitespace();
    let n: f64 = words.next()?.parse().ok()?;
    let unit = words.next()?;
    let power = match unit {
        "KB/s" => 1,
        "MB/s" => 2,
        "GB/s" => 3,
        _ => return None,
    };
    let v = if si {
        n * 1000f64.powi(power)
    } else {
        // fio's KiB/s divided by 1000^(power-1)
        n * 1000f64.powi(power - 1) * 1024.0
    };
    v.is_finite().then_some(v)
}

/// `(101.3k)`, `(742)` as IOPS.
fn text_iops(cell: &str) -> Option<f64> {
    let inner = cell.trim().strip_prefix('(')?.strip_suffix(')')?;
    let (n, suffix) = units::split_number(inner)?;
    units::count(n, suffix)
}

/// A figure cell `405.41 MB/s (101.3k)`: speed and IOPS; an empty cell
/// is neither; an error naming `field` when what the cell holds is not a
/// number >= 0 in yabs's form.
fn figure(cell: &str, si: bool, field: &str) -> Result<(Option<f64>, Option<f64>), BadNumber> {
    let (speed, iops) = match cell.find('(') {
        Some(i) => (
            cell.get(..i).unwrap_or_default(),
            Some(cell.get(i..).unwrap_or_default()),
        ),
        None => (cell, None),
    };
    let speed = match speed.trim() {
        "" => None,
        t => Some(number::from_text(field, t, |t| text_speed(t, si))?),
    };
    let iops = match iops {
        Some(t) => Some(number::from_text(field, t, text_iops)?),
        None => None,
    };
    Ok((speed, iops))
}

/// The cells of a table line, trimmed, with runs of spaces made one.
fn cells(line: &str) -> Vec<String> {
    line.split('|')
        .map(|c| c.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// Whether `line` is the first line of yabs's fio table as the script
/// prints it: `Block Size | 4k (IOPS) | 64k (IOPS)` (`4kb`, `64kb` before
/// v2020-09-21), whatever the spacing. No other tool prints these heads,
/// so the table is read without its `fio Disk Speed Tests` heading.
fn yabs_heads(line: &str) -> bool {
    let c = cells(line);
    let c: Vec<&str> = c.iter().map(String::as_str).collect();
    matches!(
        c.as_slice(),
        ["Block Size", "4k (IOPS)", "64k (IOPS)"] | ["Block Size", "4kb (IOPS)", "64kb (IOPS)"]
    )
}

/// The block sizes a `Block Size | 512k (IOPS) | 1m (IOPS)` line names.
fn block_sizes(line: &str) -> Option<Vec<String>> {
    let c = cells(line);
    let (label, rest) = c.split_first()?;
    (label == "Block Size").then(|| {
        rest.iter()
            .filter_map(|c| c.split_whitespace().next().map(str::to_string))
            .collect()
    })
}

/// One yabs fio table in the text.
struct Table<'a> {
    /// Where its run begins: yabs's header box above it (when one stands
    /// between it and the table before), else the table itself.
    run_start: usize,
    /// Where the table (its heading, or its first `Block Size` line) begins.
    start: usize,
    /// Whether it stands under the `fio Disk Speed Tests` heading.
    headed: bool,
    /// Its lines, after the heading.
    lines: Vec<&'a str>,
    /// The block sizes its `Block Size` lines named.
    sizes: Vec<String>,
}

/// yabs's fio tables in `text`, one per yabs run, in order. A table begins
/// at the `fio Disk Speed Tests` heading, or, without it (lost in a
/// terminal copy), at a line with yabs's exact column heads ([`yabs_heads`]);
/// it holds the table lines (with `|`), blank lines and dashed rules that
/// follow, and ends at any other line (yabs's next section). A `Block Size`
/// line that names a block size the table already has begins the next
/// run's table.
fn tables(text: &str) -> Vec<Table<'_>> {
    let mut out: Vec<Table> = Vec::new();
    let mut cur: Option<Table> = None;
    // the first line of a yabs header box since the last table
    let mut box_at: Option<usize> = None;
    let mut prev: Option<(usize, &str)> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let at = offset;
        offset += line.len();
        let t = line.trim();
        let new_table = |headed: bool, box_at: &mut Option<usize>| Table {
            run_start: box_at.take().unwrap_or(at),
            start: at,
            headed,
            lines: Vec::new(),
            sizes: Vec::new(),
        };
        if t.contains(HEADING) {
            out.extend(cur.take());
            cur = Some(new_table(true, &mut box_at));
        } else if let Some(sizes) = block_sizes(t) {
            let repeated = cur
                .as_ref()
                .is_some_and(|c| sizes.iter().any(|s| c.sizes.contains(s)));
            if cur.is_none() || repeated {
                if !yabs_heads(t) {
                    // not a table of yabs's
                    out.extend(cur.take());
                    prev = Some((at, t));
                    continue;
                }
                out.extend(cur.take());
                cur = Some(new_table(false, &mut box_at));
            }
            if let Some(c) = cur.as_mut() {
                c.sizes.extend(sizes);
                c.lines.push(line);
            }
        } else if let Some(c) = cur.as_mut() {
            if t.is_empty() || t.contains('|') || t.starts_with('-') {
                c.lines.push(line);
            } else {
                out.extend(cur.take());
            }
        }
        if cur.is_none() && box_at.is_none() && t.contains("Yet-Another-Bench-Script") {
            // the box's top rule is the line above
            box_at = Some(match prev {
                Some((p, pt)) if pt.starts_with('#') => p,
                _ => at,
            });
        }
        prev = Some((at, t));
    }
    out.extend(cur);
    out
}

/// The results of one table.
fn from_table(table: &Table, version: Option<&str>, run: &str) -> Result<Vec<Parsed>> {
    let si = version.is_some_and(|v| v >= SI_TEXT_FROM);
    let mut out = Vec::new();
    let mut sizes: Vec<u64> = Vec::new();
    // per column: read (speed, iops), write (speed, iops)
    let mut rows: Vec<[(Option<f64>, Option<f64>); 2]> = Vec::new();
    let flush = |sizes: &mut Vec<u64>,
                 rows: &mut Vec<[(Option<f64>, Option<f64>); 2]>,
                 out: &mut Vec<Parsed>| {
        for (k, bs) in sizes.iter().enumerate() {
            if let Some([(rs, ri), (ws, wi)]) = rows.get(k).copied() {
                let mut params = parameters(*bs, version, "text");
                params.insert(
                    "yabs_text_mb".into(),
                    Value::from(if si { "1000000 B/s" } else { "1000 KiB/s" }),
                );
                out.push(result(*bs, [rs, ws, ri, wi], params));
            }
        }
        sizes.clear();
        rows.clear();
    };
    for line in &table.lines {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some((&label, rest)) = cells.split_first() else {
            continue;
        };
        match label {
            "Block Size" => {
                flush(&mut sizes, &mut rows, &mut out);
                sizes = rest
                    .iter()
                    .filter_map(|c| option_size(c.split_whitespace().next()?, false))
                    .collect();
            }
            "Read" | "Write" => {
                let slot = usize::from(label == "Write");
                for (k, c) in rest.iter().enumerate() {
                    if rows.len() <= k {
                        rows.push([(None, None); 2]);
                    }
                    let field = format!("the `{label}` row's column {} of yabs's fio table", k + 1);
                    let figures = figure(c, si, &field)
                        .map_err(|e| anyhow::Error::new(e).context(format!("{run} output")))?;
                    if let Some(cell) = rows.get_mut(k).and_then(|r| r.get_mut(slot)) {
                        *cell = figures;
                    }
                }
            }
            _ => {}
        }
    }
    flush(&mut sizes, &mut rows, &mut out);
    if out.is_empty() {
        if table.headed {
            bail!(
                "{run} output without fio results (expected `Block Size | 4k (IOPS) | 64k (IOPS)` \
                 rows under `fio Disk Speed Tests`; yabs prints dd results instead when fio failed)"
            );
        }
        bail!(
            "{run} output: its fio table (`Block Size | 4k (IOPS) | 64k (IOPS)`, without the \
             `fio Disk Speed Tests` heading) holds no `Read` and `Write` rows of figures"
        );
    }
    Ok(out)
}

fn from_tables(text: &str, tables: &[Table]) -> Result<Vec<Parsed>> {
    let mut runs = Vec::new();
    let mut cuts = Vec::new();
    let mut searched_from = 0;
    for (k, table) in tables.iter().enumerate() {
        // the version in the header box of this run, not of the one before
        let version = text.get(searched_from..table.start).and_then(text_version);
        let mut results = from_table(table, version, &run_name(k, tables.len()))?;
        dated(
            &mut results,
            text.get(searched_from..table.start).and_then(header_date),
        );
        runs.push(results);
        cuts.push(if k == 0 { 0 } else { table.run_start });
        searched_from = table.start;
    }
    Ok(mark_runs(runs, text, &cuts))
}

#[cfg(test)]
mod tests;
