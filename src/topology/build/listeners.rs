//! What a listener admits (its `allowedRoutes`, port and hostname), read once from its
//! Gateway or ListenerSet before the routes ask, and whether it admits a route.

use super::{Builder, View};
use crate::catalog::policy::{FieldError, LabelSelector};
use crate::model::{
    is_gateway_group, normalize_group, ObjRef, Object, Val, GATEWAY_GROUP, ROUTE_KINDS,
};
use crate::topology::{NodeId, Role, Topology};
use std::collections::BTreeMap;

/// Whether a listener admits a route a parentRef names (`View::admits`).
pub(super) enum Admission<'a> {
    Admitted,
    /// The parentRef does not name this listener (its `sectionName` or `port`).
    NotNamed,
    /// The parentRef names it and the listener refuses.
    Refused(ListenerRefusal<'a>),
}

/// Why listener `listener` refuses a route: `listener <name>: <reason>` in a finding.
#[derive(Debug, thiserror::Error)]
#[error("listener {listener}: {reason}")]
pub(super) struct ListenerRefusal<'a> {
    pub(super) listener: &'a str,
    reason: RouteRefused<'a>,
}

/// Why a listener refuses a route, by its `allowedRoutes` and `hostname`.
#[derive(Debug, thiserror::Error)]
enum RouteRefused<'a> {
    #[error("allows routes from namespace {gateway_namespace} only")]
    OtherNamespace { gateway_namespace: &'a str },
    #[error("namespace {namespace} does not match its namespace selector")]
    NamespaceNotSelected { namespace: &'a str },
    /// Its selector is misshapen: the field under `allowedRoutes.namespaces`.
    #[error("allowedRoutes.namespaces.{} {}", .0.field, .0.problem)]
    InvalidSelector(&'a FieldError),
    #[error("unknown allowedRoutes.namespaces.from {0:?}")]
    UnknownFrom(&'a str),
    #[error("does not allow {0} routes")]
    KindNotAllowed(&'a str),
    #[error("hostname {0} matches none of the route's hostnames")]
    NoHostnameInCommon(&'a str),
}

/// What a listener admits: its `port`, `allowedRoutes` and `hostname`.
pub(super) struct Listener<'s> {
    gateway_ns: &'s str,
    port: Option<u64>,
    from: AllowedFrom<'s>,
    /// Route kinds as (group, kind): `allowedRoutes.kinds`, or by protocol.
    kinds: Vec<(&'s str, &'s str)>,
    hostname: Option<&'s str>,
}

/// `allowedRoutes.namespaces.from`.
enum AllowedFrom<'s> {
    All,
    Same,
    Selector(Result<LabelSelector, FieldError>),
    Unknown(&'s str),
}

impl<'s> Listener<'s> {
    fn read(spec: &'s Val, gateway_ns: &'s str) -> Listener<'s> {
        let ns_cfg = spec.pointer("/allowedRoutes/namespaces");
        let from = match ns_cfg
            .and_then(|n| n.get("from"))
            .and_then(Val::as_str)
            .unwrap_or("Same")
        {
            "All" => AllowedFrom::All,
            "Same" => AllowedFrom::Same,
            "Selector" => AllowedFrom::Selector(
                ns_cfg
                    .and_then(|n| n.get("selector"))
                    .map(|s| LabelSelector::parse(s, "selector"))
                    .unwrap_or(Ok(LabelSelector::default())),
            ),
            other => AllowedFrom::Unknown(other),
        };
        let kinds = match spec.pointer("/allowedRoutes/kinds").and_then(Val::as_array) {
            Some(entries) if !entries.is_empty() => entries
                .iter()
                .filter_map(|entry| {
                    let kind = entry.get("kind").and_then(Val::as_str)?;
                    let group = entry.get("group").and_then(Val::as_str);
                    Some((normalize_group(group.unwrap_or(GATEWAY_GROUP)), kind))
                })
                .collect(),
            _ => {
                let protocol = spec.get("protocol").and_then(Val::as_str).unwrap_or("");
                let kinds: &[&'static str] = match protocol {
                    "HTTP" | "HTTPS" => &["HTTPRoute", "GRPCRoute"],
                    "TLS" => &["TLSRoute", "TCPRoute"],
                    "TCP" => &["TCPRoute"],
                    "UDP" => &["UDPRoute"],
                    // Implementation-specific protocols: nothing to check against.
                    _ => ROUTE_KINDS,
                };
                kinds.iter().map(|&kind| (GATEWAY_GROUP, kind)).collect()
            }
        };
        Listener {
            gateway_ns,
            port: spec.get("port").and_then(Val::as_u64),
            from,
            kinds,
            hostname: spec.get("hostname").and_then(Val::as_str),
        }
    }
}

/// What listener `lname` of `parent` (a Gateway or ListenerSet) admits, read from its
/// spec (None: nothing to check against).
fn read_listener<'s>(
    objects: &'s [Object],
    topology: &Topology,
    parent: NodeId,
    lname: &str,
) -> Option<Listener<'s>> {
    let gw = &objects[topology.nodes[parent].object?];
    let spec = gw.spec.get("listeners")?.as_array()?;
    let spec = spec
        .iter()
        .find(|x| x.get("name").and_then(Val::as_str) == Some(lname))?;
    Some(Listener::read(
        spec,
        gw.namespace.as_deref().unwrap_or_default(),
    ))
}

/// Gateway API hostname intersection: equal, or a `*.` wildcard on either side.
pub(crate) fn hostnames_intersect(a: &str, b: &str) -> bool {
    fn wild_matches(wildcard: &str, host: &str) -> bool {
        wildcard.strip_prefix("*.").is_some_and(|suffix| {
            host.len() > suffix.len() + 1
                && host
                    .strip_suffix(suffix)
                    .is_some_and(|head| head.ends_with('.'))
        })
    }
    a == b || wild_matches(a, b) || wild_matches(b, a) || {
        // Two wildcards intersect when one suffix ends with the other.
        match (a.strip_prefix("*."), b.strip_prefix("*.")) {
            (Some(a_suffix), Some(b_suffix)) => {
                a_suffix.ends_with(b_suffix) || b_suffix.ends_with(a_suffix)
            }
            _ => false,
        }
    }
}

impl<'s> Builder<'s> {
    /// Reads what every listener admits, once, before the routes ask.
    pub(super) fn read_listeners(&mut self) {
        let objects = self.objects;
        for id in NodeId::all(self.topology.nodes.len()) {
            let node = &self.topology.nodes[id];
            let (Role::Listener, Some(parent)) = (node.role, node.owner) else {
                continue;
            };
            let lname = node.obj_ref.section.as_deref().unwrap_or_default();
            let listener = read_listener(objects, &self.topology, parent, lname);
            self.listeners.insert(id, listener);
        }
    }
}

/// What a parentRef names within its Gateway: a listener by `section` (its
/// `sectionName`) and `port`, either may be unset.
#[derive(Clone, Copy)]
pub(super) struct ParentSection<'v> {
    pub(super) section: Option<&'v str>,
    pub(super) port: Option<u64>,
}

impl<'s> View<'_, 's> {
    /// Whether listener `id` admits route `route` that a parentRef naming `named`
    /// attaches to the listener's Gateway.
    pub(super) fn admits<'a>(
        &'a self,
        id: NodeId,
        route: &'a ObjRef,
        route_hosts: &[&str],
        named: ParentSection<'_>,
    ) -> Admission<'a> {
        let ParentSection { section, port } = named;
        let topology = self.topology;
        let lname = topology.nodes[id]
            .obj_ref
            .section
            .as_deref()
            .unwrap_or_default();
        if section.is_some_and(|s| s != lname) {
            return Admission::NotNamed;
        }
        // Read for every listener before the routes ask (`Builder::read_listeners`;
        // None: nothing to check against).
        let Some(listener) = self.listeners.get(&id).and_then(Option::as_ref) else {
            return Admission::Admitted;
        };
        let route_ns = route.namespace.as_deref().unwrap_or_default();
        if port.is_some() && listener.port != port {
            return Admission::NotNamed;
        }
        let why = |reason| {
            Admission::Refused(ListenerRefusal {
                listener: lname,
                reason,
            })
        };
        // allowedRoutes.namespaces
        match &listener.from {
            AllowedFrom::All => {}
            AllowedFrom::Same => {
                if route_ns != listener.gateway_ns {
                    return why(RouteRefused::OtherNamespace {
                        gateway_namespace: listener.gateway_ns,
                    });
                }
            }
            AllowedFrom::Selector(Ok(sel)) => {
                let no_labels = BTreeMap::new();
                let labels = topology
                    .namespaces
                    .get(route_ns)
                    .map_or(&no_labels, |n| &n.labels);
                if !sel.matches(labels) {
                    return why(RouteRefused::NamespaceNotSelected {
                        namespace: route_ns,
                    });
                }
            }
            AllowedFrom::Selector(Err(invalid)) => {
                return why(RouteRefused::InvalidSelector(invalid));
            }
            AllowedFrom::Unknown(other) => return why(RouteRefused::UnknownFrom(other)),
        }
        // allowedRoutes.kinds
        let allowed = listener.kinds.iter().any(|&(group, kind)| {
            kind == route.kind
                && (group == route.group
                    || is_gateway_group(group) && is_gateway_group(&route.group))
        });
        if !allowed {
            return why(RouteRefused::KindNotAllowed(&route.kind));
        }
        // Hostnames must intersect when both sides name some.
        if let Some(hostname) = listener.hostname {
            if !route_hosts.is_empty()
                && !route_hosts.iter().any(|h| hostnames_intersect(hostname, h))
            {
                return why(RouteRefused::NoHostnameInCommon(hostname));
            }
        }
        Admission::Admitted
    }
}
