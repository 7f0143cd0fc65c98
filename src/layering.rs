//! The top-level modules form no import cycle: reads `src/`, collects every
//! `crate::<module>` path each top-level module names outside its tests, and
//! looks for a cycle in that graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

#[test]
fn top_level_modules_form_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = graph_of(&src);
    assert!(graph.len() > 5, "read too few modules: {graph:?}");
    // shown with `cargo test --lib layering -- --nocapture`
    println!("{}", describe(&graph));
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "import cycle between top-level modules: {}\n\ngraph:\n{}",
            cycle.join(" -> "),
            describe(&graph)
        );
    }
}

#[test]
fn a_cycle_is_found_and_printed() {
    let mut g = Graph::new();
    fn edge(g: &mut Graph, a: &str, b: &str) {
        g.entry(a.into()).or_default().insert(b.into());
        g.entry(b.into()).or_default();
    }
    edge(&mut g, "report", "analysis");
    edge(&mut g, "analysis", "format");
    edge(&mut g, "format", "units");
    assert_eq!(find_cycle(&g), None);
    edge(&mut g, "format", "analysis");
    assert_eq!(
        find_cycle(&g).unwrap(),
        vec!["analysis", "format", "analysis"]
    );
    g.get_mut("format").unwrap().remove("analysis");
    assert_eq!(find_cycle(&g), None);
}

#[test]
fn uses_are_read_from_paths_groups_and_not_from_tests_or_comments() {
    let text = r#"
//! crate::docs is not a use
use crate::{alpha, beta::{x, y}};
use crate::gamma::Thing;
fn f() { let s = "crate::in_string {"; let c = '{'; crate::delta::call(); }
/// crate::doc_comment
// crate::line_comment
/* crate::block_comment */
#[cfg(test)]
mod tests {
    use crate::epsilon;
    fn g() { let _ = "}"; }
}
fn h() { crate::zeta::call() }
"#;
    let got = uses_in(text);
    let want: BTreeSet<String> = ["alpha", "beta", "gamma", "delta", "zeta"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(got, want);
}

fn describe(graph: &Graph) -> String {
    graph
        .iter()
        .map(|(m, uses)| {
            let uses: Vec<&str> = uses.iter().map(String::as_str).collect();
            format!("  {m} -> {}\n", uses.join(", "))
        })
        .collect()
}

/// The graph of top-level modules: each to the modules it names.
fn graph_of(src: &Path) -> Graph {
    let mut graph = Graph::new();
    let mut files = Vec::new();
    rust_files(src, &mut files);
    for file in files {
        let rel = file.strip_prefix(src).unwrap();
        let first = rel.components().next().unwrap().as_os_str();
        let module = first.to_string_lossy().trim_end_matches(".rs").to_string();
        let name = rel.file_name().unwrap().to_string_lossy();
        // main.rs is the binary (it names `diskdash::`); tests.rs and this
        // file are tests.
        if ["main", "lib", "layering"].contains(&module.as_str()) || name == "tests.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let uses = graph.entry(module.clone()).or_default();
        uses.extend(uses_in(&text).into_iter().filter(|m| *m != module));
    }
    let named: Vec<String> = graph.values().flatten().cloned().collect();
    for m in named {
        graph.entry(m).or_default();
    }
    graph
}

pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source with comments, string and character literals blanked out, so
/// that neither a word nor a brace in them counts.
pub(crate) fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').unwrap_or(rest.len());
            i += end;
        } else if rest.starts_with("/*") {
            let end = rest.find("*/").map_or(rest.len(), |e| e + 2);
            i += end;
            out.push(' ');
        } else if let Some(len) = raw_string_len(rest) {
            i += len;
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            i = j + 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '\u{7f}') or a lifetime ('a).
            let close = if rest[1..].starts_with('\\') {
                rest[2..].find('\'').map(|e| e + 2)
            } else {
                let c = rest[1..].chars().next().map_or(0, char::len_utf8);
                (rest[1 + c..].starts_with('\'')).then_some(1 + c)
            };
            match close {
                Some(c) => {
                    i += c + 1;
                    out.push_str("' '");
                }
                None => {
                    i += 1;
                    out.push('\'');
                }
            }
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The length of a raw string literal (`r"…"`, `r#"…"#`, `br"…"`) at the
/// start of `s`, if one starts there.
fn raw_string_len(s: &str) -> Option<usize> {
    let after_prefix = s.strip_prefix("br").or_else(|| s.strip_prefix('r'))?;
    let hashes = after_prefix.len() - after_prefix.trim_start_matches('#').len();
    let body = after_prefix[hashes..].strip_prefix('"')?;
    let close = format!("\"{}", "#".repeat(hashes));
    let end = body.find(&close)?;
    Some(s.len() - body.len() + end + close.len())
}

/// The source without `#[cfg(test)]` modules written inline.
pub(crate) fn without_test_modules(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        let trimmed = after.trim_start();
        let is_mod = trimmed.starts_with("mod ") || trimmed.starts_with("pub(crate) mod ");
        let brace = trimmed.find(['{', ';']);
        match brace {
            Some(b) if is_mod && trimmed.as_bytes()[b] == b'{' => {
                let body = &trimmed[b..];
                let mut depth = 0usize;
                let mut end = body.len();
                for (k, c) in body.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                rest = &body[end..];
            }
            _ => rest = after,
        }
    }
    out.push_str(rest);
    out
}

/// The top-level modules a file's code names as `crate::<module>`.
fn uses_in(text: &str) -> BTreeSet<String> {
    let code = without_test_modules(&code_only(text));
    let mut found = BTreeSet::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue; // `$crate::` or `my_crate::`
        }
        let rest_trim = rest.trim_start();
        if let Some(group) = rest_trim.strip_prefix('{') {
            // `crate::{a, b::{c, d}}`: the names at depth one.
            let mut depth = 1;
            let mut word = String::new();
            let mut at_start = true;
            for c in group.chars() {
                let in_word = c.is_alphanumeric() || c == '_';
                if depth == 1 && at_start && in_word {
                    word.push(c);
                } else if !word.is_empty() {
                    found.insert(std::mem::take(&mut word));
                    at_start = false;
                }
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 1 => at_start = true,
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
            }
            if !word.is_empty() {
                found.insert(word);
            }
        } else {
            let word: String = rest_trim
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !word.is_empty() && word != "self" {
                found.insert(word);
            }
        }
    }
    found
}

/// A cycle in the graph, as the modules along it with the first repeated at
/// the end; None when there is none.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit<'g>(
        g: &'g Graph,
        m: &'g str,
        marks: &mut BTreeMap<&'g str, Mark>,
        path: &mut Vec<&'g str>,
    ) -> Option<Vec<String>> {
        marks.insert(m, Mark::Open);
        path.push(m);
        for next in g.get(m).into_iter().flatten() {
            match marks.get(next.as_str()).copied().unwrap_or(Mark::New) {
                Mark::Open => {
                    let from = path.iter().position(|p| *p == next).unwrap();
                    let mut cycle: Vec<String> =
                        path[from..].iter().map(|s| s.to_string()).collect();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Mark::New => {
                    if let Some(c) = visit(g, next, marks, path) {
                        return Some(c);
                    }
                }
                Mark::Done => {}
            }
        }
        path.pop();
        marks.insert(m, Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for m in graph.keys() {
        if marks.get(m.as_str()).copied().unwrap_or(Mark::New) == Mark::New {
            if let Some(c) = visit(graph, m, &mut marks, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}
