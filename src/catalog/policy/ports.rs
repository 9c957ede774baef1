//! Targets narrowed to ports by number, as the registry says a kind names them
//! (`Sections`): a `ports` list of `{port: N}` on each targetRefs entry (Azure
//! BackendLoadBalancingPolicy), `ports` lists in the spec covering every target
//! (Flomesh HealthCheckPolicy's `ports`, Azure BackendTLSPolicy's `default.ports`), or a `port` on a Gateway reference (agentgateway: the
//! Gateway's listeners on that port). Each port becomes the reference with that number
//! as its section; the topology resolves it to the Service's port of that number
//! (`Topology::port_by_number`) or the Gateway's listeners on it
//! (`Topology::listener_port_targets`).

use super::invalid::{FieldError, FieldProblem};
use super::{pointer, reference_entries, TargetSpec};
use crate::catalog::Sections;
use crate::model::{Map, ObjRef, Val};

/// The targets targetRefs entry `item` (reference `r`, at `field`) names by port, when
/// its kind's shape names ports on the entry and the entry names some: one per port.
/// None: the entry names no port, and is read as it is.
pub(super) fn entry_ports(
    item: &Val,
    r: &ObjRef,
    field: &str,
    sections: Sections,
    invalid: &mut Vec<FieldError>,
) -> Option<Vec<TargetSpec>> {
    let (key, list) = match sections {
        Sections::Ports => ("ports", true),
        Sections::SectionNameOrPort { .. } => ("port", false),
        // No ports on the entry: its sections, if any, are names (or in the spec).
        Sections::None
        | Sections::SectionName
        | Sections::SectionNames
        | Sections::SpecPorts { .. }
        | Sections::Rule => return None,
    };
    let value = item.get(key).filter(|v| !v.is_null())?;
    let field = format!("{field}.{key}");
    // Azure's entries are mappings: `ports: [{port: 443}]`.
    let numbers: Vec<(String, &Val)> = match (list, value) {
        (true, Val::Array(entries)) => entries
            .iter()
            .enumerate()
            .map(|(index, entry)| {
                (
                    format!("{field}[{index}].port"),
                    entry.get("port").unwrap_or(&Val::Null),
                )
            })
            .collect(),
        (true, _) => {
            invalid.push(FieldError::new(
                field,
                FieldProblem::MustBe("a list of {port: N} entries"),
            ));
            return None;
        }
        (false, v) => vec![(field, v)],
    };
    if !list && r.kind != "Gateway" {
        invalid.push(FieldError::new(
            numbers[0].0.clone(),
            FieldProblem::PortOnlyOnGateway {
                kind: r.kind.to_string(),
            },
        ));
        return None;
    }
    if !list && r.section.is_some() {
        invalid.push(FieldError::new(
            numbers[0].0.clone(),
            FieldProblem::PortWithSectionName,
        ));
        return None;
    }
    let targets: Vec<TargetSpec> = numbers
        .into_iter()
        .filter_map(|(field, v)| port_number(v, field, invalid))
        .map(|number| TargetSpec::Ref(r.clone().with_section(Some(&number.to_string()))))
        .collect();
    // An empty list names no port: the whole object.
    (!targets.is_empty()).then_some(targets)
}

/// For a kind whose spec lists ports for every target (`Sections::SpecPorts`): each
/// whole reference among `targets` becomes one per port its lists' `[].port` name, and
/// stays whole too when the spec's field for every port (`whole`) is set.
pub(super) fn spec_ports(
    spec: &Map,
    sections: Sections,
    targets: &mut Vec<TargetSpec>,
    invalid: &mut Vec<FieldError>,
) {
    let Sections::SpecPorts { lists, whole } = sections else {
        return;
    };
    let mut numbers: Vec<u64> = Vec::new();
    for list in lists {
        let field = format!("spec{}", list.replace('/', "."));
        let entries = match pointer(spec, list) {
            None | Some(Val::Null) => continue,
            Some(Val::Array(entries)) => entries,
            Some(_) => {
                invalid.push(FieldError::new(field, FieldProblem::MustBe("a list")));
                continue;
            }
        };
        for (i, entry) in entries.iter().enumerate() {
            let field = format!("{field}[{i}].port");
            let number = match entry.get("port") {
                Some(port) => port_number(port, field, invalid),
                None => {
                    invalid.push(FieldError::new(field, FieldProblem::Missing));
                    None
                }
            };
            numbers.extend(number.filter(|n| !numbers.contains(n)));
        }
    }
    if numbers.is_empty() {
        return;
    }
    let keep_whole = whole.is_some_and(|w| pointer(spec, w).is_some_and(|v| !v.is_null()));
    let mut out = Vec::with_capacity(targets.len() * (numbers.len() + 1));
    for target in targets.drain(..) {
        match &target {
            TargetSpec::Ref(r) if r.section.is_none() => {
                for number in &numbers {
                    let section = number.to_string();
                    out.push(TargetSpec::Ref(r.clone().with_section(Some(&section))));
                }
                if keep_whole {
                    out.push(target);
                }
            }
            _ => out.push(target),
        }
    }
    *targets = out;
}

/// A port number (1–65535) at `field`, or what is wrong with it in `invalid`.
fn port_number(value: &Val, field: String, invalid: &mut Vec<FieldError>) -> Option<u64> {
    match value.as_u64().filter(|number| (1..=65535).contains(number)) {
        Some(number) => Some(number),
        None => {
            invalid.push(FieldError::new(
                field,
                FieldProblem::MustBe("a port number (1-65535)"),
            ));
            None
        }
    }
}

/// What a kind's CRD refuses of its references' `port` and `sectionName` given the rest
/// of the spec (`Sections::SectionNameOrPort`): a `port` when the spec sets none of the
/// fields a port needs, a `sectionName` beside a field that applies to the whole target
/// (agentgateway: a port only on a frontend policy; no listener for its frontend
/// `tcp`, `tls`, ...). Each a `FieldError` at the reference's field, naming the spec
/// field; the API server refuses the policy whole.
pub(super) fn refused_sections(spec: &Map, sections: Sections, invalid: &mut Vec<FieldError>) {
    let Sections::SectionNameOrPort {
        port_needs,
        no_section_name_with,
    } = sections
    else {
        return;
    };
    let set = |field: &str| pointer(spec, field).is_some_and(|v| !v.is_null());
    let port_allowed = port_needs.iter().any(|f| set(f));
    let whole_field = no_section_name_with.iter().find(|f| set(f));
    if port_allowed && whole_field.is_none() {
        return;
    }
    let present = |entry: &Val, key: &str| entry.get(key).is_some_and(|v| !v.is_null());
    let mut refused = Vec::new();
    for (field, entry) in reference_entries(spec) {
        if !port_allowed && present(entry, "port") {
            refused.push(FieldError::new(
                format!("{field}.port"),
                FieldProblem::PortWithout {
                    needs: spec_fields(port_needs),
                },
            ));
        }
        if let Some(whole) = whole_field.filter(|_| present(entry, "sectionName")) {
            refused.push(FieldError::new(
                format!("{field}.sectionName"),
                FieldProblem::SectionNameWith {
                    field: spec_field(whole),
                },
            ));
        }
    }
    // One finding a field: a port already refused on its target's kind stays so.
    refused.retain(|error| invalid.iter().all(|e| e.field != error.field));
    invalid.extend(refused);
}

/// A JSON pointer into the spec as a finding names the field: `/frontend/tcp` is
/// `spec.frontend.tcp`.
fn spec_field(pointer: &str) -> String {
    format!("spec{}", pointer.replace('/', "."))
}

/// Several spec fields, as a finding lists them (`spec.a or spec.b`).
fn spec_fields(pointers: &[&str]) -> String {
    let fields: Vec<String> = pointers.iter().map(|p| spec_field(p)).collect();
    fields.join(" or ")
}

/// A policy's spec (`spec`, the object's) as it applies at one port of its target, for a
/// kind whose spec lists settings per port (`Sections::SpecPorts`, `lists` its JSON
/// pointers): at port `port` each list keeps only the entries for that port; at the
/// target whole (`None`) the lists go, as their entries are each a port's. Whatever
/// else the spec sets stays (the settings for every port: Flomesh HealthCheckPolicy's
/// `healthCheck`, Azure BackendTLSPolicy's `default.sni`). None: nothing to narrow (no
/// list, or none set), the spec applies as written.
pub(crate) fn spec_at_port(spec: &Val, lists: &[&str], port: Option<u64>) -> Option<Val> {
    let mut narrowed: Option<Val> = None;
    for list in lists {
        let current = narrowed.as_ref().unwrap_or(spec);
        if current.pointer(list).is_none_or(Val::is_null) {
            continue;
        }
        let path: Vec<&str> = list.trim_start_matches('/').split('/').collect();
        narrowed = Some(narrow(current, &path, port).unwrap_or_default());
    }
    narrowed
}

/// `value` with the list at `path` below it narrowed to port `port`'s entries (none
/// when `port` is none or no entry is that port's: the field goes).
fn narrow(value: &Val, path: &[&str], port: Option<u64>) -> Option<Val> {
    let Some((key, rest)) = path.split_first() else {
        let port = port?;
        let Some(entries) = value.as_array() else {
            // Not a list: reported where targets are read; kept as written.
            return Some(value.clone());
        };
        let kept: Vec<Val> = entries
            .iter()
            .filter(|entry| entry.get("port").and_then(Val::as_u64) == Some(port))
            .cloned()
            .collect();
        return (!kept.is_empty()).then(|| Val::Array(kept.into()));
    };
    let Some(map) = value.as_object() else {
        return Some(value.clone());
    };
    let members = map.iter().filter_map(|(name, member)| {
        if &**name != *key {
            return Some((name.clone(), member.clone()));
        }
        narrow(member, rest, port).map(|member| (name.clone(), member))
    });
    Some(Val::Object(members.collect()))
}
