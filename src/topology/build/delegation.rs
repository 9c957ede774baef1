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
        || routes.iter().any(|route| {
            route.name == Some(parent.name.as_str())
                && route.namespace.or(child.namespace.as_deref()) == parent.namespace.as_deref()
        })
}

impl<'s> Builder<'s> {
    /// Route delegation (kgateway): a rule whose backendRef names an HTTPRoute (`*`: every
    /// HTTPRoute of that namespace) hands its requests to those child routes, which sit
    /// below the rule and inherit what applies to it. A child whose parentRefs name
    /// HTTPRoutes accepts only those parents. kgateway documents it in "Route
    /// delegation" (https://kgateway.dev/docs/traffic-management/route-delegation/);
    /// no ReferenceGrant is involved.
    pub(super) fn delegate(&mut self, d: &Delegation) {
        let (rule_id, route, rule_ref, field) = (d.rule, d.route, &d.rule_ref, &d.field);
        let (ns, name) = (d.namespace.as_deref(), d.name.as_str());
        let parent = self.topology.nodes[route].obj_ref.clone();
        let candidates: Vec<ObjectId> = match self.by_kind().get(&(GATEWAY_GROUP, "HTTPRoute", ns))
        {
            Some(ids) => ids
                .iter()
                .copied()
                .filter(|&oi| name == "*" || self.objects[oi].name == name)
                .collect(),
            None => Vec::new(),
        };
        let mut linked = 0;
        let mut cycles = 0;
        for oi in candidates {
            let object = &self.objects[oi];
            let accepts = child_accepts(object, &parent);
            let Some(child) = self.topology.find(RefKey::of(&object.obj_ref())) else {
                continue;
            };
            if !accepts {
                continue;
            }
            // Never a cycle: not the route itself, nor anything above the rule.
            if let Some(down) = self.path_down(child, rule_id) {
                let nodes = &self.topology.nodes;
                let mut chain: Vec<String> =
                    down.iter().map(|&n| nodes[n].obj_ref.short()).collect();
                chain.push(nodes[child].obj_ref.short());
                self.topology.findings.push(Finding::new(
                    Code::Cycle,
                    rule_ref.clone(),
                    format!(
                        "{field}: delegating to HTTPRoute {} would close a cycle ({}); \
                         the delegation is left out",
                        nodes[child].obj_ref.ns_name(),
                        chain.join(" → ")
                    ),
                ));
                cycles += 1;
                continue;
            }
            self.edge(rule_id, child);
            linked += 1;
        }
        if linked == 0 && cycles == 0 {
            self.topology.findings.push(Finding::new(
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
        while let (false, Some(node)) = (found, queue.pop_front()) {
            for &parent in &self.topology.nodes[node].parents {
                if parent != bottom && !below.contains_key(&parent) {
                    below.insert(parent, node);
                    queue.push_back(parent);
                    found |= parent == top;
                }
            }
        }
        if !found {
            return None;
        }
        let mut path = vec![top];
        while let Some(&next) = path.last().and_then(|n| below.get(n)) {
            path.push(next);
        }
        Some(path)
    }
}
