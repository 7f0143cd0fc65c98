//! The one error type stages share: a usage error, which the binary turns
//! into exit status 2 (every other error is 1). What reaches a terminal is
//! escaped by [`crate::term`].

use std::fmt;

/// diskdash was called in a way it cannot act on (a bad flag value, a
/// missing or unsuitable target, a suite that does not load). `main`
/// prints it like any error and exits with status 2.
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Marks `e` (with its whole context chain) as a usage error.
pub fn usage(e: anyhow::Error) -> anyhow::Error {
    anyhow::Error::new(UsageError(format!("{e:#}")))
}

/// The exit status an error gives: 2 for a usage error, 1 otherwise.
pub fn status_of(e: &anyhow::Error) -> u8 {
    if e.downcast_ref::<UsageError>().is_some() {
        2
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::{anyhow, Context};

    #[test]
    fn usage_errors_give_two_with_their_context_others_one() {
        let e = usage(anyhow!("no such suite `fast`").context("--suite"));
        assert_eq!(status_of(&e), 2);
        assert_eq!(format!("{e:#}"), "--suite: no such suite `fast`");
        let plain: anyhow::Error = Err::<(), _>(anyhow!("disk full"))
            .context("failed to write `site/index.html`")
            .unwrap_err();
        assert_eq!(status_of(&plain), 1);
        // context added above a usage error keeps it a usage error
        let wrapped = Err::<(), _>(usage(anyhow!("bad")))
            .context("run")
            .unwrap_err();
        assert_eq!(status_of(&wrapped), 2);
    }
}
