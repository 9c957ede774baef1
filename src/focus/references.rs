//! Which objects a live read lists for the policies' references (`catalog::references`):
//! each kind a policy names (a Secret, a ConfigMap, a Service, a Backend), in the
//! namespaces it names them in, only; and the parameters GatewayClasses and Gateways
//! name (an EnvoyProxy), where they name them. Secrets and ConfigMaps are listed nowhere else
//! (and as metadata only: `source::live`), so the tool reads none that no policy names.

use crate::catalog::references::{kind_allowed, read_references, SpecRef};
use crate::catalog::{registry, Further, RefField, RefNamespaces};
use crate::model::{normalize_group, GroupKind, ObjRef, Object, GATEWAY_GROUP, GATEWAY_X_GROUP};
use std::collections::BTreeSet;

/// The kinds the policies among `objects` name in their references, each with a
/// namespace it names one in (`None`: every namespace, for a kind named by name alone,
/// `RefNamespaces::ByName`), and the parameters kinds GatewayClasses and Gateways
/// name (`parameters_named`). A reference its vendor refuses whatever exists (a kind
/// its field may not name, another namespace where only the policy's own may be) needs
/// nothing listed; one to a cluster-scoped kind (a ClusterTrustBundle of CA
/// certificates) is not listed either, and reads `Unchecked` on a live read.
pub fn referenced(objects: &[Object]) -> BTreeSet<(GroupKind, Option<String>)> {
    let mut out = BTreeSet::new();
    for policy in objects {
        let Some((fields, refs)) = spec_references(policy) else {
            continue;
        };
        let own = policy.namespace.as_deref();
        for r in refs {
            let Some(field) = fields.get(r.field) else {
                continue;
            };
            let t = &r.target;
            let Some(namespace) = t.namespace.as_deref() else {
                continue;
            };
            let refused = field.namespaces == RefNamespaces::Own && Some(namespace) != own;
            if refused || !kind_allowed(field, &t.group, &t.kind) {
                continue;
            }
            let namespace = match field.namespaces {
                RefNamespaces::ByName => None,
                _ => Some(namespace.to_string()),
            };
            out.insert((GroupKind::new(&t.group, &t.kind), namespace));
        }
    }
    out.extend(further_named(objects));
    // The parameters a GatewayClass or a Gateway names (an EnvoyProxy, whose
    // `mergeGateways` may decide a verdict), where they are named.
    out.extend(
        super::parameters::parameters_named(objects)
            .into_iter()
            .map(|(gk, ns)| (gk, Some(ns))),
    );
    out
}

/// What the objects the policies' references name must themselves have resolve
/// (`Further`), listed where it lies: a referent's own references (a kgateway
/// GatewayExtension's backend, in the namespace it names, and the ReferenceGrants
/// there), and the policy a rule looks for on a referent (a BackendTLSPolicy on an
/// Envoy Gateway ext-auth Service), in the referent's namespace.
fn further_named(objects: &[Object]) -> BTreeSet<(GroupKind, Option<String>)> {
    let mut out = BTreeSet::new();
    for object in objects {
        for (_, t) in referent_references(object) {
            if let Some(ns) = &t.namespace {
                out.insert((GroupKind::new(&t.group, &t.kind), Some(ns.to_string())));
            }
        }
        let Some((_, refs)) = spec_references(object) else {
            continue;
        };
        let rules = registry::lookup(&object.group_kind()).map_or(&[][..], |e| e.further);
        for r in refs {
            let t = &r.target;
            let Some(ns) = t.namespace.as_deref() else {
                continue;
            };
            for rule in rules.iter().filter(|rule| rule.covers(&t.group, &t.kind)) {
                let Further::PolicyOnIt { policy, .. } = rule else {
                    continue;
                };
                // Its own references are not followed from here: Secrets and ConfigMaps
                // are listed only where a policy read names them (in the referent's
                // namespace, where the policy naming the referent is, they are).
                out.insert((GroupKind::new(policy.0, policy.1), Some(ns.to_string())));
            }
        }
    }
    out
}

/// What a reference from another namespace to a (`gk`) in `namespace` further rests
/// on there: the ReferenceGrants of `namespace` (one lets the reference in), and what
/// an object of the kind may name beside it when a `Further` rule reads its references
/// (a BackendTLSPolicy's CA ConfigMaps and Secrets, a kgateway GatewayExtension's
/// backend Services and Backends).
pub fn resting_on(gk: &GroupKind, namespace: &str) -> Vec<(GroupKind, Option<String>)> {
    let at = |group: &str, kind: &str| {
        (
            GroupKind::new(normalize_group(group), kind),
            Some(namespace.to_string()),
        )
    };
    let mut out = vec![
        at(GATEWAY_GROUP, "ReferenceGrant"),
        at(GATEWAY_X_GROUP, "ReferenceGrant"),
    ];
    let is = |(group, kind): &(&str, &str)| {
        normalize_group(group) == gk.group.as_str() && *kind == gk.kind.as_str()
    };
    for rule in registry::further_rules() {
        let fields = match rule {
            Further::PolicyOnIt { policy, .. } if is(policy) => {
                registry::lookup(gk).map_or(&[][..], |k| k.references)
            }
            Further::ItsReferences {
                referent, fields, ..
            } if is(referent) => fields,
            _ => continue,
        };
        for field in fields {
            out.extend(field.kinds.iter().map(|(g, k)| at(g, k)));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The references `object` makes in its own spec where a `Further::ItsReferences`
/// rule reads them (a kgateway GatewayExtension's backend), each with its field.
pub(super) fn referent_references(object: &Object) -> Vec<(RefField, ObjRef)> {
    let group = normalize_group(object.group());
    let mut out = Vec::new();
    for rule in registry::further_rules() {
        let Further::ItsReferences {
            referent, fields, ..
        } = rule
        else {
            continue;
        };
        if normalize_group(referent.0) != group || referent.1 != object.kind.as_str() {
            continue;
        }
        let own = object.namespace.as_deref();
        let refs = object.spec.with(|spec| {
            spec.as_object()
                .map(|m| read_references(m, fields, own))
                .unwrap_or_default()
        });
        out.extend(refs.into_iter().map(|r| (fields[r.field], r.target)));
    }
    out
}

/// The registry's reference fields of `policy`'s kind and the references its spec
/// holds in them; `None` for a kind without any.
pub(super) fn spec_references(policy: &Object) -> Option<(&'static [RefField], Vec<SpecRef>)> {
    let fields = registry::lookup(&policy.group_kind())?.references;
    if fields.is_empty() {
        return None;
    }
    let own = policy.namespace.as_deref();
    let refs = policy.spec.with(|spec| {
        spec.as_object()
            .map(|m| read_references(m, fields, own))
            .unwrap_or_default()
    });
    Some((fields, refs))
}

/// The policy kinds whose specs may name other objects (the registry's with reference
/// fields): a watch keeps their policies to know what they name.
pub fn referring_kinds() -> Vec<GroupKind> {
    registry::entries()
        .filter(|e| !e.references.is_empty())
        .map(|e| GroupKind::new(e.group, e.kind))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::files::{load_text, Loaded};

    fn objects(yaml: &str) -> Vec<Object> {
        let mut loaded = Loaded::default();
        load_text(yaml, "<test>", &mut loaded).unwrap();
        loaded.snapshot.objects
    }

    #[test]
    fn the_kinds_and_namespaces_policies_name_and_no_others() {
        let objects = objects(
            r#"
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: auth, namespace: apps}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: r}]
  basicAuth: {users: {name: users}}
  extAuth: {http: {backendRefs: [{name: authz, namespace: auth, port: 80}]}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: apps}
spec: {rules: [{backendRefs: [{name: web, port: 80}]}]}
---
apiVersion: v1
kind: Secret
metadata: {name: unrelated, namespace: elsewhere}
"#,
        );
        let got: Vec<(String, String)> = referenced(&objects)
            .into_iter()
            .map(|(gk, ns)| (gk.kind.to_string(), ns.unwrap_or_default()))
            .collect();
        // Beyond the ext-auth Service, where it lies: the BackendTLSPolicy Envoy Gateway
        // applies to it (not the Secrets and ConfigMaps it may name: none named yet).
        let expected = [
            ("Secret", "apps"),
            ("Service", "auth"),
            ("BackendTLSPolicy", "auth"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(k, n)| (k.to_string(), n.to_string()))
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn what_a_reference_rests_on_one_step_further() {
        let kinds = |gk: GroupKind| -> Vec<String> {
            resting_on(&gk, "auth")
                .into_iter()
                .map(|(gk, ns)| {
                    assert_eq!(ns.as_deref(), Some("auth"));
                    format!("{}/{}", gk.group, gk.kind)
                })
                .collect()
        };
        let grants = [
            "gateway.networking.k8s.io/ReferenceGrant",
            "gateway.networking.x-k8s.io/ReferenceGrant",
        ];
        // A Secret rests on the grants alone.
        assert_eq!(kinds(GroupKind::new("", "Secret")), grants);
        // A BackendTLSPolicy (looked for on an ext-auth Service): its CA as well.
        let tls = kinds(GroupKind::new(
            "gateway.networking.k8s.io",
            "BackendTLSPolicy",
        ));
        assert!(tls.contains(&"/ConfigMap".to_string()), "{tls:?}");
        assert!(grants.iter().all(|g| tls.contains(&g.to_string())));
        // A GatewayExtension: the backends it may name.
        let ext = kinds(GroupKind::new("gateway.kgateway.dev", "GatewayExtension"));
        assert!(ext.contains(&"/Service".to_string()), "{ext:?}");
        assert!(
            ext.contains(&"gateway.kgateway.dev/Backend".to_string()),
            "{ext:?}"
        );
    }
}
