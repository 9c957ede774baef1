//! `check`: every finding, the topology's and each policy's (conflicts, controller
//! statuses that disagree with the computed ones).

use super::*;
use crate::topology::Conflict;

/// Every finding: the topology's, Direct conflicts, and controller statuses that the
/// computation contradicts. Sorted.
pub fn check(world: &World) -> Vec<Finding> {
    let mut out = world.topology.findings().to_vec();
    for p in PolicyId::all(world.topology.policies().len()) {
        out.extend(policy_findings(world, p));
    }
    crate::topology::findings::sort_findings(&mut out);
    out.dedup();
    out
}

/// The findings on `policy` that the computation adds to the topology's: the Direct
/// conflicts it loses, and a controller status that the computed one contradicts.
pub fn policy_findings(world: &World, policy: PolicyId) -> Vec<Finding> {
    let (topology, statuses) = (&world.topology, world.counts());
    let mut out = Vec::new();
    // Conflicts are sorted, so p's losses are one run of them.
    let from = statuses.conflicts.partition_point(|c| c.loser < policy);
    let mut seen = std::collections::BTreeSet::new();
    let (verb, why) = topology.kind_of(policy).entry.same_target.conflict_words();
    for &Conflict { winner, at: n, .. } in statuses.conflicts[from..]
        .iter()
        .take_while(|c| c.loser == policy)
    {
        if !seen.insert(n) {
            continue;
        }
        out.push(Finding::new(
            Code::Conflicted,
            topology.policy(policy).obj_ref.clone(),
            format!(
                "{verb} {} {} on {}: {why}",
                topology.policy(winner).kind.kind,
                topology.policy(winner).obj_ref.ns_name(),
                topology.node(n).obj_ref.short()
            ),
        ));
    }
    let computed = statuses.overall[policy];
    let reported = reported_status(topology, policy);
    // The controller's word on the current generation: a refusal the computation does
    // not share is STATUS, and an error. Stale reports are left out: they say nothing
    // of the policy as it is now (`describe` lists them, marked stale).
    if let Some(reason) = shown_reason(computed, summarise(&reported).as_ref()) {
        out.push(Finding::new(
            Code::Refused,
            topology.policy(policy).obj_ref.clone(),
            format!(
                "a controller refuses its current generation ({reason}) while the computed status is {}",
                computed.as_str()
            ),
        ));
        return out;
    }
    for c in reported.into_iter().filter(|c| !c.stale) {
        let says_ok = c.status == "True"
            && matches!(c.type_.as_str(), "Accepted" | "Enforced" | "Programmed");
        let says_not = c.status == "False" && c.type_ == "Accepted";
        let contradicts = (says_ok
            && matches!(
                computed,
                PolicyStatus::Conflicted
                    | PolicyStatus::Overridden
                    | PolicyStatus::TargetNotFound
                    | PolicyStatus::SectionNotFound
            )
            && !(c.type_ == "Accepted" && computed == PolicyStatus::Overridden))
            || (says_not && computed == PolicyStatus::Enforced);
        if contradicts {
            out.push(Finding::new(
                Code::StatusDisagrees,
                topology.policy(policy).obj_ref.clone(),
                format!(
                    "{} reports {}={}{} but the computed status is {}",
                    c.controller.as_deref().unwrap_or("a controller"),
                    c.type_,
                    c.status,
                    if c.reason.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", c.reason)
                    },
                    computed.as_str()
                ),
            ));
            break;
        }
    }
    out
}

/// `check` in scope of `-n` (`namespace`; none: every namespace): the findings on
/// objects of that namespace, and on cluster-scoped ones.
pub fn check_in(world: &World, namespace: Option<&str>) -> Vec<Finding> {
    check(world)
        .into_iter()
        .filter(|f| {
            namespace.is_none()
                || f.object.namespace.is_none()
                || f.object.namespace.as_deref() == namespace
        })
        .collect()
}

/// `check -o json|yaml`: the findings and what could not be read.
#[derive(Clone, Debug, Serialize)]
pub struct CheckResult<'a> {
    /// Always `CheckResult`.
    pub(crate) kind: &'static str,
    pub(crate) findings: &'a [Finding],
    #[serde(rename = "blindSpots")]
    pub(crate) blind_spots: &'a [BlindSpot],
}

impl<'a> CheckResult<'a> {
    pub fn new(findings: &'a [Finding], blind_spots: &'a [BlindSpot]) -> Self {
        CheckResult {
            kind: "CheckResult",
            findings,
            blind_spots,
        }
    }
}
