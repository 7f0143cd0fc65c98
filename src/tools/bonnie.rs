//! `bonnie`: building its command line and parsing its output.
//!
//! The parser reads bonnie++'s CSV lines (what it prints on stdout, alone
//! with `-q`). Three layouts exist; columns are 0-based below.
//!
//! **Format 1.98** (bonnie++ 1.98 to 2.0x; 50 fields; bon_csv2html(1)):
//! 0 format_version (`1.98`), 1 bonnie_version (`2.00a`), 2 name,
//! 3 concurrency, 4 seed, 5 file_size (`512M`, `16G`), 6 chunk_size,
//! 7 seeks (number of seeks), 8 seek_proc_count,
//! 9-20 putc, put_block, rewrite, getc, get_block, seeks (each rate then %CPU),
//! 21 num_files, 22 max_size, 23 min_size, 24 num_dirs, 25 file_chunk_size,
//! 26-37 seq_create, seq_stat, seq_del, ran_create, ran_stat, ran_del
//! (each rate then %CPU), 38-49 the twelve latencies in the same order
//! (putc ... seeks, seq_create ... ran_del).
//!
//! **Format 1.96/1.97** (bonnie++ 1.96, 1.97; 48 fields): as 1.98 without
//! columns 7 and 8: 0 format_version, 1 bonnie_version, 2 name,
//! 3 concurrency, 4 seed, 5 file_size, 6 io_chunk_size, 7-18 the six I/O
//! results, 19 num_files, 20 max_size, 21 min_size, 22 num_dirs,
//! 23 file_chunk_size, 24-35 the six file results, 36-47 the latencies.
//!
//! **Format 1** (bonnie++ 1.0x; 27 fields, no version column): 0 name,
//! 1 file_size (`3400M`, or `1G:32k` with the chunk size), 2-13 the six
//! I/O results, 14 num_files as one text (`256`, `16:100000:16/64`),
//! 15-26 the six file results. No latencies.
//!
//! Quirks seen in the source and in real output, handled here:
//! - bonnie++ 2.00a leaves chunk_size empty even with `-s 512M:64k`, so the
//!   chunk size comes from a pasted command line when the CSV lacks it.
//! - 1.96 to 2.00a write the directory count of `-n N:max:min:dirs` into the
//!   file_chunk_size column and leave num_dirs empty (`16,10000,1000,,4` for
//!   `-n 16:10000:1000:4`); the file chunk size never reaches the CSV.
//! - the header 2.00a prints with `-x` is the 48-column 1.96 header above
//!   50-column data, so header lines are skipped, never used as a map.
//! - 2.00a's text table prints the file count where the file-test rates
//!   belong (`16384` for `-n 16`) and `333m` for 341193 K/sec; only the CSV
//!   is read. No CSV format prints M/sec: throughput is always K/sec (KiB/s),
//!   but a `k`/`m`/`g` suffix as in that table is accepted as KiB/MiB/GiB.
//!
//! `+++++` (rate) and `+++` (CPU) mean the test ran too fast to measure: the
//! metric is absent, not zero. An empty field means the test did not run
//! (`-f` skips the per-character tests, `-s 0` the I/O tests, `-n 0` the file
//! tests): absent too. Latencies carry `us`, `ms` or `s` and are the maximum
//! time of one operation.

use std::collections::BTreeMap;

use anyhow::{anyhow, bail, Context, Result};
use serde_json::Value;

use super::argv::{BuildCtx, Invocation, OutputFrom, ParamReader, Params};
use super::{Parsed, ToolSpec};
use crate::record::{Metric, Tool};
use crate::units::{self, Unit};

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

/// The bonnie++ command line pasted above the CSV lines, with what the
/// text around them says about the run they belong to.
#[derive(Default, Clone)]
struct PastedCommand {
    /// The bonnie++ command line pasted above the output.
    command: Option<String>,
    /// The version from the text table's `Version 1.03` line.
    table_version: Option<String>,
}

/// Whether `text` looks like output of this tool: a bonnie++ CSV line or
/// CSV header, or bonnie++'s text table (which [`parse`] then refuses with
/// a message asking for the CSV line).
pub fn looks_like(text: &str) -> bool {
    text.lines().map(str::trim).any(|line| {
        is_header(line)
            || is_table_title(line)
            || parse_line(line, &PastedCommand::default()).is_ok()
    })
}

/// Parses bonnie++ output: one [`Parsed`] per CSV line, in file order.
///
/// Text before the first CSV line (a pasted command line, bonnie++'s text
/// table and progress messages, other notes) is allowed; the command line
/// sets `command` and parameters of the lines after it. After the first
/// CSV line, every line must be CSV, a CSV header, bonnie++'s own text, a
/// command line or blank. Fails naming the line and field on anything else,
/// and when the text holds no CSV line.
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
    let mut out = Vec::new();
    let mut ctx = PastedCommand::default();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
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
        if line.contains(',') && !line.starts_with("Using uid:") {
            out.push(parse_line(line, &ctx).with_context(|| format!("line {n}"))?);
            continue;
        }
        if !out.is_empty() && !is_bonnie_text(line) {
            bail!(
                "line {n}: expected a bonnie++ CSV line, found `{}`",
                excerpt(line)
            );
        }
    }
    if out.is_empty() {
        bail!(
            "no bonnie++ CSV line found (expected what bonnie++ prints on stdout, \
             e.g. `1.98,2.00a,host,1,...` or `host,16G,...` from 1.0x; run it with -q \
             to get the CSV alone)"
        );
    }
    Ok(out)
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
/// (`Version  1.03       ------Sequential Output------ ...`).
fn table_version(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("Version")?;
    let mut words = rest.split_whitespace();
    let version = words.next()?;
    let next = words.next()?;
    (next.starts_with("------Sequential") && version.starts_with(|c: char| c.is_ascii_digit()))
        .then_some(version)
}

/// Whether `line` is bonnie++'s own text: the table, its latency rows,
/// progress messages, or a bare shell prompt.
fn is_bonnie_text(line: &str) -> bool {
    const STARTS: [&str; 7] = [
        "Version",
        "Latency",
        "Concurrency",
        "Machine ",
        "Name:Size",
        "files:max",
        "Using uid:",
    ];
    const CONTAINS: [&str; 6] = [
        "/sec %CP",
        "-Per Chr-",
        "-Create--",
        "...done",
        "start 'em",
        "------Sequential",
    ];
    if STARTS.iter().any(|s| line.starts_with(s)) || CONTAINS.iter().any(|s| line.contains(s)) {
        return true;
    }
    // a prompt alone: `root@vm:~#`, `$`
    if !line.contains(char::is_whitespace) && line.ends_with(['$', '#', '>']) {
        return true;
    }
    // a data row of the table: a name or file count, then cells only
    let mut words = line.split_whitespace();
    let first = words.next();
    let cells: Vec<&str> = words.collect();
    first.is_some() && !line.contains(',') && cells.len() >= 3 && cells.iter().all(|c| is_cell(c))
}

/// A cell of bonnie++'s text table: `+++++`, `97`, `1222k`, `333m`,
/// `939.8`, `19387us`, `512M:64k`, `16:10000:1000/4`.
fn is_cell(cell: &str) -> bool {
    if !cell.is_empty() && cell.bytes().all(|b| b == b'+') {
        return true;
    }
    cell.starts_with(|c: char| c.is_ascii_digit())
        && cell
            .bytes()
            .all(|b| b.is_ascii_digit() || b".:/kKmMgGus".contains(&b))
}

/// The command if `line` is a pasted bonnie++ command line: the text from
/// the `bonnie++` word on (a prompt or `sudo` before it is dropped).
fn command_line(line: &str) -> Option<&str> {
    for word in line.split_whitespace().take(4) {
        let base = word.rsplit('/').next().unwrap_or(word);
        if base == "bonnie++" {
            let start = (word.as_ptr() as usize).checked_sub(line.as_ptr() as usize)?;
            return line.get(start..).map(str::trim_end);
        }
    }
    None
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

/// Reads one bonnie++ command line (`bonnie++ -d /mnt -s 16g -n 256 -b`,
/// also after a prompt or `sudo`) into the test id `bonnie`, the parameters
/// [`parse`] takes from a pasted command line (without a CSV line to
/// prefer) and the command, with no metrics.
///
/// Fails when the line runs no bonnie++.
pub fn read_command(line: &str) -> Result<Parsed> {
    let Some(cmd) = command_line(line.trim()) else {
        bail!("`{line}`: expected a bonnie++ command line such as `bonnie++ -d /mnt -s 16g`");
    };
    let mut parsed = Parsed {
        test_id: Some(test_id().to_string()),
        command: Some(cmd.to_string()),
        ..Parsed::default()
    };
    command_parameters(cmd, &mut parsed.parameters);
    Ok(parsed)
}

/// The file size of `-s SIZE[:CHUNK]` in bytes: bonnie++ reads a bare
/// number as MiB (`-s 3400`) and takes `k`, `m`, `g`, `t` suffixes (`16g`).
fn command_file_size(arg: &str) -> Option<u64> {
    let size = arg.split(':').next()?;
    match whole(size) {
        Some(mib) => mib.checked_mul(1 << 20),
        None => size_bytes(size, true),
    }
}

/// The chunk size of `-s SIZE:CHUNK` on a bonnie++ command line, in bytes.
fn command_chunk_size(cmd: &str) -> Option<u64> {
    let s = option_value(cmd, 's')?;
    let (_, chunk) = s.split_once(':')?;
    size_bytes(chunk, false)
}

/// The value of single-letter option `-x` (`-x VALUE` or `-xVALUE`).
fn option_value(cmd: &str, letter: char) -> Option<&str> {
    let mut words = cmd.split_whitespace().skip(1);
    while let Some(w) = words.next() {
        let Some(rest) = w.strip_prefix('-') else {
            continue;
        };
        let mut chars = rest.chars();
        if chars.next() == Some(letter) {
            let attached = chars.as_str();
            return if attached.is_empty() {
                words.next()
            } else {
                Some(attached)
            };
        }
    }
    None
}

/// Whether single-letter flag `-x` is on the command line (alone or with a value).
fn has_flag(cmd: &str, letter: char) -> bool {
    cmd.split_whitespace()
        .skip(1)
        .any(|w| w.strip_prefix('-').and_then(|r| r.chars().next()) == Some(letter))
}

/// Parameters the command line states: `directory` (`-d`), `ram_size`
/// (`-r`, MiB on the command line, bytes here), `iterations` (`-x`),
/// `skip_char_tests` (`-f`), `fsync_each_write` (`-b`), `direct_io` (`-D`);
/// and, only where `params` (from a CSV line) lacks them, `file_size` and
/// `chunk_size` (`-s SIZE[:CHUNK]`, see [`command_file_size`]) and, for a
/// plain `-n N`, `num_files` (`N` as written) and `file_count` (`N` × 1024).
/// The CSV wins because it is what bonnie++ ran with.
fn command_parameters(cmd: &str, params: &mut BTreeMap<String, Value>) {
    let sizes = option_value(cmd, 's');
    let mut fill = |key: &str, value: Option<u64>| {
        if let Some(v) = value {
            params.entry(key.to_string()).or_insert(Value::from(v));
        }
    };
    fill("file_size", sizes.and_then(command_file_size));
    fill("chunk_size", command_chunk_size(cmd));
    if let Some(n) = option_value(cmd, 'n').filter(|n| whole(n).is_some()) {
        if !params.contains_key("num_files") {
            params.insert("num_files".into(), Value::from(n));
            if let Some(count) = whole(n).and_then(|n| n.checked_mul(1024)) {
                params.insert("file_count".into(), Value::from(count));
            }
        }
    }
    if let Some(d) = option_value(cmd, 'd') {
        params.insert("directory".into(), Value::from(d));
    }
    if let Some(mib) = option_value(cmd, 'r').and_then(|r| r.parse::<u64>().ok()) {
        if let Some(bytes) = mib.checked_mul(1024 * 1024) {
            params.insert("ram_size".into(), Value::from(bytes));
        }
    }
    if let Some(x) = option_value(cmd, 'x').and_then(|x| x.parse::<u64>().ok()) {
        params.insert("iterations".into(), Value::from(x));
    }
    for (letter, key) in [
        ('f', "skip_char_tests"),
        ('b', "fsync_each_write"),
        ('D', "direct_io"),
    ] {
        if has_flag(cmd, letter) {
            params.insert(key.into(), Value::from(true));
        }
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

// ----------------------------------------------------------- command line

const BONNIE_PARAMS: &[&str] = &["size", "ram", "files", "machine"];

/// Builds `bonnie++ -d DIR -s <MiB> [-r <MiB>] -n <files> -q [-m NAME] [-u root]`.
/// `size` and `ram` are sizes (`2xRAM`, `64M`) passed in MiB; `files` is
/// bonnie++'s `-n` (multiples of 1024 files, or its `N:max:min:dirs` form).
/// `-q` puts the CSV line alone on stdout; `-u root` only when running as
/// root, where bonnie++ refuses to run without it.
pub fn command(params: &Params, ctx: &BuildCtx) -> Result<Invocation> {
    const MIB: u64 = 1 << 20;
    let mut p = ParamReader::new("bonnie++", params, ctx.memory_bytes);
    let size = p.size("size")?.unwrap_or(0);
    if size < MIB {
        bail!("bonnie++: expected `size` of at least 1M (for example 2xRAM)");
    }
    let mut args = vec![
        "-d".to_string(),
        ctx.dir.display().to_string(),
        "-s".to_string(),
        (size / MIB).to_string(),
    ];
    // named and valued as the parser names bonnie++'s own report (bytes;
    // `num_files` as given to -n), so run and imported records agree
    let mut parameters = Params::new();
    parameters.insert("file_size".into(), (size / MIB * MIB).into());
    if let Some(ram) = p.size("ram")? {
        args.push("-r".into());
        args.push((ram / MIB).to_string());
        parameters.insert("ram_size".into(), (ram / MIB * MIB).into());
    }
    let files = p.string("files")?.unwrap_or_else(|| "16".to_string());
    args.push("-n".into());
    args.push(files.clone());
    parameters.insert("num_files".into(), files.into());
    args.push("-q".into());
    if let Some(m) = p.string("machine")? {
        args.push("-m".into());
        args.push(m.clone());
        parameters.insert("machine".into(), m.into());
    }
    p.finish(BONNIE_PARAMS)?;
    if ctx.is_root {
        args.push("-u".into());
        args.push("root".into());
    }
    Ok(Invocation {
        program: "bonnie++".into(),
        args,
        env: Vec::new(),
        output: OutputFrom::Stdout,
        // the data file plus a margin for the small files of the -n phase
        bytes: size + 64 * MIB,
        // writes, rewrites and reads the file several times
        estimate_s: 5.0 + size as f64 * 6.0 / 100e6,
        parameters,
    })
}

// --------------------------------------------------------------- registry

/// bonnie++ in the tool registry.
pub struct Bonnie;

impl ToolSpec for Bonnie {
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

    fn build(&self, params: &Params, ctx: &BuildCtx) -> Result<Invocation> {
        command(params, ctx)
    }

    fn headline(&self, _params: &Params) -> &'static str {
        "seq_block_write_bw"
    }

    // bonnie++ has no version flag; its report carries the version
    fn version_probe(&self) -> Option<(&'static str, &'static str)> {
        None
    }

    // its usage text or report says "Version 2.00a"
    fn version_from_text(&self, text: &str) -> Option<String> {
        let at = text.find("Version ")?;
        Some(text.get(at + 8..)?.split_whitespace().next()?.to_string())
    }

    // with -q the CSV line alone is on stdout; the version is in the
    // report on stderr
    fn version_from_run_stderr(&self, stderr: &str) -> Option<String> {
        super::version_from_text(Tool::Bonnie, stderr)
    }

    fn package(&self, _family: &str) -> &'static str {
        "bonnie++"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUIET: &str = include_str!("../../tests/fixtures/bonnie/2.00a-quiet.csv");
    const QUIET_STDERR: &str = include_str!("../../tests/fixtures/bonnie/2.00a-quiet.stderr");
    const TABLE: &str = include_str!("../../tests/fixtures/bonnie/2.00a-table.txt");
    const MIXED: &str = include_str!("../../tests/fixtures/bonnie/2.00a-stderr-and-stdout.log");
    const FILES_ONLY: &str = include_str!("../../tests/fixtures/bonnie/2.00a-files-only.csv");
    const X2: &str = include_str!("../../tests/fixtures/bonnie/2.00a-x2-with-command.log");
    const V196: &str = include_str!("../../tests/fixtures/bonnie/1.96-rackspace-sata.csv");
    const V197: &str = include_str!("../../tests/fixtures/bonnie/1.97-fast-concurrent.csv");
    const V103: &str = include_str!("../../tests/fixtures/bonnie/1.03-ec2-m1small.txt");
    const V103_FAST: &str = include_str!("../../tests/fixtures/bonnie/1.03-fast-mode.csv");

    fn one(text: &str) -> Parsed {
        let mut all = parse(text).unwrap();
        assert_eq!(all.len(), 1, "expected one result");
        all.remove(0)
    }

    /// `(name, value, unit)` triples as a metric map.
    fn metrics(list: &[(&str, f64, &str)]) -> BTreeMap<String, Metric> {
        list.iter()
            .map(|&(n, v, u)| {
                let unit = Unit::parse(u).unwrap();
                (n.to_string(), Metric::new(v, unit))
            })
            .collect()
    }

    fn params(list: &[(&str, Value)]) -> BTreeMap<String, Value> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    fn value(p: &Parsed, name: &str) -> Option<f64> {
        p.metrics.get(name).map(|m| m.value)
    }

    #[test]
    fn column_lists_match_the_field_counts() {
        assert_eq!(COLUMNS_198.split(',').count(), 50);
        assert_eq!(COLUMNS_196.split(',').count(), 48);
        assert_eq!(COLUMNS_1.split(',').count(), 27);
        // the header bonnie++ 2.00a prints with -x is the 48-column one
        assert_eq!(X2.lines().nth(1), Some(COLUMNS_196));
        assert!(V103_FAST.starts_with(COLUMNS_1));
    }

    #[test]
    fn real_2_00a_quiet_line_gives_every_value() {
        let p = one(QUIET);
        assert_eq!(
            p.metrics,
            metrics(&[
                ("seq_char_write_bw", 1222.0 * 1024.0, "B/s"),
                ("seq_char_write_bw_cpu", 97.0, "%"),
                ("seq_char_write_bw_lat", 0.019387, "s"),
                ("seq_block_write_bw", 349_381_632.0, "B/s"),
                ("seq_block_write_bw_cpu", 87.0, "%"),
                ("seq_block_write_bw_lat", 0.002296, "s"),
                ("rewrite_bw_lat", 0.000262, "s"),
                ("seq_char_read_bw", 2_217_984.0, "B/s"),
                ("seq_char_read_bw_cpu", 99.0, "%"),
                ("seq_char_read_bw_lat", 0.004937, "s"),
                ("seq_block_read_bw_lat", 0.010216, "s"),
                ("random_seeks_lat", 0.010219, "s"),
                ("seq_create_lat", 0.000216, "s"),
                ("seq_stat_lat", 0.000072, "s"),
                ("seq_delete_lat", 0.000293, "s"),
                ("random_create_lat", 0.000898, "s"),
                ("random_stat_lat", 0.00006, "s"),
                ("random_delete_lat", 0.000095, "s"),
            ])
        );
        assert_eq!(
            p.parameters,
            params(&[
                ("csv_format", "1.98".into()),
                ("machine", "vm".into()),
                ("concurrency", 1.into()),
                ("seed", 1_796_006_990u64.into()),
                ("file_size", (512u64 << 20).into()),
                ("seek_count", 8192.into()),
                ("seek_processes", 5.into()),
                ("num_files", "1".into()),
                ("file_count", 1024.into()),
            ])
        );
        assert_eq!(p.tool_version.as_deref(), Some("2.00a"));
        assert_eq!(p.test_id.as_deref(), Some("bonnie"));
        assert_eq!(p.command, None);
    }

    #[test]
    fn too_fast_and_not_run_are_absent_not_zero() {
        let p = one(QUIET);
        // `+++++,+++` for rewrite, block read, seeks and every file test
        for absent in [
            "rewrite_bw",
            "rewrite_bw_cpu",
            "seq_block_read_bw",
            "random_seeks",
            "random_seeks_cpu",
            "seq_create",
            "random_delete_cpu",
        ] {
            assert_eq!(value(&p, absent), None, "{absent}");
        }
        assert!(p.metrics.values().all(|m| m.value > 0.0));
    }

    #[test]
    fn the_text_table_before_the_csv_is_skipped() {
        let p = one(TABLE);
        // the CSV's 579671 K/sec, not the table's rounded `566m`
        assert_eq!(value(&p, "seq_block_write_bw"), Some(579_671.0 * 1024.0));
        assert_eq!(value(&p, "seq_char_read_bw_cpu"), Some(81.0));
        assert_eq!(value(&p, "random_stat_lat"), Some(0.00001));
        assert_eq!(p.metrics.len(), 18);
        assert_eq!(p.tool_version.as_deref(), Some("2.00a"));
        // progress messages on stderr pasted above it too
        assert_eq!(one(MIXED), p);
    }

    #[test]
    fn file_tests_only_with_sizes_and_directories() {
        let p = one(FILES_ONLY);
        assert_eq!(
            p.metrics,
            metrics(&[
                ("seq_create", 6849.0, "ops/s"),
                ("seq_create_cpu", 91.0, "%"),
                ("seq_create_lat", 0.00426, "s"),
                ("seq_stat_lat", 0.000372, "s"),
                ("seq_delete", 6829.0, "ops/s"),
                ("seq_delete_cpu", 23.0, "%"),
                ("seq_delete_lat", 0.229, "s"),
                ("random_create", 3602.0, "ops/s"),
                ("random_create_cpu", 82.0, "%"),
                ("random_create_lat", 0.026715, "s"),
                ("random_stat_lat", 0.00042, "s"),
                ("random_delete", 9341.0, "ops/s"),
                ("random_delete_cpu", 30.0, "%"),
                ("random_delete_lat", 0.003607, "s"),
            ])
        );
        assert_eq!(
            p.parameters,
            params(&[
                ("csv_format", "1.98".into()),
                ("machine", "vm".into()),
                ("concurrency", 1.into()),
                ("seed", 1_796_006_227u64.into()),
                // `-n 16:10000:1000:4`, as bonnie++'s table prints it
                ("num_files", "16:10000:1000/4".into()),
                ("file_count", 16384.into()),
                ("file_max_size", 10000.into()),
                ("file_min_size", 1000.into()),
                ("file_dirs", 4.into()),
            ])
        );
    }

    #[test]
    fn command_line_and_repeated_runs() {
        let all = parse(X2).unwrap();
        assert_eq!(all.len(), 2);
        let cmd = "bonnie++ -d /tmp/x -s 512M:64k -r 256 -n 16 -m testbox -x 2 -q -u root";
        for p in &all {
            assert_eq!(p.command.as_deref(), Some(cmd));
            assert_eq!(p.parameters["machine"], "testbox");
            // 2.00a leaves the chunk column empty: the command line says 64k
            assert_eq!(p.parameters["chunk_size"], 65536);
            assert_eq!(p.parameters["directory"], "/tmp/x");
            assert_eq!(p.parameters["ram_size"], 256u64 << 20);
            assert_eq!(p.parameters["iterations"], 2);
            assert_eq!(p.parameters["file_count"], 16384);
        }
        assert_eq!(
            value(&all[0], "seq_block_write_bw"),
            Some(503_323.0 * 1024.0)
        );
        assert_eq!(
            value(&all[1], "seq_block_write_bw"),
            Some(437_676.0 * 1024.0)
        );
        assert_eq!(value(&all[0], "random_create"), Some(4281.0));
        assert_eq!(value(&all[1], "random_create"), None);
        assert_eq!(value(&all[1], "seq_create_lat"), Some(0.010746));
    }

    #[test]
    fn format_1_96_with_published_rackspace_figures() {
        let p = one(V196);
        assert_eq!(value(&p, "seq_block_read_bw"), Some(98_284_544.0));
        assert_eq!(value(&p, "seq_block_write_bw"), Some(16564.0 * 1024.0));
        assert_eq!(value(&p, "random_seeks"), Some(473.4));
        assert_eq!(value(&p, "random_seeks_cpu"), Some(14.0));
        assert_eq!(value(&p, "seq_block_write_bw_lat"), Some(2.302));
        assert_eq!(value(&p, "seq_char_write_bw_lat"), Some(0.021486));
        assert_eq!(value(&p, "random_stat_lat"), Some(0.000016));
        assert_eq!(value(&p, "seq_create"), None);
        assert_eq!(p.metrics.len(), 12 + 12);
        assert_eq!(p.parameters["csv_format"], "1.96");
        assert_eq!(p.parameters["file_size"], 16u64 << 30);
        assert_eq!(p.parameters["num_files"], "16");
        assert!(!p.parameters.contains_key("chunk_size"));
        assert!(!p.parameters.contains_key("seek_count"));
        assert_eq!(p.tool_version.as_deref(), Some("1.96"));
    }

    #[test]
    fn format_1_97_units_chunk_and_directories() {
        let p = one(V197);
        assert_eq!(value(&p, "seq_char_write_bw"), None);
        assert_eq!(value(&p, "seq_char_write_bw_lat"), None);
        assert_eq!(value(&p, "seq_block_write_bw_lat"), Some(2.0));
        assert_eq!(value(&p, "rewrite_bw_lat"), Some(1.43));
        assert_eq!(value(&p, "seq_block_read_bw_lat"), Some(0.005523));
        assert_eq!(value(&p, "seq_block_read_bw"), Some(612_345.0 * 1024.0));
        assert_eq!(value(&p, "random_seeks"), Some(1523.0));
        assert_eq!(value(&p, "seq_create"), Some(5523.0));
        assert_eq!(value(&p, "random_delete_lat"), Some(0.008871));
        assert_eq!(
            p.parameters,
            params(&[
                ("csv_format", "1.97".into()),
                ("machine", "web2".into()),
                ("concurrency", 2.into()),
                ("seed", 1_401_234_567u64.into()),
                ("file_size", (8u64 << 30).into()),
                ("chunk_size", 65536.into()),
                ("num_files", "16:100000:16/64".into()),
                ("file_count", 16384.into()),
                ("file_max_size", 100_000.into()),
                ("file_min_size", 16.into()),
                ("file_dirs", 64.into()),
            ])
        );
    }

    #[test]
    fn format_1_03_with_published_ec2_figures() {
        let p = one(V103);
        assert_eq!(
            p.metrics,
            metrics(&[
                ("seq_char_write_bw", 23811.0 * 1024.0, "B/s"),
                ("seq_char_write_bw_cpu", 97.0, "%"),
                ("seq_block_write_bw", 54_525_952.0, "B/s"),
                ("seq_block_write_bw_cpu", 6.0, "%"),
                ("rewrite_bw", 24880.0 * 1024.0, "B/s"),
                ("rewrite_bw_cpu", 5.0, "%"),
                ("seq_char_read_bw", 28433.0 * 1024.0, "B/s"),
                ("seq_char_read_bw_cpu", 76.0, "%"),
                ("seq_block_read_bw", 67_108_864.0, "B/s"),
                ("seq_block_read_bw_cpu", 1.0, "%"),
                ("random_seeks", 939.8, "ops/s"),
                ("random_seeks_cpu", 1.0, "%"),
                ("seq_create", 127.0, "ops/s"),
                ("seq_create_cpu", 0.0, "%"),
                ("seq_stat", 158_584.0, "ops/s"),
                ("seq_stat_cpu", 39.0, "%"),
                ("seq_delete", 121.0, "ops/s"),
                ("seq_delete_cpu", 0.0, "%"),
                ("random_create", 174.0, "ops/s"),
                ("random_create_cpu", 0.0, "%"),
                ("random_stat", 203_851.0, "ops/s"),
                ("random_stat_cpu", 41.0, "%"),
                ("random_delete", 158.0, "ops/s"),
                ("random_delete_cpu", 0.0, "%"),
            ])
        );
        assert_eq!(
            p.parameters,
            params(&[
                ("csv_format", "1".into()),
                ("machine", "domU-12-31-39-02-5D-C1".into()),
                ("file_size", (3400u64 << 20).into()),
                ("num_files", "256".into()),
                ("file_count", 262_144.into()),
                ("directory", "/".into()),
                ("ram_size", (1700u64 << 20).into()),
                ("fsync_each_write", true.into()),
            ])
        );
        // 1.0x has no version column: the table's `Version  1.03` line says it
        assert_eq!(p.tool_version.as_deref(), Some("1.03"));
        assert_eq!(
            p.command.as_deref(),
            Some("bonnie++ -u 0 -r 1700 -s 3400 -n 256 -b -d /")
        );
    }

    #[test]
    fn format_1_03_fast_mode_with_header_and_chunk() {
        let all = parse(V103_FAST).unwrap();
        assert_eq!(all.len(), 2);
        let p = &all[0];
        assert_eq!(p.tool_version, None);
        assert_eq!(p.parameters["file_size"], 1u64 << 30);
        assert_eq!(p.parameters["chunk_size"], 32768);
        assert_eq!(p.parameters["num_files"], "16:100000:16/64");
        assert_eq!(p.parameters["file_dirs"], 64);
        assert_eq!(p.parameters["file_max_size"], 100_000);
        assert_eq!(value(p, "seq_char_write_bw"), None);
        assert_eq!(value(p, "seq_block_write_bw"), Some(48211.0 * 1024.0));
        assert_eq!(value(p, "random_seeks"), Some(1874.6));
        assert_eq!(value(p, "seq_create"), None);
        assert_eq!(value(p, "seq_delete"), Some(23417.0));
        assert_eq!(value(&all[1], "random_create_cpu"), Some(100.0));
        assert_eq!(p.metrics.len(), 6 + 8);
    }

    #[test]
    fn a_malformed_line_is_an_error_naming_it() {
        let short = format!("{QUIET}1.98,2.00a,vm,1\n");
        let e = format!("{:#}", parse(&short).unwrap_err());
        assert!(e.contains("line 2") && e.contains("found 4 fields"), "{e}");

        let prose = format!("{QUIET}\nhello world\n");
        let e = format!("{:#}", parse(&prose).unwrap_err());
        assert!(e.starts_with("line 3: expected a bonnie++ CSV line"), "{e}");

        let bad_rate = QUIET.replacen(",1222,", ",12x2,", 1);
        let e = format!("{:#}", parse(&bad_rate).unwrap_err());
        assert!(e.contains("line 1: field 10 (putc, format 1.98)"), "{e}");
        assert!(e.contains("found `12x2`"), "{e}");

        let bad_lat = QUIET.replacen("19387us", "19387xs", 1);
        let e = format!("{:#}", parse(&bad_lat).unwrap_err());
        assert!(e.contains("field 39 (putc_latency"), "{e}");

        let bad_format = QUIET.replacen("1.98,", "1.96,", 1);
        let e = format!("{:#}", parse(&bad_format).unwrap_err());
        assert!(
            e.contains("field 1 (format_version, format 1.98): expected 1.98, found `1.96`"),
            "{e}"
        );

        let bad_size = V103_FAST.replacen("1G:32k", "huge", 1);
        let e = format!("{:#}", parse(&bad_size).unwrap_err());
        assert!(e.contains("line 2: field 2 (file_size, format 1"), "{e}");
    }

    #[test]
    fn text_without_csv_is_refused() {
        let e = format!("{:#}", parse(QUIET_STDERR).unwrap_err());
        assert!(e.starts_with("no bonnie++ CSV line found"), "{e}");
        assert!(parse("").is_err());
    }

    #[test]
    fn table_style_suffixes_are_binary() {
        // the 2.00a table prints 341193 K/sec as `333m`
        let line = QUIET.replacen(",341193,", ",333m,", 1);
        let p = one(&line);
        assert_eq!(
            value(&p, "seq_block_write_bw"),
            Some(333.0 * 1024.0 * 1024.0)
        );
    }

    #[test]
    fn recognises_bonnie_and_nothing_else() {
        for text in [
            QUIET,
            TABLE,
            FILES_ONLY,
            X2,
            V196,
            V197,
            V103,
            V103_FAST,
            QUIET_STDERR,
        ] {
            assert!(looks_like(text));
        }
        for text in [
            include_str!("../../tests/fixtures/bonnie/not-bonnie/dd.txt"),
            include_str!("../../tests/fixtures/bonnie/not-bonnie/fio.json"),
            include_str!("../../tests/fixtures/bonnie/not-bonnie/fio.txt"),
            include_str!("../../tests/fixtures/bonnie/not-bonnie/ioping.txt"),
            "",
            "a,b,c",
        ] {
            assert!(!looks_like(text), "{text}");
        }
    }

    #[test]
    fn command_options_attached_or_separate() {
        let cmd = "bonnie++ -d/mnt -s16g:4k -r 8192 -f -D";
        assert_eq!(command_chunk_size(cmd), Some(4096));
        let mut p = BTreeMap::new();
        command_parameters(cmd, &mut p);
        assert_eq!(
            p,
            params(&[
                ("directory", "/mnt".into()),
                ("ram_size", (8192u64 << 20).into()),
                ("file_size", (16u64 << 30).into()),
                ("chunk_size", 4096.into()),
                ("skip_char_tests", true.into()),
                ("direct_io", true.into()),
            ])
        );
        // a CSV line's sizes win over the command's
        let mut p = params(&[("file_size", 1.into()), ("num_files", "16".into())]);
        command_parameters("bonnie++ -s 3400 -n 256", &mut p);
        assert_eq!(
            p,
            params(&[("file_size", 1.into()), ("num_files", "16".into())])
        );
        assert_eq!(
            command_line("root@vm:~# /usr/sbin/bonnie++ -q"),
            Some("/usr/sbin/bonnie++ -q")
        );
        assert_eq!(command_line("Version 2.00a"), None);
    }

    #[test]
    fn read_command_gives_id_parameters_and_command() {
        let p = read_command("# bonnie++ -u 0 -r 1700 -s 3400 -n 256 -b -d /").unwrap();
        assert_eq!(p.test_id.as_deref(), Some("bonnie"));
        assert_eq!(
            p.command.as_deref(),
            Some("bonnie++ -u 0 -r 1700 -s 3400 -n 256 -b -d /")
        );
        assert_eq!(
            p.parameters,
            params(&[
                ("directory", "/".into()),
                ("ram_size", (1700u64 << 20).into()),
                ("file_size", (3400u64 << 20).into()),
                ("num_files", "256".into()),
                ("file_count", (256 * 1024).into()),
                ("fsync_each_write", true.into()),
            ])
        );
        assert!(p.metrics.is_empty());
        let p = read_command("bonnie++ -s 16g:64k -n 16:100000:16:64").unwrap();
        // only a plain `-n N` is read: the long form's order differs from the table's
        assert_eq!(
            p.parameters,
            params(&[
                ("file_size", (16u64 << 30).into()),
                ("chunk_size", 65536.into()),
            ])
        );
        let e = read_command("bonnie -s 1g").unwrap_err().to_string();
        assert!(e.contains("expected a bonnie++ command line"), "{e}");
    }
}
