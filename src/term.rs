//! What reaches a terminal. Text from outside diskdash — paths, file
//! names, record and test ids, a suite's name and headline, a tool's
//! output, error lines and version string, an error's context chain — is
//! printed only through [`shown`], which writes every control character
//! but the newline (ESC, CSI `0x9b`, BEL, backspace, carriage return, tab,
//! DEL), every bidirectional override or isolate, and every byte that is
//! not UTF-8 as a visible escape (`\u{1b}`, `\u{202e}`, `\xff`). A path
//! has its newlines escaped too: it is one line.
//!
//! Printing goes through [`say!`](crate::say) (a line on standard output),
//! [`tell!`](crate::tell) (a line on standard error) and
//! [`say_to!`](crate::say_to) (a line to a writer), which accept only
//! arguments of a [`Safe`] type — numbers, `&'static str` written in the
//! program, and [`Shown`] — and a format string that names no variable
//! (`{name}` would bypass the check), so that outside text cannot be
//! printed without escaping: the compiler refuses it. The test
//! `term::tests::only_the_checked_macros_print` reads `src/` and fails on
//! any other way to print.

use std::borrow::Cow;
use std::ffi::OsStr;
use std::fmt;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Outside text made fit for a terminal: its `Display` writes the escaped
/// form (and honours width and alignment, `{:<22}`).
pub struct Shown<'a> {
    bytes: Cow<'a, [u8]>,
    /// A path: one line, so its newlines are escaped as well.
    one_line: bool,
}

/// `text` (a `&str`, `String`, path, `OsStr`, an error with its context
/// chain, or `format_args!`) as it may be printed to a terminal.
pub fn shown<'a>(text: impl Outside<'a>) -> Shown<'a> {
    text.shown()
}

/// `text` as [`shown`] prints it, on one line: its newlines escaped too
/// (a name, a headline, a table cell).
pub fn shown_line<'a>(text: impl Outside<'a>) -> Shown<'a> {
    Shown {
        one_line: true,
        ..text.shown()
    }
}

/// Text from outside that [`shown`] takes.
pub trait Outside<'a> {
    fn shown(self) -> Shown<'a>;
}

fn text(bytes: Cow<'_, [u8]>) -> Shown<'_> {
    Shown {
        bytes,
        one_line: false,
    }
}

fn path(bytes: &[u8]) -> Shown<'_> {
    Shown {
        bytes: Cow::Borrowed(bytes),
        one_line: true,
    }
}

impl<'a> Outside<'a> for &'a str {
    fn shown(self) -> Shown<'a> {
        text(Cow::Borrowed(self.as_bytes()))
    }
}

impl<'a> Outside<'a> for &'a String {
    fn shown(self) -> Shown<'a> {
        text(Cow::Borrowed(self.as_bytes()))
    }
}

impl Outside<'static> for String {
    fn shown(self) -> Shown<'static> {
        text(Cow::Owned(self.into_bytes()))
    }
}

impl<'a> Outside<'a> for &'a [u8] {
    fn shown(self) -> Shown<'a> {
        text(Cow::Borrowed(self))
    }
}

impl<'a> Outside<'a> for &'a Path {
    fn shown(self) -> Shown<'a> {
        path(self.as_os_str().as_bytes())
    }
}

impl<'a> Outside<'a> for &'a PathBuf {
    fn shown(self) -> Shown<'a> {
        path(self.as_os_str().as_bytes())
    }
}

impl<'a> Outside<'a> for &'a OsStr {
    fn shown(self) -> Shown<'a> {
        path(self.as_bytes())
    }
}

/// An error with its whole context chain (`{:#}`).
impl Outside<'static> for &anyhow::Error {
    fn shown(self) -> Shown<'static> {
        text(Cow::Owned(format!("{self:#}").into_bytes()))
    }
}

impl Outside<'static> for fmt::Arguments<'_> {
    fn shown(self) -> Shown<'static> {
        text(Cow::Owned(fmt::format(self).into_bytes()))
    }
}

/// Whether `c` is written as an escape: a control character (C0, DEL,
/// C1 with CSI `U+009B`) or a bidirectional mark, embedding, override or
/// isolate, which reorder the text around them. A newline stays unless
/// `one_line`.
fn escaped(c: char, one_line: bool) -> bool {
    (c.is_control() && (c != '\n' || one_line))
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// The one escaping function: `bytes` with what [`escaped`] names written
/// as `\u{…}` and every byte that is not UTF-8 as `\xNN`.
pub fn escape(bytes: &[u8], one_line: bool) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if escaped(c, one_line) {
                out.extend(c.escape_unicode());
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// JSON text (a record streamed as a line) with what [`escaped`] names
/// written as JSON escapes (`\u009b`, `\u202e`): still the same JSON, and
/// nothing in it acts on a terminal. serde_json escapes the characters
/// below 0x20 itself but writes C1 controls and bidi marks as they are.
pub fn json(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if escaped(c, true) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&escape(&self.bytes, self.one_line))
    }
}

/// What [`say!`](crate::say), [`tell!`](crate::tell) and
/// [`say_to!`](crate::say_to) print: numbers, text written in the program
/// (`&'static str`), and outside text escaped by [`shown`]. `String` is
/// not here: a string built at run time may hold outside text, so it is
/// printed as `shown(s)`. A borrowed `&str` that is not `'static` fails
/// as "does not live long enough": it too wants `shown(s)`.
pub trait Safe {}

impl Safe for Shown<'_> {}
impl Safe for &'static str {}
impl Safe for bool {}
impl<T: Safe + ?Sized> Safe for &T {}
macro_rules! numbers_are_safe {
    ($($t:ty),*) => { $(impl Safe for $t {})* };
}
numbers_are_safe!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64);

/// `arg` itself, when its type is [`Safe`]; the printing macros pass every
/// argument through it so that anything else does not compile.
pub fn safe<T: Safe + ?Sized>(arg: &T) -> &T {
    arg
}

/// Whether a format string takes its arguments only by position (`{}`,
/// `{:<10}`, `{:.2}`): a name (`{path}`, `{:w$}`) would print a variable
/// the [`Safe`] check never sees.
pub const fn positional_only(fmt: &str) -> bool {
    let b = fmt.as_bytes();
    let mut i = 0;
    let mut open = false;
    while i < b.len() {
        let c = b[i];
        if open {
            if c == b'}' {
                open = false;
            } else if c == b'$' {
                return false;
            }
        } else if c == b'{' {
            if i + 1 < b.len() && b[i + 1] == b'{' {
                i += 1;
            } else if i + 1 < b.len() && b[i + 1] != b'}' && b[i + 1] != b':' {
                return false;
            } else {
                open = true;
            }
        }
        i += 1;
    }
    true
}

/// A line on standard output: `say!("{} records", shown(path))`. Every
/// argument must be [`Safe`](crate::term::Safe); the format string takes
/// them by position only.
///
/// ```
/// use diskdash::term::shown;
/// let name = String::from("a\u{1b}[31m");
/// diskdash::say!("{} of {}: {}", 1, 2usize, shown(&name));
/// ```
///
/// A `String` does not compile:
///
/// ```compile_fail
/// diskdash::say!("{}", String::from("a\u{1b}[31m"));
/// ```
///
/// nor does a borrowed `&str`, nor a variable named in the format string:
///
/// ```compile_fail
/// let name = String::from("a\u{1b}[31m");
/// diskdash::say!("{}", name.as_str());
/// ```
///
/// ```compile_fail
/// let n = 1;
/// diskdash::say!("{n}");
/// ```
#[macro_export]
macro_rules! say {
    ($fmt:literal $(, $arg:expr)* $(,)?) => {{
        const _: () = assert!(
            $crate::term::positional_only($fmt),
            "print arguments by position, each `Safe` (outside text through `shown`)"
        );
        ::std::println!($fmt $(, $crate::term::safe(&$arg))*)
    }};
}

/// A line on standard error, like [`say!`](crate::say).
#[macro_export]
macro_rules! tell {
    ($fmt:literal $(, $arg:expr)* $(,)?) => {{
        const _: () = assert!(
            $crate::term::positional_only($fmt),
            "print arguments by position, each `Safe` (outside text through `shown`)"
        );
        ::std::eprintln!($fmt $(, $crate::term::safe(&$arg))*)
    }};
}

/// A line to a writer that reaches a terminal, like [`say!`](crate::say);
/// gives the writer's `io::Result`.
#[macro_export]
macro_rules! say_to {
    ($w:expr, $fmt:literal $(, $arg:expr)* $(,)?) => {{
        const _: () = assert!(
            $crate::term::positional_only($fmt),
            "print arguments by position, each `Safe` (outside text through `shown`)"
        );
        ::std::writeln!($w, $fmt $(, $crate::term::safe(&$arg))*)
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_bidi_and_bytes_that_are_not_utf8_are_shown_as_text() {
        assert_eq!(
            shown("a\u{1b}[31mred\u{7}\nb\tc\u{8}\r").to_string(),
            "a\\u{1b}[31mred\\u{7}\nb\\u{9}c\\u{8}\\u{d}"
        );
        // CSI as one character, DEL, and the bidi overrides and isolates
        assert_eq!(
            shown("\u{9b}31m\u{7f}x\u{202e}gpj.exe\u{2066}\u{2069}\u{200f}").to_string(),
            "\\u{9b}31m\\u{7f}x\\u{202e}gpj.exe\\u{2066}\\u{2069}\\u{200f}"
        );
        // ordinary text outside ASCII is kept
        assert_eq!(shown("µs café 測試").to_string(), "µs café 測試");
        // a path: bytes that are not UTF-8 as \xNN, a newline escaped
        let p = Path::new(OsStr::from_bytes(b"/t/\x1b[31m\xff\x9b/a\nb"));
        assert_eq!(shown(p).to_string(), "/t/\\u{1b}[31m\\xff\\x9b/a\\u{a}b");
        assert_eq!(shown(&p.to_path_buf()).to_string(), shown(p).to_string());
        // a name on one line
        assert_eq!(shown_line("a\nb\u{7}").to_string(), "a\\u{a}b\\u{7}");
        // escaping is idempotent: an escaped text is shown as it is
        let once = shown("\u{1b}x").to_string();
        assert_eq!(shown(&once).to_string(), once);
        // an error's whole chain, and width and alignment
        let e = anyhow::anyhow!("bad \u{7}").context("file `\u{1b}`");
        assert_eq!(shown(&e).to_string(), "file `\\u{1b}`: bad \\u{7}");
        assert_eq!(format!("[{:<7}]", shown("\u{7}")), "[\\u{7}  ]");
    }

    #[test]
    fn json_keeps_its_value_and_loses_what_acts_on_a_terminal() {
        let value = serde_json::json!({"id": "a\u{1b}[31m\u{9b}1m\u{202e}b\nc"});
        let line = json(&serde_json::to_string(&value).unwrap());
        assert_eq!(line, r#"{"id":"a\u001b[31m\u009b1m\u202eb\nc"}"#);
        let back: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(back, value);
    }

    proptest::proptest! {
        /// Whatever the bytes, the shown text is UTF-8 with no control
        /// character but the newline (none in a path) and no bidi control,
        /// and showing it again changes nothing.
        #[test]
        fn any_bytes_are_shown_inert(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64),
                                     chars in "[\\x00-\\x{a0}\\u{200e}\\u{202a}-\\u{202e}\\u{2066}-\\u{2069}a\\\\]{0,32}") {
            for input in [bytes.as_slice(), chars.as_bytes()] {
                for one_line in [false, true] {
                    let out = escape(input, one_line);
                    for c in out.chars() {
                        proptest::prop_assert!(!escaped(c, one_line), "{:?} in {:?}", c, out);
                    }
                    proptest::prop_assert_eq!(escape(out.as_bytes(), one_line), out.clone());
                }
            }
        }
    }

    #[test]
    fn a_format_string_takes_its_arguments_by_position_only() {
        assert!(positional_only("a {} b {:<10} c {:.2} {{x}} {{}}"));
        assert!(!positional_only("a {path}"));
        assert!(!positional_only("{0}"));
        assert!(!positional_only("{:w$}"));
        assert!(!positional_only("{:.p$}"));
    }

    /// Where a print macro or a terminal write is found: `file:line: what`.
    fn offences(rel: &str, text: &str) -> Vec<String> {
        let code = crate::layering::without_test_modules(&crate::layering::code_only(text));
        let mut found = Vec::new();
        let line_of = |at: usize| code[..at].matches('\n').count() + 1;
        let ident = |c: char| c.is_alphanumeric() || c == '_';
        // files whose writes reach a terminal (the site's writers are not)
        let terminal = rel.starts_with("cmd/")
            || rel.starts_with("run/")
            || ["check.rs", "import.rs", "main.rs", "error.rs"].contains(&rel);
        // println!, eprintln! and dbg! are clippy's (Cargo.toml's lints);
        // a write to a terminal's writer is not something a lint can tell
        let banned: &[&str] = if terminal {
            &["writeln!", "write!"]
        } else {
            &[]
        };
        for &m in banned {
            for (at, _) in code.match_indices(m) {
                if !code[..at].ends_with(ident) {
                    found.push(format!("{rel}:{}: {m}", line_of(at)));
                }
            }
        }
        // indicatif prints a bar's message and lines itself
        for call in [".println(", ".set_message("] {
            for (at, _) in code.match_indices(call) {
                let args = &code[at + call.len()..];
                let mut depth = 1;
                let end = args
                    .char_indices()
                    .find(|&(_, c)| {
                        match c {
                            '(' => depth += 1,
                            ')' => depth -= 1,
                            _ => {}
                        }
                        depth == 0
                    })
                    .map_or(args.len(), |(k, _)| k);
                if !args[..end].contains("shown(") {
                    found.push(format!("{rel}:{}: {call}..) without shown(", line_of(at)));
                }
            }
        }
        found
    }

    /// The rule: nothing in `src/` prints with `println!`, `print!`,
    /// `eprintln!`, `eprint!` or `dbg!` (clippy's `print_stdout`,
    /// `print_stderr` and `dbg_macro`, denied in Cargo.toml's lints); in
    /// the files that talk to the terminal (`cmd/`, `run/`, `check.rs`,
    /// `import.rs`, `main.rs`, `error.rs`) not with `write!`/`writeln!`
    /// either (this test); and a progress bar's `.println(..)`/
    /// `.set_message(..)` gets `shown(..)` text (this test). What
    /// is left are `say!`, `tell!` and `say_to!`, whose arguments the
    /// compiler holds to [`Safe`] types. Records streamed as JSON Lines are
    /// data, written whole with `write_all` through [`json`]. And every
    /// handle on standard output or error is listed here with its reason.
    #[test]
    fn only_the_checked_macros_print() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        crate::layering::rust_files(&src, &mut files);
        let mut found = Vec::new();
        let mut held = std::collections::BTreeMap::new();
        for file in files {
            let rel = file
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            // this file defines the macros; the layering test and the
            // `tests.rs` modules (a whole component, not a suffix) are test code
            if rel == "term.rs" || rel == "layering.rs" || file.ends_with("tests.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            found.extend(offences(&rel, &text));
            if handles(&text) > 0 {
                held.insert(rel, handles(&text));
            }
        }
        assert!(
            found.is_empty(),
            "print through say!/tell!/say_to! with outside text in shown(..) (see src/term.rs):\n{}",
            found.join("\n")
        );
        // Every handle on standard output or error, and why it prints no
        // outside text raw. A new one is printing around the macros: use
        // say!/tell!, or say_to! on the handle, and list it here.
        let allowed: std::collections::BTreeMap<String, usize> = [
            // the man page and shell completions: diskdash's own text
            ("cmd/man.rs", 1),
            ("cmd/completions.rs", 1),
            // the writer install_missing writes to with say_to!
            ("cmd/run.rs", 1),
            // the same writer in doctor's column, and the package
            // manager's own output sent to standard error
            ("run/doctor.rs", 2),
            // whether standard error is a terminal (the live display)
            ("run/progress.rs", 1),
            // records streamed as JSON Lines, through term::json
            ("run/runner.rs", 1),
        ]
        .into_iter()
        .map(|(f, n)| (f.to_string(), n))
        .collect();
        assert_eq!(held, allowed, "handles on stdout/stderr per file");
    }

    /// How often the code outside tests takes a handle on standard output
    /// or error (`io::stdout()`, `io::stderr()`).
    fn handles(text: &str) -> usize {
        let code = crate::layering::without_test_modules(&crate::layering::code_only(text));
        code.matches("io::stdout()").count() + code.matches("io::stderr()").count()
    }

    #[test]
    fn the_print_check_finds_each_way_to_print() {
        let text = r#"
fn f() {
    println!("{}", x);
    let s = "println!(in a string)";
    // eprintln!("in a comment")
    say!("{}", shown(x));
    writeln!(w, "x")?;
    bar.set_message(format!("{}", id));
    bar.println(shown(&line).to_string());
}
#[cfg(test)]
mod tests {
    fn g() { eprintln!("test output"); }
}
"#;
        // println! is clippy's to refuse
        assert_eq!(
            offences("run/x.rs", text),
            vec![
                "run/x.rs:7: writeln!",
                "run/x.rs:8: .set_message(..) without shown("
            ]
        );
        // the site's writers are not a terminal
        assert_eq!(
            offences("report/x.rs", text),
            vec!["report/x.rs:8: .set_message(..) without shown("]
        );
    }
}
