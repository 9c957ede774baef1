//! `get`'s words, read as `kubectl get` reads its own: nothing or `policies` (every
//! policy), `TYPE` (every policy of a kind), `TYPE NAME…`, or `TYPE/NAME…`; and the rows
//! they select, in the order the names were given.

use super::subject::{not_found, split_target};
use super::types::resolve_type;
use super::{NameError, PolicyRow, World};
use crate::model::{resource_plural, GroupKind};

/// Which policies `get` lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Every policy in scope.
    All,
    /// Every policy of one kind in scope.
    Kind(GroupKind),
    /// These policies, in this order (each name in scope).
    Named(Vec<(GroupKind, String)>),
}

/// Reads `get`'s words against the kinds the world knows. A kind that is not a policy
/// kind is an error that says where to look instead.
pub fn read_selection(world: &World, words: &[String]) -> Result<Selection, NameError> {
    let topology = &world.topology;
    let policy_kind = |ty: &str| -> Result<GroupKind, NameError> {
        let gk = resolve_type(ty, topology.catalog(), topology.objects()).map_err(|e| {
            NameError::UnknownType {
                typed: ty.to_string(),
                message: super::hint::unknown_type(world, ty, e),
            }
        })?;
        if topology.catalog().get(&gk).is_none() {
            return Err(NameError::NotAPolicyKind {
                resource: resource_plural(&gk.kind),
                kind: gk.kind.to_lowercase(),
            });
        }
        Ok(gk)
    };
    match words {
        [] => Ok(Selection::All),
        [one] if matches!(one.as_str(), "policies" | "policy") => Ok(Selection::All),
        _ if words.iter().any(|word| word.contains('/')) => {
            let mut named = Vec::with_capacity(words.len());
            for word in words {
                if !word.contains('/') {
                    return Err(NameError::Words {
                        given: Some(word.clone()),
                        expected: "when one object is given as TYPE/NAME, give every one so (there is no need to name the TYPE apart)",
                    });
                }
                let (ty, name) = split_target(std::slice::from_ref(word))?;
                named.push((policy_kind(&ty)?, name));
            }
            Ok(Selection::Named(named))
        }
        [ty] => Ok(Selection::Kind(policy_kind(ty)?)),
        [ty, names @ ..] => {
            let gk = policy_kind(ty)?;
            Ok(Selection::Named(
                names.iter().map(|n| (gk.clone(), n.clone())).collect(),
            ))
        }
    }
}

/// The rows `selection` picks out of `rows` (every policy in scope, sorted), and one
/// message for each name that picks none (kubectl's "not found", with a hint). A policy
/// named twice is listed once.
pub fn select(
    world: &World,
    rows: Vec<PolicyRow>,
    selection: &Selection,
    ns: Option<&str>,
) -> (Vec<PolicyRow>, Vec<NameError>) {
    match selection {
        Selection::All => (rows, Vec::new()),
        Selection::Kind(gk) => (
            rows.into_iter()
                .filter(|r| r.policy.group_kind() == *gk)
                .collect(),
            Vec::new(),
        ),
        Selection::Named(names) => {
            let (mut picked, mut missing) = (Vec::new(), Vec::new());
            let mut taken = vec![false; rows.len()];
            for (gk, name) in names {
                let mut found = false;
                for (i, r) in rows.iter().enumerate() {
                    if r.policy.name == name.as_str() && r.policy.group_kind() == *gk {
                        found = true;
                        if !std::mem::replace(&mut taken[i], true) {
                            picked.push(r.clone());
                        }
                    }
                }
                if !found {
                    missing.push(not_found(world, gk, name, ns));
                }
            }
            (picked, missing)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::policy_rows;

    const INPUT: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: a, namespace: team}
spec: {targetRefs: [{group: "", kind: Service, name: web}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: b, namespace: team}
spec: {targetRefs: [{group: "", kind: Service, name: web}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: a, namespace: team}
spec: {targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]}
"#;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(str::to_string).collect()
    }

    fn names(world: &World, s: &str) -> (Vec<String>, Vec<String>) {
        let sel = read_selection(world, &words(s)).unwrap();
        let (rows, missing) = select(world, policy_rows(world, Some("team")), &sel, Some("team"));
        let listed = rows
            .iter()
            .map(|r| format!("{}/{}", r.policy.kind, r.policy.name))
            .collect();
        (listed, missing.iter().map(NameError::to_string).collect())
    }

    #[test]
    fn a_kind_in_any_spelling_lists_its_policies() {
        let world = crate::analyze_yaml(INPUT).unwrap();
        for s in ["btlspolicy", "backendtlspolicies", "BackendTLSPolicy"] {
            assert_eq!(
                names(&world, s).0,
                ["BackendTLSPolicy/a", "BackendTLSPolicy/b"],
                "{s}"
            );
        }
        assert_eq!(names(&world, "btp").0, ["BackendTrafficPolicy/a"]);
    }

    #[test]
    fn names_are_answered_in_the_order_given_and_missing_ones_reported() {
        let world = crate::analyze_yaml(INPUT).unwrap();
        let (rows, missing) = names(&world, "backendtlspolicy b nope a");
        assert_eq!(rows, ["BackendTLSPolicy/b", "BackendTLSPolicy/a"]);
        assert_eq!(missing.len(), 1);
        assert!(missing[0].contains("\"nope\" not found"), "{missing:?}");
        let (rows, missing) = names(&world, "btp/a backendtlspolicy/a btp/a");
        assert_eq!(rows, ["BackendTrafficPolicy/a", "BackendTLSPolicy/a"]);
        assert!(missing.is_empty());
    }

    #[test]
    fn a_kind_that_is_not_a_policy_or_mixed_forms_are_refused() {
        let world = crate::analyze_yaml(INPUT).unwrap();
        let e = read_selection(&world, &words("httproute")).unwrap_err();
        assert!(matches!(e, NameError::NotAPolicyKind { .. }), "{e}");
        assert!(read_selection(&world, &words("btp/a b")).is_err());
        assert_eq!(
            read_selection(&world, &words("policies")),
            Ok(Selection::All)
        );
    }
}
