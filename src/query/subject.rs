//! What a `TYPE/NAME` on the command line names: a policy, an object of the hierarchy,
//! or a namespace; and, when nothing matches, an answer that helps (the namespaces
//! where one of that name is, or the blind spot that hides it).

use super::types::resolve_type;
use super::{NameError, World};
use crate::catalog::Catalog;
use crate::model::{
    experimental_alias, is_cluster_scoped, resource_plural, GroupKind, ObjRef, Object,
};
use crate::topology::{NodeId, PolicyId};

/// What a `TYPE/NAME` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    Policy(PolicyId),
    /// An object of the hierarchy (a Namespace a Direct policy targets is one too).
    Node(NodeId),
    /// A namespace the input knows, whose level is not a node.
    Namespace(String),
    /// An object no part of the hierarchy that policies' specs may name (a Secret, a
    /// ConfigMap, a Backend), in the input or named by a policy.
    Referenced(ObjRef),
}

/// `TYPE/NAME` or `TYPE NAME`, split.
pub(crate) fn split_target(words: &[String]) -> Result<(String, String), NameError> {
    let words_error = |given: Option<&String>, expected| NameError::Words {
        given: given.cloned(),
        expected,
    };
    match words {
        [one] => {
            let (t, n) = one.split_once('/').ok_or_else(|| {
                words_error(
                    Some(one),
                    "expected TYPE/NAME (for example httproute/baker) or TYPE NAME",
                )
            })?;
            if t.is_empty() || n.is_empty() {
                return Err(words_error(Some(one), "expected TYPE/NAME"));
            }
            Ok((t.to_string(), n.to_string()))
        }
        [t, n] => Ok((t.clone(), n.clone())),
        _ => Err(words_error(None, "expected TYPE/NAME")),
    }
}

/// The objects a command line names, one `TYPE/NAME` word each: `TYPE/NAME…` as
/// given, or `TYPE NAME…` (kubectl's two forms, not mixed).
pub fn split_targets(words: &[String]) -> Result<Vec<String>, NameError> {
    match words {
        [] => Err(NameError::Words {
            given: None,
            expected: "expected TYPE/NAME",
        }),
        _ if words.iter().all(|w| w.contains('/')) => Ok(words.to_vec()),
        [ty, names @ ..] if !names.is_empty() && !ty.contains('/') => {
            match names.iter().find(|n| n.contains('/')) {
                Some(n) => Err(NameError::Words {
                    given: Some(n.clone()),
                    expected: "after TYPE, give NAMEs; or give every object as TYPE/NAME",
                }),
                None => Ok(names.iter().map(|n| format!("{ty}/{n}")).collect()),
            }
        }
        [_] => split_target(words).map(|(t, n)| vec![format!("{t}/{n}")]),
        _ => Err(NameError::Words {
            given: None,
            expected:
                "when one object is given as TYPE/NAME, give every one so (or TYPE then NAMEs)",
        }),
    }
}

/// The kind and the object `TYPE/NAME` names, in namespace `ns` unless the kind is
/// cluster-scoped. `objects` are the CRDs (and the rest) TYPE may name a kind of.
pub fn name_target(
    words: &[String],
    catalog: &Catalog,
    objects: &[Object],
    ns: &str,
) -> Result<(GroupKind, ObjRef), NameError> {
    let (ty, name) = split_target(words)?;
    let gk = resolve_type(&ty, catalog, objects).map_err(|e| NameError::UnknownType {
        typed: ty.clone(),
        message: e.to_string(),
    })?;
    let ns = (!is_cluster_scoped(&gk.kind)).then_some(ns);
    // `NAME#section`: a listener, a rule or a port, as the TARGETS column prints it.
    let (name, section) = match name.split_once('#') {
        Some((n, s)) if n.is_empty() || s.is_empty() => {
            return Err(NameError::Words {
                given: Some(format!("{ty}/{name}")),
                expected: "expected TYPE/NAME#SECTION (for example httproute/baker#orders)",
            })
        }
        Some((n, s)) => (n, Some(s)),
        None => (name.as_str(), None),
    };
    let r = ObjRef::new(&gk.group, &gk.kind, ns, name).with_section(section);
    Ok((gk, r))
}

/// What `TYPE/NAME` names in the world, `ns` being the namespace in scope.
pub fn find_subject(world: &World, words: &[String], ns: &str) -> Result<Subject, NameError> {
    let topology = &world.topology;
    let (gk, r) =
        name_target(words, topology.catalog(), topology.objects(), ns).map_err(|e| match e {
            NameError::UnknownType { typed, message } => NameError::UnknownType {
                message: super::hint::unknown_type(world, &typed, message),
                typed,
            },
            other => other,
        })?;
    if topology.catalog().get(&gk).is_some() {
        if let Some(section) = &r.section {
            return Err(NameError::PolicySection {
                kind: gk.kind.to_lowercase(),
                name: r.name.to_string(),
                section: section.to_string(),
            });
        }
        return match topology.policy_id(&r) {
            Some(p) => Ok(Subject::Policy(p)),
            None => Err(not_found(world, &gk, &r.name, r.namespace.as_deref())),
        };
    }
    if gk.group.is_empty()
        && gk.kind == "Namespace"
        && topology.namespaces().contains_key(r.name.as_str())
    {
        return Ok(Subject::Namespace(r.name.to_string()));
    }
    if let Some(n) = topology.lookup(&r) {
        return Ok(Subject::Node(n));
    }
    if let Some((group, kind)) = experimental_alias(&gk.kind) {
        let experimental = ObjRef::new(group, kind, r.namespace.as_deref(), &r.name)
            .with_section(r.section.as_deref());
        if let Some(n) = topology.lookup(&experimental) {
            return Ok(Subject::Node(n));
        }
    }
    if let Some(section) = &r.section {
        if topology.lookup(&r.object()).is_some() {
            return Err(section_not_found(world, &gk, &r, section));
        }
    }
    if gk.group.is_empty() && gk.kind == "Pod" {
        return Err(pod_not_in_hierarchy(world, &r));
    }
    if r.section.is_none()
        && super::dependents::is_referenced_kind(world, &gk)
        && (super::dependents::in_input(world, &r)
            || !super::dependents::dependents(world, &r).is_empty())
    {
        return Ok(Subject::Referenced(r));
    }
    Err(not_found(world, &gk, &r.name, r.namespace.as_deref()))
}

/// A Pod that is no node: read but picked by no policy, or not read (kubectl's "not
/// found" where one of that name is in another namespace, or its list was refused).
fn pod_not_in_hierarchy(world: &World, pod: &ObjRef) -> NameError {
    let namespace = pod.namespace.as_deref().unwrap_or_default().to_string();
    let in_input = world.topology.objects().iter().any(|o| {
        o.is_pod() && o.name == pod.name && o.namespace.as_deref() == Some(namespace.as_str())
    });
    if !in_input {
        let error = not_found(world, &pod.group_kind(), &pod.name, Some(&namespace));
        if !matches!(&error, NameError::NotFound { elsewhere, .. } if elsewhere.is_empty()) {
            return error;
        }
    }
    NameError::PodNotInHierarchy {
        name: pod.name.to_string(),
        namespace,
        in_input,
    }
}

/// The object of the hierarchy a subject is, for a command (`what`) that starts at one.
pub fn node_of(world: &World, subject: Subject, what: &str) -> Result<NodeId, NameError> {
    match subject {
        Subject::Node(node) => Ok(node),
        Subject::Namespace(ns) => world
            .topology
            .lookup(&ObjRef::new("", "Namespace", None, &ns))
            .ok_or_else(|| NameError::NamespaceNotNode {
                what: what.to_string(),
                namespace: ns,
            }),
        Subject::Policy(_) => Err(NameError::PolicyNotNode {
            what: what.to_string(),
        }),
        Subject::Referenced(object) => Err(NameError::ReferencedNotNode {
            what: what.to_string(),
            object: object.to_string(),
        }),
    }
}

/// An object that is there without the section named: its sections, and the nearest.
fn section_not_found(world: &World, gk: &GroupKind, object: &ObjRef, section: &str) -> NameError {
    let ty = gk.kind.to_lowercase();
    let sections = super::names::sections(world, &ty, &object.name, object.namespace.as_deref());
    let nearest: Vec<String> = super::hint::nearest(section, sections.iter().map(String::as_str))
        .into_iter()
        .map(|s| format!("{ty}/{}#{s}", object.name))
        .collect();
    NameError::SectionNotFound {
        kind: ty,
        name: object.name.to_string(),
        section: section.to_string(),
        sections,
        nearest,
    }
}

/// kubectl's "not found", with a hint where one of that name is elsewhere, or the blind
/// spot that may hide it ("not seen" is not "not there").
pub(crate) fn not_found(world: &World, gk: &GroupKind, name: &str, ns: Option<&str>) -> NameError {
    let resource = if gk.group.is_empty() {
        resource_plural(&gk.kind)
    } else {
        format!("{}.{}", resource_plural(&gk.kind), gk.group)
    };
    let topology = &world.topology;
    let elsewhere: Vec<String> = topology
        .objects()
        .iter()
        .filter(|o| o.group_kind() == *gk && o.name == name)
        .filter_map(|o| o.namespace.as_deref().map(str::to_string))
        .collect();
    let blind = topology.snapshot().blind_spots.iter().find(|b| {
        b.group == gk.group
            && b.kind == gk.kind
            && (b.namespace.is_none() || b.namespace.as_deref() == ns)
    });
    if let Some(b) = blind {
        return NameError::Unreadable {
            resource,
            name: name.to_string(),
            why: b.message.clone(),
        };
    }
    // No other namespace has one of that name: the nearest names in scope.
    let nearest = match elsewhere.is_empty() {
        true => super::hint::near_names(world, gk, name, ns),
        false => Vec::new(),
    };
    NameError::NotFound {
        resource,
        name: name.to_string(),
        namespace: ns.map(str::to_string),
        elsewhere,
        nearest,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUT: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: team}
---
apiVersion: gateway.networking.x-k8s.io/v1alpha1
kind: XListenerSet
metadata: {name: extra, namespace: team}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: tls, namespace: team}
spec: {targetRefs: [{group: "", kind: Service, name: nowhere}]}
"#;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn type_and_name_in_one_word_or_two() {
        assert_eq!(
            split_target(&words("httproute/shop")),
            Ok(("httproute".into(), "shop".into()))
        );
        assert_eq!(
            split_target(&words("svc web")),
            Ok(("svc".into(), "web".into()))
        );
        assert!(split_target(&words("httproute"))
            .unwrap_err()
            .to_string()
            .contains("TYPE/NAME"));
        assert!(split_target(&words("/shop")).is_err());
    }

    #[test]
    fn several_objects_in_either_of_kubectls_forms() {
        assert_eq!(
            split_targets(&words("svc a b")),
            Ok(vec!["svc/a".to_string(), "svc/b".to_string()])
        );
        assert_eq!(
            split_targets(&words("svc/a httproute/b")),
            Ok(vec!["svc/a".to_string(), "httproute/b".to_string()])
        );
        assert!(split_targets(&words("svc a/b")).is_err());
        assert!(split_targets(&words("svc/a b")).is_err());
        assert!(split_targets(&words("svc")).is_err());
    }

    #[test]
    fn subjects_policies_nodes_namespaces_and_the_listener_set_alias() {
        let world = crate::analyze_yaml(INPUT).unwrap();
        assert!(matches!(
            find_subject(&world, &words("backendtlspolicy/tls"), "team"),
            Ok(Subject::Policy(_))
        ));
        assert!(matches!(
            find_subject(&world, &words("httproute/shop"), "team"),
            Ok(Subject::Node(_))
        ));
        assert!(matches!(
            find_subject(&world, &words("listenerset/extra"), "team"),
            Ok(Subject::Node(_))
        ));
        assert_eq!(
            find_subject(&world, &words("ns/team"), "x"),
            Ok(Subject::Namespace("team".into()))
        );
        let n = match find_subject(&world, &words("httproute/shop"), "team") {
            Ok(s) => node_of(&world, s, "tree"),
            Err(e) => Err(e),
        };
        assert!(n.is_ok());
        let p = find_subject(&world, &words("backendtlspolicy/tls"), "team").unwrap();
        assert_eq!(
            node_of(&world, p, "tree"),
            Err(NameError::PolicyNotNode {
                what: "tree".into()
            })
        );
    }

    #[test]
    fn not_found_says_where_one_of_that_name_is() {
        let world = crate::analyze_yaml(INPUT).unwrap();
        let e = find_subject(&world, &words("httproute/shop"), "default").unwrap_err();
        // As data: where it was looked for, and where there is one.
        let NameError::NotFound {
            namespace,
            elsewhere,
            ..
        } = &e
        else {
            panic!("{e:?}")
        };
        assert_eq!(
            (namespace.as_deref(), elsewhere.as_slice()),
            (Some("default"), &["team".to_string()][..])
        );
        // In kubectl's words.
        assert_eq!(
            e.to_string(),
            "httproutes.gateway.networking.k8s.io \"shop\" not found in namespace default (there is one in namespace team: add -n team)"
        );
        let e = find_subject(&world, &words("backendtlspolicy/nope"), "team").unwrap_err();
        assert!(
            e.to_string()
                .ends_with("\"nope\" not found in namespace team"),
            "{e}"
        );
    }
}
