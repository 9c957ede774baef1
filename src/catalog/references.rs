//! What a policy's spec names besides its targets: an ext-auth Service, a Secret of
//! credentials, a ConfigMap of CA certificates... As registry data (`RefField`, one per
//! reference field of a kind), and read from a policy's spec (`read_references`): the
//! references each field holds, with the JSON pointer to each. Whether they resolve is
//! the topology's to say (`topology::build::references`). Pure.

use crate::catalog::policy::WRAPPER_FIELDS;
use crate::model::{is_cluster_scoped, normalize_group, Map, ObjRef, Val};

/// One reference field of a policy kind, as its vendor's API and controller treat it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RefField {
    /// Where the field is, from the spec's top level, as a JSON pointer in which `*`
    /// stands for each entry of a list (`/extAuth/http/backendRefs/*`). The value
    /// there is a reference object (`{name, namespace, kind, group, port}`), or a
    /// string that is the name itself (Istio's `imagePullSecret: pull-creds`), which
    /// names the first of `kinds` in the policy's namespace.
    pub(crate) path: &'static str,
    /// The kinds it may name, (group, kind), core as `""`; the first is the one a
    /// reference means when it names no kind (its API type's default).
    pub(crate) kinds: &'static [(&'static str, &'static str)],
    /// Whether the kind a reference writes is the kind it names (`false`: its
    /// controller reads it as the first of `kinds` whatever it writes, as Envoy Gateway
    /// reads a Lua `valueRef` as a ConfigMap).
    pub(crate) kind_as_written: bool,
    /// How its controller reads the group a reference writes.
    pub(crate) groups: RefGroups,
    /// Where the object named may be.
    pub(crate) namespaces: RefNamespaces,
    /// Whether the object it names must be named with a `port`, one of the object's
    /// own `spec.ports` where it has that list (a Service's, a ServiceImport's; the
    /// model's backends, `Links::kept_for`, must have one). An object without a
    /// `ports` list (an Envoy Gateway Backend, whose endpoints carry their own ports)
    /// is not matched.
    pub(crate) port: bool,
    /// What the controller does when the reference does not resolve.
    pub(crate) unresolved: Unresolved,
    /// The vendor source the rule was read from (`owner/repo@commit path`).
    pub(crate) cite: &'static str,
}

impl RefField {
    /// A reference by name alone in the policy's own namespace (a
    /// `LocalObjectReference`, or a bare name): read as the first of `kinds` whatever
    /// kind it writes, with no port.
    pub(crate) const fn local(
        path: &'static str,
        kinds: &'static [(&'static str, &'static str)],
        unresolved: Unresolved,
        cite: &'static str,
    ) -> RefField {
        RefField {
            path,
            kinds,
            kind_as_written: false,
            groups: RefGroups::AsWritten,
            namespaces: RefNamespaces::Own,
            port: false,
            unresolved,
            cite,
        }
    }

    /// A reference object that names its kind (an omitted group: the core one), with
    /// no port, to an object of `namespaces`.
    pub(crate) const fn named(
        path: &'static str,
        kinds: &'static [(&'static str, &'static str)],
        namespaces: RefNamespaces,
        unresolved: Unresolved,
        cite: &'static str,
    ) -> RefField {
        RefField {
            path,
            kinds,
            kind_as_written: true,
            groups: RefGroups::AsWritten,
            namespaces,
            port: false,
            unresolved,
            cite,
        }
    }
}

/// How a controller reads the group a reference writes beside its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RefGroups {
    /// The group written is the object's group, an omitted one the core group: Gateway
    /// API's references, read by a controller that matches group and kind together.
    AsWritten,
    /// The group is optional whatever the kind: a kind written without one means that
    /// kind's entry in `kinds` (cert-manager's `ObjectReference`); one written is the
    /// object's group.
    OmittedMeansKinds,
    /// The controller matches the kind alone, once the group written (an omitted one
    /// is the core group, which is also what an API server stores for a Gateway API
    /// reference's defaulted `group: ""`) is one of `groups`: a reference whose group
    /// is one of them and whose kind is one of `kinds` names that entry of `kinds`,
    /// whatever group it wrote. A group outside `groups` names a kind the field may not
    /// name (`InvalidKind`). Envoy Gateway's backend references: it refuses a group
    /// other than the core one, `multicluster.x-k8s.io` and `gateway.envoyproxy.io`,
    /// then switches on the kind alone, so `{kind: Backend}` is its Backend. A
    /// ReferenceGrant into another namespace is asked for the group as written
    /// (`SpecRef::grant_group`).
    KindAlone {
        /// The groups it lets through, core as `""`.
        groups: &'static [&'static str],
    },
}

/// Where the object a reference names may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RefNamespaces {
    /// The policy's own namespace only (a `LocalObjectReference`, or a controller that
    /// refuses any other).
    Own,
    /// Another namespace too, where a ReferenceGrant there lets the policy's kind
    /// refer to it (`SecretObjectReference`, `BackendObjectReference`).
    WithGrant,
    /// Any namespace, a ReferenceGrant not required (kgateway's default
    /// `ReferenceGrantMode`; its strict mode asks for one): only whether it exists is
    /// judged.
    Any,
    /// By name alone, in whichever namespace (Consul's JWTProviders, kept by its
    /// controller under their name only): an object of that name in any namespace
    /// resolves it; missing only where the kind was listed everywhere (or the files
    /// hold objects of that kind).
    ByName,
}

/// What the controller does with a policy one of whose references does not resolve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unresolved {
    /// It refuses the whole policy (Accepted=False): Invalid.
    RefusesPolicy,
    /// It drops that entry and applies the rest: a warning.
    DropsEntry,
    /// Each entry is judged on its own (ResolvedRefs=False for a bad one, a warning);
    /// the policy is refused only when none of the field's entries resolves.
    RefusesWhenNoneResolves,
    /// It leaves out the setting that holds the reference and applies the policy's
    /// others (a warning); a policy left with no setting applies nothing and is
    /// refused. A setting is a child of one of the kind's rule paths
    /// (`MergeModel::rule_paths`), or a top-level field of a kind without any
    /// (`settings`).
    DropsSetting,
    /// It accepts the policy but leaves the objects the policy targets out of the
    /// data plane's configuration: the policy applies nowhere, and neither do they.
    /// Invalid, though the policy's own status may say Accepted.
    DropsTargets,
    /// It never reads the object: it uses the name as written (a mesh identity made
    /// from a ServiceAccount's name). One that does not exist is a warning (nothing
    /// matches it until it does); the verdict stands.
    NotRead,
    /// It accepts the policy (Accepted=True) but what carries the policy out cannot
    /// use the object, and its controller reports the policy not enforced
    /// (Enforced=False: Kuadrant's DNSPolicy, whose DNSRecords the DNS operator cannot
    /// publish without their provider Secret): the policy takes no effect. Invalid,
    /// though its status says Accepted.
    NotEnforced,
    /// Its vendor does not document what its controller does (a closed-source
    /// controller whose documentation names the field but not the outcome): a warning
    /// that says so, never Invalid.
    Undocumented,
}

/// Objects of a kind whose `spec.type` has one of `types`, which a project's controller
/// refuses wherever its policies' references name one (Envoy Gateway: an `ExternalName`
/// Service). Such a reference does not resolve (`UnsupportedType`) and its field's
/// `Unresolved` rule decides the verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RefusedReferent {
    /// The kind, (group, kind), core as `""`.
    pub(crate) kind: (&'static str, &'static str),
    /// The values of its `spec.type` refused.
    pub(crate) types: &'static [&'static str],
    /// The vendor source the rule was read from.
    pub(crate) cite: &'static str,
}

/// A vendor rule one step further than a reference: what the object a policy's
/// reference names must itself have resolve for the controller to accept the policy.
/// Judged only where the reference resolves; one the input cannot check leaves the
/// verdict standing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Further {
    /// The referent's own spec names objects (kgateway: a GatewayExtension's backend
    /// Service), read with `fields` as a policy's are, from the referent's namespace,
    /// a ReferenceGrant asked of the referent's kind. One of them that does not
    /// resolve fails the referent, and every policy naming it with it.
    ItsReferences {
        /// The referent kind, (group, kind), core as `""`.
        referent: (&'static str, &'static str),
        fields: &'static [RefField],
        cite: &'static str,
    },
    /// The policy of kind `policy` aimed at the referent (Envoy Gateway: a
    /// BackendTLSPolicy on an ext-auth or ext-proc Service, matched as the controller
    /// matches it: the whole object, or the section of the port the reference names),
    /// the oldest where several are: one of its references naming an object that does
    /// not exist, or none of them resolving, fails the policy naming the referent.
    PolicyOnIt {
        policy: (&'static str, &'static str),
        /// The referent kinds it is looked for on.
        referents: &'static [(&'static str, &'static str)],
        cite: &'static str,
    },
}

impl Further {
    /// Whether the rule is about a referent of (`group`, `kind`).
    pub(crate) fn covers(&self, group: &str, kind: &str) -> bool {
        let is = |(g, k): &(&str, &str)| normalize_group(g) == group && *k == kind;
        match self {
            Further::ItsReferences { referent, .. } => is(referent),
            Further::PolicyOnIt { referents, .. } => referents.iter().any(is),
        }
    }
}

/// Whether `rules` refuse an object of (`group`, `kind`) whose `spec.type` is `spec_type`.
pub(crate) fn referent_refused(
    rules: &[RefusedReferent],
    group: &str,
    kind: &str,
    spec_type: Option<&str>,
) -> bool {
    let Some(spec_type) = spec_type else {
        return false;
    };
    rules.iter().any(|r| {
        normalize_group(r.kind.0) == group && r.kind.1 == kind && r.types.contains(&spec_type)
    })
}

/// One reference a policy's spec holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SpecRef {
    /// The JSON pointer to it from the object's top (`/spec/extAuth/http/backendRef`).
    pub(crate) pointer: String,
    /// The object it names, the namespace resolved (the policy's when it names none);
    /// `section` is the port it names, if any.
    pub(crate) target: ObjRef,
    /// The port it names.
    pub(crate) port: Option<u64>,
    /// Index of its field among the kind's `RefField`s.
    pub(crate) field: usize,
    /// The group a ReferenceGrant must name to let the policy refer to it in another
    /// namespace: the group it writes (an omitted one the core group) where its
    /// controller matches the kind alone (`RefGroups::KindAlone`), else the object's.
    pub(crate) grant_group: String,
}

/// The references `spec` holds in the kind's reference `fields`, in field order, each
/// with its JSON pointer; the namespace a reference names none of is `namespace`'s.
/// An entry with no name is left out (the CRD requires one; it names nothing).
pub(crate) fn read_references(
    spec: &Map,
    fields: &[RefField],
    namespace: Option<&str>,
) -> Vec<SpecRef> {
    let mut out = Vec::new();
    for (index, field) in fields.iter().enumerate() {
        let mut parts = field.path.trim_start_matches('/').split('/');
        let Some(first) = parts.next() else {
            continue;
        };
        let Some(value) = spec.get(first) else {
            continue;
        };
        let rest: Vec<&str> = parts.collect();
        let mut found = Vec::new();
        walk(value, &rest, format!("/spec/{first}"), &mut found);
        for (pointer, entry) in found {
            let Some(spec_ref) = read_one(entry, field, index, pointer, namespace) else {
                continue;
            };
            if !claimed_elsewhere(fields, field, entry) {
                out.push(spec_ref);
            }
        }
    }
    out
}

/// Whether the entry naming `target` at `field`'s path is another field's: one list
/// whose entries of different kinds their controller treats differently is one
/// `RefField` per rule, at the same path. An entry is the field's that lists its
/// kind (as that field reads the kind and group written); one naming no kind, or a
/// kind no field lists, is the first field's at that path.
fn claimed_elsewhere(fields: &[RefField], field: &RefField, entry: &Val) -> bool {
    let same_path = || fields.iter().filter(|f| f.path == field.path);
    let not_first = || {
        same_path()
            .next()
            .is_some_and(|first| !std::ptr::eq(first, field))
    };
    // An entry naming no kind names the list's default kind: the first field's.
    if entry.get("kind").and_then(Val::as_str).is_none() {
        return not_first();
    }
    let lists = |f: &RefField| {
        let (group, kind) = group_kind(entry, f);
        kind_allowed(f, group, kind)
    };
    if lists(field) {
        return false;
    }
    same_path().any(lists) || not_first()
}

/// The settings of `spec` (JSON pointers from the object's top, `/spec/...`) that a
/// `DropsSetting` reference may take away: the children of each of `rule_paths`, or,
/// when there are none, the top-level fields other than those saying where the
/// policy attaches or how it merges.
pub(crate) fn settings(spec: &Map, rule_paths: &[&str]) -> Vec<String> {
    if rule_paths.is_empty() {
        return spec
            .iter()
            .filter(|(key, value)| !value.is_null() && !WRAPPER_FIELDS.contains(&key.as_str()))
            .map(|(key, _)| format!("/spec/{key}"))
            .collect();
    }
    let mut out = Vec::new();
    for path in rule_paths {
        let mut at: Option<&Val> = None;
        for (i, step) in path.trim_start_matches('/').split('/').enumerate() {
            at = match i {
                0 => spec.get(step),
                _ => at.and_then(|v| v.get(step)),
            };
        }
        let Some(children) = at.and_then(Val::as_object) else {
            continue;
        };
        for (key, _) in children.iter().filter(|(_, v)| !v.is_null()) {
            out.push(format!("/spec{path}/{key}"));
        }
    }
    out
}

/// The setting of `settings` the reference at `pointer` is in.
pub(crate) fn setting_of<'s>(settings: &'s [String], pointer: &str) -> Option<&'s str> {
    settings
        .iter()
        .find(|s| {
            pointer
                .strip_prefix(s.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
        .map(String::as_str)
}

/// Whether a setting of `settings` is left once the references at `taken` (their JSON
/// pointers) take away the settings they are in (`Unresolved::DropsSetting`).
pub(crate) fn setting_left<'p>(
    settings: &[String],
    taken: impl IntoIterator<Item = &'p str>,
) -> bool {
    let gone: Vec<Option<&str>> = taken.into_iter().map(|p| setting_of(settings, p)).collect();
    settings.iter().any(|s| !gone.contains(&Some(s.as_str())))
}

/// The values at `path` below `value` (`*`: each entry of a list), with their pointers.
fn walk<'v>(value: &'v Val, path: &[&str], at: String, out: &mut Vec<(String, &'v Val)>) {
    let Some((step, rest)) = path.split_first() else {
        if !value.is_null() {
            out.push((at, value));
        }
        return;
    };
    if *step == "*" {
        for (i, entry) in value.as_array().unwrap_or_default().iter().enumerate() {
            walk(entry, rest, format!("{at}/{i}"), out);
        }
    } else if let Some(next) = value.get(step) {
        walk(next, rest, format!("{at}/{step}"), out);
    }
}

fn read_one(
    entry: &Val,
    field: &RefField,
    index: usize,
    pointer: String,
    namespace: Option<&str>,
) -> Option<SpecRef> {
    let (default_group, default_kind) = field.kinds.first().copied().unwrap_or(("", ""));
    // A bare string is the name itself: the field's first kind, the policy's namespace.
    if let Some(name) = entry.as_str() {
        let ns = namespace.filter(|_| !is_cluster_scoped(default_kind));
        return (!name.is_empty()).then(|| SpecRef {
            pointer,
            target: ObjRef::new(default_group, default_kind, ns, name),
            port: None,
            field: index,
            grant_group: default_group.to_string(),
        });
    }
    let name = entry
        .get("name")
        .and_then(Val::as_str)
        .filter(|n| !n.is_empty())?;
    let (group, kind) = group_kind(entry, field);
    let ns = match is_cluster_scoped(kind) {
        true => None,
        false => entry.get("namespace").and_then(Val::as_str).or(namespace),
    };
    let port = entry.get("port").and_then(Val::as_u64);
    let section = port.map(|p| p.to_string());
    let target = ObjRef::new(group, kind, ns, name).with_section(section.as_deref());
    // Envoy Gateway asks a ReferenceGrant for the group as written
    // (`crossNamespaceTo{group: GroupDerefOr(backendRef.Group, "")}`).
    let grant_group = match field.groups {
        RefGroups::KindAlone { .. } => {
            normalize_group(entry.get("group").and_then(Val::as_str).unwrap_or(""))
        }
        RefGroups::AsWritten | RefGroups::OmittedMeansKinds => group,
    };
    Some(SpecRef {
        pointer,
        target,
        port,
        field: index,
        grant_group: grant_group.to_string(),
    })
}

/// The (group, kind) a reference object `entry` names through `field`, as its
/// controller reads them (`kind_as_written`, `groups`).
fn group_kind<'e>(entry: &'e Val, field: &RefField) -> (&'e str, &'e str) {
    let (default_group, default_kind) = field.kinds.first().copied().unwrap_or(("", ""));
    let kind = entry.get("kind").and_then(Val::as_str);
    let group = entry.get("group").and_then(Val::as_str);
    // A group written without a kind keeps the default kind's group only when it is
    // that group: the API types default both.
    match (group, kind) {
        _ if !field.kind_as_written => (default_group, default_kind),
        (g, k) if matches!(field.groups, RefGroups::KindAlone { .. }) => {
            kind_alone(field, g, k.unwrap_or(default_kind))
        }
        (None, Some(k)) if field.groups == RefGroups::OmittedMeansKinds => {
            let group = field.kinds.iter().find(|&&(_, named)| named == k);
            (group.map_or("", |&(g, _)| g), k)
        }
        (g, Some(k)) => (normalize_group(g.unwrap_or("")), k),
        (Some(g), None) => (normalize_group(g), default_kind),
        (None, None) => (default_group, default_kind),
    }
}

/// What a reference writing `group` (if any) and `kind` names through a field whose
/// controller matches the kind alone (`RefGroups::KindAlone`): the entry of its kinds
/// with that kind where the group is one it lets through, else the group as written.
fn kind_alone<'k>(field: &RefField, group: Option<&'k str>, kind: &'k str) -> (&'k str, &'k str) {
    let written = normalize_group(group.unwrap_or(""));
    let RefGroups::KindAlone { groups } = field.groups else {
        return (written, kind);
    };
    let let_through = groups.iter().any(|g| normalize_group(g) == written);
    match field.kinds.iter().find(|&&(_, k)| k == kind) {
        Some(&(own, _)) if let_through => (own, kind),
        _ => (written, kind),
    }
}

/// Whether `field` may name an object of (`group`, `kind`).
pub(crate) fn kind_allowed(field: &RefField, group: &str, kind: &str) -> bool {
    field
        .kinds
        .iter()
        .any(|&(g, k)| normalize_group(g) == group && k == kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIELDS: &[RefField] = &[
        RefField {
            path: "/extAuth/http/backendRefs/*",
            kinds: &[("", "Service")],
            kind_as_written: true,
            groups: RefGroups::AsWritten,
            namespaces: RefNamespaces::WithGrant,
            port: true,
            unresolved: Unresolved::RefusesPolicy,
            cite: "",
        },
        RefField {
            path: "/validation/caCertificateRefs/*",
            kinds: &[("", "ConfigMap")],
            kind_as_written: true,
            groups: RefGroups::AsWritten,
            namespaces: RefNamespaces::Own,
            port: false,
            unresolved: Unresolved::RefusesWhenNoneResolves,
            cite: "",
        },
    ];

    fn spec(yaml: &str) -> Map {
        let value: Val = serde_saphyr::from_str(yaml).unwrap();
        value.as_object().unwrap().clone()
    }

    #[test]
    fn each_list_entry_is_read_with_its_pointer_and_defaults() {
        let spec = spec(
            "extAuth: {http: {backendRefs: [{name: auth, port: 8080}, {name: other, namespace: b, kind: Backend, group: gateway.envoyproxy.io}]}}\nvalidation: {caCertificateRefs: [{group: '', kind: ConfigMap, name: ca}, {kind: ConfigMap}]}",
        );
        let refs = read_references(&spec, FIELDS, Some("a"));
        let got: Vec<(String, String, Option<u64>, usize)> = refs
            .iter()
            .map(|r| (r.pointer.clone(), r.target.to_string(), r.port, r.field))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "/spec/extAuth/http/backendRefs/0".into(),
                    ObjRef::new("", "Service", Some("a"), "auth")
                        .with_section(Some("8080"))
                        .to_string(),
                    Some(8080),
                    0
                ),
                (
                    "/spec/extAuth/http/backendRefs/1".into(),
                    ObjRef::new("gateway.envoyproxy.io", "Backend", Some("b"), "other").to_string(),
                    None,
                    0
                ),
                (
                    "/spec/validation/caCertificateRefs/0".into(),
                    ObjRef::new("", "ConfigMap", Some("a"), "ca").to_string(),
                    None,
                    1
                ),
            ]
        );
    }
    #[test]
    fn settings_are_the_children_of_the_rule_paths_or_the_top_level_fields() {
        let spec = spec(
            "targetRefs: [{name: gw}]\nfrontend: {tracing: {backendRef: {name: otel}}}\nbackend: {auth: {secretRef: {name: s}}, http: {version: HTTP2}, tcp: null}",
        );
        let got = settings(&spec, &["/frontend", "/traffic", "/backend"]);
        assert_eq!(
            got,
            [
                "/spec/frontend/tracing",
                "/spec/backend/auth",
                "/spec/backend/http"
            ]
        );
        assert_eq!(
            setting_of(&got, "/spec/backend/auth/secretRef"),
            Some("/spec/backend/auth")
        );
        assert_eq!(setting_of(&got, "/spec/backend/authz"), None);
        assert_eq!(
            settings(&spec, &[]),
            ["/spec/frontend", "/spec/backend"],
            "a kind without rule paths: its top-level fields, its targeting left out"
        );
    }

    #[test]
    fn a_string_at_the_path_is_the_name_itself_in_the_policys_namespace() {
        let fields = [RefField {
            path: "/tls/secrets/*",
            kinds: &[("", "Secret")],
            kind_as_written: false,
            groups: RefGroups::AsWritten,
            namespaces: RefNamespaces::Own,
            port: false,
            unresolved: Unresolved::RefusesPolicy,
            cite: "",
        }];
        let spec = spec("tls: {secrets: [creds, '', {name: other}]}");
        let got: Vec<(String, String)> = read_references(&spec, &fields, Some("n"))
            .into_iter()
            .map(|r| (r.pointer, r.target.to_string()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "/spec/tls/secrets/0".to_string(),
                    ObjRef::new("", "Secret", Some("n"), "creds").to_string()
                ),
                (
                    "/spec/tls/secrets/2".to_string(),
                    ObjRef::new("", "Secret", Some("n"), "other").to_string()
                ),
            ]
        );
    }

    #[test]
    fn entries_of_one_list_go_to_the_field_that_lists_their_kind() {
        let field = |kinds| RefField {
            path: "/refs/*",
            kinds,
            kind_as_written: true,
            groups: RefGroups::AsWritten,
            namespaces: RefNamespaces::Any,
            port: false,
            unresolved: Unresolved::RefusesPolicy,
            cite: "",
        };
        let fields = [field(&[("a.io", "Auth")]), field(&[("", "ServiceAccount")])];
        let spec = spec(
            "refs: [{group: a.io, kind: Auth, name: x}, {kind: ServiceAccount, name: sa}, {kind: Pod, name: z}]",
        );
        let got: Vec<(String, usize)> = read_references(&spec, &fields, Some("n"))
            .into_iter()
            .map(|r| (r.pointer, r.field))
            .collect();
        // The Pod, a kind neither lists, is the first field's (and refused there).
        assert_eq!(
            got,
            [
                ("/spec/refs/0".to_string(), 0),
                ("/spec/refs/2".to_string(), 0),
                ("/spec/refs/1".to_string(), 1),
            ]
        );
    }

    #[test]
    fn a_kind_read_alone_takes_its_entrys_group_where_the_group_is_let_through() {
        let field = RefField {
            path: "/refs/*",
            kinds: &[("", "Service"), ("b.io", "Backend")],
            kind_as_written: true,
            groups: RefGroups::KindAlone {
                groups: &["", "b.io", "m.io"],
            },
            namespaces: RefNamespaces::Own,
            port: false,
            unresolved: Unresolved::RefusesPolicy,
            cite: "",
        };
        let spec = spec(
            "refs: [{kind: Backend, name: a}, {group: m.io, kind: Backend, name: b}, {group: x.io, kind: Backend, name: c}, {name: d}, {group: core, kind: Service, name: e}]",
        );
        let got: Vec<(String, String)> = read_references(&spec, &[field], Some("n"))
            .into_iter()
            .map(|r| (r.target.group.to_string(), r.target.kind.to_string()))
            .collect();
        let want = [
            ("b.io", "Backend"),
            ("b.io", "Backend"),
            ("x.io", "Backend"),
            ("", "Service"),
            ("", "Service"),
        ];
        assert_eq!(
            got,
            want.map(|(g, k)| (g.to_string(), k.to_string())),
            "a group it does not let through stays as written, and is then no kind it lists"
        );
    }
}
