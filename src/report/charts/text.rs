//! Text without a font library: estimated widths, cutting and wrapping to
//! fit, one-line labels, numbers in fixed precision and the generated
//! sentences of the `<desc>`.

/// `higher is better` or `lower is better`.
pub(super) fn better_words(higher_is_better: bool) -> &'static str {
    if higher_is_better {
        "higher is better"
    } else {
        "lower is better"
    }
}

/// The caller's description followed by the generated sentences that are not empty.
pub(super) fn join_desc(desc: &str, parts: &[String]) -> String {
    let mut out: Vec<&str> = vec![desc.trim()];
    out.extend(parts.iter().map(|p| p.trim()));
    out.retain(|p| !p.is_empty());
    out.join(" ")
}

/// A number as the pages write it ([`crate::format::number`]): three
/// significant digits, four from 1,000 up, with thousands separators.
pub(super) fn fmt_num(v: f64) -> String {
    crate::format::number(v)
}

/// A label on one line: control characters become spaces.
pub(super) fn one_line(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.trim().to_string();
    }
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// Estimated width of `s` at `px`; SVG has no text metrics without fonts, so
/// this errs wide: CJK and emoji count a full em, capitals and digits more than lower case.
pub(super) fn text_width(s: &str, px: f64) -> f64 {
    s.chars().map(em).sum::<f64>() * px
}

/// The estimated width of one character, in ems (see [`text_width`]).
fn em(c: char) -> f64 {
    // labels are mostly ASCII: a table for it, the ranges for the rest
    if c.is_ascii() {
        ASCII_EMS[c as usize]
    } else {
        wide_em(c)
    }
}

/// [`em`] of every ASCII character.
const ASCII_EMS: [f64; 128] = {
    let mut t = [0.0; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = ascii_em(b as u8);
        b += 1;
    }
    t
};

/// The width of an ASCII character, in ems.
const fn ascii_em(b: u8) -> f64 {
    match b {
        b'i' | b'j' | b'l' | b't' | b'f' | b'r' | b'I' | b'.' | b',' | b':' | b';' | b'\''
        | b'|' | b'!' | b' ' | b'(' | b')' => 0.38,
        b'm' | b'w' | b'M' | b'W' | b'@' => 0.98,
        b'A'..=b'Z' | b'0'..=b'9' => 0.72,
        _ => 0.62,
    }
}

/// The width of a character beyond ASCII, in ems: CJK and emoji a full one.
fn wide_em(c: char) -> f64 {
    match c {
        '\u{1100}'..='\u{115F}'
        | '\u{2E80}'..='\u{A4CF}'
        | '\u{AC00}'..='\u{D7A3}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FE30}'..='\u{FE4F}'
        | '\u{FF00}'..='\u{FF60}'
        | '\u{FFE0}'..='\u{FFE6}'
        | '\u{1F300}'..='\u{1FAFF}'
        | '\u{20000}'..='\u{3FFFD}' => 1.0,
        _ => 0.62,
    }
}

/// `ems` (the ems of some text, summed from the left) with the ems of `s`
/// added one character at a time: the sum [`text_width`] makes of the
/// text followed by `s`, to the last bit, without going over the text again.
fn ems_after(ems: f64, s: &str) -> f64 {
    s.chars().fold(ems, |sum, c| sum + em(c))
}

/// `s` broken at spaces into lines that fit `max` at `px`; a word too long
/// for a line is cut with an ellipsis.
pub(super) fn wrap(s: &str, max: f64, px: f64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if text_width(&candidate, px) <= max || line.is_empty() {
            line = candidate;
        } else {
            lines.push(fit(&line, max, px));
            line = word.to_string();
        }
    }
    if !line.is_empty() {
        lines.push(fit(&line, max, px));
    }
    lines
}

/// `s` cut to fit `max` at `px`, with an ellipsis in the middle when cut:
/// offerings of one provider often differ only at the end of their names
/// ("... Standard (SATA)" vs "... High-Performance (SSD)"), so both ends stay.
pub(super) fn fit(s: &str, max: f64, px: f64) -> String {
    if text_width(s, px) <= max {
        return s.to_string();
    }
    let room = max - text_width("…", px);
    let chars: Vec<char> = s.chars().collect();
    let mut head = String::new();
    let mut tail: Vec<char> = Vec::new();
    let (mut i, mut j) = (0, chars.len());
    // take characters alternately from the front and the back while they fit
    while i < j {
        let front = tail.len() >= head.chars().count();
        let c = if front { chars[i] } else { chars[j - 1] };
        let width = text_width(&head, px)
            + text_width(&tail.iter().rev().collect::<String>(), px)
            + text_width(&c.to_string(), px);
        if width > room {
            break;
        }
        if front {
            head.push(c);
            i += 1;
        } else {
            tail.push(c);
            j -= 1;
        }
    }
    let tail: String = tail.iter().rev().collect();
    format!("{}…{}", head.trim_end(), tail.trim_start())
}

/// `s` on at most `lines` lines that each fit `max` at `px`: broken at spaces,
/// inside a word only when the word alone is too wide, and cut at the end with
/// an ellipsis only when even `lines` lines do not hold it all. Names keep
/// their whole beginning and, when they fit, their end, which is where
/// configurations of one provider differ.
pub(super) fn wrap_lines(s: &str, max: f64, px: f64, lines: usize) -> Vec<String> {
    // widths are summed as the text grows, character by character from the
    // left as `text_width` sums them, so every comparison is the one that
    // measuring each candidate afresh would make
    let lines = lines.max(1);
    // words parted by one ordinary space that fit as they are: a line of
    // its own, which is what the breaking below would make of them, with
    // the same sums, since every word and line is a part of the whole
    let single_spaced = !s.starts_with(' ')
        && !s.ends_with(' ')
        && !s.contains("  ")
        && !s
            .chars()
            .any(|c| c.is_whitespace() && c != ' ' && c != '\u{a0}');
    if !s.is_empty() && single_spaced && px > 0.0 && ems_after(0.0, s) * px <= max {
        return vec![s.to_string()];
    }
    // words wider than a line are split into pieces that fit
    // split at ordinary spaces only, so that a no-break space keeps words together
    let mut words: Vec<&str> = Vec::new();
    for word in s
        .split(|c: char| c.is_whitespace() && c != '\u{a0}')
        .filter(|w| !w.is_empty())
    {
        let (mut start, mut ems) = (0, 0.0);
        for (i, c) in word.char_indices() {
            let next = ems + em(c);
            if i > start && next * px > max {
                words.push(&word[start..i]);
                start = i;
                ems = em(c);
            } else {
                ems = next;
            }
        }
        if start < word.len() {
            words.push(&word[start..]);
        }
    }
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut line_ems = 0.0;
    let mut i = 0;
    while i < words.len() {
        if line.is_empty() {
            line.push_str(words[i]);
            line_ems = ems_after(0.0, words[i]);
            i += 1;
            continue;
        }
        let candidate = ems_after(line_ems + em(' '), words[i]);
        if candidate * px <= max {
            line.push(' ');
            line.push_str(words[i]);
            line_ems = candidate;
            i += 1;
        } else {
            out.push(std::mem::take(&mut line));
            if out.len() == lines - 1 {
                // the last line takes everything left, cut at the end if need be
                let tail = words[i..].join(" ");
                line = cut_end(&tail, max, px);
                i = words.len();
            }
        }
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}

/// `s` cut at the end with an ellipsis to fit `max` at `px`.
pub(super) fn cut_end(s: &str, max: f64, px: f64) -> String {
    if text_width(s, px) <= max {
        return s.to_string();
    }
    let room = max - text_width("…", px);
    let (mut end, mut ems) = (s.len(), 0.0);
    for (i, c) in s.char_indices() {
        let next = ems + em(c);
        if next * px > room {
            end = i;
            break;
        }
        ems = next;
    }
    format!("{}…", s[..end].trim_end())
}
