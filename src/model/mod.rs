//! The data every stage shares, at the bottom of the pipeline: names and references
//! (`names`), objects and what could not be read (`object`), the links between
//! namespaces routes make (`namespace_links`; what a route's spec says: `links`), and the Gateway API's vocabulary (`vocabulary`). No I/O, and no import of any other module of the crate.

mod crd;
#[macro_use]
mod ids;
pub mod hash;
mod links;
mod links_text;
mod names;
mod namespace_links;
mod object;
pub mod read;
pub mod text;
pub mod value;
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
pub use text::{text, Text};
pub use value::{Lazy, Map, Val};
pub use vocabulary::*;
