//! `diff`: what a whole change does, from one set of objects (`--from`) to another
//! (`--to`), both analysed: the objects added, deleted and changed; every policy whose
//! verdict changes, and why; every effective change with the policy behind each value;
//! the findings that appear and clear; what neither side could read.
//!
//! Effective specs are compared only where a changed object can change them (what a
//! changed policy reaches on either side, what lies below a changed object, what the
//! policies naming a changed Secret reach): `blast`'s `may_change` and `compare`, the
//! code `blast-radius --apply` answers with too.

use super::blast::{self, Change};
use super::{check, describe_policy, policy_rows, PolicyRow, Source, World};
use crate::model::BlindSpot;
use crate::model::{FastMap, ObjRef, Object};
use crate::topology::{Code, Finding, Severity};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// `diff` (docs/reference.md, `kind: PolicyDiff`): what changes from one side to the
/// other. Lists are sorted (kind, namespace, name, section).
#[derive(Clone, Debug, Serialize)]
pub struct PolicyDiff {
    pub(crate) kind: &'static str,
    /// What each side was read from (`--from`, `--to`): paths, `-`, or `cluster`/`demo`.
    pub(crate) from: Vec<String>,
    pub(crate) to: Vec<String>,
    pub(crate) summary: DiffSummary,
    pub objects: Vec<ObjectChange>,
    pub(crate) verdicts: Vec<VerdictChange>,
    pub changes: Vec<EffectiveChange>,
    pub(crate) findings: FindingChanges,
    #[serde(rename = "blindSpots")]
    pub(crate) blind_spots: SideBlindSpots,
}

/// One object added, deleted or changed (its spec, labels, annotations or creation
/// time: what the analysis reads; of a route's or backend's spec, once settled, its
/// links: parents, rules, backends).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ObjectChange {
    pub(crate) object: ObjRef,
    pub(crate) change: ObjectChangeKind,
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ObjectChangeKind {
    Added,
    Deleted,
    Changed,
}

impl ObjectChangeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ObjectChangeKind::Added => "added",
            ObjectChangeKind::Deleted => "deleted",
            ObjectChangeKind::Changed => "changed",
        }
    }
}

/// A policy's verdict on one side: STATUS (as `get` shows it), AFFECTS, its targets.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub(crate) struct Verdict {
    pub(crate) status: String,
    pub(crate) affects: usize,
    pub(crate) targets: Vec<ObjRef>,
}

/// A policy whose verdict changes: before and after (null where it is not on that
/// side), and why.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub(crate) struct VerdictChange {
    pub(crate) policy: ObjRef,
    pub(crate) before: Option<Verdict>,
    pub(crate) after: Option<Verdict>,
    pub(crate) reasons: Vec<String>,
}

/// An effective change (as `blast-radius` reports one), with the policies behind
/// the settings before and after.
#[derive(Clone, Debug, Serialize)]
pub struct EffectiveChange {
    #[serde(flatten)]
    pub change: Change,
    #[serde(rename = "sourcesBefore")]
    pub(crate) sources_before: Arc<Vec<Source>>,
    #[serde(rename = "sourcesAfter")]
    pub(crate) sources_after: Arc<Vec<Source>>,
}

/// Findings of the `--to` side the `--from` side did not have (by code and object),
/// and the reverse.
#[derive(Clone, Debug, Serialize, Default)]
pub(crate) struct FindingChanges {
    pub(crate) appeared: Vec<Finding>,
    pub(crate) cleared: Vec<Finding>,
}

/// What each side could not read (a document that is not an object, a kind not
/// listed, a reference that could not be checked).
#[derive(Clone, Debug, Serialize, Default)]
pub(crate) struct SideBlindSpots {
    pub(crate) from: Vec<BlindSpot>,
    pub(crate) to: Vec<BlindSpot>,
}

/// The counts the headline says.
#[derive(Clone, Debug, Serialize, Default, PartialEq)]
pub(crate) struct DiffSummary {
    pub(crate) added: usize,
    pub(crate) deleted: usize,
    pub(crate) changed: usize,
    /// Policies whose verdict changes.
    pub(crate) verdicts: usize,
    /// Objects whose effective settings change, by kind, and their namespaces.
    pub(crate) affected: super::blast::Summary,
    #[serde(rename = "newErrors")]
    pub(crate) new_errors: usize,
    #[serde(rename = "findingsAppeared")]
    pub(crate) findings_appeared: usize,
    #[serde(rename = "findingsCleared")]
    pub(crate) findings_cleared: usize,
}

/// What changes from `before` (read from `from`) to `after` (read from `to`). Both
/// worlds must keep their links (`analyze`, not `analyze_once`).
pub fn diff(before: &World, after: &World, from: Vec<String>, to: Vec<String>) -> PolicyDiff {
    let objects = object_changes(before, after);
    let changed: Vec<ObjRef> = objects.iter().map(|o| o.object.clone()).collect();
    // The effective changes, and each side's findings and verdicts, are independent:
    // worked out at once, as each folds few kinds and leaves cores idle on its own.
    let (changes, (had, has, verdicts)) = rayon::join(
        || blast::effective_changes(before, after, &changed),
        || {
            let (had, has) = rayon::join(|| findings_of(before), || findings_of(after));
            let verdicts = verdict_changes(before, after, &had, &has);
            (had, has, verdicts)
        },
    );
    let changes = changes
        .into_iter()
        .map(|c| EffectiveChange {
            change: c.change,
            sources_before: c.before,
            sources_after: c.after,
        })
        .collect();
    let findings = FindingChanges {
        appeared: new_in(&has, &had),
        cleared: new_in(&had, &has),
    };
    let blind_spots = SideBlindSpots {
        from: before.topology.snapshot().blind_spots.clone(),
        to: after.topology.snapshot().blind_spots.clone(),
    };
    let mut answer = PolicyDiff {
        kind: "PolicyDiff",
        from,
        to,
        summary: DiffSummary::default(),
        objects,
        verdicts,
        changes,
        findings,
        blind_spots,
    };
    answer.summary = answer.summarize();
    answer
}

impl PolicyDiff {
    /// Only what is in `namespace` (and cluster-scoped objects), counted again: `-n`.
    pub fn in_namespace(mut self, namespace: &str) -> PolicyDiff {
        let keep = |r: &ObjRef| r.namespace.as_deref().is_none_or(|ns| ns == namespace);
        self.objects.retain(|o| keep(&o.object));
        self.verdicts.retain(|v| keep(&v.policy));
        self.changes.retain(|c| keep(&c.change.target));
        self.findings.appeared.retain(|f| keep(&f.object));
        self.findings.cleared.retain(|f| keep(&f.object));
        self.summary = self.summarize();
        self
    }

    /// Whether anything changes (`--exit-code`): an object, a verdict, an effective
    /// setting, a finding.
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
            && self.verdicts.is_empty()
            && self.changes.is_empty()
            && self.findings.appeared.is_empty()
            && self.findings.cleared.is_empty()
    }

    fn summarize(&self) -> DiffSummary {
        let count = |k| self.objects.iter().filter(|o| o.change == k).count();
        let changes: Vec<Change> = self.changes.iter().map(|c| c.change.clone()).collect();
        let appeared = &self.findings.appeared;
        DiffSummary {
            added: count(ObjectChangeKind::Added),
            deleted: count(ObjectChangeKind::Deleted),
            changed: count(ObjectChangeKind::Changed),
            verdicts: self.verdicts.len(),
            affected: blast::summarize(&changes),
            new_errors: appeared
                .iter()
                .filter(|f| f.severity == Severity::Error)
                .count(),
            findings_appeared: appeared.len(),
            findings_cleared: self.findings.cleared.len(),
        }
    }

    /// One line for people: `3 objects change (1 added, 1 deleted, 1 changed); 2
    /// policies change verdict; effective settings change on 4 HTTPRoutes in 1
    /// namespace (baker); 1 new error`, or `No changes`.
    pub(crate) fn headline(&self) -> String {
        if self.is_empty() {
            return "No changes".to_string();
        }
        let s = &self.summary;
        let mut parts = Vec::new();
        let objects = s.added + s.deleted + s.changed;
        if objects > 0 {
            let mut how = Vec::new();
            for (n, word) in [
                (s.added, "added"),
                (s.deleted, "deleted"),
                (s.changed, "changed"),
            ] {
                if n > 0 {
                    how.push(format!("{n} {word}"));
                }
            }
            let objects = counted(objects, "object", "objects");
            parts.push(format!("{objects} ({})", how.join(", ")));
        }
        if s.verdicts > 0 {
            let verb = if s.verdicts == 1 { "changes" } else { "change" };
            let policies = counted(s.verdicts, "policy", "policies");
            parts.push(format!("{policies} {verb} verdict"));
        }
        if s.affected.objects > 0 {
            parts.push(format!(
                "effective settings change on {}",
                blast::describe_summary(&s.affected)
            ));
        }
        let others = s.findings_appeared - s.new_errors;
        for (n, one, many) in [
            (s.new_errors, "new error", "new errors"),
            (others, "new finding", "new findings"),
            (s.findings_cleared, "finding cleared", "findings cleared"),
        ] {
            if n > 0 {
                parts.push(counted(n, one, many));
            }
        }
        parts.join("; ")
    }
}

/// `1 policy`, `2 policies`: `n` and the word (`one`) or its plural (`many`).
fn counted(n: usize, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// The objects of one side by group, kind, namespace and name (as `apply` keys them).
type Key<'a> = (&'a str, &'a str, Option<&'a str>, &'a str);

fn key(o: &Object) -> Key<'_> {
    (o.group(), &o.kind, o.namespace.as_deref(), &o.name)
}

/// Objects added, deleted and changed, sorted. Duplicates are already left as `apply`
/// leaves them (the last copy: `analyze`).
fn object_changes(before: &World, after: &World) -> Vec<ObjectChange> {
    let (b, a) = (before.topology.objects(), after.topology.objects());
    let old: FastMap<Key, &Object> = b.iter().map(|o| (key(o), o)).collect();
    let new: FastMap<Key, &Object> = a.iter().map(|o| (key(o), o)).collect();
    let mut out = Vec::new();
    for o in a {
        match old.get(&key(o)) {
            None => out.push((o.obj_ref(), ObjectChangeKind::Added)),
            Some(was) if !same_object(was, o) => out.push((o.obj_ref(), ObjectChangeKind::Changed)),
            Some(_) => {}
        }
    }
    for o in b.iter().filter(|o| !new.contains_key(&key(o))) {
        out.push((o.obj_ref(), ObjectChangeKind::Deleted));
    }
    out.sort();
    out.dedup();
    out.into_iter()
        .map(|(object, change)| ObjectChange { object, change })
        .collect()
}

/// Whether two copies of an object are the same to the analysis: what it reads of them
/// (a route's spec as its links, once settled).
fn same_object(a: &Object, b: &Object) -> bool {
    a.api_version == b.api_version
        && a.labels == b.labels
        && a.annotations == b.annotations
        && a.creation_timestamp == b.creation_timestamp
        && a.spec == b.spec
}

/// A side's findings, but the documents that are not objects: those are its blind
/// spots (and name the file, which differs between the sides).
fn findings_of(world: &World) -> Vec<Finding> {
    let mut all = check(world);
    all.retain(|f| {
        !(f.code == Code::Invalid && f.object.kind == "Document" && f.object.group.is_empty())
    });
    all
}

/// The findings of `these` no finding of `those` has the code and object of (one
/// whose words alone change is not new).
fn new_in(these: &[Finding], those: &[Finding]) -> Vec<Finding> {
    let known: BTreeSet<(Code, &ObjRef)> = those.iter().map(|f| (f.code, &f.object)).collect();
    these
        .iter()
        .filter(|f| !known.contains(&(f.code, &f.object)))
        .cloned()
        .collect()
}

/// Every policy whose STATUS, AFFECTS or targets differ between the sides (added and
/// deleted ones too), with why.
fn verdict_changes(
    before: &World,
    after: &World,
    had: &[Finding],
    has: &[Finding],
) -> Vec<VerdictChange> {
    let rows = |w: &World| -> BTreeMap<ObjRef, PolicyRow> {
        policy_rows(w, None)
            .into_iter()
            .map(|r| (r.policy.clone(), r))
            .collect()
    };
    let (old, new) = rayon::join(|| rows(before), || rows(after));
    let refs: BTreeSet<&ObjRef> = old.keys().chain(new.keys()).collect();
    let mut out = Vec::new();
    for r in refs {
        let (b, a) = (old.get(r).map(verdict), new.get(r).map(verdict));
        if b == a {
            continue;
        }
        let reasons = reasons(r, (before, after), (b.as_ref(), a.as_ref()), (had, has));
        out.push(VerdictChange {
            policy: r.clone(),
            before: b,
            after: a,
            reasons,
        });
    }
    out
}

fn verdict(row: &PolicyRow) -> Verdict {
    Verdict {
        status: row.shown_status().into_owned(),
        affects: row.affects,
        targets: row.targets.clone(),
    }
}

/// Why a policy's verdict changes: added or deleted; the findings on it that appear
/// (a target gone, a reference not found, a conflict lost); the policies that override
/// it; its targets; else the findings that clear, or its reach.
fn reasons(
    policy: &ObjRef,
    (before, after): (&World, &World),
    (b, a): (Option<&Verdict>, Option<&Verdict>),
    (had, has): (&[Finding], &[Finding]),
) -> Vec<String> {
    let (b, a) = match (b, a) {
        (None, _) => return vec!["added".to_string()],
        (_, None) => return vec!["deleted".to_string()],
        (Some(b), Some(a)) => (b, a),
    };
    let on = |fs: &[Finding]| -> Vec<Finding> {
        fs.iter().filter(|f| &f.object == policy).cloned().collect()
    };
    let (was, is) = (on(had), on(has));
    let mut out: Vec<String> = new_in(&is, &was)
        .into_iter()
        .map(|f| format!("{:?}: {}", f.code, f.message))
        .collect();
    if let Some(by) = overridden_by(after, policy).filter(|_| a.status != b.status) {
        out.push(by);
    }
    if a.targets != b.targets {
        let list = |t: &[ObjRef]| {
            let names: Vec<String> = t.iter().map(ObjRef::short).collect();
            match names.is_empty() {
                true => "none".to_string(),
                false => names.join(", "),
            }
        };
        out.push(format!(
            "targets {} → {}",
            list(&b.targets),
            list(&a.targets)
        ));
    }
    if out.is_empty() {
        out.extend(
            new_in(&was, &is)
                .into_iter()
                .map(|f| format!("no longer {:?}: {}", f.code, f.message)),
        );
    }
    if out.is_empty() {
        if let Some(by) = overridden_by(before, policy) {
            out.push(format!("no longer {by}"));
        }
    }
    if out.is_empty() && a.affects != b.affects {
        out.push(format!(
            "what it reaches changed: {} → {} objects",
            b.affects, a.affects
        ));
    }
    out
}

/// `overridden by P, Q`: the policies that hold the place of `policy`'s settings where
/// it reaches, when any does.
fn overridden_by(world: &World, policy: &ObjRef) -> Option<String> {
    let id = world.topology.policy_id(policy)?;
    let description = describe_policy(world, id);
    let by: BTreeSet<String> = description
        .affects
        .iter()
        .flat_map(|a| &a.overridden)
        .map(|o| format!("{} {}", o.by.kind, o.by.ns_name()))
        .collect();
    match by.is_empty() {
        true => None,
        false => Some(format!(
            "overridden by {}",
            by.into_iter().collect::<Vec<_>>().join(", ")
        )),
    }
}

/// The most objects the picture of a diff starts from: beyond them it would not fit
/// a comment.
const PICTURE_LIMIT: usize = 60;

/// The part of the `--to` side's hierarchy a diff touches: the objects whose effective
/// settings change, the objects changed or added, and where the policies whose verdict
/// changes attach, with their ancestors (at most `PICTURE_LIMIT` of them to start from),
/// and those policies, attached or not.
pub fn picture(after: &World, answer: &PolicyDiff) -> super::graph::Graph {
    let t = &after.topology;
    let mut starts: BTreeSet<crate::topology::NodeId> = BTreeSet::new();
    let objects = answer.objects.iter().map(|o| &o.object);
    let targets = answer.changes.iter().map(|c| &c.change.target);
    for r in targets.chain(objects) {
        starts.extend(t.lookup(r));
    }
    for v in &answer.verdicts {
        let Some(p) = t.policy_id(&v.policy) else {
            continue;
        };
        for r in t.targets_of(p) {
            if let crate::topology::Resolution::Node(n) = r.resolution {
                starts.insert(n);
            }
        }
    }
    let starts: Vec<_> = starts.into_iter().take(PICTURE_LIMIT).collect();
    let policies: Vec<ObjRef> = answer
        .verdicts
        .iter()
        .take(PICTURE_LIMIT)
        .map(|v| v.policy.clone())
        .collect();
    super::graph::around(after, &starts, &policies)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze_yaml;

    const BASE: &str = "
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw}
spec: {gatewayClassName: eg, listeners: [{name: http, port: 80, protocol: HTTP}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: a}
spec: {parentRefs: [{name: gw}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: b}
spec: {parentRefs: [{name: gw}]}
";

    const RETRIES: &str = "
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: r}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: a}]
  retry: {numRetries: 2}
";

    #[test]
    fn a_policy_added_and_its_reach() {
        let before = analyze_yaml(BASE).unwrap();
        let after = analyze_yaml(&format!("{BASE}{RETRIES}")).unwrap();
        let d = diff(&before, &after, vec![], vec![]);
        assert_eq!(d.objects.len(), 1);
        assert_eq!(d.objects[0].change, ObjectChangeKind::Added);
        assert_eq!(d.verdicts[0].reasons, ["added"]);
        // Route a and its rule, not route b: only what the policy reaches is compared.
        let targets: BTreeSet<&str> = d.changes.iter().map(|c| &*c.change.target.name).collect();
        assert_eq!(targets, BTreeSet::from(["a"]));
        assert_eq!(d.changes[0].sources_after[0].policy.name, "r");
        assert_eq!(
            d.headline(),
            "1 object (1 added); 1 policy changes verdict; effective settings change on 1 HTTPRoute in 1 namespace (default)"
        );
        // The other way round: deleted.
        let back = diff(&after, &before, vec![], vec![]);
        assert_eq!(back.verdicts[0].reasons, ["deleted"]);
        assert_eq!(back.changes.len(), d.changes.len());
        assert!(diff(&before, &before, vec![], vec![]).is_empty());
        assert_eq!(
            diff(&before, &before, vec![], vec![]).headline(),
            "No changes"
        );
    }

    #[test]
    fn a_retargeted_policy_says_its_targets_and_the_finding_it_gets() {
        let before = analyze_yaml(&format!("{BASE}{RETRIES}")).unwrap();
        let after = analyze_yaml(&format!(
            "{BASE}{}",
            RETRIES.replace("name: a}", "name: gone}")
        ))
        .unwrap();
        let d = diff(&before, &after, vec![], vec![]);
        let v = &d.verdicts[0];
        assert_eq!(v.after.as_ref().unwrap().status, "TargetNotFound");
        assert!(
            v.reasons[0].starts_with("TargetNotFound: "),
            "{:?}",
            v.reasons
        );
        assert_eq!(
            v.reasons[1],
            "targets HTTPRoute default/a → HTTPRoute default/gone"
        );
        assert_eq!(d.findings.appeared.len(), 1);
        assert!(d.headline().ends_with("1 new error"), "{}", d.headline());
        assert_eq!(d.in_namespace("elsewhere").verdicts.len(), 0);
    }
}
