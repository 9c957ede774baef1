//! The words a user types for TYPE, NAME and namespace, offered by shell completion:
//! TYPE spelled so that `resolve_type` reads it back, NAME from the objects at hand.

use super::types::resolve_type;
use super::World;
use crate::catalog::Catalog;
use crate::model::Object;
use crate::model::{hierarchy_kinds, REFERENCED_CORE_KINDS};
use crate::model::{GroupKind, ObjRef};

/// Which kinds a command takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeSet {
    /// Objects of the hierarchy and policies (`describe`).
    Any,
    /// Objects of the hierarchy (`effective`, `tree`, `graph`).
    Hierarchy,
    /// Policies (`get`, `effective --kind`).
    Policies,
    /// Policies and the objects policies' specs name (`blast-radius`).
    Deletable,
}

/// TYPE words. With a world, the kinds it has objects of; without one, every kind
/// known (the built-in hierarchy kinds and the registry's policy kinds). Each is its
/// lowercase kind, or `kind.group` where the bare kind means another group.
pub fn type_words(world: Option<&World>, set: TypeSet) -> Vec<String> {
    let registry;
    let (catalog, objects): (&Catalog, &[Object]) = match world {
        Some(world) => (world.topology.catalog(), world.topology.objects()),
        None => {
            registry = Catalog::build(&[], &[]);
            (&registry, &[])
        }
    };
    let mut kinds: Vec<GroupKind> = Vec::new();
    if matches!(set, TypeSet::Any | TypeSet::Deletable) {
        // What policies' specs name (Secrets, ConfigMaps): those read or named.
        match world {
            Some(world) => kinds.extend(
                world
                    .topology
                    .all_references()
                    .map(|r| r.target.group_kind())
                    .chain(world.topology.objects().iter().map(|o| o.group_kind()))
                    .filter(|gk| super::dependents::is_referenced_kind(world, gk)),
            ),
            None => kinds.extend(
                REFERENCED_CORE_KINDS
                    .iter()
                    .map(|(g, k, _)| GroupKind::new(g, k)),
            ),
        }
    }
    if matches!(set, TypeSet::Any | TypeSet::Hierarchy) {
        match world {
            Some(world) => kinds.extend(
                world
                    .topology
                    .nodes()
                    .iter()
                    .filter(|n| !n.is_section())
                    .map(|n| n.obj_ref.group_kind()),
            ),
            None => kinds.extend(hierarchy_kinds()),
        }
    }
    if set != TypeSet::Hierarchy {
        match world {
            Some(world) => kinds.extend(world.topology.policies().iter().map(|p| p.kind.clone())),
            None => kinds.extend(catalog.kinds.values().map(|k| k.group_kind())),
        }
    }
    let mut words: Vec<String> = kinds
        .iter()
        .filter_map(|gk| {
            let bare = gk.kind.to_lowercase();
            let word = if resolve_type(&bare, catalog, objects).as_ref() == Ok(gk) {
                bare
            } else {
                format!("{bare}.{}", gk.group)
            };
            // Kinds the tool keeps only as targets (a mesh's Server) have no TYPE.
            (resolve_type(&word, catalog, objects).as_ref() == Ok(gk)).then_some(word)
        })
        .collect();
    words.sort();
    words.dedup();
    words
}

/// The objects (or policies) of TYPE in `namespace` (None: every namespace;
/// cluster-scoped objects are always in scope), sorted by name then namespace.
/// Nothing for an unknown TYPE.
pub fn objects(world: &World, type_word: &str, namespace: Option<&str>) -> Vec<ObjRef> {
    let topology = &world.topology;
    let Ok(gk) = resolve_type(type_word, topology.catalog(), topology.objects()) else {
        return Vec::new();
    };
    let named: Vec<ObjRef>;
    let refs: Vec<&ObjRef> = if topology.catalog().get(&gk).is_some() {
        topology.policies().iter().map(|p| &p.obj_ref).collect()
    } else {
        // Objects policies' specs name (Secrets): those read, and those named.
        named = match super::dependents::is_referenced_kind(world, &gk) {
            true => super::dependents::named_or_read(world, &gk),
            false => Vec::new(),
        };
        topology
            .nodes()
            .iter()
            .filter(|n| !n.is_section())
            .map(|n| &n.obj_ref)
            .chain(&named)
            .collect()
    };
    let mut found: Vec<ObjRef> = refs
        .into_iter()
        .filter(|r| r.group_kind() == gk)
        .filter(|r| {
            namespace.is_none() || r.namespace.is_none() || r.namespace.as_deref() == namespace
        })
        .cloned()
        .collect();
    found.sort_by(|a, b| (&a.name, &a.namespace).cmp(&(&b.name, &b.namespace)));
    found.dedup();
    found
}

/// The sections (listeners, rules, ports) of the object TYPE/NAME in `namespace` (None:
/// any), by name; nothing for an unknown TYPE or object.
pub fn sections(
    world: &World,
    type_word: &str,
    name: &str,
    namespace: Option<&str>,
) -> Vec<String> {
    let topology = &world.topology;
    let Ok(gk) = resolve_type(type_word, topology.catalog(), topology.objects()) else {
        return Vec::new();
    };
    let mut found: Vec<String> = topology
        .nodes()
        .iter()
        .filter(|n| n.is_section())
        .map(|n| &n.obj_ref)
        .filter(|r| r.group_kind() == gk && r.name == name)
        .filter(|r| {
            namespace.is_none() || r.namespace.is_none() || r.namespace.as_deref() == namespace
        })
        .filter_map(|r| r.section.as_deref().map(str::to_string))
        .collect();
    found.sort();
    found.dedup();
    found
}

/// Every namespace the input knows of.
pub fn namespaces(world: &World) -> Vec<String> {
    world.topology.namespaces().keys().cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_input_every_known_kind_is_offered_and_reads_back() {
        let words = type_words(None, TypeSet::Any);
        for w in [
            "httproute",
            "gateway",
            "gatewayclass",
            "service",
            "backendtlspolicy",
        ] {
            assert!(words.contains(&w.to_string()), "{w} in {words:?}");
        }
        // Two groups have a RateLimitPolicy: neither bare word would read back as both.
        assert!(words.contains(&"ratelimitpolicy.kuadrant.io".to_string()));
        assert!(!words.contains(&"namespace".to_string()));
        let cat = Catalog::build(&[], &[]);
        for w in &words {
            assert!(resolve_type(w, &cat, &[]).is_ok(), "{w}");
        }
        let policies = type_words(None, TypeSet::Policies);
        assert!(!policies.contains(&"httproute".to_string()));
        assert!(type_words(None, TypeSet::Hierarchy)
            .iter()
            .all(|w| !w.contains("policy")));
    }

    #[test]
    fn sections_of_an_object_in_scope() {
        let world = crate::analyze_yaml(
            r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: c
  listeners:
  - {name: https, port: 443, protocol: HTTPS}
  - {name: http, port: 80, protocol: HTTP}
"#,
        )
        .unwrap();
        assert_eq!(
            sections(&world, "gtw", "gw", Some("infra")),
            ["http", "https"]
        );
        assert!(sections(&world, "gtw", "gw", Some("other")).is_empty());
        assert!(sections(&world, "nonsense", "gw", None).is_empty());
    }
}
