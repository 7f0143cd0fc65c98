//! Which machine a record came from (`host.name`): the rule a name given
//! to `run` or `import` keeps, and the anonymous form `--anonymous-host`
//! records instead of it.

/// The longest machine name, in characters (Linux's `HOST_NAME_MAX`).
pub const MAX_HOST_NAME_CHARS: usize = 64;

/// The start of an anonymous machine name.
pub const ANONYMOUS_PREFIX: &str = "anon-";

/// How many hex digits of the SHA-256 an anonymous name keeps.
pub const ANONYMOUS_HEX_DIGITS: usize = 12;

/// The machine name `text` gives: trimmed, then 1 to
/// [`MAX_HOST_NAME_CHARS`] characters, none of them a control character
/// (a line break, a tab, an escape). Fails with what was expected.
pub fn host_name(text: &str) -> Result<String, String> {
    let name = text.trim();
    let chars = name.chars().count();
    if chars == 0 {
        return Err(expected("it is empty"));
    }
    if chars > MAX_HOST_NAME_CHARS {
        return Err(expected(&format!("it has {chars}")));
    }
    if name.chars().any(char::is_control) {
        return Err(expected("it holds a control character"));
    }
    Ok(name.to_string())
}

fn expected(found: &str) -> String {
    format!(
        "expected a machine name of 1 to {MAX_HOST_NAME_CHARS} characters and no control character \
         (a hostname such as web-3 or db1.example.com), but {found}"
    )
}

/// The anonymous form of a machine name: `anon-` and the first 12 hex
/// digits of the SHA-256 of its UTF-8 bytes. The same name always gives
/// the same form, so one machine's records still share a name.
pub fn anonymous_host_name(name: &str) -> String {
    let hex = crate::digest::hex_sha256(name.as_bytes());
    format!("{ANONYMOUS_PREFIX}{}", &hex[..ANONYMOUS_HEX_DIGITS])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_anonymous_name_is_the_start_of_the_sha256_of_the_name() {
        // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a3...
        assert_eq!(anonymous_host_name("abc"), "anon-ba7816bf8f01");
        // SHA-256("") = e3b0c44298fc1c149afbf4c8996fb924...
        assert_eq!(anonymous_host_name(""), "anon-e3b0c44298fc");
        assert_eq!(anonymous_host_name("web-3"), anonymous_host_name("web-3"));
        assert_ne!(anonymous_host_name("web-3"), anonymous_host_name("web-4"));
    }

    #[test]
    fn a_name_is_trimmed_and_kept_within_its_rule() {
        assert_eq!(host_name("  web-3\n").unwrap(), "web-3");
        assert_eq!(
            host_name("db1.example.com").unwrap(),
            "db1.example.com".to_string()
        );
        let longest = "a".repeat(MAX_HOST_NAME_CHARS);
        assert_eq!(host_name(&longest).unwrap(), longest);
        // characters, not bytes: 64 two-byte letters are a name
        assert_eq!(host_name(&"é".repeat(64)).unwrap().chars().count(), 64);
        let e = host_name(&"a".repeat(65)).unwrap_err();
        assert!(e.ends_with("but it has 65"), "{e}");
        assert!(host_name(" \t ").unwrap_err().ends_with("but it is empty"));
        for bad in ["web\n3", "web\u{1b}[31m", "a\u{7f}", "a\u{85}b"] {
            let e = host_name(bad).unwrap_err();
            assert!(e.ends_with("it holds a control character"), "{bad:?}: {e}");
        }
    }
}
