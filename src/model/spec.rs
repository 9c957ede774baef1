//! An object's spec, in the state the stages have brought it to ([`Spec`]): whole as
//! read (JSON text or a built value, `Lazy`), reduced to what the hierarchy reads of
//! it once the snapshot is settled (a route's or backend's `Links`), or let go once a
//! topology was built from it. Code matches on the state; what reads the spec itself
//! reads null in the later two, as it did when they were a null spec beside a cache.

use super::value::Lazy;
use super::{Links, Val};
use once_cell::race::OnceBox;
use serde::de::Deserialize;
use serde::{Serialize, Serializer};
use std::fmt;

/// An object's spec, by state.
pub enum Spec {
    /// The whole spec as read. `links`: what the hierarchy reads of it, read the first
    /// time it is asked for (`Spec::links`); a `OnceBox`, one word on every object.
    Whole { spec: Lazy, links: OnceBox<Links> },
    /// A route's or backend's once the snapshot is settled (`Snapshot::settle`): what
    /// the hierarchy reads of it, all any answer reads.
    Links(Box<Links>),
    /// A route's or backend's once a topology was built from it in a world that is
    /// never built again (`Held::release_links`): nothing is kept.
    Released,
}

/// What a spec reduced to links or let go reads as.
static NULL: Lazy = Lazy::NULL;

/// What a route's spec reads as once its links were let go.
static NO_LINKS: std::sync::LazyLock<Links> = std::sync::LazyLock::new(Links::default);

impl Spec {
    /// The whole spec held as `spec`.
    pub(crate) fn whole(spec: Lazy) -> Spec {
        Spec::Whole {
            spec,
            links: OnceBox::new(),
        }
    }

    /// The whole spec; null once reduced to links or let go.
    pub(crate) fn lazy(&self) -> &Lazy {
        match self {
            Spec::Whole { spec, .. } => spec,
            Spec::Links(_) | Spec::Released => &NULL,
        }
    }

    /// What the hierarchy reads of a route's or backend's spec: read the first time it
    /// is asked for, as a view of the whole spec (`Lazy::read`: straight from its text
    /// when it is still text, nothing built); none once let go.
    pub(crate) fn links(&self) -> &Links {
        match self {
            Spec::Whole { spec, links } => links.get_or_init(|| Box::new(spec.read())),
            Spec::Links(links) => links,
            Spec::Released => &NO_LINKS,
        }
    }

    /// Settles a whole spec: built, its text let go (`Lazy::settle`).
    pub(crate) fn settle(&mut self) {
        if let Spec::Whole { spec, .. } = self {
            spec.settle();
        }
    }

    /// Reduces a whole spec to its links (a route's or backend's, once settled).
    pub(crate) fn keep_links(&mut self) {
        if let Spec::Whole { links, spec } = self {
            let read = links.get().map(|l| Box::new(l.clone()));
            *self = Spec::Links(read.unwrap_or_else(|| Box::new(spec.read())));
        }
    }

    /// Lets go of its links: a route's or backend's (all it kept) go, and a whole
    /// spec's are read again if asked for.
    pub(crate) fn release_links(&mut self) {
        match self {
            Spec::Whole { links, .. } => *links = OnceBox::new(),
            Spec::Links(_) => *self = Spec::Released,
            Spec::Released => {}
        }
    }

    /// The view `T` of the whole spec (`Lazy::view`).
    pub(crate) fn view<'s, T: Deserialize<'s>>(&'s self) -> Option<T> {
        self.lazy().view()
    }

    /// `Lazy::with` of the whole spec.
    pub(crate) fn with<R>(&self, f: impl FnOnce(&Val) -> R) -> R {
        self.lazy().with(f)
    }

    #[cfg(test)]
    /// `Lazy::unbuilt_text` of the whole spec.
    pub(crate) fn unbuilt_text(&self) -> Option<&str> {
        self.lazy().unbuilt_text()
    }

    /// Whether the whole spec is null (`Lazy::is_null`: asking builds nothing); it is
    /// once reduced to links or let go.
    pub(crate) fn is_null(&self) -> bool {
        self.lazy().is_null()
    }
}

impl Default for Spec {
    /// No spec.
    fn default() -> Spec {
        Spec::whole(Lazy::NULL)
    }
}

impl From<Val> for Spec {
    fn from(v: Val) -> Spec {
        Spec::whole(Lazy::from(v))
    }
}

/// The whole spec, built the first time it is looked at; null once reduced to links
/// or let go.
impl std::ops::Deref for Spec {
    type Target = Val;
    fn deref(&self) -> &Val {
        self.lazy()
    }
}

/// Two specs are the same to the analysis: whole, when their values are; else (one,
/// or both, reduced to links or let go) when both are null and they link the same.
impl PartialEq for Spec {
    fn eq(&self, other: &Spec) -> bool {
        match (self, other) {
            (Spec::Whole { spec: a, .. }, Spec::Whole { spec: b, .. }) => a == b,
            _ => self.is_null() && other.is_null() && self.links() == other.links(),
        }
    }
}

impl Clone for Spec {
    fn clone(&self) -> Spec {
        match self {
            Spec::Whole { spec, links } => Spec::Whole {
                spec: spec.clone(),
                links: links.clone(),
            },
            Spec::Links(links) => Spec::Links(links.clone()),
            Spec::Released => Spec::Released,
        }
    }
}

impl fmt::Debug for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spec::Whole { spec, .. } => spec.fmt(f),
            Spec::Links(links) => f.debug_tuple("Links").field(links).finish(),
            Spec::Released => f.write_str("Released"),
        }
    }
}

impl Serialize for Spec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.lazy().serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(json: &str) -> Spec {
        Spec::whole(Lazy::from_text(serde_json::from_str(json).unwrap()))
    }

    const ROUTE: &str = r#"{"parentRefs":[{"name":"gw"}],"rules":[{"matches":[]}]}"#;

    /// An object holds its spec in six words, as it held a spec and its links apart.
    #[test]
    fn a_spec_is_six_words() {
        assert_eq!(
            std::mem::size_of::<Spec>(),
            6 * std::mem::size_of::<usize>()
        );
    }

    #[test]
    fn a_route_spec_goes_from_text_to_its_links_to_nothing() {
        let mut spec = text(ROUTE);
        let links = spec.links().clone();
        assert_eq!(links.parent_refs.items().len(), 1);
        assert_eq!(spec.unbuilt_text(), Some(ROUTE), "links read from the text");
        spec.keep_links();
        assert!(matches!(&spec, Spec::Links(l) if **l == links));
        assert!(spec.is_null() && spec.get("parentRefs").is_none());
        spec.release_links();
        assert!(matches!(spec, Spec::Released));
        assert_eq!(spec.links(), &Links::default());
    }

    #[test]
    fn a_whole_spec_settles_built_and_keeps_no_text() {
        let mut spec = text(r#"{"a":1}"#);
        let _ = spec.links();
        spec.settle();
        assert!(matches!(
            &spec,
            Spec::Whole {
                spec: Lazy::Built(Some(_)),
                ..
            }
        ));
        assert_eq!(spec["a"].as_u64(), Some(1));
        spec.release_links();
        assert!(matches!(&spec, Spec::Whole { links, .. } if links.get().is_none()));
    }

    #[test]
    fn specs_are_the_same_when_whole_values_or_links_are() {
        let mut settled = text(ROUTE);
        settled.keep_links();
        assert_eq!(settled, settled.clone());
        assert_eq!(
            text(ROUTE),
            Spec::from(serde_json::from_str::<Val>(ROUTE).unwrap())
        );
        assert_ne!(settled, text(ROUTE));
        let mut other = text(r#"{"parentRefs":[{"name":"other"}]}"#);
        other.keep_links();
        assert_ne!(settled, other);
        // A spec with no links is the null one, reduced or not.
        let mut empty = text("{}");
        empty.keep_links();
        assert_eq!(empty, Spec::default());
        assert_eq!(Spec::Released, Spec::default());
    }
}
