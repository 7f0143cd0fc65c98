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

/// Escapes text for Markdown: pipes, HTML markup, and the Markdown
/// punctuation (emphasis, code, links) that a blog engine would otherwise
/// render; braces, so that no Liquid tag (`{{ site.title }}`, `{%`) or Hugo
/// shortcode (`{{<`) runs; and the `@` of an e-mail address and the `.` of
/// `www.`, which GFM would turn into links. An `http://` or `https://` address in the text is written as
/// an autolink, `<https://...>`, whose characters no renderer unescapes:
/// a backslash there would stay in the address and break it, so it is
/// left as it is, with only what would end the autolink (spaces, `<`,
/// `>`, `|` in a table) percent-encoded, and its braces, which Liquid and
/// Hugo would read as a tag there as anywhere else.
pub fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(len) = url_len(rest) {
            out.push('<');
            for c in rest[..len].chars() {
                match c {
                    ' ' | '<' | '>' | '|' | '"' | '`' | '\\' | '{' | '}' => {
                        let mut buf = [0u8; 4];
                        for b in c.encode_utf8(&mut buf).bytes() {
                            out.push_str(&format!("%{b:02X}"));
                        }
                    }
                    c => out.push(c),
                }
            }
            out.push('>');
            rest = &rest[len..];
            continue;
        }
        let Some(c) = rest.chars().next() else {
            break;
        };
        match c {
            '|' | '\\' | '`' | '*' | '_' | '[' | ']' | '~' | '!' | '#' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            // Liquid (Jekyll, GitHub Pages) and Hugo read the file before
            // Markdown does: no brace of a name opens a tag or shortcode
            '{' => out.push_str("&#123;"),
            '}' => out.push_str("&#125;"),
            // GFM links a bare e-mail address and `www.` name: not in a name
            '@' => out.push_str("&#64;"),
            'w' | 'W'
                if rest.len() >= 4
                    && rest.as_bytes()[..4].eq_ignore_ascii_case(b"www.")
                    && !out.ends_with(|p: char| p.is_alphanumeric()) =>
            {
                out.push_str(&rest[..3]);
                out.push_str("&#46;");
                rest = &rest[4..];
                continue;
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The length of the `http://` or `https://` address `text` starts with,
/// as a reader would take it from running text: up to white space or
/// markup, without trailing punctuation (`.`, `,`, `;`, `:`, `!`, `?`,
/// quotes) or a `)` that closes a parenthesis opened before it; `None`
/// when `text` starts with no address (or a scheme alone).
fn url_len(text: &str) -> Option<usize> {
    let scheme = ["https://", "http://"].into_iter().find(|s| {
        text.len() > s.len()
            && text
                .get(..s.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(s))
    })?;
    let mut end = text
        .char_indices()
        .find(|(_, c)| {
            c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"' | '`' | '|')
        })
        .map_or(text.len(), |(i, _)| i);
    loop {
        let url = &text[..end];
        let last = url.chars().last()?;
        let opened = url.matches('(').count();
        let closed = url.matches(')').count();
        if matches!(
            last,
            '.' | ',' | ';' | ':' | '!' | '?' | '\'' | '*' | '_' | '~'
        ) || (last == ')' && closed > opened)
        {
            end -= last.len_utf8();
        } else {
            break;
        }
    }
    (end > scheme.len()).then_some(end)
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
    fn an_address_is_an_autolink_with_nothing_escaped_in_it() {
        // the ECB's address, inside a sentence's parentheses: its
        // underscores stay, the closing parenthesis and full stop do not
        // belong to it
        assert_eq!(
            md("source ECB (https://www.ecb.europa.eu/stats/policy_and_exchange_rates/x.html))."),
            "source ECB (<https://www.ecb.europa.eu/stats/policy_and_exchange_rates/x.html>))."
        );
        // a parenthesis the address opened is its own; a space or a pipe
        // in it cannot end the autolink
        assert_eq!(
            md("https://en.wikipedia.org/wiki/Disk_(storage), then"),
            "<https://en.wikipedia.org/wiki/Disk_(storage)>, then"
        );
        assert_eq!(md("http://a.b/c|d"), "<http://a.b/c>\\|d");
        // a scheme alone, or another scheme, is text
        assert_eq!(md("https:// x"), "https:// x");
        assert_eq!(md("javascript:alert(1)"), "javascript:alert(1)");
        assert_eq!(md("ftp://a_b"), "ftp://a\\_b");
        // text of several bytes a character is read by character
        assert_eq!(md("HDD · 32 GB · é"), "HDD · 32 GB · é");
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

    #[test]
    fn no_liquid_tag_hugo_shortcode_or_bare_autolink_survives() {
        let got =
            md("{{ site.title }} {% include x %} {{< ref >}} {{ me@example.org www.example.org");
        assert!(!got.contains("{{") && !got.contains("{%"), "{got}");
        assert!(!got.contains('@') && !got.contains("www."), "{got}");
        assert_eq!(
            md("a@b.c www.x.y Www.z {x}"),
            "a&#64;b.c www&#46;x.y Www&#46;z &#123;x&#125;"
        );
        // a word that merely ends in www is left alone
        assert_eq!(md("awww.ok"), "awww.ok");
        // an address stays a working autolink
        assert_eq!(md("see https://x.org/a@b"), "see <https://x.org/a@b>");
    }
}
