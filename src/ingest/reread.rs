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
/// already (`Found::kept`). Fails, naming the file, when the file no longer holds that
/// record.
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
    let text = std::fs::read(path)
        .with_context(|| format!("failed to read `{}` again", path.display()))?;
    // a `*.jsonl` file's line, or the whole file
    let text = match found.line {
        Some(n) => text
            .split(|&b| b == b'\n')
            .nth(n - 1)
            .with_context(changed)?,
        None => &text[..],
    };
    let again: Again = serde_json::from_slice(text).with_context(changed)?;
    if again.id != found.summary.id {
        anyhow::bail!(changed());
    }
    Ok(Some(LeftOut {
        raw: again.raw,
        timeline: again.timeline,
    }))
}
