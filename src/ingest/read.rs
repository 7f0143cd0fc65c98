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
