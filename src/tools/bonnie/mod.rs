//! `bonnie`: building its command line and parsing its output: the three
//! CSV layouts bonnie++ has printed (1.0x, 1.96/1.97, 1.98 on) and the
//! text tables of 1.0x and 1.96/1.97 where no CSV line came with them
//! (`table`). The layouts column by column, the quirks of real output and
//! what `+++++` and an empty field mean: docs/import.md, "Formats read".

use std::collections::BTreeMap;

use anyhow::{anyhow, bail, Context, Result};
use serde_json::Value;

use super::argv::{BuildCtx, Invocation, Params};
use super::{Command, Install, Judge, Output, Parsed};
use crate::metrics::TestKind;
use crate::record::{Metric, Tool};
use crate::units::{self, Unit};

mod invocation;
mod pasted;
mod table;

#[cfg(test)]
mod tests;

pub use invocation::command;
pub use pasted::read_command;

use pasted::{command_line, command_parameters, PastedCommand};

// ---------------------------------------------------------------- parsing

/// The test id of every bonnie++ result: one bonnie++ run is one test.
pub fn test_id() -> &'static str {
    "bonnie"
}

/// The six I/O tests in CSV order, as metric names, with their unit.
const IO_METRICS: [(&str, Unit); 6] = [
    ("seq_char_write_bw", Unit::BytesPerSec),
    ("seq_block_write_bw", Unit::BytesPerSec),
    ("rewrite_bw", Unit::BytesPerSec),
    ("seq_char_read_bw", Unit::BytesPerSec),
    ("seq_block_read_bw", Unit::BytesPerSec),
    ("random_seeks", Unit::OpsPerSec),
];

/// The six file tests in CSV order, as metric names (files per second).
const FILE_METRICS: [&str; 6] = [
    "seq_create",
    "seq_stat",
    "seq_delete",
    "random_create",
    "random_stat",
    "random_delete",
];

/// Column names of format 1.98, as bon_csv2html(1) lists them.
const COLUMNS_198: &str = "format_version,bonnie_version,name,concurrency,seed,file_size,\
chunk_size,seeks,seek_proc_count,putc,putc_cpu,put_block,put_block_cpu,rewrite,rewrite_cpu,\
getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu,num_files,max_size,min_size,num_dirs,\
file_chunk_size,seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,\
ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu,putc_latency,\
put_block_latency,rewrite_latency,getc_latency,get_block_latency,seeks_latency,\
seq_create_latency,seq_stat_latency,seq_del_latency,ran_create_latency,ran_stat_latency,\
ran_del_latency";

/// Column names of format 1.96/1.97: the header bonnie++ 1.96 to 2.00a print.
const COLUMNS_196: &str = "format_version,bonnie_version,name,concurrency,seed,file_size,\
io_chunk_size,putc,putc_cpu,put_block,put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,\
get_block,get_block_cpu,seeks,seeks_cpu,num_files,max_size,min_size,num_dirs,file_chunk_size,\
seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,ran_create,ran_create_cpu,\
ran_stat,ran_stat_cpu,ran_del,ran_del_cpu,putc_latency,put_block_latency,rewrite_latency,\
getc_latency,get_block_latency,seeks_latency,seq_create_latency,seq_stat_latency,\
seq_del_latency,ran_create_latency,ran_stat_latency,ran_del_latency";

/// Column names of format 1 (bonnie++ 1.0x), the header it prints.
const COLUMNS_1: &str = "name,file_size,putc,putc_cpu,put_block,put_block_cpu,rewrite,\
rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu,num_files,seq_create,\
seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,ran_create,ran_create_cpu,ran_stat,\
ran_stat_cpu,ran_del,ran_del_cpu";

/// One of the three CSV layouts: where each group of columns starts.
struct Layout {
    /// `1.98`, `1.96/1.97` or `1`, for messages.
    name: &'static str,
    /// Comma-separated column names.
    columns: &'static str,
    /// Whether columns 0 and 1 hold the format and bonnie++ versions, and
    /// a chunk-size column follows file_size (1.9x), or not (1.0x).
    versioned: bool,
    /// The format_version values this layout carries.
    formats: &'static [&'static str],
    /// Index of the seek count (followed by the seeker process count).
    seeks: Option<usize>,
    /// Index of the machine name.
    name_col: usize,
    /// Index of file_size.
    file_size: usize,
    /// Index of the first I/O result (putc).
    io: usize,
    /// Index of num_files.
    files: usize,
    /// Index of the first file result (seq_create).
    file_results: usize,
    /// Index of the first latency, if the format has them.
    latency: Option<usize>,
}

const LAYOUT_198: Layout = Layout {
    name: "1.98",
    versioned: true,
    formats: &["1.98"],
    seeks: Some(7),
    columns: COLUMNS_198,
    name_col: 2,
    file_size: 5,
    io: 9,
    files: 21,
    file_results: 26,
    latency: Some(38),
};

const LAYOUT_196: Layout = Layout {
    name: "1.96/1.97",
    versioned: true,
    formats: &["1.96", "1.97"],
    seeks: None,
    columns: COLUMNS_196,
    name_col: 2,
    file_size: 5,
    io: 7,
    files: 19,
    file_results: 24,
    latency: Some(36),
};

const LAYOUT_1: Layout = Layout {
    name: "1 (bonnie++ 1.0x)",
    versioned: false,
    formats: &[],
    seeks: None,
    columns: COLUMNS_1,
    name_col: 0,
    file_size: 1,
    io: 2,
    files: 14,
    file_results: 15,
    latency: None,
};

/// Whether `text` looks like output of this tool: a bonnie++ CSV line or
/// CSV header, or bonnie++'s text table (which [`parse`] then refuses with
/// a message asking for the CSV line).
pub fn looks_like(text: &str) -> bool {
    text.lines().map(|l| unquote(l).trim()).any(|line| {
        is_header(line)
            || is_table_title(line)
            || parse_line(line, &PastedCommand::default()).is_ok()
    })
}

/// Parses bonnie++ output: one [`Parsed`] per CSV line (or per row of a
/// 1.0x text table that no CSV line accompanies), in file order.
///
/// Text around the results is allowed: a pasted command line sets
/// `command` and parameters of the lines after it; bonnie++'s text table
/// and progress messages, prose, `==========` separators and kernel labels
/// between runs are skipped. Mail quoting (`> `) is removed first, and a CSV
/// line a mail client broke in two (after a comma, or inside a field at its
/// wrapping width) is joined again when the two lines make one CSV line. A 1.0x text table
/// (see [`table`]) gives results only where no CSV line for the same
/// machine follows it; its results carry `bonnie_output: "table"`. Fails
/// naming the line and field when a line that is meant as CSV (a version
/// field first, or 27, 48 or 50 fields) cannot be read, and when the text
/// holds neither CSV lines nor a 1.0x table.
///
/// Metrics: `seq_char_write_bw`, `seq_block_write_bw`, `rewrite_bw`,
/// `seq_char_read_bw`, `seq_block_read_bw` (B/s), `random_seeks`,
/// `seq_create`, `seq_stat`, `seq_delete`, `random_create`, `random_stat`,
/// `random_delete` (ops/s), each with `<metric>_cpu` (%) and, from 1.96 on,
/// `<metric>_lat` (s).
///
/// Parameters, where the line states them: `csv_format` (`1.98`, `1.96`,
/// `1.97`, `1` for 1.0x), `machine` (the `-m` name, by default the host
/// name), `concurrency`, `seed`, `file_size` and `chunk_size` (bytes),
/// `seek_count` and `seek_processes` (1.98), `num_files` (the `-n` setting
/// as bonnie++'s table prints it: `256`, `16:100000:16/64`), `file_count`
/// (files per test: `-n` counts units of 1024), `file_max_size`,
/// `file_min_size` (bytes) or `file_kind` (`link`, `symlink`), `file_dirs`,
/// `file_chunk_size`; from a pasted command line also `directory`,
/// `ram_size` (bytes), `iterations`, `skip_char_tests`, `fsync_each_write`,
/// `direct_io`, and `chunk_size` when the CSV leaves it empty.
pub fn parse(text: &str) -> Result<Vec<Parsed>> {
    let lines: Vec<&str> = text.lines().map(unquote).collect();
    let tables =
        table::tables(&lines).map_err(|e| anyhow::Error::new(e).context("bonnie++ table"))?;
    // (line index, result, machine) in file order
    let mut found: Vec<(usize, Parsed, Option<String>)> = Vec::new();
    let mut ctx = PastedCommand::default();
    let mut i = 0;
    while let Some(raw) = lines.get(i) {
        let n = i + 1;
        let line = raw.trim();
        i += 1;
        if line.is_empty() || is_header(line) {
            continue;
        }
        if let Some(cmd) = command_line(line) {
            ctx = PastedCommand {
                command: Some(cmd.to_string()),
                table_version: None,
            };
            continue;
        }
        if let Some(v) = table_version(line) {
            ctx.table_version = Some(v.to_string());
            continue;
        }
        // bonnie++'s own text has no commas, except this progress line
        if !line.contains(',') || line.starts_with("Using uid:") {
            continue;
        }
        let mut parsed = parse_line(line, &ctx).map(|mut p| {
            p.part = Some(format!("{raw}\n"));
            p
        });
        if parsed.is_err() {
            // a line a mail client broke: after a comma, or inside a field
            // where it wraps at a fixed width (`...,+++,+` then `++++,+++,...`)
            if let Some(next) = lines.get(i).map(|l| l.trim()).filter(|l| !l.is_empty()) {
                let joined = format!("{line}{next}");
                if let Ok(mut p) = parse_line(&joined, &ctx) {
                    p.part = Some(format!("{raw}\n{}\n", lines.get(i).unwrap_or(&"")));
                    parsed = Ok(p);
                    i += 1;
                }
            }
        }
        match parsed {
            Ok(p) => {
                let machine = p
                    .parameters
                    .get("machine")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                found.push((n, p, machine));
            }
            Err(e) if meant_as_csv(line) => return Err(e.context(format!("line {n}"))),
            Err(_) => {}
        }
    }
    // a table gives results where no CSV line of its machines follows it
    // before the next table
    for (k, t) in tables.iter().enumerate() {
        let until = tables.get(k + 1).map_or(usize::MAX, |next| next.lines.0);
        let has_csv = |machine: &str| {
            found.iter().any(|(n, _, m)| {
                *n > t.lines.0
                    && *n <= until
                    && m.as_deref().is_some_and(|m| m.starts_with(machine))
            })
        };
        if t.machines.iter().all(|m| has_csv(m)) {
            continue;
        }
        let table_ctx = PastedCommand {
            table_version: Some(t.version.clone()),
            ..command_before(&lines, t.lines.0)
        };
        // the table's lines that are no machine's row: its title and headers
        let mut shared: Vec<usize> = (t.lines.0..t.lines.1).collect();
        for &(from, to) in t.rows.iter().flatten() {
            for n in from..to {
                if let Some(line) = n.checked_sub(t.lines.0).and_then(|i| shared.get_mut(i)) {
                    *line = usize::MAX;
                }
            }
        }
        shared.retain(|&n| n != usize::MAX);
        for (k, csv) in t.csv.iter().enumerate() {
            let mut p = parse_line(csv, &table_ctx).with_context(|| {
                format!(
                    "the bonnie++ {} text table at line {}",
                    t.version,
                    t.lines.0 + 1
                )
            })?;
            p.parameters
                .insert("bonnie_output".into(), Value::from("table"));
            // the table's header lines and this machine's rows (its CSV line
            // is made from them): a table of many machines gives records
            // that grow with it, not with its square
            let mut own: Vec<usize> = shared.clone();
            for &(from, to) in t.rows.get(k).map_or(&[][..], |r| r.as_slice()) {
                own.extend(from..to);
            }
            own.sort_unstable();
            p.part = Some(
                own.iter()
                    .filter_map(|&n| lines.get(n))
                    .flat_map(|l| [*l, "\n"])
                    .collect(),
            );
            found.push((t.lines.0 + 1, p, None));
        }
    }
    if found.is_empty() {
        // a table of a version whose table is not read (2.0x), without CSV
        if let Some(v) = lines
            .iter()
            .filter_map(|l| table_version(l.trim()))
            .find(|v| v.starts_with('2'))
        {
            bail!(
                "a bonnie++ {v} text table without its CSV line: not read, as bonnie++ {v} \
                 prints the file count where the file-test rates belong and rounds throughput \
                 (`1.4g`); the CSV line bonnie++ printed after the table (`1.98,{v},...`) is \
                 what is read"
            );
        }
        bail!(
            "no bonnie++ CSV line or text table found (expected the CSV line bonnie++ \
             prints on stdout after its table, e.g. `1.98,2.00a,host,1,...`, or \
             `host,16G,...` from 1.0x, or a bonnie++ 1.0x, 1.96 or 1.97 text table); \
             bonnie++ prints its CSV line itself as the last line of its output, after the \
             table (or `bon_csv2txt` made the table from it): paste the output down to that line"
        );
    }
    found.sort_by_key(|(n, _, _)| *n);
    Ok(found.into_iter().map(|(_, p, _)| p).collect())
}

/// A line without mail quoting (`> `, `>> `).
fn unquote(line: &str) -> &str {
    let t = line.trim_start();
    if !t.starts_with('>') {
        return line;
    }
    t.trim_start_matches(['>', ' '])
}

/// Whether a line that failed to parse was meant as bonnie++ CSV (so its
/// error is the answer): a format version first, or the field count of a
/// CSV layout. Prose with commas is skipped.
fn meant_as_csv(line: &str) -> bool {
    let n = line.split(',').count();
    ["1.98,", "1.97,", "1.96,", "1.93c,"]
        .iter()
        .any(|v| line.starts_with(v))
        || matches!(n, 27 | 48 | 50)
}

/// The bonnie++ command pasted last before line `at`.
fn command_before(lines: &[&str], at: usize) -> PastedCommand {
    let command = lines
        .get(..at)
        .unwrap_or_default()
        .iter()
        .rev()
        .find_map(|l| command_line(l.trim()))
        .map(str::to_string);
    PastedCommand {
        command,
        table_version: None,
    }
}

/// Whether `line` is a CSV header bonnie++ prints (with `-x`) or bon_csv2txt reads.
fn is_header(line: &str) -> bool {
    line.starts_with("format_version,bonnie_version,") || line.starts_with("name,file_size,")
}

/// Whether `line` opens bonnie++'s text table.
fn is_table_title(line: &str) -> bool {
    table_version(line).is_some()
}

/// The version from the text table's first line
/// (`Version  1.03       ------Sequential Output------ ...`; a table put
/// together from several runs may start `1.02b   ------Sequential ...`).
fn table_version(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("Version").unwrap_or(line);
    let mut words = rest.split_whitespace();
    let version = words.next()?;
    let next = words.next()?;
    (next.starts_with("------Sequential") && version.starts_with(|c: char| c.is_ascii_digit()))
        .then_some(version)
}

/// Parses one CSV line into a result.
fn parse_line(line: &str, ctx: &PastedCommand) -> Result<Parsed> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    let layout = match fields.len() {
        50 => &LAYOUT_198,
        48 => &LAYOUT_196,
        27 => &LAYOUT_1,
        n => bail!(
            "expected bonnie++ CSV with 50 fields (format 1.98, bonnie++ 1.98 to 2.0x), \
             48 (format 1.96/1.97) or 27 (bonnie++ 1.0x), found {n} field{}",
            if n == 1 { "" } else { "s" }
        ),
    };
    let row = Row {
        fields: &fields,
        layout,
    };
    let mut p = Parsed {
        test_id: Some(test_id().to_string()),
        command: ctx.command.clone(),
        ..Parsed::default()
    };
    let params = &mut p.parameters;

    // version columns
    if layout.versioned {
        let format = row.get(0);
        if !layout.formats.contains(&format) {
            let expected = layout.formats.join(" or ");
            return Err(row.bad(0, &expected, format));
        }
        params.insert("csv_format".into(), Value::from(format));
        let version = row.get(1);
        p.tool_version = Some(if version.is_empty() { format } else { version }.to_string());
        if let Some(c) = row.count(3)? {
            params.insert("concurrency".into(), Value::from(c));
        }
        let seed = row.get(4);
        if !seed.is_empty() {
            let v = seed.parse::<u64>().map_or(Value::from(seed), Value::from);
            params.insert("seed".into(), v);
        }
    } else {
        params.insert("csv_format".into(), Value::from("1"));
        p.tool_version = ctx.table_version.clone();
    }
    let name = row.get(layout.name_col);
    if !name.is_empty() {
        params.insert("machine".into(), Value::from(name));
    }

    // sizes: 1.9x has a chunk column; 1.0x appends `:chunk` to the size
    let (size, chunk) = if layout.versioned {
        (row.get(layout.file_size), row.get(layout.file_size + 1))
    } else {
        let s = row.get(layout.file_size);
        s.split_once(':').unwrap_or((s, ""))
    };
    if let Some(b) = row.size(layout.file_size, size, true)? {
        params.insert("file_size".into(), Value::from(b));
    }
    let chunk_col = layout.file_size + usize::from(layout.versioned);
    if let Some(b) = row.size(chunk_col, chunk, false)? {
        params.insert("chunk_size".into(), Value::from(b));
    }
    if let Some(col) = layout.seeks {
        if let Some(n) = row.count(col)? {
            params.insert("seek_count".into(), Value::from(n));
        }
        if let Some(n) = row.count(col + 1)? {
            params.insert("seek_processes".into(), Value::from(n));
        }
    }

    // file-test parameters
    let spec = if layout.versioned {
        let f = layout.files;
        // bonnie++ 1.96 to 2.00a write the directory count into the
        // file_chunk_size column and leave num_dirs empty
        let (dirs_col, chunk_col) = if row.get(f + 3).is_empty() {
            (f + 4, None)
        } else {
            (f + 3, Some(f + 4))
        };
        FileSpec {
            num: row.get(f),
            max: row.get(f + 1),
            min: row.get(f + 2),
            dirs: row.get(dirs_col),
            chunk: chunk_col.map_or("", |c| row.get(c)),
            cols: [f, f + 1, f + 2, dirs_col, f + 4],
        }
    } else {
        FileSpec::from_text(row.get(layout.files), layout.files)
    };
    spec.insert(&row, params)?;

    // results
    for (k, (metric, unit)) in IO_METRICS.iter().enumerate() {
        let col = layout.io + 2 * k;
        let value = if *unit == Unit::BytesPerSec {
            row.kib_rate(col)?
        } else {
            row.rate(col)?
        };
        put(&mut p.metrics, metric, value, *unit);
        put(
            &mut p.metrics,
            &format!("{metric}_cpu"),
            row.rate(col + 1)?,
            Unit::Percent,
        );
        if let Some(l) = layout.latency {
            put(
                &mut p.metrics,
                &format!("{metric}_lat"),
                row.latency(l + k)?,
                Unit::Seconds,
            );
        }
    }
    for (k, metric) in FILE_METRICS.iter().enumerate() {
        let col = layout.file_results + 2 * k;
        put(&mut p.metrics, metric, row.rate(col)?, Unit::OpsPerSec);
        put(
            &mut p.metrics,
            &format!("{metric}_cpu"),
            row.rate(col + 1)?,
            Unit::Percent,
        );
        if let Some(l) = layout.latency {
            put(
                &mut p.metrics,
                &format!("{metric}_lat"),
                row.latency(l + 6 + k)?,
                Unit::Seconds,
            );
        }
    }

    if let Some(cmd) = &ctx.command {
        command_parameters(cmd, &mut p.parameters);
    }
    Ok(p)
}

/// Inserts a metric when it has a value.
fn put(metrics: &mut BTreeMap<String, Metric>, name: &str, value: Option<f64>, unit: Unit) {
    if let Some(v) = value {
        metrics.insert(name.to_string(), Metric::new(v, unit));
    }
}

/// The `-n` settings: `num[:max[:min]][/dirs]`, plus the file chunk size.
struct FileSpec<'a> {
    num: &'a str,
    max: &'a str,
    min: &'a str,
    dirs: &'a str,
    chunk: &'a str,
    /// The column of each part, for errors (1.0x holds them all in one).
    cols: [usize; 5],
}

impl<'a> FileSpec<'a> {
    /// Splits 1.0x's `16:100000:16/64` (also `16:link`).
    fn from_text(text: &'a str, col: usize) -> FileSpec<'a> {
        let (left, dirs) = text.split_once('/').unwrap_or((text, ""));
        let mut parts = left.splitn(3, ':');
        FileSpec {
            num: parts.next().unwrap_or(""),
            max: parts.next().unwrap_or(""),
            min: parts.next().unwrap_or(""),
            dirs,
            chunk: "",
            cols: [col; 5],
        }
    }

    /// Adds `num_files` (as bonnie++'s table prints it), `file_count`
    /// (`num` is in units of 1024 files), `file_max_size`/`file_min_size`
    /// (bytes; or `file_kind` `link`/`symlink`) and `file_dirs`.
    fn insert(&self, row: &Row, params: &mut BTreeMap<String, Value>) -> Result<()> {
        let [col, max_col, min_col, dirs_col, chunk_col] = self.cols;
        if self.num.is_empty() {
            return Ok(());
        }
        let num = whole(self.num)
            .ok_or_else(|| row.bad(col, "a number of files in units of 1024", self.num))?;
        let mut text = self.num.to_string();
        for (sep, part) in [(":", self.max), (":", self.min), ("/", self.dirs)] {
            if !part.is_empty() {
                text.push_str(sep);
                text.push_str(part);
            }
        }
        params.insert("num_files".into(), Value::from(text));
        if let Some(count) = num.checked_mul(1024) {
            params.insert("file_count".into(), Value::from(count));
        }
        match self.max {
            "" => {}
            "link" | "symlink" => {
                params.insert("file_kind".into(), Value::from(self.max));
            }
            m => {
                let v = whole(m).ok_or_else(|| row.bad(max_col, "a file size in bytes", m))?;
                params.insert("file_max_size".into(), Value::from(v));
            }
        }
        if !self.min.is_empty() {
            let v = whole(self.min)
                .ok_or_else(|| row.bad(min_col, "a file size in bytes", self.min))?;
            params.insert("file_min_size".into(), Value::from(v));
        }
        if !self.dirs.is_empty() {
            let v = whole(self.dirs)
                .ok_or_else(|| row.bad(dirs_col, "a number of directories", self.dirs))?;
            params.insert("file_dirs".into(), Value::from(v));
        }
        if !self.chunk.is_empty() {
            let b = size_bytes(self.chunk, false)
                .ok_or_else(|| row.bad(chunk_col, "a chunk size like 4k", self.chunk))?;
            params.insert("file_chunk_size".into(), Value::from(b));
        }
        Ok(())
    }
}

/// One split CSV line and its layout, for typed access with precise errors.
struct Row<'a> {
    fields: &'a [&'a str],
    layout: &'a Layout,
}

impl Row<'_> {
    /// The field at `col`, empty if there is none.
    fn get(&self, col: usize) -> &str {
        self.fields.get(col).copied().unwrap_or("")
    }

    /// An error naming the field (1-based) and its column name.
    fn bad(&self, col: usize, expected: &str, found: &str) -> anyhow::Error {
        let name = self.layout.columns.split(',').nth(col).unwrap_or("?");
        anyhow!(
            "field {} ({name}, format {}): expected {expected}, found `{}`",
            col + 1,
            self.layout.name,
            excerpt(found)
        )
    }

    /// A rate or CPU figure: `None` when empty or `+++++`/`+++`.
    fn rate(&self, col: usize) -> Result<Option<f64>> {
        let f = self.get(col);
        if is_absent(f) {
            return Ok(None);
        }
        plain_number(f)
            .map(Some)
            .ok_or_else(|| self.bad(col, "a number, `+++++` or nothing", f))
    }

    /// A K/sec throughput in bytes per second (`k`/`m`/`g` suffixes allowed).
    fn kib_rate(&self, col: usize) -> Result<Option<f64>> {
        let f = self.get(col);
        if is_absent(f) {
            return Ok(None);
        }
        let (digits, kib) = match f.char_indices().last() {
            Some((i, 'k' | 'K')) => (f.get(..i), 1.0),
            Some((i, 'm' | 'M')) => (f.get(..i), 1024.0),
            Some((i, 'g' | 'G')) => (f.get(..i), 1024.0 * 1024.0),
            _ => (Some(f), 1.0),
        };
        digits
            .and_then(plain_number)
            .map(|v| Some(v * kib * 1024.0))
            .ok_or_else(|| self.bad(col, "K/sec as a number, `+++++` or nothing", f))
    }

    /// A latency (`5523us`, `229ms`, `2s`) in seconds; `None` when empty.
    fn latency(&self, col: usize) -> Result<Option<f64>> {
        let f = self.get(col);
        if f.is_empty() {
            return Ok(None);
        }
        let split = f.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(f.len());
        let (digits, unit) = (f.get(..split).unwrap_or(""), f.get(split..).unwrap_or(""));
        // bonnie++ prints only these three units
        let seconds = match unit {
            "us" | "ms" | "s" => plain_number(digits).and_then(|v| units::seconds(v, unit)),
            _ => None,
        };
        seconds
            .map(Some)
            .ok_or_else(|| self.bad(col, "a latency like 5523us, 229ms or 2s, or nothing", f))
    }

    /// A whole number, `None` when empty.
    fn count(&self, col: usize) -> Result<Option<u64>> {
        let f = self.get(col);
        if f.is_empty() {
            return Ok(None);
        }
        whole(f)
            .map(Some)
            .ok_or_else(|| self.bad(col, "a whole number", f))
    }

    /// A size in bytes from `text` (part of the field at `col`); `None` when
    /// empty. `file` sizes need a unit (`512M`, `16G`); chunk sizes without
    /// one are bytes, as bonnie++ prints them.
    fn size(&self, col: usize, text: &str, file: bool) -> Result<Option<u64>> {
        if text.is_empty() {
            return Ok(None);
        }
        let expected = if file {
            "a size like 512M or 16G"
        } else {
            "a chunk size like 64k"
        };
        size_bytes(text, file)
            .map(Some)
            .ok_or_else(|| self.bad(col, expected, text))
    }
}

/// Whether a result field says "not run" (empty) or "too fast" (all `+`).
fn is_absent(field: &str) -> bool {
    field.bytes().all(|b| b == b'+')
}

/// A non-negative decimal number with nothing else around it.
fn plain_number(text: &str) -> Option<f64> {
    let ok = text.bytes().any(|b| b.is_ascii_digit())
        && text.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    ok.then(|| text.parse::<f64>().ok())
        .flatten()
        .filter(|v| v.is_finite())
}

/// Bytes in a bonnie++ size: a whole number and a binary suffix `k`, `M`,
/// `G`, `T` (`512M`, `16G`, `64k`). Without a suffix: bytes, unless `need_unit`.
fn size_bytes(text: &str, need_unit: bool) -> Option<u64> {
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, unit) = (text.get(..split)?, text.get(split..)?);
    let multiplier: u64 = match unit {
        "" if !need_unit => 1,
        "k" | "K" => 1 << 10,
        "m" | "M" => 1 << 20,
        "g" | "G" => 1 << 30,
        "t" | "T" => 1 << 40,
        _ => return None,
    };
    digits.parse::<u64>().ok()?.checked_mul(multiplier)
}

/// A whole number (counts, sizes in bytes), as bonnie++ prints them.
fn whole(text: &str) -> Option<u64> {
    if text.bytes().all(|b| b.is_ascii_digit()) {
        text.parse().ok()
    } else {
        None
    }
}

/// The start of `text`, for error messages.
fn excerpt(text: &str) -> String {
    let mut s: String = text.chars().take(60).collect();
    if s.len() < text.len() {
        s.push_str("...");
    }
    s
}

// --------------------------------------------------------------- registry

/// bonnie++ in the tool registry.
pub struct Bonnie;

impl Output for Bonnie {
    fn tool(&self) -> Tool {
        Tool::Bonnie
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["bonnie"]
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

    // its usage text or report says "Version 2.00a"
    fn version_from_text(&self, text: &str) -> Option<String> {
        let at = text.find("Version ")?;
        Some(text.get(at + 8..)?.split_whitespace().next()?.to_string())
    }
}

impl Command for Bonnie {
    fn build(&self, params: &Params, ctx: &BuildCtx) -> Result<Invocation> {
        command(params, ctx)
    }

    fn headline(&self, _params: &Params) -> &'static str {
        "seq_block_write_bw"
    }

    // with -q the CSV line alone is on stdout; the version is in the
    // report on stderr
    fn version_from_run_stderr(&self, stderr: &str) -> Option<String> {
        super::version_from_text(Tool::Bonnie, stderr)
    }
}

impl Install for Bonnie {
    fn version_probe(&self) -> Option<(&'static str, &'static str)> {
        None
    }

    fn package(&self, _family: &str) -> &'static str {
        "bonnie++"
    }
}

impl Judge for Bonnie {
    // bonnie++ has no version flag; its report carries the version
    fn kind(&self, _params: &BTreeMap<String, Value>) -> TestKind {
        TestKind::FileSystem
    }

    // the file size decides whether the page cache can hold the data; the
    // memory size bonnie++ was told and the file count shape the tests
    fn identity(
        &self,
        params: &BTreeMap<String, Value>,
        ram: Option<u64>,
    ) -> Vec<(&'static str, String)> {
        let mut parts = Vec::new();
        // the standard suite's `-s` of 2x RAM and `-r` of the RAM are one
        // test on any machine
        if let Some(size) = super::param_bytes(params, "file_size") {
            parts.push((
                "file size",
                format!("{} file", super::size_words(size, ram, 0)),
            ));
        }
        if let Some(told) = super::param_bytes(params, "ram_size") {
            parts.push(("-r", format!("-r {}", super::size_words(told, ram, 0))));
        }
        if let Some(n) = super::param_text(params, "num_files") {
            parts.push(("-n", format!("-n {n}")));
        }
        parts
    }

    // bonnie++ asks for a file of twice the memory so that its reads and
    // seeks cannot be served from the page cache; a smaller one can be
    fn cache_trap(
        &self,
        params: &BTreeMap<String, Value>,
        ram: Option<u64>,
    ) -> Option<super::Trap> {
        let file = super::param_bytes(params, "file_size")?;
        // the machine's memory where the record knows it, else what
        // bonnie++ was told (`-r`)
        let ram = ram.or_else(|| super::param_bytes(params, "ram_size"))?;
        (file < ram.saturating_mul(2)).then(|| super::Trap {
            short: "file under 2x RAM".into(),
            why: format!(
                "bonnie++ used a {} file on a machine with {} of memory, under twice the memory, so its reads and seeks can come from the page cache",
                crate::format::size(file),
                crate::format::size(ram)
            ),
        })
    }
}
