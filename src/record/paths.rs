//! Where records live and the rules every stage shares about their
//! strings and numbers: a subject's folder, ids, slugs, currency codes,
//! positive numbers.

use std::path::PathBuf;

use super::Subject;

/// The folder a subject's records live in below a results directory:
/// `<study>/<offering>` as slugs, `unknown` for a part not given. `run`
/// adds the run id below it; `import` and the transcribed samples put the
/// record files in it directly.
pub fn subject_dir(subject: &Subject) -> PathBuf {
    let part = |v: &Option<String>| v.as_deref().map(slug).unwrap_or_else(|| "unknown".into());
    PathBuf::from(part(&subject.study)).join(part(&subject.offering))
}

/// Whether `code` is an ISO 4217 currency code as records store it: three
/// upper-case ASCII letters (`USD`).
pub fn is_currency_code(code: &str) -> bool {
    code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase())
}

/// A currency code as typed (` eur `) in the form records store (`EUR`);
/// `None` when it is not three ASCII letters.
pub fn currency_code(text: &str) -> Option<String> {
    let code = text.trim().to_ascii_uppercase();
    is_currency_code(&code).then_some(code)
}

/// Whether a size or price is usable: a finite number above zero (unknown
/// is `null`, never zero). What a record may hold is narrower:
/// [`crate::plausible::SIZE_GB`], [`crate::plausible::PRICE_PER_GB_MONTH`].
pub fn is_positive(v: f64) -> bool {
    v.is_finite() && v > 0.0
}

/// The longest id, in bytes (ids are ASCII, so characters too): an id
/// names a file, and most file systems allow 255 bytes a name.
pub const MAX_ID_LEN: usize = 200;

/// Whether `id` is usable as a record id and file name.
pub fn is_valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && !id.starts_with('.')
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || b == b'-')
}

/// Turns free text into an id fragment: lowercase ASCII letters and digits,
/// other runs of characters folded to one `-`; a thousands separator
/// between digits goes (`16,000 IOPS` is `16000-iops`).
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let between_digits = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(char::is_ascii_digit)
        };
        if c == ',' && between_digits(i.checked_sub(1)) && between_digits(Some(i + 1)) {
            continue;
        }
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let trimmed = out.trim_matches('-');
    if trimmed.is_empty() {
        "x".to_string()
    } else {
        trimmed.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slug_folds_punctuation_and_case() {
        assert_eq!(
            slug("Cloud Block Storage High-Performance (SSD)"),
            "cloud-block-storage-high-performance-ssd"
        );
        assert_eq!(slug("<script>"), "script");
        assert_eq!(slug("ümlaut"), "mlaut");
        assert_eq!(slug("!!!"), "x");
        assert_eq!(
            slug("AWS gp3 · 100 GB · 16,000 IOPS · 500 MiB/s"),
            "aws-gp3-100-gb-16000-iops-500-mib-s"
        );
        assert_eq!(slug("a, b,1 2,c"), "a-b-1-2-c");
    }

    #[test]
    fn ids_must_be_filename_safe() {
        assert!(is_valid_id("rackspace-2013.sata.dd-write-bulk.r1"));
        assert!(!is_valid_id("../etc/passwd"));
        assert!(!is_valid_id("a b"));
        assert!(!is_valid_id(""));
        assert!(!is_valid_id(".hidden"));
    }
}
