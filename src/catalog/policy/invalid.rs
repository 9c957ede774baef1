//! What a policy's fields say that cannot be read, or that its controller refuses: the
//! field's path as data beside what is wrong with it, shown as `field: problem` (the
//! `Invalid` finding's text).

use crate::model::ObjRef;

/// One field of a policy that cannot be read, or that its controller refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {problem}")]
pub struct FieldError {
    /// The field's path from the object's root: `spec.targetRefs[0].kind`.
    pub field: String,
    pub(crate) problem: FieldProblem,
}

impl FieldError {
    pub(crate) fn new(field: impl Into<String>, problem: FieldProblem) -> FieldError {
        FieldError {
            field: field.into(),
            problem,
        }
    }
}

/// What is wrong with a [`FieldError`]'s field, said after its path.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum FieldProblem {
    #[error("is missing")]
    Missing,
    /// The value is not of the shape the field takes: what it must be (`a mapping`).
    #[error("must be {0}")]
    MustBe(&'static str),
    /// A `matchExpressions` entry without a string `key` or `operator`.
    #[error("needs string key and operator")]
    NeedsKeyAndOperator,
    /// A `matchExpressions` operator other than In, NotIn, Exists and DoesNotExist.
    #[error("unknown operator {0:?}")]
    UnknownOperator(String),
    /// A value the field does not take, and the ones it does.
    #[error("unknown value {value:?} ({expected})")]
    UnknownValue {
        value: String,
        expected: &'static str,
    },
    /// A GEP-713 `strategy` other than atomic, patch and merge.
    #[error("unknown strategy {0:?} (atomic, patch or merge)")]
    UnknownStrategy(String),
    /// Nothing says where the policy attaches.
    #[error("the policy names no target (targetRef, targetRefs or targetSelectors)")]
    NoTarget,
    /// GEP-2649's `default`/`override` beside GEP-713's `defaults`/`overrides`.
    #[error("mixes default/override stanzas with defaults/overrides; default/override is used")]
    MixedStanzas,
    /// Both `defaults` and `overrides` (GEP-713: one strategy per policy).
    #[error("has both defaults and overrides; GEP-713 allows one merge strategy per policy")]
    TwoStrategies,
    /// A setting (`field`) its vendor does not accept on a target of `kind`. `whole`:
    /// its CRD's validation refuses the policy whole; else its controller refuses it
    /// on that target and the policy's others stand.
    #[error("is set and the policy targets {} {}: {}", .target.kind, .target.ns_name(), if *.whole { format!("its CRD accepts no {field} on a {kind}: the API server refuses the policy whole (kubectl apply fails)") } else { format!("its controller accepts no {field} on a {kind}: the policy is refused on that {kind} and stands on its other targets") })]
    UnsupportedOnTarget {
        target: ObjRef,
        field: &'static str,
        kind: &'static str,
        whole: bool,
    },
    /// A reference to `target` in another namespace, which the kind's CRD refuses.
    #[error("names {target} in another namespace: its CRD accepts no namespace in a reference (cross-namespace references are not supported)")]
    CrossNamespace { target: ObjRef },
    /// A target of a kind (`named`) its vendor refuses (`by`: "its CRD", "its
    /// controller"), which allows only `allowed`. `whole`: the API server refuses the
    /// whole policy (a CRD's validation fails the request); else that target is
    /// refused and the policy's others stand.
    #[error("names {named}, a kind it cannot target ({by} allows {}): {}", .allowed.join(", "), if *.whole { "the API server refuses the policy whole (kubectl apply fails)" } else { "that target is refused, the policy's others stand" })]
    TargetKindNotAllowed {
        named: String,
        allowed: Vec<String>,
        by: &'static str,
        whole: bool,
    },
    /// A single `port` on a reference to a kind other than Gateway (agentgateway: a
    /// frontend policy's listeners on that port).
    #[error("names a port of a {kind}: its CRD accepts one only on a Gateway target (a frontend policy), where it scopes the policy to the listeners on that port; the API server refuses the policy whole")]
    PortOnlyOnGateway { kind: String },
    /// A `port` on a reference of a policy that sets none of the fields its CRD needs
    /// for one (`needs`; agentgateway: `spec.frontend`).
    #[error("is set but the policy sets no {needs}: its CRD accepts a port only with {needs}; the API server refuses the policy whole")]
    PortWithout { needs: String },
    /// A `sectionName` on a reference of a policy that sets `field`, which its CRD
    /// applies to the whole target only (agentgateway: `spec.frontend.tcp`).
    #[error("is set and the policy sets {field}: its CRD accepts no sectionName with {field}; the API server refuses the policy whole")]
    SectionNameWith { field: String },
    /// A `port` beside a `sectionName` in one reference.
    #[error("is set with sectionName: a reference names one or the other (its CRD); the API server refuses the policy whole")]
    PortWithSectionName,
    /// `matchLabels` in a selector entry that names a Namespace (GKE: it picks Pods).
    #[error("is set on a Namespace: it picks Pods only (its CRD refuses it here); the policy's namespace is taken")]
    LabelsOnNamespace,
    /// Its controller refuses the policy for a reason found beyond the policy itself (the
    /// listener it targets, for one): why.
    #[error("{0}")]
    Refused(String),
}

impl FieldProblem {
    /// Whether the API server refuses the whole object for it (a CRD's validation
    /// rule fails the request, so `kubectl apply` stores nothing): the policy then
    /// applies nowhere, whatever its other targets.
    pub(crate) fn refused_by_api_server(&self) -> bool {
        match self {
            FieldProblem::TargetKindNotAllowed { whole, .. } => *whole,
            FieldProblem::UnsupportedOnTarget { whole, .. } => *whole,
            FieldProblem::PortOnlyOnGateway { .. }
            | FieldProblem::PortWithSectionName
            | FieldProblem::PortWithout { .. }
            | FieldProblem::SectionNameWith { .. } => true,
            _ => false,
        }
    }
}
