//! TYPE as kubectl accepts it: `httproute`, `httproutes`, `HTTPRoute`,
//! `httproute.gateway.networking.k8s.io`, short names, and policy kinds by their
//! lowercase kind, plural or `kind.group`.

use crate::catalog::Catalog;
use crate::model::{
    resource_plural, GroupKind, BUILTIN_KINDS, GATEWAY_GROUP, REFERENCED_CORE_KINDS,
};
use crate::model::{Crd, Object};

/// Why TYPE names no kind: none known by that name, or several.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveTypeError {
    #[error("unknown resource type {typed:?}: not a Gateway API kind, a Service, ServiceImport, Namespace, Pod, Secret or ConfigMap, nor a policy kind the registry, the CRDs read or --policy-kind name")]
    Unknown { typed: String },
    /// Kinds of that name in several groups: the `kind.group` spellings that tell them
    /// apart, in order.
    #[error("{typed:?} is ambiguous: use one of {}", .spellings.join(", "))]
    Ambiguous {
        typed: String,
        spellings: Vec<String>,
    },
}

/// Resolves TYPE against the built-in kinds, the policy kinds of the catalog and the
/// CRDs in the input. An ambiguous name (a kind in two groups) is an error that
/// names the `kind.group` spellings to use.
pub fn resolve_type(
    input: &str,
    catalog: &Catalog,
    objects: &[Object],
) -> Result<GroupKind, ResolveTypeError> {
    let lower = input.to_lowercase();
    let (name, group) = match lower.split_once('.') {
        Some((n, g)) => (n.to_string(), Some(g.to_string())),
        None => (lower.clone(), None),
    };
    let mut candidates: Vec<GroupKind> = Vec::new();
    let mut consider = |kind_group: &str, kind: &str, plural: &str, shorts: &[String]| {
        let matches_name = kind.to_lowercase() == name || plural == name || shorts.contains(&name);
        let matches_group = group
            .as_deref()
            .is_none_or(|want| want == kind_group || (want == "core" && kind_group.is_empty()));
        if matches_name && matches_group {
            let gk = GroupKind::new(kind_group, kind);
            if !candidates.contains(&gk) {
                candidates.push(gk);
            }
        }
    };
    for (kind_group, kind, short_names) in BUILTIN_KINDS {
        let shorts: Vec<String> = short_names.iter().map(|x| x.to_string()).collect();
        consider(kind_group, kind, &resource_plural(kind), &shorts);
    }
    // Pods: part of the hierarchy where a policy picks them by label (GKE).
    consider("", "Pod", "pods", &["po".to_string()]);
    // What policies' specs name: Secrets, ConfigMaps, any kind a reference field takes.
    for (kind_group, kind, short_names) in REFERENCED_CORE_KINDS {
        let shorts: Vec<String> = short_names.iter().map(|x| x.to_string()).collect();
        consider(kind_group, kind, &resource_plural(kind), &shorts);
    }
    for policy_kind in catalog.kinds.values() {
        for field in policy_kind.entry.references {
            for &(kind_group, kind) in field.kinds {
                let kind_group = crate::model::normalize_group(kind_group);
                consider(kind_group, kind, &resource_plural(kind), &[]);
            }
        }
    }
    for crd in objects.iter().filter_map(Crd::read) {
        let names = &crd.names;
        let shorts: Vec<String> = names
            .short_names
            .iter()
            .flatten()
            .map(|s| s.to_lowercase())
            .collect();
        consider(&crd.group, &names.kind, &names.plural, &shorts);
    }
    for policy_kind in catalog.kinds.values() {
        let (kind_group, kind) = (policy_kind.group(), policy_kind.kind());
        let shorts: Vec<String> = policy_kind
            .entry
            .short_names
            .iter()
            .map(|s| s.to_string())
            .collect();
        consider(kind_group, kind, &resource_plural(kind), &shorts);
    }
    match candidates.len() {
        0 => Err(ResolveTypeError::Unknown {
            typed: input.to_string(),
        }),
        1 => Ok(candidates.remove(0)),
        _ => {
            // Gateway API kinds win over look-alikes when no group was asked for.
            if let Some(gw) = candidates.iter().find(|c| c.group == GATEWAY_GROUP) {
                return Ok(gw.clone());
            }
            // Of kinds that share a name (Envoy Gateway's and APISIX's
            // BackendTrafficPolicy), the only one the input has objects or a CRD of.
            let present: Vec<&GroupKind> = candidates
                .iter()
                .filter(|c| objects.iter().any(|o| defines_or_is(o, c)))
                .collect();
            if let [one] = present[..] {
                return Ok(one.clone());
            }
            let mut spellings: Vec<String> = candidates
                .iter()
                .map(|c| format!("{}.{}", c.kind.to_lowercase(), c.group))
                .collect();
            spellings.sort();
            Err(ResolveTypeError::Ambiguous {
                typed: input.to_string(),
                spellings,
            })
        }
    }
}

/// `o` is an object of kind `gk`, or the CRD that defines it.
fn defines_or_is(object: &Object, gk: &GroupKind) -> bool {
    if Crd::is_crd(object) {
        Crd::read(object).is_some_and(|crd| crd.defines(&gk.group, &gk.kind))
    } else {
        object.group() == &*gk.group && object.kind == *gk.kind
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals() {
        assert_eq!(resource_plural("RetryPolicy"), "retrypolicies");
        assert_eq!(resource_plural("Gateway"), "gateways");
        assert_eq!(resource_plural("GatewayClass"), "gatewayclasses");
    }

    #[test]
    fn kubectl_spellings_resolve() {
        let cat = Catalog::build(&[], &[]);
        for s in [
            "httproute",
            "httproutes",
            "HTTPRoute",
            "httproute.gateway.networking.k8s.io",
        ] {
            assert_eq!(resolve_type(s, &cat, &[]).unwrap().kind, "HTTPRoute", "{s}");
        }
        assert_eq!(
            resolve_type("svc", &cat, &[]).unwrap(),
            GroupKind::new("", "Service")
        );
        assert_eq!(resolve_type("gtw", &cat, &[]).unwrap().kind, "Gateway");
        assert_eq!(resolve_type("gc", &cat, &[]).unwrap().kind, "GatewayClass");
        assert_eq!(resolve_type("ns", &cat, &[]).unwrap().kind, "Namespace");
        for s in ["pod", "pods", "po", "Pod"] {
            assert_eq!(
                resolve_type(s, &cat, &[]).unwrap(),
                GroupKind::new("", "Pod"),
                "{s}"
            );
        }
        // Policy kinds by their CRDs' short names, plurals and kind.group.
        // (Bare `backendtrafficpolicies` names APISIX's kind too: with no input holding
        // either, it is ambiguous; see kinds_in_two_groups_need_the_group.)
        for s in ["btp", "backendtrafficpolicy.gateway.envoyproxy.io"] {
            let gk = resolve_type(s, &cat, &[]).unwrap();
            assert_eq!(
                gk,
                GroupKind::new("gateway.envoyproxy.io", "BackendTrafficPolicy"),
                "{s}"
            );
        }
        let unknown = resolve_type("nonsense", &cat, &[]).unwrap_err();
        assert_eq!(
            unknown,
            ResolveTypeError::Unknown {
                typed: "nonsense".to_string()
            }
        );
        assert!(unknown
            .to_string()
            .starts_with("unknown resource type \"nonsense\": not a Gateway API kind"));
    }

    #[test]
    fn kinds_in_two_groups_need_the_group() {
        let cat = Catalog::build(&[], &[]);
        let err = resolve_type("ratelimitpolicy", &cat, &[]).unwrap_err();
        let ResolveTypeError::Ambiguous { spellings, .. } = &err else {
            panic!("{err:?}")
        };
        assert!(spellings.contains(&"ratelimitpolicy.kuadrant.io".to_string()));
        assert!(spellings.contains(&"ratelimitpolicy.gateway.nginx.org".to_string()));
        assert!(err.to_string().starts_with(
            "\"ratelimitpolicy\" is ambiguous: use one of ratelimitpolicy.gateway.nginx.org, "
        ));
        let gk = resolve_type("ratelimitpolicy.kuadrant.io", &cat, &[]).unwrap();
        assert_eq!(gk, GroupKind::new("kuadrant.io", "RateLimitPolicy"));
    }

    #[test]
    fn a_shared_kind_name_resolves_to_the_one_the_input_holds() {
        let eg = GroupKind::new("gateway.envoyproxy.io", "BackendTrafficPolicy");
        let w = crate::analyze_yaml(
            "apiVersion: gateway.envoyproxy.io/v1alpha1\nkind: BackendTrafficPolicy\nmetadata: {name: p, namespace: default}\nspec: {targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]}\n",
        )
        .unwrap();
        let (cat, objects) = (w.topology.catalog(), &w.topology.objects());
        assert_eq!(resolve_type("backendtrafficpolicy", cat, objects), Ok(eg));
        // With neither in the input, the name is ambiguous (APISIX ships one too).
        let err = resolve_type("backendtrafficpolicy", cat, &[]).unwrap_err();
        assert!(
            err.to_string()
                .contains("backendtrafficpolicy.apisix.apache.org"),
            "{err}"
        );
    }
}
