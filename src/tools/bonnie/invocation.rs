//! bonnie++'s command line built from a suite's parameters.

use anyhow::{bail, Result};

use crate::tools::argv::{BuildCtx, Invocation, OutputFrom, ParamReader, Params};

const BONNIE_PARAMS: &[&str] = &["size", "ram", "files", "fast", "machine"];

/// Builds `bonnie++ -d DIR -s <MiB> [-r <MiB>] -n <files> [-f] -q [-m NAME] [-u root]`.
/// `size` and `ram` are sizes (`2xRAM`, `64M`) passed in MiB; `files` is
/// bonnie++'s `-n` (multiples of 1024 files, or its `N:max:min:dirs` form);
/// `fast = true` is bonnie++'s fast mode, `-f`: no per-character tests.
/// `-q` puts the CSV line alone on stdout; `-u root` only when running as
/// root, where bonnie++ refuses to run without it.
pub fn command(params: &Params, ctx: &BuildCtx) -> Result<Invocation> {
    const MIB: u64 = 1 << 20;
    let mut p = ParamReader::new("bonnie++", params, ctx.memory_bytes);
    let size = p.size("size")?.unwrap_or(0);
    if size < MIB {
        bail!("bonnie++: expected `size` of at least 1M (for example 2xRAM)");
    }
    let mut args = vec![
        "-d".to_string(),
        ctx.dir.display().to_string(),
        "-s".to_string(),
        (size / MIB).to_string(),
    ];
    // named and valued as the parser names bonnie++'s own report (bytes;
    // `num_files` as given to -n), so run and imported records agree
    let mut parameters = Params::new();
    parameters.insert("file_size".into(), (size / MIB * MIB).into());
    if let Some(ram) = p.size("ram")? {
        args.push("-r".into());
        args.push((ram / MIB).to_string());
        parameters.insert("ram_size".into(), (ram / MIB * MIB).into());
    }
    let files = p.string("files")?.unwrap_or_else(|| "16".to_string());
    args.push("-n".into());
    args.push(files.clone());
    parameters.insert("num_files".into(), files.into());
    let fast = p.flag("fast")?;
    if fast {
        args.push("-f".into());
        parameters.insert("skip_char_tests".into(), true.into());
    }
    args.push("-q".into());
    if let Some(m) = p.string("machine")? {
        args.push("-m".into());
        args.push(m.clone());
        parameters.insert("machine".into(), m.into());
    }
    p.finish(BONNIE_PARAMS)?;
    if ctx.is_root {
        args.push("-u".into());
        args.push("root".into());
    }
    Ok(Invocation {
        program: "bonnie++".into(),
        args,
        env: Vec::new(),
        output: OutputFrom::Stdout,
        // the data file plus a margin for the small files of the -n phase
        bytes: size + 64 * MIB,
        // passes over the file at 100 MB/s: block write, rewrite (a read
        // and a write), block read, and the per-character write and read
        // unless in fast mode
        estimate_s: 5.0 + size as f64 * if fast { 4.0 } else { 6.0 } / 100e6,
        parameters,
        stdin: None,
    })
}
