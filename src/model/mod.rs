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
pub mod hash;
mod links;
mod names;
mod namespace_links;
mod object;
pub mod read;
mod spec;
pub mod text;
pub mod value;
mod view;
mod vocabulary;
pub mod watch;

pub use crd::{Crd, CRD_GROUP, CRD_KIND};
pub use hash::{key_hash, FastMap, FastSet, FastState};
pub(crate) use ids::index_type;
pub use ids::ObjectId;
pub(crate) use links::port_section;
pub use links::{Links, ListField, RefFields, RuleLinks};
pub use names::*;
pub use namespace_links::NamespaceLinks;
pub(crate) use namespace_links::{backend_refs, is_route_object, parent_refs};
pub use object::*;
pub use spec::Spec;
pub use text::{text, Text};
pub use value::{Lazy, Map, Val};
pub use vocabulary::*;
