//! Shared strings: a name, a kind, a key of a spec. Cloned, one is a reference count,
//! not a copy; read, the short ones are one copy for every object that repeats them
//! (`gateway.networking.k8s.io`, `HTTPRoute`, a namespace, a key like `parentRefs`).

use super::key_hash;
use hashbrown::HashTable;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::cell::RefCell;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// An immutable shared string. Compares, orders and hashes as the `str` it holds.
///
/// One pointer wide (the `str` is reached through a box), not two: a topology holds
/// several per node and per reference, a hundred thousand of each, and the shared
/// strings are few.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Text(Arc<Box<str>>);

impl Text {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        text(s)
    }
}

impl From<&String> for Text {
    fn from(s: &String) -> Text {
        text(s)
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        text(&s)
    }
}

impl From<Text> for String {
    fn from(t: Text) -> String {
        t.as_str().into()
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        d.deserialize_str(TextVisitor)
    }
}

pub(crate) struct TextVisitor;

impl serde::de::Visitor<'_> for TextVisitor {
    type Value = Text;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E>(self, v: &str) -> Result<Text, E> {
        Ok(text(v))
    }
}

/// Strings no longer than this are shared; longer ones are rarely repeated.
const SHARED_UP_TO: usize = 64;

thread_local! {
    /// The strings read so far on this thread, one copy each with its hash, kept for
    /// the life of the thread (a command reads once). The hash is kept so that growing
    /// the table does not reach every string again: a large cluster's hundreds of
    /// thousands of names would each be a wait on memory.
    static SHARED: RefCell<HashTable<(u64, Text)>> = RefCell::default();
}

/// `s` as a shared string: the copy already read, or a new one kept for the next.
pub(crate) fn text(s: &str) -> Text {
    if s.len() > SHARED_UP_TO {
        return Text(Arc::new(Box::from(s)));
    }
    // The table's buckets are picked by the hash's low bits, which must differ between
    // names made to a pattern (`limit-00001`, `limit-00002`...): the hash kept as a key
    // mixes every bit.
    let hash = key_hash(s);
    SHARED.with(|shared| {
        let mut shared = shared.borrow_mut();
        if let Some((_, t)) = shared.find(hash, |(h, t)| *h == hash && t.as_str() == s) {
            return t.clone();
        }
        let t = Text(Arc::new(Box::from(s)));
        shared.insert_unique(hash, (hash, t.clone()), |&(h, _)| h);
        t
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_strings_are_shared() {
        let a = text("gateway.networking.k8s.io");
        let b = text("gateway.networking.k8s.io");
        assert!(Arc::ptr_eq(&a.0, &b.0));
        let long = "x".repeat(SHARED_UP_TO + 1);
        assert!(!Arc::ptr_eq(&text(&long).0, &text(&long).0));
    }

    #[test]
    fn it_compares_orders_and_prints_as_its_str() {
        let (a, b) = (text("a"), text("b"));
        assert!(a < b);
        assert_eq!(a, "a");
        assert_eq!("a", a);
        assert_eq!(a, *"a");
        assert_eq!(a, "a".to_string());
        assert_eq!(format!("{a} {a:?}"), "a \"a\"");
        assert_eq!(serde_json::to_string(&a).unwrap(), "\"a\"");
        assert_eq!(serde_json::from_str::<Text>("\"a\"").unwrap(), a);
        let set: std::collections::HashSet<Text> = [a.clone()].into();
        assert!(set.contains("a"));
    }
}
