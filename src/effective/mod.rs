//! Effective policies (GEP-713 §"Abstract process"): per policy kind, per context
//! path, the stack of policies folded from the least specific end. Pure functions.
//!
//! The fold is top-down: a node's contexts are its parents' contexts plus the
//! policies attached at this node (and at its namespace level, the first time a
//! path enters that namespace). Each node's contexts are computed once and shared by
//! every child, so no path is ever re-walked from the root. `fold` holds it (its
//! configuration, its memo and its walks, each a type of its own); `combine` one
//! path's state; `status` the computed statuses read from it.

pub(crate) mod combine;
mod fold;
mod joining;
mod merge;
mod same_target;
pub(crate) mod sourced;
pub(crate) mod status;

pub(crate) use combine::Acc;
pub(crate) use fold::PathStep;
pub use fold::{Ctx, EffectiveGroup, FoldConfig, KindFold, NoPaths, Paths, WithPaths};
pub(crate) use joining::Joining;
pub use status::{Counts, PolicyStatus, Reached, Statuses, StatusesAt};
