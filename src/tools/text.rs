//! The one reader of tool output files: whatever the bytes, a parser
//! receives text of `\n` line ends in UTF-8 (`import` reads every file,
//! fio's per-second logs included, through [`read`]).
//!
//! - a UTF-8 byte order mark is dropped;
//! - UTF-16 with its byte order mark (what Windows PowerShell's `>` writes)
//!   is decoded;
//! - a line that is not UTF-8 is read as Latin-1 (ISO 8859-1: each byte
//!   the character of its number), as a log from a system of that locale
//!   is; only text in words changes, never a figure, which is ASCII;
//! - `\r\n` line ends (text pasted from Windows) become `\n`; so do lone
//!   `\r` line ends in a file that has no `\n` at all (old Mac text). A
//!   lone `\r` inside a file of `\n` lines is a terminal's overwrite (dd's
//!   `status=progress`, fio's ETA line), kept for the parsers that read it.
//!
//! A file holding a NUL byte (UTF-16 aside) is binary, not tool output.

use std::borrow::Cow;

/// How a file's bytes were written, when not UTF-8 with `\n` line ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 (a byte order mark, if any, dropped).
    Utf8,
    /// UTF-16 with its byte order mark, little- or big-endian.
    Utf16,
    /// Lines that are not UTF-8, read as Latin-1 (the others as UTF-8).
    Latin1,
}

/// A file's text as the parsers receive it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text<'a> {
    /// UTF-8, `\n` line ends.
    pub text: Cow<'a, str>,
    /// How the bytes were written.
    pub encoding: Encoding,
    /// Whether `\r\n` (or lone `\r`) line ends were made `\n`.
    pub crlf: bool,
}

/// Reads tool output: see the module's documentation. Fails on a binary
/// file and on UTF-16 that its byte order mark announces but that is not.
pub fn read(bytes: &[u8]) -> Result<Text<'_>, String> {
    let (text, encoding): (Cow<str>, Encoding) =
        if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
            (utf8_or_latin1(rest), Encoding::Utf8)
        } else if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
            (utf16(rest, u16::from_le_bytes)?.into(), Encoding::Utf16)
        } else if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
            (utf16(rest, u16::from_be_bytes)?.into(), Encoding::Utf16)
        } else {
            let text = utf8_or_latin1(bytes);
            let encoding = match text {
                Cow::Borrowed(_) => Encoding::Utf8,
                Cow::Owned(_) => Encoding::Latin1,
            };
            (text, encoding)
        };
    if text.contains('\0') {
        return Err("a binary file, not tool output".into());
    }
    let (text, crlf) = match line_ends(&text) {
        Some(lf) => (Cow::Owned(lf), true),
        None => (text, false),
    };
    Ok(Text {
        text,
        encoding,
        crlf,
    })
}

/// The bytes as UTF-8; a line that is not UTF-8 has each byte read as its
/// Latin-1 character (the other lines stay UTF-8: a UTF-8 log with one
/// Latin-1 line pasted in keeps its own characters).
fn utf8_or_latin1(bytes: &[u8]) -> Cow<'_, str> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(bytes.len() + bytes.len() / 8);
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        match std::str::from_utf8(line) {
            Ok(text) => out.push_str(text),
            Err(_) => out.extend(line.iter().map(|&b| char::from(b))),
        }
    }
    Cow::Owned(out)
}

/// UTF-16 code units of two bytes each, decoded.
fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> Result<String, String> {
    if bytes.len() % 2 != 0 {
        return Err(format!(
            "starts with a UTF-16 byte order mark but holds an odd number of bytes ({}); expected UTF-16 text",
            bytes.len() + 2
        ));
    }
    let units = bytes.chunks_exact(2).map(|c| unit([c[0], c[1]]));
    char::decode_utf16(units)
        .collect::<Result<String, _>>()
        .map_err(|e| {
            format!(
                "starts with a UTF-16 byte order mark but holds an unpaired surrogate ({:#06x}); expected UTF-16 text",
                e.unpaired_surrogate()
            )
        })
}

/// The text with `\r\n` line ends made `\n` (and lone `\r` ones, in a
/// text without `\n`); `None` when there is nothing to change.
fn line_ends(text: &str) -> Option<String> {
    if !text.contains('\r') {
        return None;
    }
    if !text.contains('\n') {
        return Some(text.replace('\r', "\n"));
    }
    if !text.contains("\r\n") {
        return None;
    }
    Some(text.replace("\r\n", "\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_bom_utf16_and_latin1_read_as_lf_utf8() {
        let lf = "fio-3.36\n  read: IOPS=1\r2\n";
        let plain = read(lf.as_bytes()).unwrap();
        assert_eq!(
            (plain.text.as_ref(), plain.encoding, plain.crlf),
            (lf, Encoding::Utf8, false)
        );
        assert!(matches!(plain.text, Cow::Borrowed(_)));
        // CRLF: every `\r\n` a `\n`, a lone `\r` among them kept
        let crlf = read(b"a\r\nb\r\rc\r\n").unwrap();
        assert_eq!((crlf.text.as_ref(), crlf.crlf), ("a\nb\r\rc\n", true));
        // lone `\r` line ends, no `\n` anywhere
        assert_eq!(read(b"a\rb\r").unwrap().text, "a\nb\n");
        let bom = read(b"\xEF\xBB\xBFa\r\n").unwrap();
        assert_eq!((bom.text.as_ref(), bom.encoding), ("a\n", Encoding::Utf8));
        let latin1 = read(b"f\xFCr 1 MB/s\n").unwrap();
        assert_eq!(
            (latin1.text.as_ref(), latin1.encoding),
            ("für 1 MB/s\n", Encoding::Latin1)
        );
        // a UTF-8 line beside a Latin-1 one keeps its characters
        let bytes = [b"copi\xC3\xA9s\n".as_slice(), b"f\xFCr\r\n"].concat();
        assert_eq!(read(&bytes).unwrap().text, "copiés\nfür\n");
        let le: Vec<u8> = b"\xFF\xFE"
            .iter()
            .copied()
            .chain("für\r\n".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let be: Vec<u8> = b"\xFE\xFF"
            .iter()
            .copied()
            .chain("für\r\n".encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        for bytes in [le, be] {
            let t = read(&bytes).unwrap();
            assert_eq!((t.text.as_ref(), t.encoding), ("für\n", Encoding::Utf16));
        }
    }

    #[test]
    fn binary_and_broken_utf16_are_refused_saying_why() {
        assert_eq!(
            read(b"\0\x01").unwrap_err(),
            "a binary file, not tool output"
        );
        assert!(read(b"\xFF\xFEa")
            .unwrap_err()
            .contains("odd number of bytes (3)"));
        assert!(read(b"\xFF\xFE\x00\xD8a\x00")
            .unwrap_err()
            .contains("unpaired surrogate (0xd800)"));
    }
}
