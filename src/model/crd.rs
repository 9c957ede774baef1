//! A CustomResourceDefinition as every stage reads one: the kind it declares (group,
//! names, scope) and the version it is served at, its names typed by k8s-openapi's
//! `CustomResourceDefinitionNames`. An object is a CRD only when its group is
//! `apiextensions.k8s.io`, not by its kind alone.

use super::{GroupKind, Object, Val};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinitionNames;
use serde::Deserialize;

/// The group of CustomResourceDefinitions.
pub(crate) const CRD_GROUP: &str = "apiextensions.k8s.io";
/// Their kind.
pub(crate) const CRD_KIND: &str = "CustomResourceDefinition";

/// What a CRD's spec declares of the kind it defines.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Crd {
    /// `spec.group`.
    pub(crate) group: String,
    /// `spec.names`: `kind` and `plural` (empty when missing), `shortNames`, ...
    pub(crate) names: CustomResourceDefinitionNames,
    /// `spec.scope` is `Cluster`.
    pub(crate) cluster_scoped: bool,
    /// The version it stores, else the first it serves, else `spec.version` (the
    /// v1beta1 shape); none: none is written.
    pub(crate) version: Option<String>,
}

impl Crd {
    /// Whether `object` is a CRD: its kind in its group.
    pub(crate) fn is_crd(object: &Object) -> bool {
        object.kind == CRD_KIND && object.group() == CRD_GROUP
    }

    /// The CRD `object` is; none when it is not one, or its spec names no group or
    /// kind (both required by the API server).
    pub(crate) fn read(object: &Object) -> Option<Crd> {
        if !Crd::is_crd(object) {
            return None;
        }
        // Built once and kept, as every other look at a spec.
        Crd::from_spec(&object.spec)
    }

    fn from_spec(spec: &Val) -> Option<Crd> {
        let text = |pointer: &str| spec.pointer(pointer).and_then(Val::as_str);
        let group = text("/group")?.to_string();
        // Only the names are made a serde value (the schema, often most of a CRD, is not).
        let names =
            CustomResourceDefinitionNames::deserialize(spec.get("names")?.to_value()).ok()?;
        if names.kind.is_empty() {
            return None;
        }
        let versions = spec.get("versions").and_then(Val::as_array).unwrap_or(&[]);
        let flag = |v: &Val, key: &str| v.get(key).and_then(Val::as_bool) == Some(true);
        let version = versions
            .iter()
            .find(|v| flag(v, "storage"))
            .or_else(|| versions.iter().find(|v| flag(v, "served")))
            .and_then(|v| v.get("name").and_then(Val::as_str))
            .or_else(|| text("/version"))
            .map(str::to_string);
        Some(Crd {
            group,
            names,
            cluster_scoped: text("/scope") == Some("Cluster"),
            version,
        })
    }

    /// The kind it defines.
    pub(crate) fn group_kind(&self) -> GroupKind {
        GroupKind::new(&self.group, &self.names.kind)
    }

    /// Whether it defines kind `kind` of group `group`.
    pub(crate) fn defines(&self, group: &str, kind: &str) -> bool {
        self.group == group && self.names.kind == kind
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(api_version: &str, spec: &str) -> Object {
        let yaml = format!(
            "apiVersion: {api_version}\nkind: CustomResourceDefinition\nmetadata: {{name: x}}\nspec: {spec}\n"
        );
        let mut loaded = crate::source::files::Loaded::default();
        crate::source::files::load_text(&yaml, "<test>", &mut loaded).unwrap();
        loaded.snapshot.objects.remove(0)
    }

    #[test]
    fn a_crd_is_read_for_its_kind_names_scope_and_version() {
        let crd = Crd::read(&object(
            "apiextensions.k8s.io/v1",
            "{group: example.io, scope: Cluster, names: {kind: Mesh, plural: meshes, shortNames: [me]}, versions: [{name: v1alpha1, served: true}, {name: v1, served: true, storage: true}]}",
        ))
        .unwrap();
        assert_eq!(crd.group_kind(), GroupKind::new("example.io", "Mesh"));
        assert_eq!(crd.names.plural, "meshes");
        assert_eq!(crd.names.short_names, Some(vec!["me".to_string()]));
        assert!(crd.cluster_scoped);
        assert_eq!(crd.version.as_deref(), Some("v1"));
        assert!(crd.defines("example.io", "Mesh"));
    }

    #[test]
    fn only_the_apiextensions_group_makes_a_crd_and_it_must_name_group_and_kind() {
        let spec = "{group: example.io, names: {kind: Mesh, plural: meshes}}";
        assert!(Crd::read(&object("apiextensions.k8s.io/v1beta1", spec)).is_some());
        // A kind of the same name in another group is no CRD.
        assert!(Crd::read(&object("example.io/v1", spec)).is_none());
        assert!(Crd::read(&object("apiextensions.k8s.io/v1", "{names: {kind: Mesh}}")).is_none());
        assert!(Crd::read(&object("apiextensions.k8s.io/v1", "{group: example.io}")).is_none());
        let bare = Crd::read(&object(
            "apiextensions.k8s.io/v1",
            "{group: example.io, version: v1beta1, names: {kind: Mesh}}",
        ))
        .unwrap();
        assert_eq!(bare.names.plural, "");
        assert!(!bare.cluster_scoped);
        assert_eq!(bare.version.as_deref(), Some("v1beta1"));
    }
}
