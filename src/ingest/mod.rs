//! Finding and reading records: walk directories for `*.json` and `*.jsonl`,
//! validate each record, collect problems per file.

use std::path::PathBuf;

use anyhow::Result;

use crate::record::{Record, Summary, Timeline};

mod command;
mod find;
mod pool;
mod read;
mod reread;
mod scan;

pub use command::HeldCommand;
pub use find::is_record_file;
pub use read::MAX_RECORD_BYTES;
pub use reread::{reread, LeftOut};
pub use scan::{check, Checked};

use command::Pieces;
use find::{gather, Gathered};
use pool::Pool;
use read::read_file;

/// Files parsed in parallel before their records' shared parts are held
/// once on one thread.
const CHUNK_FILES: usize = 512;

/// A record, as its summary, and where it was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The file it came from.
    pub path: PathBuf,
    /// 1-based line number within a `*.jsonl` file; `None` for `*.json`.
    pub line: Option<usize>,
    /// The record, validated, as the analysis and the pages hold it.
    pub summary: Summary,
    /// The test's command line, held apart from the summary's test (as
    /// pieces of a table of the build, see [`load_with`]).
    pub command: Option<HeldCommand>,
    /// The tool output and the timeline with its series, when held in
    /// memory ([`Found::new`], [`load`]); `None` when left out
    /// ([`load_with`] without `keep_raw`): [`reread`] then reads them
    /// again from the file.
    pub kept: Option<Box<LeftOut>>,
    /// SHA-256 of the bytes the record was read from (the file, or its
    /// line of a `*.jsonl` file): [`reread`] trusts a second read only
    /// when its bytes are the same, as `check`'s rules were applied to
    /// those. `None` for a record not read from a file.
    pub sha256: Option<[u8; 32]>,
}

impl Found {
    /// A record read from `path` (at `line` of a `*.jsonl` file), held
    /// whole: its summary, its command, and its tool output and timeline
    /// kept beside them.
    pub fn new(path: PathBuf, line: Option<usize>, mut record: Record) -> Found {
        let raw = record.raw.take().map(|raw| *raw);
        // the kept parts hold the timeline whole, the summary its header
        let timeline = record.timeline.take().map(|tl| *tl);
        record.timeline = timeline.as_ref().map(|tl| {
            Box::new(Timeline {
                interval_s: tl.interval_s,
                read: None,
                write: None,
                trim: None,
                logs: tl.logs.clone(),
                pattern: tl.pattern,
                burst_on_s: tl.burst_on_s,
                burst_off_s: tl.burst_off_s,
            })
        });
        let command = match record.test.command {
            Some(_) => record.test.command.take().map(HeldCommand::whole),
            None => None,
        };
        Found {
            path,
            line,
            summary: Summary::from(record),
            command,
            kept: Some(Box::new(LeftOut { raw, timeline })),
            sha256: None,
        }
    }
}

/// One problem with one file (or one line of a `*.jsonl` file).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Problem {
    pub path: PathBuf,
    pub line: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}: {}", self.path.display(), l, self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

/// Everything found under the paths: valid records sorted by id, and every
/// problem sorted by file.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    pub records: Vec<Found>,
    pub problems: Vec<Problem>,
    /// Paths that could not be read or walked (missing, unreadable), each
    /// with the error; the other paths were read all the same.
    pub unreadable: Vec<Problem>,
    /// Number of record files read.
    pub files: usize,
}

/// Two record ids in the order duplicates are found by: ASCII case
/// folded, since ids that differ only in case name one page on a
/// case-insensitive file system (macOS, Windows).
pub(crate) fn folded_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    a.bytes()
        .map(|c| c.to_ascii_lowercase())
        .cmp(b.bytes().map(|c| c.to_ascii_lowercase()))
}

/// Why record `id` is left out beside the record `kept` (at `at`) whose id
/// is the same, or the same but for case.
pub(crate) fn duplicate_message(id: &str, kept: &str, at: &str) -> String {
    if id == kept {
        format!("duplicate record id `{id}` (first seen in `{at}`); left out")
    } else {
        format!(
            "record id `{id}` differs only in case from `{kept}` (first seen in `{at}`): their \
             pages would be one file on a case-insensitive file system; left out"
        )
    }
}

/// A file that marks a directory as a diskdash site; record walks skip such
/// directories so that a site's own `data/*.json` is never read as records.
/// NOTE: `report::site` writes this marker.
pub const SITE_MARKER: &str = ".diskdash-site";

/// Reads every record under `paths` (directories walked, files read as
/// given). Invalid records, duplicate ids and symlinked records become
/// problems; a path that is missing or cannot be listed goes to
/// `unreadable` and the rest are read all the same. Files are read and
/// parsed in parallel; the result does not depend on the number of threads.
/// Never fails today; the `Result` leaves room for errors that must stop a
/// command.
pub fn load(paths: &[PathBuf]) -> Result<Loaded> {
    load_with(paths, true)
}

/// Like [`load`]; without `keep_raw`, records are held as summaries of
/// themselves (what they measured, where and how): without their `raw`
/// tool output, their timeline's series and log digests, and with their
/// test's command line held apart as pieces (`Found::command`), so that a
/// test is held once for all its runs. [`reread`] gives the output and
/// series back to the pages that show them, so that memory does not grow
/// with them.
pub fn load_with(paths: &[PathBuf], keep_raw: bool) -> Result<Loaded> {
    use rayon::prelude::*;
    let Gathered {
        files,
        problems,
        unreadable,
    } = gather(paths);
    let mut loaded = Loaded {
        files: files.len(),
        problems,
        unreadable,
        ..Loaded::default()
    };
    let mut pool = Pool::default();
    let mut pieces = Pieces::default();
    // on one thread, in file order: the command held as pieces, the
    // shared parts held once
    let mut keep = |item: &mut std::result::Result<Found, Problem>| {
        let Ok(found) = item else { return };
        if !keep_raw {
            // as pieces of the build's table
            found.command = found.command.take().map(|line| pieces.hold(&line.text()));
        }
        pool.share(&mut found.summary);
    };
    // parsed in parallel a chunk at a time; each chunk's parts are shared
    // on one thread while the next chunk is parsed; gathered in file
    // order, one slot per file
    let parse = |chunk: &[PathBuf]| -> Vec<FileRead> {
        chunk
            .par_iter()
            .map(|file| {
                let mut items = read_file(file);
                // dropped as soon as parsed
                if !keep_raw {
                    items.iter_mut().flatten().for_each(summarise);
                }
                if items.len() == 1 {
                    FileRead::One(items.remove(0))
                } else {
                    FileRead::Many(items)
                }
            })
            .collect()
    };
    let mut share = |chunk: &mut Vec<FileRead>| {
        for slot in chunk {
            match slot {
                FileRead::One(item) => keep(item),
                FileRead::Many(items) => items.iter_mut().for_each(&mut keep),
            }
        }
    };
    let mut read: Vec<FileRead> = Vec::with_capacity(files.len());
    let mut shared_last: Vec<FileRead> = Vec::new();
    for chunk in files.chunks(CHUNK_FILES) {
        let (mut parsed, ()) = rayon::join(|| parse(chunk), || share(&mut shared_last));
        read.append(&mut shared_last);
        std::mem::swap(&mut parsed, &mut shared_last);
    }
    share(&mut shared_last);
    read.append(&mut shared_last);
    drop(pool);
    // the records of `*.json` files stay where they were parsed (the
    // collect reuses the buffer): a second copy of every record would
    // double the peak memory of a large build
    let mut more = Vec::new();
    let mut problems = std::mem::take(&mut loaded.problems);
    // each record's place in file order (a `*.jsonl` file's lines in its
    // place): of records sharing an id, the first in that order is kept
    let mut seq: Vec<u32> = Vec::new();
    let mut more_seq: Vec<u32> = Vec::new();
    let mut next = 0u32;
    let mut keep = |item: std::result::Result<Found, Problem>, seq: &mut Vec<u32>| match item {
        Ok(found) => {
            seq.push(next);
            next += 1;
            Some(found)
        }
        Err(problem) => {
            problems.push(problem);
            None
        }
    };
    let mut records: Vec<Found> = read
        .into_iter()
        .filter_map(|r| match r {
            FileRead::One(item) => keep(item, &mut seq),
            FileRead::Many(items) => {
                more.extend(items.into_iter().filter_map(|i| keep(i, &mut more_seq)));
                None
            }
        })
        .collect();
    records.append(&mut more);
    seq.append(&mut more_seq);
    // duplicates found through a sorted list of positions, so that no id
    // or path is copied
    let mut by_id: Vec<u32> = (0..records.len() as u32).collect();
    by_id.sort_unstable_by(|&a, &b| {
        let (a, b) = (a as usize, b as usize);
        folded_cmp(&records[a].summary.id, &records[b].summary.id).then(seq[a].cmp(&seq[b]))
    });
    let mut dropped = vec![false; records.len()];
    let mut first = 0usize;
    for (k, &i) in by_id.iter().enumerate() {
        let i = i as usize;
        if k == 0
            || !records[first]
                .summary
                .id
                .eq_ignore_ascii_case(&records[i].summary.id)
        {
            first = i;
            continue;
        }
        dropped[i] = true;
        let kept = &records[first];
        let at = match kept.line {
            Some(l) => format!("{}:{l}", kept.path.display()),
            None => kept.path.display().to_string(),
        };
        problems.push(Problem {
            message: duplicate_message(&records[i].summary.id, &kept.summary.id, &at),
            path: records[i].path.clone(),
            line: records[i].line,
        });
    }
    drop((by_id, seq));
    let mut dropped = dropped.into_iter();
    records.retain(|_| !dropped.next().unwrap_or(false));
    if !keep_raw {
        pieces.give(records.iter_mut().filter_map(|f| f.command.as_mut()));
    }
    loaded.records = records;
    loaded.problems = problems;
    // ids are unique by now: an unstable sort needs no buffer of half the records
    loaded
        .records
        .sort_unstable_by(|a, b| a.summary.id.cmp(&b.summary.id));
    loaded.problems.sort();
    loaded.unreadable.sort();
    Ok(loaded)
}

/// Leaves the tool output, the timeline's series and the logs' digests
/// (validated, and no page shows them) out of a record held as its summary.
fn summarise(found: &mut Found) {
    found.kept = None;
    if let Some(tl) = found.summary.timeline.as_deref_mut() {
        tl.logs = Default::default();
    }
}

/// What reading one file gave: one record (or problem), or the lines of a
/// `*.jsonl` file.
// not boxed: the records of `*.json` files are kept in this very buffer
#[allow(clippy::large_enum_variant)]
enum FileRead {
    One(std::result::Result<Found, Problem>),
    Many(Vec<std::result::Result<Found, Problem>>),
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    use crate::record::example_json as good;

    #[test]
    fn load_reports_duplicates_and_reads_jsonl() {
        let dir = tempfile::tempdir().unwrap();
        let a = good();
        let mut b = good();
        b["id"] = "other".into();
        std::fs::write(dir.path().join("a.json"), a.to_string()).unwrap();
        std::fs::write(dir.path().join("b.jsonl"), format!("{b}\n\n{a}\n")).unwrap();
        std::fs::write(dir.path().join("notes.txt"), "ignored").unwrap();
        std::fs::create_dir(dir.path().join("site")).unwrap();
        std::fs::write(dir.path().join("site").join(SITE_MARKER), "").unwrap();
        std::fs::write(dir.path().join("site/summary.json"), "{}").unwrap();
        let loaded = load(&[dir.path().to_path_buf()]).unwrap();
        assert_eq!(loaded.files, 2);
        let ids: Vec<_> = loaded
            .records
            .iter()
            .map(|f| f.summary.id.as_str())
            .collect();
        assert_eq!(ids, ["demo.disk.dd-write-8k-dsync.r1", "other"]);
        assert_eq!(loaded.problems.len(), 1);
        assert_eq!(loaded.problems[0].line, Some(3));
        assert!(loaded.problems[0].message.contains("duplicate record id"));
        assert!(loaded.problems[0].to_string().contains("b.jsonl:3: "));
    }

    #[test]
    fn ids_that_differ_only_in_case_are_one_page_and_the_second_is_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let mut upper = good();
        upper["id"] = "case.A".into();
        let mut lower = good();
        lower["id"] = "case.a".into();
        std::fs::write(dir.path().join("a.json"), upper.to_string()).unwrap();
        std::fs::write(dir.path().join("b.json"), lower.to_string()).unwrap();
        let loaded = load(&[dir.path().to_path_buf()]).unwrap();
        let ids: Vec<_> = loaded
            .records
            .iter()
            .map(|f| f.summary.id.as_str())
            .collect();
        assert_eq!(ids, ["case.A"]);
        let why = "record id `case.a` differs only in case from `case.A` (first seen in `";
        assert!(
            loaded.problems[0].message.starts_with(why),
            "{}",
            loaded.problems[0]
        );
        // `check` says the same
        let checked = scan::check(&[dir.path().to_path_buf()]).unwrap();
        assert_eq!(checked.problems.len(), 1);
        assert!(
            checked.problems[0].message.starts_with(why),
            "{}",
            checked.problems[0]
        );
    }

    #[test]
    fn of_equal_ids_the_first_in_file_order_is_kept_whatever_the_file_kind() {
        // `a.jsonl` sorts before `b.json`: its line is first, and a third
        // copy in `c.json` names that line too
        let dir = tempfile::tempdir().unwrap();
        let a = good();
        let mut other = good();
        other["id"] = "other".into();
        let mut third = good();
        third["repetition"] = 3.into();
        std::fs::write(dir.path().join("a.jsonl"), format!("{other}\n{a}\n")).unwrap();
        std::fs::write(dir.path().join("b.json"), a.to_string()).unwrap();
        std::fs::write(dir.path().join("c.json"), third.to_string()).unwrap();
        let loaded = load(&[dir.path().to_path_buf()]).unwrap();
        let kept: Vec<_> = loaded
            .records
            .iter()
            .map(|f| (f.summary.id.as_str(), f.line))
            .collect();
        assert_eq!(
            kept,
            [
                ("demo.disk.dd-write-8k-dsync.r1", Some(2)),
                ("other", Some(1))
            ]
        );
        let named: Vec<String> = loaded.problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(named.len(), 2);
        for (problem, file) in named.iter().zip(["b.json", "c.json"]) {
            let first = format!("first seen in `{}:2`", dir.path().join("a.jsonl").display());
            assert!(problem.contains(file), "{problem}");
            assert!(problem.contains(&first), "{problem}");
        }
    }

    #[test]
    fn a_summary_build_reads_the_tool_output_again() {
        let dir = tempfile::tempdir().unwrap();
        let mut v = good();
        v["raw"] = serde_json::json!({"stdout": "12 MB/s\n", "stderr": "", "exit_code": 0});
        std::fs::write(dir.path().join("a.json"), v.to_string()).unwrap();
        let mut w = v.clone();
        w["id"] = "b".into();
        w["raw"]["stdout"] = "34 MB/s\n".into();
        let mut x = v.clone();
        x["id"] = "c".into();
        x["raw"]["stdout"] = "56 MB/s\n".into();
        std::fs::write(dir.path().join("b.jsonl"), format!("{w}\r\n\n{x}\n")).unwrap();
        let paths = [dir.path().to_path_buf()];
        let out = |f: &Found| f.kept.as_ref()?.raw.as_ref()?.stdout.clone();
        // held whole: nothing to read again
        let whole = load(&paths).unwrap();
        assert!(whole.records.iter().all(|f| out(f).is_some()));
        assert_eq!(reread(&whole.records[0]).unwrap(), None);
        // held as summaries: left out, and read again when asked for, of
        // a `*.jsonl` file's line too (in id order: `b`, `c`, then the first)
        let summaries = load_with(&paths, false).unwrap();
        assert!(summaries.records.iter().all(|f| out(f).is_none()));
        let again: Vec<_> = summaries
            .records
            .iter()
            .map(|f| reread(f).unwrap().and_then(|l| l.raw?.stdout))
            .collect();
        assert_eq!(
            again,
            ["34 MB/s\n", "56 MB/s\n", "12 MB/s\n"].map(|s| Some(s.to_string()))
        );
        // a file that changed since is named
        std::fs::write(dir.path().join("a.json"), w.to_string()).unwrap();
        let e = reread(&summaries.records[2]).unwrap_err().to_string();
        assert!(
            e.contains("a.json") && e.contains("no longer holds record `demo"),
            "{e}"
        );
    }

    #[test]
    fn a_record_changed_or_grown_between_reads_is_named_not_trusted() {
        let dir = tempfile::tempdir().unwrap();
        let mut v = good();
        v["raw"] = serde_json::json!({"stdout": "12 MB/s\n"});
        std::fs::write(dir.path().join("a.json"), v.to_string()).unwrap();
        let mut w = v.clone();
        w["id"] = "b".into();
        std::fs::write(dir.path().join("b.jsonl"), format!("{w}\n")).unwrap();
        let paths = [dir.path().to_path_buf()];
        let loaded = load_with(&paths, false).unwrap();
        let (b, a) = (&loaded.records[0], &loaded.records[1]);
        assert_eq!((b.summary.id.as_str(), a.line), ("b", None));
        // the same id, other tool output (and a timeline `check` never saw)
        let mut changed = v.clone();
        changed["raw"]["stdout"] = "999 MB/s\n".into();
        changed["timeline"] =
            serde_json::json!({"interval_s": 1.0, "read": {"iops": [-1.0], "bw": [-1.0]}});
        std::fs::write(dir.path().join("a.json"), changed.to_string()).unwrap();
        let e = reread(a).unwrap_err().to_string();
        assert!(
            e.contains("a.json") && e.contains("its bytes differ from the first read"),
            "{e}"
        );
        w["raw"]["stdout"] = "999 MB/s\n".into();
        std::fs::write(dir.path().join("b.jsonl"), format!("{w}\n")).unwrap();
        let e = reread(b).unwrap_err().to_string();
        assert!(
            e.contains("b.jsonl") && e.contains("its bytes differ"),
            "{e}"
        );
        // grown past any record: refused after reading the bound, not whole
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(dir.path().join("a.json"))
            .unwrap();
        f.set_len(read::MAX_RECORD_BYTES + 4096).unwrap();
        let e = reread(a).unwrap_err().to_string();
        assert!(
            e.contains("now larger than any record (67108864 bytes)"),
            "{e}"
        );
    }

    #[test]
    fn equal_tests_and_subjects_are_held_once_and_different_ones_apart() {
        let dir = tempfile::tempdir().unwrap();
        let mut v = good();
        v["test"]["command"] = "dd of=/mnt/a/r1".into();
        std::fs::write(dir.path().join("a.json"), v.to_string()).unwrap();
        v["id"] = "b".into();
        std::fs::write(dir.path().join("b.json"), v.to_string()).unwrap();
        v["id"] = "c".into();
        v["test"]["command"] = "dd of=/mnt/a/r2".into();
        std::fs::write(dir.path().join("c.json"), v.to_string()).unwrap();
        let loaded = load(&[dir.path().to_path_buf()]).unwrap();
        // in id order: `b`, `c`, then the first
        let [b, c, a] = [0, 1, 2].map(|i| &loaded.records[i].summary);
        // the commands are held apart: the test is one for all three
        assert!(std::sync::Arc::ptr_eq(&a.test, &b.test));
        assert!(std::sync::Arc::ptr_eq(&a.test, &c.test));
        assert_eq!(c.test.command, None);
        let command = |i: usize| loaded.records[i].command.as_ref().map(HeldCommand::text);
        assert_eq!(command(1).as_deref(), Some("dd of=/mnt/a/r2"));
        assert_eq!(command(2).as_deref(), Some("dd of=/mnt/a/r1"));
        assert!(std::sync::Arc::ptr_eq(&a.subject, &c.subject));
        // and one list of metric names for all three
        let names = |r: &Summary| std::sync::Arc::as_ptr(r.metrics.clone().names_mut());
        assert_eq!((names(a), names(b)), (names(c), names(c)));
        assert_eq!(a.metrics.keys().collect::<Vec<_>>(), ["write_bw"]);
    }

    #[test]
    fn a_site_is_the_same_whether_tool_output_is_held_or_read_again() {
        // real `run` records, with their tool output and timelines
        let paths = [PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/emulated")];
        let opts = crate::report::Options::default();
        let build = |l: &Loaded| crate::report::build_site(&l.records, &l.problems, &opts).unwrap();
        let held = load(&paths).unwrap();
        let again = load_with(&paths, false).unwrap();
        let series = |f: &Found| {
            f.kept
                .as_ref()?
                .timeline
                .as_ref()
                .and_then(|t| t.read.as_ref())
                .map(|s| s.iops.len())
        };
        assert!(held
            .records
            .iter()
            .any(|f| f.kept.as_ref().is_some_and(|k| k.raw.is_some())));
        assert!(held.records.iter().all(|f| series(f) == Some(90)));
        // held as a summary: no output, no series or log digests, the
        // timeline's pattern kept
        assert!(again.records.iter().all(|f| f.kept.is_none()));
        assert!(again.records.iter().all(|f| series(f).is_none()));
        let digests = |f: &Found| f.summary.timeline.as_ref().map(|t| t.logs.len());
        assert!(held.records.iter().all(|f| digests(f) == Some(4)));
        assert!(again.records.iter().all(|f| digests(f) == Some(0)));
        assert!(again.records.iter().all(|f| f
            .summary
            .timeline
            .as_ref()
            .is_some_and(|t| t.pattern.is_some() && t.read.is_none())));
        // the commands held apart, as pieces, and each test held once
        assert!(again
            .records
            .iter()
            .all(|f| f.summary.test.command.is_none()));
        for (h, a) in held.records.iter().zip(&again.records) {
            let text = |f: &Found| f.command.as_ref().map(HeldCommand::text);
            assert!(text(a).is_some_and(|t| t.starts_with("fio ")));
            assert_eq!(text(a), text(h));
        }
        let tests = |l: &Loaded| {
            let mut t: Vec<usize> = l
                .records
                .iter()
                .map(|f| std::sync::Arc::as_ptr(&f.summary.test) as usize)
                .collect();
            t.sort_unstable();
            t.dedup();
            t.len()
        };
        // one test on two volumes, each run's command its own, held apart
        assert_eq!((held.records.len(), tests(&held)), (2, 1));
        assert_eq!(tests(&again), 1);
        let left = reread(&again.records[0]).unwrap().unwrap();
        assert_eq!(
            left.timeline.as_ref(),
            held.records[0].kept.as_ref().unwrap().timeline.as_ref()
        );
        assert_eq!(left.raw, held.records[0].kept.as_ref().unwrap().raw);
        let (a, b) = (build(&held), build(&again));
        assert_eq!(a.files.len(), b.files.len());
        for (path, bytes) in &a.files {
            assert!(b.files.get(path) == Some(bytes), "{path} differs");
        }
    }

    #[test]
    fn one_file_reached_by_two_spellings_is_read_once() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("r")).unwrap();
        std::fs::write(dir.path().join("r/a.json"), good().to_string()).unwrap();
        let loaded = load(&[dir.path().join("r"), dir.path().join("r/../r/.")]).unwrap();
        assert_eq!(loaded.files, 1);
        assert_eq!(loaded.records.len(), 1);
        assert_eq!(loaded.problems, []);
        // a real copy is still a duplicate
        std::fs::write(dir.path().join("r/b.json"), good().to_string()).unwrap();
        let loaded = load(&[dir.path().join("r")]).unwrap();
        assert_eq!(loaded.problems.len(), 1);
    }

    #[test]
    fn a_missing_path_is_named_and_the_others_are_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.json"), good().to_string()).unwrap();
        let loaded = load(&[
            PathBuf::from("/nonexistent/diskdash"),
            dir.path().join("a.json"),
        ])
        .unwrap();
        assert_eq!(loaded.records.len(), 1);
        assert_eq!(loaded.unreadable.len(), 1);
        assert_eq!(
            loaded.unreadable[0].path,
            Path::new("/nonexistent/diskdash")
        );
    }
}
