//! Chart ids: hashed from a chart's field values.
//!
//! Ids must be stable (the site's bytes depend on them) and must differ
//! between charts inlined on one page, so each chart spec feeds its own
//! fields to one SHA-256 hasher: names and text as length-prefixed bytes,
//! numbers as their bits, absent values as a tag. No number is formatted.

use crate::digest::Hasher;

/// The id a chart's elements are named with: the first five bytes of the
/// hash of its field values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChartId(pub(super) [u8; 5]);

impl ChartId {
    /// The id as ten lower-case hex digits.
    pub fn hex(self) -> String {
        crate::digest::hex(&self.0)
    }
}

/// Hashes a chart's fields one at a time.
pub(super) struct Key(Hasher);

impl Key {
    /// Starts the key of a value named `name` (the chart kind).
    pub(super) fn new(name: &str) -> Key {
        let mut key = Key(Hasher::new());
        key.bytes(name.as_bytes());
        key
    }

    /// Length-prefixed bytes, so that no two field sequences run together.
    fn bytes(&mut self, b: &[u8]) {
        self.0.update((b.len() as u64).to_le_bytes());
        self.0.update(b);
    }

    /// Starts the next field.
    fn field(&mut self, name: &str) {
        self.bytes(name.as_bytes());
    }

    /// A text field.
    pub(super) fn text(mut self, name: &str, v: &str) -> Key {
        self.field(name);
        self.bytes(v.as_bytes());
        self
    }

    /// A number field, as its bits.
    pub(super) fn number(mut self, name: &str, v: f64) -> Key {
        self.field(name);
        self.0.update(v.to_bits().to_le_bytes());
        self
    }

    /// A number field that may be absent.
    pub(super) fn maybe_number(mut self, name: &str, v: Option<f64>) -> Key {
        self.field(name);
        match v {
            Some(v) => {
                self.0.update([1]);
                self.0.update(v.to_bits().to_le_bytes());
            }
            None => self.0.update([0]),
        }
        self
    }

    /// A count field.
    pub(super) fn count(mut self, name: &str, v: usize) -> Key {
        self.field(name);
        self.0.update((v as u64).to_le_bytes());
        self
    }

    /// A count field that may be absent.
    pub(super) fn maybe_count(mut self, name: &str, v: Option<usize>) -> Key {
        self.field(name);
        match v {
            Some(v) => {
                self.0.update([1]);
                self.0.update((v as u64).to_le_bytes());
            }
            None => self.0.update([0]),
        }
        self
    }

    /// A yes/no field.
    pub(super) fn flag(mut self, name: &str, v: bool) -> Key {
        self.field(name);
        self.0.update([u8::from(v)]);
        self
    }

    /// A list field: its length, then each item's fields as `each` adds them.
    pub(super) fn list<T>(
        mut self,
        name: &str,
        items: impl ExactSizeIterator<Item = T>,
        each: impl Fn(T, Key) -> Key,
    ) -> Key {
        self.field(name);
        self.0.update((items.len() as u64).to_le_bytes());
        items.fold(self, |key, item| each(item, key))
    }

    /// The finished id.
    pub(super) fn finish(self) -> ChartId {
        let hash = self.0.finish();
        let mut id = [0; 5];
        id.copy_from_slice(&hash[..5]);
        ChartId(id)
    }
}
