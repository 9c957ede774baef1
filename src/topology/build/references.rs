//! What a policy's spec names besides its targets (`catalog::references`), resolved
//! as a route's backendRefs are: the object exists, the port it names is one of its
//! ports, a ReferenceGrant lets the policy's kind refer into another namespace. One
//! that does not resolve decides the verdict as its vendor's rule says (`Unresolved`):
//! the policy refused whole or left applying nowhere (Invalid), or a warning for the
//! entry or setting dropped, the name not read, or an outcome its vendor does not
//! document. Judged missing only where the source listed the kind
//! (`Snapshot::listed`); elsewhere unchecked, a blind spot, and the verdict stands.

use super::Builder;
use crate::catalog::policy::{FieldError, FieldProblem};
use crate::catalog::references::{
    kind_allowed, read_references, referent_refused, setting_left, settings, SpecRef,
};
use crate::catalog::{RefField, RefNamespaces, RefusedReferent, Unresolved};
use crate::model::{listed_or_files, BlindReason, BlindSpot, FastSet, Links, ListField, ObjRef};
use crate::topology::{Code, Finding, PolicyId, PolicyReference, RefKey, RefReason};
use std::collections::BTreeMap;

/// (group, kind, namespace or `None` for all, file or `None` for any) listed.
pub(super) type ListedSet = FastSet<(String, String, Option<String>, Option<String>)>;

impl<'s> Builder<'s> {
    /// Resolves every policy's references, records them (`Topology::references`),
    /// refuses the policies their vendor refuses for one that does not resolve, and
    /// returns the blind spots of those it could not check.
    pub(super) fn resolve_references(&mut self) -> Vec<BlindSpot> {
        let count = self.topology.policies.len();
        let mut listed: Option<ListedSet> = None;
        let mut unchecked: BTreeMap<(String, String, Option<String>), (usize, String)> =
            BTreeMap::new();
        for pid in PolicyId::all(count) {
            let policy = &self.topology.policies[pid];
            let kind = self.topology.kind_of(pid);
            let fields = kind.entry.references;
            if fields.is_empty() {
                continue;
            }
            let rule_paths = kind.entry.merge.rule_paths();
            let object = &self.objects[policy.object];
            let ns = policy.obj_ref.namespace.as_deref();
            let (refs, settings) = object.spec.with(|spec| {
                spec.as_object()
                    .map(|m| (read_references(m, fields, ns), settings(m, rule_paths)))
                    .unwrap_or_default()
            });
            if refs.is_empty() {
                continue;
            }
            let listed = listed.get_or_insert_with(|| self.listed_set());
            let referrer = self.referrer_of(pid);
            let resolved: Vec<PolicyReference> = refs
                .iter()
                .map(|r| match fields[r.field].namespaces {
                    RefNamespaces::ByName => self.resolve_by_name(pid, r, listed),
                    _ => self.resolve_one(&referrer, r, &fields[r.field], listed),
                })
                .collect();
            for (r, got) in refs.iter().zip(&resolved) {
                if got.reason == Some(RefReason::Unchecked) {
                    let t = &r.target;
                    let key = (
                        t.group.to_string(),
                        t.kind.to_string(),
                        t.namespace.as_ref().map(|n| n.to_string()),
                    );
                    let entry = unchecked.entry(key).or_insert((0, String::new()));
                    if entry.0 == 0 {
                        entry.1 =
                            format!("{} of {}", r.pointer, self.topology.policies[pid].obj_ref);
                    }
                    entry.0 += 1;
                }
            }
            let both = Resolved {
                refs: &refs,
                got: &resolved,
            };
            self.judge(pid, fields, both, &settings);
            if self.topology.references.len() < count {
                self.topology.references.resize(count, Vec::new());
            }
            self.topology.references[pid.index()] = resolved;
        }
        if let Some(listed) = &listed {
            let on = self.policies_on_referents();
            for pid in PolicyId::all(count) {
                self.judge_further(pid, listed, &on);
            }
        }
        unchecked.into_iter().map(unchecked_spot).collect()
    }

    /// Who refers, for policy `pid`: the policy itself.
    fn referrer_of(&self, pid: PolicyId) -> Referrer<'_> {
        let policy = &self.topology.policies[pid];
        Referrer {
            obj: &policy.obj_ref,
            file: &self.objects[policy.object].origin.file,
            refused: self.topology.kind_of(pid).entry.refused_referents,
        }
    }

    /// The kinds the source listed, and where.
    fn listed_set(&self) -> ListedSet {
        listed_or_files(self.listed.as_ref(), self.objects)
            .iter()
            .map(|l| {
                (
                    l.group.clone(),
                    l.kind.clone(),
                    l.namespace.clone(),
                    l.file.clone(),
                )
            })
            .collect()
    }

    /// How reference `r` of `referrer` resolves.
    pub(super) fn resolve_one(
        &self,
        referrer: &Referrer<'_>,
        r: &SpecRef,
        field: &RefField,
        listed: &ListedSet,
    ) -> PolicyReference {
        let policy = referrer.obj;
        let t = &r.target;
        let outcome = |reason: Option<RefReason>| PolicyReference {
            path: r.pointer.clone(),
            target: t.clone(),
            resolved: reason.is_none(),
            reason,
            field: r.field,
        };
        if !kind_allowed(field, &t.group, &t.kind) {
            return outcome(Some(RefReason::InvalidKind));
        }
        let ns = t.namespace.as_deref();
        if ns.is_some() && ns != policy.namespace.as_deref() {
            let key = RefKey::new(&r.grant_group, &t.kind, ns, &t.name);
            let granted = match field.namespaces {
                RefNamespaces::Any => true,
                RefNamespaces::Own | RefNamespaces::ByName => false,
                RefNamespaces::WithGrant => self.reference_granted(policy, key),
            };
            if !granted {
                return outcome(Some(RefReason::RefNotPermitted));
            }
        }
        let file = referrer.file;
        let was_listed = [None, ns].into_iter().any(|ns| {
            [None, Some(file)].into_iter().any(|file| {
                let key = (
                    t.group.to_string(),
                    t.kind.to_string(),
                    ns.map(str::to_string),
                    file.map(str::to_string),
                );
                listed.contains(&key)
            })
        });
        if !was_listed {
            return outcome(Some(RefReason::Unchecked));
        }
        let found = self
            .by_kind()
            .get(&(t.group.as_str(), t.kind.as_str(), ns))
            .and_then(|ids| ids.iter().find(|&&id| self.objects[id].name == t.name));
        let Some(&id) = found else {
            return outcome(Some(RefReason::NotFound));
        };
        let links = self.objects[id].links();
        if referent_refused(
            referrer.refused,
            &t.group,
            &t.kind,
            links.spec_type.as_deref(),
        ) {
            return outcome(Some(RefReason::UnsupportedType));
        }
        // The port must be named, and be one of the object's `spec.ports` ("A valid
        // port number corresponding to a port on the Service must be specified"),
        // where it has that list; a modelled backend (Service, ServiceImport) always
        // does, none written meaning none.
        let has_ports = match links.ports {
            ListField::Absent => Links::kept_for(&t.group, &t.kind),
            ListField::NotAList | ListField::Items(_) => true,
        };
        if field.port && has_ports {
            let ports = &links.port_numbers;
            if !r
                .port
                .is_some_and(|port| ports.iter().any(|(_, n)| *n == port))
            {
                return outcome(Some(RefReason::PortNotFound));
            }
        }
        outcome(None)
    }

    /// How reference `r` of policy `pid` resolves when its field names an object by
    /// name alone (`RefNamespaces::ByName`): to an object of that kind and name in any
    /// namespace read; missing only where the kind was listed in every namespace (a
    /// live read's cluster-wide list) or the policy's file holds objects of that kind.
    fn resolve_by_name(&self, pid: PolicyId, r: &SpecRef, listed: &ListedSet) -> PolicyReference {
        let t = &r.target;
        let found = self
            .by_kind()
            .iter()
            .filter(|((group, kind, _), _)| *group == t.group && *kind == t.kind)
            .flat_map(|(_, ids)| ids)
            .map(|&id| &self.objects[id])
            .filter(|o| o.name == t.name)
            .min_by(|a, b| a.namespace.cmp(&b.namespace));
        let file = &*self.objects[self.topology.policies[pid].object].origin.file;
        let reason = match found {
            Some(_) => None,
            None => {
                let everywhere = listed.iter().any(|(group, kind, ns, listed_file)| {
                    *group == t.group
                        && *kind == t.kind
                        && (ns.is_none() || listed_file.as_deref() == Some(file))
                });
                Some(match everywhere {
                    true => RefReason::NotFound,
                    false => RefReason::Unchecked,
                })
            }
        };
        PolicyReference {
            path: r.pointer.clone(),
            target: found.map_or_else(|| t.clone(), |o| o.obj_ref()),
            resolved: reason.is_none(),
            reason,
            field: r.field,
        }
    }

    /// The verdict its references give policy `pid`, as each field's rule says;
    /// `settings` are the policy's settings (`catalog::references::settings`).
    fn judge(
        &mut self,
        pid: PolicyId,
        fields: &[RefField],
        resolved: Resolved<'_>,
        settings: &[String],
    ) {
        let Resolved { refs, got } = resolved;
        let failed = |r: &PolicyReference| !matches!(r.reason, None | Some(RefReason::Unchecked));
        let mut refused: Option<(String, &str)> = None;
        let refuses = "its controller refuses the policy";
        let mut settings_dropped: Vec<&PolicyReference> = Vec::new();
        for (index, field) in fields.iter().enumerate() {
            let of_field: Vec<&PolicyReference> = refs
                .iter()
                .zip(got)
                .filter(|(r, _)| r.field == index)
                .map(|(_, g)| g)
                .collect();
            let bad: Vec<&PolicyReference> =
                of_field.iter().copied().filter(|r| failed(r)).collect();
            let Some(first) = bad.first() else {
                continue;
            };
            match field.unresolved {
                Unresolved::RefusesPolicy => {
                    refused.get_or_insert_with(|| (first.describe(), refuses));
                }
                Unresolved::DropsEntry => {
                    self.warn_dropped(pid, &bad, "its controller drops that entry")
                }
                Unresolved::RefusesWhenNoneResolves if bad.len() == of_field.len() => {
                    let all: Vec<String> = bad.iter().map(|r| r.describe()).collect();
                    refused.get_or_insert_with(|| {
                        let why = format!("{} (none of its entries resolves)", all.join("; "));
                        (why, refuses)
                    });
                }
                Unresolved::RefusesWhenNoneResolves => self.warn_dropped(
                    pid,
                    &bad,
                    "that entry does not resolve (ResolvedRefs=False); its others do",
                ),
                Unresolved::DropsSetting => settings_dropped.extend(bad),
                Unresolved::DropsTargets => {
                    refused.get_or_insert_with(|| {
                        let why = "its controller accepts the policy but leaves the objects it targets out of the data plane's configuration";
                        (first.describe(), why)
                    });
                }
                Unresolved::NotEnforced => {
                    refused.get_or_insert_with(|| {
                        let why = "its controller accepts the policy but reports it not enforced (Enforced=False): it takes no effect";
                        (first.describe(), why)
                    });
                }
                Unresolved::NotRead => self.warn_dropped(
                    pid,
                    &bad,
                    "its controller uses the name without reading the object: nothing matches it until it exists",
                ),
                Unresolved::Undocumented => self.warn_dropped(
                    pid,
                    &bad,
                    "its vendor does not document what its controller does with a reference that does not resolve",
                ),
            }
        }
        if let Some(why) = self.drop_settings(pid, settings, &settings_dropped) {
            refused.get_or_insert(why);
        }
        if let Some((why, outcome)) = refused {
            self.refuse_for_reference(pid, format!("{why}; {outcome}"));
        }
    }

    /// Refuses policy `pid` (Invalid) for `why`, a reference its controller cannot
    /// use, unless it is refused already.
    pub(super) fn refuse_for_reference(&mut self, pid: PolicyId, why: String) {
        let policy = &mut self.topology.policies[pid];
        if policy.rejected.is_some() {
            return;
        }
        self.topology.findings.push(Finding::new(
            Code::Invalid,
            policy.obj_ref.clone(),
            why.clone(),
        ));
        policy
            .invalid
            .push(FieldError::new("spec", FieldProblem::Refused(why.clone())));
        policy.rejected = Some(why);
    }

    /// The settings of policy `pid` that its `DropsSetting` references `bad` take
    /// away: a warning for each while another setting is left, else the refusal.
    fn drop_settings(
        &mut self,
        pid: PolicyId,
        settings: &[String],
        bad: &[&PolicyReference],
    ) -> Option<(String, &'static str)> {
        let first = bad.first()?;
        if setting_left(settings, bad.iter().map(|r| r.path.as_str())) {
            let what = "its controller leaves that setting out and applies the policy's others";
            self.warn_dropped(pid, bad, what);
            return None;
        }
        let why = "its controller leaves that setting out, and the policy sets nothing else";
        Some((first.describe(), why))
    }

    fn warn_dropped(&mut self, pid: PolicyId, bad: &[&PolicyReference], what: &str) {
        let policy = &self.topology.policies[pid].obj_ref;
        for r in bad {
            self.topology.findings.push(Finding::new(
                Code::UnresolvedReference,
                policy.clone(),
                format!("{}: {what}", r.describe()),
            ));
        }
    }
}

/// A policy's references as read (`refs`) and as they resolve (`got`), index for
/// index.
#[derive(Clone, Copy)]
struct Resolved<'a> {
    refs: &'a [SpecRef],
    got: &'a [PolicyReference],
}

/// The object a reference is made from: its name (the namespace a ReferenceGrant must
/// allow it from), the file it was read from (what that file lists), and the objects
/// its controller refuses to be named.
pub(super) struct Referrer<'a> {
    pub(super) obj: &'a ObjRef,
    pub(super) file: &'a str,
    pub(super) refused: &'static [RefusedReferent],
}

/// The blind spot of the references to (group, kind, namespace) that could not be
/// checked: how many, and the first.
fn unchecked_spot(
    ((group, kind, namespace), (count, first)): ((String, String, Option<String>), (usize, String)),
) -> BlindSpot {
    let place = namespace
        .as_deref()
        .map_or_else(String::new, |ns| format!(" in namespace {ns}"));
    let what = ObjRef::new(&group, &kind, None, "x").to_string();
    let plural = what.trim_end_matches("/x");
    let refs = if count == 1 {
        "reference"
    } else {
        "references"
    };
    BlindSpot {
        group,
        kind,
        namespace,
        reason: BlindReason::Unchecked,
        message: format!(
            "cannot check {count} {refs} to {plural}{place} (first: {first}): the input does not say which exist there; the verdicts stand"
        ),
        file: None,
        document: None,
    }
}
