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
    failed: usize,
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
    /// Where the records go.
    pub out: PathBuf,
}

/// Runs the command; returns 0 when every named file was imported, 1 when a
/// file named on the command line could not be read or recognised.
pub fn command(o: &ImportOptions) -> Result<u8> {
    let opts = Options {
        tool: o.tool,
        subject: &o.subject,
        test_id: o.test_id.as_deref(),
    };
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
                Ok((records, _)) => write_records(&records, &o.out, &mut tally)?,
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
    crate::say!(
        "imported {} into `{}`",
        shown(crate::format::count_of(
            tally.written.len(),
            "record",
            "records"
        )),
        shown(&o.out)
    );
    Ok(if tally.failed > 0 { 1 } else { 0 })
}

/// Settings shared by every file of one import.
struct Options<'a> {
    tool: Option<Tool>,
    subject: &'a Subject,
    test_id: Option<&'a str>,
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
                write_records(&records, out, tally)?
            }
            Err(e) => tally.skipped.push((path.to_path_buf(), format!("{e:#}"))),
        }
    }
    for log in logs.into_iter().filter(|l| !used.contains(l)) {
        tally.skipped.push((
            log,
            "a fio per-second log not read: no fio output of its prefix beside it, or no IOPS or bandwidth log with it".into(),
        ));
    }
    Ok(())
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
/// logs beside it that were read into their timeline.
fn import_file(path: &Path, opts: &Options) -> Result<(Vec<Record>, Vec<PathBuf>)> {
    let bytes = read_bounded(path).context("cannot read it")?;
    let mut records = records_from_output(
        &path.display().to_string(),
        &bytes,
        opts.tool,
        opts.subject,
        opts.test_id,
    )?;
    let used = attach_fio_logs(path, &bytes, &mut records)?;
    Ok((records, used))
}

/// Gives the one `ok` fio record made from `path` the timeline of the fio
/// per-second logs beside it: those whose prefix is the file's stem
/// (`t.json` → `t_iops.1.log`, bench-fio's layout) or the name a
/// `write_*_log` job option in the output gives. Returns the logs read.
/// Nothing happens when there are no such logs, no IOPS or bandwidth log
/// among them, or the file gave several records; fails when a log does
/// not parse, naming it.
fn attach_fio_logs(path: &Path, bytes: &[u8], records: &mut [Record]) -> Result<Vec<PathBuf>> {
    let none = Ok(Vec::new());
    let [record] = records else { return none };
    if record.test.tool != Tool::Fio || record.status != Status::Ok {
        return none;
    }
    let Some(dir) = path.parent() else {
        return none;
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
    prefixes.extend(log_options(&String::from_utf8_lossy(bytes)));
    let Ok(entries) = std::fs::read_dir(dir) else {
        return none;
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    // the order logs are read in must not depend on the directory's
    names.sort();
    use tools::fio::log::{log_name, LogKind};
    // a prefix with an IOPS or bandwidth log: latency alone is no timeline
    let Some(prefix) = prefixes.iter().find(|p| {
        names.iter().any(|n| {
            log_name(n).is_some_and(|(q, k, _)| {
                q == p.as_str() && matches!(k, LogKind::Iops | LogKind::Bw)
            })
        })
    }) else {
        return none;
    };
    let mut files = Vec::new();
    let mut read = Vec::new();
    for name in &names {
        if log_name(name).is_none_or(|(q, _, _)| q != prefix.as_str()) {
            continue;
        }
        let log_path = dir.join(name);
        let data = read_bounded(&log_path)
            .with_context(|| format!("cannot read fio log `{}`", log_path.display()))?;
        read.push(log_path);
        files.push((name.clone(), data));
    }
    crate::timeline::attach_logs(record, &files)?;
    if let Err(why) = crate::record::would_pass_check(record) {
        bail!("the record made from it and its fio logs would not pass `diskdash check`: {why}");
    }
    Ok(read)
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
    if bytes.contains(&0) {
        bail!("a binary file, not tool output");
    }
    let text = std::str::from_utf8(bytes).map_err(|_| anyhow!("not UTF-8 text"))?;
    let (tool, recognised) = match tool {
        Some(t) => (t, tools::spec(t).looks_like(text)),
        None => (
            tools::detect(text).ok_or_else(|| {
                anyhow!(
                    "not recognised as dd, fio, ioping or bonnie++ output (expected dd's \
                 `... bytes ... copied` line, fio JSON or text output, ioping's statistics, \
                 or bonnie++ CSV); name the tool with --tool if it is one of them"
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
    let sha = hex_sha256(bytes);
    let run_id = format!("import-{}", &sha[..12]);
    let many = results.len() > 1;
    let mut repetitions: BTreeMap<String, u32> = BTreeMap::new();
    let mut records = Vec::new();
    for (k, parsed) in results.into_iter().enumerate() {
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
            tool,
            tool_version: parsed.tool_version,
            parameters: parsed.parameters,
            command: parsed.command,
        };
        records.push(Record {
            run_id: Some(run_id.clone()),
            repetition: *repetition,
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
    for record in &records {
        if let Err(why) = crate::record::would_pass_check(record) {
            bail!("the record made from it would not pass `diskdash check`: {why}");
        }
    }
    Ok(records)
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
            let Source::Import { file, sha256, .. } = &*r.source else {
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

    #[test]
    fn a_fio_log_with_a_negative_value_or_a_row_past_a_week_is_refused_naming_it() {
        let tree = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fio/logs/tree");
        let dir = tempfile::tempdir().unwrap();
        for e in std::fs::read_dir(&tree).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), dir.path().join(e.file_name())).unwrap();
        }
        let opts = Options {
            tool: None,
            subject: &Subject::default(),
            test_id: None,
        };
        let json = dir.path().join("seqread.json");
        // as given, the logs make its timeline
        let (records, used) = import_file(&json, &opts).unwrap();
        assert!(records[0].timeline.is_some() && used.len() == 4);
        let iops = dir.path().join("seqread_iops.1.log");
        let good = std::fs::read_to_string(&iops).unwrap();
        std::fs::write(&iops, good.replacen("3000, 840,", "3000, -840,", 1)).unwrap();
        let e = format!("{:#}", import_file(&json, &opts).unwrap_err());
        assert!(
            e.contains("fio log `seqread_iops.1.log`: line 3: value -840 is negative"),
            "{e}"
        );
        std::fs::write(&iops, format!("{good}604800001, 1, 0, 0, 0\n")).unwrap();
        let e = format!("{:#}", import_file(&json, &opts).unwrap_err());
        assert!(e.contains("time 604800001 ms is past one week"), "{e}");
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
        std::sync::Arc::make_mut(&mut r.subject).offering = Some("../../etc".into());
        assert_eq!(
            record_path(Path::new("out"), &r),
            Path::new("out/my-study/etc/x.dd.abc.json")
        );
    }
}
