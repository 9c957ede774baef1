//! The controller's word: what controllers report of a policy's current generation,
//! summarised in one word, and where it replaces the computed verdict in STATUS
//! (docs/status.md, The controller's word).

use super::*;

/// What controllers say of a policy, in one word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reported {
    /// A report of the current generation accepts it (`Accepted=True`), none refuses it.
    Accepted,
    /// A report of the current generation refuses it (`Accepted=False`): the reason of
    /// the first refusal (`NotAccepted` where it gives none).
    Refused(String),
    /// Reports of the current generation, none of them saying True or False of
    /// `Accepted`.
    Unknown,
    /// Reports, all of them written for another generation of the policy.
    Stale,
}

/// The reason shown for a refusal whose condition gives none.
const NO_REASON: &str = "NotAccepted";

impl Reported {
    /// The word, as the REPORTED column shows it.
    pub fn as_str(&self) -> &str {
        match self {
            Reported::Accepted => "Accepted",
            Reported::Refused(reason) => reason,
            Reported::Unknown => "Unknown",
            Reported::Stale => "<stale>",
        }
    }

    /// No word of the current generation (JSON leaves it out).
    pub(crate) fn is_none(word: &Option<Reported>) -> bool {
        matches!(word, None | Some(Reported::Stale))
    }
}

impl Serialize for Reported {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Reported::Stale => s.serialize_none(),
            word => s.serialize_str(word.as_str()),
        }
    }
}

/// A computed verdict that already says the policy does not apply for a fault of its
/// own or of its targets: a controller's refusal does not replace it.
pub fn is_failure(status: PolicyStatus) -> bool {
    matches!(
        status,
        PolicyStatus::Conflicted
            | PolicyStatus::TargetNotFound
            | PolicyStatus::SectionNotFound
            | PolicyStatus::Invalid
    )
}

/// The one word for `conditions` (`reported_status`): the first refusal of the
/// current generation, in a stable order (the plain `status.conditions` first, then by
/// ancestor, then by controller name); else `Accepted`; else `Unknown`; `Stale` where
/// every condition is stale; None where there is no condition at all. Only `Accepted`
/// conditions decide (other types are details `describe` lists).
pub fn summarise(conditions: &[ReportedCondition]) -> Option<Reported> {
    if conditions.is_empty() {
        return None;
    }
    let current = || conditions.iter().filter(|c| !c.stale);
    if current().next().is_none() {
        return Some(Reported::Stale);
    }
    let accepted = || current().filter(|c| c.type_ == "Accepted");
    let refusal = accepted()
        .filter(|c| c.status == "False")
        .min_by(|a, b| (&a.ancestor, &a.controller).cmp(&(&b.ancestor, &b.controller)));
    Some(match refusal {
        Some(c) if c.reason.is_empty() => Reported::Refused(NO_REASON.into()),
        Some(c) => Reported::Refused(c.reason.clone()),
        None if accepted().any(|c| c.status == "True") => Reported::Accepted,
        None => Reported::Unknown,
    })
}

/// The one word controllers say of `policy` (`summarise`).
pub fn reported_word(topology: &Topology, policy: PolicyId) -> Option<Reported> {
    // Most policies in files carry no status at all: nothing to read.
    let object = topology.policy_object(policy);
    if object.status.is_null() {
        return None;
    }
    summarise(&reported_status(topology, policy))
}

/// The reason STATUS shows instead of the computed verdict: a refusal of the current
/// generation, where the computed verdict is not a failure.
pub fn shown_reason(computed: PolicyStatus, word: Option<&Reported>) -> Option<&str> {
    match word {
        Some(Reported::Refused(reason)) if !is_failure(computed) => Some(reason),
        _ => None,
    }
}

/// STATUS as every view shows it (`get`, `tree`, `describe`): the computed verdict,
/// or `<reason> (reported)` where a controller refuses the current generation and the
/// computed verdict is not a failure (`shown_reason`).
pub fn shown_status(
    computed: PolicyStatus,
    word: Option<&Reported>,
) -> std::borrow::Cow<'static, str> {
    match shown_reason(computed, word) {
        Some(reason) => shown_text(reason).into(),
        None => computed.as_str().into(),
    }
}

/// STATUS for a reported refusal: `Invalid (reported)`.
pub fn shown_text(reason: &str) -> String {
    format!("{reason} (reported)")
}

/// A generation as a status writes it: a non-negative integer.
pub(crate) fn generation_of(v: &Val) -> Option<i64> {
    v.as_u64().and_then(|g| i64::try_from(g).ok())
}
