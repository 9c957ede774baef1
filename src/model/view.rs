//! One way to read a typed view of a JSON value, whatever it is held as: a view is a
//! `#[derive(Deserialize)]` struct naming the fields it reads (every other field is
//! skipped as it streams by), and the same view is read from JSON text (serde_json,
//! nothing built) and from a built [`Val`] (a `Deserializer` over `&Val`, strings
//! borrowed from it).
//!
//! The views of the hierarchy read a spec leniently (files may hold what an API server
//! would refuse): a field of the wrong shape reads as absent. The readers of that here ([`string`], [`uint`],
//! [`MapOr`], [`list`]) skip the value they do not take, so a lenient view never fails
//! on a shape. A view fails on JSON text only where serde_json's reading and the built
//! value part: a key written twice (a derived view refuses it; the built value keeps
//! the last), for which its reader reads the built value instead.

use super::{text, Lazy, Text, Val};
use serde::de::value::{BorrowedStrDeserializer, Error, MapDeserializer, SeqDeserializer};
use serde::de::{Deserialize, DeserializeOwned, Deserializer, IgnoredAny, IntoDeserializer};
use serde::de::{MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

impl Val {
    /// The view `T` of this value; `None` when `T` refuses its shape.
    pub(crate) fn view<'v, T: Deserialize<'v>>(&'v self) -> Option<T> {
        T::deserialize(self).ok()
    }
}

impl Lazy {
    /// The view `T` of the value, read from its JSON text while it is not built (and
    /// nothing built), else from the built value. `None` when `T` refuses its shape:
    /// a strict view then leaves the caller to read it another way; for a lenient one,
    /// the text has a key written twice ([`Lazy::read`] reads the built value then).
    pub(crate) fn view<'s, T: Deserialize<'s>>(&'s self) -> Option<T> {
        match self.unbuilt_text() {
            Some(text) => serde_json::from_str(text).ok(),
            None => (**self).view(),
        }
    }

    /// The lenient view `T` of the value: `view`, else (text with a key written twice)
    /// read from a value built for the read alone and dropped after.
    pub(crate) fn read<T: DeserializeOwned + Default>(&self) -> T {
        self.view()
            .or_else(|| self.with(|v| v.view()))
            .unwrap_or_default()
    }
}

/// A built value read as serde reads JSON: a mapping's members in the order written
/// (a key is never there twice), strings borrowed.
impl<'de> Deserializer<'de> for &'de Val {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Val::Null => visitor.visit_unit(),
            Val::Bool(b) => visitor.visit_bool(*b),
            Val::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => visitor.visit_u64(u),
                (None, Some(i)) => visitor.visit_i64(i),
                (None, None) => visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
            },
            Val::String(s) => visitor.visit_borrowed_str(s),
            Val::Array(a) => visitor.visit_seq(SeqDeserializer::new(a.iter())),
            Val::Object(m) => {
                let members = m.iter().map(|(k, v)| (Key(k), v));
                visitor.visit_map(MapDeserializer::new(members))
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Val::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf unit unit_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

impl<'de> IntoDeserializer<'de, Error> for &'de Val {
    type Deserializer = &'de Val;
    fn into_deserializer(self) -> &'de Val {
        self
    }
}

/// A mapping's key, handed out borrowed.
struct Key<'de>(&'de str);

impl<'de> IntoDeserializer<'de, Error> for Key<'de> {
    type Deserializer = BorrowedStrDeserializer<'de, Error>;
    fn into_deserializer(self) -> Self::Deserializer {
        BorrowedStrDeserializer::new(self.0)
    }
}

// ------------------------------------------------------------ lenient readers

/// The `visit_*` methods of a lenient reader for the shapes it does not take, named
/// after `;`: each value is skipped (a mapping's or a list's entries read as
/// `IgnoredAny`) and read as `$none`.
macro_rules! skip_the_rest {
    ($none:expr; $($shape:ident)*) => { $( skip_the_rest!(@$shape $none); )* };
    (@map $none:expr) => {
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok($none)
        }
    };
    (@seq $none:expr) => {
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok($none)
        }
    };
    (@scalars $none:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($none)
        }
    };
    (@u64 $none:expr) => {
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok($none)
        }
    };
    (@str $none:expr) => {
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok($none)
        }
    };
}

/// A string, as shared text; `None` for any other value (skipped). For
/// `#[serde(deserialize_with = "string", default)]`.
pub(crate) fn string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Text>, D::Error> {
    struct Str;
    impl<'de> Visitor<'de> for Str {
        type Value = Option<Text>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_str<E>(self, v: &str) -> Result<Option<Text>, E> {
            Ok(Some(text(v)))
        }
        skip_the_rest!(None; map seq scalars u64);
    }
    d.deserialize_any(Str)
}

/// A string, borrowed from the text or value when it can be; `None` for any other
/// value (skipped). For a view read and dropped at once.
pub(crate) fn borrowed_string<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Cow<'de, str>>, D::Error> {
    struct Str;
    impl<'de> Visitor<'de> for Str {
        type Value = Option<Cow<'de, str>>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
            Ok(Some(Cow::Borrowed(v)))
        }
        fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(Cow::Owned(v.to_string())))
        }
        skip_the_rest!(None; map seq scalars u64);
    }
    d.deserialize_any(Str)
}

/// `string`, but none for an empty one.
pub(crate) fn nonempty_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Text>, D::Error> {
    Ok(string(d)?.filter(|s| !s.is_empty()))
}

/// An unsigned integer; `None` for any other value (a negative or fractional number
/// too).
pub(crate) fn uint<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    struct U64;
    impl<'de> Visitor<'de> for U64 {
        type Value = Option<u64>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_u64<E>(self, v: u64) -> Result<Option<u64>, E> {
            Ok(Some(v))
        }
        skip_the_rest!(None; map seq scalars str);
    }
    d.deserialize_any(U64)
}

/// A mapping read as the view `T`; `T`'s default for any other value (skipped).
#[derive(Default)]
#[repr(transparent)]
pub(crate) struct MapOr<T>(pub T);

impl<'de, T: Deserialize<'de> + Default> Deserialize<'de> for MapOr<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<MapOr<T>, D::Error> {
        struct Of<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de> + Default> Visitor<'de> for Of<T> {
            type Value = MapOr<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<MapOr<T>, A::Error> {
                let d = serde::de::value::MapAccessDeserializer::new(map);
                T::deserialize(d).map(MapOr)
            }
            skip_the_rest!(MapOr(T::default()); seq scalars u64 str);
        }
        d.deserialize_any(Of(PhantomData))
    }
}

/// A field that is `Some` when the mapping has it, whatever its value: `MapOr`'s
/// reading of it. For `#[serde(deserialize_with = "present", default)]`.
pub(crate) fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    MapOr::deserialize(d).map(|m| Some(m.0))
}

/// A list of values each read as `T` reads it; `None` for any other value (skipped).
/// `T` is lenient itself (`MapOr`, or a reader that takes any value).
pub(crate) fn list<'de, D, T>(d: D) -> Result<Option<Vec<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Of<T>(PhantomData<T>);
    impl<'de, T: Deserialize<'de>> Visitor<'de> for Of<T> {
        type Value = Option<Vec<T>>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            read_list(seq).map(Some)
        }
        skip_the_rest!(None; map scalars u64 str);
    }
    d.deserialize_any(Of(PhantomData))
}

/// A list of mappings each read as the view `T` (`MapOr`); `None` for any other value.
pub(crate) fn list_of<'de, D, T>(d: D) -> Result<Option<Vec<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    let maps: Option<Vec<MapOr<T>>> = list(d)?;
    Ok(maps.map(|m| m.into_iter().map(|m| m.0).collect()))
}

/// Each entry of a list, the list cut to size (what a view reads is often kept for the
/// whole command).
pub(crate) fn read_list<'de, A: SeqAccess<'de>, T: Deserialize<'de>>(
    mut seq: A,
) -> Result<Vec<T>, A::Error> {
    let mut items = Vec::new();
    while let Some(item) = seq.next_element()? {
        items.push(item);
    }
    items.shrink_to_fit();
    Ok(items)
}

/// A string among a list's entries (`list::<_, Str>`): itself, else none.
pub(crate) struct Str(pub Option<Text>);

impl<'de> Deserialize<'de> for Str {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Str, D::Error> {
        string(d).map(Str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    /// A strict view of every shape.
    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Every<'a> {
        #[serde(borrow)]
        name: Cow<'a, str>,
        count: u64,
        delta: i64,
        ratio: f64,
        on: bool,
        absent: Option<u64>,
        null: Option<String>,
        list: Vec<Option<u8>>,
        #[serde(borrow)]
        nested: Option<Box<Every<'a>>>,
    }

    #[test]
    fn a_view_reads_alike_from_text_and_from_the_built_value() {
        let json = r#"{"name":"a","count":1,"delta":-2,"ratio":0.5,"on":true,"null":null,
            "list":[1,null],"skipped":{"x":[1]},"nested":{"name":"b\u00e9","count":3,
            "delta":4,"ratio":1e300,"on":false,"list":[]}}"#;
        let from_text: Every = serde_json::from_str(json).unwrap();
        let built: Val = serde_json::from_str(json).unwrap();
        let from_value: Every = built.view().unwrap();
        assert_eq!(from_value, from_text);
        assert!(matches!(from_value.name, Cow::Borrowed("a")), "borrowed");
        // Refused alike: a field of the wrong shape, a missing one.
        for bad in [r#"{"name":1}"#, r#"{"name":"a"}"#, "[]", "null"] {
            let built: Val = serde_json::from_str(bad).unwrap();
            assert!(serde_json::from_str::<Every>(bad).is_err(), "{bad}");
            assert_eq!(built.view::<Every>(), None, "{bad}");
        }
    }

    /// The lenient readers take their shape and skip any other, from text as from
    /// the value.
    #[test]
    fn lenient_readers_skip_what_they_do_not_take() {
        #[derive(Debug, Default, PartialEq, Deserialize)]
        #[serde(default)]
        struct Lenient {
            #[serde(deserialize_with = "string")]
            s: Option<Text>,
            #[serde(deserialize_with = "uint")]
            u: Option<u64>,
            #[serde(deserialize_with = "list_of")]
            l: Option<Vec<Inner>>,
            #[serde(deserialize_with = "present")]
            p: Option<Inner>,
        }
        #[derive(Debug, Default, PartialEq, Deserialize)]
        #[serde(default)]
        struct Inner {
            #[serde(deserialize_with = "string")]
            s: Option<Text>,
        }
        let good = r#"{"s":"x","u":7,"l":[{"s":"y"},3,null],"p":null}"#;
        let bad = r#"{"s":{"a":[1]},"u":-1,"l":{"s":"y"},"other":[{}]}"#;
        for (json, expected) in [
            (
                good,
                Lenient {
                    s: Some(text("x")),
                    u: Some(7),
                    l: Some(vec![
                        Inner { s: Some(text("y")) },
                        Inner::default(),
                        Inner::default(),
                    ]),
                    p: Some(Inner::default()),
                },
            ),
            (bad, Lenient::default()),
        ] {
            let built: Val = serde_json::from_str(json).unwrap();
            assert_eq!(serde_json::from_str::<Lenient>(json).unwrap(), expected);
            assert_eq!(built.view::<Lenient>(), Some(expected), "{json}");
        }
    }
}
