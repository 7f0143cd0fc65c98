//! `diskdash import`: existing tool output → records.
//!
//! Each input file is recognised (or told with `--tool`), parsed by the
//! tool's parser, and becomes one record per result it holds (a bonnie++
//! CSV line, a fio reporting group). The test id comes from the command line
//! or job header found in the file (see each parser's `test_id`), else
//! `--test-id`, else the tool's name. Records are never overwritten.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};

use crate::record::{is_valid_id, slug, Raw, Record, Source, Status, Subject, TestInfo, Tool};
use crate::term::shown;
use crate::{fsio, tools};

/// Kept for the binary-level tests, which name it here.
use crate::digest::hex_sha256;

/// What one import run did, for the summary.
#[derive(Debug, Default)]
struct Tally {
    written: Vec<PathBuf>,
    existing: Vec<PathBuf>,
    skipped: Vec<(PathBuf, String)>,
    /// Files (or paths) named on the command line and refused.
    failed: usize,
    /// Files that gave records.
    files: usize,
}

/// What one `diskdash import` is asked to do.
#[derive(Clone, Debug)]
pub struct ImportOptions {
    /// The tool that printed the files; `None` recognises it from the content.
    pub tool: Option<Tool>,
    /// Files, or directories to walk.
    pub files: Vec<PathBuf>,
    /// What was measured, for every record.
    pub subject: Subject,
    /// The test id of every record, instead of the derived one.
    pub test_id: Option<String>,
    /// `host.name` of every record (already checked, and anonymous under
    /// `--anonymous-host`); `None` leaves it unknown.
    pub host_name: Option<String>,
    /// `--started-at`: the time of records whose output prints none.
    pub started_at: Option<StartedAt>,
    /// Where the records go.
    pub out: PathBuf,
}

/// `import --started-at`: when output without a date of its own was
/// measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StartedAt {
    /// The time (a plain date's midnight UTC).
    pub at: std::time::SystemTime,
    /// Given as a plain date (`2023-03-01`), which an output's time on
    /// that UTC day agrees with.
    pub plain_date: bool,
}

impl StartedAt {
    /// Whether a date the output prints agrees with the flag: on its day
    /// for a plain date, else within 24 hours of it (one measurement,
    /// `docs/analysis.md`).
    fn agrees(&self, output: std::time::SystemTime) -> bool {
        let gap = |a: std::time::SystemTime, b| a.duration_since(b).unwrap_or_default();
        let day = std::time::Duration::from_secs(86_400);
        if self.plain_date {
            output >= self.at && gap(output, self.at) < day
        } else {
            gap(output, self.at).max(gap(self.at, output)) <= day
        }
    }

    /// The flag as the warning quotes it.
    fn shown(&self) -> String {
        let t = tools::date::rfc3339(self.at);
        if self.plain_date {
            t.get(..10).unwrap_or(&t).to_string()
        } else {
            t
        }
    }
}

/// Dates the records of one file whose output printed no date with
/// `--started-at`; a record the output dates keeps its date, with a
/// warning where the flag says otherwise.
fn apply_started_at(records: &mut [Record], flag: &StartedAt) {
    let when = tools::date::rfc3339(flag.at);
    for r in records {
        let own = r
            .started_at
            .as_deref()
            .and_then(|t| humantime::parse_rfc3339(t).ok());
        match own {
            None => {
                r.started_at = Some(when.clone());
                // the output's unreadable date: the flag now gives it
                for w in r.warnings.iter_mut() {
                    if w.starts_with(DATE_NOT_READ) {
                        if let Some(why) = w.strip_suffix(GIVE_IT) {
                            *w = format!("{why}; dated {when} by --started-at");
                        }
                    }
                }
            }
            Some(t) if !flag.agrees(t) => r.warnings.push(format!(
                "the output dates it {}: --started-at {} is for output without a date, not used",
                tools::date::rfc3339(t),
                flag.shown()
            )),
            Some(_) => {}
        }
    }
}

/// Runs the command; returns 0 when every named file was imported, 1 when a
/// file named on the command line could not be read or recognised.
pub fn command(o: &ImportOptions) -> Result<u8> {
    let opts = Options {
        tool: o.tool,
        subject: &o.subject,
        test_id: o.test_id.as_deref(),
        host_name: o.host_name.as_deref(),
        started_at: o.started_at,
    };
    // a name the catalogue has no row for loses its list price and
    // published limits in the report: said once, before the files
    if let Some(w) = crate::catalogue::name_warning(
        o.subject.provider.as_deref(),
        o.subject.offering.as_deref(),
        o.subject.price.is_some(),
    ) {
        crate::tell!("warning: {}", shown(&w));
    }
    let mut tally = Tally::default();
    for input in &o.files {
        let meta = match std::fs::metadata(input) {
            Ok(m) => m,
            Err(e) => {
                crate::tell!(
                    "error: cannot read `{}`: {}",
                    shown(input),
                    shown(e.to_string())
                );
                tally.failed += 1;
                continue;
            }
        };
        if meta.is_dir() {
            import_dir(input, &opts, &o.out, &mut tally)?;
        } else if !meta.is_file() {
            // a FIFO would hang the read, /dev/zero never end it
            crate::tell!(
                "error: `{}`: not a regular file (a FIFO, device or socket); expected a tool's output file",
                shown(input)
            );
            tally.failed += 1;
        } else {
            match import_file(input, &opts) {
                Ok((records, _)) => {
                    tell_warnings(input, &records);
                    tally.files += 1;
                    write_records(&records, &o.out, &mut tally)?
                }
                Err(e) => {
                    crate::tell!("error: `{}`: {}", shown(input), shown(&e));
                    tally.failed += 1;
                }
            }
        }
    }
    for (path, why) in &tally.skipped {
        crate::say!("skipped `{}`: {}", shown(path), shown(why));
    }
    for path in &tally.existing {
        crate::say!("exists, left alone: `{}`", shown(path));
    }
    if let Some(line) = summary_line(&tally, &o.out) {
        crate::say!("{}", shown(line));
    }
    Ok(if tally.failed > 0 { 1 } else { 0 })
}

/// The import's last line: `imported 3 records into `out``, with the
/// files counted when some were refused (`imported 3 records from 2 files
/// into `out`; 1 file refused`) and the files a walk skipped (`; 2 files
/// skipped`, each listed above); none when nothing was
/// imported and something was refused or skipped, as the refusals above
/// already say all there is (the exit status says the rest).
fn summary_line(tally: &Tally, out: &Path) -> Option<String> {
    use crate::format::count_of;
    let records = count_of(tally.written.len(), "record", "records");
    // shown here as a path, so that a byte that is not UTF-8 reads `\xff`
    let out = shown(out).to_string();
    if tally.failed == 0 && tally.skipped.is_empty() {
        return Some(format!("imported {records} into `{out}`"));
    }
    if tally.files == 0 {
        return None;
    }
    let mut line = if tally.failed > 0 {
        format!(
            "imported {records} from {} into `{out}`",
            count_of(tally.files, "file", "files")
        )
    } else {
        format!("imported {records} into `{out}`")
    };
    if tally.failed > 0 {
        line.push_str(&format!(
            "; {} refused",
            count_of(tally.failed, "file", "files")
        ));
    }
    if !tally.skipped.is_empty() {
        line.push_str(&format!(
            "; {} skipped",
            count_of(tally.skipped.len(), "file", "files")
        ));
    }
    Some(line)
}

/// Prints the warnings of the records made from `path` (each once): what
/// did not stop the import but changed what it gave.
fn tell_warnings(path: &Path, records: &[Record]) {
    let mut seen = std::collections::BTreeSet::new();
    for warning in records.iter().flat_map(|r| &r.warnings) {
        if seen.insert(warning) {
            crate::tell!("warning: `{}`: {}", shown(path), shown(warning));
        }
    }
}

/// Settings shared by every file of one import.
struct Options<'a> {
    tool: Option<Tool>,
    subject: &'a Subject,
    test_id: Option<&'a str>,
    host_name: Option<&'a str>,
    started_at: Option<StartedAt>,
}

/// Walks a directory ([`crate::walk::tree`]: sorted by name, hidden
/// entries left out, links not followed): every recognised file is
/// imported; the rest are listed as skipped with the reason.
fn import_dir(dir: &Path, opts: &Options, out: &Path, tally: &mut Tally) -> Result<()> {
    let out_abs = std::fs::canonicalize(out).ok();
    let (mut logs, mut used) = (Vec::new(), std::collections::BTreeSet::new());
    for entry in crate::walk::tree(dir, |_| true) {
        let entry = entry.with_context(|| format!("cannot walk `{}`", dir.display()))?;
        if crate::walk::too_deep(&entry) {
            let why = crate::walk::too_deep_message();
            tally.skipped.push((entry.into_path(), why));
            continue;
        }
        if crate::walk::unfinished_write(&entry) {
            let why = crate::walk::UNFINISHED_WRITE.to_string();
            tally.skipped.push((entry.into_path(), why));
            continue;
        }
        if !entry.file_type().is_file() {
            continue;
        }
        let path = entry.path();
        // fio's per-second logs are read with the output beside them
        let name = entry.file_name().to_string_lossy();
        if tools::fio::log::is_log_file(&name) {
            logs.push(path.to_path_buf());
            continue;
        }
        // Records already written (to `--out` inside the walked tree, or
        // diskdash's own) are not tool output.
        if let (Some(o), Ok(p)) = (&out_abs, std::fs::canonicalize(path)) {
            if p.starts_with(o) {
                continue;
            }
        }
        match import_file(path, opts) {
            Ok((records, read)) => {
                used.extend(read);
                tell_warnings(path, &records);
                tally.files += 1;
                write_records(&records, out, tally)?
            }
            Err(e) => tally.skipped.push((path.to_path_buf(), format!("{e:#}"))),
        }
    }
    for log in logs.into_iter().filter(|l| !used.contains(l)) {
        let why = unclaimed_log(&log);
        tally.skipped.push((log, why));
    }
    Ok(())
}

/// Why a fio per-second log in a walked directory was not read: no fio
/// output imported beside it is its companion.
fn unclaimed_log(log: &Path) -> String {
    let name = log
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = tools::fio::log::log_name(&name).map_or("", |(p, _, _)| p);
    format!(
        "a fio per-second log not read: no fio output imported from this directory names it \
         (expected `{prefix}.json` or `{prefix}.txt` beside it, or fio output whose \
         `write_iops_log`/`write_bw_log`/`write_lat_log` option is `{prefix}`)"
    )
}

/// The largest file `import` reads (256 MiB): the largest tool output
/// seen is a fio JSON output of many jobs, a few MiB, and a day of fio's
/// per-second logs is tens of MiB; parsing costs a file's size in memory
/// several times over, so a file far larger is no tool output, and is
/// refused by its size before a byte is read.
pub const MAX_IMPORT_BYTES: u64 = 256 << 20;

/// A file's bytes, refused by its size (over [`MAX_IMPORT_BYTES`]) before
/// it is read, and never read past the bound should it grow meanwhile.
fn read_bounded(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    let too_large = |len: u64| {
        anyhow::anyhow!(
            "{len} bytes, larger than any tool output diskdash imports (at most {MAX_IMPORT_BYTES}); left out unread"
        )
    };
    if len > MAX_IMPORT_BYTES {
        return Err(too_large(len));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(MAX_IMPORT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_IMPORT_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Reads and parses one file into records (nothing written), with the fio
/// logs beside it that were read into their timeline (or tried, and said
/// why not in the records' warnings).
fn import_file(path: &Path, opts: &Options) -> Result<(Vec<Record>, Vec<PathBuf>)> {
    let bytes = read_bounded(path).context("cannot read it")?;
    let mut records = records_from_output(
        &path.display().to_string(),
        &bytes,
        opts.tool,
        opts.subject,
        opts.test_id,
    )?;
    if let Some(name) = opts.host_name {
        for r in &mut records {
            r.host.name = Some(name.to_string());
        }
    }
    if let Some(flag) = &opts.started_at {
        apply_started_at(&mut records, flag);
    }
    // read as the parsers read it (borrowed, for LF UTF-8)
    let read = tools::text::read(&bytes).ok();
    let text = read.as_ref().map_or("", |t| t.text.as_ref());
    let used = attach_fio_logs(path, text, &mut records);
    Ok((records, used))
}

/// The start of every warning about fio's per-second logs beside a file.
pub const NO_TIMELINE: &str = "timeline not attached";

/// Gives the one fio record made from `path` the timeline of the fio
/// per-second logs beside it: those whose prefix is the file's stem
/// (`t.json` → `t_iops.1.log`, bench-fio's layout) or the name a
/// `write_*_log` job option in the output gives. Returns the logs found
/// (read or not: they are this file's). Logs are optional: one that
/// cannot be read or does not fit (empty, garbled, latency alone, a
/// negative value, another run's, a file of several records, a record
/// `check` would refuse with it) leaves the record as the output made it, with a
/// warning `timeline not attached: <why>`, never the loss of the result.
fn attach_fio_logs(path: &Path, text: &str, records: &mut [Record]) -> Vec<PathBuf> {
    if !records.iter().any(|r| r.test.tool == Tool::Fio) {
        return Vec::new();
    }
    let Some(dir) = path.parent() else {
        return Vec::new();
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let mut prefixes: Vec<String> = Vec::new();
    if let Some(stem) = path.file_stem() {
        prefixes.push(stem.to_string_lossy().into_owned());
    }
    prefixes.extend(log_options(text));
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    // the order logs are read in must not depend on the directory's
    names.sort();
    use tools::fio::log::{log_name, LogKind};
    let of = |p: &str| -> Vec<&String> {
        names
            .iter()
            .filter(|n| log_name(n).is_some_and(|(q, _, _)| q == p))
            .collect()
    };
    // the first prefix with logs, preferring one with an IOPS or bandwidth log
    let timeline_log =
        |n: &&String| log_name(n).is_some_and(|(_, k, _)| matches!(k, LogKind::Iops | LogKind::Bw));
    let Some(prefix) = prefixes
        .iter()
        .find(|p| of(p).iter().any(timeline_log))
        .or_else(|| prefixes.iter().find(|p| !of(p).is_empty()))
    else {
        return Vec::new();
    };
    let logs = of(prefix);
    let used: Vec<PathBuf> = logs.iter().map(|n| dir.join(n)).collect();
    let listed = logs
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let warn = |records: &mut [Record], why: String| {
        for r in records.iter_mut().filter(|r| r.test.tool == Tool::Fio) {
            r.warnings.push(format!("{NO_TIMELINE}: {why}"));
        }
    };
    let record = match records {
        [record] if record.status == Status::Ok => record,
        [_] => {
            warn(
                records,
                format!("fio logs {listed} beside it, but the fio run failed"),
            );
            return used;
        }
        _ => {
            let n = records.len();
            warn(
                records,
                format!("fio logs {listed} beside it, but it gave {n} records and the logs do not say whose they are"),
            );
            return used;
        }
    };
    if !logs.iter().any(timeline_log) {
        warn(
            std::slice::from_mut(record),
            format!(
                "fio logs {listed} hold latencies only (expected an IOPS or bandwidth log, \
                 `{prefix}_iops.1.log` or `{prefix}_bw.1.log`, as `write_iops_log` or `write_bw_log` writes)"
            ),
        );
        return used;
    }
    let mut files = Vec::new();
    for (name, log_path) in logs.iter().zip(&used) {
        match read_bounded(log_path) {
            Ok(data) => files.push(((*name).clone(), data)),
            Err(e) => {
                warn(
                    std::slice::from_mut(record),
                    format!("cannot read fio log `{name}`: {e:#}"),
                );
                return used;
            }
        }
    }
    let before = record.clone();
    let why = match crate::timeline::attach_logs(record, &files) {
        Err(e) => Some(format!("{e:#}")),
        Ok(()) => not_of_this_run(record, &listed).or_else(|| {
            crate::record::would_pass_check(record).err().map(|why| {
                format!("the record with the timeline of fio logs {listed} would not pass `diskdash check`: {why}")
            })
        }),
    };
    if let Some(why) = why {
        *record = before;
        warn(std::slice::from_mut(record), why);
    }
    used
}

/// Why a timeline just attached is not that of the run the record holds:
/// it spans more than twice the run's `runtime` and 10 s more (logs of
/// another, longer run under the same name), or less than half of it and
/// 10 s less. `None` when it fits, or the record gives no runtime.
fn not_of_this_run(record: &Record, listed: &str) -> Option<String> {
    let runtime = record.metrics.get("runtime")?.value;
    let tl = record.timeline.as_deref()?;
    let samples = [&tl.read, &tl.write, &tl.trim]
        .into_iter()
        .flatten()
        .map(|s| s.iops.len().max(s.bw.len()))
        .max()?;
    let span = samples as f64 * tl.interval_s;
    let fits = span <= 2.0 * runtime + 10.0 && 2.0 * span + 10.0 >= runtime;
    (!fits).then(|| {
        format!(
            "fio logs {listed} span {span} s, but the run beside them lasted {runtime} s (its `runtime`): they are another run's"
        )
    })
}

/// The log prefixes the `write_iops_log`, `write_bw_log` and
/// `write_lat_log` options of fio JSON output name (their file names only).
fn log_options(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for key in ["write_iops_log", "write_bw_log", "write_lat_log"] {
        let needle = format!("\"{key}\" : \"");
        for (at, _) in text.match_indices(&needle) {
            let rest = &text[at + needle.len()..];
            if let Some(end) = rest.find('"') {
                let value = &rest[..end];
                let base = value.rsplit('/').next().unwrap_or(value);
                if !base.is_empty() && !out.iter().any(|o| o == base) {
                    out.push(base.to_string());
                }
            }
        }
    }
    out
}

/// Turns one file's bytes into records: recognises the tool (unless given),
/// parses, and fills in provenance. Fails with what was expected when the
/// text is not output of a known tool.
pub fn records_from_output(
    file: &str,
    bytes: &[u8],
    tool: Option<Tool>,
    subject: &Subject,
    test_id: Option<&str>,
) -> Result<Vec<Record>> {
    // CRLF, a byte order mark, UTF-16 and Latin-1 read as LF UTF-8
    let read = tools::text::read(bytes).map_err(|e| anyhow!(e))?;
    let text: &str = &read.text;
    let (tool, recognised) = match tool {
        Some(t) => (t, tools::output(t).looks_like(text)),
        None => (
            tools::detect(text).ok_or_else(|| {
                anyhow!(
                    "not recognised as dd, fio, ioping or bonnie++ output (expected dd's \
                 `... bytes ... copied` line, fio JSON or text output, yabs's `fio Disk Speed \
                 Tests` block, ioping's statistics, or bonnie++ CSV); name the tool with --tool \
                 if it is one of them"
                )
            })?,
            true,
        ),
    };
    // a parser's error says what it found and what went wrong; "not <tool>
    // output" only when the text does not look like the tool's at all
    let results = tools::parse(tool, text).with_context(|| {
        if recognised {
            format!("recognised as {tool} output, not imported")
        } else {
            format!("not {tool} output")
        }
    })?;
    if results.is_empty() {
        bail!("no {tool} results found");
    }
    let dates = output_dates(text, &results);
    let sha = hex_sha256(bytes);
    let run_id = format!("import-{}", &sha[..12]);
    let many = results.len() > 1;
    let mut repetitions: BTreeMap<String, u32> = BTreeMap::new();
    let mut records = Vec::new();
    for (k, (parsed, date)) in results.into_iter().zip(dates).enumerate() {
        let test_id = test_id
            .map(str::to_string)
            .or(parsed.test_id.map(|t| safe_test_id(&t)))
            .unwrap_or_else(|| tool.name().trim_end_matches('+').to_string());
        let repetition = repetitions.entry(test_id.clone()).or_insert(0);
        *repetition += 1;
        let id = record_id(subject, &test_id, &sha, many.then_some(k + 1));
        let status = if parsed.metrics.is_empty() || parsed.error.is_some() {
            Status::Failed
        } else {
            Status::Ok
        };
        let source = Source::Import {
            file: file.to_string(),
            sha256: sha.clone(),
            diskdash_version: env!("CARGO_PKG_VERSION").to_string(),
        };
        let test = TestInfo {
            id: test_id,
            suite: None,
            tool,
            tool_version: parsed.tool_version,
            parameters: parsed.parameters,
            command: parsed.command,
        };
        let mut warnings = Vec::new();
        let started_at = match date {
            Some(Ok(t)) => Some(tools::date::rfc3339(t)),
            Some(Err(why)) => {
                warnings.push(format!("{DATE_NOT_READ}: {why}{GIVE_IT}"));
                None
            }
            None => None,
        };
        records.push(Record {
            run_id: Some(run_id.clone()),
            repetition: *repetition,
            started_at,
            warnings,
            error: (status == Status::Failed).then(|| {
                parsed
                    .error
                    .unwrap_or_else(|| format!("the {tool} output holds no measurement"))
            }),
            status,
            metrics: parsed.metrics.into_iter().collect(),
            // a file of one result is kept whole; of several, each record
            // keeps its own part (`source` names the whole file and its
            // SHA-256), so the records of a file grow with it, not with its
            // square
            raw: Some(Box::new(bounded_raw(match &parsed.part {
                Some(part) if many => part,
                _ => text,
            }))),
            ..Record::new(id, source, subject.clone(), test)
        });
    }
    for r in &mut records {
        if let Some(caveat) = tools::judge(tool).caveat(&r.test.parameters) {
            r.warnings.push(caveat.to_string());
        }
    }
    if let Some(warning) = shortfall(tool, text, records.len()) {
        for r in &mut records {
            r.warnings.push(warning.clone());
        }
    }
    for record in &records {
        if let Err(why) = crate::record::would_pass_check(record) {
            bail!("the record made from it would not pass `diskdash check`: {why}");
        }
    }
    Ok(records)
}

/// The start of the warning for a date in the output that cannot be
/// placed in time.
pub const DATE_NOT_READ: &str = "the date the output prints is not read";

/// How that warning ends where `--started-at` was not given.
const GIVE_IT: &str = "; give it with --started-at";

/// Each result's date (`docs/import.md`, "Dates"): the one its tool
/// printed; where the tool printed none for any result of the file, the
/// `date` lines of the text ([`tools::date::line`]): the first one in the
/// result's part of the text (a part holds the lines since the result
/// before it, where a `date` run before the tool's command sits), else the
/// nearest one above it, else the nearest one below it (a `date` run after
/// the tool); a result whose part is not found (or that is the whole text)
/// takes the file's first.
fn output_dates(text: &str, results: &[tools::Parsed]) -> Vec<Option<tools::date::Dated>> {
    if results.iter().any(|p| p.date.is_some()) {
        // the tool dates its runs: one it left undated is not given another's
        return results.iter().map(|p| p.date.clone()).collect();
    }
    let lines = tools::date::lines_in(text);
    if lines.is_empty() {
        return vec![None; results.len()];
    }
    // parts are in the order of the text; the results of one run (yabs's
    // block sizes) share theirs
    let mut prev: Option<(&str, Option<(usize, usize)>)> = None;
    results
        .iter()
        .map(|p| {
            let span = p.part.as_deref().and_then(|part| match prev {
                Some((same, span)) if same == part => span,
                _ => {
                    let from = prev.and_then(|(_, s)| s).map_or(0, |(_, end)| end);
                    let at = from + text.get(from..)?.find(part)?;
                    let span = Some((at, at + part.len()));
                    prev = Some((part, span));
                    span
                }
            });
            let pick = match span {
                Some((start, end)) => lines
                    .iter()
                    .find(|(at, _)| (start..end).contains(at))
                    .or_else(|| lines.iter().rev().find(|(at, _)| *at < start))
                    .or_else(|| lines.iter().find(|(at, _)| *at >= end)),
                None => lines.first(),
            };
            pick.map(|(_, d)| d.clone())
        })
        .collect()
}

/// The runs a file visibly holds, counted by a line its tool prints once
/// a run, with what was counted: fio's `Run status group` lines, yabs's
/// block sizes (two a `Block Size |` line), dd's summary lines (`... bytes
/// ... copied, ...` after `N+M records out`), ioping's `--- ... ioping
/// statistics ---` lines. `None` when the tool prints no such line (JSON,
/// terse, bonnie++, dd in another language) or the file holds none.
pub fn visible_runs(tool: Tool, text: &str) -> Option<(usize, &'static str)> {
    let count = |is: &dyn Fn(&str) -> bool| text.lines().filter(|l| is(l.trim())).count();
    let (n, what) = match tool {
        Tool::Fio => {
            let yabs = 2 * count(&|l| l.starts_with("Block Size |"));
            if yabs > 0 {
                (yabs, "yabs block sizes, two a `Block Size |` line")
            } else {
                (
                    count(&|l| l.starts_with("Run status group ")),
                    "fio `Run status group` lines",
                )
            }
        }
        Tool::Dd => {
            // a run's summary follows its `N+M records out` line; a
            // `status=progress` update pasted on a line of its own does not
            let lines: Vec<&str> = text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            let summary = |l: &str| l.contains(" bytes") && l.contains(" copied, ");
            let n = lines
                .windows(2)
                .filter(|w| w[0].ends_with(" records out") && summary(w[1]))
                .count();
            (n, "dd summary lines after an `N+M records out` line")
        }
        Tool::Ioping => (
            count(&|l| l.starts_with("--- ") && l.ends_with("ioping statistics ---")),
            "ioping `--- ... ioping statistics ---` lines",
        ),
        Tool::Bonnie => return None,
    };
    (n > 0).then_some((n, what))
}

/// The warning for a file that gave fewer records than it visibly holds
/// runs ([`visible_runs`]), naming both counts; `None` when it gave as
/// many or more.
pub fn shortfall(tool: Tool, text: &str, records: usize) -> Option<String> {
    let (runs, what) = visible_runs(tool, text)?;
    (records < runs).then(|| {
        format!(
            "the file shows {runs} runs ({what}) but gave {}: {} not read",
            crate::format::count_of(records, "record", "records"),
            runs - records
        )
    })
}

/// The text as a record's raw stdout, bounded like a run's.
fn bounded_raw(text: &str) -> Raw {
    let (stdout, truncated) = crate::bounded::excerpt(text, crate::bounded::STREAM_LIMIT);
    Raw {
        stdout: Some(stdout),
        truncated,
        stdout_bytes: truncated.then_some(text.len() as u64),
        ..Raw::default()
    }
}

/// An imported record's id: `<study>.<offering>.<test id>.<first 12 hex
/// digits of the file's SHA-256>[.<n>]` (`import` where no offering is
/// given; the study only when given). The study is part of the id so that
/// one log imported into two studies gives two records that can live in
/// one tree. An id that would be longer than [`crate::record::MAX_ID_LEN`]
/// takes at most [`ID_SLUG_CHARS`] of the study's and the offering's slug
/// and [`ID_TEST_CHARS`] of the test id (186 characters at most); shorter
/// ones are left as they always were.
fn record_id(subject: &Subject, test_id: &str, sha: &str, n: Option<usize>) -> String {
    let build = |cut: Option<(usize, usize)>| {
        let part = |text: String, max: Option<usize>| match max {
            Some(max) if text.len() > max => {
                text[..max].trim_end_matches(['-', '.', '_']).to_string()
            }
            _ => text,
        };
        let mut id = [
            subject
                .study
                .as_deref()
                .map(|s| part(slug(s), cut.map(|c| c.0))),
            Some(part(
                subject.offering.as_deref().map_or("import".into(), slug),
                cut.map(|c| c.0),
            )),
            Some(part(test_id.to_string(), cut.map(|c| c.1))),
            Some(sha[..12].to_string()),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(".");
        if let Some(n) = n {
            id.push_str(&format!(".{n}"));
        }
        id
    };
    let id = build(None);
    if id.len() <= crate::record::MAX_ID_LEN {
        return id;
    }
    build(Some((ID_SLUG_CHARS, ID_TEST_CHARS)))
}

/// The most characters of the study's and the offering's slug a record id
/// that would be too long holds.
pub const ID_SLUG_CHARS: usize = 32;

/// The most characters of the test id a record id that would be too long
/// holds.
pub const ID_TEST_CHARS: usize = 100;

/// A test id derived from the file's content (fio's `rw` is copied as the
/// file states it) made filename-safe: the id names the record's file, so
/// `x/../../y` must not lead out of `--out`.
fn safe_test_id(derived: &str) -> String {
    if is_valid_id(derived) {
        return derived.to_string();
    }
    let mut id = slug(derived);
    id.truncate(64);
    id.trim_end_matches('-').to_string()
}

/// Where a record goes under `out`: `<study>/<offering>/<id>.json`, the
/// same grouping `run` uses.
pub fn record_path(out: &Path, record: &Record) -> PathBuf {
    out.join(crate::record::subject_dir(&record.subject))
        .join(record.file_name())
}

fn write_records(records: &[Record], out: &Path, tally: &mut Tally) -> Result<()> {
    for record in records {
        if !is_valid_id(&record.id) {
            bail!("record id `{}` is not filename-safe", record.id);
        }
        let path = record_path(out, record);
        fsio::refuse_links_below(out, &path)?;
        if path.exists() {
            tally.existing.push(path);
            continue;
        }
        fsio::write_new(&path, crate::record::to_json(record)?.as_bytes())?;
        tally.written.push(path);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_refused_with_what_was_expected() {
        let e = records_from_output("x.txt", b"hello world\n", None, &Subject::default(), None)
            .unwrap_err();
        assert!(format!("{e:#}").contains("not recognised as dd, fio, ioping or bonnie++"));
        // yabs, whose fio results are read, is named among the forms
        assert!(format!("{e:#}").contains("yabs's `fio Disk Speed Tests` block"));
        let e =
            records_from_output("x.bin", b"\0\x01", None, &Subject::default(), None).unwrap_err();
        assert!(format!("{e:#}").contains("binary"));
    }

    #[test]
    fn a_test_id_from_the_file_cannot_lead_out_of_out() {
        let fixture = include_str!("../tests/fixtures/fio/randread-4k-qd64.json");
        let evil = fixture.replace(r#""rw" : "randread""#, r#""rw" : "x/../../../escaped""#);
        assert_ne!(evil, fixture);
        let records = records_from_output(
            "evil.json",
            evil.as_bytes(),
            None,
            &Subject::default(),
            None,
        )
        .unwrap();
        let r = &records[0];
        assert_eq!(r.test.id, "fio-x-escaped-4k-qd64");
        assert!(is_valid_id(&r.id), "{}", r.id);
        let path = record_path(Path::new("out"), r);
        assert_eq!(path.parent(), Some(Path::new("out/unknown/unknown")));
        assert!(crate::record::validate(r).is_empty());
    }

    /// The records' JSON text, summed.
    fn total_bytes(records: &[Record]) -> usize {
        records
            .iter()
            .map(|r| crate::record::to_json(r).unwrap().len())
            .sum()
    }

    fn stdout(r: &Record) -> &str {
        r.raw
            .as_ref()
            .and_then(|raw| raw.stdout.as_deref())
            .unwrap()
    }

    #[test]
    fn records_of_a_file_of_many_runs_keep_their_own_run() {
        let run = include_str!("../tests/fixtures/dd/gnu91-write-8k-dsync.txt");
        let text = run.repeat(200);
        let records =
            records_from_output("dd.log", text.as_bytes(), None, &Subject::default(), None)
                .unwrap();
        assert_eq!(records.len(), 200);
        for r in &records {
            assert_eq!(stdout(r), run);
            let Source::Import { file, sha256, .. } = &r.source else {
                panic!("not an import source")
            };
            assert_eq!(
                (file.as_str(), sha256),
                ("dd.log", &hex_sha256(text.as_bytes()))
            );
        }
        // linear: twice the runs, twice the bytes (a record's own fields
        // are most of it: 152 bytes of dd output, some 1.9 KB of record)
        let total = total_bytes(&records);
        let twice = records_from_output(
            "dd.log",
            run.repeat(400).as_bytes(),
            None,
            &Subject::default(),
            None,
        )
        .unwrap();
        let total_twice = total_bytes(&twice);
        assert!(
            total_twice < total * 2 + total / 50,
            "{total} bytes of records from 200 runs, {total_twice} from 400"
        );
        assert!(total < 200 * (2048 + 2 * run.len()), "{total}");
    }

    #[test]
    fn each_fio_json_group_keeps_its_own_jobs() {
        let fixture = include_str!("../tests/fixtures/fio/randread-4k-qd64.json");
        let mut doc: serde_json::Value = serde_json::from_str(fixture).unwrap();
        let job = doc["jobs"][0].clone();
        let jobs: Vec<serde_json::Value> = (0..300)
            .map(|g| {
                let mut j = job.clone();
                j["groupid"] = g.into();
                j["jobname"] = format!("job{g}").into();
                j
            })
            .collect();
        doc["jobs"] = jobs.into();
        let text = serde_json::to_string_pretty(&doc).unwrap();
        let records = records_from_output(
            "many.json",
            text.as_bytes(),
            None,
            &Subject::default(),
            None,
        )
        .unwrap();
        assert_eq!(records.len(), 300);
        let total = total_bytes(&records);
        assert!(
            total < 3 * text.len(),
            "{total} bytes of records from {}",
            text.len()
        );
        // a record's part is fio JSON of its own job, which imports alone
        // to the same numbers
        let r = &records[7];
        assert!(stdout(r).contains("\"job7\"") && !stdout(r).contains("\"job8\""));
        let again = records_from_output(
            "part.json",
            stdout(r).as_bytes(),
            None,
            &Subject::default(),
            None,
        )
        .unwrap();
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].metrics, r.metrics);
    }

    #[test]
    fn each_fio_text_group_and_bonnie_line_keeps_its_own_text() {
        let text = include_str!("../tests/fixtures/fio/jobfile-two-groups.txt");
        let records =
            records_from_output("two.txt", text.as_bytes(), None, &Subject::default(), None)
                .unwrap();
        assert_eq!(records.len(), 2);
        assert_ne!(stdout(&records[0]), stdout(&records[1]));
        for r in &records {
            // its header line (options) and its result block
            assert!(stdout(r).contains("(g=") && stdout(r).contains("groupid="));
            assert!(stdout(r).len() < text.len());
        }
        let line = include_str!("../tests/fixtures/bonnie/2.00a-quiet.csv");
        let csv = line.repeat(3);
        let records =
            records_from_output("b.csv", csv.as_bytes(), None, &Subject::default(), None).unwrap();
        assert_eq!(records.len(), 3);
        for r in &records {
            assert_eq!(stdout(r), line);
        }
    }

    #[test]
    fn import_ids_stay_as_they_were_unless_too_long_then_fit() {
        let sha = "0123456789abcdef".repeat(4);
        let subject = Subject {
            study: Some("Block Storage Comparison 2026 Europe".into()),
            offering: Some("gp3".into()),
            ..Subject::default()
        };
        assert_eq!(
            record_id(&subject, "dd-write-8k-dsync", &sha, Some(2)),
            "block-storage-comparison-2026-europe.gp3.dd-write-8k-dsync.0123456789ab.2"
        );
        let long = Subject {
            study: Some("s".repeat(200)),
            offering: Some("o".repeat(200)),
            ..Subject::default()
        };
        let id = record_id(&long, &"t".repeat(200), &sha, Some(1000));
        assert!(is_valid_id(&id), "{id}");
        assert_eq!(id.len(), 32 + 1 + 32 + 1 + 100 + 1 + 12 + 5);
    }

    /// The fio tree fixture (`seqread.json` and its four logs) copied
    /// into a new directory.
    fn fio_tree() -> (tempfile::TempDir, PathBuf) {
        let tree = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fio/logs/tree");
        let dir = tempfile::tempdir().unwrap();
        for e in std::fs::read_dir(&tree).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), dir.path().join(e.file_name())).unwrap();
        }
        let json = dir.path().join("seqread.json");
        (dir, json)
    }

    fn no_options() -> Options<'static> {
        static SUBJECT: std::sync::OnceLock<Subject> = std::sync::OnceLock::new();
        Options {
            tool: None,
            subject: SUBJECT.get_or_init(Subject::default),
            test_id: None,
            host_name: None,
            started_at: None,
        }
    }

    #[test]
    fn a_fio_log_that_cannot_be_read_or_does_not_fit_is_a_warning_never_the_loss_of_the_result() {
        let (dir, json) = fio_tree();
        // as given, the logs make its timeline, without a warning
        let (records, used) = import_file(&json, &no_options()).unwrap();
        assert!(records[0].timeline.is_some() && used.len() == 4);
        assert_eq!(records[0].warnings, Vec::<String>::new());
        // the JSON alone: what every case below must still give
        let alone = records_from_output(
            "seqread.json",
            &std::fs::read(&json).unwrap(),
            None,
            &Subject::default(),
            None,
        )
        .unwrap();
        assert_eq!(alone.len(), 1);
        let iops = dir.path().join("seqread_iops.1.log");
        let good = std::fs::read_to_string(&iops).unwrap();
        // fio's other spacing (`1000,891,0,0,0`) and CRLF line ends read alike
        std::fs::write(&iops, good.replace(", ", ",").replace('\n', "\r\n")).unwrap();
        let (records, _) = import_file(&json, &no_options()).unwrap();
        assert_eq!(records[0].warnings, Vec::<String>::new());
        assert_eq!(
            records[0]
                .timeline
                .as_ref()
                .unwrap()
                .read
                .as_ref()
                .unwrap()
                .iops[0],
            891.0
        );
        for (log, why) in [
            (String::new(), "timeline not attached: fio log `seqread_iops.1.log`: an empty fio log"),
            (
                "Job 1: read IOPS\n<html>\n".to_string(),
                "timeline not attached: fio log `seqread_iops.1.log`: line 1: `Job 1: read IOPS` is not a fio log row",
            ),
            (
                good.replacen("3000, 840,", "3000, -840,", 1),
                "timeline not attached: fio log `seqread_iops.1.log`: line 3: value -840 is negative",
            ),
            (
                // spaced half a second apart where the bandwidth log is a second
                good.lines()
                    .map(|l| {
                        let (t, rest) = l.split_once(',').unwrap();
                        format!("{},{rest}\n", t.parse::<u64>().unwrap() / 2)
                    })
                    .collect(),
                "timeline not attached: fio logs of one run with different intervals",
            ),
            (
                format!("{good}604800001, 1, 0, 0, 0\n"),
                "timeline not attached: fio log `seqread_iops.1.log`: line 16: time 604800001 ms is past one week",
            ),
        ] {
            std::fs::write(&iops, &log).unwrap();
            let (records, used) = import_file(&json, &no_options()).unwrap();
            assert_eq!(records.len(), 1);
            let r = &records[0];
            // the result stands, as the JSON alone gives it, with the warning
            assert_eq!((r.status, &r.metrics), (Status::Ok, &alone[0].metrics));
            assert!(r.timeline.is_none());
            assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
            assert!(r.warnings[0].starts_with(why), "{}", r.warnings[0]);
            // the logs are the file's own: not listed as output of no file
            assert_eq!(used.len(), 4);
            assert!(crate::record::validate(r).is_empty());
        }
    }

    #[test]
    fn logs_of_another_longer_run_are_named_as_not_its_own() {
        // the 15 s run's real logs beside a 2 s run's real fio JSON
        let (dir, _) = fio_tree();
        let json = dir.path().join("seqread.json");
        let other =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fio/randread-4k-qd64.json");
        std::fs::copy(other, &json).unwrap();
        let (records, used) = import_file(&json, &no_options()).unwrap();
        let r = &records[0];
        assert_eq!(used.len(), 4);
        assert!(r.timeline.is_none());
        assert!(
            r.warnings[0].ends_with("span 15 s, but the run beside them lasted 2.001 s (its `runtime`): they are another run's"),
            "{:?}",
            r.warnings
        );
        assert!(!r.metrics.keys().any(|k| k.ends_with("_sustained")));
    }

    #[test]
    fn a_latency_log_alone_is_named_as_no_timeline() {
        let (dir, json) = fio_tree();
        for kind in ["iops", "bw"] {
            std::fs::remove_file(dir.path().join(format!("seqread_{kind}.1.log"))).unwrap();
        }
        let (records, used) = import_file(&json, &no_options()).unwrap();
        assert_eq!(used.len(), 2);
        assert!(records[0].timeline.is_none());
        assert!(
            records[0].warnings[0].starts_with(
                "timeline not attached: fio logs `seqread_clat.1.log`, `seqread_lat.1.log` hold latencies only"
            ),
            "{:?}",
            records[0].warnings
        );
    }

    #[test]
    fn a_log_no_file_names_is_described_as_such() {
        let why = unclaimed_log(Path::new("d/run7_iops.1.log"));
        assert!(
            why.contains(
                "no fio output imported from this directory names it (expected `run7.json`"
            ),
            "{why}"
        );
        assert!(!why.contains("beside it, or no IOPS"));
    }

    /// The metrics of each record, in order.
    fn metrics_of(file: &str, bytes: &[u8]) -> Vec<crate::record::Metrics> {
        records_from_output(file, bytes, None, &Subject::default(), None)
            .unwrap_or_else(|e| panic!("{file}: {e:#}"))
            .into_iter()
            .map(|r| r.metrics)
            .collect()
    }

    #[test]
    fn crlf_fio_text_keeps_every_percentile() {
        // real fio 3.x text output, pasted from Windows: CRLF line ends
        let lf = include_str!("../tests/fixtures/fio/randread-4k-qd64.txt");
        let crlf = lf.replace('\n', "\r\n");
        let want = metrics_of("lf.txt", lf.as_bytes());
        let got = metrics_of("crlf.txt", crlf.as_bytes());
        assert_eq!(got, want);
        let p99 = got[0].get("read_clat_p99").expect("read_clat_p99 read");
        assert_eq!(p99.value, want[0].get("read_clat_p99").unwrap().value);
        assert!(
            got[0]
                .keys()
                .filter(|k| k.starts_with("read_clat_p"))
                .count()
                >= 3
        );
        // and every tool: a dd, ioping and bonnie++ file likewise
        for f in [
            "dd/gnu91-loop-x3.txt",
            "ioping/ioping13-RLC.txt",
            "bonnie/2.00a-quiet.csv",
            "fio/randread-4k-qd64.json",
        ] {
            let text = std::fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("tests/fixtures")
                    .join(f),
            )
            .unwrap();
            assert_eq!(
                metrics_of(f, text.replace('\n', "\r\n").as_bytes()),
                metrics_of(f, text.as_bytes()),
                "{f}"
            );
        }
    }

    #[test]
    fn a_bom_utf16_or_latin1_file_reads_as_its_utf8_twin() {
        let text = include_str!("../tests/fixtures/fio/randread-4k-qd64.txt");
        let want = metrics_of("a.txt", text.as_bytes());
        // Notepad's UTF-8 with a byte order mark, on fio JSON and text
        let json = include_str!("../tests/fixtures/fio/randread-4k-qd64.json");
        let bom = [b"\xEF\xBB\xBF".as_slice(), json.as_bytes()].concat();
        assert_eq!(
            metrics_of("bom.json", &bom),
            metrics_of("a.json", json.as_bytes())
        );
        let bom = [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat();
        assert_eq!(metrics_of("bom.txt", &bom), want);
        // Windows PowerShell's `fio ... > out.txt`: UTF-16 LE with its BOM
        let utf16: Vec<u8> = b"\xFF\xFE"
            .iter()
            .copied()
            .chain(
                text.replace('\n', "\r\n")
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes),
            )
            .collect();
        assert_eq!(metrics_of("ps.txt", &utf16), want);
        // a dd log with a Latin-1 note above it (`ü` is the byte 0xFC)
        let dd = include_str!("../tests/fixtures/dd/gnu91-write-8k-dsync.txt");
        let latin1 = [b"# Messung f\xFCr /mnt/vol\n".as_slice(), dd.as_bytes()].concat();
        let records =
            records_from_output("de.txt", &latin1, None, &Subject::default(), None).unwrap();
        assert_eq!(
            records
                .iter()
                .map(|r| r.metrics.clone())
                .collect::<Vec<_>>(),
            metrics_of("dd.txt", dd.as_bytes())
        );
        assert_eq!(records[0].test.id, "dd-write-8k-dsync");
        assert!(stdout(&records[0]).starts_with("# Messung für /mnt/vol\n"));
        // the file's own bytes are what `source` names
        let Source::Import { sha256, .. } = &records[0].source else {
            panic!("not an import source")
        };
        assert_eq!(sha256, &hex_sha256(&latin1));
        // a French dd log in Latin-1 gets the locale hint its UTF-8 twin gets
        let fr = include_str!("../tests/fixtures/dd/locale-fr.txt");
        let fr_latin1: Vec<u8> = fr.chars().map(|c| c as u32 as u8).collect();
        assert_ne!(fr_latin1, fr.as_bytes());
        let e = |b: &[u8]| {
            format!(
                "{:#}",
                records_from_output("fr.txt", b, None, &Subject::default(), None).unwrap_err()
            )
        };
        assert_eq!(e(&fr_latin1), e(fr.as_bytes()));
        assert!(e(&fr_latin1).contains("LC_ALL=C"));
    }

    /// Each record's `started_at` (or `-`) and its date warnings.
    fn dates_of(file: &str, text: &str) -> Vec<(String, Vec<String>)> {
        records_from_output(file, text.as_bytes(), None, &Subject::default(), None)
            .unwrap_or_else(|e| panic!("{file}: {e:#}"))
            .into_iter()
            .map(|r| {
                let warnings = r
                    .warnings
                    .into_iter()
                    .filter(|w| w.starts_with(DATE_NOT_READ))
                    .collect();
                (r.started_at.unwrap_or_else(|| "-".into()), warnings)
            })
            .collect()
    }

    /// Each record's `started_at`, `-` for none.
    fn started(file: &str) -> Vec<String> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(file);
        let text = std::fs::read_to_string(path).unwrap();
        dates_of(file, &text).into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn every_tool_date_of_a_real_fixture_becomes_started_at() {
        // fio JSON: `"timestamp" : 1795999163` (its `time`, `Mon Nov 30
        // 00:39:23 2026`, agrees: the machine ran in UTC)
        assert_eq!(
            started("fio/randread-4k-qd64.json"),
            ["2026-11-30T00:39:23Z"]
        );
        // two fio runs appended to one JSON log: each its own timestamp
        assert_eq!(
            started("fio/runs-appended-x2.json"),
            ["2026-12-01T08:15:33Z", "2026-12-01T08:15:34Z"]
        );
        // fio 3.x text: `randread: (groupid=0, jobs=1): err= 0: pid=9135: Mon Nov 30 00:39:26 2026`
        assert_eq!(
            started("fio/randread-4k-qd64.txt"),
            ["2026-11-30T00:39:26Z"]
        );
        // fio 2.0.13 text, one time per group's job line
        assert_eq!(
            started("fio/fio2-0-13-two-groups.txt"),
            ["2013-06-11T10:20:31Z", "2013-06-11T10:25:50Z"]
        );
        // yabs v2020-02-04's header, `date` in the C locale: `Tue Feb  4 19:04:24 UTC 2020`
        assert_eq!(
            started("yabs/v2020-02-04-readme.txt"),
            ["2020-02-04T19:04:24Z"; 4]
        );
        // yabs v2023-04-23 text: `Sun 23 Apr 2023 01:41:14 PM EDT` (UTC-4)
        assert_eq!(
            started("fio/yabs-v2023-04-23-readme.txt"),
            ["2023-04-23T17:41:14Z"; 4]
        );
        // its JSON alone: `"time": "20230423-134114"`, the same local time
        // without its zone, read as UTC (four hours off, as documented)
        assert_eq!(
            started("fio/yabs-v2023-04-23-example.json"),
            ["2023-04-23T13:41:14Z"; 4]
        );
        assert_eq!(
            started("yabs/v2022-08-17-example.json"),
            ["2022-08-17T03:50:33Z"; 4]
        );
        // v2022-08-15's JSON has no `time`: no date, none invented
        assert_eq!(started("yabs/v2022-08-15-example.json"), ["-"; 4]);
        // three yabs runs of one README, each its own header: German
        // (`Sa 3. Jul 23:56:12 CEST 2021`), en_US 12-hour (`Sun 04 Jul 2021
        // 12:04:27 AM CEST`) and C (`Sat Jul  3 23:55:17 CEST 2021`)
        let three = started("yabs/three-runs-v2021-06-05-readme.md");
        assert_eq!(three.len(), 12);
        assert_eq!(three[0], "2021-07-03T21:56:12Z");
        assert_eq!(three[4], "2021-07-03T22:04:27Z");
        assert_eq!(three[8], "2021-07-03T21:55:17Z");
        // a yabs table cut below its header has no date
        assert_eq!(started("yabs/headless-v2021-06-05.txt"), ["-"; 4]);
        // yabs's dd tests, en_US: `Wed 08 Jan 2020 07:33:21 PM UTC`
        assert_eq!(
            started("benchsh/yabs-v2020-01-08-dd.txt"),
            ["2020-01-08T19:33:21Z"; 6]
        );
        // nench: ` benchmark timestamp:    2021-06-15 15:25:52 UTC`
        assert_eq!(
            started("benchsh/nench-hetzner-2021.txt"),
            ["2021-06-15T15:25:52Z"; 3]
        );
        assert_eq!(
            started("benchsh/nench-hostvds-2020.txt"),
            ["2020-09-13T03:01:43Z"; 3]
        );
        // output that prints no date: terse fio, dd, ioping, bonnie++, bench.sh
        for f in [
            "fio/terse-v3.txt",
            "dd/gnu91-write-8k-dsync.txt",
            "ioping/ioping13-RLC.txt",
            "bonnie/2.00a-quiet.csv",
            "benchsh/teddysun-2021-rpi.txt",
        ] {
            assert!(started(f).iter().all(|t| t == "-"), "{f}");
        }
    }

    #[test]
    fn a_yabs_run_without_its_date_is_not_given_the_run_above() {
        let text = include_str!("../tests/fixtures/yabs/three-runs-v2021-06-05-readme.md");
        let text = text.replace("Sun 04 Jul 2021 12:04:27 AM CEST\n", "");
        let dates: Vec<String> = dates_of("r.md", &text).into_iter().map(|d| d.0).collect();
        assert_eq!(dates[0], "2021-07-03T21:56:12Z");
        assert_eq!(dates[4..8], ["-", "-", "-", "-"]);
        assert_eq!(dates[8], "2021-07-03T21:55:17Z");
    }

    #[test]
    fn date_lines_around_a_paste_date_the_run_below_them_or_the_one_above() {
        // `date; dd ...` twice, as GNU `date` prints in the C locale
        let dd = include_str!("../tests/fixtures/dd/gnu91-write-8k-dsync.txt");
        let paste = format!("Wed Mar  1 12:00:00 UTC 2023\n{dd}Wed Mar  1 12:05:00 UTC 2023\n{dd}");
        let dates = dates_of("p.txt", &paste);
        assert_eq!(dates[0].0, "2023-03-01T12:00:00Z");
        assert_eq!(dates[1].0, "2023-03-01T12:05:00Z");
        // `fio --minimal ...; date -Iseconds`: the date after the output
        let terse = include_str!("../tests/fixtures/fio/terse-v3.txt");
        let after = format!("{terse}2023-03-01T13:00:00+01:00\n");
        assert_eq!(dates_of("t.txt", &after)[0].0, "2023-03-01T12:00:00Z");
        // a date that cannot be placed is said, and none is invented
        let cst = format!("Wed Mar  1 12:00:00 CST 2023\n{dd}");
        let (at, warnings) = &dates_of("c.txt", &cst)[0];
        assert_eq!(at, "-");
        assert_eq!(
            warnings,
            &[format!(
                "{DATE_NOT_READ}: it names the time zone `CST`, which diskdash does not place \
                 (it knows UTC, numeric offsets and abbreviations of one offset such as CEST or EDT); \
                 give it with --started-at"
            )]
        );
        // fio's own date wins over a `date` line above it
        let json = include_str!("../tests/fixtures/fio/randread-4k-qd64.json");
        let above = format!("Wed Mar  1 12:00:00 UTC 2023\n{json}");
        assert_eq!(dates_of("j.json", &above)[0].0, "2026-11-30T00:39:23Z");
        // a fio JSON with only its `time` (the machine's local time) reads it as UTC
        let time_only: String = json
            .lines()
            .filter(|l| !l.contains("\"timestamp"))
            .flat_map(|l| [l, "\n"])
            .collect();
        assert_eq!(dates_of("t.json", &time_only)[0].0, "2026-11-30T00:39:23Z");
    }

    #[test]
    fn started_at_dates_records_without_a_date_and_never_overrides_the_outputs() {
        let flag = |v: &str| {
            let (at, plain_date) = tools::date::flag(v).unwrap();
            StartedAt { at, plain_date }
        };
        let json = include_str!("../tests/fixtures/fio/randread-4k-qd64.json");
        let terse = include_str!("../tests/fixtures/fio/terse-v3.txt");
        let recs = |t: &str| {
            records_from_output("f", t.as_bytes(), None, &Subject::default(), None).unwrap()
        };
        let mut undated = recs(terse);
        apply_started_at(&mut undated, &flag("2023-03-01"));
        assert_eq!(
            undated[0].started_at.as_deref(),
            Some("2023-03-01T00:00:00Z")
        );
        assert!(undated[0].warnings.is_empty());
        // the output's own date stays; a flag that differs is named
        let mut dated = recs(json);
        apply_started_at(&mut dated, &flag("2023-03-01T12:00:00+01:00"));
        assert_eq!(dated[0].started_at.as_deref(), Some("2026-11-30T00:39:23Z"));
        assert_eq!(
            dated[0].warnings,
            ["the output dates it 2026-11-30T00:39:23Z: --started-at 2023-03-01T11:00:00Z is for output without a date, not used"]
        );
        // a flag that agrees (the same UTC day, or within 24 hours) is quiet
        for agrees in ["2026-11-30", "2026-11-29T12:00:00Z"] {
            let mut dated = recs(json);
            apply_started_at(&mut dated, &flag(agrees));
            assert!(dated[0].warnings.is_empty(), "{agrees}");
        }
        let mut dated = recs(json);
        apply_started_at(&mut dated, &flag("2026-11-29"));
        assert_eq!(dated[0].warnings.len(), 1);
        // a date the output prints but that cannot be placed: the flag dates it, and the warning says so
        let dd = include_str!("../tests/fixtures/dd/gnu91-write-8k-dsync.txt");
        let mut cst = recs(&format!("Wed Mar  1 12:00:00 CST 2023\n{dd}"));
        apply_started_at(&mut cst, &flag("2023-03-01T18:00:00Z"));
        assert_eq!(cst[0].started_at.as_deref(), Some("2023-03-01T18:00:00Z"));
        let w: Vec<&String> = cst[0]
            .warnings
            .iter()
            .filter(|w| w.starts_with(DATE_NOT_READ))
            .collect();
        assert_eq!(w.len(), 1);
        assert!(
            w[0].ends_with("such as CEST or EDT); dated 2023-03-01T18:00:00Z by --started-at"),
            "{}",
            w[0]
        );
    }

    #[test]
    fn a_file_giving_fewer_records_than_it_shows_runs_says_so() {
        // three yabs runs in one README give 12 block sizes
        let yabs = include_str!("../tests/fixtures/fio/yabs-v2023-04-23-readme.txt");
        let three = yabs.repeat(3);
        assert_eq!(visible_runs(Tool::Fio, &three).map(|(n, _)| n), Some(12));
        let w = shortfall(Tool::Fio, &three, 4).unwrap();
        assert!(w.contains("12") && w.contains("gave 4 records"), "{w}");
        assert_eq!(shortfall(Tool::Fio, &three, 12), None);
        let dd = include_str!("../tests/fixtures/dd/gnu91-loop-x3.txt");
        assert!(shortfall(Tool::Dd, dd, 2)
            .unwrap()
            .contains("gave 2 records"));
    }

    #[test]
    fn no_real_fixture_gives_fewer_records_than_it_shows_runs() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut checked = 0;
        for tool in ["fio", "dd", "ioping", "bonnie"] {
            for e in std::fs::read_dir(root.join(tool)).unwrap() {
                let path = e.unwrap().path();
                if !path.is_file() || path.extension().is_some_and(|x| x == "md") {
                    continue;
                }
                let bytes = std::fs::read(&path).unwrap();
                let file = path.display().to_string();
                let Ok(records) =
                    records_from_output(&file, &bytes, None, &Subject::default(), None)
                else {
                    continue;
                };
                checked += 1;
                for r in &records {
                    // the caveat of a dd write from /dev/zero is no shortfall
                    let shortfalls: Vec<&String> = r
                        .warnings
                        .iter()
                        .filter(|w| w.as_str() != crate::tools::dd::ZEROS_CAVEAT)
                        .collect();
                    assert_eq!(shortfalls, Vec::<&String>::new(), "{file}");
                }
            }
        }
        assert!(checked > 60, "{checked}");
    }

    #[test]
    fn an_old_bonnie_paste_cut_before_its_csv_line_is_told_where_the_line_is() {
        // bonnie++ 1.03's progress lines, the table's headers cut off
        let text = include_str!("../tests/fixtures/bonnie/1.03-ec2-m1small.txt");
        let cut: String = text.lines().take(16).flat_map(|l| [l, "\n"]).collect();
        let e = records_from_output("b.txt", cut.as_bytes(), None, &Subject::default(), None)
            .unwrap_err();
        let e = format!("{e:#}");
        assert!(e.contains("recognised as bonnie++ output"), "{e}");
        assert!(
            e.contains("bonnie++ prints its CSV line itself as the last line of its output"),
            "{e}"
        );
        assert!(e.contains("bon_csv2txt") && !e.contains("-q"), "{e}");
    }

    #[test]
    fn the_last_line_counts_files_and_says_nothing_after_a_refusal_alone() {
        let out = Path::new("out");
        let tally = |written: usize, files: usize, failed: usize, skipped: usize| Tally {
            written: vec![PathBuf::new(); written],
            files,
            failed,
            skipped: vec![(PathBuf::new(), String::new()); skipped],
            ..Tally::default()
        };
        assert_eq!(summary_line(&tally(0, 0, 1, 0), out), None);
        assert_eq!(summary_line(&tally(0, 0, 0, 2), out), None);
        assert_eq!(
            summary_line(&tally(1, 1, 0, 0), out).unwrap(),
            "imported 1 record into `out`"
        );
        assert_eq!(
            summary_line(&tally(3, 2, 1, 0), out).unwrap(),
            "imported 3 records from 2 files into `out`; 1 file refused"
        );
        assert_eq!(
            summary_line(&tally(3, 3, 0, 2), out).unwrap(),
            "imported 3 records into `out`; 2 files skipped"
        );
    }

    #[test]
    fn record_paths_group_by_study_and_offering() {
        let mut r: Record = serde_json::from_value(serde_json::json!({
            "schema": crate::record::SCHEMA, "id": "x.dd.abc", "source": {"kind": "run", "diskdash_version": "0"},
            "subject": {"study": "My Study", "offering": null}, "host": {}, "target": {},
            "test": {"id": "dd", "tool": "dd"}, "repetition": 1, "status": "ok"
        }))
        .unwrap();
        assert_eq!(
            record_path(Path::new("out"), &r),
            Path::new("out/my-study/unknown/x.dd.abc.json")
        );
        r.subject.offering = Some("../../etc".into());
        assert_eq!(
            record_path(Path::new("out"), &r),
            Path::new("out/my-study/etc/x.dd.abc.json")
        );
    }
}
