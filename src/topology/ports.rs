//! Service ports in the hierarchy: which a picture shows (the ports traffic reaches),
//! and the port a policy names by its number (`targetRefs[].ports`, `targetRefs[].port`),
//! resolved to the port's section as `sectionName` is.

use super::{NodeId, Topology};

impl Topology {
    /// Whether `tree` and `graph` draw port section `port` of backend `backend`: some
    /// path into the backend sends traffic to it (or none comes in), or a policy
    /// attaches to it.
    pub fn port_shown(&self, backend: NodeId, port: NodeId) -> bool {
        let parents = &self.nodes[backend].parents;
        parents.is_empty()
            || !self.attached[port].is_empty()
            || parents.iter().any(|&q| self.reaches_port(q, backend, port))
    }
}
