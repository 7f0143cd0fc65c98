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
//! - its `-j` JSON: `"fio": [{"bs": "4k", "speed_r": 405417, "iops_r":
//!   101354, ..., "speed_units": "KBps"}]`, where `KBps` is fio's KiB/s.
//!
//! The results are fio's (tool `fio`), with parameters saying that yabs ran
//! it: `runner: "yabs"`, `yabs_version`, and what yabs passes to fio.

use std::collections::BTreeMap;

use anyhow::{bail, Result};
use serde_json::Value;

use super::json::first_json_value;
use super::options::option_size;
use super::test_id;
use crate::record::Metric;
use crate::tools::number::{self, json_field, BadNumber};
use crate::tools::Parsed;
use crate::units::Unit;

/// The heading of yabs's fio block.
const HEADING: &str = "fio Disk Speed Tests";

/// The first yabs version whose text prints SI units.
const SI_TEXT_FROM: &str = "v2026-07-03";

/// Whether `text` is yabs output with a fio section (text or JSON).
pub(super) fn looks_like(text: &str) -> bool {
    text.contains(HEADING) || yabs_json(text).is_some()
}

/// Parses yabs output; `None` when `text` is not yabs's.
pub(super) fn parse(text: &str) -> Option<Result<Vec<Parsed>>> {
    if let Some(doc) = yabs_json(text) {
        return Some(from_json(&doc));
    }
    text.contains(HEADING).then(|| from_text(text))
}

/// A yabs JSON document: an object with a `fio` array of block sizes.
fn yabs_json(text: &str) -> Option<Value> {
    let start = text.find('{')?;
    let doc = first_json_value(text.get(start..)?)?;
    let entries = doc.get("fio")?.as_array()?;
    entries
        .iter()
        .any(|e| e.get("speed_r").is_some() || e.get("iops_r").is_some())
        .then_some(doc)
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

fn from_json(doc: &Value) -> Result<Vec<Parsed>> {
    let version = doc.get("version").and_then(Value::as_str);
    let mut out = Vec::new();
    for (i, e) in doc
        .get("fio")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let Some(bs) = e
            .get("bs")
            .and_then(Value::as_str)
            .and_then(|b| option_size(b, false))
        else {
            continue;
        };
        let units = e
            .get("speed_units")
            .and_then(Value::as_str)
            .unwrap_or("KBps");
        if units != "KBps" {
            bail!("yabs JSON output with speed_units `{units}` (expected `KBps`, fio's KiB/s)");
        }
        let Some(obj) = e.as_object() else { continue };
        let n = |k: &str| {
            json_field(obj, k, &format!("fio[{i}].{k}"))
                .map_err(|e| anyhow::Error::new(e).context("yabs JSON output"))
        };
        let kib = |k: &str| Ok::<_, anyhow::Error>(n(k)?.map(|v| v * 1024.0));
        let figures = [kib("speed_r")?, kib("speed_w")?, n("iops_r")?, n("iops_w")?];
        out.push(result(bs, figures, parameters(bs, version, "json")));
    }
    if out.is_empty() {
        bail!("yabs JSON output holds no fio results (expected a \"fio\" array of block sizes with speed_r, iops_r, speed_w, iops_w)");
    }
    Ok(out)
}

/// The version in yabs's header box (`#   v2023-04-23   #`).
fn text_version(text: &str) -> Option<&str> {
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
    let inner = cell.trim().strip_prefix('(')?.strip_suffix(')')?.trim();
    match inner.strip_suffix('k') {
        Some(k) => Some(k.parse::<f64>().ok()? * 1000.0),
        None => inner.parse().ok(),
    }
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

fn from_text(text: &str) -> Result<Vec<Parsed>> {
    let version = text_version(text);
    let si = version.is_some_and(|v| v >= SI_TEXT_FROM);
    let mut out = Vec::new();
    let section = text
        .find(HEADING)
        .and_then(|i| text.get(i..))
        .unwrap_or_default();
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
    for line in section.lines().skip(1) {
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
                        .map_err(|e| anyhow::Error::new(e).context("yabs output"))?;
                    if let Some(cell) = rows.get_mut(k).and_then(|r| r.get_mut(slot)) {
                        *cell = figures;
                    }
                }
            }
            "Total" | "" | "------" => {}
            _ if line.trim().is_empty() => {}
            _ if line.trim_start().starts_with('-') => {}
            // the next section of yabs's report
            _ if !line.contains('|') => break,
            _ => {}
        }
    }
    flush(&mut sizes, &mut rows, &mut out);
    if out.is_empty() {
        bail!(
            "yabs output without fio results (expected `Block Size | 4k (IOPS) | 64k (IOPS)` \
             rows under `fio Disk Speed Tests`; yabs prints dd results instead when fio failed)"
        );
    }
    Ok(out)
}
