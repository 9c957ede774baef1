//! Route delegation (kgateway): a rule whose backendRef names HTTPRoutes hands its
//! requests to them, and they sit below the rule.

use super::{Borrowed, Builder, Ref};
use crate::model::{FastMap, ObjRef, Object, ObjectId, RefFields, GATEWAY_GROUP};
use crate::topology::{Code, Finding, NodeId, RefKey};

/// A backendRef of rule `rule` (of route `route`) that names HTTPRoute `name` (`*`:
/// every HTTPRoute) in `namespace`, as written at `field`.
pub(super) struct Delegation {
    pub(super) rule: NodeId,
    pub(super) route: NodeId,
    pub(super) namespace: Option<String>,
    pub(super) name: String,
    pub(super) rule_ref: ObjRef,
    pub(super) field: String,
}

/// Whether a delegated child route accepts `parent`: it does unless its parentRefs name
/// HTTPRoutes, and then only those.
fn child_accepts(child: &Object, parent: &ObjRef) -> bool {
    let routes: Vec<Ref> = child
        .links()
        .parent_refs
        .items()
        .iter()
        .map(RefFields::borrowed)
        .filter(|p| p.kind == Some("HTTPRoute"))
        .collect();
    routes.is_empty()
        || routes.iter().any(|p| {
            p.name == Some(parent.name.as_str())
                && p.namespace.or(child.namespace.as_deref()) == parent.namespace.as_deref()
        })
}

impl<'s> Builder<'s> {
    /// Route delegation (kgateway): a rule whose backendRef names an HTTPRoute (`*`: every
    /// HTTPRoute of that namespace) hands its requests to those child routes, which sit
    /// below the rule and inherit what applies to it. A child whose parentRefs name
    /// HTTPRoutes accepts only those parents. kgateway documents it in "Route
    /// delegation" (https://kgateway.dev/docs/traffic-management/route-delegation/);
    /// no ReferenceGrant is involved.
    pub(super) fn delegate(
        &mut self,
        rule_id: NodeId,
        route: NodeId,
        ns: Option<&str>,
        name: &str,
        rule_ref: &ObjRef,
        field: &str,
    ) {
        let parent = self.t.nodes[route].obj_ref.clone();
        let candidates: Vec<ObjectId> = match self.by_kind().get(&(GATEWAY_GROUP, "HTTPRoute", ns))
        {
            Some(v) => v
                .iter()
                .copied()
                .filter(|&oi| name == "*" || self.objects[oi].name == name)
                .collect(),
            None => Vec::new(),
        };
        let mut linked = 0;
        let mut cycles = 0;
        for oi in candidates {
            let child = &self.objects[oi];
            let accepts = child_accepts(child, &parent);
            let Some(c) = self.t.find(RefKey::of(&child.obj_ref())) else {
                continue;
            };
            if !accepts {
                continue;
            }
            // Never a cycle: not the route itself, nor anything above the rule.
            if let Some(down) = self.path_down(c, rule_id) {
                let nodes = &self.t.nodes;
                let mut chain: Vec<String> =
                    down.iter().map(|&n| nodes[n].obj_ref.short()).collect();
                chain.push(nodes[c].obj_ref.short());
                self.t.findings.push(Finding::new(
                    Code::Cycle,
                    rule_ref.clone(),
                    format!(
                        "{field}: delegating to HTTPRoute {} would close a cycle ({}); \
                         the delegation is left out",
                        nodes[c].obj_ref.ns_name(),
                        chain.join(" → ")
                    ),
                ));
                cycles += 1;
                continue;
            }
            self.edge(rule_id, c);
            linked += 1;
        }
        if linked == 0 && cycles == 0 {
            self.t.findings.push(Finding::new(
                Code::BackendNotFound,
                rule_ref.clone(),
                format!(
                    "{field}: delegates to HTTPRoute {}/{name}, which is not in the input",
                    ns.unwrap_or_default()
                ),
            ));
        }
    }

    /// The nodes from `top` down to `bottom` along the edges made so far, if `top` is
    /// `bottom` or above it: one walk up from `bottom`, each node once.
    fn path_down(&self, top: NodeId, bottom: NodeId) -> Option<Vec<NodeId>> {
        let mut below: FastMap<NodeId, NodeId> = FastMap::default();
        let mut queue = std::collections::VecDeque::from([bottom]);
        let mut found = top == bottom;
        while let (false, Some(n)) = (found, queue.pop_front()) {
            for &p in &self.t.nodes[n].parents {
                if p != bottom && !below.contains_key(&p) {
                    below.insert(p, n);
                    queue.push_back(p);
                    found |= p == top;
                }
            }
        }
        if !found {
            return None;
        }
        let mut path = vec![top];
        while let Some(&n) = path.last().and_then(|n| below.get(n)) {
            path.push(n);
        }
        Some(path)
    }
}
