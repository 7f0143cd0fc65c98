//! Every write to disk goes through here: atomically (temp file in the same
//! directory, then rename), with the path named in every error.

use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

/// How the name of a temp file of an atomic write starts: hidden, and
/// known to `check` and `import`, which name one left by a killed diskdash.
pub const TEMP_PREFIX: &str = ".diskdash-tmp-";

/// Writes `bytes` to `path` atomically, creating parent directories.
/// Replaces an existing file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_impl(path, &mut |w| w.write_all(bytes), true, true)
}

/// Like [`write_atomic`], with the bytes written by `write` as they are
/// made (through a buffer), so that a large file is never held whole.
pub fn write_atomic_with(
    path: &Path,
    write: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    write_impl(path, write, true, true)
}

/// Like [`write_atomic`] (temp file, then rename: readers never see half a
/// file) but without waiting for the data to reach the disk. For derived
/// files that a rebuild recreates, such as the pages of a site: a flush per
/// file would cost milliseconds each, seconds for thousands of pages.
pub fn write_atomic_unsynced(path: &Path, bytes: &[u8]) -> Result<()> {
    write_impl(path, &mut |w| w.write_all(bytes), true, false)
}

/// Like [`write_atomic_unsynced`] for a file whose directory exists.
pub fn replace_unsynced(path: &Path, bytes: &[u8]) -> Result<()> {
    write_in(dir_of(path), path, &mut |w| w.write_all(bytes), true, false)
}

/// Creates `path` (its directory exists) and writes `bytes` into it
/// directly, without a temp file: for a directory no reader sees yet, such
/// as a site being built into an empty directory. Fails, leaving it alone,
/// when anything (a file, a directory, a link) is at `path` already.
pub fn write_fresh(path: &Path, bytes: &[u8]) -> Result<()> {
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .and_then(|mut f| f.write_all(bytes))
        .with_context(|| format!("failed to write `{}`", path.display()))
}

/// Writes `bytes` to `path` atomically unless `path` already exists, in
/// which case it fails and leaves the existing file alone.
pub fn write_new(path: &Path, bytes: &[u8]) -> Result<()> {
    write_impl(path, &mut |w| w.write_all(bytes), false, true)
}

/// Like [`write_new`] for a file whose directory exists: never creates
/// it, so a directory removed under a writer is not made anew.
pub fn write_new_in_dir(path: &Path, bytes: &[u8]) -> Result<()> {
    write_in(dir_of(path), path, &mut |w| w.write_all(bytes), false, true)
}

/// What an error writing `path` says of its cause, when it tells one.
fn hint(e: &std::io::Error, dir: &Path) -> String {
    match e.kind() {
        std::io::ErrorKind::AlreadyExists => " (a file of that name exists)".to_string(),
        std::io::ErrorKind::NotFound => format!(
            " (the directory `{}` is missing or was removed)",
            dir.display()
        ),
        _ => String::new(),
    }
}

/// The directory a file is written in.
fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// What a file's bytes are written by.
type Writer<'w> = dyn FnMut(&mut dyn Write) -> std::io::Result<()> + 'w;

fn write_impl(path: &Path, write: &mut Writer, replace: bool, sync: bool) -> Result<()> {
    let dir = dir_of(path);
    fs::create_dir_all(dir)
        .with_context(|| format!("failed to create directory `{}`", dir.display()))?;
    write_in(dir, path, write, replace, sync)
}

/// Writes through a temp file in `dir`, which exists.
fn write_in(dir: &Path, path: &Path, write: &mut Writer, replace: bool, sync: bool) -> Result<()> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMP_PREFIX);
    // temp files are private (0600) by default; a record or a page is meant
    // to be shared, so it gets what any new file gets under the umask
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(|e| {
        let why = format!("failed to write `{}`{}", path.display(), hint(&e, dir));
        anyhow::Error::new(e).context(why)
    })?;
    let written = {
        let mut buffered = std::io::BufWriter::new(&mut tmp);
        write(&mut buffered).and_then(|()| buffered.flush())
    };
    written
        .and_then(|()| {
            if sync {
                tmp.as_file().sync_data()
            } else {
                Ok(())
            }
        })
        .with_context(|| format!("failed to write `{}`", path.display()))?;
    if replace {
        tmp.persist(path)
            .map_err(|e| e.error)
            .with_context(|| format!("failed to write `{}`", path.display()))?;
    } else {
        tmp.persist_noclobber(path).map_err(|e| {
            let why = format!(
                "failed to write `{}`{}",
                path.display(),
                hint(&e.error, dir)
            );
            anyhow::Error::new(e.error).context(why)
        })?;
    }
    Ok(())
}

/// Creates `path` and its parents.
pub fn create_dir(path: &Path) -> Result<()> {
    fs::create_dir_all(path)
        .with_context(|| format!("failed to create directory `{}`", path.display()))
}

/// Fails when a directory or file of `path` below `out` (`out` itself may
/// be a link) is a symbolic link: records are written only into plain
/// directories inside `--out`, as the site is; a link there would send
/// them elsewhere. Parts that do not exist yet are fine.
pub fn refuse_links_below(out: &Path, path: &Path) -> Result<()> {
    let Ok(rel) = path.strip_prefix(out) else {
        return Ok(());
    };
    let mut at = out.to_path_buf();
    for part in rel.components() {
        at.push(part);
        match fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => anyhow::bail!(
                "`{}` is a symbolic link inside `{}`; diskdash writes records only into plain \
                 directories there (remove the link, or choose another --out)",
                at.display(),
                out.display()
            ),
            Ok(_) => {}
            Err(_) => return Ok(()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_new_refuses_to_overwrite() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a/b.json");
        write_new(&p, b"one").unwrap();
        let err = write_new(&p, b"two").unwrap_err();
        assert!(format!("{err:#}").contains("b.json"));
        assert_eq!(fs::read(&p).unwrap(), b"one");
        write_atomic(&p, b"three").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"three");
        write_atomic_unsynced(&p, b"four").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"four");
        replace_unsynced(&p, b"five").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"five");
        // a fresh write never replaces what is there
        let err = write_fresh(&p, b"six").unwrap_err();
        assert!(format!("{err:#}").contains("b.json"));
        assert_eq!(fs::read(&p).unwrap(), b"five");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // the mode any new file gets under the umask, not a temp file's 0600
            let plain = dir.path().join("plain");
            fs::write(&plain, b"x").unwrap();
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&p), mode(&plain));
            fs::remove_file(&plain).unwrap();
        }
        // no temp files left behind
        let names: Vec<_> = fs::read_dir(p.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn a_missing_directory_is_named_missing_and_not_made() {
        let dir = tempfile::tempdir().unwrap();
        let gone = dir.path().join("gone");
        let err = format!(
            "{:#}",
            write_new_in_dir(&gone.join("r.json"), b"x").unwrap_err()
        );
        assert!(err.contains("is missing or was removed"), "{err}");
        assert!(err.contains(&gone.display().to_string()), "{err}");
        assert!(!err.contains("a file of that name"), "{err}");
        assert!(!gone.exists());
        // a name taken is told as such
        let p = dir.path().join("r.json");
        write_new_in_dir(&p, b"one").unwrap();
        let err = format!("{:#}", write_new_in_dir(&p, b"two").unwrap_err());
        assert!(err.contains("a file of that name exists"), "{err}");
    }

    #[test]
    fn a_link_inside_out_is_refused_and_out_itself_may_be_one() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir_all(real.join("study")).unwrap();
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, real.join("study/aws")).unwrap();
        let e = refuse_links_below(&real, &real.join("study/aws/r.json")).unwrap_err();
        assert!(
            e.to_string()
                .contains("study/aws` is a symbolic link inside `"),
            "{e}"
        );
        assert!(refuse_links_below(&real, &real.join("study/gcp/r.json")).is_ok());
        let link = dir.path().join("out");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert!(refuse_links_below(&link, &link.join("study/gcp/r.json")).is_ok());
    }
}
