//! A policy kind's rules, one struct: `Entry`. The registry holds one per kind a real
//! project ships (`registry`, one file per project, each entry written with
//! struct-update syntax from its project's base); a kind found only through its CRD's
//! label, `--policy-kind` or its name gets the generic entry of its class
//! (`Entry::generic`). The catalog hands callers a `&'static` entry (`PolicyKind::entry`);
//! nothing copies it field by field.

use super::class::Class;
use super::merged::{ActsPerLevel, MergedParentFields, SectionByRefPort, ShadowedBy, WhenMerged};
use super::merging::{DefaultsOverrides, MergeModel, SameTarget};
use super::reach::{
    Flow, NamespaceRule, OtherTargetKinds, RefusedOn, Sections, SharedPort, Targeting,
};
use super::references::{Further, RefField, RefusedReferent};

/// Everything the tool knows of how one policy kind behaves, with the vendor source
/// each rule was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its group (`""` for the core group). Empty in a generic entry: the kind's group
    /// and name are then the catalog's (`PolicyKind::group_kind`).
    pub group: &'static str,
    pub kind: &'static str,
    /// The class as the project's controller behaves (not necessarily its label).
    pub class: Class,
    /// How far down an Inherited kind's settings flow, with the vendor source that
    /// says so where it is not every level.
    pub(crate) flow: Flow,
    /// Settings its vendor refuses on a target of a kind (target kind, spec fields),
    /// and whether that refuses the policy whole (its CRD) or that target (its
    /// controller).
    pub(crate) refused_on: &'static [RefusedOn],
    /// Whether one aimed at a listener may share its port with other listeners.
    pub(crate) shared_port: SharedPort,
    /// How it names its targets.
    pub(crate) targeting: Targeting,
    /// The kinds it may target (by kind name; the group is the usual one for the
    /// kind). Empty: not known.
    pub target_kinds: &'static [&'static str],
    /// Whether its vendor refuses a target of a kind not in `target_kinds` (the CRD's
    /// validation or the controller): then such a target is Invalid.
    pub(crate) other_target_kinds: OtherTargetKinds,
    /// The namespaces its policies may reach.
    pub(crate) namespaces: NamespaceRule,
    /// What part of a target its references may name.
    pub(crate) sections: Sections,
    /// How its policies combine from level to level.
    pub(crate) merge: MergeModel,
    /// How several policies of the kind on one target combine.
    pub same_target: SameTarget,
    /// Its `default`/`override` stanzas, GEP-713's or not.
    pub(crate) defaults_overrides: DefaultsOverrides,
    /// The label its shipped CRD carries, as written (e.g. Some("Direct"),
    /// Some("inherited"), Some("true")); None: no label, or not seen (closed source).
    pub label: Option<&'static str>,
    /// The project that ships it; one of `registry::PROJECTS`. Empty: not known.
    pub project: &'static str,
    /// The shape of its status: "ancestors", "conditions", "statuses map", "none",
    /// "unknown".
    pub(crate) status_shape: &'static str,
    /// What the project documents about how the kind merges, one sentence in our own
    /// words.
    pub(crate) note: &'static str,
    /// Where the project documents the rules above (a page a user can open).
    pub(crate) documented: &'static str,
    /// The vendor source the entry was read from: `owner/repo@commit path`, or the
    /// documentation set for closed-source projects.
    pub cite: &'static str,
    /// The objects its spec names besides its targets: each reference field, the kinds
    /// it may name, where they may be, and what the controller does when one does not
    /// resolve; with the vendor source each was read from.
    pub(crate) references: &'static [RefField],
    /// The objects its controller refuses any reference of its to name, whatever the
    /// field (`RefusedReferent`: an ExternalName Service, for Envoy Gateway).
    pub(crate) refused_referents: &'static [RefusedReferent],
    /// What the objects its references name must themselves have resolve for its
    /// controller to accept it (`Further`).
    pub(crate) further: &'static [Further],
    /// A target kind its controller refuses while the target's GatewayClass merges
    /// its Gateways into one proxy, and the one it takes instead.
    pub(crate) when_merged: Option<WhenMerged>,
    /// The parent's fields a route's `mergeType` policy of the kind is translated
    /// with (`MergedParentFields`).
    pub(crate) merged_parent_fields: Option<MergedParentFields>,
    /// The settings of its a policy of another kind replaces where both attach.
    pub(crate) shadowed_by: Option<ShadowedBy>,
    /// Its settings that act at every level, not only at the most specific one.
    pub(crate) acts_per_level: Option<ActsPerLevel>,
    /// The target kinds on which its controller matches a `sectionName` against the
    /// port of a route's backendRef (`SectionByRefPort`).
    pub(crate) sections_by_ref_port: &'static [SectionByRefPort],
    /// The short names its CRD declares (`kubectl get btp`), from `names.shortNames`.
    pub(crate) short_names: &'static [&'static str],
}

/// How a kind the registry does not know names its targets: any of GEP-713's fields.
const GENERIC_TARGETING: Targeting = Targeting {
    target_ref: true,
    target_refs: true,
    target_selectors: true,
    workload_selector: false,
    extension_ref: false,
    target_annotation: None,
    annotation_same_in_rule: false,
    pod_selector: false,
};

impl Entry {
    /// GEP-713's defaults for an Inherited kind, unnamed: what a kind the registry does
    /// not know gets, and where a project's base entry starts.
    pub(crate) const INHERITED: Entry = Entry {
        group: "",
        kind: "",
        class: Class::Inherited,
        flow: Flow::Down,
        refused_on: &[],
        shared_port: SharedPort::Allowed,
        targeting: GENERIC_TARGETING,
        target_kinds: &[],
        other_target_kinds: OtherTargetKinds::NotRefused,
        namespaces: NamespaceRule::AnyNamespace,
        sections: Sections::SectionName,
        merge: MergeModel::Gep713 { rule_paths: &[] },
        same_target: SameTarget::Stack,
        defaults_overrides: DefaultsOverrides::Gep713,
        label: None,
        project: "",
        status_shape: "",
        note: "",
        documented: "",
        cite: "",
        references: &[],
        refused_referents: &[],
        further: &[],
        when_merged: None,
        merged_parent_fields: None,
        shadowed_by: None,
        acts_per_level: None,
        sections_by_ref_port: &[],
        short_names: &[],
    };

    /// GEP-713's defaults for a Direct kind, unnamed: one policy per target, the
    /// oldest wins.
    pub(crate) const DIRECT: Entry = Entry {
        class: Class::Direct,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        ..Entry::INHERITED
    };

    /// The generic entry of `class`: a kind found only through its CRD's label,
    /// `--policy-kind` or its name.
    pub(crate) fn generic(class: Class) -> &'static Entry {
        match class {
            Class::Direct => &GENERIC_DIRECT,
            Class::Inherited => &GENERIC_INHERITED,
        }
    }
}

static GENERIC_DIRECT: Entry = Entry::DIRECT;
static GENERIC_INHERITED: Entry = Entry::INHERITED;
