//! The GatewayClass parameters a verdict may turn on (Envoy Gateway's EnvoyProxy with
//! `mergeGateways`, `catalog::registry::class_parameters`): an answer that reaches a
//! class reads them, wherever they live.

use crate::catalog::registry::class_parameters;
use crate::model::{is_gateway_group, normalize_group, GroupKind, Object, Val};

/// (namespace, name) of each object of a class-parameters kind the registry knows that
/// a GatewayClass among `objects` names in its `spec.parametersRef`, with its kind.
pub(crate) fn class_parameters_named(objects: &[Object]) -> Vec<(&'static str, String, String)> {
    let mut out = Vec::new();
    for class in objects
        .iter()
        .filter(|o| o.kind == "GatewayClass" && o.namespace.is_none())
    {
        let named = class.spec.with(|spec| {
            let r = spec.get("parametersRef")?;
            let text = |key: &str| r.get(key).and_then(Val::as_str).map(str::to_string);
            let group = text("group").unwrap_or_default();
            let kind = text("kind")?;
            let rule = class_parameters()
                .find(|p| p.group == normalize_group(&group) && p.kind == kind)?;
            Some((rule.kind, text("namespace")?, text("name")?))
        });
        out.extend(named);
    }
    out
}

/// The parameters objects of a kind the registry knows (`class_parameters`: Envoy
/// Gateway's EnvoyProxy) that a GatewayClass's `spec.parametersRef` or a Gateway's
/// `spec.infrastructure.parametersRef` (in the Gateway's namespace) names: each kind
/// with a namespace it is named in, for a live read to list them there only.
pub(crate) fn parameters_named(objects: &[Object]) -> Vec<(GroupKind, String)> {
    let mut out = Vec::new();
    for o in objects.iter().filter(|o| is_gateway_group(o.group())) {
        let (pointer, own) = match (o.kind.as_str(), o.namespace.as_deref()) {
            ("GatewayClass", None) => ("/parametersRef", None),
            ("Gateway", Some(ns)) => ("/infrastructure/parametersRef", Some(ns)),
            _ => continue,
        };
        let named = o.spec.with(|spec| {
            let r = spec.pointer(pointer)?;
            let text = |key: &str| r.get(key).and_then(Val::as_str);
            let group = normalize_group(text("group").unwrap_or_default());
            let kind = text("kind")?;
            let rule = class_parameters().find(|p| p.group == group && p.kind == kind)?;
            let namespace = own.or_else(|| text("namespace"))?;
            Some((GroupKind::new(rule.group, rule.kind), namespace.to_string()))
        });
        out.extend(named);
    }
    out
}

/// Whether `object` is parameters some GatewayClass names (`class_parameters_named`).
pub(crate) fn is_named_parameters(
    object: &Object,
    named: &[(&'static str, String, String)],
) -> bool {
    named.iter().any(|(kind, ns, name)| {
        object.kind == *kind
            && object.namespace.as_deref() == Some(ns.as_str())
            && object.name.as_str() == name
            && class_parameters().any(|p| p.is(object))
    })
}
