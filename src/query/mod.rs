//! One function per question, pure, over topology + effective results. Each returns
//! a plain struct that serialises to the JSON shape of docs/reference.md and that the human
//! renderers print.

pub mod blast;
mod check;
pub mod dependents;
mod describe;
pub mod diff;
mod effective;
mod get;
pub mod graph;
pub mod hint;
mod name_error;
pub mod names;
pub mod outline;
mod policy;
mod reported;
mod sections;
pub mod select;
pub mod subject;
mod tree;
pub mod types;
pub mod watch;
mod world;

pub use check::policy_findings;
pub use check::{check, check_in, CheckResult};
pub(crate) use describe::{condition, findings_on};
pub use describe::{
    describe_namespace, describe_target, AttachedRoute, ListenerInfo, ReachingPolicy, Relation,
    TargetDescription,
};
pub use effective::{effective, EffectivePolicies};
pub use get::{
    kind_rows, policy_item, policy_rows, KindRow, ListMeta, ListOf, PolicyItem, PolicyRow,
};
pub use name_error::NameError;
pub use policy::{
    describe_policy, reported_status, Affected, Overridden, PolicyDescription, ReportedCondition,
    StatusPair, TargetState,
};
pub use reported::{
    is_failure, reported_word, shown_reason, shown_status, shown_text, summarise, Reported,
};
pub use sections::SectionEffective;
pub use tree::{namespace_entries, nodes_in_scope, role_then_ref, TreeView};
pub use tree::{tree, TreeNode, TreePolicy, MAX_DEPTH};
pub use world::{analyze, analyze_once, Rebuildable, World};

use crate::catalog::policy::Policy;
use crate::catalog::Class;
use crate::effective::{EffectiveGroup, KindFold, PolicyStatus, StatusesAt};
use crate::model::{BlindSpot, Val};
use crate::model::{GroupKind, ObjRef};
use crate::topology::{Code, Finding, NodeId, PolicyId, Resolution, Role, Topology};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// A policy kind in the JSON answers: `{"group", "kind"}`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PolicyKindRef {
    pub(crate) group: String,
    pub kind: String,
}

impl From<&GroupKind> for PolicyKindRef {
    fn from(gk: &GroupKind) -> Self {
        PolicyKindRef {
            group: gk.group.to_string(),
            kind: gk.kind.to_string(),
        }
    }
}

/// Who set one leaf of an effective spec: its JSON pointer and the policy.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub(crate) struct Source {
    pub(crate) path: String,
    pub(crate) policy: ObjRef,
}

/// The effective spec of one policy kind at one object (or section), for the contexts
/// that share it, with the policy behind every setting (docs/reference.md's EFFECTIVE).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Effective {
    #[serde(rename = "policyKind")]
    pub policy_kind: PolicyKindRef,
    /// The object or section this effective spec is for.
    pub(crate) target: ObjRef,
    pub contexts: Vec<Vec<ObjRef>>,
    pub spec: Value,
    pub(crate) sources: Vec<Source>,
}

impl Effective {
    pub(crate) fn from_group(world: &World, group: &EffectiveGroup) -> Effective {
        let mut sources: Vec<Source> = group
            .sources
            .iter()
            .map(|(path, p)| Source {
                path: path.clone(),
                policy: world.policy_ref(*p),
            })
            .collect();
        // Nothing set, though policies are folded in: the most specific of them set
        // it so (one that replaces the others whole and sets nothing, as Envoy
        // Gateway's do), and the whole spec, JSON pointer "", is its.
        let empty = group.spec.as_object().is_some_and(|m| m.is_empty());
        if let (true, true, Some(&last)) = (empty, sources.is_empty(), group.applied.last()) {
            sources.push(Source {
                path: String::new(),
                policy: world.policy_ref(last),
            });
        }
        Effective {
            policy_kind: (&group.kind).into(),
            target: world.topology.node(group.node).obj_ref.clone(),
            contexts: group.contexts.clone(),
            spec: group.spec.clone(),
            sources,
        }
    }
}

/// The status an unresolved target stands for (what `get` shows for a policy with no
/// other target).
fn unresolved_status(code: Code) -> PolicyStatus {
    match code {
        Code::SectionNotFound => PolicyStatus::SectionNotFound,
        Code::SelectorBound => PolicyStatus::SelectorBound,
        Code::TargetIsPolicy | Code::Invalid | Code::Refused => PolicyStatus::Invalid,
        // Its controller sets it Conflicted on that target (Kong).
        Code::Conflicted => PolicyStatus::Conflicted,
        // A target that names no object, or one the hierarchy could not take in.
        Code::TargetNotFound
        | Code::RefNotPermitted
        | Code::NotAdmitted
        | Code::ParentNotFound
        | Code::BackendNotFound
        | Code::StatusDisagrees
        | Code::SelectorMatchesNothing
        | Code::SectionNotReached
        | Code::DuplicateObject
        | Code::UnresolvedReference
        | Code::Cycle => PolicyStatus::TargetNotFound,
    }
}
