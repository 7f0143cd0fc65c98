//! `study.toml`: what a study's records cannot say about it (its title,
//! summary, author and date), for its post, its page and the index.
//! Format and rules: `docs/publishing.md`, "Titles: study.toml".

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Result};
use serde::Deserialize;

/// The name a study file has: `study.toml`.
pub const FILE_NAME: &str = "study.toml";

/// What a study file says of its study; every field optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudyInfo {
    /// The title, for the post's heading, the study page and the index.
    pub title: Option<String>,
    /// A sentence or two under the title.
    pub summary: Option<String>,
    /// Who measured or wrote it.
    pub author: Option<String>,
    /// The post's date, `YYYY-MM-DD` (the front matter's `date`); the
    /// newest measurement's date without it.
    pub date: Option<String>,
}

/// A study file as written: the study it is for and what it says.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StudyFile {
    study: String,
    #[serde(flatten)]
    info: StudyInfo,
}

/// The study a study file's text is for and what it says; `path` names the
/// file in errors, which say what was expected.
pub fn parse(text: &str, path: &Path) -> Result<(String, StudyInfo)> {
    let file: StudyFile = toml::from_str(text).map_err(|e| {
        anyhow::anyhow!(
            "study file `{}`: {} (expected `study = \"<the records' study>\"` and any of \
             `title`, `summary`, `author`, `date = \"YYYY-MM-DD\"`, each a string)",
            path.display(),
            e.message()
        )
    })?;
    let study = file.study.trim().to_string();
    if study.is_empty() {
        bail!(
            "study file `{}`: `study` is empty (expected the study its records name)",
            path.display()
        );
    }
    let info = file.info;
    use crate::record::{over_limit, too_long, MAX_NAME_CHARS, MAX_TEXT_CHARS};
    for (key, value, limit) in [
        ("title", &info.title, MAX_NAME_CHARS),
        ("summary", &info.summary, MAX_TEXT_CHARS),
        ("author", &info.author, MAX_NAME_CHARS),
    ] {
        if let Some(n) = value.as_deref().and_then(|v| over_limit(v, limit)) {
            bail!(
                "study file `{}`: {}",
                path.display(),
                too_long(key, n, limit)
            );
        }
    }
    if let Some(d) = &info.date {
        if !is_date(d) {
            bail!(
                "study file `{}`: date `{d}` is not a date written YYYY-MM-DD",
                path.display()
            );
        }
    }
    Ok((study, info))
}

/// Whether `d` is a calendar date written `YYYY-MM-DD`.
fn is_date(d: &str) -> bool {
    let b = d.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' || !digits(0..4) {
        return false;
    }
    if !digits(5..7) || !digits(8..10) {
        return false;
    }
    let month: u32 = d[5..7].parse().unwrap_or(0);
    let day: u32 = d[8..10].parse().unwrap_or(0);
    (1..=12).contains(&month) && (1..=31).contains(&day)
}

/// The study files by study, from `files` (path and text, in the order
/// given); two files for one study are an error naming both.
pub fn collect(files: &[(std::path::PathBuf, String)]) -> Result<BTreeMap<String, StudyInfo>> {
    let mut out: BTreeMap<String, (StudyInfo, &Path)> = BTreeMap::new();
    for (path, text) in files {
        let (study, info) = parse(text, path)?;
        if let Some((_, first)) = out.get(&study) {
            bail!(
                "study files `{}` and `{}` are both for study `{study}` (expected one study file per study)",
                first.display(),
                path.display()
            );
        }
        out.insert(study, (info, path));
    }
    Ok(out.into_iter().map(|(k, (v, _))| (k, v)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_study_file_names_its_study_and_says_what_it_knows() {
        let (study, info) = parse(
            "study = \"as-typed-2026\"\ntitle = \"Block storage, as typed\"\ndate = \"2027-02-03\"\n",
            Path::new("r/study.toml"),
        )
        .unwrap();
        assert_eq!(study, "as-typed-2026");
        assert_eq!(info.title.as_deref(), Some("Block storage, as typed"));
        assert_eq!(info.date.as_deref(), Some("2027-02-03"));
        assert_eq!(info.author, None);
    }

    #[test]
    fn a_bad_study_file_says_which_file_and_what_was_expected() {
        let p = Path::new("r/study.toml");
        let e = format!("{:#}", parse("title = \"x\"\n", p).unwrap_err());
        assert!(
            e.starts_with("study file `r/study.toml`: missing field `study`"),
            "{e}"
        );
        assert!(e.contains("expected `study = "), "{e}");
        let e = format!(
            "{:#}",
            parse("study = \"s\"\ntitel = \"x\"\n", p).unwrap_err()
        );
        assert!(e.contains("unknown field `titel`"), "{e}");
        let e = format!("{:#}", parse("study = \"s\"\ntitle = 3\n", p).unwrap_err());
        assert!(e.contains("study file `r/study.toml`"), "{e}");
        let e = format!(
            "{:#}",
            parse("study = \"s\"\ndate = \"7 Feb\"\n", p).unwrap_err()
        );
        assert_eq!(
            e,
            "study file `r/study.toml`: date `7 Feb` is not a date written YYYY-MM-DD"
        );
        let e = format!("{:#}", parse("study = [", p).unwrap_err());
        assert!(e.starts_with("study file `r/study.toml`: "), "{e}");
    }

    #[test]
    fn two_files_for_one_study_are_an_error() {
        let f = |p: &str| (p.into(), "study = \"s\"\n".to_string());
        let e = collect(&[f("a/study.toml"), f("b/study.toml")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "study files `a/study.toml` and `b/study.toml` are both for study `s` (expected one study file per study)"
        );
    }
}
