//! Who depends on an object, as a user asks it: `describe secret/NAME` (and
//! configmap, and the `referencedBy` part of a Service's page), `blast-radius` of an
//! object policies name, and `blast-radius --apply` of a policy naming a missing one.

use crate::command::kp;

const INPUT: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec: {gatewayClassName: eg, listeners: [{name: http, port: 80, protocol: HTTP}]}
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
spec: {ports: [{name: http, port: 8080}]}
---
apiVersion: v1
kind: Secret
metadata: {name: htpasswd, namespace: app}
---
apiVersion: v1
kind: Secret
metadata: {name: spare, namespace: app}
---
apiVersion: v1
kind: Secret
metadata: {name: \"evil\\e[31mred\", namespace: app}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: jwks, namespace: app}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: ext, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  extAuth: {http: {backendRef: {name: auth, port: 8080}}}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: users, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}]
  basicAuth: {users: {name: htpasswd}}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: keys, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}]
  apiKeyAuth:
    credentialRefs: [{name: htpasswd}, {name: \"evil\\e[31mred\"}, {name: gone}]
    extractFrom: [{headers: [x-key]}]
  jwt:
    providers: [{name: p, localJWKS: {type: ValueRef, valueRef: {group: '', kind: ConfigMap, name: jwks}}}]
";

const NEW_POLICY: &str = "apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: oidc, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}]
  oidc: {provider: {issuer: 'https://id'}, clientID: c, clientSecret: {name: oidc-secret}}
";

/// (exit code, stdout, stderr) of a run on `INPUT` (and `NEW_POLICY` as new.yaml).
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input.yaml");
    std::fs::write(&path, INPUT).unwrap();
    std::fs::write(dir.path().join("new.yaml"), NEW_POLICY).unwrap();
    let out = kp()
        .current_dir(dir.path())
        .args(["--color", "never", "-n", "app", "-f"])
        .arg(&path)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn stdout(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    out
}

#[test]
fn describe_secret_names_the_policies_by_field_and_what_becomes_of_each() {
    insta::assert_snapshot!(stdout(&["describe", "secret/htpasswd"]));
    // kubectl's spellings of the kind answer the same.
    for ty in [
        "secrets/htpasswd",
        "Secret/htpasswd",
        "secret.core/htpasswd",
    ] {
        assert_eq!(
            stdout(&["describe", ty]),
            stdout(&["describe", "secret/htpasswd"])
        );
    }
    assert_eq!(
        stdout(&["describe", "secrets", "htpasswd"]),
        stdout(&["describe", "secret/htpasswd"])
    );
}

#[test]
fn describe_secret_in_json_and_yaml() {
    insta::assert_snapshot!(stdout(&["describe", "secret/htpasswd", "-o", "json"]));
    insta::assert_snapshot!(stdout(&["describe", "secret/htpasswd", "-o", "yaml"]));
}

#[test]
fn describe_configmap_by_its_short_name() {
    insta::assert_snapshot!(stdout(&["describe", "cm/jwks"]));
}

#[test]
fn a_secret_no_policy_names_is_described_as_such_and_one_not_read_by_its_dependents() {
    insta::assert_snapshot!(stdout(&["describe", "secret/spare"]));
    insta::assert_snapshot!(stdout(&["describe", "secret/gone"]));
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["describe", "secret/gone", "-o", "json"])).unwrap();
    assert_eq!(json["kind"], "DependencyDescription");
    assert_eq!(json["found"], false);
    assert_eq!(json["referencedBy"][0]["reason"], "NotFound");
    assert_eq!(json["referencedBy"][0]["policy"]["name"], "keys");
}

#[test]
fn a_misspelt_secret_gets_did_you_mean() {
    let (code, out, err) = run(&["describe", "secret/htpaswd"]);
    assert_eq!(code, Some(1));
    assert!(out.is_empty());
    assert_eq!(
        err.trim_end(),
        "error: secrets \"htpaswd\" not found in namespace app; did you mean secret/htpasswd?"
    );
}

#[test]
fn a_hostile_secret_name_is_escaped_on_the_terminal() {
    let (code, out, _) = run(&["describe", "secret/evil\u{1b}[31mred"]);
    assert_eq!(code, Some(0));
    assert!(!out.contains('\u{1b}'), "{out:?}");
    // The escape byte shown in caret notation, as the rest of the tool shows it.
    assert!(out.starts_with("Name:         evil^[[31mred\n"), "{out}");
    let (_, out, _) = run(&["blast-radius", "secret/evil\u{1b}[31mred"]);
    assert!(!out.contains('\u{1b}'), "{out:?}");
}

#[test]
fn describe_service_adds_the_policies_that_name_it() {
    let page = stdout(&["describe", "svc/auth"]);
    let block = page.split_once("Referenced by").unwrap().1;
    insta::assert_snapshot!(format!("Referenced by{block}"));
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["describe", "svc/auth", "-o", "json"])).unwrap();
    assert_eq!(
        json["referencedBy"],
        serde_json::json!([{
            "policy": {"group": "gateway.envoyproxy.io", "kind": "SecurityPolicy", "namespace": "app", "name": "ext"},
            "path": "/spec/extAuth/http/backendRef",
            "status": "Overridden",
            "withoutIt": "Invalid"
        }])
    );
    // A Gateway no policy names has no such part.
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["describe", "gateway/gw", "-o", "json"])).unwrap();
    assert!(json.get("referencedBy").is_none());
}

#[test]
fn blast_radius_of_a_secret_makes_its_dependents_invalid() {
    insta::assert_snapshot!(stdout(&["blast-radius", "secret/htpasswd"]));
    insta::assert_snapshot!(stdout(&["blast-radius", "secret/htpasswd", "-o", "json"]));
    let (code, _, _) = run(&["blast-radius", "secret/htpasswd", "--exit-code"]);
    assert_eq!(code, Some(3));
}

#[test]
fn blast_radius_of_a_service_and_of_an_unnamed_secret() {
    insta::assert_snapshot!(stdout(&["blast-radius", "service/auth"]));
    let (code, out, _) = run(&["blast-radius", "secret/spare", "--exit-code"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        out.trim_end(),
        "Deleting Secret app/spare changes nothing: no policy names it"
    );
    let (code, out, _) = run(&["blast-radius", "secret/gone", "--exit-code"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("not in the input"), "{out}");
    let (code, _, err) = run(&["blast-radius", "secret/nothing-names-me"]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("secrets \"nothing-names-me\" not found"),
        "{err}"
    );
}

#[test]
fn blast_radius_apply_reports_the_dangling_reference_a_new_policy_leaves() {
    let (code, out, _) = run(&["blast-radius", "--apply", "new.yaml", "--exit-code"]);
    assert_eq!(code, Some(3));
    insta::assert_snapshot!(out);
}

#[test]
fn effective_of_a_secret_says_it_is_no_object_of_the_hierarchy() {
    let (code, _, err) = run(&["effective", "secret/htpasswd"]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains(
            "effective starts at an object of the hierarchy, and secret/app/htpasswd is none"
        ),
        "{err}"
    );
}
