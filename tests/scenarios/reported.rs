//! The controller's word: a refusal of the policy's current generation replaces a
//! computed verdict that is not a failure; a stale one changes nothing.

use crate::common::world;
use kubectl_policies::effective::PolicyStatus;
use kubectl_policies::query::{policy_rows, Reported};

/// A Service and a BackendTLSPolicy on it (generation `generation`, if any) whose
/// controller wrote `Accepted=<accepted> (<reason>)` for `observed` (if any).
fn input(generation: Option<u32>, observed: Option<u32>, accepted: &str, reason: &str) -> String {
    let generation = generation.map_or(String::new(), |g| format!(", generation: {g}"));
    let observed = observed.map_or(String::new(), |g| {
        format!("\n        observedGeneration: {g}")
    });
    format!(
        "apiVersion: v1
kind: Service
metadata: {{name: svc, namespace: app}}
spec: {{ports: [{{port: 443}}]}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {{name: tls, namespace: app{generation}}}
spec:
  targetRefs: [{{group: '', kind: Service, name: svc}}]
  validation: {{hostname: svc.example.com, wellKnownCACertificates: System}}
status:
  ancestors:
  - ancestorRef: {{name: gw}}
    controllerName: example.com/gateway
    conditions:
      - type: Accepted
        status: '{accepted}'
        reason: '{reason}'
        message: 'what the controller says'{observed}
"
    )
}

/// STATUS and the controller's word of the only policy.
fn verdict(yaml: &str) -> (String, PolicyStatus, Option<Reported>) {
    let w = world(yaml);
    let rows = policy_rows(&w, None);
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    (r.shown_status().into_owned(), r.status, r.reported.clone())
}

#[test]
fn a_refusal_of_the_current_generation_is_status() {
    let (shown, computed, word) = verdict(&input(Some(3), Some(3), "False", "Invalid"));
    assert_eq!(shown, "Invalid (reported)");
    assert_eq!(
        computed,
        PolicyStatus::Enforced,
        "the computed verdict is kept"
    );
    assert_eq!(word, Some(Reported::Refused("Invalid".into())));
}

#[test]
fn a_refusal_of_an_older_generation_is_stale_and_changes_nothing() {
    let (shown, _, word) = verdict(&input(Some(4), Some(3), "False", "Invalid"));
    assert_eq!(shown, "Enforced");
    assert_eq!(word, Some(Reported::Stale));
}

#[test]
fn a_refusal_without_a_generation_on_either_side_is_current() {
    let (shown, _, _) = verdict(&input(None, None, "False", "NoValidCACertificate"));
    assert_eq!(shown, "NoValidCACertificate (reported)");
}

#[test]
fn a_refusal_whose_generation_cannot_be_compared_is_taken_as_current() {
    // One side has no generation: nothing says the report is of another one.
    let (shown, _, _) = verdict(&input(Some(2), None, "False", "Invalid"));
    assert_eq!(shown, "Invalid (reported)");
    let (shown, _, _) = verdict(&input(None, Some(2), "False", "Invalid"));
    assert_eq!(shown, "Invalid (reported)");
}

#[test]
fn a_refusal_without_a_reason_reads_not_accepted() {
    let (shown, _, _) = verdict(&input(Some(1), Some(1), "False", ""));
    assert_eq!(shown, "NotAccepted (reported)");
}

#[test]
fn an_acceptance_changes_nothing() {
    let (shown, _, word) = verdict(&input(Some(1), Some(1), "True", "Accepted"));
    assert_eq!(shown, "Enforced");
    assert_eq!(word, Some(Reported::Accepted));
}

#[test]
fn a_computed_failure_stays_computed() {
    // Its target does not exist: TargetNotFound is the computed word, whatever the
    // controller adds.
    let yaml = input(Some(1), Some(1), "False", "Invalid").replace("name: svc}", "name: gone}");
    let (shown, computed, word) = verdict(&yaml);
    assert_eq!(computed, PolicyStatus::TargetNotFound);
    assert_eq!(shown, "TargetNotFound");
    assert_eq!(word, Some(Reported::Refused("Invalid".into())));
}

#[test]
fn the_first_refusal_in_ancestor_order_is_the_reason() {
    // Two ancestors refuse; the one whose ancestor sorts first gives the reason,
    // whatever order the controller wrote them in.
    let yaml = input(Some(1), Some(1), "False", "Zeta").replace(
        "  - ancestorRef: {name: gw}",
        "  - ancestorRef: {name: gw-b}
    controllerName: example.com/gateway
    conditions: [{type: Accepted, status: 'False', reason: Beta, observedGeneration: 1}]
  - ancestorRef: {name: gw-a}",
    );
    let (shown, _, _) = verdict(&yaml);
    assert_eq!(shown, "Zeta (reported)");
}
