//! What a policy depends on, as a user sees it: STATUS Invalid for a reference its
//! controller refuses it for, `describe`'s references, `check`'s finding, and the
//! references the input does not let the tool check, on stderr.

use crate::command::kp;

const INPUT: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec: {gatewayClassName: eg, listeners: [{name: http, port: 80, protocol: HTTP}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: other, namespace: app}
spec: {gatewayClassName: eg, listeners: [{name: http, port: 80, protocol: HTTP}]}
---
apiVersion: v1
kind: Service
metadata: {name: auth, namespace: app}
spec: {ports: [{name: http, port: 8080}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: auth-ok, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  extAuth: {http: {backendRef: {name: auth, port: 8080}}}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: auth-gone, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  extAuth: {http: {backendRef: {name: gone, port: 8080}}}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: users, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: other}]
  basicAuth: {users: {name: htpasswd}}
";

/// (exit code, stdout, stderr) of a run on `INPUT`.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input.yaml");
    std::fs::write(&path, INPUT).unwrap();
    let out = kp()
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

#[test]
fn get_says_invalid_for_a_missing_ext_auth_service_and_warns_of_the_unchecked_secret() {
    let (code, out, err) = run(&["get", "securitypolicies"]);
    assert_eq!(code, Some(0));
    let status = |name: &str| {
        let line = out.lines().find(|l| l.starts_with(name)).unwrap();
        line.split_whitespace().nth(4).unwrap().to_string()
    };
    assert_eq!(status("auth-ok"), "Enforced", "{out}");
    assert_eq!(status("auth-gone"), "Invalid", "{out}");
    // No Secret in the input: the one `users` names is not known missing.
    assert_eq!(status("users"), "Enforced", "{out}");
    assert!(
        err.contains("warning: cannot check 1 reference to secret in namespace app (first: /spec/basicAuth/users of securitypolicy.gateway.envoyproxy.io/app/users)"),
        "{err}"
    );
}

#[test]
fn describe_lists_a_policys_references_in_words_and_json() {
    let (code, page, _) = run(&["describe", "securitypolicy/auth-gone"]);
    assert_eq!(code, Some(0));
    assert!(
        page.contains("References:\n  /spec/extAuth/http/backendRef   "),
        "{page}"
    );
    assert!(page.contains("NotFound"), "{page}");
    let (_, json, _) = run(&["describe", "securitypolicy/auth-gone", "-o", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        json["references"],
        serde_json::json!([{
            "path": "/spec/extAuth/http/backendRef",
            "ref": {"group": "", "kind": "Service", "namespace": "app", "name": "gone", "sectionName": "8080"},
            "resolved": false,
            "reason": "NotFound"
        }])
    );
    let (_, json, _) = run(&["describe", "securitypolicy/users", "-o", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["references"][0]["reason"], "Unchecked");
    let spots = json["blindSpots"].as_array().unwrap();
    assert!(
        spots.iter().any(|s| s["reason"] == "Unchecked"),
        "{spots:?}"
    );
}

#[test]
fn check_finds_the_refused_policy_and_not_the_unchecked_one() {
    let (code, out, _) = run(&["check", "-o", "json"]);
    assert_eq!(code, Some(1));
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let findings = json["findings"].as_array().unwrap();
    let refused: Vec<_> = findings
        .iter()
        .filter(|f| f["object"]["name"] == "auth-gone")
        .collect();
    assert_eq!(refused.len(), 1, "{findings:?}");
    assert_eq!(refused[0]["severity"], "error");
    let message = refused[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("/spec/extAuth/http/backendRef: names service/app/gone#8080, which does not exist (NotFound)"),
        "{message}"
    );
    assert!(
        findings.iter().all(|f| f["object"]["name"] != "users"),
        "{findings:?}"
    );
}

#[test]
fn tree_draws_each_policys_references_under_it() {
    let (code, out, _) = run(&["tree"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("⇢ port 8080 of Service app/gone  /spec/extAuth/http/backendRef  NotFound"),
        "{out}"
    );
    insta::assert_snapshot!(out);
    let (_, json, _) = run(&["tree", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let refs: Vec<&serde_json::Value> = v
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|root| root["policies"].as_array().unwrap())
        .filter_map(|p| p.get("references"))
        .collect();
    assert_eq!(refs.len(), 3, "{json}");
}

#[test]
fn graph_draws_references_as_edges_of_their_own() {
    let (code, dot, _) = run(&["graph"]);
    assert_eq!(code, Some(0), "{dot}");
    insta::assert_snapshot!("graph_dot_references", dot);
    let (_, mermaid, _) = run(&["graph", "-o", "mermaid"]);
    insta::assert_snapshot!("graph_mermaid_references", mermaid);
    // The Service drawn is the reference's end, no node of its own; the missing one
    // and the Secret get one each.
    assert_eq!(
        dot.matches("\"service/app/auth\" [label=").count(),
        1,
        "{dot}"
    );
    assert!(
        dot.contains("\"service/app/gone\" [label=\"Service\\ngone\", shape=box, style=\"dashed\""),
        "{dot}"
    );
    assert_eq!(dot.matches("arrowhead=onormal").count(), 3, "{dot}");
    assert_eq!(mermaid.matches(" --o|").count(), 3, "{mermaid}");
}
