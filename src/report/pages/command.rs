//! The command a test ran, shown once: the runs' command lines compared
//! word by word, the words that differ replaced by `<varies>`, and what
//! each configuration ran there listed below it (most often the scratch
//! path: `--filename=/mnt/a/...` on one volume, `/mnt/b/...` on the next).

use std::collections::{BTreeMap, HashSet};

use super::{capped, Pair};

/// What a varying word stands for in the shared line.
pub const VARIES: &str = "<varies>";

/// Command lines of one shape (the same number of words), shown once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CommandView {
    /// The command with each varying word (or the value after its `=`)
    /// replaced by [`VARIES`].
    pub line: String,
    /// One per varying word, in command-line order.
    pub varies: Vec<Varying>,
}

/// A word of the command that differs between runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Varying {
    /// The option it belongs to (`filename`, `of`), else `word N`.
    pub name: String,
    /// Per configuration, by name: the values its runs had, for the first
    /// [`CONFIGS`] configurations.
    pub values: Vec<Pair>,
    /// How many configurations past those are left out, in words; empty
    /// when none is.
    pub more: String,
}

/// A configuration's command line, split into words.
type Split<'a> = (&'a str, Vec<&'a str>);

/// At most this many shapes are shown; the rest are counted.
const SHAPES: usize = 10;

/// At most this many configurations are listed under a varying word; the
/// rest are counted (each run's page has its whole command).
const CONFIGS: usize = 20;

/// Splits a command line into words as a shell would, keeping each word's
/// text as written (quotes included), so the line reads back unchanged.
fn words(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    let mut quote = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => escaped = true,
            (Some(_), _) => {}
            (None, c) if c.is_whitespace() => {
                if let Some(s) = start.take() {
                    out.push(&line[s..i]);
                }
                continue;
            }
            (None, '\\') => escaped = true,
            (None, '\'' | '"') => quote = Some(c),
            (None, _) => {}
        }
        start.get_or_insert(i);
    }
    if let Some(s) = start {
        out.push(&line[s..]);
    }
    out
}

/// The runs' `(configuration, command line)` pairs shown once per shape
/// (shapes in order of first appearance), and how many shapes were left out.
pub fn summarise(runs: &[(&str, &str)]) -> (Vec<CommandView>, usize) {
    // group by number of words: lines of one shape are compared word by word
    let mut shapes: Vec<(usize, Vec<Split>)> = Vec::new();
    for (config, line) in runs {
        let w = words(line);
        match shapes.iter_mut().find(|(n, _)| *n == w.len()) {
            Some((_, list)) => list.push((config, w)),
            None => shapes.push((w.len(), vec![(config, w)])),
        }
    }
    let more = shapes.len().saturating_sub(SHAPES);
    let views = shapes
        .into_iter()
        .take(SHAPES)
        .map(|(n, list)| shape(n, &list))
        .collect();
    (views, more)
}

fn shape(n: usize, list: &[Split]) -> CommandView {
    let first = &list[0].1;
    let mut line = Vec::with_capacity(n);
    let mut varies = Vec::new();
    for i in 0..n {
        let word = first[i];
        if list.iter().all(|(_, w)| w[i] == word) {
            line.push(word.to_string());
            continue;
        }
        // `--filename=/mnt/a` and `of=/mnt/a`: only the value varies
        let prefix = word
            .split_once('=')
            .map(|(k, _)| &word[..=k.len()])
            .filter(|p| list.iter().all(|(_, w)| w[i].starts_with(p)));
        let name = match prefix {
            Some(p) => p.trim_start_matches('-').trim_end_matches('='),
            None => match i.checked_sub(1).map(|j| first[j]) {
                Some(flag) if flag.starts_with('-') && line[i - 1] == flag => {
                    flag.trim_start_matches('-')
                }
                _ => "",
            },
        };
        let name = if name.is_empty() {
            format!("word {}", i + 1)
        } else {
            name.to_string()
        };
        let cut = prefix.map_or(0, str::len);
        line.push(format!("{}{VARIES}", prefix.unwrap_or("")));
        // each configuration's distinct values in the order first met; a
        // configuration of thousands of runs has as many scratch paths
        let mut per_config: BTreeMap<&str, (Vec<&str>, HashSet<&str>)> = BTreeMap::new();
        for (config, w) in list {
            let v = &w[i][cut..];
            let (vals, seen) = per_config.entry(config).or_default();
            if seen.insert(v) {
                vals.push(v);
            }
        }
        let left = per_config.len().saturating_sub(CONFIGS);
        varies.push(Varying {
            name,
            values: per_config
                .into_iter()
                .take(CONFIGS)
                .map(|(config, (vals, _))| Pair {
                    key: config.to_string(),
                    value: capped(&vals),
                })
                .collect(),
            more: match left {
                0 => String::new(),
                n => format!(
                    "... and {} (each run's page has its command)",
                    crate::format::count_of(n, "more configuration", "more configurations")
                ),
            },
        });
    }
    CommandView {
        line: line.join(" "),
        varies,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scratch_path_is_listed_per_configuration_not_repeated() {
        let (views, more) = summarise(&[
            ("SSD", "fio --name=x --filename=/mnt/a/r1/f --bs=4k"),
            ("SSD", "fio --name=x --filename=/mnt/a/r2/f --bs=4k"),
            ("HDD", "fio --name=x --filename=/mnt/b/r1/f --bs=4k"),
        ]);
        assert_eq!(more, 0);
        assert_eq!(
            views,
            [CommandView {
                line: "fio --name=x --filename=<varies> --bs=4k".into(),
                varies: vec![Varying {
                    name: "filename".into(),
                    values: vec![
                        Pair {
                            key: "HDD".into(),
                            value: "/mnt/b/r1/f".into()
                        },
                        Pair {
                            key: "SSD".into(),
                            value: "/mnt/a/r1/f / /mnt/a/r2/f".into()
                        },
                    ],
                    more: String::new(),
                }],
            }]
        );
    }

    #[test]
    fn past_twenty_configurations_the_rest_are_counted() {
        let owned: Vec<(String, String)> = (0..23)
            .map(|i| (format!("c{i:02}"), format!("fio --filename=/mnt/{i}/f")))
            .collect();
        let lines: Vec<(&str, &str)> = owned.iter().map(|(c, l)| (&**c, &**l)).collect();
        let (views, _) = summarise(&lines);
        let v = &views[0].varies[0];
        let keys: Vec<&str> = v.values.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(keys.len(), 20);
        assert_eq!((keys[0], keys[19]), ("c00", "c19"));
        assert_eq!(
            v.more,
            "... and 3 more configurations (each run's page has its command)"
        );
        let (views, _) = summarise(&lines[..21]);
        assert_eq!(
            views[0].varies[0].more,
            "... and 1 more configuration (each run's page has its command)"
        );
    }

    #[test]
    fn flags_quotes_and_shapes() {
        let (views, _) = summarise(&[
            ("a", "ioping -c 10 '/mnt/my disk'"),
            ("b", "ioping -c 10 /mnt/other"),
            ("a", "ioping -c 10 -q /mnt/x"),
        ]);
        assert_eq!(views.len(), 2);
        assert_eq!(views[0].line, "ioping -c 10 <varies>");
        assert_eq!(views[0].varies[0].name, "word 4");
        assert_eq!(views[0].varies[0].values[0].value, "'/mnt/my disk'");
        assert_eq!(views[1].line, "ioping -c 10 -q /mnt/x");
        assert!(views[1].varies.is_empty());
        let (views, _) = summarise(&[("a", "dd -o /a"), ("b", "dd -o /b")]);
        assert_eq!(views[0].varies[0].name, "o");
        assert_eq!(views[0].varies[0].more, "");
        assert_eq!(words(r#"a "b c" d\ e"#), ["a", r#""b c""#, r"d\ e"]);
    }
}
