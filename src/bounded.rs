//! Bounded text: at most a head and a tail of a long tool output, with a
//! line saying how much was left out. The one bound `run`, `import` and the
//! run pages share, so that a tool printing gigabytes costs megabytes.

/// Bytes of one stream a record keeps: half from its start, half from its
/// end. A record holds two streams, so at most 4 MiB of tool output in all.
pub const STREAM_LIMIT: usize = 2 << 20;

/// Bytes of one stream a run page shows.
pub const PAGE_LIMIT: usize = 64 << 10;

/// Collects a stream's bytes keeping the first and the last `limit / 2`,
/// and counting all of them.
#[derive(Debug)]
pub struct HeadTail {
    limit: usize,
    head: Vec<u8>,
    /// Ring buffer of the last bytes; `tail_start` is its oldest byte.
    tail: Vec<u8>,
    tail_start: usize,
    total: u64,
}

impl HeadTail {
    /// An empty collector keeping at most `limit` bytes.
    pub fn new(limit: usize) -> HeadTail {
        HeadTail {
            limit,
            head: Vec::new(),
            tail: Vec::new(),
            tail_start: 0,
            total: 0,
        }
    }

    /// Adds bytes read from the stream.
    pub fn push(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        let head_room = (self.limit / 2).saturating_sub(self.head.len());
        let n = head_room.min(bytes.len());
        self.head.extend_from_slice(&bytes[..n]);
        bytes = &bytes[n..];
        let cap = self.limit - self.limit / 2;
        if cap == 0 {
            return;
        }
        if bytes.len() >= cap {
            self.tail.clear();
            self.tail.extend_from_slice(&bytes[bytes.len() - cap..]);
            self.tail_start = 0;
            return;
        }
        for &b in bytes {
            if self.tail.len() < cap {
                self.tail.push(b);
            } else {
                self.tail[self.tail_start] = b;
                self.tail_start = (self.tail_start + 1) % cap;
            }
        }
    }

    /// Total bytes pushed.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Whether bytes were left out.
    pub fn truncated(&self) -> bool {
        self.total > (self.head.len() + self.tail.len()) as u64
    }

    /// The text kept, lossily decoded, with a line where bytes were left out.
    pub fn text(&self) -> String {
        let mut tail = self.tail[self.tail_start..].to_vec();
        tail.extend_from_slice(&self.tail[..self.tail_start]);
        if !self.truncated() {
            let mut all = self.head.clone();
            all.extend_from_slice(&tail);
            return String::from_utf8_lossy(&all).into_owned();
        }
        let left_out = self.total - (self.head.len() + tail.len()) as u64;
        format!(
            "{}\n[... diskdash left out {left_out} of {} bytes ...]\n{}",
            String::from_utf8_lossy(&self.head),
            self.total,
            String::from_utf8_lossy(&tail)
        )
    }
}

/// `text` itself when it fits in `limit` bytes, else its head and tail with
/// a line saying how much was left out; and whether it was cut.
pub fn excerpt(text: &str, limit: usize) -> (String, bool) {
    if text.len() <= limit {
        return (text.to_string(), false);
    }
    let mut h = HeadTail::new(limit);
    h.push(text.as_bytes());
    (h.text(), true)
}

/// Bytes a price, limits or rates list may hold: thousands of rows fit in
/// a few hundred KiB, and parsing costs about 20 times the file, so 8 MiB
/// bounds a list at some 160 MiB.
pub const MAX_LIST_BYTES: u64 = 8 << 20;

/// The text of the list at `path` (`what`: `price list`, `rates file`),
/// refused unread when it is not a regular file (a FIFO would hang the
/// read, `/dev/zero` never end) or holds more than [`MAX_LIST_BYTES`], and
/// never read past that bound should it grow meanwhile. Errors name the
/// file and what was expected.
pub fn read_list(path: &std::path::Path, what: &str) -> anyhow::Result<String> {
    use anyhow::{bail, Context};
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let name = path.display();
    let meta =
        std::fs::metadata(path).with_context(|| format!("failed to read {what} `{name}`"))?;
    if !meta.is_file() {
        bail!("{what} `{name}` is not a regular file (a directory, FIFO, device or socket); expected a CSV file");
    }
    // not blocking on open should the file have been swapped for a FIFO
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .with_context(|| format!("failed to read {what} `{name}`"))?;
    let meta = file
        .metadata()
        .with_context(|| format!("failed to read {what} `{name}`"))?;
    let too_large = |len: u64| {
        anyhow::anyhow!(
            "{what} `{name}` is {len} bytes, more than a list may hold (at most {MAX_LIST_BYTES}); expected a CSV file of rows"
        )
    };
    if !meta.is_file() {
        bail!("{what} `{name}` is not a regular file (a directory, FIFO, device or socket); expected a CSV file");
    }
    if meta.len() > MAX_LIST_BYTES {
        return Err(too_large(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_LIST_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("failed to read {what} `{name}`"))?;
    if bytes.len() as u64 > MAX_LIST_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{what} `{name}` is not UTF-8 text (byte {} is not); expected a CSV file",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Counts the newlines of a list's text up to byte offsets that a CSV
/// reader hands out in order, each byte once: asking for every row's line
/// by counting from the start would be quadratic in the file (seconds for
/// ten thousand rows, minutes for a list near [`MAX_LIST_BYTES`]).
pub struct LineCounter<'a> {
    bytes: &'a [u8],
    at: usize,
    newlines: usize,
}

impl<'a> LineCounter<'a> {
    pub fn new(text: &'a str) -> LineCounter<'a> {
        LineCounter {
            bytes: text.as_bytes(),
            at: 0,
            newlines: 0,
        }
    }

    /// How many `\n` come before byte `byte` (clamped to the text); an
    /// offset before the last one asked counts from the start again.
    pub fn newlines_before(&mut self, byte: usize) -> usize {
        let end = byte.min(self.bytes.len());
        if end < self.at {
            self.at = 0;
            self.newlines = 0;
        }
        self.newlines += self.bytes[self.at..end]
            .iter()
            .filter(|b| **b == b'\n')
            .count();
        self.at = end;
        self.newlines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_counted_forward_and_again_from_the_start_when_asked_back() {
        let text = "a\nbb\n\nccc\nd";
        let mut c = LineCounter::new(text);
        // each offset's newlines before it, asked in order, then back
        let want = |at: usize| {
            text.as_bytes()[..at.min(text.len())]
                .iter()
                .filter(|b| **b == b'\n')
                .count()
        };
        for at in [0, 1, 2, 5, 6, 7, 11, 12, 40] {
            assert_eq!(c.newlines_before(at), want(at), "at {at}");
        }
        for at in [6, 2, 0, 12] {
            assert_eq!(c.newlines_before(at), want(at), "back at {at}");
        }
    }

    #[test]
    fn short_text_is_kept_whole() {
        let mut h = HeadTail::new(16);
        h.push(b"hello ");
        h.push(b"world");
        assert_eq!(h.text(), "hello world");
        assert!(!h.truncated());
        assert_eq!(excerpt("abc", 3), ("abc".to_string(), false));
    }

    #[test]
    fn long_text_keeps_head_and_tail_and_counts_all() {
        let mut h = HeadTail::new(8);
        for chunk in [&b"0123"[..], b"456789", b"abcdefghij", b"XYZ"] {
            h.push(chunk);
        }
        assert_eq!(h.total(), 23);
        assert!(h.truncated());
        assert_eq!(
            h.text(),
            "0123\n[... diskdash left out 15 of 23 bytes ...]\njXYZ"
        );
        let (e, cut) = excerpt("0123456789", 4);
        assert!(cut);
        assert_eq!(e, "01\n[... diskdash left out 6 of 10 bytes ...]\n89");
    }

    #[test]
    fn a_list_that_is_no_regular_file_or_too_large_is_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        // a FIFO nobody writes to: refused at once, not waited on
        let fifo = dir.path().join("prices.csv");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_list(&fifo, "price list").unwrap_err().to_string();
        assert!(e.ends_with("prices.csv` is not a regular file (a directory, FIFO, device or socket); expected a CSV file"), "{e}");
        // a device that never ends
        let e = read_list(std::path::Path::new("/dev/zero"), "rates file")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("rates file `/dev/zero` is not a regular file"),
            "{e}"
        );
        // one byte over the bound, refused by its size
        let big = dir.path().join("limits.csv");
        std::fs::write(&big, vec![b'a'; MAX_LIST_BYTES as usize + 1]).unwrap();
        let e = read_list(&big, "limits list").unwrap_err().to_string();
        assert!(
            e.contains("is 8388609 bytes, more than a list may hold (at most 8388608)"),
            "{e}"
        );
        // at the bound, read whole
        std::fs::write(&big, vec![b'a'; MAX_LIST_BYTES as usize]).unwrap();
        assert_eq!(
            read_list(&big, "limits list").unwrap().len(),
            MAX_LIST_BYTES as usize
        );
        // not text
        std::fs::write(&big, b"provider\n\xff").unwrap();
        let e = read_list(&big, "limits list").unwrap_err().to_string();
        assert!(
            e.ends_with("is not UTF-8 text (byte 9 is not); expected a CSV file"),
            "{e}"
        );
    }
}
