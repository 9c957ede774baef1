//! References one step further (`catalog::Further`): what the object a policy's
//! reference names must itself have resolve for the policy's controller to accept it.
//! kgateway fails a TrafficPolicy whose GatewayExtension cannot reach its own backend;
//! Envoy Gateway fails a policy whose ext-auth or ext-proc Service has a
//! BackendTLSPolicy whose CA certificates are not there. Judged only where the
//! policy's reference resolves and what lies beyond it could be checked.

use super::references::{ListedSet, Referrer};
use super::Builder;
use crate::catalog::policy::TargetSpec;
use crate::catalog::references::read_references;
use crate::catalog::{Further, RefField, Unresolved};
use crate::model::{FastMap, ObjRef};
use crate::topology::{PolicyId, PolicyReference, RefReason};

/// The policies of the kinds a `Further::PolicyOnIt` rule looks for, by the object
/// they target (group, kind, namespace, name), each with the section it names.
pub(super) type OnReferents =
    FastMap<(String, String, String, String), Vec<(PolicyId, Option<String>)>>;

impl Builder<'_> {
    /// The policies a `PolicyOnIt` rule of some policy kind in the input looks for,
    /// indexed by what they target.
    pub(super) fn policies_on_referents(&self) -> OnReferents {
        let catalog = &self.topology.catalog;
        let mut wanted: Vec<(&str, &str)> = Vec::new();
        for policy in &self.topology.policies {
            let rules = catalog.kind_of(&policy.kind).entry.further;
            for rule in rules {
                if let Further::PolicyOnIt { policy, .. } = rule {
                    if !wanted.contains(policy) {
                        wanted.push(*policy);
                    }
                }
            }
        }
        let mut out = OnReferents::default();
        if wanted.is_empty() {
            return out;
        }
        for (pid, policy) in PolicyId::all(usize::MAX).zip(&self.topology.policies) {
            let gk = &policy.kind;
            if !wanted.iter().any(|(g, k)| *g == gk.group && *k == gk.kind) {
                continue;
            }
            for target in &policy.targets {
                let TargetSpec::Ref(t) = target else {
                    continue;
                };
                let key = (
                    t.group.to_string(),
                    t.kind.to_string(),
                    t.namespace.as_deref().unwrap_or_default().to_string(),
                    t.name.to_string(),
                );
                let section = t.section.as_ref().map(|s| s.to_string());
                out.entry(key).or_default().push((pid, section));
            }
        }
        out
    }

    /// Refuses policy `pid` when an object one of its references names fails a
    /// `Further` rule of its kind.
    pub(super) fn judge_further(&mut self, pid: PolicyId, listed: &ListedSet, on: &OnReferents) {
        let policy = &self.topology.policies[pid];
        if policy.rejected.is_some() {
            return;
        }
        let rules = self.topology.kind_of(pid).entry.further;
        let Some(refs) = self.topology.references.get(pid.index()) else {
            return;
        };
        if rules.is_empty() {
            return;
        }
        let why = refs.iter().filter(|r| r.resolved).find_map(|r| {
            let t = &r.target;
            let beyond = rules
                .iter()
                .filter(|rule| rule.covers(&t.group, &t.kind))
                .find_map(|rule| match rule {
                    Further::ItsReferences { fields, .. } => self.referent_fails(t, fields, listed),
                    Further::PolicyOnIt { policy, .. } => {
                        self.policy_on_referent_fails(t, *policy, on)
                    }
                })?;
            Some(format!(
                "{}: names {t}, {beyond}; its controller refuses the policy",
                r.path
            ))
        });
        if let Some(why) = why {
            self.refuse_for_reference(pid, why);
        }
    }

    /// The object `t` names (an object the input holds), if there is one.
    fn referent(&self, t: &ObjRef) -> Option<crate::model::ObjectId> {
        let ns = t.namespace.as_deref();
        let ids = self
            .by_kind()
            .get(&(t.group.as_str(), t.kind.as_str(), ns))?;
        ids.iter()
            .copied()
            .find(|&id| self.objects[id].name == t.name)
    }

    /// Why the object `t` names fails, its own references in `fields` resolved from
    /// it: the first that its controller refuses it for.
    fn referent_fails(
        &self,
        t: &ObjRef,
        fields: &[RefField],
        listed: &ListedSet,
    ) -> Option<String> {
        let object = &self.objects[self.referent(t)?];
        let ns = object.namespace.as_deref();
        let refs = object.spec.with(|spec| {
            spec.as_object()
                .map(|m| read_references(m, fields, ns))
                .unwrap_or_default()
        });
        let from = object.obj_ref();
        let referrer = Referrer {
            obj: &from,
            file: &object.origin.file,
            refused: &[],
        };
        refs.iter()
            .filter(|r| fields[r.field].unresolved == Unresolved::RefusesPolicy)
            .map(|r| self.resolve_one(&referrer, r, &fields[r.field], listed))
            .find(|got| !matches!(got.reason, None | Some(RefReason::Unchecked)))
            .map(|got| format!("whose {}", got.describe()))
    }

    /// Why the policy of kind `kind` aimed at the object `t` names fails it: the oldest
    /// such policy (on the whole object, or on the section the reference's port is)
    /// naming an object that does not exist, or none of whose references resolves.
    fn policy_on_referent_fails(
        &self,
        t: &ObjRef,
        kind: (&str, &str),
        on: &OnReferents,
    ) -> Option<String> {
        let key = (
            t.group.to_string(),
            t.kind.to_string(),
            t.namespace.as_deref().unwrap_or_default().to_string(),
            t.name.to_string(),
        );
        let section = self.section_named(t);
        let policies = &self.topology.policies;
        let pid = on
            .get(&key)?
            .iter()
            .filter(|(pid, s)| {
                let gk = &policies[*pid].kind;
                gk.group == kind.0 && gk.kind == kind.1 && (s.is_none() || *s == section)
            })
            .map(|(pid, _)| *pid)
            .min_by(|&a, &b| {
                let (a, b) = (&policies[a], &policies[b]);
                let stamp = |p: &crate::catalog::policy::Policy| {
                    (p.creation_timestamp.is_none(), p.creation_timestamp.clone())
                };
                stamp(a)
                    .cmp(&stamp(b))
                    .then_with(|| a.obj_ref.to_string().cmp(&b.obj_ref.to_string()))
            })?;
        let refs = self.topology.references.get(pid.index())?;
        let failed = |r: &&PolicyReference| !matches!(r.reason, None | Some(RefReason::Unchecked));
        let missing = refs.iter().find(|r| r.reason == Some(RefReason::NotFound));
        let none_resolves = !refs.is_empty() && refs.iter().all(|r| failed(&r));
        let bad = missing.or_else(|| none_resolves.then(|| refs.first()).flatten())?;
        Some(format!(
            "which {} aims at, whose {}",
            policies[pid].obj_ref,
            bad.describe()
        ))
    }

    /// The section of the object `t` names that its controller matches a policy's
    /// sectionName with: a Service port's name for the port the reference names (none
    /// for a port without a name), the port number itself for another kind (an Envoy
    /// Gateway Backend).
    fn section_named(&self, t: &ObjRef) -> Option<String> {
        let port = t.section.as_deref()?;
        if !(t.group.is_empty() && t.kind == "Service") {
            return Some(port.to_string());
        }
        let number: u64 = port.parse().ok()?;
        let links = self.objects[self.referent(t)?].links();
        links
            .port_numbers
            .iter()
            .find(|(name, n)| *n == number && name.as_str() != port)
            .map(|(name, _)| name.to_string())
    }
}
