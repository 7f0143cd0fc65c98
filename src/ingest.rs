//! Finding and reading records: walk directories for `*.json` and `*.jsonl`,
//! validate each record, collect problems per file.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::metrics::expected_unit;
use crate::record::{
    is_currency_code, is_positive, is_valid_id, Record, Source, Status, MAX_PRICE_PER_GB_MONTH,
    MAX_SIZE_GB, SCHEMA, SCHEMA_FAMILY, SCHEMA_MAJOR,
};
use crate::units::Unit;

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
            let mut items = read_file(file, keep_raw || small);
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
type MetricNames = Vec<(crate::record::Name, crate::record::Name)>;

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
/// anything else is one JSON record (held without its `raw` output unless
/// `keep_raw`; the lines of a `*.jsonl` file keep theirs).
fn read_file(path: &Path, keep_raw: bool) -> Vec<std::result::Result<Found, Problem>> {
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
        return vec![parse_record_with(&text, keep_raw)
            .map(|record| Found::new(path.to_path_buf(), None, record))
            .map_err(|m| problem(None, m))];
    }
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        out.push(
            parse_record(line)
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

/// Parses and validates one record's JSON text; the error says what is wrong.
pub fn parse_record(text: &str) -> std::result::Result<Record, String> {
    parse_record_with(text, true)
}

std::thread_local! {
    /// Whether records parsed on this thread leave out their `raw` output
    /// (see [`raw_output`]).
    static SKIP_RAW: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// How a record's `raw` output is read (`Record::raw`): in full, or, while
/// [`parse_record_with`] is told not to keep it, checked to be what it must
/// be (the fields of [`crate::record::Raw`], strings left undecoded) and
/// left out. Generic over how the record holds it.
pub fn raw_output<'de, D, T>(d: D) -> std::result::Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    use serde::Deserialize;
    if SKIP_RAW.with(std::cell::Cell::get) {
        Option::<RawShape>::deserialize(d).map(|_| None)
    } else {
        Option::<T>::deserialize(d)
    }
}

/// The fields of [`crate::record::Raw`], in its order and of its kinds,
/// accepting exactly what it accepts; the texts are stepped over, not
/// decoded or kept.
#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct RawShape<'a> {
    #[serde(default, borrow)]
    stdout: Option<Text<'a>>,
    #[serde(default, borrow)]
    stderr: Option<Text<'a>>,
    #[serde(default)]
    exit_code: Option<i32>,
    #[serde(default)]
    truncated: bool,
    #[serde(default)]
    stdout_bytes: Option<u64>,
    #[serde(default)]
    stderr_bytes: Option<u64>,
}

/// A JSON string, as written (escapes and all): what a `String` accepts,
/// without decoding it.
struct Text<'a>(#[allow(dead_code)] &'a serde_json::value::RawValue);

impl<'de: 'a, 'a> serde::Deserialize<'de> for Text<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let raw = <&'a serde_json::value::RawValue>::deserialize(d)?;
        if raw.get().starts_with('"') {
            Ok(Text(raw))
        } else {
            Err(serde::de::Error::custom("expected a string"))
        }
    }
}

/// [`parse_record`], which without `keep_raw` checks the record's `raw`
/// output but leaves it out of the record (see [`load_with`]).
fn parse_record_with(text: &str, keep_raw: bool) -> std::result::Result<Record, String> {
    /// Sets [`SKIP_RAW`] for as long as it lives.
    struct Skip(bool);
    impl Drop for Skip {
        fn drop(&mut self) {
            SKIP_RAW.with(|s| s.set(self.0));
        }
    }
    let _restore = Skip(SKIP_RAW.with(|s| s.replace(!keep_raw)));
    parse_checked(text)
}

fn parse_checked(text: &str) -> std::result::Result<Record, String> {
    if text.starts_with('\u{feff}') {
        return Err("starts with a byte order mark (BOM); save it as UTF-8 without a BOM".into());
    }
    // the one parse a good record gets: straight into the typed record
    let record = match serde_json::from_str::<Record>(text) {
        Ok(record) => record,
        Err(_) => {
            no_duplicate_keys(text)?;
            return Err(explain(text));
        }
    };
    // serde_json keeps the last of two equal keys: which one a reader sees
    // must not depend on that, so every record's objects are read once more
    // by a visitor that refuses a key seen twice.
    no_duplicate_keys(text)?;
    check_schema(record.schema)?;
    let problems = validate(&record);
    if problems.is_empty() {
        Ok(record)
    } else {
        Err(problems.join("; "))
    }
}

/// Fails, saying where, when `text` is not valid JSON or holds an object
/// with one key twice.
fn no_duplicate_keys(text: &str) -> std::result::Result<(), String> {
    serde_json::from_str::<NoDuplicateKeys>(text)
        .map(|_| ())
        .map_err(|e| format!("not valid JSON ({e}); expected a diskdash record"))
}

/// Why `text`, valid JSON without duplicate keys, is not a record: the
/// slower path, through a `Value`, that names the schema or the field.
fn explain(text: &str) -> String {
    // the record in full, as a reader that keeps its output sees it
    SKIP_RAW.with(|s| s.set(false));
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return format!("not valid JSON ({e}); expected a diskdash record"),
    };
    let schema = match value.get("schema") {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(_) => return "`schema` is not a string".into(),
        None => return format!("not a diskdash record (no `schema` field; expected \"{SCHEMA}\")"),
    };
    if let Err(e) = check_schema(&schema) {
        return e;
    }
    match serde_path_to_error::deserialize::<_, Record>(&value) {
        Err(e) => {
            let path = e.path().to_string();
            format!("field `{path}`: {}", e.into_inner())
        }
        // the typed parse failed where the `Value` one did not: name it as is
        Ok(_) => match serde_json::from_str::<Record>(text) {
            Err(e) => format!("not a diskdash record ({e})"),
            Ok(_) => "not a diskdash record".into(),
        },
    }
}

/// Any JSON value; fails on an object holding one key twice.
struct NoDuplicateKeys;

impl<'de> serde::Deserialize<'de> for NoDuplicateKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_any(NoDuplicateKeys)
    }
}

impl<'de> serde::de::Visitor<'de> for NoDuplicateKeys {
    type Value = NoDuplicateKeys;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> std::result::Result<Self, E> {
        Ok(self)
    }
    fn visit_i64<E>(self, _: i64) -> std::result::Result<Self, E> {
        Ok(self)
    }
    fn visit_u64<E>(self, _: u64) -> std::result::Result<Self, E> {
        Ok(self)
    }
    fn visit_f64<E>(self, _: f64) -> std::result::Result<Self, E> {
        Ok(self)
    }
    fn visit_str<E>(self, _: &str) -> std::result::Result<Self, E> {
        Ok(self)
    }
    fn visit_unit<E>(self) -> std::result::Result<Self, E> {
        Ok(self)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<Self, A::Error> {
        while seq.next_element::<NoDuplicateKeys>()?.is_some() {}
        Ok(self)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<Self, A::Error> {
        // objects in records are small: a list beats a set, and keys
        // without escapes are borrowed from the text
        let mut keys: Vec<Key<'de>> = Vec::new();
        while let Some(key) = map.next_key::<Key<'de>>()? {
            if keys.contains(&key) {
                return Err(serde::de::Error::custom(format!(
                    "duplicate key `{}`",
                    key.0
                )));
            }
            map.next_value::<NoDuplicateKeys>()?;
            keys.push(key);
        }
        Ok(self)
    }
}

/// An object key, borrowed from the text where it holds no escapes.
#[derive(PartialEq)]
struct Key<'de>(std::borrow::Cow<'de, str>);

impl<'de> serde::Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> std::result::Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> std::result::Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(s.to_string())))
            }
        }
        d.deserialize_str(V)
    }
}

/// Accepts `diskdash.record/1` (and `1.x`); refuses other families and majors.
fn check_schema(schema: &str) -> std::result::Result<(), String> {
    let Some(version) = schema.strip_prefix(SCHEMA_FAMILY) else {
        return Err(format!(
            "schema `{schema}` is not a diskdash record schema (expected \"{SCHEMA}\")"
        ));
    };
    // digits only: `+1`, `01`, `1.` and `1.x` are not versions diskdash wrote
    let plain = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (major, minor) = match version.split_once('.') {
        Some((ma, mi)) => (ma, Some(mi)),
        None => (version, None),
    };
    if !plain(major)
        || (major.len() > 1 && major.starts_with('0'))
        || minor.is_some_and(|m| !plain(m))
    {
        return Err(format!("schema `{schema}`: expected \"{SCHEMA}\""));
    }
    match major.parse::<u32>() {
        Ok(SCHEMA_MAJOR) => Ok(()),
        Ok(m) => Err(format!(
            "schema `{schema}` has major version {m}; this diskdash reads \"{SCHEMA}\" (upgrade diskdash)"
        )),
        Err(_) => Err(format!("schema `{schema}`: expected \"{SCHEMA}\"")),
    }
}

/// Upper bounds beyond which a value is refused as absurd, per unit.
/// Generous: ten times anything a 2026 device does.
fn plausible_max(unit: Unit) -> f64 {
    match unit {
        Unit::BytesPerSec => 1e13, // 10 TB/s
        Unit::Iops => 1e9,         // a billion IOPS
        Unit::OpsPerSec => 1e10,   // bonnie++ stat rates reach 1e6
        Unit::Seconds => 1e7,      // 115 days
        Unit::Percent => 1e5,      // %CPU summed over many cores
        Unit::Bytes => 1e18,       // an exabyte
        Unit::Count => 1e15,
    }
}

/// Problems with one record's content (empty when valid).
pub fn validate(record: &Record) -> Vec<String> {
    let mut p = Vec::new();
    if record.schema != SCHEMA && check_schema(record.schema).is_err() {
        p.push(format!("schema `{}`: expected \"{SCHEMA}\"", record.schema));
    }
    if !is_valid_id(&record.id) {
        p.push(format!(
            "id `{}` is not filename-safe (expected letters, digits, `.`, `_`, `-`)",
            record.id
        ));
    }
    if !is_valid_id(&record.test.id) {
        p.push(format!("test id `{}` is not a valid id", record.test.id));
    }
    if record.repetition == 0 {
        p.push("repetition is 0 (repetitions count from 1)".into());
    }
    if let Some(t) = &record.started_at {
        if !is_rfc3339_utc(t) {
            p.push(format!(
                "started_at `{t}` is not an RFC 3339 UTC time (expected 2026-01-31T12:00:00Z)"
            ));
        }
    }
    if let Some(d) = record.duration_s {
        if !d.is_finite() || d < 0.0 {
            p.push(format!("duration_s {d} is not a non-negative number"));
        }
    }
    match (record.status, &record.error) {
        (Status::Ok, Some(_)) => p.push("status is ok but an error is given".into()),
        (Status::Ok, None) if record.metrics.is_empty() => {
            p.push("status is ok but there are no metrics".into())
        }
        (Status::Failed | Status::Skipped, None) => p.push(format!(
            "status is {} but no error says why",
            record.status.name()
        )),
        _ => {}
    }
    if let Some(price) = &record.subject.price {
        if !is_positive(price.per_gb_month) {
            p.push(format!(
                "price per GB-month {} must be a positive number (leave `price` null when unknown)",
                price.per_gb_month
            ));
        } else if price.per_gb_month > MAX_PRICE_PER_GB_MONTH {
            p.push(format!(
                "price per GB-month {:e} is implausibly large (at most {MAX_PRICE_PER_GB_MONTH:e})",
                price.per_gb_month
            ));
        }
        if !is_currency_code(&price.currency) {
            p.push(format!(
                "currency `{}` is not an ISO 4217 code such as USD",
                price.currency
            ));
        }
    }
    if let Some(size) = record.subject.size_gb {
        if !is_positive(size) {
            p.push(format!("size_gb {size} must be a positive number"));
        } else if size > MAX_SIZE_GB {
            p.push(format!(
                "size_gb {size:e} is implausibly large (at most {MAX_SIZE_GB:e})"
            ));
        }
    }
    if let Source::Import { sha256, .. } = &*record.source {
        if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
            p.push("source.sha256 is not 64 hex digits".into());
        }
    }
    if let Some(tl) = &record.timeline {
        p.extend(timeline_problems(tl));
    }
    if let Some(prior) = &record.prior_io {
        for (name, v) in [("seconds", prior.seconds), ("bytes", prior.bytes)] {
            if !v.is_finite() || v < 0.0 {
                p.push(format!("prior_io.{name} {v} is not a non-negative number"));
            }
        }
    }
    if let Some(pre) = &record.prefill {
        for (name, v) in [("bytes", pre.bytes), ("seconds", pre.seconds)] {
            if !v.is_finite() || v < 0.0 {
                p.push(format!("prefill.{name} {v} is not a non-negative number"));
            }
        }
        if let Some(bw) = pre.bw {
            if !bw.is_finite() || bw < 0.0 || bw > plausible_max(Unit::BytesPerSec) {
                p.push(format!(
                    "prefill.bw {bw} is not a plausible bandwidth in B/s"
                ));
            }
        }
    }
    for (name, metric) in &record.metrics {
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            p.push(format!(
                "metric name `{name}` is not snake_case (expected e.g. read_iops)"
            ));
        }
        let Some(unit) = Unit::parse(metric.unit) else {
            p.push(format!(
                "metric `{name}`: unit `{}` is not canonical (expected one of B/s, s, IOPS, ops/s, %, B, count)",
                metric.unit
            ));
            continue;
        };
        if let Some(expected) = expected_unit(name) {
            if expected != unit {
                p.push(format!(
                    "metric `{name}`: unit `{}` where `{}` is expected",
                    metric.unit,
                    expected.as_str()
                ));
            }
        }
        let v = metric.value;
        if !v.is_finite() {
            p.push(format!("metric `{name}`: value {v} is not a finite number"));
        } else if v < 0.0 {
            p.push(format!("metric `{name}`: negative value {v}"));
        } else if v > plausible_max(unit) {
            p.push(format!(
                "metric `{name}`: value {v} {} is implausibly large",
                metric.unit
            ));
        }
    }
    p
}

/// Problems with a record's `timeline`: a non-positive interval, a series
/// value that is not a finite non-negative number in range, series of one
/// direction of different lengths, a log digest that is not SHA-256 hex.
fn timeline_problems(tl: &crate::record::Timeline) -> Vec<String> {
    let mut p = Vec::new();
    if !(tl.interval_s.is_finite() && tl.interval_s > 0.0 && tl.interval_s <= 3600.0) {
        p.push(format!(
            "timeline.interval_s {} is not a positive number of seconds (at most 3600)",
            tl.interval_s
        ));
    }
    for (dir, series) in [("read", &tl.read), ("write", &tl.write), ("trim", &tl.trim)] {
        let Some(s) = series else { continue };
        let named = [
            ("iops", Some(&s.iops), Unit::Iops),
            ("bw", Some(&s.bw), Unit::BytesPerSec),
            ("lat", s.lat.as_ref(), Unit::Seconds),
            ("clat", s.clat.as_ref(), Unit::Seconds),
        ];
        let mut lens = Vec::new();
        for (name, values, unit) in named {
            let Some(values) = values else { continue };
            if !values.is_empty() {
                lens.push((name, values.len()));
            }
            if let Some(bad) = values
                .iter()
                .find(|v| !v.is_finite() || **v < 0.0 || **v > plausible_max(unit))
            {
                p.push(format!(
                    "timeline.{dir}.{name}: value {bad} is not a plausible {}",
                    unit.as_str()
                ));
            }
        }
        if lens.windows(2).any(|w| w[0].1 != w[1].1) {
            let said: Vec<String> = lens.iter().map(|(n, l)| format!("{n} {l}")).collect();
            p.push(format!(
                "timeline.{dir}: series of different lengths ({})",
                said.join(", ")
            ));
        }
    }
    for (file, sha) in &tl.logs {
        if sha.len() != 64 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
            p.push(format!(
                "timeline.logs `{file}`: sha256 is not 64 hex digits"
            ));
        }
    }
    p
}

/// `YYYY-MM-DDTHH:MM:SS[.fff]Z` (or `+00:00`), a real date and time from
/// 1970 on, as [`humantime::parse_rfc3339`] reads it; the lower-case `t`
/// and `z` RFC 3339 also allows are read as `T` and `Z`.
fn is_rfc3339_utc(t: &str) -> bool {
    if t.bytes().any(|b| b == b't' || b == b'z') {
        return humantime::parse_rfc3339(&t.to_ascii_uppercase()).is_ok();
    }
    humantime::parse_rfc3339(t).is_ok()
}

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

    fn problem_with(edit: impl FnOnce(&mut serde_json::Value)) -> String {
        let mut v = good();
        edit(&mut v);
        parse_record(&v.to_string()).unwrap_err()
    }

    #[test]
    fn a_good_record_parses() {
        let r = parse_record(&good().to_string()).unwrap();
        assert_eq!(r.metrics.get("write_bw").unwrap().value, 1.6e6);
        assert_eq!(r.subject.region, None);
    }

    #[test]
    fn a_timeline_and_its_metrics_are_accepted_and_checked() {
        let mut v = good();
        v["metrics"]["read_iops_sustained"] = serde_json::json!({"value": 300.0, "unit": "IOPS"});
        v["metrics"]["read_bw_burst"] = serde_json::json!({"value": 1.2e7, "unit": "B/s"});
        v["metrics"]["burst_duration"] = serde_json::json!({"value": 2000.0, "unit": "s"});
        v["metrics"]["burst_ios"] = serde_json::json!({"value": 5.4e6, "unit": "count"});
        v["metrics"]["burst_bytes"] = serde_json::json!({"value": 2.2e10, "unit": "B"});
        v["metrics"]["steady_state"] = serde_json::json!({"value": 1.0, "unit": "count"});
        v["metrics"]["ss_range"] = serde_json::json!({"value": 3.5, "unit": "%"});
        v["metrics"]["ss_slope"] = serde_json::json!({"value": 1.5, "unit": "%"});
        v["timeline"] = serde_json::json!({
            "interval_s": 1.0,
            "read": {"iops": [3000.0, 300.0], "bw": [1.2e7, 1.2e6], "clat": [1e-4, 1e-3]},
            "logs": {"t_iops.1.log": "0".repeat(64)},
            "pattern": "credit-burst"
        });
        let r = parse_record(&v.to_string()).unwrap();
        let tl = r.timeline.as_ref().unwrap();
        assert_eq!(tl.pattern, Some(crate::record::Pattern::CreditBurst));
        assert_eq!(
            tl.read.as_ref().unwrap().clat.as_deref(),
            Some(&[1e-4, 1e-3][..])
        );
        // it survives writing and reading again
        let again = parse_record(&crate::record::to_json(&r).unwrap()).unwrap();
        assert_eq!(again, r);

        let mut w = good();
        w["metrics"]["read_iops_sustained"] = serde_json::json!({"value": 300.0, "unit": "B/s"});
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("where `IOPS` is expected"));
        let mut w = good();
        w["metrics"]["ss_slope"] = serde_json::json!({"value": 3.0, "unit": "count"});
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("where `%` is expected"));
        let mut w = v.clone();
        w["timeline"]["interval_s"] = 0.0.into();
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("timeline.interval_s 0"));
        let mut w = v.clone();
        w["timeline"]["read"]["bw"] = serde_json::json!([1.0]);
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("timeline.read: series of different lengths (iops 2, bw 1, clat 2)"));
        let mut w = v.clone();
        w["timeline"]["read"]["iops"] = serde_json::json!([-1.0, 1.0]);
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("timeline.read.iops: value -1"));
        let mut w = v.clone();
        w["prior_io"] = serde_json::json!({"seconds": -1.0, "bytes": 0.0});
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("prior_io.seconds -1 is not a non-negative number"));
        let mut w = v;
        w["timeline"]["logs"]["x.log"] = "abc".into();
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("sha256 is not 64 hex"));
    }

    #[test]
    fn a_prefill_is_optional_accepted_and_checked() {
        // a record from before the pre-fill has none and stays valid
        let r = parse_record(&good().to_string()).unwrap();
        assert_eq!(r.prefill, None);
        assert!(!crate::record::to_json(&r).unwrap().contains("prefill"));
        let mut v = good();
        v["prefill"] = serde_json::json!({
            "bytes": 67108864.0, "seconds": 0.5, "bw": 1.4e9,
            "command": "fio --name=prefill --rw=write --bs=1M --refill_buffers"
        });
        let r = parse_record(&v.to_string()).unwrap();
        let pre = r.prefill.as_ref().unwrap();
        assert_eq!(
            (pre.bytes, pre.bw, pre.error.as_deref()),
            (67108864.0, Some(1.4e9), None)
        );
        assert_eq!(
            parse_record(&crate::record::to_json(&r).unwrap()).unwrap(),
            r
        );
        // a failed one: no bandwidth, an error
        let mut w = good();
        w["prefill"] =
            serde_json::json!({"bytes": 0.0, "seconds": 0.0, "command": "fio", "error": "no"});
        assert_eq!(
            parse_record(&w.to_string()).unwrap().prefill.unwrap().bw,
            None
        );
        let mut w = v.clone();
        w["prefill"]["seconds"] = (-1.0).into();
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("prefill.seconds -1 is not a non-negative number"));
        let mut w = v.clone();
        w["prefill"]["bw"] = 1e20.into();
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("prefill.bw 100000000000000000000 is not a plausible bandwidth"));
        let mut w = v;
        w["prefill"].as_object_mut().unwrap().remove("command");
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("prefill"));
    }

    #[test]
    fn each_defect_is_named() {
        type Edit = Box<dyn FnOnce(&mut serde_json::Value)>;
        let cases: Vec<(Edit, &str)> = vec![
            (
                Box::new(|v| v["schema"] = "diskdash.record/2".into()),
                "major version 2",
            ),
            (
                Box::new(|v| v["schema"] = "other/1".into()),
                "not a diskdash record schema",
            ),
            (Box::new(|v| v["id"] = "../x".into()), "not filename-safe"),
            (
                Box::new(|v| v["repetition"] = "one".into()),
                "field `repetition`",
            ),
            (
                Box::new(|v| v["metrics"]["write_bw"]["unit"] = "MB/s".into()),
                "not canonical",
            ),
            (
                Box::new(|v| v["metrics"]["write_bw"]["value"] = (-1.0).into()),
                "negative",
            ),
            (
                Box::new(|v| v["metrics"]["write_bw"]["value"] = 1e20.into()),
                "implausibly large",
            ),
            (
                Box::new(|v| v["metrics"]["write_bw"]["unit"] = "s".into()),
                "where `B/s` is expected",
            ),
            (
                Box::new(|v| v["subject"]["price"]["per_gb_month"] = 0.0.into()),
                "positive number",
            ),
            (
                Box::new(|v| v["status"] = "failed".into()),
                "no error says why",
            ),
            (
                Box::new(|v| v["started_at"] = "yesterday".into()),
                "RFC 3339",
            ),
            (
                Box::new(|v| {
                    v.as_object_mut().unwrap().remove("schema");
                }),
                "no `schema` field",
            ),
        ];
        for (edit, expected) in cases {
            let msg = problem_with(edit);
            assert!(msg.contains(expected), "{msg:?} lacks {expected:?}");
        }
    }

    #[test]
    fn started_at_is_an_rfc_3339_utc_time() {
        for t in [
            "2026-12-01T10:48:09Z",
            "2026-11-30T10:00:00+00:00",
            "2026-11-30T10:00:00.123456Z",
            "2026-11-30t10:00:00.5z",
            "2024-02-29T23:59:60Z",
            "1970-01-01T00:00:00Z",
        ] {
            assert!(is_rfc3339_utc(t), "{t}");
        }
        for t in [
            "yesterday",
            "",
            "2026-12-01",
            "2026-12-01 10:48:09Z",
            "2026-12-01T10:48:09",
            "2026-12-01T10:48:09+01:00",
            "2026-12-01T10:48:09.5+02:00",
            "2026-12-01T10:48:09.xZ",
            "2026-02-29T10:00:00Z",
            "2026-13-01T10:00:00Z",
            "2026-12-00T10:00:00Z",
            "2026-12-01T24:00:00Z",
            "2026-12-01T10:60:00Z",
            "2026-12-01T10:48:09Zjunk",
            "2026-12-01T10:48:09Z ",
            "１２３４-12-01T10:48:09Z",
        ] {
            assert!(!is_rfc3339_utc(t), "{t}");
        }
        let mut v = good();
        v["started_at"] = "2026-12-01T10:48:09+01:00".into();
        let msg = parse_record(&v.to_string()).unwrap_err();
        assert!(
            msg.contains("started_at `2026-12-01T10:48:09+01:00` is not an RFC 3339 UTC time (expected 2026-01-31T12:00:00Z)"),
            "{msg}"
        );
    }

    #[test]
    fn every_repeated_key_is_refused() {
        let repeats = [
            r#"{"a":1,"a":2}"#,
            r#"{"x":[{"b":1}],"y":{"c":{"d":1,"d":2}}}"#,
            r#"[{"a":1},{"b":[1,{"c":1,"c":2}]}]"#,
            r#"{"x":{"a":1},"y":"}","y":2}"#,
            r#"{"a":"x\"y","a":{}}"#,
            r#"{"\u0061":1,"a":2}"#,
        ];
        for text in repeats {
            assert!(
                no_duplicate_keys(text)
                    .unwrap_err()
                    .contains("duplicate key"),
                "{text}"
            );
        }
        let distinct = [
            r#"{"a":1,"b":2}"#,
            r#"[{"a":1},{"a":2}]"#,
            r#"{"x":{"a":1},"a":{"x":[{"a":1}]}}"#,
            r#"{"s":"{\"s\":1,\"s\":2}","t":["{","[","\\"],"u":{}}"#,
            r#"{"a":[],"b":[[],{}],"c":null}"#,
            r#"{"\u0061":1,"b":2}"#,
        ];
        for text in distinct {
            assert!(no_duplicate_keys(text).is_ok(), "{text}");
        }
        assert!(no_duplicate_keys(&good().to_string()).is_ok());
        let many: Vec<String> = (0..100).map(|i| format!("\"k{i}\":{i}")).collect();
        let many = format!("{{{}}}", many.join(","));
        assert!(no_duplicate_keys(&many).is_ok());
        // an unknown field repeated in a record is refused too
        let text = good()
            .to_string()
            .replace(r#""study":"demo""#, r#""study":"demo","zz":1,"\u007az":2"#);
        let msg = parse_record(&text).unwrap_err();
        assert!(msg.contains("duplicate key `zz`"), "{msg}");
    }

    #[test]
    fn a_key_twice_in_a_map_is_named() {
        // maps (labels, metrics, parameters) would keep the last one silently
        let text = good().to_string().replace(
            r#""study":"demo""#,
            r#""study":"demo","labels":{"a":"1","a":"2"}"#,
        );
        assert!(text.contains(r#""a":"1","a":"2""#));
        let msg = parse_record(&text).unwrap_err();
        assert!(
            msg.starts_with("not valid JSON (duplicate key `a` at line 1"),
            "{msg}"
        );
        assert_eq!(parse_record_with(&text, false).unwrap_err(), msg);
    }

    #[test]
    fn raw_output_left_out_is_checked_as_when_kept() {
        let whole = serde_json::json!({
            "stdout": "{\"jobs\": []}\n", "stderr": "warn", "exit_code": 1,
            "truncated": true, "stdout_bytes": 10, "stderr_bytes": 4
        });
        let with_raw = |raw: serde_json::Value| {
            let mut v = good();
            v["raw"] = raw;
            v.to_string()
        };
        let text = with_raw(whole.clone());
        let kept = parse_record(&text).unwrap();
        assert_eq!(kept.raw.as_ref().unwrap().stdout_bytes, Some(10));
        let left = parse_record_with(&text, false).unwrap();
        assert_eq!(left.raw, None);
        assert_eq!(left, Record { raw: None, ..kept });
        // the flag does not outlive the parse
        assert!(parse_record(&text).unwrap().raw.is_some());
        // a wrong kind in any field of `Raw` is refused either way, in the
        // same words: a field `Raw` gains must be checked here too
        let fields = whole.as_object().unwrap();
        assert_eq!(
            fields.len(),
            serde_json::to_value(schemars::schema_for!(crate::record::Raw)).unwrap()["properties"]
                .as_object()
                .unwrap()
                .len()
        );
        let mut bad: Vec<serde_json::Value> = fields
            .keys()
            .map(|k| {
                let mut w = whole.clone();
                w[k] = serde_json::json!([]);
                w
            })
            .collect();
        bad.extend([
            serde_json::json!("out"),
            serde_json::json!(1),
            serde_json::json!({"exit_code": 1e10}),
            serde_json::json!({"stdout_bytes": -1}),
            serde_json::json!(["a", "b", 0, false, null, null, "extra"]),
        ]);
        let mut texts: Vec<String> = bad.into_iter().map(with_raw).collect();
        texts.push(with_raw("here".into()).replace(r#""here""#, r#"{"stdout":"a","stdout":"b"}"#));
        for text in texts {
            let msg = parse_record(&text).unwrap_err();
            assert_eq!(parse_record_with(&text, false).unwrap_err(), msg, "{text}");
        }
        // and whatever `Raw` accepts is accepted either way
        for raw in [
            serde_json::Value::Null,
            serde_json::json!({}),
            serde_json::json!({"stdout": null, "other": [1, {"x": 2}]}),
            serde_json::json!(["out", "err", 0]),
        ] {
            let text = with_raw(raw.clone());
            let kept = parse_record(&text).unwrap();
            let left = parse_record_with(&text, false).unwrap();
            assert_eq!(left, Record { raw: None, ..kept }, "{raw}");
        }
    }

    #[test]
    fn nan_and_truncated_json_are_problems_not_panics() {
        let text = good().to_string().replace("1600000.0", "NaN");
        assert!(parse_record(&text).unwrap_err().contains("not valid JSON"));
        let t = good().to_string();
        assert!(parse_record(&t[..t.len() / 2])
            .unwrap_err()
            .contains("not valid JSON"));
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
    fn floats_read_back_exactly() {
        // serde_json's default float parser can be off in the last digit;
        // a record read back must keep the value its writer stored.
        let mut v = good();
        v["metrics"]["write_bw"]["value"] = serde_json::json!(1302295774.2105753_f64);
        let text = serde_json::to_string(&v).unwrap();
        assert!(text.contains("1302295774.2105753"));
        let r = parse_record(&text).unwrap();
        assert_eq!(r.metrics.get("write_bw").unwrap().value, 1302295774.2105753);
        assert!(serde_json::to_string(&r)
            .unwrap()
            .contains("1302295774.2105753"));
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
