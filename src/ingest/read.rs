//! Reading one record file: its size bounded, its text parsed.

use std::path::Path;

use super::{Found, Problem};
use crate::record::from_json;

/// Reads one file: a `*.jsonl` file gives one result per non-empty line,
/// anything else is one JSON record.
pub(super) fn read_file(path: &Path) -> Vec<std::result::Result<Found, Problem>> {
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
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
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
    };
    if lines {
        return read_lines(path, file);
    }
    let read = {
        use std::io::Read;
        let len = file.metadata().map(|m| m.len()).ok();
        if let Some(refused) = len.and_then(too_large) {
            return refused;
        }
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(len.unwrap_or(0) as usize).ok();
        // at most one byte past the bound, whatever the size said: a file
        // that grew since is refused without being read whole
        file.take(MAX_RECORD_BYTES + 1)
            .read_to_end(&mut bytes)
            .map(|_| bytes)
    };
    let text = match read {
        Err(e) => return vec![Err(problem(None, format!("cannot read: {e}")))],
        Ok(bytes) if bytes.len() as u64 > MAX_RECORD_BYTES => {
            return too_large(bytes.len() as u64).unwrap_or_default()
        }
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(_) => {
                return vec![Err(problem(
                    None,
                    "not UTF-8 text (expected a JSON record)".into(),
                ))]
            }
        },
    };
    vec![from_json(&text)
        .map(|record| Found {
            sha256: Some(sha256(text.as_bytes())),
            ..Found::new(path.to_path_buf(), None, record)
        })
        .map_err(|m| problem(None, m))]
}

/// Reads a `*.jsonl` file line by line, each line bounded by
/// [`MAX_RECORD_BYTES`]: a longer line is named and skipped unread (its
/// bytes passed over, never held), so a file of any size costs at most one
/// record's bytes.
fn read_lines(path: &Path, file: std::fs::File) -> Vec<std::result::Result<Found, Problem>> {
    use std::io::{BufRead, Read};
    let problem = |line: Option<usize>, message: String| Problem {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut reader = std::io::BufReader::new(file);
    let mut out = Vec::new();
    let mut bytes = Vec::new();
    for n in 1.. {
        bytes.clear();
        let got = (&mut reader)
            .take(MAX_RECORD_BYTES + 1)
            .read_until(b'\n', &mut bytes);
        match got {
            Err(e) => {
                out.push(Err(problem(Some(n), format!("cannot read: {e}"))));
                break;
            }
            Ok(0) => break,
            Ok(_) => {}
        }
        if bytes.len() as u64 > MAX_RECORD_BYTES && bytes.last() != Some(&b'\n') {
            // pass over the rest of the line without holding it
            let skipped = bytes.len() as u64 + pass_over_line(&mut reader).unwrap_or(0);
            out.push(Err(problem(
                Some(n),
                format!(
                    "a line of {skipped} bytes or more, larger than any record diskdash writes (at most {MAX_RECORD_BYTES} a line); left out unread"
                ),
            )));
            continue;
        }
        let Ok(line) = std::str::from_utf8(&bytes) else {
            out.push(Err(problem(
                Some(n),
                "not UTF-8 text (expected a JSON record)".into(),
            )));
            continue;
        };
        let line = line.strip_suffix('\n').unwrap_or(line);
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            continue;
        }
        out.push(
            from_json(line)
                .map(|record| Found {
                    sha256: Some(sha256(line.as_bytes())),
                    ..Found::new(path.to_path_buf(), Some(n), record)
                })
                .map_err(|m| problem(Some(n), m)),
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

/// The SHA-256 of the bytes a record was read from.
pub(super) fn sha256(bytes: &[u8]) -> [u8; 32] {
    let mut h = crate::digest::Hasher::new();
    h.update(bytes);
    h.finish()
}

/// Reads line `n` (1-based) of a `*.jsonl` file, without its line end,
/// holding at most [`MAX_RECORD_BYTES`] of any line: the lines before it
/// are passed over unheld. `None` when the file has fewer lines or that
/// line is longer than the bound.
pub(super) fn nth_line(file: std::fs::File, n: usize) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::{BufRead, Read};
    let mut reader = std::io::BufReader::new(file);
    let mut bytes = Vec::new();
    for k in 1..=n {
        bytes.clear();
        if (&mut reader)
            .take(MAX_RECORD_BYTES + 1)
            .read_until(b'\n', &mut bytes)?
            == 0
        {
            return Ok(None);
        }
        if bytes.len() as u64 > MAX_RECORD_BYTES && bytes.last() != Some(&b'\n') {
            if k == n {
                return Ok(None);
            }
            // pass over the rest of the line without holding it
            pass_over_line(&mut reader)?;
        }
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(bytes))
}

/// The largest `*.json` record file read: a record keeps at most 4 MiB of
/// tool output (`crate::bounded`), and JSON escaping makes a control
/// character six bytes (`\u0000`), so no record diskdash writes is larger.
pub const MAX_RECORD_BYTES: u64 = 64 << 20;

/// Reads past the rest of the current line (its `\n` included) without
/// holding it; how many bytes that was.
fn pass_over_line(reader: &mut impl std::io::BufRead) -> std::io::Result<u64> {
    let mut passed = 0;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(passed);
        }
        let (used, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        reader.consume(used);
        passed += used as u64;
        if end {
            return Ok(passed);
        }
    }
}
