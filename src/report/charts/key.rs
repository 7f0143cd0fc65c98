//! Content keys: the text a chart's element ids are hashed from.
//!
//! Ids must be stable (the site's bytes depend on them) and must differ
//! between charts inlined on one page, so each chart spec spells out its own
//! key from its data. The key keeps the layout the ids were first made from,
//! `Name { field: value, list: [Item { .. }, ..] }`, so that no id moved when
//! keys were made explicit; text and numbers are written as Rust literals
//! (`"a \"b\""`, `104.2`, `Some(0.5)`).

use std::fmt::Write as _;

/// Writes a content key one field at a time.
pub(super) struct Key {
    out: String,
    fields: usize,
}

impl Key {
    /// Starts the key of a value named `name` (the chart kind or its part).
    pub(super) fn new(name: &str) -> Key {
        Key {
            out: name.to_string(),
            fields: 0,
        }
    }

    /// Starts the next field.
    fn field(&mut self, name: &str) -> &mut String {
        self.out
            .push_str(if self.fields == 0 { " { " } else { ", " });
        self.fields += 1;
        self.out.push_str(name);
        self.out.push_str(": ");
        &mut self.out
    }

    /// A text field, quoted and escaped as a Rust string literal.
    pub(super) fn text(mut self, name: &str, v: &str) -> Key {
        let _ = write!(self.field(name), "{v:?}");
        self
    }

    /// A number field, written as Rust writes an `f64` literal.
    pub(super) fn number(mut self, name: &str, v: f64) -> Key {
        crate::format::push_debug(self.field(name), v);
        self
    }

    /// A number field that may be absent: `Some(1.5)` or `None`.
    pub(super) fn maybe_number(mut self, name: &str, v: Option<f64>) -> Key {
        let f = self.field(name);
        match v {
            Some(v) => {
                f.push_str("Some(");
                crate::format::push_debug(f, v);
                f.push(')');
            }
            None => f.push_str("None"),
        }
        self
    }

    /// A count field.
    pub(super) fn count(mut self, name: &str, v: usize) -> Key {
        let _ = write!(self.field(name), "{v}");
        self
    }

    /// A count field that may be absent: `Some(2)` or `None`.
    pub(super) fn maybe_count(mut self, name: &str, v: Option<usize>) -> Key {
        let f = self.field(name);
        let _ = match v {
            Some(v) => write!(f, "Some({v})"),
            None => write!(f, "None"),
        };
        self
    }

    /// A yes/no field: `true` or `false`.
    pub(super) fn flag(mut self, name: &str, v: bool) -> Key {
        let _ = write!(self.field(name), "{v}");
        self
    }

    /// A list field of finished keys: `[A { .. }, B { .. }]`.
    pub(super) fn list(mut self, name: &str, items: impl IntoIterator<Item = String>) -> Key {
        let f = self.field(name);
        f.push('[');
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                f.push_str(", ");
            }
            f.push_str(&item);
        }
        f.push(']');
        self
    }

    /// The finished key.
    pub(super) fn finish(mut self) -> String {
        if self.fields > 0 {
            self.out.push_str(" }");
        }
        self.out
    }
}
