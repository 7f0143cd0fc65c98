//! The command a test ran, shown once: the runs' command lines compared
//! word by word, the words that differ replaced by `<varies>`, and what
//! each configuration ran there listed below it (most often the scratch
//! path: `--filename=/mnt/a/...` on one volume, `/mnt/b/...` on the next).

use std::collections::{BTreeMap, HashSet};

use super::Pair;

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
    let mut summary = Summary::default();
    for (config, line) in runs {
        summary.add(config, line);
    }
    summary.finish()
}

/// The command lines of a test's runs, taken one at a time and summarised
/// as [`summarise`] does, holding only what the page shows (and a hash of
/// each value, to count them): a test of 100,000 runs, each naming its own
/// scratch directory, is summarised without holding its lines.
#[derive(Default)]
pub struct Summary {
    /// The first [`SHAPES`] shapes, in order of first appearance.
    shapes: Vec<Shape>,
    /// The word counts of the shapes past those.
    more: HashSet<usize>,
}

/// The lines of one shape (one number of words) taken so far.
struct Shape {
    /// The first line's words.
    first: Vec<String>,
    /// Per word: whether a line differed from the first there.
    varies: Vec<bool>,
    /// Per word: the length of the first word's `name=` while every word
    /// there starts with it.
    prefix: Vec<Option<usize>>,
    /// The first [`CONFIGS`] configurations by name, each with the values
    /// of its runs at every varying word.
    kept: BTreeMap<String, BTreeMap<usize, Values>>,
    /// Every configuration with a line of this shape, by hash.
    configs: HashSet<u128>,
}

/// A configuration's distinct values at one word: the first ten in the
/// order met, and a hash of each, to count them.
#[derive(Default)]
struct Values {
    shown: Vec<String>,
    seen: HashSet<u128>,
}

impl Values {
    fn add(&mut self, word: &str) {
        if self.seen.insert(hash128(word)) && self.shown.len() < super::CAPPED_SHOWN {
            self.shown.push(word.to_string());
        }
    }
}

impl Summary {
    /// Takes one run's command line.
    pub fn add(&mut self, config: &str, line: &str) {
        let w = words(line);
        let at = match self.shapes.iter().position(|s| s.first.len() == w.len()) {
            Some(at) => at,
            None if self.shapes.len() < SHAPES => {
                self.shapes.push(Shape::new(&w));
                self.shapes.len() - 1
            }
            None => {
                self.more.insert(w.len());
                return;
            }
        };
        self.shapes[at].add(config, &w);
    }

    /// The shapes shown, and how many were left out.
    pub fn finish(self) -> (Vec<CommandView>, usize) {
        let views = self.shapes.into_iter().map(Shape::finish).collect();
        (views, self.more.len())
    }
}

impl Shape {
    fn new(first: &[&str]) -> Shape {
        Shape {
            first: first.iter().map(|w| w.to_string()).collect(),
            varies: vec![false; first.len()],
            // `--filename=/mnt/a` and `of=/mnt/a`: only the value may vary
            prefix: first
                .iter()
                .map(|w| w.split_once('=').map(|(k, _)| k.len() + 1))
                .collect(),
            kept: BTreeMap::new(),
            configs: HashSet::new(),
        }
    }

    fn add(&mut self, config: &str, w: &[&str]) {
        for (i, word) in w.iter().enumerate() {
            let first = &self.first[i];
            if let Some(p) = self.prefix[i] {
                if !word.starts_with(&first[..p]) {
                    self.prefix[i] = None;
                }
            }
            if !self.varies[i] && *word != first {
                // every run met so far had the first word here
                self.varies[i] = true;
                for values in self.kept.values_mut() {
                    values.entry(i).or_default().add(first);
                }
            }
        }
        self.configs.insert(hash128(config));
        if !self.kept.contains_key(config) {
            if self.kept.len() == CONFIGS {
                // kept are the first by name: a later name is only counted
                match self.kept.last_key_value() {
                    Some((last, _)) if config < last.as_str() => {
                        self.kept.pop_last();
                    }
                    _ => return,
                }
            }
            self.kept.insert(config.to_string(), BTreeMap::new());
        }
        let Some(values) = self.kept.get_mut(config) else {
            return;
        };
        for (i, word) in w.iter().enumerate() {
            if self.varies[i] {
                values.entry(i).or_default().add(word);
            }
        }
    }

    fn finish(self) -> CommandView {
        let first = &self.first;
        let mut line: Vec<String> = Vec::with_capacity(first.len());
        let mut varies = Vec::new();
        for (i, word) in first.iter().enumerate() {
            if !self.varies[i] {
                line.push(word.clone());
                continue;
            }
            let cut = self.prefix[i].unwrap_or(0);
            let prefix = &word[..cut];
            let name = match self.prefix[i] {
                Some(_) => prefix.trim_start_matches('-').trim_end_matches('='),
                None => match i.checked_sub(1).map(|j| first[j].as_str()) {
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
            line.push(format!("{prefix}{VARIES}"));
            let values = self
                .kept
                .iter()
                .map(|(config, at)| {
                    let v = &at[&i];
                    let shown: Vec<&str> = v.shown.iter().map(|s| &s[cut..]).collect();
                    Pair {
                        key: config.clone(),
                        value: super::capped_of(&shown, v.seen.len()),
                    }
                })
                .collect();
            let left = self.configs.len().saturating_sub(self.kept.len());
            varies.push(Varying {
                name,
                values,
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
}

/// A 128-bit hash of `text`: two texts collide with a chance of about one
/// in 10^38, so that a set of hashes tells texts apart as a set of the
/// texts would, in 16 bytes each.
fn hash128(text: &str) -> u128 {
    use std::hash::{Hash, Hasher};
    let half = |seed: u8| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        seed.hash(&mut h);
        text.hash(&mut h);
        u128::from(h.finish())
    };
    half(0) << 64 | half(1)
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
    fn configurations_met_in_any_order_are_listed_by_name() {
        let owned: Vec<(String, String)> = (0..25)
            .rev()
            .flat_map(|i| {
                (0..12).map(move |r| (format!("c{i:02}"), format!("fio --filename=/m/{i}/{r}")))
            })
            .collect();
        let lines: Vec<(&str, &str)> = owned.iter().map(|(c, l)| (&**c, &**l)).collect();
        let (views, _) = summarise(&lines);
        let v = &views[0].varies[0];
        assert_eq!(views[0].line, "fio --filename=<varies>");
        let keys: Vec<&str> = v.values.iter().map(|p| p.key.as_str()).collect();
        assert_eq!((keys.len(), keys[0], keys[19]), (20, "c00", "c19"));
        // the first ten of each configuration's twelve values, in the order met
        assert_eq!(
            v.values[3].value,
            "/m/3/0 / /m/3/1 / /m/3/2 / /m/3/3 / /m/3/4 / /m/3/5 / /m/3/6 / /m/3/7 / /m/3/8 / /m/3/9 / ... 2 more (see the runs)"
        );
        assert!(
            v.more.starts_with("... and 5 more configurations"),
            "{}",
            v.more
        );
    }

    #[test]
    fn a_word_that_varies_late_lists_what_came_before() {
        let (views, _) = summarise(&[
            ("a", "dd of=/x bs=1"),
            ("a", "dd of=/x bs=1"),
            ("b", "dd of=/x bs=1"),
            ("b", "dd of=/y bs=1"),
            ("b", "dd of=/y bs=1"),
        ]);
        assert_eq!(views[0].line, "dd of=<varies> bs=1");
        let v = &views[0].varies[0];
        assert_eq!(
            v.values,
            [
                Pair {
                    key: "a".into(),
                    value: "/x".into()
                },
                Pair {
                    key: "b".into(),
                    value: "/x / /y".into()
                }
            ]
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
