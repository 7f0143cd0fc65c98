//! Reading a record's tool output and timeline again, for a record held
//! without them.

use anyhow::{Context, Result};

use super::Found;

/// The parts of a record a build of summaries holds it without (see
/// [`super::load_with`]), as [`reread`] reads them again.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeftOut {
    /// The tool output.
    pub raw: Option<crate::record::Raw>,
    /// The timeline, its series and all.
    pub timeline: Option<crate::record::Timeline>,
}

/// The tool output and timeline of the record `found` was read from: for a
/// record held without them (see [`super::load_with`]), its file read once more,
/// and of it only the `id` (to be sure it is the same record), the `raw`
/// output and the `timeline`; `None` when they are kept in memory
/// already (`Found::kept`). Read like the first time, at most
/// [`super::read::MAX_RECORD_BYTES`] (of the file, or of each line of a
/// `*.jsonl` file). Fails, naming the file, when the file no longer holds
/// that record: another id, or bytes other than those first read and
/// checked (a record changed in place is not trusted, whatever it holds).
pub fn reread(found: &Found) -> Result<Option<LeftOut>> {
    /// The parts of a record read again.
    #[derive(serde::Deserialize)]
    struct Again {
        id: String,
        #[serde(default)]
        raw: Option<crate::record::Raw>,
        #[serde(default)]
        timeline: Option<crate::record::Timeline>,
    }
    if found.kept.is_some() {
        return Ok(None);
    }
    let path = &found.path;
    let changed = || {
        format!(
            "`{}` no longer holds record `{}`: it changed while the site was built",
            path.display(),
            found.summary.id
        )
    };
    use super::read::{nth_line, sha256, MAX_RECORD_BYTES};
    use std::io::Read;
    let cannot = || format!("failed to read `{}` again", path.display());
    let file = std::fs::File::open(path).with_context(cannot)?;
    // a `*.jsonl` file's line, or the whole file, bounded as the first read
    let text = match found.line {
        Some(n) => nth_line(file, n)
            .with_context(cannot)?
            .with_context(changed)?,
        None => {
            let mut bytes = Vec::new();
            file.take(MAX_RECORD_BYTES + 1)
                .read_to_end(&mut bytes)
                .with_context(cannot)?;
            if bytes.len() as u64 > MAX_RECORD_BYTES {
                anyhow::bail!(
                    "{}: it is now larger than any record ({MAX_RECORD_BYTES} bytes)",
                    changed()
                );
            }
            bytes
        }
    };
    if let Some(first) = found.sha256 {
        if sha256(&text) != first {
            anyhow::bail!("{}: its bytes differ from the first read", changed());
        }
    }
    let again: Again = serde_json::from_slice(&text).with_context(changed)?;
    if again.id != found.summary.id {
        anyhow::bail!(changed());
    }
    Ok(Some(LeftOut {
        raw: again.raw,
        timeline: again.timeline,
    }))
}
