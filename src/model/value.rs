//! A JSON value held as compactly as the tool can: a mapping is a list of (key, value)
//! in the order written, with no hash index (the tool's mappings are small and read
//! by a few keys); keys and short strings are shared, one copy for all the objects that
//! repeat them (`kind`, `name`, `gateway.networking.k8s.io`...). Printed, it is the same
//! JSON as `serde_json::Value` with `preserve_order` (the same bytes).
//!
//! At 20,000 routes this holds the cluster's specs in about a quarter of what
//! `serde_json::Value` needs (an IndexMap per mapping: its own hash table, and one heap
//! string per key), and reads them without hashing a key.

use super::text::{text, Text};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Number, Value};
use std::fmt;

/// A JSON value.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Val {
    #[default]
    Null,
    Bool(bool),
    Number(Number),
    String(Text),
    Array(Box<[Val]>),
    Object(Map),
}

/// A JSON mapping: its members in the order written.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Map(Box<[(Text, Val)]>);

impl Map {
    /// The value of `key`, if the mapping has it.
    pub(crate) fn get(&self, key: &str) -> Option<&Val> {
        self.0.iter().find(|(k, _)| &**k == key).map(|(_, v)| v)
    }

    pub(crate) fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The members, in the order written.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&Text, &Val)> + Clone {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// The values, in the order written.
    pub(crate) fn values(&self) -> impl Iterator<Item = &Val> + Clone {
        self.0.iter().map(|(_, v)| v)
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// An empty mapping.
    pub(crate) fn new() -> Map {
        Map::default()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromIterator<(Text, Val)> for Map {
    fn from_iter<I: IntoIterator<Item = (Text, Val)>>(iter: I) -> Self {
        Map(iter.into_iter().collect())
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a Text, &'a Val);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (Text, Val)>,
        fn(&'a (Text, Val)) -> (&'a Text, &'a Val),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl Val {
    /// A member of a mapping (none for anything else), as `serde_json::Value::get`.
    pub(crate) fn get(&self, key: &str) -> Option<&Val> {
        match self {
            Val::Object(m) => m.get(key),
            _ => None,
        }
    }

    /// The value at a JSON pointer (RFC 6901), as `serde_json::Value::pointer`.
    pub fn pointer(&self, pointer: &str) -> Option<&Val> {
        if pointer.is_empty() {
            return Some(self);
        }
        let rest = pointer.strip_prefix('/')?;
        let mut v = self;
        for token in rest.split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            v = match v {
                Val::Object(m) => m.get(&token)?,
                Val::Array(a) => a.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(v)
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Val::String(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_array(&self) -> Option<&[Val]> {
        match self {
            Val::Array(a) => Some(a),
            _ => None,
        }
    }

    pub(crate) fn as_object(&self) -> Option<&Map> {
        match self {
            Val::Object(m) => Some(m),
            _ => None,
        }
    }

    pub(crate) fn as_u64(&self) -> Option<u64> {
        match self {
            Val::Number(n) => n.as_u64(),
            _ => None,
        }
    }

    pub(crate) fn as_bool(&self) -> Option<bool> {
        match self {
            Val::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub(crate) fn is_null(&self) -> bool {
        matches!(self, Val::Null)
    }

    #[cfg(test)]
    pub(crate) fn is_object(&self) -> bool {
        matches!(self, Val::Object(_))
    }

    /// The same value as a `serde_json::Value` (to print it, or to hand it to code that
    /// takes one).
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Val::Null => Value::Null,
            Val::Bool(b) => Value::Bool(*b),
            Val::Number(n) => Value::Number(n.clone()),
            Val::String(s) => Value::String(s.to_string()),
            Val::Array(a) => Value::Array(a.iter().map(Val::to_value).collect()),
            Val::Object(m) => Value::Object(
                m.iter()
                    .map(|(k, v)| (k.to_string(), v.to_value()))
                    .collect(),
            ),
        }
    }

    /// A `serde_json::Value` held compactly (a YAML document is decoded into one first).
    pub(crate) fn from_value(v: Value) -> Val {
        match v {
            Value::Null => Val::Null,
            Value::Bool(b) => Val::Bool(b),
            Value::Number(n) => Val::Number(n),
            Value::String(s) => Val::String(text(&s)),
            Value::Array(a) => Val::Array(a.into_iter().map(Val::from_value).collect()),
            Value::Object(m) => Val::Object(
                m.into_iter()
                    .map(|(k, v)| (text(&k), Val::from_value(v)))
                    .collect(),
            ),
        }
    }
}

/// What a missing member or element reads as.
static NULL: Val = Val::Null;

/// `v["key"]`: the member, or null, as `serde_json::Value` indexes.
impl std::ops::Index<&str> for Val {
    type Output = Val;
    fn index(&self, key: &str) -> &Val {
        self.get(key).unwrap_or(&NULL)
    }
}

/// `v[i]`: the element, or null.
impl std::ops::Index<usize> for Val {
    type Output = Val;
    fn index(&self, i: usize) -> &Val {
        self.as_array().and_then(|a| a.get(i)).unwrap_or(&NULL)
    }
}

impl PartialEq<str> for Val {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for Val {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl From<&str> for Val {
    fn from(s: &str) -> Val {
        Val::String(text(s))
    }
}

// ------------------------------------------------------------ printing

impl Serialize for Val {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Val::Null => s.serialize_unit(),
            Val::Bool(b) => s.serialize_bool(*b),
            Val::Number(n) => n.serialize(s),
            Val::String(t) => s.serialize_str(t),
            Val::Array(a) => {
                let mut seq = s.serialize_seq(Some(a.len()))?;
                for v in a.iter() {
                    seq.serialize_element(v)?;
                }
                seq.end()
            }
            Val::Object(m) => {
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, v) in m.iter() {
                    map.serialize_entry(&**k, v)?;
                }
                map.end()
            }
        }
    }
}

// ------------------------------------------------------------ reading

/// Reads a value with its mappings and lists allocated once, at their final size:
/// members are gathered on stacks shared by the values nested in one another.
pub(crate) struct ValSeed<'s>(pub &'s mut Scratch);

/// The stacks `ValSeed` gathers members on.
#[derive(Default)]
pub(crate) struct Scratch {
    members: Vec<(Text, Val)>,
    elements: Vec<Val>,
}

impl<'de> serde::de::DeserializeSeed<'de> for ValSeed<'_> {
    type Value = Val;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Val, D::Error> {
        d.deserialize_any(self)
    }
}

/// A map key as a shared string, read without an owned copy when the text allows.
struct Key;

impl<'de> serde::de::DeserializeSeed<'de> for Key {
    type Value = Text;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Text, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Text;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E>(self, v: &str) -> Result<Text, E> {
        Ok(text(v))
    }
}

impl<'de> Visitor<'de> for ValSeed<'_> {
    type Value = Val;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Val, A::Error> {
        let from = self.0.members.len();
        // A key written twice keeps its first place and its last value, as
        // `serde_json::Value` reads it. Small mappings are searched; a large one gets
        // an index of its keys.
        let mut index: Option<std::collections::HashMap<Text, usize>> = None;
        while let Some(key) = map.next_key_seed(Key)? {
            let value = map.next_value_seed(ValSeed(&mut *self.0))?;
            let read = &mut self.0.members[from..];
            if index.is_none() && read.len() >= 32 {
                index = Some(
                    read.iter()
                        .enumerate()
                        .map(|(i, (k, _))| (k.clone(), i))
                        .collect(),
                );
            }
            let seen = match &mut index {
                Some(index) => index.get(&key).copied().or_else(|| {
                    index.insert(key.clone(), read.len());
                    None
                }),
                None => read.iter().position(|(k, _)| *k == key),
            };
            match seen {
                Some(i) => read[i].1 = value,
                None => self.0.members.push((key, value)),
            }
        }
        Ok(Val::Object(Map(self.0.members.drain(from..).collect())))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Val, A::Error> {
        let from = self.0.elements.len();
        while let Some(value) = seq.next_element_seed(ValSeed(&mut *self.0))? {
            self.0.elements.push(value);
        }
        Ok(Val::Array(self.0.elements.drain(from..).collect()))
    }

    fn visit_bool<E>(self, v: bool) -> Result<Val, E> {
        Ok(Val::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Val, E> {
        Ok(Val::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Val, E> {
        Ok(Val::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Val, E> {
        Ok(Number::from_f64(v).map_or(Val::Null, Val::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Val, E> {
        Ok(Val::String(text(v)))
    }
    fn visit_unit<E>(self) -> Result<Val, E> {
        Ok(Val::Null)
    }
    fn visit_none<E>(self) -> Result<Val, E> {
        Ok(Val::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Val, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Deserialize<'de> for Val {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Val, D::Error> {
        d.deserialize_any(ValSeed(&mut Scratch::default()))
    }
}

// ------------------------------------------------------------ read when first looked at

/// A spec or status, in one of two states: JSON text as read ([`Lazy::Text`]), built
/// into a [`Val`] the first time it is looked at (through `Deref`), or a value
/// ([`Lazy::Built`]). An answer about one object sets aside most of a large input
/// before looking at it, and what is set aside is never built; its views
/// (`model::view`) are read from the text. [`Lazy::settle`] builds it and lets the text
/// go.
pub enum Lazy {
    /// JSON text read as valid JSON. `built`: the value once looked at (boxed, and none
    /// for null, so that a `Lazy` is four words: every object holds two, most never
    /// built or null); the text is kept with it until settled.
    Text {
        text: Box<serde_json::value::RawValue>,
        built: std::sync::OnceLock<Option<Box<Val>>>,
    },
    /// A value (none: null).
    Built(Option<Box<Val>>),
}

impl Default for Lazy {
    fn default() -> Lazy {
        Lazy::NULL
    }
}

/// A built value as it is kept.
fn kept(v: Val) -> Option<Box<Val>> {
    (!v.is_null()).then(|| Box::new(v))
}

impl Lazy {
    /// Null.
    pub(crate) const NULL: Lazy = Lazy::Built(None);

    /// Text read as valid JSON, to be built when first looked at.
    pub(crate) fn from_text(text: Box<serde_json::value::RawValue>) -> Lazy {
        Lazy::Text {
            text,
            built: std::sync::OnceLock::new(),
        }
    }

    /// The JSON text, while the value is not built yet.
    pub(crate) fn unbuilt_text(&self) -> Option<&str> {
        match self {
            Lazy::Text { text, built } if built.get().is_none() => Some(text.get()),
            _ => None,
        }
    }

    /// Looks at the value without keeping it: the value built already if it is, else
    /// one built for `f` alone and dropped after (the text stays). For what only passes
    /// a value through (`dump` writes each object once), so the cluster is never held
    /// built and as text at once.
    pub(crate) fn with<R>(&self, f: impl FnOnce(&Val) -> R) -> R {
        match self.built() {
            Some(v) => f(v),
            None => f(&self.build()),
        }
    }

    /// Whether the value is null, told from the text when it is not built yet (JSON text
    /// read as one value is exactly `null` then), so asking builds nothing.
    pub(crate) fn is_null(&self) -> bool {
        match (self.built(), self) {
            (Some(v), _) => v.is_null(),
            (None, Lazy::Text { text, .. }) => text.get() == "null",
            (None, Lazy::Built(_)) => true,
        }
    }

    /// Builds the value now, and drops the text it came from.
    pub(crate) fn settle(&mut self) {
        if let Lazy::Text { built, .. } = self {
            let value = built.take().unwrap_or_else(|| kept(self.build()));
            *self = Lazy::Built(value);
        }
    }

    /// The value, if built.
    fn built(&self) -> Option<&Val> {
        match self {
            Lazy::Text { built, .. } => built.get().map(|v| v.as_deref().unwrap_or(&NULL)),
            Lazy::Built(v) => Some(v.as_deref().unwrap_or(&NULL)),
        }
    }

    fn build(&self) -> Val {
        let Lazy::Text { text, .. } = self else {
            return Val::Null;
        };
        let mut d = serde_json::Deserializer::from_str(text.get());
        // The text was read as JSON already, and refused if nested deeper than serde_json
        // builds (`source::document`): reading it again cannot fail.
        serde::de::DeserializeSeed::deserialize(ValSeed(&mut Scratch::default()), &mut d)
            .unwrap_or_default()
    }
}

impl From<Val> for Lazy {
    fn from(v: Val) -> Lazy {
        Lazy::Built(kept(v))
    }
}

impl std::ops::Deref for Lazy {
    type Target = Val;
    fn deref(&self) -> &Val {
        let v = match self {
            Lazy::Text { built, .. } => built.get_or_init(|| kept(self.build())),
            Lazy::Built(v) => v,
        };
        v.as_deref().unwrap_or(&NULL)
    }
}

impl Clone for Lazy {
    fn clone(&self) -> Lazy {
        Lazy::from((**self).clone())
    }
}

impl fmt::Debug for Lazy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}

impl PartialEq for Lazy {
    fn eq(&self, other: &Lazy) -> bool {
        **self == **other
    }
}

impl Serialize for Lazy {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn read_and_printed_it_is_the_same_json() {
        let text = r#"{"b":1,"a":[true,null,2.5,-3,"x",{"z":{},"y":[]}],"c":"~/"}"#;
        let v: Val = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), text);
        let value: Value = serde_json::from_str(text).unwrap();
        assert_eq!(v.to_value(), value);
        assert_eq!(Val::from_value(value), v);
    }

    #[test]
    fn a_key_written_twice_reads_as_serde_json_reads_it() {
        let small = r#"{"a":1,"b":2,"a":{"x":3}}"#;
        let many: Vec<String> = (0..40).map(|i| format!(r#""k{}":{i}"#, i % 35)).collect();
        let large = format!("{{{}}}", many.join(","));
        for text in [small, large.as_str()] {
            let v: Val = serde_json::from_str(text).unwrap();
            let value: Value = serde_json::from_str(text).unwrap();
            assert_eq!(
                serde_json::to_string(&v).unwrap(),
                serde_json::to_string(&value).unwrap()
            );
        }
    }

    fn text(json: &str) -> Lazy {
        Lazy::from_text(serde_json::from_str(json).unwrap())
    }

    #[test]
    fn looked_at_with_with_a_value_is_built_for_the_look_only() {
        let lazy = text(r#"{"a":[1,"b"]}"#);
        let printed = lazy.with(|v| serde_json::to_string(v).unwrap());
        assert_eq!(printed, r#"{"a":[1,"b"]}"#);
        // Not kept: the text is still what the value is held as.
        assert_eq!(lazy.unbuilt_text(), Some(r#"{"a":[1,"b"]}"#));
        // Built already, the built value is the one looked at.
        assert_eq!(lazy["a"][1], "b");
        assert_eq!(lazy.unbuilt_text(), None);
        assert!(lazy.with(|v| std::ptr::eq(v, &*lazy)));
        assert!(Lazy::default().with(Val::is_null));
    }

    #[test]
    fn null_is_told_from_the_text_without_building() {
        for (json, null) in [
            ("null", true),
            ("{}", false),
            ("0", false),
            (r#""null""#, false),
        ] {
            let lazy = text(json);
            assert_eq!(lazy.is_null(), null, "{json}");
            assert_eq!(lazy.unbuilt_text(), Some(json));
            assert_eq!((*lazy).is_null(), null, "{json}");
        }
        assert!(Lazy::default().is_null());
        assert!(!Lazy::from(Val::from("x")).is_null());
    }

    #[test]
    fn lookups_as_serde_json_value_does_them() {
        let v = Val::from_value(json!({"a": {"b/c": [1, {"d~e": "f"}]}}));
        assert_eq!(v.pointer("/a/b~1c/1/d~0e").and_then(Val::as_str), Some("f"));
        assert_eq!(v.pointer("/a/b~1c/0").and_then(Val::as_u64), Some(1));
        assert_eq!(v.pointer(""), Some(&v));
        assert!(v.pointer("/a/x").is_none() && v.pointer("a").is_none());
        assert!(v.get("a").is_some_and(Val::is_object) && v.get("z").is_none());
    }
}
