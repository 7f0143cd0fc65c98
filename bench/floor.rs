//! The floor `bench/report_scale.sh` measures `diskdash report` against: the
//! least any program must do to read the same records and write a site of
//! the same shape.
//!
//!   floor shape SITE > SHAPE      lists SITE's files: size, then path
//!   floor RECORDS SHAPE OUT       the measured part
//!
//! The measured part walks RECORDS for `*.json` files in name order, reads
//! each and parses it into a `serde_json::Value`, then writes into OUT (which
//! must not exist) one file per line of SHAPE, at the same relative path and
//! of the same size, its bytes cut from the record text read, creating each
//! directory once. One thread, as the simplest such program would be.

// a measuring tool: its figures go to standard output
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [cmd, site] if cmd == "shape" => shape(Path::new(site)),
        [records, shape, out] => floor(Path::new(records), Path::new(shape), Path::new(out)),
        _ => bail!("usage: floor shape SITE > SHAPE | floor RECORDS SHAPE OUT"),
    }
}

/// Prints `size path` for every file under `site`, in name order.
fn shape(site: &Path) -> Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for entry in walkdir::WalkDir::new(site).sort_by_file_name() {
        let entry = entry?;
        if entry.file_type().is_file() {
            let rel = entry.path().strip_prefix(site)?;
            writeln!(out, "{} {}", entry.metadata()?.len(), rel.display())?;
        }
    }
    Ok(())
}

/// Reads and parses every record, then writes the files SHAPE lists.
fn floor(records: &Path, shape: &Path, out: &Path) -> Result<()> {
    if out.exists() {
        bail!(
            "`{}` exists; the floor writes a fresh directory",
            out.display()
        );
    }
    // the bytes written are cut from the record text, kept up to this much
    const POOL: usize = 4 << 20;
    let mut pool: Vec<u8> = Vec::with_capacity(POOL);
    let mut nodes = 0usize;
    let mut count = 0usize;
    for entry in walkdir::WalkDir::new(records).sort_by_file_name() {
        let entry = entry?;
        let path = entry.path();
        if !entry.file_type().is_file() || path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let bytes = std::fs::read(path).with_context(|| format!("reading `{}`", path.display()))?;
        let value: serde_json::Value = serde_json::from_slice(&bytes)
            .with_context(|| format!("parsing `{}`", path.display()))?;
        nodes += count_nodes(&value);
        count += 1;
        if pool.len() < POOL {
            pool.extend_from_slice(&bytes[..bytes.len().min(POOL - pool.len())]);
        }
    }
    if pool.is_empty() {
        bail!("no *.json records under `{}`", records.display());
    }
    let listing = std::fs::read_to_string(shape)?;
    let mut dirs: BTreeSet<PathBuf> = BTreeSet::new();
    let (mut files, mut total, mut at) = (0usize, 0usize, 0usize);
    for line in listing.lines() {
        let (size, rel) = line
            .split_once(' ')
            .with_context(|| format!("bad shape line `{line}`"))?;
        let size: usize = size.parse()?;
        let path = out.join(rel);
        if let Some(dir) = path.parent() {
            if !dirs.contains(dir) {
                std::fs::create_dir_all(dir)?;
                dirs.insert(dir.to_path_buf());
            }
        }
        let mut content = Vec::with_capacity(size);
        while content.len() < size {
            let take = (size - content.len()).min(pool.len() - at);
            content.extend_from_slice(&pool[at..at + take]);
            at = (at + take) % pool.len();
        }
        std::fs::write(&path, &content).with_context(|| format!("writing `{}`", path.display()))?;
        files += 1;
        total += size;
    }
    println!(
        "floor: {count} records ({nodes} JSON values) read, {files} files ({total} bytes) written"
    );
    Ok(())
}

/// How many JSON values `v` holds, itself included.
fn count_nodes(v: &serde_json::Value) -> usize {
    1 + match v {
        serde_json::Value::Array(a) => a.iter().map(count_nodes).sum(),
        serde_json::Value::Object(o) => o.values().map(count_nodes).sum(),
        _ => 0,
    }
}
