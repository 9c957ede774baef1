//! Findings: what the tool noticed that a user should know. Never silence.

use crate::model::ObjRef;
use serde::Serialize;

/// How bad a finding is: `check` exits 1 on an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// What a finding is about (docs/reference.md lists the codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Code {
    /// A policy names an object that does not exist.
    TargetNotFound,
    /// A policy names a section (listener, rule, port) its target does not have.
    SectionNotFound,
    /// A policy or object whose spec cannot be read.
    Invalid,
    /// A cross-namespace reference with no ReferenceGrant allowing it.
    RefNotPermitted,
    /// A route's parentRef that no listener admits.
    NotAdmitted,
    /// A route's parent (Gateway, ListenerSet, Service) or a Gateway's class is missing.
    ParentNotFound,
    /// A backendRef to an object that is not in the input.
    BackendNotFound,
    /// Another policy of its kind wins on the same target, by the kind's same-target
    /// rule (GEP-713's None: the older one).
    Conflicted,
    /// A controller reports a status the computation contradicts.
    StatusDisagrees,
    /// A policy bound by a workload selector, outside the Gateway API hierarchy.
    SelectorBound,
    /// A targetSelector that matches nothing.
    SelectorMatchesNothing,
    /// The same object (group, kind, namespace, name) in the input more than once.
    DuplicateObject,
    /// References (parentRefs, backendRefs, delegation) that lead from an object back
    /// to itself: the hierarchy is a DAG, so the reference that closes it is left out.
    Cycle,
    /// A policy whose target is a policy (itself or another): policies attach to the
    /// objects of the hierarchy, never to each other.
    TargetIsPolicy,
    /// A reference in a policy's spec that does not resolve, where its controller
    /// drops that entry or setting and applies the rest, or never reads the object (one
    /// refusing the whole policy makes it Invalid instead).
    UnresolvedReference,
    /// A controller refuses the policy's current generation (`Accepted=False`) while
    /// the computed verdict is not a failure: STATUS shows the refusal.
    Refused,
    /// A policy aimed at a section that, by its controller's rule, no route's traffic
    /// comes through (a BackendTLSPolicy on a port of an Envoy Gateway Backend that no
    /// backendRef names): it applies to nothing, and its controller writes no status.
    SectionNotReached,
}

impl Code {
    pub(crate) fn severity(self) -> Severity {
        match self {
            Code::TargetNotFound
            | Code::SectionNotFound
            | Code::Invalid
            | Code::RefNotPermitted
            | Code::NotAdmitted
            | Code::Conflicted
            | Code::Cycle
            | Code::TargetIsPolicy
            | Code::Refused => Severity::Error,
            Code::ParentNotFound
            | Code::BackendNotFound
            | Code::StatusDisagrees
            | Code::SelectorMatchesNothing
            | Code::SectionNotReached
            | Code::DuplicateObject
            | Code::UnresolvedReference => Severity::Warning,
            Code::SelectorBound => Severity::Info,
        }
    }
}

/// Something a user should know about an object or a policy: never silence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub severity: Severity,
    pub code: Code,
    pub object: ObjRef,
    pub message: String,
}

impl Finding {
    pub(crate) fn new(code: Code, object: ObjRef, message: impl Into<String>) -> Self {
        Finding {
            severity: code.severity(),
            code,
            object,
            message: message.into(),
        }
    }
}

/// Sorted the way every list in the output is: by object, then code, then message.
pub(crate) fn sort_findings(f: &mut [Finding]) {
    f.sort_by(|a, b| (&a.object, a.code, &a.message).cmp(&(&b.object, b.code, &b.message)));
}
