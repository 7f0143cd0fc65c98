//! The one Markdown table writer of the exports (`data/<study>.md`,
//! `data/summary.md`): every cell escaped as text, one alignment per column.

/// How a column's cells line up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A Markdown table: a header row, then rows of as many cells.
#[derive(Clone, Debug, Default)]
pub struct Table {
    columns: Vec<(String, Align)>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column headers and alignments.
    pub fn new<S: AsRef<str>>(columns: impl IntoIterator<Item = (S, Align)>) -> Table {
        Table {
            columns: columns
                .into_iter()
                .map(|(h, a)| (h.as_ref().to_string(), a))
                .collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row; missing cells are empty, extra cells are dropped.
    pub fn row<S: AsRef<str>>(&mut self, cells: impl IntoIterator<Item = S>) {
        let mut row: Vec<String> = cells
            .into_iter()
            .take(self.columns.len())
            .map(|c| c.as_ref().to_string())
            .collect();
        row.resize(self.columns.len(), String::new());
        self.rows.push(row);
    }

    /// The table as GitHub-flavoured Markdown, each line ending in a
    /// newline; cells escaped with [`md`] (an empty cell stays empty).
    pub fn render(&self) -> String {
        let line = |cells: &mut dyn Iterator<Item = String>| {
            let mut s = String::from("|");
            for c in cells {
                if c.is_empty() {
                    s.push_str("  |");
                } else {
                    s.push_str(&format!(" {c} |"));
                }
            }
            s.push('\n');
            s
        };
        let mut out = line(&mut self.columns.iter().map(|(h, _)| md(h)));
        out.push('|');
        for (_, a) in &self.columns {
            out.push_str(match a {
                Align::Left => "---|",
                Align::Right => "---:|",
            });
        }
        out.push('\n');
        for row in &self.rows {
            out.push_str(&line(&mut row.iter().map(|c| md(c))));
        }
        out
    }
}

/// Escapes text for a Markdown table cell: pipes, HTML markup, and the
/// Markdown punctuation (emphasis, code, links) that a blog engine would
/// otherwise render.
pub fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '|' | '\\' | '`' | '*' | '_' | '[' | ']' | '~' | '!' | '#' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_cells_render_as_the_text_they_hold() {
        assert_eq!(
            md("**fast** [x](javascript:alert(1)) `c` a|b <i>"),
            "\\*\\*fast\\*\\* \\[x\\](javascript:alert(1)) \\`c\\` a\\|b &lt;i&gt;"
        );
        assert_eq!(md("Local SSD (1 GB plan)"), "Local SSD (1 GB plan)");
        assert_eq!(md("my_metric\\"), "my\\_metric\\\\");
    }

    #[test]
    fn a_table_escapes_every_cell_and_aligns_its_columns() {
        let mut t = Table::new([("name", Align::Left), ("IOPS", Align::Right)]);
        t.row(["a|b", "1,000"]);
        t.row(["<i>"]);
        assert_eq!(
            t.render(),
            "| name | IOPS |\n|---|---:|\n| a\\|b | 1,000 |\n| &lt;i&gt; |  |\n"
        );
    }
}
