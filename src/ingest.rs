//! Finding and reading records: walk directories for `*.json` and `*.jsonl`,
//! validate each record, collect problems per file.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::record::{from_json, Record, Source};

/// A record and where it was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The file it came from.
    pub path: PathBuf,
    /// 1-based line number within a `*.jsonl` file; `None` for `*.json`.
    pub line: Option<usize>,
    /// The record, validated.
    pub record: Record,
    /// The test's command line, when the record is held without it (see
    /// [`load_with`]).
    pub command: Option<HeldCommand>,
}

impl Found {
    /// A record read from `path` (at `line` of a `*.jsonl` file), held whole.
    pub fn new(path: PathBuf, line: Option<usize>, record: Record) -> Found {
        Found {
            path,
            line,
            record,
            command: None,
        }
    }
}

/// A command line held as a list of pieces, each piece held once for the
/// whole build: a piece ends after a `/` or a space, so that the directory
/// of a run's scratch path, named four or five times in each of its
/// commands, and the options every repetition shares, are each held once.
/// Every run's command differs (it names the run's scratch directory), so
/// that held whole, the commands alone would take a build of 100,000 fio
/// records 80 MB.
#[derive(Clone, Debug)]
pub struct HeldCommand {
    pieces: std::sync::Arc<Pieces>,
    ids: Box<[u32]>,
}

impl HeldCommand {
    /// The command line, as written.
    pub fn text(&self) -> String {
        let held = self.pieces.lock();
        let mut out = String::new();
        for &id in &self.ids {
            out.push_str(&held.1[id as usize]);
        }
        out
    }
}

impl PartialEq for HeldCommand {
    fn eq(&self, other: &HeldCommand) -> bool {
        self.text() == other.text()
    }
}

/// The pieces of the commands held in one build, by number and by text.
#[derive(Debug, Default)]
struct Pieces(std::sync::Mutex<PieceTable>);

type PieceTable = (
    std::collections::HashMap<std::sync::Arc<str>, u32>,
    Vec<std::sync::Arc<str>>,
);

impl Pieces {
    fn lock(&self) -> std::sync::MutexGuard<'_, PieceTable> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `line` held as pieces of this table.
    fn hold(self: &std::sync::Arc<Self>, line: &str) -> HeldCommand {
        let mut held = self.lock();
        let (by_text, all) = &mut *held;
        let mut ids = Vec::new();
        let mut rest = line;
        while !rest.is_empty() {
            let end = rest.find(['/', ' ']).map_or(rest.len(), |i| i + 1);
            let (piece, after) = rest.split_at(end);
            rest = after;
            let id = match by_text.get(piece) {
                Some(&id) => id,
                None => {
                    let id = all.len() as u32;
                    let text: std::sync::Arc<str> = piece.into();
                    all.push(text.clone());
                    by_text.insert(text, id);
                    id
                }
            };
            ids.push(id);
        }
        HeldCommand {
            pieces: self.clone(),
            ids: ids.into_boxed_slice(),
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

/// Like [`load`]; without `keep_raw`, the records of `*.json` files are held
/// without their `raw` tool output and their timeline's series (each record
/// a summary of itself: what it measured, where and how), which [`reread`]
/// gives back for the pages that show them, so that memory does not grow
/// with the output and series kept, and with their test's command line
/// held apart as pieces (`Found::command`), so that the test itself is
/// held once for all its runs; a build of at most
/// [`SMALL_BUILD_FILES`] files keeps them all the same, up to
/// [`SMALL_BUILD_RAW_BYTES`] in all.
pub fn load_with(paths: &[PathBuf], keep_raw: bool) -> Result<Loaded> {
    load_holding(paths, keep_raw, SMALL_BUILD_FILES, SMALL_BUILD_RAW_BYTES)
}

/// [`load_with`], holding the tool output and series of at most
/// `small_files` files (and `raw_bytes` in all) when not asked to keep them.
pub(crate) fn load_holding(
    paths: &[PathBuf],
    keep_raw: bool,
    small_files: usize,
    raw_bytes: usize,
) -> Result<Loaded> {
    use rayon::prelude::*;
    // (file, what it is on disk): the second tells two spellings of one
    // file apart from two files, and is only needed when several paths
    // are given (a walk reaches each file once)
    let several = paths.len() > 1;
    let mut files: Vec<(PathBuf, Option<PathBuf>)> = Vec::new();
    let mut problems = Vec::new();
    let mut unreadable = Vec::new();
    for path in paths {
        let walk = walk_records(path);
        // links are not followed below the path itself, so only two paths
        // can reach one file twice, and then through their real
        // directories: one canonicalize per path
        let real = if several {
            std::fs::canonicalize(path).ok()
        } else {
            None
        };
        files.extend(walk.files.into_iter().map(|f| {
            let key = several.then(|| match (&real, f.strip_prefix(path)) {
                (Some(r), Ok(rel)) => r.join(rel),
                _ => f.clone(),
            });
            (f, key)
        }));
        problems.extend(walk.problems);
        unreadable.extend(walk.unreadable);
    }
    // Sorted so that which copy of a duplicate id wins, and the order of
    // problems, do not depend on the order the paths were given in.
    files.sort();
    files.dedup();
    if several {
        // one file reached twice (`results` and `./results`, or through a
        // symlink) is read once, not reported as a duplicate of itself
        let mut real = std::collections::BTreeSet::new();
        let first: Vec<bool> = files.iter().map(|(_, key)| real.insert(key)).collect();
        drop(real);
        let mut first = first.into_iter();
        files.retain(|_| first.next().unwrap_or(true));
    }
    let files: Vec<PathBuf> = files.into_iter().map(|(f, _)| f).collect();

    let mut loaded = Loaded {
        files: files.len(),
        problems,
        unreadable,
        ..Loaded::default()
    };
    // a small build holds the tool output and series it reads (up to a
    // bound), so that no page needs its file again; a large one reads them
    // again, and each record is held as its summary
    let small = files.len() <= small_files;
    let held = std::sync::atomic::AtomicUsize::new(0);
    // parsed in parallel, gathered in file order, one slot per file
    let shared = Shared::default();
    let pieces = std::sync::Arc::new(Pieces::default());
    let strip = |mut item: std::result::Result<Found, Problem>| {
        if let Ok(found) = &mut item {
            if !keep_raw && found.line.is_none() {
                let size = found.record.raw.as_deref().map_or(0, raw_size)
                    + found.record.timeline.as_deref().map_or(0, series_size);
                let room = small
                    && held.fetch_add(size, std::sync::atomic::Ordering::Relaxed) + size
                        <= raw_bytes;
                if !room {
                    found.record.raw = None;
                    // the command too: the test is then one of a few held once
                    let test = std::sync::Arc::make_mut(&mut found.record.test);
                    found.command = test.command.take().map(|line| pieces.hold(&line));
                    if let Some(tl) = found.record.timeline.as_deref_mut() {
                        (tl.read, tl.write, tl.trim) = (None, None, None);
                        // the logs' digests too: validated, and no page shows them
                        tl.logs = Default::default();
                    }
                }
            }
            shared.share(&mut found.record);
        }
        item
    };
    let read: Vec<FileRead> = files
        .par_iter()
        .map(|file| {
            let mut items = read_file(file);
            if items.len() == 1 {
                FileRead::One(strip(items.remove(0)))
            } else {
                FileRead::Many(items.into_iter().map(strip).collect())
            }
        })
        .collect();
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
        records[a]
            .record
            .id
            .cmp(&records[b].record.id)
            .then(seq[a].cmp(&seq[b]))
    });
    let mut dropped = vec![false; records.len()];
    let mut first = 0usize;
    for (k, &i) in by_id.iter().enumerate() {
        let i = i as usize;
        if k == 0 || records[first].record.id != records[i].record.id {
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
            message: format!(
                "duplicate record id `{}` (first seen in `{at}`); left out",
                records[i].record.id
            ),
            path: records[i].path.clone(),
            line: records[i].line,
        });
    }
    drop((by_id, seq));
    let mut dropped = dropped.into_iter();
    records.retain(|_| !dropped.next().unwrap_or(false));
    loaded.records = records;
    loaded.problems = problems;
    // ids are unique by now: an unstable sort needs no buffer of half the records
    loaded
        .records
        .sort_unstable_by(|a, b| a.record.id.cmp(&b.record.id));
    loaded.problems.sort();
    loaded.unreadable.sort();
    Ok(loaded)
}

/// Record files up to which a build that asked for records without their
/// tool output holds it all the same (see [`load_with`]), as long as it
/// comes to at most [`SMALL_BUILD_RAW_BYTES`]: reading a few thousand files
/// again costs more than holding their output.
pub const SMALL_BUILD_FILES: usize = 2_000;

/// Bytes of tool output and series a small build holds at most.
pub const SMALL_BUILD_RAW_BYTES: usize = 64 << 20;

/// Bytes of text `raw` holds.
fn raw_size(raw: &crate::record::Raw) -> usize {
    raw.stdout.as_ref().map_or(0, String::len) + raw.stderr.as_ref().map_or(0, String::len)
}

/// Bytes the series of `tl` hold.
fn series_size(tl: &crate::record::Timeline) -> usize {
    [&tl.read, &tl.write, &tl.trim]
        .into_iter()
        .flatten()
        .map(|s| {
            let lat = s.lat.as_ref().map_or(0, Vec::len) + s.clat.as_ref().map_or(0, Vec::len);
            (s.iops.len() + s.bw.len() + lat) * std::mem::size_of::<f64>()
        })
        .sum()
}

/// Sources, subjects, hosts, targets, tests and lists of metric names seen
/// so far, each held once:
/// the records of one run mostly carry equal ones, and each record then
/// points to the one copy instead of holding its own.
#[derive(Default)]
struct Shared {
    hosts: std::sync::Mutex<std::collections::HashSet<std::sync::Arc<crate::record::Host>>>,
    targets: std::sync::Mutex<std::collections::HashSet<std::sync::Arc<crate::record::Target>>>,
    /// Keyed by a hash of their JSON (a subject holds floats and a test
    /// JSON values, so neither has `Hash`), each told apart from others of
    /// its hash by `==`.
    subjects: Keyed<crate::record::Subject>,
    tests: Keyed<crate::record::TestInfo>,
    sources: Keyed<Source>,
    /// The names and units of a record's metrics: every record of a test
    /// has the same.
    metric_names: std::sync::Mutex<std::collections::HashSet<std::sync::Arc<MetricNames>>>,
}

/// The names and units of a record's metrics (`Metrics::names_mut`).
use crate::record::MetricNames;

/// Values held once, by the hash of their JSON: not the JSON itself, which
/// for a test whose command names each run's scratch directory would be a
/// second copy of every record's test.
type Keyed<T> = std::sync::Mutex<std::collections::HashMap<u64, Vec<std::sync::Arc<T>>>>;

/// Feeds what serde_json writes to std's hasher as it is written, so that
/// nothing is buffered (values of one hash are then told apart by `==`).
#[derive(Default)]
struct HashWriter(std::hash::DefaultHasher);

impl std::io::Write for HashWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        std::hash::Hasher::write(&mut self.0, buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    /// Makes `r` point to the copies already held of its source, subject,
    /// host, target, test and metric names, or holds its own as the copies
    /// for later records.
    fn share(&self, r: &mut Record) {
        fn one<T: Eq + std::hash::Hash>(
            set: &std::sync::Mutex<std::collections::HashSet<std::sync::Arc<T>>>,
            value: &mut std::sync::Arc<T>,
        ) {
            let mut set = set.lock().unwrap_or_else(|e| e.into_inner());
            match set.get(value) {
                Some(held) => *value = held.clone(),
                None => {
                    set.insert(value.clone());
                }
            }
        }
        fn by_json<T: serde::Serialize + PartialEq>(map: &Keyed<T>, value: &mut std::sync::Arc<T>) {
            let mut hasher = HashWriter::default();
            if serde_json::to_writer(&mut hasher, &**value).is_err() {
                return;
            }
            let key = std::hash::Hasher::finish(&hasher.0);
            let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
            let same = map.entry(key).or_default();
            match same.iter().find(|held| ***held == **value) {
                Some(held) => *value = held.clone(),
                None => same.push(value.clone()),
            }
        }
        one(&self.hosts, &mut r.host);
        one(&self.metric_names, r.metrics.names_mut());
        one(&self.targets, &mut r.target);
        by_json(&self.subjects, &mut r.subject);
        by_json(&self.tests, &mut r.test);
        by_json(&self.sources, &mut r.source);
    }
}

/// The parts of a record a large build holds it without (see
/// [`load_with`]), as [`reread`] reads them again.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeftOut {
    /// The tool output.
    pub raw: Option<crate::record::Raw>,
    /// The timeline, its series and all.
    pub timeline: Option<crate::record::Timeline>,
}

/// The tool output and timeline of the record `found` was read from: for a
/// record held without them (see [`load_with`]), its file read once more,
/// and of it only the `id` (to be sure it is the same record), the `raw`
/// output and the `timeline`; `None` when the record held is whole
/// already. Fails, naming the file, when the file no longer holds that
/// record.
pub fn reread(found: &Found) -> Result<Option<LeftOut>> {
    /// The parts of a record read again.
    #[derive(serde::Deserialize)]
    struct Again {
        id: String,
        #[serde(default)]
        raw: Option<crate::record::Raw>,
        #[serde(default)]
        timeline: Option<crate::record::Timeline>,
    }
    // the output and the series are held or left out together
    if found.record.raw.is_some() || found.line.is_some() {
        return Ok(None);
    }
    let path = &found.path;
    let changed = || {
        format!(
            "`{}` no longer holds record `{}`: it changed while the site was built",
            path.display(),
            found.record.id
        )
    };
    let text = std::fs::read(path)
        .with_context(|| format!("failed to read `{}` again", path.display()))?;
    let again: Again = serde_json::from_slice(&text).with_context(changed)?;
    if again.id != found.record.id {
        anyhow::bail!(changed());
    }
    Ok(Some(LeftOut {
        raw: again.raw,
        timeline: again.timeline,
    }))
}

/// What reading one file gave: one record (or problem), or the lines of a
/// `*.jsonl` file.
// not boxed: the records of `*.json` files are kept in this very buffer
#[allow(clippy::large_enum_variant)]
enum FileRead {
    One(std::result::Result<Found, Problem>),
    Many(Vec<std::result::Result<Found, Problem>>),
}

/// What walking one path found.
#[derive(Default)]
struct Walk {
    files: Vec<PathBuf>,
    problems: Vec<Problem>,
    unreadable: Vec<Problem>,
}

/// A problem of a whole file or directory that a walk found.
fn walk_problem(path: &Path, message: String) -> Problem {
    Problem {
        path: path.to_path_buf(),
        line: None,
        message,
    }
}

/// Walks one path: the file itself, or every `*.json` and `*.jsonl` below
/// a directory (hidden entries and diskdash sites skipped); symlinked and
/// dangling `*.json` links named as problems, and what could not be read.
fn walk_records(path: &Path) -> Walk {
    let mut walk = Walk::default();
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => {
            walk.unreadable.push(walk_problem(path, e.to_string()));
            return walk;
        }
    };
    if !meta.is_dir() {
        if meta.is_file() {
            walk.files.push(path.to_path_buf());
        } else {
            // a FIFO would hang the read, /dev/zero never end it
            walk.problems.push(walk_problem(
                path,
                "not a regular file (a FIFO, device or socket); expected a JSON record file".into(),
            ));
        }
        return walk;
    }
    if path.join(SITE_MARKER).exists() {
        return walk;
    }
    walk_dir(path)
}

/// [`walk_records`] below `dir`, a directory, by [`crate::walk::tree`]
/// (sorted by name, hidden entries left out, links not followed), with
/// directories that are diskdash sites left out too.
fn walk_dir(dir: &Path) -> Walk {
    let mut walk = Walk::default();
    let not_a_site =
        |e: &walkdir::DirEntry| !(e.file_type().is_dir() && e.path().join(SITE_MARKER).exists());
    for entry in crate::walk::tree(dir, not_a_site) {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                let message = e
                    .io_error()
                    .map_or_else(|| e.to_string(), |io| io.to_string());
                let path = e.path().unwrap_or(dir);
                walk.unreadable.push(walk_problem(path, message));
                continue;
            }
        };
        let kind = entry.file_type();
        if !is_record_file(entry.path()) || !(kind.is_symlink() || kind.is_file()) {
            continue;
        }
        let entry = entry.into_path();
        if kind.is_symlink() {
            let to = std::fs::read_link(&entry)
                .map(|t| t.display().to_string())
                .unwrap_or_default();
            let message = if entry.exists() {
                format!("a symbolic link (to `{to}`); left out: records are read from regular files (copy it in, or name the link itself)")
            } else {
                format!("a dangling symbolic link (to `{to}`); left out")
            };
            walk.problems.push(walk_problem(&entry, message));
        } else {
            walk.files.push(entry);
        }
    }
    walk
}

/// Reads one file: a `*.jsonl` file gives one result per non-empty line,
/// anything else is one JSON record.
fn read_file(path: &Path) -> Vec<std::result::Result<Found, Problem>> {
    let problem = |line: Option<usize>, message: String| Problem {
        path: path.to_path_buf(),
        line,
        message,
    };
    let lines = path.extension().and_then(|e| e.to_str()) == Some("jsonl");
    // a record holds at most 4 MiB of tool output: anything far larger is
    // not one, and reading it would cost its size in memory several times
    let too_large = |len: u64| {
        (!lines && len > MAX_RECORD_BYTES).then(|| {
            vec![Err(problem(
                None,
                format!(
                    "{len} bytes, larger than any record diskdash writes (at most {MAX_RECORD_BYTES}); left out unread"
                ),
            ))]
        })
    };
    // the size from the open file: one look-up of the path, not two
    let read = std::fs::File::open(path).and_then(|file| {
        use std::io::Read;
        let len = file.metadata().map(|m| m.len()).ok();
        if let Some(refused) = len.and_then(too_large) {
            return Ok(Err(refused));
        }
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(len.unwrap_or(0) as usize).ok();
        // through `take`: a `File` would look its size up once more
        file.take(u64::MAX)
            .read_to_end(&mut bytes)
            .map(|_| Ok(bytes))
    });
    let text = match read {
        Ok(Err(refused)) => return refused,
        Err(e) => {
            // as when the size was looked up first: a file too large is
            // named so, readable or not
            if let Some(refused) = std::fs::metadata(path)
                .ok()
                .and_then(|m| too_large(m.len()))
            {
                return refused;
            }
            return vec![Err(problem(None, format!("cannot read: {e}")))];
        }
        Ok(Ok(bytes)) => match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(_) => {
                return vec![Err(problem(
                    None,
                    "not UTF-8 text (expected a JSON record)".into(),
                ))]
            }
        },
    };
    if !lines {
        return vec![from_json(&text)
            .map(|record| Found::new(path.to_path_buf(), None, record))
            .map_err(|m| problem(None, m))];
    }
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        out.push(
            from_json(line)
                .map(|record| Found::new(path.to_path_buf(), Some(i + 1), record))
                .map_err(|m| problem(Some(i + 1), m)),
        );
    }
    if out.is_empty() {
        out.push(Err(problem(
            None,
            "empty file (expected one JSON record per line)".into(),
        )));
    }
    out
}

/// The largest `*.json` record file read: a record keeps at most 4 MiB of
/// tool output (`crate::bounded`), and JSON escaping makes a control
/// character six bytes (`\u0000`), so no record diskdash writes is larger.
pub const MAX_RECORD_BYTES: u64 = 64 << 20;
/// Whether a path names a record file (`*.json` or `*.jsonl`).
pub fn is_record_file(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("json") | Some("jsonl")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn good() -> serde_json::Value {
        serde_json::json!({
            "schema": "diskdash.record/1",
            "id": "demo.disk.dd-write-8k-dsync.r1",
            "source": {"kind": "run", "diskdash_version": "0.1.0"},
            "subject": {"study": "demo", "provider": "local", "offering": "disk",
                        "price": {"per_gb_month": 0.1, "currency": "USD"}},
            "host": {},
            "target": {},
            "test": {"id": "dd-write-8k-dsync", "tool": "dd"},
            "repetition": 1,
            "started_at": "2026-11-30T10:00:00Z",
            "duration_s": 1.5,
            "status": "ok",
            "metrics": {"write_bw": {"value": 1.6e6, "unit": "B/s"}}
        })
    }

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
            .map(|f| f.record.id.as_str())
            .collect();
        assert_eq!(ids, ["demo.disk.dd-write-8k-dsync.r1", "other"]);
        assert_eq!(loaded.problems.len(), 1);
        assert_eq!(loaded.problems[0].line, Some(3));
        assert!(loaded.problems[0].message.contains("duplicate record id"));
        assert!(loaded.problems[0].to_string().contains("b.jsonl:3: "));
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
            .map(|f| (f.record.id.as_str(), f.line))
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
    fn a_small_build_holds_the_tool_output_and_a_large_one_reads_it_again() {
        let dir = tempfile::tempdir().unwrap();
        let mut v = good();
        v["raw"] = serde_json::json!({"stdout": "12 MB/s\n", "stderr": "", "exit_code": 0});
        std::fs::write(dir.path().join("a.json"), v.to_string()).unwrap();
        let mut w = v.clone();
        w["id"] = "b".into();
        w["raw"]["stdout"] = "34 MB/s\n".into();
        std::fs::write(dir.path().join("b.json"), w.to_string()).unwrap();
        let paths = [dir.path().to_path_buf()];
        let out = |f: &Found| f.record.raw.as_ref().and_then(|r| r.stdout.clone());
        // two files: held as read, nothing to read again
        let small = load_with(&paths, false).unwrap();
        let held: Vec<_> = small.records.iter().map(out).collect();
        // (in id order: `b` first)
        assert_eq!(held, [Some("34 MB/s\n".into()), Some("12 MB/s\n".into())]);
        assert_eq!(reread(&small.records[0]).unwrap(), None);
        // past the file count: left out, and read again when asked for
        let large = load_holding(&paths, false, 1, 1 << 20).unwrap();
        assert!(large.records.iter().all(|f| f.record.raw.is_none()));
        let again = reread(&large.records[0])
            .unwrap()
            .and_then(|l| l.raw?.stdout);
        assert_eq!(again.as_deref(), Some("34 MB/s\n"));
        // past the bytes: the first output that fits is held, the next is not
        let bounded = load_holding(&paths, false, 10, 10).unwrap();
        let held = bounded
            .records
            .iter()
            .filter(|f| f.record.raw.is_some())
            .count();
        assert_eq!(held, 1);
        // a file that changed since is named
        std::fs::write(dir.path().join("b.json"), v.to_string()).unwrap();
        let e = reread(&large.records[0]).unwrap_err().to_string();
        assert!(
            e.contains("b.json") && e.contains("no longer holds record `b`"),
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
        let [b, c, a] = [0, 1, 2].map(|i| &loaded.records[i].record);
        assert!(std::sync::Arc::ptr_eq(&a.test, &b.test));
        assert!(!std::sync::Arc::ptr_eq(&a.test, &c.test));
        assert_eq!(c.test.command.as_deref(), Some("dd of=/mnt/a/r2"));
        assert!(std::sync::Arc::ptr_eq(&a.subject, &c.subject));
        // and one list of metric names for all three
        let names = |r: &Record| std::sync::Arc::as_ptr(r.metrics.clone().names_mut());
        assert_eq!((names(a), names(b)), (names(c), names(c)));
        assert_eq!(a.metrics.keys().collect::<Vec<_>>(), ["write_bw"]);
    }

    #[test]
    fn a_site_is_the_same_whether_tool_output_is_held_or_read_again() {
        // real `run` records, with their tool output and timelines
        let paths = [PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/emulated")];
        let opts = crate::report::Options {
            reread: true,
            ..Default::default()
        };
        let build = |l: &Loaded| crate::report::build_site(&l.records, &l.problems, &opts).unwrap();
        let held = load_with(&paths, false).unwrap();
        let again = load_holding(&paths, false, 0, 0).unwrap();
        let series = |f: &Found| {
            f.record
                .timeline
                .as_ref()
                .and_then(|t| t.read.as_ref())
                .map(|s| s.iops.len())
        };
        assert!(held.records.iter().any(|f| f.record.raw.is_some()));
        assert!(held.records.iter().all(|f| series(f) == Some(90)));
        // held as a summary: no output, no series or log digests, the
        // timeline's pattern kept
        assert!(again.records.iter().all(|f| f.record.raw.is_none()));
        assert!(again.records.iter().all(|f| series(f).is_none()));
        let digests = |f: &Found| f.record.timeline.as_ref().map(|t| t.logs.len());
        assert!(held.records.iter().all(|f| digests(f) == Some(4)));
        assert!(again.records.iter().all(|f| digests(f) == Some(0)));
        assert!(again.records.iter().all(|f| f
            .record
            .timeline
            .as_ref()
            .is_some_and(|t| t.pattern.is_some())));
        // the commands held apart, as pieces, and each test held once
        assert!(again
            .records
            .iter()
            .all(|f| f.record.test.command.is_none()));
        for (h, a) in held.records.iter().zip(&again.records) {
            let text = a.command.as_ref().map(HeldCommand::text);
            assert_eq!(text, h.record.test.command);
        }
        let tests = |l: &Loaded| {
            let mut t: Vec<usize> = l
                .records
                .iter()
                .map(|f| std::sync::Arc::as_ptr(&f.record.test) as usize)
                .collect();
            t.sort_unstable();
            t.dedup();
            t.len()
        };
        // one test on two volumes, each run's command its own
        assert_eq!((held.records.len(), tests(&held)), (2, 2));
        assert_eq!(tests(&again), 1);
        let left = reread(&again.records[0]).unwrap().unwrap();
        assert_eq!(
            left.timeline.as_ref(),
            held.records[0].record.timeline.as_deref()
        );
        assert_eq!(left.raw.as_ref(), held.records[0].record.raw.as_deref());
        let (a, b) = (build(&held), build(&again));
        assert_eq!(a.files.len(), b.files.len());
        for (path, bytes) in &a.files {
            assert!(b.files.get(path) == Some(bytes), "{path} differs");
        }
    }

    #[test]
    fn a_command_held_as_pieces_reads_back_as_written() {
        let pieces = std::sync::Arc::new(Pieces::default());
        let lines = [
            "fio --filename=/mnt/a/.scratch-1/t.r1/f --output=/mnt/a/.scratch-1/t.r1/o",
            "fio --filename=/mnt/a/.scratch-1/t.r2/f --output=/mnt/a/.scratch-1/t.r2/o",
            "dd if=/dev/zero of='/mnt/my disk/x' ",
            "",
        ];
        let held: Vec<HeldCommand> = lines.iter().map(|l| pieces.hold(l)).collect();
        for (line, h) in lines.iter().zip(&held) {
            assert_eq!(h.text(), *line);
        }
        // `fio `, `--filename=/`, `mnt/`, `a/`, `.scratch-1/`, `t.r1/`,
        // `f `, `--output=/`, then four of those again, and `o`: the
        // second line adds `t.r2/` alone, the third eight pieces
        assert_eq!(held[0].ids.len(), 13);
        assert!(held[3].ids.is_empty());
        let table = pieces.lock();
        assert_eq!(table.1.len(), 9 + 1 + 8);
        assert_eq!(&*table.1[held[1].ids[5] as usize], "t.r2/");
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
