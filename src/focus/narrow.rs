//! Answers about one object or one policy, computed from what they can depend on.
//!
//! `describe httproute/x` needs x's ancestors (the policies on them flow down to it),
//! its children, and the policies attached to any of those; `blast-radius` of a policy
//! needs what lies below its targets and everything above that. On files, the whole
//! input is read anyway, but building the hierarchy for 20,000 routes to answer about
//! one of them is most of the work. So before the hierarchy is built, objects in
//! namespaces the answer cannot reach are set aside, as a scoped live read would never
//! have read them. Pure.
//!
//! What is kept: every cluster-scoped object; every object in a namespace of
//! [`namespace_closure`] of the start (the namespaces linked to it by parentRefs and
//! backendRefs, whole, downwards then upwards); and every policy elsewhere that targets
//! something kept (a GatewayClass, a kept Namespace, or an object in a kept namespace
//! named across namespaces). Tests hold the answers equal to those computed on the
//! whole input, for every object and policy of every scenario.

use super::namespace_closure;
use crate::catalog::policy::{read_targets, ref_namespace, SelectorScope, TargetSpec};
use crate::catalog::references::read_references;
use crate::catalog::Catalog;
use crate::model::{canonical_kind, normalize_group, ObjRef};
use crate::model::{Map, NamespaceLinks};
use crate::model::{Object, Snapshot};
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::BTreeSet;

/// Sets aside from `snapshot` the objects an answer about `focus` cannot depend on,
/// and returns them (a one-shot command need not spend time freeing them). `catalog`
/// is the whole input's (`Catalog::build` of its objects).
pub fn narrow(snapshot: &mut Snapshot, catalog: &Catalog, focus: &ObjRef) -> Vec<Object> {
    let Some(keep) = keep_mask(&snapshot.objects, catalog, focus) else {
        return Vec::new();
    };
    // What files say exists is the whole input's, not what is left of it.
    let from_files = (snapshot.listed.iter().flatten()).any(|l| l.file.is_some());
    if snapshot.listed.is_none() || from_files {
        let listed = snapshot.listed.as_ref();
        snapshot.listed = Some(crate::model::listed_or_files(listed, &snapshot.objects));
    }
    let mut i = 0;
    let aside = |_: &mut Object| {
        i += 1;
        !keep[i - 1]
    };
    snapshot.objects.extract_if(.., aside).collect()
}

/// Which of `objects` an answer about `focus` can depend on. `None`, everything: when
/// `focus` is not among them (its "not found" is answered from the whole), is
/// cluster-scoped, or is a policy that targets a cluster-scoped object other than a
/// Namespace (a GatewayClass reaches everywhere).
pub fn keep_mask(objects: &[Object], catalog: &Catalog, focus: &ObjRef) -> Option<Vec<bool>> {
    let starts = start_namespaces(objects, catalog, focus)?;
    // A policy naming an object in another namespace (a Secret, a Service) makes an
    // answer depend on that namespace: nothing is set aside then.
    if objects
        .par_iter()
        .any(|o| names_across_namespaces(o, catalog) || referent_names_across(o))
    {
        return None;
    }
    // The links between namespaces, read only when an answer narrows (on every core).
    let keep = namespace_closure(&NamespaceLinks::of(objects), &starts);
    // A GatewayClass's parameters may decide a verdict (Envoy Gateway's mergeGateways).
    let parameters = super::parameters::class_parameters_named(objects);
    let kept = |o: &Object| match o.namespace.as_deref() {
        None => true,
        Some(ns) if keep.contains(ns) => true,
        Some(_) if super::parameters::is_named_parameters(o, &parameters) => true,
        Some(_) => catalog.is_policy(o) && targets_within(o, &keep),
    };
    // Reading the targets of every policy elsewhere is most of the work: on every core.
    Some(objects.par_iter().with_min_len(1024).map(kept).collect())
}

/// The namespaces an answer about `focus` starts from: an object's own; a policy's
/// own and its targets'. `None`: the answer may depend on anything.
fn start_namespaces(
    objects: &[Object],
    catalog: &Catalog,
    focus: &ObjRef,
) -> Option<BTreeSet<String>> {
    let ns = focus.namespace.as_deref()?;
    let o = objects.iter().find(|o| is(o, focus))?;
    let mut starts = BTreeSet::from([ns.to_string()]);
    if !catalog.is_policy(o) {
        return Some(starts);
    }
    for t in targets(o) {
        starts.insert(target_namespace(&t)?.to_string());
    }
    Some(starts)
}

/// The namespace a target lies in: a Namespace's own name. `None`: anywhere (a
/// GatewayClass, whose Gateways may be in any namespace).
fn target_namespace(t: &TargetSpec) -> Option<&str> {
    match t {
        TargetSpec::Ref(r) => ref_lies_in(r.namespace.as_deref(), &r.kind, &r.name),
        TargetSpec::Selector { namespaces, .. } => match namespaces {
            SelectorScope::Same(ns) => ns.as_deref(),
            // Possibly in any namespace.
            SelectorScope::All | SelectorScope::Labelled(_) => None,
        },
        // Pods of the policy's own namespace.
        TargetSpec::Pods(pods) => pods.namespace.as_deref(),
    }
}

/// Where a reference (its namespace as `read_ref` resolves it) lies: that namespace; a
/// Namespace's own name; `None`, anywhere.
fn ref_lies_in<'a>(namespace: Option<&'a str>, kind: &str, name: &'a str) -> Option<&'a str> {
    match (namespace, kind) {
        (Some(ns), _) => Some(ns),
        (None, "Namespace") => Some(name),
        (None, _) => None,
    }
}

/// Whether `object` is a policy whose spec names an object (besides its targets) in
/// another namespace, or by name alone (`RefNamespaces::ByName`: in any).
fn names_across_namespaces(object: &Object, catalog: &Catalog) -> bool {
    let Some(kind) = catalog.get(&object.group_kind()) else {
        return false;
    };
    if kind.entry.references.is_empty() {
        return false;
    }
    let ns = object.namespace.as_deref();
    object.spec.with(|spec| {
        spec.as_object().is_some_and(|spec| {
            read_references(spec, kind.entry.references, ns)
                .iter()
                .any(|r| {
                    let by_name = kind
                        .entry
                        .references
                        .get(r.field)
                        .is_some_and(|f| f.namespaces == crate::catalog::RefNamespaces::ByName);
                    by_name || r.target.namespace.as_deref().is_some_and(|n| Some(n) != ns)
                })
        })
    })
}

/// Whether `object` is one a policy may name whose own references (read by a
/// `Further::ItsReferences` rule: a kgateway GatewayExtension's backend) name an
/// object in another namespace: the verdict of a policy naming it depends on that
/// namespace.
fn referent_names_across(object: &Object) -> bool {
    let own = object.namespace.as_deref();
    super::references::referent_references(object)
        .iter()
        .any(|(_, t)| t.namespace.as_deref().is_some_and(|n| Some(n) != own))
}

fn is(object: &Object, obj_ref: &ObjRef) -> bool {
    object.name == obj_ref.name
        && object.kind == obj_ref.kind
        && object.namespace == obj_ref.namespace
        && normalize_group(object.group()) == obj_ref.group
}

/// Read without keeping the spec built: most of the policies looked at here are set
/// aside.
fn targets(object: &Object) -> Vec<TargetSpec> {
    let empty = Map::new();
    object.spec.with(|spec| {
        let spec = spec.as_object().unwrap_or(&empty);
        read_targets(spec, object.namespace.as_deref(), &mut Vec::new())
    })
}

/// Where a policy's targets lie (`get -w` answers a change from the namespaces it can
/// touch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetPlaces {
    /// In these namespaces; `cluster`: some are cluster-scoped objects (a GatewayClass).
    Within {
        namespaces: BTreeSet<String>,
        cluster: bool,
    },
    /// Possibly anywhere: a selector over other namespaces.
    Anywhere,
}

/// Where the targets of policy `o` lie.
pub fn target_places(o: &Object) -> TargetPlaces {
    let (mut namespaces, mut cluster) = (BTreeSet::new(), false);
    for t in targets(o) {
        match (&t, target_namespace(&t)) {
            (_, Some(ns)) => {
                namespaces.insert(ns.to_string());
            }
            // A reference without a namespace of its own names a cluster-scoped object.
            (TargetSpec::Ref(_), None) => cluster = true,
            (TargetSpec::Selector { .. }, None) => return TargetPlaces::Anywhere,
            // A cluster-scoped policy's Pod selector picks none.
            (TargetSpec::Pods(_), None) => {}
        }
    }
    TargetPlaces::Within {
        namespaces,
        cluster,
    }
}

/// Whether a policy outside the kept namespaces targets anything kept.
fn targets_within(object: &Object, keep: &BTreeSet<String>) -> bool {
    let within = |ns: Option<&str>| ns.is_none_or(|ns| keep.contains(ns));
    // Most policies are set aside: their targets are read as a view of the spec when
    // its shape allows, without building the spec if it is still text.
    if let Some(refs) = TargetRefsText::read(object) {
        let policy_ns = object.namespace.as_deref();
        return refs
            .target_ref
            .iter()
            .chain(refs.target_refs.iter().flatten())
            .filter_map(|r| r.namespace(policy_ns))
            .any(|ns| within(ns.as_deref()));
    }
    targets_read_within(object, keep)
}

/// `targets_within`, the targets read the full way (`read_targets`).
fn targets_read_within(object: &Object, keep: &BTreeSet<String>) -> bool {
    let within = |ns: Option<&str>| ns.is_none_or(|ns| keep.contains(ns));
    targets(object).iter().any(|t| within(target_namespace(t)))
}

/// A policy's `targetRef` and `targetRefs`: a view of its spec (`model::view`), every
/// other field skipped. Strict: reading fails on any shape `read_targets` may read
/// otherwise (`targetSelectors`, a reference that is not a mapping, a field that is
/// not a string; in text, a key written twice): the caller then reads the targets the
/// full way.
#[derive(serde::Deserialize)]
struct TargetRefsText<'t> {
    #[serde(borrow, rename = "targetRef", default)]
    target_ref: Option<RefText<'t>>,
    #[serde(borrow, rename = "targetRefs", default)]
    target_refs: Option<Vec<RefText<'t>>>,
    #[serde(rename = "targetSelectors", default)]
    target_selectors: Option<serde::de::IgnoredAny>,
}

#[derive(serde::Deserialize)]
struct RefText<'t> {
    #[serde(borrow, default)]
    kind: Option<Cow<'t, str>>,
    #[serde(borrow, default)]
    name: Option<Cow<'t, str>>,
    #[serde(borrow, default)]
    namespace: Option<Cow<'t, str>>,
    // Read only to hold them to `read_ref`'s shape.
    #[serde(borrow, default, rename = "group")]
    _group: Option<Cow<'t, str>>,
    #[serde(borrow, default, rename = "sectionName")]
    _section_name: Option<Cow<'t, str>>,
}

impl<'t> TargetRefsText<'t> {
    fn read(policy: &'t Object) -> Option<TargetRefsText<'t>> {
        let refs: TargetRefsText = policy.spec.view()?;
        refs.target_selectors.is_none().then_some(refs)
    }
}

impl RefText<'_> {
    /// As `target_namespace` of the reference `read_ref` reads: `None` for one it
    /// refuses (no kind or name), `Some(None)` for anywhere.
    fn namespace(&self, policy_ns: Option<&str>) -> Option<Option<String>> {
        let kind = self.kind.as_deref().filter(|k| !k.is_empty())?;
        let name = self.name.as_deref().filter(|n| !n.is_empty())?;
        let kind = canonical_kind(kind);
        let namespace = ref_namespace(&kind, self.namespace.as_deref(), policy_ns);
        Some(ref_lies_in(namespace, &kind, name).map(str::to_string))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::files::{load_text, Loaded};

    /// A policy in namespace `a` with `spec`, read from JSON: its spec still text.
    fn policy(spec: &str) -> Object {
        let json = format!(
            r#"{{"apiVersion":"x.io/v1","kind":"P","metadata":{{"name":"p","namespace":"a"}},"spec":{spec}}}"#
        );
        let mut loaded = Loaded::default();
        load_text(&json, "p.json", &mut loaded).unwrap();
        loaded.snapshot.objects.remove(0)
    }

    #[test]
    fn targets_read_from_the_text_are_those_of_the_built_spec() {
        let keeps: Vec<BTreeSet<String>> = [&[][..], &["a"], &["b"], &["c", "n"]]
            .iter()
            .map(|k| k.iter().map(|s| s.to_string()).collect())
            .collect();
        // (spec, read as a view: text or value)
        let specs = [
            (
                r#"{"targetRef":{"group":"","kind":"Service","name":"s"}}"#,
                true,
            ),
            (
                r#"{"targetRef":{"kind":"Service","name":"s","namespace":"b"}}"#,
                true,
            ),
            (
                r#"{"targetRefs":[{"kind":"HTTPRoute","name":"r","sectionName":"x"},
                {"kind":"Service","name":"s","namespace":"c"}],"other":{"deep":[1]}}"#,
                true,
            ),
            (
                r#"{"targetRef":{"kind":"Namespace","name":"n","namespace":"b"}}"#,
                true,
            ),
            (r#"{"targetRef":{"kind":"namespace","name":"b"}}"#, true),
            (
                r#"{"targetRef":{"group":"gateway.networking.k8s.io","kind":"GatewayClass","name":"gc"}}"#,
                true,
            ),
            (
                r#"{"targetRef":{"kind":"","name":"s","namespace":"b"}}"#,
                true,
            ),
            (r#"{"targetRef":{"kind":"Service","namespace":"b"}}"#, true),
            (r#"{"targetRef":null,"targetRefs":null}"#, true),
            (r#"{"settings":{"a":1}}"#, true),
            (r#"{"targetRefs":[],"targetSelectors":null}"#, true),
            // Shapes left to the full reading.
            (
                r#"{"targetSelectors":[{"kind":"HTTPRoute","matchLabels":{"a":"b"}}]}"#,
                false,
            ),
            (
                r#"{"targetRef":{"kind":"Service","name":"s","group":7}}"#,
                false,
            ),
            (r#"{"targetRef":"s"}"#, false),
            (r#"{"targetRefs":{"kind":"Service","name":"s"}}"#, false),
            (r#"{"targetRefs":[null]}"#, false),
            (
                r#"{"targetRef":{"kind":"Service","name":"s","name":"t","namespace":"b"}}"#,
                false,
            ),
            (r#"null"#, false),
            (r#""text""#, false),
        ];
        for (spec, as_view) in specs {
            let (text, built) = (policy(spec), policy(spec));
            let _ = &*built.spec;
            assert_eq!(built.spec.unbuilt_text(), None);
            assert_eq!(TargetRefsText::read(&text).is_some(), as_view, "{spec}");
            assert!(text.spec.unbuilt_text().is_some(), "{spec}");
            for keep in &keeps {
                let full = targets_read_within(&built, keep);
                assert_eq!(targets_within(&text, keep), full, "{spec} {keep:?}");
                assert_eq!(targets_within(&built, keep), full, "{spec} {keep:?}");
            }
        }
    }
}
