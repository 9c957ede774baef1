//! Who depends on an object: the policies whose spec names a Secret, a ConfigMap or a
//! Service, by which field, and what becomes of each without it (`describe`); what
//! deleting it does (`blast-radius`); the dangling references an applied policy leaves.

use crate::common::*;
use kubectl_policies::model::ObjRef;
use kubectl_policies::query::blast::{apply_objects, delete_object, delete_object_by_reanalysis};
use kubectl_policies::query::dependents::{describe_dependency, Without};
use kubectl_policies::query::World;
use kubectl_policies::topology::{Code, RefReason, Severity};

const INPUT: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: eg
  listeners: [{name: http, port: 80, protocol: HTTP}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: app}
spec:
  parentRefs: [{name: gw}]
  rules: [{backendRefs: [{name: auth, port: 8080}]}]
---
apiVersion: v1
kind: Service
metadata: {name: auth, namespace: app}
spec: {ports: [{name: http, port: 8080}, {name: admin, port: 9443}]}
---
apiVersion: v1
kind: Secret
metadata: {name: users, namespace: app}
---
apiVersion: v1
kind: Secret
metadata: {name: keys, namespace: app}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: basic, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}]
  basicAuth: {users: {name: users}}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: ext, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  extAuth: {http: {backendRef: {name: auth, port: 8080}}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: tls, namespace: app}
spec:
  # On the port the ext-auth policy does not use: Envoy Gateway would refuse that
  # policy for this one's missing CA Secret (`Further::PolicyOnIt`).
  targetRefs: [{group: '', kind: Service, name: auth, sectionName: admin}]
  validation:
    hostname: auth.example.com
    caCertificateRefs:
    - {group: '', kind: Secret, name: keys}
    - {group: '', kind: Secret, name: gone}
"#;

fn secret(name: &str) -> ObjRef {
    ObjRef::new("", "Secret", Some("app"), name)
}

/// (policy name, pointer, what becomes of it without the object) of each reference.
fn named_by(w: &World, object: &ObjRef) -> Vec<(String, String, Without)> {
    describe_dependency(w, object)
        .referenced_by
        .iter()
        .map(|d| (d.policy.name.to_string(), d.path.clone(), d.without))
        .collect()
}

#[test]
fn a_secret_is_described_by_the_policies_that_name_it_and_their_vendors_rule() {
    let w = world(INPUT);
    let d = describe_dependency(&w, &secret("users"));
    assert!(d.found);
    assert_eq!(
        named_by(&w, &secret("users")),
        [(
            "basic".to_string(),
            "/spec/basicAuth/users".to_string(),
            Without::Invalid
        )]
    );
    assert_eq!(d.referenced_by[0].reason, None);
    // BackendTLSPolicy's CA refs: the policy is refused only when none resolves; one
    // other (gone) does not, so without `keys` none would.
    assert_eq!(
        named_by(&w, &secret("keys")),
        [(
            "tls".to_string(),
            "/spec/validation/caCertificateRefs/0".to_string(),
            Without::Invalid
        )]
    );
}

#[test]
fn a_secret_absent_from_the_input_is_still_described_by_its_dependents() {
    let w = world(INPUT);
    let d = describe_dependency(&w, &secret("gone"));
    assert!(!d.found);
    assert_eq!(d.referenced_by.len(), 1);
    assert_eq!(d.referenced_by[0].reason, Some(RefReason::NotFound));
    // Its field's other entry (keys) resolves: without `gone`, only that entry drops.
    assert_eq!(d.referenced_by[0].without, Without::EntryDropped);
    assert!(describe_dependency(&w, &secret("nobody"))
        .referenced_by
        .is_empty());
}

#[test]
fn describe_of_a_service_says_which_policies_name_it() {
    let w = world(INPUT);
    let n = node(&w, "Service", Some("app"), "auth", None);
    let d = kubectl_policies::query::describe_target(&w, n);
    let by: Vec<(&str, &str)> = d
        .referenced_by
        .iter()
        .map(|r| (r.policy.name.as_str(), r.path.as_str()))
        .collect();
    assert_eq!(by, [("ext", "/spec/extAuth/http/backendRef")]);
}

#[test]
fn deleting_a_secret_makes_its_dependents_invalid_and_changes_what_they_set() {
    let w = world(INPUT);
    let b = delete_object(&w, &secret("users"), &[]);
    let invalid: Vec<&str> = b
        .invalidated
        .iter()
        .flatten()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(invalid, ["basic"]);
    assert!(b
        .findings
        .iter()
        .any(|f| f.code == Code::Invalid && f.object.name == "basic"));
    // The route had basic auth; without the policy it has none.
    let at_route: Vec<_> = b
        .changes
        .iter()
        .filter(|c| c.target.name == "shop" && c.target.section.is_none())
        .collect();
    assert_eq!(at_route.len(), 1, "{:?}", b.changes);
    let before = at_route[0].before.as_deref().unwrap();
    assert_eq!(before["basicAuth"]["users"]["name"], "users");
    assert!(at_route[0]
        .after
        .as_deref()
        .is_none_or(|a| a.get("basicAuth").is_none()));
    assert!(b
        .headline
        .contains("makes SecurityPolicy app/basic Invalid"));
}

#[test]
fn deleting_a_secret_no_policy_names_or_the_input_lacks_changes_nothing() {
    let w = world(INPUT);
    let b = delete_object(&w, &secret("gone"), &[]);
    assert!(b.changes.is_empty() && b.findings.is_empty());
    assert!(b.invalidated.as_ref().is_some_and(Vec::is_empty));
    assert!(b.headline.contains("not in the input"), "{}", b.headline);
    let w = world(&format!(
        "{INPUT}---\napiVersion: v1\nkind: Secret\nmetadata: {{name: spare, namespace: app}}\n"
    ));
    let b = delete_object(&w, &secret("spare"), &[]);
    assert!(b.changes.is_empty() && b.findings.is_empty());
    assert!(b.headline.ends_with("no policy names it"), "{}", b.headline);
}

#[test]
fn deleting_a_service_refuses_the_ext_auth_policy_and_warns_of_the_route() {
    let w = world(INPUT);
    let b = delete_object(&w, &ObjRef::new("", "Service", Some("app"), "auth"), &[]);
    let invalid: Vec<&str> = b
        .invalidated
        .iter()
        .flatten()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(invalid, ["ext"]);
    let codes: Vec<(Code, &str)> = b
        .findings
        .iter()
        .map(|f| (f.code, f.object.name.as_str()))
        .collect();
    assert!(codes.contains(&(Code::Invalid, "ext")), "{codes:?}");
    assert!(
        codes.contains(&(Code::BackendNotFound, "shop")),
        "{codes:?}"
    );
    assert!(b.changes.iter().any(|c| c.target.kind == "Gateway"));
}

#[test]
fn an_applied_policy_naming_a_missing_secret_brings_an_invalid_finding() {
    let w = world(INPUT);
    let yaml = "apiVersion: gateway.envoyproxy.io/v1alpha1\nkind: SecurityPolicy\nmetadata: {name: oidc, namespace: app}\nspec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}]\n  oidc: {provider: {issuer: 'https://id'}, clientID: c, clientSecret: {name: oidc-secret}}\n";
    let mut loaded = kubectl_policies::source::files::Loaded::default();
    kubectl_policies::source::files::load_text(yaml, "new.yaml", &mut loaded).unwrap();
    let b = apply_objects(&w, loaded.snapshot.objects, vec!["new.yaml".into()], &[]);
    let invalid: Vec<_> = b
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| (f.code, f.object.name.to_string()))
        .collect();
    // The input holds Secrets in app: the one the new policy names is missing there.
    assert_eq!(invalid, [(Code::Invalid, "oidc".to_string())]);
    assert!(b.findings[0].message.contains("oidc-secret"));
}

#[test]
fn deleting_any_named_object_equals_comparing_everything() {
    let w = world(INPUT);
    let service = ObjRef::new("", "Service", Some("app"), "auth");
    for object in [secret("users"), secret("keys"), secret("gone"), service] {
        let fast = delete_object(&w, &object, &[]);
        let full = delete_object_by_reanalysis(&w, &object, &[]);
        assert_eq!(fast.changes, full.changes, "{object}");
        assert_eq!(fast.invalidated, full.invalidated, "{object}");
    }
}

#[test]
fn deleting_one_of_two_ca_secrets_drops_that_entry_and_invalidates_nothing() {
    let yaml = INPUT.replace("name: gone}", "name: users}");
    let w = world(&yaml);
    assert_eq!(
        named_by(&w, &secret("keys")),
        [(
            "tls".to_string(),
            "/spec/validation/caCertificateRefs/0".to_string(),
            Without::EntryDropped
        )]
    );
    let b = delete_object(&w, &secret("keys"), &[]);
    assert!(b.invalidated.as_ref().is_some_and(Vec::is_empty));
    assert_eq!(
        b.headline,
        "Deleting Secret app/keys changes no effective spec: the 1 policy naming it does without it (see the findings)"
    );
    let brought: Vec<(Code, Severity, &str)> = b
        .findings
        .iter()
        .map(|f| (f.code, f.severity, f.object.name.as_str()))
        .collect();
    assert_eq!(
        brought,
        [(Code::UnresolvedReference, Severity::Warning, "tls")]
    );
    assert_eq!(
        b.changes,
        delete_object_by_reanalysis(&w, &secret("keys"), &[]).changes
    );
}
