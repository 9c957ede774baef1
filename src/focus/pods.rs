//! Which Pods a live read lists: only in the namespaces of the policies that pick Pods
//! by label (GKE's `{kind: Pod, selector}` targetRefs entries, for the kinds the
//! registry says pick Pods), and with the selector itself when one is all the namespace
//! asks for. No such policy read, no Pod listed.

use crate::catalog::policy::pod_selector_queries;
use crate::model::read::PodLists;
use crate::model::{GroupKind, Object, Val};
use std::collections::{BTreeMap, BTreeSet};

/// The namespaces whose Pods an answer needs, each with the label selector to list
/// them with (kubectl's syntax): the one selector of the policies of `kinds` there, when
/// they all pick by the same non-empty one; none (every Pod of the namespace, one list)
/// when they pick by several, as one list per selector would read a Pod that two of
/// them pick twice, and as many requests as selectors.
pub fn pod_lists(objects: &[Object], kinds: &[GroupKind]) -> PodLists {
    let mut selectors: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for policy in objects.iter().filter(|o| kinds.contains(&o.group_kind())) {
        let Some(namespace) = policy.namespace.as_deref() else {
            continue;
        };
        let queries = match &*policy.spec {
            Val::Object(spec) => pod_selector_queries(spec),
            _ => Vec::new(),
        };
        if !queries.is_empty() {
            selectors
                .entry(namespace.to_string())
                .or_default()
                .extend(queries);
        }
    }
    selectors
        .into_iter()
        .map(|(namespace, queries)| {
            let one = match queries.len() {
                1 => queries.into_iter().next().filter(|q| server_reads(q)),
                _ => None,
            };
            (namespace, one)
        })
        .collect()
}

/// Whether the API server takes `query` as a `labelSelector` as the policy means it: not
/// empty, no `in ()` (an In without values, which matches nothing here and which the
/// server refuses), and only the characters of label keys, values and operators (a
/// value no label can hold would be refused too). Otherwise every Pod of the namespace
/// is listed, and the selector applied to them here, as to Pods from files.
fn server_reads(query: &str) -> bool {
    let allowed = |c: char| c.is_ascii_alphanumeric() || "._-/=!,()".contains(c);
    // The only spaces the syntax has: around `in` and `notin`.
    let operators = query.replace(" notin (", "notin(").replace(" in (", "in(");
    !query.is_empty() && !query.contains("()") && operators.chars().all(allowed)
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

    fn tls() -> Vec<GroupKind> {
        vec![GroupKind::new("networking.gke.io", "GCPServerTLSPolicy")]
    }

    #[test]
    fn one_selector_a_namespace_is_listed_with_it_several_without() {
        let objects = objects(
            "apiVersion: networking.gke.io/v1
kind: GCPServerTLSPolicy
metadata: {name: a, namespace: one}
spec: {targetRefs: [{kind: Pod, selector: {matchLabels: {app: pay}}}]}
---
apiVersion: networking.gke.io/v1
kind: GCPServerTLSPolicy
metadata: {name: b, namespace: one}
spec: {targetRefs: [{kind: Pod, selector: {matchLabels: {app: pay}}}]}
---
apiVersion: networking.gke.io/v1
kind: GCPServerTLSPolicy
metadata: {name: c, namespace: two}
spec: {targetRefs: [{kind: Pod, selector: {matchLabels: {app: a}}}, {kind: Pod, selector: {matchLabels: {app: b}}}]}
---
apiVersion: networking.gke.io/v1
kind: GCPServerTLSPolicy
metadata: {name: d, namespace: three}
spec: {targetRefs: [{kind: Pod, selector: {}}]}
---
apiVersion: networking.gke.io/v1
kind: GCPServerTLSPolicy
metadata: {name: e, namespace: four}
spec: {targetRefs: [{kind: Namespace, selector: {}}]}
---
apiVersion: networking.gke.io/v1
kind: GCPServerTLSPolicy
metadata: {name: f, namespace: five}
spec: {targetRefs: [{kind: Pod, selector: {matchExpressions: [{key: tier, operator: In, values: [web, api]}, {key: old, operator: DoesNotExist}]}}]}
---
apiVersion: networking.gke.io/v1
kind: GCPServerTLSPolicy
metadata: {name: g, namespace: six}
spec: {targetRefs: [{kind: Pod, selector: {matchExpressions: [{key: tier, operator: In}]}}]}
---
apiVersion: networking.gke.io/v1
kind: GCPServerTLSPolicy
metadata: {name: h, namespace: seven}
spec: {targetRefs: [{kind: Pod, selector: {matchLabels: {app: 'two words'}}}]}
",
        );
        let lists = pod_lists(&objects, &tls());
        assert_eq!(
            lists,
            BTreeMap::from([
                (
                    "five".to_string(),
                    Some("tier in (api,web),!old".to_string())
                ),
                ("one".to_string(), Some("app=pay".to_string())),
                ("seven".to_string(), None),
                ("six".to_string(), None),
                ("three".to_string(), None),
                ("two".to_string(), None),
            ])
        );
        assert!(pod_lists(&objects, &[]).is_empty());
    }
}
