//! The data every stage shares, at the bottom of the pipeline: names and references
//! (`names`), objects and what could not be read (`object`), a spec by its state
//! (`spec`), the compact forms it is held in (`text`, `value`) and the one way a typed view of it is read (`view`), the
//! links between namespaces routes make (`namespace_links`; what a route's spec says:
//! `links`), the Gateway API's vocabulary (`vocabulary`), and what a live read is asked
//! for and reports (`read`, `watch`), which the pure layers share with `source` without
//! importing it. No I/O, and no import of any other module of the crate.

mod crd;
#[macro_use]
mod ids;
pub(crate) mod hash;
mod links;
mod names;
mod namespace_links;
mod object;
pub mod read;
mod spec;
pub(crate) mod text;
pub(crate) mod value;
mod view;
mod vocabulary;
pub mod watch;

pub(crate) use crd::{Crd, CRD_GROUP, CRD_KIND};
pub(crate) use hash::{key_hash, FastMap, FastSet};
pub(crate) use ids::index_type;
pub(crate) use ids::ObjectId;
pub(crate) use links::port_section;
pub(crate) use links::{Links, ListField, RefFields, RuleLinks};
pub use names::*;
pub(crate) use namespace_links::NamespaceLinks;
pub(crate) use namespace_links::{backend_refs, is_route_object, parent_refs};
pub use object::*;
pub(crate) use spec::Spec;
pub(crate) use text::{text, Text};
pub(crate) use value::{Lazy, Map, Val};
pub(crate) use vocabulary::*;
