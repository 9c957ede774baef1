//! What a read of a cluster is asked for, as plain data: its scope (`ReadScope`), the
//! Pods it lists (`PodLists`) and a resource it lists (`Resource`). `focus` works them
//! out and the live reader (`source::live`) reads with them; neither the asking nor the
//! answering layer needs the other (as kube-core holds the types kube-client sends).

use super::{GroupKind, ObjRef};
use std::collections::BTreeMap;

/// What to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadScope {
    /// Every namespace; a kind the user may not list cluster-wide is read in
    /// `fallback` (the namespaces in scope) instead.
    Cluster { fallback: Vec<String> },
    /// One namespace, and the namespaces its objects' ancestors live in.
    Namespace(String),
    /// What the answer for one object needs: its namespace and its ancestors'.
    Object(ObjRef),
}

/// The namespaces whose Pods a read lists, each with the label selector to list them
/// with, in kubectl's syntax (none: every Pod of the namespace).
pub(crate) type PodLists = BTreeMap<String, Option<String>>;

/// One listable resource, at the version the tool reads it in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub plural: String,
    pub namespaced: bool,
}

impl Resource {
    pub(crate) fn group_kind(&self) -> GroupKind {
        GroupKind::new(&self.group, &self.kind)
    }

    pub(crate) fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// `httproutes.gateway.networking.k8s.io`, `services`: as kubectl names it.
    pub(crate) fn display(&self) -> String {
        if self.group.is_empty() {
            self.plural.clone()
        } else {
            format!("{}.{}", self.plural, self.group)
        }
    }

    /// Whether its objects are read as metadata only (`PartialObjectMetadataList`):
    /// Secrets and ConfigMaps, whose data the tool never asks for, holds or prints
    /// (a policy's reference to one needs only that it exists).
    pub(crate) fn metadata_only(&self) -> bool {
        self.group.is_empty() && matches!(self.kind.as_str(), "Secret" | "ConfigMap")
    }
}
