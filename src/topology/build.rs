//! Building the DAG: objects → nodes, references → edges, policies → attachments.

use super::{
    Code, Finding, NamespaceInfo, Node, NodeId, Resolution, ResolvedTarget, Role, Severity,
    Topology,
};
use crate::catalog::policy::{is_cluster_scoped, read_policy, LabelSelector, TargetSpec};
use crate::catalog::{Catalog, Class};
use crate::model::{is_gateway_group, normalize_group, ObjRef, GATEWAY_GROUP, GATEWAY_X_GROUP};
use crate::source::{Object, Snapshot};
use serde_json::Value;
use std::collections::HashMap;

use crate::model::ROUTE_KINDS;

fn role_of(o: &Object) -> Option<Role> {
    let g = o.group();
    match o.kind.as_str() {
        "GatewayClass" if is_gateway_group(g) => Some(Role::GatewayClass),
        "Gateway" if is_gateway_group(g) => Some(Role::Gateway),
        "ListenerSet" | "XListenerSet" if is_gateway_group(g) => Some(Role::ListenerSet),
        k if ROUTE_KINDS.contains(&k) && is_gateway_group(g) => Some(Role::Route),
        "Service" if g.is_empty() => Some(Role::Backend),
        "ServiceImport" if g == "multicluster.x-k8s.io" => Some(Role::Backend),
        _ => None,
    }
}

struct Builder {
    t: Topology,
    /// Namespaced objects by (group, kind, namespace) for targetSelectors.
    by_kind: HashMap<(String, String, Option<String>), Vec<usize>>,
}

pub fn build(snapshot: Snapshot, catalog: Catalog) -> Topology {
    let mut b = Builder {
        t: Topology {
            catalog,
            ..Topology::default()
        },
        by_kind: HashMap::new(),
    };
    b.index_namespaces(&snapshot.objects);
    b.t.snapshot = snapshot;
    b.create_nodes();
    b.link();
    b.read_policies();
    b.t
}

impl Builder {
    fn index_namespaces(&mut self, objects: &[Object]) {
        for o in objects {
            if o.kind == "Namespace" && o.group().is_empty() {
                let e = self.t.namespaces.entry(o.name.clone()).or_default();
                e.labels = o.labels.clone();
                e.has_object = true;
            } else if let Some(ns) = &o.namespace {
                self.t
                    .namespaces
                    .entry(ns.clone())
                    .or_insert_with(|| NamespaceInfo {
                        // The API server labels every namespace with its own name.
                        labels: [("kubernetes.io/metadata.name".to_string(), ns.clone())].into(),
                        has_object: false,
                    });
            }
        }
    }

    fn add_node(
        &mut self,
        obj_ref: ObjRef,
        role: Role,
        object: Option<usize>,
        owner: Option<NodeId>,
    ) -> NodeId {
        if let Some(&id) = self.t.index.get(&obj_ref) {
            return id;
        }
        let id = self.t.nodes.len();
        self.t.nodes.push(Node {
            obj_ref: obj_ref.clone(),
            role,
            object,
            owner,
            parents: Vec::new(),
            children: Vec::new(),
        });
        self.t.index.insert(obj_ref, id);
        id
    }

    fn edge(&mut self, parent: NodeId, child: NodeId) {
        if parent == child || self.t.nodes[parent].children.contains(&child) {
            return;
        }
        self.t.nodes[parent].children.push(child);
        self.t.nodes[child].parents.push(parent);
    }

    fn add_section(&mut self, owner: NodeId, role: Role, name: &str) -> NodeId {
        let r = self.t.nodes[owner].obj_ref.clone().with_section(Some(name));
        let object = self.t.nodes[owner].object;
        let id = self.add_node(r, role, object, Some(owner));
        self.edge(owner, id);
        id
    }

    fn invalid(&mut self, o: &ObjRef, field: &str, msg: &str) {
        self.t.findings.push(Finding::new(
            Code::Invalid,
            o.clone(),
            format!("{field}: {msg}"),
        ));
    }

    /// Objects and their sections become nodes (edges come after, once every node exists).
    fn create_nodes(&mut self) {
        for i in 0..self.t.snapshot.objects.len() {
            let o = &self.t.snapshot.objects[i];
            self.by_kind
                .entry((o.group().to_string(), o.kind.clone(), o.namespace.clone()))
                .or_default()
                .push(i);
            let Some(role) = role_of(o) else { continue };
            let r = o.obj_ref();
            let spec = o.spec.clone();
            let id = self.add_node(r.clone(), role, Some(i), None);
            match role {
                Role::Gateway | Role::ListenerSet => {
                    for (j, l) in list(&spec, "listeners", &r, self).iter().enumerate() {
                        match l.get("name").and_then(Value::as_str) {
                            Some(name) if !name.is_empty() => {
                                self.add_section(id, Role::Listener, name);
                            }
                            _ => {
                                self.invalid(&r, &format!("spec.listeners[{j}].name"), "is missing")
                            }
                        }
                    }
                }
                Role::Route => {
                    for (j, rule) in list(&spec, "rules", &r, self).iter().enumerate() {
                        let name = rule_name(rule, j);
                        self.add_section(id, Role::Rule, &name);
                    }
                }
                Role::Backend => {
                    for p in list(&spec, "ports", &r, self) {
                        if let Some(name) = port_name(&p) {
                            self.add_section(id, Role::Port, &name);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn link(&mut self) {
        for id in 0..self.t.nodes.len() {
            let node = self.t.nodes[id].clone();
            if node.is_section() {
                continue;
            }
            let Some(oi) = node.object else { continue };
            let spec = self.t.snapshot.objects[oi].spec.clone();
            match node.role {
                Role::Gateway => self.link_gateway(id, &node.obj_ref, &spec),
                Role::ListenerSet => self.link_listener_set(id, &node.obj_ref, &spec),
                _ => {}
            }
        }
        // Routes after every Gateway and ListenerSet has its edges (parents first).
        for id in 0..self.t.nodes.len() {
            if self.t.nodes[id].role != Role::Route {
                continue;
            }
            let node = self.t.nodes[id].clone();
            let Some(oi) = node.object else { continue };
            let spec = self.t.snapshot.objects[oi].spec.clone();
            self.link_route_parents(id, &node.obj_ref, &spec);
            self.link_route_backends(id, &node.obj_ref, &spec);
        }
    }

    fn link_gateway(&mut self, id: NodeId, r: &ObjRef, spec: &Value) {
        match spec.get("gatewayClassName").and_then(Value::as_str) {
            Some(class) => {
                let cr = ObjRef::new(GATEWAY_GROUP, "GatewayClass", None, class);
                match self.t.index.get(&cr).copied().or_else(|| {
                    self.t
                        .index
                        .get(&ObjRef::new(GATEWAY_X_GROUP, "GatewayClass", None, class))
                        .copied()
                }) {
                    Some(c) => self.edge(c, id),
                    None => self.t.findings.push(Finding::new(
                        Code::ParentNotFound,
                        r.clone(),
                        format!("GatewayClass {class} is not in the input"),
                    )),
                }
            }
            None => self.invalid(r, "spec.gatewayClassName", "is missing"),
        }
    }

    fn link_listener_set(&mut self, id: NodeId, r: &ObjRef, spec: &Value) {
        let Some(p) = spec.get("parentRef") else {
            self.invalid(r, "spec.parentRef", "is missing");
            return;
        };
        let Some(name) = p.get("name").and_then(Value::as_str) else {
            self.invalid(r, "spec.parentRef.name", "is missing");
            return;
        };
        let ns = p
            .get("namespace")
            .and_then(Value::as_str)
            .or(r.namespace.as_deref());
        let gw = ObjRef::new(GATEWAY_GROUP, "Gateway", ns, name);
        match self.t.index.get(&gw).copied() {
            Some(g) => self.edge(g, id),
            None => self.t.findings.push(Finding::new(
                Code::ParentNotFound,
                r.clone(),
                format!("parent Gateway {} is not in the input", gw.ns_name()),
            )),
        }
    }

    fn link_route_parents(&mut self, id: NodeId, r: &ObjRef, spec: &Value) {
        let parent_refs = list(spec, "parentRefs", r, self);
        for (j, p) in parent_refs.iter().enumerate() {
            let field = format!("spec.parentRefs[{j}]");
            let Some(name) = p.get("name").and_then(Value::as_str) else {
                self.invalid(r, &format!("{field}.name"), "is missing");
                continue;
            };
            let group = normalize_group(
                p.get("group")
                    .and_then(Value::as_str)
                    .unwrap_or(GATEWAY_GROUP),
            );
            let kind = p.get("kind").and_then(Value::as_str).unwrap_or("Gateway");
            let ns = p
                .get("namespace")
                .and_then(Value::as_str)
                .or(r.namespace.as_deref());
            let section = p.get("sectionName").and_then(Value::as_str);
            let port = p.get("port").and_then(Value::as_u64);
            let target = ObjRef::new(group, kind, ns, name);
            if kind == "Service" && group.is_empty() {
                // GAMMA: the Service is the route's parent (mesh).
                match self.t.index.get(&target).copied() {
                    Some(s) => self.edge(s, id),
                    None => self.t.findings.push(Finding::new(
                        Code::ParentNotFound,
                        r.clone(),
                        format!("{field}: Service {} is not in the input", target.ns_name()),
                    )),
                }
                continue;
            }
            let parent = match self.t.index.get(&target).copied() {
                Some(p) => p,
                None => {
                    let alt = ObjRef::new(
                        GATEWAY_X_GROUP,
                        if kind == "ListenerSet" {
                            "XListenerSet"
                        } else {
                            kind
                        },
                        ns,
                        name,
                    );
                    match self.t.index.get(&alt).copied() {
                        Some(p) => p,
                        None => {
                            self.t.findings.push(Finding::new(
                                Code::ParentNotFound,
                                r.clone(),
                                format!("{field}: {kind} {} is not in the input", target.ns_name()),
                            ));
                            continue;
                        }
                    }
                }
            };
            let listeners: Vec<NodeId> = self.t.nodes[parent]
                .children
                .iter()
                .copied()
                .filter(|&c| self.t.nodes[c].role == Role::Listener)
                .collect();
            if listeners.is_empty() {
                self.edge(parent, id);
                continue;
            }
            let mut admitted = 0;
            let mut reasons = Vec::new();
            for l in listeners {
                match self.admits(parent, l, r, section, port) {
                    Ok(()) => {
                        self.edge(l, id);
                        admitted += 1;
                    }
                    Err(Some(reason)) => reasons.push(reason),
                    Err(None) => {}
                }
            }
            if admitted == 0 {
                let mut msg = format!(
                    "{field}: no listener of {} {} admits this route",
                    kind,
                    target.ns_name()
                );
                if let Some(s) = section {
                    if !reasons
                        .iter()
                        .any(|x| x.starts_with(&format!("listener {s}:")))
                    {
                        msg = format!(
                            "{field}: {kind} {} has no listener named {s}",
                            target.ns_name()
                        );
                    }
                }
                if !reasons.is_empty() {
                    msg.push_str(" (");
                    msg.push_str(&reasons.join("; "));
                    msg.push(')');
                }
                self.t
                    .findings
                    .push(Finding::new(Code::NotAdmitted, r.clone(), msg));
            }
        }
    }

    /// Whether listener `l` of `parent` admits route `r`. `Err(None)`: the parentRef
    /// does not name this listener (sectionName/port); `Err(Some(why))`: it names it
    /// and the listener refuses.
    fn admits(
        &self,
        parent: NodeId,
        l: NodeId,
        r: &ObjRef,
        section: Option<&str>,
        port: Option<u64>,
    ) -> Result<(), Option<String>> {
        let lname = self.t.nodes[l].obj_ref.section.clone().unwrap_or_default();
        if section.is_some_and(|s| s != lname) {
            return Err(None);
        }
        let Some(oi) = self.t.nodes[parent].object else {
            return Ok(());
        };
        let gw = &self.t.snapshot.objects[oi];
        let Some(listener) = gw
            .spec
            .get("listeners")
            .and_then(Value::as_array)
            .and_then(|ls| {
                ls.iter()
                    .find(|x| x.get("name").and_then(Value::as_str) == Some(lname.as_str()))
            })
        else {
            return Ok(());
        };
        if let Some(p) = port {
            if listener.get("port").and_then(Value::as_u64) != Some(p) {
                return Err(None);
            }
        }
        let why = |m: String| Err(Some(format!("listener {lname}: {m}")));
        // allowedRoutes.namespaces
        let route_ns = r.namespace.clone().unwrap_or_default();
        let gw_ns = gw.namespace.clone().unwrap_or_default();
        let ns_cfg = listener.pointer("/allowedRoutes/namespaces");
        let from = ns_cfg
            .and_then(|n| n.get("from"))
            .and_then(Value::as_str)
            .unwrap_or("Same");
        match from {
            "All" => {}
            "Same" => {
                if route_ns != gw_ns {
                    return why(format!("allows routes from namespace {gw_ns} only"));
                }
            }
            "Selector" => {
                let sel = ns_cfg
                    .and_then(|n| n.get("selector"))
                    .map(|s| LabelSelector::parse(s, "selector"))
                    .unwrap_or(Ok(LabelSelector::default()));
                let labels = self
                    .t
                    .namespaces
                    .get(&route_ns)
                    .map(|n| n.labels.clone())
                    .unwrap_or_default();
                match sel {
                    Ok(sel) if sel.matches(&labels) => {}
                    Ok(_) => {
                        return why(format!(
                            "namespace {route_ns} does not match its namespace selector"
                        ))
                    }
                    Err((f, m)) => return why(format!("allowedRoutes.namespaces.{f} {m}")),
                }
            }
            other => return why(format!("unknown allowedRoutes.namespaces.from {other:?}")),
        }
        // allowedRoutes.kinds (default: by protocol)
        let kinds: Vec<(String, String)> = match listener
            .pointer("/allowedRoutes/kinds")
            .and_then(Value::as_array)
        {
            Some(ks) if !ks.is_empty() => ks
                .iter()
                .filter_map(|k| {
                    let kind = k.get("kind").and_then(Value::as_str)?;
                    let group = normalize_group(
                        k.get("group")
                            .and_then(Value::as_str)
                            .unwrap_or(GATEWAY_GROUP),
                    );
                    Some((group.to_string(), kind.to_string()))
                })
                .collect(),
            _ => {
                let protocol = listener
                    .get("protocol")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                let ks: &[&str] = match protocol {
                    "HTTP" | "HTTPS" => &["HTTPRoute", "GRPCRoute"],
                    "TLS" => &["TLSRoute", "TCPRoute"],
                    "TCP" => &["TCPRoute"],
                    "UDP" => &["UDPRoute"],
                    // Implementation-specific protocols: nothing to check against.
                    _ => ROUTE_KINDS,
                };
                ks.iter()
                    .map(|k| (GATEWAY_GROUP.to_string(), k.to_string()))
                    .collect()
            }
        };
        if !kinds.iter().any(|(g, k)| {
            *k == r.kind && (g == &r.group || is_gateway_group(g) && is_gateway_group(&r.group))
        }) {
            return why(format!("does not allow {} routes", r.kind));
        }
        // Hostnames must intersect when both sides name some.
        if let Some(lh) = listener.get("hostname").and_then(Value::as_str) {
            let route_hosts: Vec<&str> = self
                .t
                .index
                .get(r)
                .and_then(|&id| self.t.nodes[id].object)
                .and_then(|oi| self.t.snapshot.objects[oi].spec.get("hostnames"))
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if !route_hosts.is_empty() && !route_hosts.iter().any(|h| hostnames_intersect(lh, h)) {
                return why(format!(
                    "hostname {lh} matches none of the route's hostnames"
                ));
            }
        }
        Ok(())
    }

    fn link_route_backends(&mut self, _id: NodeId, r: &ObjRef, spec: &Value) {
        let rules = spec
            .get("rules")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for (j, rule) in rules.iter().enumerate() {
            let rule_ref = r.clone().with_section(Some(&rule_name(rule, j)));
            let Some(rule_id) = self.t.index.get(&rule_ref).copied() else {
                continue;
            };
            let Some(refs) = rule.get("backendRefs").and_then(Value::as_array) else {
                continue;
            };
            for (k, b) in refs.iter().enumerate() {
                let field = format!("spec.rules[{j}].backendRefs[{k}]");
                let Some(name) = b.get("name").and_then(Value::as_str) else {
                    self.invalid(r, &format!("{field}.name"), "is missing");
                    continue;
                };
                let group = normalize_group(b.get("group").and_then(Value::as_str).unwrap_or(""));
                let kind = b.get("kind").and_then(Value::as_str).unwrap_or("Service");
                let ns = b
                    .get("namespace")
                    .and_then(Value::as_str)
                    .or(r.namespace.as_deref());
                let target = ObjRef::new(group, kind, ns, name);
                if ns != r.namespace.as_deref() && !self.reference_granted(r, &target) {
                    self.t.findings.push(Finding::new(
                        Code::RefNotPermitted,
                        rule_ref.clone(),
                        format!(
                            "{field}: {kind} {} is in another namespace and no ReferenceGrant in {} allows {} from {}",
                            target.ns_name(),
                            ns.unwrap_or_default(),
                            r.kind,
                            r.namespace.as_deref().unwrap_or_default()
                        ),
                    ));
                    continue;
                }
                let backend = match self.t.index.get(&target).copied() {
                    Some(bid) => bid,
                    None => {
                        // Backends of kinds the tool does not model (an InferencePool, an
                        // implementation's Backend) are nodes when they are in the input.
                        let present = self
                            .by_kind
                            .get(&(group.to_string(), kind.to_string(), ns.map(str::to_string)))
                            .and_then(|v| {
                                v.iter()
                                    .copied()
                                    .find(|&oi| self.t.snapshot.objects[oi].name == name)
                            });
                        match present {
                            Some(oi) => {
                                self.add_node(target.clone(), Role::Backend, Some(oi), None)
                            }
                            None => {
                                self.t.findings.push(Finding::new(
                                    Code::BackendNotFound,
                                    rule_ref.clone(),
                                    format!(
                                        "{field}: {kind} {} is not in the input",
                                        target.ns_name()
                                    ),
                                ));
                                continue;
                            }
                        }
                    }
                };
                // A mesh route whose backend is its own parent Service would close a cycle.
                if self.t.ancestors(rule_id).contains(&backend) {
                    continue;
                }
                self.edge(rule_id, backend);
            }
        }
    }

    /// A ReferenceGrant in the target's namespace that lets `from` refer to `to`.
    fn reference_granted(&self, from: &ObjRef, to: &ObjRef) -> bool {
        let key = |g: &str| {
            (
                g.to_string(),
                "ReferenceGrant".to_string(),
                to.namespace.clone(),
            )
        };
        let grants = [GATEWAY_GROUP, GATEWAY_X_GROUP]
            .iter()
            .filter_map(|g| self.by_kind.get(&key(g)))
            .flatten();
        for &gi in grants {
            let spec = &self.t.snapshot.objects[gi].spec;
            let from_ok = spec
                .get("from")
                .and_then(Value::as_array)
                .is_some_and(|fs| {
                    fs.iter().any(|f| {
                        f.get("kind").and_then(Value::as_str) == Some(from.kind.as_str())
                            && normalize_group(f.get("group").and_then(Value::as_str).unwrap_or(""))
                                == from.group
                            && f.get("namespace").and_then(Value::as_str)
                                == from.namespace.as_deref()
                    })
                });
            let to_ok = spec.get("to").and_then(Value::as_array).is_some_and(|ts| {
                ts.iter().any(|t| {
                    t.get("kind").and_then(Value::as_str) == Some(to.kind.as_str())
                        && normalize_group(t.get("group").and_then(Value::as_str).unwrap_or(""))
                            == to.group
                        && t.get("name")
                            .and_then(Value::as_str)
                            .is_none_or(|n| n == to.name)
                })
            });
            if from_ok && to_ok {
                return true;
            }
        }
        false
    }

    fn read_policies(&mut self) {
        for i in 0..self.t.snapshot.objects.len() {
            let o = &self.t.snapshot.objects[i];
            let Some(pk) = self.t.catalog.get(&o.group_kind()) else {
                continue;
            };
            let p = read_policy(o, i, pk);
            let pid = self.t.policies.len();
            for (field, msg) in &p.invalid {
                self.t.findings.push(Finding::new(
                    Code::Invalid,
                    p.obj_ref.clone(),
                    format!("{field}: {msg}"),
                ));
            }
            if let Some(sel) = &p.workload_selector {
                self.t.findings.push(Finding::new(
                    Code::SelectorBound,
                    p.obj_ref.clone(),
                    format!("{sel} binds it to workloads, outside the Gateway API hierarchy; not resolved"),
                ));
            }
            self.t.policy_index.insert(p.obj_ref.clone(), pid);
            self.t.policies.push(p);
            self.t.targets.push(Vec::new());
        }
        self.t.attached = vec![Vec::new(); self.t.nodes.len()];
        for pid in 0..self.t.policies.len() {
            let targets = self.t.policies[pid].targets.clone();
            let pref = self.t.policies[pid].obj_ref.clone();
            let mut resolved = Vec::new();
            for t in targets {
                match t {
                    TargetSpec::Ref(r) => resolved.push(self.resolve_ref(pid, r)),
                    TargetSpec::Selector {
                        group_kind,
                        namespace,
                        selector,
                    } => {
                        let matched: Vec<usize> = self
                            .by_kind
                            .get(&(
                                group_kind.group.clone(),
                                group_kind.kind.clone(),
                                namespace.clone(),
                            ))
                            .map(|v| {
                                v.iter()
                                    .copied()
                                    .filter(|&oi| {
                                        selector.matches(&self.t.snapshot.objects[oi].labels)
                                    })
                                    .collect()
                            })
                            .unwrap_or_default();
                        if matched.is_empty() {
                            self.t.findings.push(Finding::new(
                                Code::SelectorMatchesNothing,
                                pref.clone(),
                                format!(
                                    "targetSelectors: no {} in namespace {} matches",
                                    group_kind.kind,
                                    namespace.as_deref().unwrap_or("(cluster)")
                                ),
                            ));
                        }
                        for oi in matched {
                            let r = self.t.snapshot.objects[oi].obj_ref();
                            resolved.push(self.resolve_ref(pid, r));
                        }
                    }
                }
            }
            for rt in &resolved {
                match &rt.resolution {
                    Resolution::Node(n) => {
                        if !self.t.attached[*n].contains(&pid) {
                            self.t.attached[*n].push(pid)
                        }
                    }
                    Resolution::Namespace(ns) => {
                        let v = self.t.ns_attached.entry(ns.clone()).or_default();
                        if !v.contains(&pid) {
                            v.push(pid)
                        }
                    }
                    Resolution::NotFound(_) => {}
                }
            }
            self.t.targets[pid] = resolved;
        }
        let order =
            |t: &Topology, a: &usize, b: &usize| crate::effective::precedence_cmp(t, *a, *b);
        let mut attached = std::mem::take(&mut self.t.attached);
        for v in &mut attached {
            v.sort_by(|a, b| order(&self.t, a, b));
        }
        self.t.attached = attached;
        let mut ns_attached = std::mem::take(&mut self.t.ns_attached);
        for v in ns_attached.values_mut() {
            v.sort_by(|a, b| order(&self.t, a, b));
        }
        self.t.ns_attached = ns_attached;
    }

    fn resolve_ref(&mut self, pid: usize, r: ObjRef) -> ResolvedTarget {
        let policy = &self.t.policies[pid].obj_ref.clone();
        let (code, msg) = if r.kind == "Namespace" && r.group.is_empty() {
            if self.t.namespaces.contains_key(&r.name) {
                if self.t.policies[pid].class == Class::Direct {
                    // A Direct policy on a Namespace affects the Namespace itself, which
                    // is not part of the Gateway API hierarchy.
                    return ResolvedTarget {
                        target: r,
                        resolution: Resolution::NotFound(Code::SelectorBound),
                    };
                }
                return ResolvedTarget {
                    resolution: Resolution::Namespace(r.name.clone()),
                    target: r,
                };
            }
            (
                Code::TargetNotFound,
                format!("Namespace {} is not in the input", r.name),
            )
        } else {
            let whole = r.object();
            let found = self.t.index.get(&whole).copied().or_else(|| {
                // ListenerSet is still XListenerSet in the experimental channel.
                (r.kind == "ListenerSet")
                    .then(|| {
                        let mut x = whole.clone();
                        x.group = GATEWAY_X_GROUP.into();
                        x.kind = "XListenerSet".into();
                        self.t.index.get(&x).copied()
                    })
                    .flatten()
            });
            match found {
                None if !self.is_modelled_kind(&r) && self.object_exists(&whole) => {
                    // A target kind outside the hierarchy the tool models (a Server, a
                    // ServiceEntry): it exists, and the policy reaches it alone.
                    let oi = self.find_object(&whole);
                    let before = self.t.nodes.len();
                    let id = self.add_node(whole.clone(), Role::Backend, oi, None);
                    if self.t.nodes.len() > before {
                        self.t.attached.push(Vec::new());
                    }
                    return self.section_or_node(policy, r, id);
                }
                None => (
                    Code::TargetNotFound,
                    format!("{} {} is not in the input", r.kind, r.ns_name()),
                ),
                Some(id) => return self.section_or_node(policy, r, id),
            }
        };
        let mut finding = Finding::new(code, policy.clone(), msg);
        if let Some(blind) = self.t.snapshot.blind_spots.iter().find(|b| {
            b.group == r.group
                && b.kind == r.kind
                && (b.namespace.is_none() || b.namespace == r.namespace)
        }) {
            // Not seen is not the same as not there: say which, and do not fail `check`.
            finding.severity = Severity::Warning;
            finding.message = format!(
                "{} {} could not be read ({}): whether it exists is unknown",
                r.kind,
                r.ns_name(),
                blind.message
            );
        }
        self.t.findings.push(finding);
        ResolvedTarget {
            target: r,
            resolution: Resolution::NotFound(code),
        }
    }

    fn section_or_node(&mut self, policy: &ObjRef, r: ObjRef, id: NodeId) -> ResolvedTarget {
        let Some(section) = &r.section else {
            return ResolvedTarget {
                target: r,
                resolution: Resolution::Node(id),
            };
        };
        let sref = self.t.nodes[id].obj_ref.clone().with_section(Some(section));
        match self.t.index.get(&sref).copied() {
            Some(s) => ResolvedTarget {
                target: r,
                resolution: Resolution::Node(s),
            },
            None => {
                let what = match self.t.nodes[id].role {
                    Role::Gateway | Role::ListenerSet => "listener",
                    Role::Route => "rule",
                    Role::Backend => "port",
                    _ => "section",
                };
                self.t.findings.push(Finding::new(
                    Code::SectionNotFound,
                    policy.clone(),
                    format!("{} {} has no {what} named {section}", r.kind, r.ns_name()),
                ));
                ResolvedTarget {
                    target: r,
                    resolution: Resolution::NotFound(Code::SectionNotFound),
                }
            }
        }
    }

    fn is_modelled_kind(&self, r: &ObjRef) -> bool {
        matches!(
            r.kind.as_str(),
            "GatewayClass"
                | "Gateway"
                | "ListenerSet"
                | "XListenerSet"
                | "Service"
                | "ServiceImport"
        ) || ROUTE_KINDS.contains(&r.kind.as_str())
    }

    fn find_object(&self, r: &ObjRef) -> Option<usize> {
        self.by_kind
            .get(&(r.group.clone(), r.kind.clone(), r.namespace.clone()))
            .and_then(|v| {
                v.iter()
                    .copied()
                    .find(|&oi| self.t.snapshot.objects[oi].name == r.name)
            })
    }

    fn object_exists(&self, r: &ObjRef) -> bool {
        self.find_object(r).is_some() && !is_cluster_scoped(&r.kind)
    }
}

/// Rules are sections by `name`; unnamed ones by position, `rule-1` first (as
/// policy-machinery names them). Only a real name can be targeted by sectionName.
pub fn rule_name(rule: &Value, index: usize) -> String {
    match rule.get("name").and_then(Value::as_str) {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => format!("rule-{}", index + 1),
    }
}

/// Ports are sections by name; an unnamed port by its number (it cannot be targeted).
fn port_name(p: &Value) -> Option<String> {
    match p.get("name").and_then(Value::as_str) {
        Some(n) if !n.is_empty() => Some(n.to_string()),
        _ => p.get("port").and_then(Value::as_u64).map(|n| n.to_string()),
    }
}

fn list(spec: &Value, field: &str, r: &ObjRef, b: &mut Builder) -> Vec<Value> {
    match spec.get(field) {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a.clone(),
        Some(_) => {
            b.invalid(r, &format!("spec.{field}"), "must be a list");
            Vec::new()
        }
    }
}

/// Gateway API hostname intersection: equal, or a `*.` wildcard on either side.
pub fn hostnames_intersect(a: &str, b: &str) -> bool {
    fn wild_matches(w: &str, h: &str) -> bool {
        w.strip_prefix("*.")
            .is_some_and(|suffix| h.len() > suffix.len() + 1 && h.ends_with(&format!(".{suffix}")))
    }
    a == b || wild_matches(a, b) || wild_matches(b, a) || {
        // Two wildcards intersect when one suffix ends with the other.
        match (a.strip_prefix("*."), b.strip_prefix("*.")) {
            (Some(x), Some(y)) => x.ends_with(y) || y.ends_with(x),
            _ => false,
        }
    }
}
