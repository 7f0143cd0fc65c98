//! bonnie++ 1.0x's text table, read when no CSV line accompanies it (the
//! common paste before about 2010), also wrapped by a mail client.
//!
//! ```text
//! Version  1.03       ------Sequential Output------ --Sequential Input- --Random-
//!                     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
//! Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
//! mb02             4G 15293  74 22200  12  5624   2  4793  22 38244   9 100.6   0
//!                     ------Sequential Create------ --------Random Create--------
//!                     -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--
//!               files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
//!                  16 22330 100 +++++ +++ 17886 100 20147  93 +++++ +++ 15523  92
//! ```
//!
//! Each data row becomes the 27-field CSV line bonnie++ 1.0x would have
//! printed for it, so the table and the CSV give the same metrics. A row
//! with every cell is read by its words, also when a mail client broke it
//! onto two lines; a row with empty cells (`-f` skips the per-character
//! tests) is read by column, each cell under the header word it ends under.
//! bon_csv2txt's table (one row per run, `-x 2` gives two) prints the
//! machine name before the file count of each file-test row (`Gaia  16
//! 340  97 ...`), and tables put together by hand from it may drop the word
//! `Version` from the title (`1.02b   ------Sequential Output------`): both
//! are read.
//!
//! The 1.96 and 1.97 tables are read too, as the 48 columns of their CSV
//! format: a `Concurrency` line under the title, full K/sec figures, and a
//! `Latency` line under each row (its six values under the six `%CP`
//! columns). Their file-test figures are rates: pastes that hold the table
//! and the CSV line of the same run agree figure for figure. The 2.0x
//! tables are not read: 2.00a prints the file count where file-test rates
//! belong (`20480` six times for `-n 20`) and rounds throughput to `1.4g`,
//! so only their CSV line is trusted.

use crate::tools::number::BadNumber;

/// A text table found in the output, as CSV lines of format 1.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Table {
    /// The version of its title line (`1.03`).
    pub(super) version: String,
    /// Index of the title line, and of the line after the table.
    pub(super) lines: (usize, usize),
    /// One synthesised CSV line per machine row.
    pub(super) csv: Vec<String>,
    /// The machine names as the table prints them (cut to 16 characters).
    pub(super) machines: Vec<String>,
    /// Of each machine, the line ranges its rows take (its I/O row and its
    /// file-test row, each one or two lines).
    pub(super) rows: Vec<Vec<(usize, usize)>>,
}

/// The title's version of a table that is read (`Version  1.03
/// ------Sequential Output`, also `1.02b   ------Sequential Output` without
/// the word; `Version  1.96`, `1.97`): 1.0x, 1.96 and 1.97, not 2.0x.
fn title_version(line: &str) -> Option<&str> {
    super::table_version(line.trim())
        .filter(|v| v.starts_with("1.0") || *v == "1.96" || *v == "1.97")
}

/// The six latencies of a 1.9x `Latency  15626us  4693ms ...` line under
/// `header`, each under the `%CP` column it ends under (within three
/// characters; empty where the test did not run); `None` when `line` is no
/// such line.
fn latencies(line: &str, header: &str) -> Option<Vec<String>> {
    let words = word_ends(line);
    let (_, first) = words.first()?;
    if *first != "Latency" {
        return None;
    }
    let values = words.get(1..).unwrap_or_default();
    if values.len() == 6 {
        return Some(values.iter().map(|(_, w)| w.to_string()).collect());
    }
    let ends: Vec<usize> = word_ends(header)
        .into_iter()
        .filter(|(_, w)| *w == "%CP")
        .map(|(end, _)| end)
        .collect();
    if ends.len() != 6 {
        return None;
    }
    let mut cells = vec![String::new(); 6];
    for (end, w) in values {
        let k = ends.iter().position(|c| c.abs_diff(*end) <= 3)?;
        let cell = cells.get_mut(k).filter(|c| c.is_empty())?;
        *cell = w.to_string();
    }
    Some(cells)
}

/// A 1.9x file-test label (`16`, `16:100000:16/64`) as the five CSV columns
/// bonnie++ 1.96/1.97 print: count, max size, min size, an empty num_dirs
/// and the directory count in file_chunk_size (as their CSV has it).
fn file_columns(label: &str) -> [String; 5] {
    let (n, rest) = label.split_once(':').unwrap_or((label, ""));
    let (sizes, dirs) = rest.split_once('/').unwrap_or((rest, ""));
    let (max, min) = sizes.split_once(':').unwrap_or((sizes, ""));
    [n, max, min, "", dirs].map(str::to_string)
}

/// A data cell: a number, `+++++`/`+++`, a size.
fn is_cell(w: &str) -> bool {
    (!w.is_empty() && w.bytes().all(|b| b == b'+'))
        || (w.starts_with(|c: char| c.is_ascii_digit())
            && w.bytes()
                .all(|b| b.is_ascii_digit() || b".:/kKmMgGT".contains(&b)))
}

/// A size cell of the machine row (`4G`, `3400M`, `1G:32k`).
fn is_size(w: &str) -> bool {
    let head = w.split(':').next().unwrap_or(w);
    head.len() > 1
        && head.ends_with(['K', 'M', 'G', 'T', 'k', 'm', 'g', 't'])
        && head
            .get(..head.len() - 1)
            .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
}

/// Where the file count stands in a file-test row: first (`16 22330 100
/// ...`), or after the machine name in the table bon_csv2txt prints and in
/// tables assembled from it (`Gaia  16   340  97 ...`, `can (v2)  16  44
/// 0 ...`), where the row's last 13 words are the count and 12 cells.
fn files_at(words: &[&str]) -> usize {
    let named = words
        .first()
        .is_some_and(|w| !w.starts_with(|c: char| c.is_ascii_digit()));
    match words.len().checked_sub(13) {
        Some(k) if named && k > 0 && words.iter().skip(k).all(|w| is_cell(w)) => k,
        _ => 0,
    }
}

/// End columns (exclusive) of the words of `line`.
fn word_ends(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push((i, line.get(s..i).unwrap_or_default()));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((line.len(), line.get(s..).unwrap_or_default()));
    }
    out
}

/// One section's rows: the header line (`... K/sec %CP` or `files /sec
/// %CP`) and the data rows below it, each as its label words and 12 cells
/// (empty where the row has none).
struct Section {
    /// Each row's label, cells, and the lines it took (start, end).
    rows: Vec<(String, Vec<String>, (usize, usize))>,
    next: usize,
}

/// Reads the rows under a header at `lines[at]`; `sizes` says the rows are
/// named by a machine name and a size (else by the file count alone). A
/// row that has its label (machine and size, or a file count) but a word
/// where a figure belongs that is none (`-15293`, `nan`) is an error naming
/// the row and the word.
fn section(lines: &[&str], at: usize, sizes: bool) -> Result<Section, BadNumber> {
    let header = lines.get(at).copied().unwrap_or_default();
    let mut i = at + 1;
    let columns: Vec<usize> = word_ends(header)
        .iter()
        .filter(|(_, w)| matches!(*w, "K/sec" | "/sec" | "%CP"))
        .map(|(end, _)| *end)
        .collect();
    // a header broken by a mail client: `/sec %CP` on a line of its own
    let wrapped = columns.len() < 12;
    if wrapped && lines.get(i).is_some_and(|l| l.trim().starts_with("/sec")) {
        i += 1;
    }
    let mut rows = Vec::new();
    while let Some(line) = lines.get(i) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() || line.contains("------") {
            break;
        }
        // label words: everything before the first cell (a machine name may
        // hold spaces: `compiled in  15872M ...`)
        let first_cell = if sizes {
            words.iter().position(|w| is_size(w))
        } else {
            Some(files_at(&words))
        };
        let Some(first_cell) = first_cell.filter(|&k| !sizes || k > 0) else {
            break;
        };
        let label_end = first_cell;
        // a machine row is named by its machine and size; a file-test row
        // by its file count alone (bon_csv2txt prints the machine before it)
        let label = if sizes {
            words.get(..=label_end).unwrap_or_default().join(" ")
        } else {
            words
                .get(label_end)
                .copied()
                .unwrap_or_default()
                .to_string()
        };
        let has_label = sizes
            || words
                .get(label_end)
                .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit()));
        let after = words.get(label_end + 1..).unwrap_or_default();
        // shaped like a row (half a row of figures at least), so a word in it
        // that is no figure is a bad cell, not the end of the table
        let row_shaped = after.len() >= 6 && after.iter().filter(|w| is_cell(w)).count() >= 6;
        if has_label && row_shaped {
            if let Some((k, w)) = after.iter().enumerate().find(|(_, w)| !is_cell(w)) {
                let field = format!("cell {} of the `{label}` row of bonnie++'s table", k + 1);
                return Err(BadNumber::new(&field, w));
            }
        }
        let mut cells: Vec<String> = match after {
            c if c.iter().all(|w| is_cell(w)) => c.iter().map(|s| s.to_string()).collect(),
            _ => break,
        };
        let row_start = i;
        i += 1;
        if cells.len() < 12 {
            // broken onto the next line by a mail client?
            let next: Vec<&str> = lines
                .get(i)
                .map(|l| l.split_whitespace().collect())
                .unwrap_or_default();
            let next_cells = !next.is_empty() && next.iter().all(|w| is_cell(w));
            // the rest of the row, with a word that is no figure in it
            let completes = cells.len() + next.len() == 12;
            if has_label && completes && !next_cells && next.iter().any(|w| is_cell(w)) {
                if let Some((k, w)) = next.iter().enumerate().find(|(_, w)| !is_cell(w)) {
                    let field = format!(
                        "cell {} of the `{label}` row of bonnie++'s table",
                        cells.len() + k + 1
                    );
                    return Err(BadNumber::new(&field, w));
                }
            }
            if next_cells && completes {
                cells.extend(next.iter().map(|s| s.to_string()));
                i += 1;
            } else if !wrapped && columns.len() == 12 {
                cells = by_column(line, label_end + 1, &columns);
            }
        }
        if cells.len() != 12 {
            break;
        }
        rows.push((label, cells, (row_start, i)));
    }
    Ok(Section { rows, next: i })
}

/// The row's cells placed under the header columns they end under (within
/// two characters); a column without a cell is empty.
fn by_column(line: &str, skip: usize, columns: &[usize]) -> Vec<String> {
    let mut cells = vec![String::new(); columns.len()];
    for (end, word) in word_ends(line).into_iter().skip(skip) {
        let nearest = columns
            .iter()
            .enumerate()
            .min_by_key(|(_, &c)| c.abs_diff(end))
            .filter(|(_, &c)| c.abs_diff(end) <= 2);
        match nearest {
            Some((k, _)) if cells.get(k).is_some_and(String::is_empty) => {
                if let Some(cell) = cells.get_mut(k) {
                    *cell = word.to_string();
                }
            }
            _ => return Vec::new(),
        }
    }
    cells
}

/// Every 1.0x text table in `lines` (mail quoting already removed); an
/// error when a row of one holds a figure that is not a number.
pub(super) fn tables(lines: &[&str]) -> Result<Vec<Table>, BadNumber> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(line) = lines.get(i) {
        let Some(version) = title_version(line) else {
            i += 1;
            continue;
        };
        let start = i;
        let v19 = !version.starts_with("1.0");
        // `Concurrency   1     -Per Chr- ...` (1.9x)
        let concurrency = lines
            .get(i + 1)
            .and_then(|l| l.trim().strip_prefix("Concurrency"))
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_default();
        let Some(io_at) = (i + 1..(i + 6).min(lines.len()))
            .find(|&k| lines.get(k).is_some_and(|l| l.contains("K/sec %CP")))
        else {
            i += 1;
            continue;
        };
        let io = section(lines, io_at, true)?;
        let files_at = (io.next..(io.next + 7).min(lines.len())).find(|&k| {
            lines
                .get(k)
                .is_some_and(|l| l.trim_start().starts_with("files") && l.contains("/sec %CP"))
        });
        let files = match files_at {
            Some(k) => Some(section(lines, k, false)?),
            None => None,
        };
        let mut end = files.as_ref().map_or(io.next, |f| f.next);
        let mut csv = Vec::new();
        let mut machines = Vec::new();
        let mut rows = Vec::new();
        let io_header = lines.get(io_at).copied().unwrap_or_default();
        let files_header = files_at
            .and_then(|k| lines.get(k))
            .copied()
            .unwrap_or_default();
        for (k, (label, cells, io_lines)) in io.rows.iter().enumerate() {
            let (name, size) = label.rsplit_once(' ').unwrap_or((label, ""));
            let file_row = files.as_ref().and_then(|f| f.rows.get(k));
            let mut taken = vec![*io_lines];
            let name = name.trim().to_string();
            let fields = if v19 {
                // the 48 columns of format 1.96/1.97, latencies from the
                // `Latency` line under each row
                let mut latency = |(_, to): (usize, usize), header: &str| {
                    let found = lines.get(to).and_then(|l| latencies(l, header));
                    if found.is_some() {
                        taken.push((to, to + 1));
                        end = end.max(to + 1);
                    }
                    found.unwrap_or_else(|| vec![String::new(); 6])
                };
                let io_latency = latency(*io_lines, io_header);
                let mut fields = vec![
                    version.to_string(),
                    version.to_string(),
                    name.clone(),
                    concurrency.to_string(),
                    String::new(),
                    size.to_string(),
                    String::new(),
                ];
                fields.extend(cells.iter().cloned());
                let file_latency = match file_row {
                    Some((n, c, file_lines)) => {
                        fields.extend(file_columns(n));
                        fields.extend(c.iter().cloned());
                        let l = latency(*file_lines, files_header);
                        taken.push(*file_lines);
                        l
                    }
                    None => {
                        fields.extend(std::iter::repeat_n(String::new(), 17));
                        vec![String::new(); 6]
                    }
                };
                fields.extend(io_latency);
                fields.extend(file_latency);
                fields
            } else {
                let mut fields = vec![name.clone(), size.to_string()];
                fields.extend(cells.iter().cloned());
                match file_row {
                    Some((n, c, file_lines)) => {
                        fields.push(n.clone());
                        fields.extend(c.iter().cloned());
                        taken.push(*file_lines);
                    }
                    None => fields.extend(std::iter::repeat_n(String::new(), 13)),
                }
                fields
            };
            taken.sort_unstable();
            rows.push(taken);
            machines.push(name);
            csv.push(fields.join(","));
        }
        if !csv.is_empty() {
            out.push(Table {
                version: version.to_string(),
                lines: (start, end),
                csv,
                machines,
                rows,
            });
        }
        i = end.max(i + 1);
    }
    Ok(out)
}
