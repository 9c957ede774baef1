//! Attachment from the target's side: for kinds whose registry entry names a
//! `target_annotation` (Kong's KongUpstreamPolicy: a Service's
//! `konghq.com/upstream-policy: <name>`), the objects whose annotation names a policy
//! become that policy's targets, as if it named them in a targetRef. Such a policy has
//! no targetRef of its own; one that no object names is a finding.

use super::{Code, Finding};
use crate::catalog::policy::{Policy, TargetRefusal, TargetSpec};
use crate::catalog::Catalog;
use crate::model::{normalize_group, GroupKind, ObjRef, Object, RuleLinks};
use std::collections::BTreeMap;

/// Adds to each such policy the objects that name it; returns a finding for each one
/// that nothing names.
pub(super) fn attach_by_target_annotations(
    objects: &[Object],
    catalog: &Catalog,
    policies: &mut [Policy],
) -> Vec<Finding> {
    // (policy kind, annotation, the kinds that may carry it), usually none.
    let kinds: Vec<(GroupKind, &str, &[&str])> = catalog
        .kinds
        .values()
        .filter_map(|k| {
            let a = k.entry.targeting.target_annotation?;
            Some((k.group_kind(), a, k.entry.target_kinds))
        })
        .collect();
    if kinds.is_empty() || !policies.iter().any(|p| kinds.iter().any(|k| k.0 == p.kind)) {
        return Vec::new();
    }
    // (policy kind, namespace, policy name) -> the objects that name it, in input order.
    let mut named: BTreeMap<(GroupKind, String, String), Vec<ObjRef>> = BTreeMap::new();
    for object in objects {
        let Some(ns) = object.namespace.as_deref() else {
            continue;
        };
        for (gk, annotation, carriers) in &kinds {
            let Some(name) = object.annotations.get(*annotation) else {
                continue;
            };
            if !carriers.contains(&object.kind.as_str()) {
                continue;
            }
            named
                .entry((gk.clone(), ns.to_string(), name.trim().to_string()))
                .or_default()
                .push(object.obj_ref());
        }
    }
    let mut findings = Vec::new();
    for policy in policies.iter_mut() {
        let Some((_, annotation, _)) = kinds.iter().find(|k| k.0 == policy.kind) else {
            continue;
        };
        let key = (
            policy.kind.clone(),
            policy
                .obj_ref
                .namespace
                .as_deref()
                .unwrap_or_default()
                .to_string(),
            policy.obj_ref.name.to_string(),
        );
        match named.remove(&key) {
            Some(refs) => policy.targets.extend(refs.into_iter().map(TargetSpec::Ref)),
            None if policy.targets.is_empty() => findings.push(Finding::new(
                Code::TargetNotFound,
                policy.obj_ref.clone(),
                format!("no object's {annotation} annotation names it"),
            )),
            None => {}
        }
    }
    findings
}

/// For kinds whose Services must agree within a route rule
/// (`Targeting::annotation_same_in_rule`: Kong's KongUpstreamPolicy), the policy a
/// Service names is refused on that Service when another Service of the same
/// HTTPRoute rule names another one, or none: its controller sets it Conflicted
/// (Accepted=False) there and applies it on its other Services. Each such Service is
/// added to the policy's `refused_targets`, and a finding says why.
pub(super) fn rule_annotation_conflicts<'o>(
    objects: &'o [Object],
    catalog: &Catalog,
    policies: &mut [Policy],
) -> Vec<Finding> {
    let kinds: Vec<(GroupKind, &str)> = catalog
        .kinds
        .values()
        .filter(|k| k.entry.targeting.annotation_same_in_rule)
        .filter_map(|k| Some((k.group_kind(), k.entry.targeting.target_annotation?)))
        .collect();
    if kinds.is_empty() || !policies.iter().any(|p| kinds.iter().any(|k| k.0 == p.kind)) {
        return Vec::new();
    }
    // (namespace, name) of each core Service, with its annotations.
    let services: BTreeMap<(&str, &str), &'o Object> = objects
        .iter()
        .filter(|o| o.kind == "Service" && normalize_group(o.group()).is_empty())
        .filter_map(|o| Some(((o.namespace.as_deref()?, o.name.as_str()), o)))
        .collect();
    let policy_named = |kind: &GroupKind, ns: &str, name: &str| {
        policies.iter().position(|p| {
            p.kind == *kind && p.obj_ref.namespace.as_deref() == Some(ns) && p.obj_ref.name == name
        })
    };
    // (policy, the Service it is refused on, why), in input order.
    let mut refused: Vec<(usize, ObjRef, String)> = Vec::new();
    let routes = objects.iter().filter(|o| {
        o.kind == "HTTPRoute" && normalize_group(o.group()) == "gateway.networking.k8s.io"
    });
    for route in routes {
        let Some(route_ns) = route.namespace.as_deref() else {
            continue;
        };
        for (j, rule) in route.links().rules.items().iter().enumerate() {
            let backends = rule_services(rule, route_ns);
            if backends.len() < 2 {
                continue;
            }
            for (kind, annotation) in &kinds {
                // The policy a Service names: (its namespace, its name). A name is
                // looked up in the Service's own namespace, so the same name in two
                // namespaces names two policies.
                let named = |service: (&'o str, &'o str)| -> Option<(&'o str, &'o str)> {
                    services
                        .get(&service)
                        .and_then(|o| o.annotations.get(*annotation))
                        .map(|v| (service.0, v.trim()))
                };
                for &service in &backends {
                    let Some(value) = named(service) else {
                        continue;
                    };
                    let Some(policy) = policy_named(kind, value.0, value.1) else {
                        continue;
                    };
                    let Some(&other) = backends.iter().find(|&&o| named(o) != Some(value)) else {
                        continue;
                    };
                    let names = match named(other) {
                        Some((ns, v)) if ns == value.0 => format!("names {v}"),
                        Some((ns, v)) => format!("names {v} of namespace {ns}"),
                        None => "names none".to_string(),
                    };
                    let Some(&object) = services.get(&service) else {
                        continue;
                    };
                    refused.push((
                        policy,
                        object.obj_ref(),
                        format!(
                            "Service {}/{} names it ({annotation}) but rule {} of HTTPRoute {route_ns}/{} also sends to Service {}/{}, which {names}: the Services of one rule must name the same {}, so its controller sets it Conflicted on Service {}/{} (Accepted=False) and does not apply it there",
                            service.0,
                            service.1,
                            rule.section(j),
                            route.name,
                            other.0,
                            other.1,
                            kind.kind,
                            service.0,
                            service.1,
                        ),
                    ));
                }
            }
        }
    }
    let mut findings = Vec::new();
    for (policy, service, why) in refused {
        let policy = &mut policies[policy];
        policy.refuse_on(service, TargetRefusal::Conflicted);
        findings.push(Finding::new(Code::Conflicted, policy.obj_ref.clone(), why));
    }
    findings
}

/// The core Services a route rule sends to (`namespace`, `name`; the route's namespace
/// where a backendRef names none), each once, in order.
fn rule_services<'o>(rule: &'o RuleLinks, route_ns: &'o str) -> Vec<(&'o str, &'o str)> {
    let mut services: Vec<(&'o str, &'o str)> = Vec::new();
    for backend in rule.backend_refs.iter().flatten() {
        let group = backend.group.as_deref().unwrap_or("");
        let kind = backend.kind.as_deref().unwrap_or("Service");
        let core = matches!(group, "" | "core") && kind == "Service";
        let Some(name) = backend.name.as_deref().filter(|_| core) else {
            continue;
        };
        let ns = backend.namespace.as_deref().unwrap_or(route_ns);
        if !services.contains(&(ns, name)) {
            services.push((ns, name));
        }
    }
    services
}
