//! The GatewayClass parameters a verdict may turn on (Envoy Gateway's EnvoyProxy with
//! `mergeGateways`, `catalog::registry::class_parameters`): an answer that reaches a
//! class reads them, wherever they live.

use crate::catalog::registry::class_parameters;
use crate::model::{normalize_group, Object, Val};

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
