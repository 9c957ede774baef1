//! Kong (Kong/kubernetes-configuration @ b6e8d4f7).

use super::*;

/// Kong's kind.
const BASE: Entry = Entry {
    group: "configuration.konghq.com",
    project: "Kong",
    ..Entry::INHERITED
};

pub(super) static ENTRIES: &[Entry] = &[Entry {
    kind: "KongUpstreamPolicy",
    class: Class::Direct,
    // No targetRef: the Service's annotation names the policy.
    targeting: Targeting {
        target_ref: false,
        target_refs: false,
        target_annotation: Some("konghq.com/upstream-policy"),
        // kubernetes-ingress-controller internal/controllers/configuration/
        // kongupstreampolicy_utils.go `httpRouteHasUpstreamPolicyConflictedBackendRefsWithService`:
        // a Service of an HTTPRoute rule whose other Services do not name the same policy
        // is Accepted=False, Conflicted (PR #5417).
        annotation_same_in_rule: true,
        ..REF
    },
    target_kinds: &["Service", "KongServiceFacade"],
    namespaces: NamespaceRule::Own,
    sections: Sections::None,
    merge: MergeModel::None,
    same_target: SameTarget::OldestWins,
    defaults_overrides: DefaultsOverrides::None,
    label: Some("direct"),
    status_shape: "ancestors",
    note: "Upstream (load balancing, health check) settings attached from the target's side: a Service's konghq.com/upstream-policy annotation names it; all Services behind one route rule must name the same one, or it is ignored.",
    documented: "https://developer.konghq.com/kubernetes-ingress-controller/reference/custom-resources/#kongupstreampolicy",
    cite: "Kong/kubernetes-configuration@b6e8d4f7 api/configuration/v1beta1/kongupstreampolicy_types.go",
    // Names no object: balancing algorithm, hash inputs and health checks (its API type).
    references: &[],
    ..BASE
}];
