//! SHA-256, the one hash diskdash uses: an imported file's digest, a fio
//! log's digest in a record's timeline, chart ids and the random part of a
//! run id. A leaf: it uses nothing of the crate.

use sha2::{Digest, Sha256};

/// SHA-256 of `bytes` as 64 lower-case hex digits.
pub fn hex_sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Bytes as lower-case hex, two digits each.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// A SHA-256 fed piece by piece.
#[derive(Clone, Default)]
pub struct Hasher(Sha256);

impl Hasher {
    /// An empty hasher.
    pub fn new() -> Hasher {
        Hasher(Sha256::new())
    }

    /// Feeds `bytes`.
    pub fn update(&mut self, bytes: impl AsRef<[u8]>) {
        self.0.update(bytes);
    }

    /// The 32 bytes of the hash.
    pub fn finish(self) -> [u8; 32] {
        self.0.finalize().into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_matches_a_known_digest() {
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assert_eq!(hex_sha256(b"abc"), abc);
        let mut h = Hasher::new();
        h.update(b"a");
        h.update([b'b', b'c']);
        assert_eq!(hex(&h.finish()), abc);
    }
}
