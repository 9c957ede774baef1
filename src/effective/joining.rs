//! What the fold and the merge models share: a policy as it enters the fold
//! (`Joining`) and one stanza of it (`Layer`). Below both `combine` (which reads a
//! policy into a `Joining`: `Joining::new`, and folds them) and `merge/` (what each
//! model does with them), so that neither imports the other's types.

use super::sourced::Sourced;
use crate::catalog::policy::How;
use crate::topology::PolicyId;
use std::rc::Rc;

/// One stanza of a policy as it joins the fold: what it sets, and how it meets the
/// levels below.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Layer {
    pub(crate) how: How,
    pub(crate) value: Rc<Sourced>,
}

/// A policy as it enters the fold at one attachment point (or several policies of one
/// kind on one target, merged first as their kind says: `same_target/`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Joining {
    /// The policies it holds, oldest first (one, unless merged on one target).
    pub(crate) policies: Vec<PolicyId>,
    /// What it sets where the levels below set nothing (none: no intent).
    pub(crate) defaults: Option<Layer>,
    /// What it sets over everything below (none: no intent).
    pub(crate) overrides: Option<Layer>,
    /// Envoy Gateway: this policy sets `mergeType`, so it is merged into the policy
    /// of the nearest less specific level instead of replacing it.
    pub(crate) merges_into_parent: bool,
    /// It attaches at a route or one of its rules (not a Gateway, listener or
    /// ListenerSet): Envoy Gateway's `mergeType` passes it over
    /// (`merge/envoy_merge_type.rs`).
    pub(crate) route_level: bool,
    /// The policies read narrowed to this place (a spec's per-port lists: `spec_at_port`),
    /// each with how many settings it sets here: what it can keep here, not its whole
    /// spec's count. Empty for every other policy.
    pub(crate) narrowed: Vec<(PolicyId, usize)>,
}
