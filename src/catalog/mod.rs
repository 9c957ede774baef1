//! Which kinds are policies and how each behaves; and the policies themselves,
//! read from objects (targets, intent). Where the tool learns a kind is a policy, in
//! order: the CRD label, the built-in registry, the user's `--policy-kind`
//! (`declared`), and the name-based assumption. A kind's rules are one struct, its
//! `Entry` (`entry`, with their vocabulary in `reach` and `merging`); the catalog holds
//! per kind that entry and what only the input says (`PolicyKind`).

mod class;
mod declared;
mod entry;
pub(crate) mod merged;
mod merging;
pub mod policy;
mod reach;
pub(crate) mod references;
pub mod registry;

pub use class::{parse_class_label, Class, ClassOrigin};
pub use declared::{Declared, DeclaredError};
pub(crate) use entry::Entry;
pub(crate) use merging::{DefaultsOverrides, MergeModel, SameTarget, ValueKey};
pub(crate) use reach::{
    Flow, NamespaceRule, OtherTargetKinds, RefusedOn, Refuses, Sections, SharedPort, Targeting,
};
pub(crate) use references::{
    Further, RefField, RefGroups, RefNamespaces, RefusedReferent, Unresolved,
};

use crate::model::Object;
use crate::model::{Crd, GroupKind, POLICY_LABEL};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// A policy kind of one catalog: its rules (`entry`) and what the input alone says of
/// it (where the tool learned it is a policy, its CRD's label; the name of a kind the
/// registry does not know).
#[derive(Clone, Debug)]
pub struct PolicyKind {
    /// Its rules: the registry's entry; the generic entry of its class for a kind the
    /// registry does not know; or, for a registry kind declared of the other class
    /// (`--policy-kind`), the registry's entry with that class's defaults for how its
    /// policies combine (the one entry not `&'static`).
    pub entry: Cow<'static, Entry>,
    /// Its group and kind, when its entry is generic (names none).
    named: Option<GroupKind>,
    /// Where the tool learned it is a policy.
    pub origin: ClassOrigin,
    /// The class the `gateway.networking.k8s.io/policy` label of its CRD in the input
    /// states.
    crd_label: Option<Class>,
}

impl PolicyKind {
    /// A registry kind.
    fn of(entry: &'static Entry, origin: ClassOrigin) -> PolicyKind {
        PolicyKind {
            entry: Cow::Borrowed(entry),
            named: None,
            origin,
            crd_label: None,
        }
    }

    /// A kind the registry does not know: its class's generic entry (GEP-713's
    /// defaults).
    fn generic(gk: &GroupKind, class: Class, origin: ClassOrigin) -> PolicyKind {
        PolicyKind {
            entry: Cow::Borrowed(Entry::generic(class)),
            named: Some(gk.clone()),
            origin,
            crd_label: None,
        }
    }

    pub(crate) fn group(&self) -> &str {
        self.named.as_ref().map_or(self.entry.group, |gk| &gk.group)
    }

    pub(crate) fn kind(&self) -> &str {
        self.named.as_ref().map_or(self.entry.kind, |gk| &gk.kind)
    }

    pub(crate) fn group_kind(&self) -> GroupKind {
        match &self.named {
            Some(gk) => gk.clone(),
            None => GroupKind::new(self.entry.group, self.entry.kind),
        }
    }

    /// The class the `gateway.networking.k8s.io/policy` label states: the label of the
    /// CRD in the input, else the one the project ships (registry). May differ from the
    /// entry's class when the controller behaves otherwise (then the behaviour decides).
    pub(crate) fn label(&self) -> Option<Class> {
        self.crd_label
            .or_else(|| self.entry.label.and_then(parse_class_label))
    }

    /// Whether its vendor refuses one of its policies for what the others of the kind
    /// are aimed at or set: its `SharedPort` rule, a `RefusedOn` rule checked again
    /// after merging into a parent's policy, a route's policy translated merged with
    /// its parent's (`MergedParentFields`). Deleting one may then refuse or restore
    /// another.
    pub(crate) fn others_turn_on_it(&self) -> bool {
        self.entry.shared_port != SharedPort::Allowed
            || self.entry.refused_on.iter().any(|rule| rule.after_merge)
            || self.entry.merged_parent_fields.is_some()
    }
}

/// The policy kinds in play, keyed by group + kind.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    pub kinds: BTreeMap<GroupKind, PolicyKind>,
}

impl Catalog {
    /// Builds the catalog for a snapshot: labelled CRDs in the input, then the registry,
    /// then declarations, then objects that look like policies.
    pub fn build(objects: &[Object], declared: &[Declared]) -> Catalog {
        let mut kinds: BTreeMap<GroupKind, PolicyKind> = BTreeMap::new();
        for object in objects.iter().filter(|o| Crd::is_crd(o)) {
            let Some(class) = object
                .labels
                .get(POLICY_LABEL)
                .and_then(|v| parse_class_label(v))
            else {
                continue;
            };
            let Some(crd) = Crd::read(object) else {
                continue;
            };
            let gk = crd.group_kind();
            // The label decides the class of a kind the registry does not know. For one
            // it knows, the controller's behaviour decides (issue 28: kgateway labels
            // TrafficPolicy Direct and inherits it); `label` keeps what the CRD says so
            // `describe` can show that it differs.
            let mut pk = match registry::lookup(&gk) {
                Some(entry) if entry.class == class => PolicyKind::of(entry, ClassOrigin::Label),
                Some(entry) => PolicyKind::of(entry, ClassOrigin::Registry),
                None => PolicyKind::generic(&gk, class, ClassOrigin::Label),
            };
            pk.crd_label = Some(class);
            kinds.insert(gk, pk);
        }
        for entry in registry::entries() {
            let gk = GroupKind::new(entry.group, entry.kind);
            kinds
                .entry(gk)
                .or_insert_with(|| PolicyKind::of(entry, ClassOrigin::Registry));
        }
        for declaration in declared {
            let gk = &declaration.group_kind;
            // The user's word beats everything but keeps a registry kind's merge model.
            let mut pk = match registry::lookup(gk) {
                Some(entry) => PolicyKind::of(entry, ClassOrigin::Declared),
                None => PolicyKind::generic(gk, declaration.class, ClassOrigin::Declared),
            };
            pk.crd_label = kinds.get(gk).and_then(|k| k.crd_label);
            if pk.entry.class != declaration.class {
                // Declared of the other class: that class's defaults for how its
                // policies combine, the registry's for everything else.
                let defaults = Entry::generic(declaration.class);
                pk.entry = Cow::Owned(Entry {
                    class: declaration.class,
                    merge: defaults.merge,
                    same_target: defaults.same_target,
                    ..*pk.entry
                });
            }
            kinds.insert(gk.clone(), pk);
        }
        for object in objects {
            let gk = object.group_kind();
            if kinds.contains_key(&gk) || !looks_like_policy(object) {
                continue;
            }
            // GEP-713: kinds that name one target kind and no strategy act as Direct;
            // without a CRD we cannot know, so the assumption is Inherited (the general
            // case) and is reported as assumed.
            let pk = PolicyKind::generic(&gk, Class::Inherited, ClassOrigin::Assumed);
            kinds.insert(gk, pk);
        }
        Catalog { kinds }
    }

    /// Every kind, and whether it attaches within its own namespace only (its project
    /// names the kinds it targets, and a GatewayClass is not among them) and names
    /// objects in other namespaces only where a ReferenceGrant lets it (a policy that
    /// may name a Service of any namespace, agentgateway's JWKS one, is read wherever
    /// that Service's answer is asked): what a live read is handed before it reads any
    /// CRD.
    pub fn kinds_for_reading(&self) -> Vec<(GroupKind, bool)> {
        self.kinds
            .iter()
            .map(|(gk, k)| {
                let k = &k.entry;
                let namespaced = !k.target_kinds.is_empty()
                    && !k.target_kinds.contains(&"GatewayClass")
                    && !k.namespaces.reaches_other_namespaces()
                    && !k
                        .references
                        .iter()
                        .any(|f| f.namespaces == RefNamespaces::Any);
                (gk.clone(), namespaced)
            })
            .collect()
    }

    /// The kinds whose `{kind: Pod, selector}` targetRefs entries pick Pods
    /// (`Targeting::pod_selector`): a live read lists Pods for their policies only.
    pub fn pod_picking_kinds(&self) -> Vec<GroupKind> {
        self.kinds
            .iter()
            .filter(|(_, k)| k.entry.targeting.pod_selector)
            .map(|(gk, _)| gk.clone())
            .collect()
    }

    /// Whether `gk` is a policy kind, and what the tool knows of it. To read a policy's
    /// own kind, `kind_of`.
    pub fn get(&self, gk: &GroupKind) -> Option<&PolicyKind> {
        self.kinds.get(gk)
    }

    /// The entry of policy kind `gk`. Every policy read has one (policies are read only
    /// for the kinds of the catalog they are attached with); a kind the catalog does not
    /// hold (one asked of a world whose input lost its last policy, blast radius' after)
    /// has no policies, and gets GEP-713's defaults for an Inherited kind, `UNKNOWN_KIND`.
    pub(crate) fn kind_of(&self, gk: &GroupKind) -> &PolicyKind {
        self.kinds.get(gk).unwrap_or(&UNKNOWN_KIND)
    }

    pub(crate) fn is_policy(&self, object: &Object) -> bool {
        self.kinds.contains_key(&object.group_kind())
    }
}

/// The entry `Catalog::kind_of` gives a kind it does not hold: the generic entry of an
/// Inherited kind assumed by its name, unnamed (no policy is of it).
pub(crate) static UNKNOWN_KIND: PolicyKind = PolicyKind {
    entry: Cow::Borrowed(&Entry::INHERITED),
    named: None,
    origin: ClassOrigin::Assumed,
    crd_label: None,
};

/// The name-based guess for input without CRDs: a kind ending in `Policy` whose spec
/// has a targeting field.
pub(crate) fn looks_like_policy(object: &Object) -> bool {
    object.kind.ends_with("Policy")
        && ["targetRef", "targetRefs", "targetSelectors"]
            .iter()
            .any(|f| object.spec.get(f).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_the_catalog_does_not_hold_gets_the_generic_inherited_entry() {
        let catalog = Catalog::build(&[], &[]);
        let nowhere = GroupKind::new("nowhere.example", "GhostPolicy");
        assert!(catalog.get(&nowhere).is_none());
        let unknown = catalog.kind_of(&nowhere);
        assert_eq!(*unknown.entry, *Entry::generic(Class::Inherited));
        assert_eq!(unknown.group_kind(), GroupKind::new("", ""));
        assert_eq!(unknown.origin, ClassOrigin::Assumed);
        assert_eq!(unknown.label(), None);
        // A kind it holds is its own entry.
        let held = GroupKind::new("gateway.networking.k8s.io", "BackendTLSPolicy");
        assert_eq!(catalog.kind_of(&held).group_kind(), held);
        assert_eq!(catalog.kind_of(&held).entry.class, Class::Direct);
    }

    #[test]
    fn a_kind_known_only_by_its_label_or_declared_gets_its_class_generic_static_entry() {
        let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: quotas.example.io\n  labels: {gateway.networking.k8s.io/policy: Direct}\nspec: {group: example.io, names: {kind: Quota, plural: quotas}}\n";
        let mut loaded = crate::source::files::Loaded::default();
        crate::source::files::load_text(crd, "crd.yaml", &mut loaded).unwrap();
        let declared = Declared {
            group_kind: GroupKind::new("example.io", "Throttle"),
            class: Class::Inherited,
        };
        let catalog = Catalog::build(&loaded.snapshot.objects, &[declared]);
        let quota = catalog.kind_of(&GroupKind::new("example.io", "Quota"));
        assert!(std::ptr::eq(&*quota.entry, Entry::generic(Class::Direct)));
        assert_eq!(quota.group_kind(), GroupKind::new("example.io", "Quota"));
        assert_eq!((quota.group(), quota.kind()), ("example.io", "Quota"));
        assert_eq!(quota.origin, ClassOrigin::Label);
        assert_eq!(quota.label(), Some(Class::Direct));
        let throttle = catalog.kind_of(&GroupKind::new("example.io", "Throttle"));
        assert!(std::ptr::eq(
            &*throttle.entry,
            Entry::generic(Class::Inherited)
        ));
        assert_eq!(throttle.kind(), "Throttle");
        assert_eq!(throttle.origin, ClassOrigin::Declared);
        assert_eq!(throttle.label(), None);
    }

    #[test]
    fn a_registry_kind_declared_of_the_other_class_keeps_its_rules_but_how_it_combines() {
        let gk = GroupKind::new("gateway.networking.k8s.io", "BackendTLSPolicy");
        let declared = Declared {
            group_kind: gk.clone(),
            class: Class::Inherited,
        };
        let catalog = Catalog::build(&[], &[declared]);
        let k = catalog.kind_of(&gk);
        let registry = registry::lookup(&gk).unwrap();
        assert_eq!(k.origin, ClassOrigin::Declared);
        assert_eq!(k.entry.class, Class::Inherited);
        assert_eq!(k.entry.merge, Entry::INHERITED.merge);
        assert_eq!(k.entry.same_target, Entry::INHERITED.same_target);
        assert_eq!(k.entry.target_kinds, registry.target_kinds);
        assert_eq!(k.entry.cite, registry.cite);
        assert_eq!(k.label(), Some(Class::Direct));
        assert_eq!(k.group_kind(), gk);
    }
}
