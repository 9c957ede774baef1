//! Secrets and ConfigMaps live: read as metadata only (`PartialObjectMetadataList`),
//! only in the namespaces policies name them, a 403 on them a blind spot that leaves the
//! verdict, and no secret value in any output or error.

use super::{only_gets, User};
use crate::fake_apiserver::{Access, FakeApi, Server};

/// Planted in the Secret's and the ConfigMap's data and in `kubectl apply`'s
/// annotation: it must never reach an output.
pub const PLANTED: &str = "hunter2-planted-secret-value";

/// A SecurityPolicy naming a Secret of users, a BackendTLSPolicy naming a ConfigMap of
/// CA certificates, both in `app`; a Secret nobody names in `vault`. `secret`: whether
/// the Secret named exists.
pub fn cluster(secret: bool) -> String {
    let planted = format!(
        "{{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"data\":{{\".htpasswd\":\"{PLANTED}\"}}}}"
    );
    let named = format!(
        "---
apiVersion: v1
kind: Secret
metadata:
  name: htpasswd
  namespace: app
  annotations: {{kubectl.kubernetes.io/last-applied-configuration: '{planted}', note: '{PLANTED}'}}
type: Opaque
data: {{.htpasswd: {PLANTED}}}
stringData: {{password: {PLANTED}}}
"
    );
    format!(
        "apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {{name: eg}}
spec: {{controllerName: gateway.envoyproxy.io/gatewayclass-controller}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{name: gw, namespace: app}}
spec: {{gatewayClassName: eg, listeners: [{{name: http, port: 80, protocol: HTTP}}]}}
---
apiVersion: v1
kind: Service
metadata: {{name: web, namespace: app}}
spec: {{ports: [{{name: https, port: 443}}]}}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {{name: users, namespace: app}}
spec:
  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]
  basicAuth: {{users: {{name: htpasswd}}}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {{name: web-tls, namespace: app}}
spec:
  targetRefs: [{{group: '', kind: Service, name: web}}]
  validation:
    hostname: web.example.com
    caCertificateRefs: [{{group: '', kind: ConfigMap, name: ca}}]
---
apiVersion: v1
kind: ConfigMap
metadata: {{name: ca, namespace: app}}
data: {{ca.crt: {PLANTED}}}
---
apiVersion: v1
kind: Secret
metadata: {{name: unrelated, namespace: vault}}
data: {{token: {PLANTED}}}
{}",
        if secret { named.as_str() } else { "" }
    )
}

/// The server of `cluster`, serving Secrets and ConfigMaps whatever it holds.
pub fn server(secret: bool, api: impl FnOnce(FakeApi) -> FakeApi) -> Server {
    let fake = FakeApi::from_yaml(&cluster(secret))
        .serve("v1", "Secret", true)
        .serve("v1", "ConfigMap", true);
    api(fake).start()
}

/// The STATUS `get -A` gives the policy `name`.
pub fn status(table: &str, name: &str) -> String {
    let line = table
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(name))
        .unwrap_or_else(|| panic!("no row for {name}: {table}"));
    line.split_whitespace().nth(5).unwrap().to_string()
}

/// Every request for Secrets or ConfigMaps asked for metadata only, none for the
/// Secrets of a namespace no policy names, none cluster-wide.
pub fn only_metadata_where_named(server: &Server) {
    only_metadata_where_named_or(server, &["app"]);
}

/// `only_metadata_where_named`, policies naming them in `namespaces`.
pub fn only_metadata_where_named_or(server: &Server, namespaces: &[&str]) {
    let requests = server.requests();
    let of = |plural: &str| -> Vec<_> {
        requests
            .iter()
            .filter(|r| r.target.contains(&format!("/{plural}")))
            .collect()
    };
    for plural in ["secrets", "configmaps"] {
        let asked = of(plural);
        assert!(!asked.is_empty(), "no {plural} read at all");
        for r in asked {
            assert!(
                r.accept.contains("as=PartialObjectMetadata"),
                "{} asked for data: {}",
                r.target,
                r.accept
            );
            let named = namespaces.iter().any(|ns| {
                r.target
                    .starts_with(&format!("/api/v1/namespaces/{ns}/{plural}"))
            });
            assert!(
                named,
                "{plural} read where no policy names them: {}",
                r.target
            );
        }
    }
}

#[test]
fn secrets_and_configmaps_are_read_as_metadata_and_no_secret_value_reaches_any_output() {
    let server = server(true, |api| api);
    let user = User::new(&server.kubeconfig("admin", Some("app")));
    let table = user.ok(&["get", "-A"]);
    assert_eq!(status(&table, "users"), "Enforced", "{table}");
    let commands: &[&[&str]] = &[
        &["get", "-A"],
        &["get", "-A", "-o", "wide"],
        &["get", "-A", "-o", "json"],
        &["get", "-A", "-o", "yaml"],
        &["get", "-A", "-o", "name"],
        &["get", "-A", "-o", "jsonpath={..}"],
        &[
            "get",
            "-A",
            "-o",
            "custom-columns=NAME:.metadata.name,ALL:.",
        ],
        &["describe", "securitypolicy/users"],
        &["describe", "securitypolicy/users", "-o", "json"],
        &["describe", "backendtlspolicy/web-tls", "-o", "yaml"],
        &["effective", "gateway/gw", "-o", "json"],
        &["tree", "-A"],
        &["graph", "-A"],
        &["check", "-A", "-o", "json"],
        &["blast-radius", "securitypolicy/users", "-o", "json"],
        &["dump", "-A"],
        &["dump", "-A", "-o", "json"],
        &["dump"],
    ];
    for args in commands {
        let (_, out, err) = user.run(args);
        assert!(
            !out.contains(PLANTED) && !err.contains(PLANTED),
            "{args:?} printed the secret value:\n{out}\n{err}"
        );
    }
    // describe of the Secret itself names its dependents, never a value.
    for format in ["human", "json", "yaml"] {
        let args: &[&str] = match format {
            "human" => &["describe", "secret/htpasswd", "-n", "app"],
            other => &["describe", "secret/htpasswd", "-n", "app", "-o", other],
        };
        let (code, out, err) = user.run(args);
        assert_eq!(code, 0, "{err}");
        assert!(
            !out.contains(PLANTED) && !err.contains(PLANTED),
            "{out}\n{err}"
        );
    }
    // An error names what it could not find, never a value.
    let (code, out, err) = user.run(&["describe", "secret/htpasswdd", "-n", "app"]);
    assert_ne!(code, 0);
    assert!(!out.contains(PLANTED) && !err.contains(PLANTED), "{err}");
    let dump = user.ok(&["dump", "-A"]);
    assert!(
        dump.contains("name: htpasswd"),
        "the Secret is dumped, metadata only: {dump}"
    );
    only_metadata_where_named(&server);
    only_gets(&server);
}

#[test]
fn a_missing_secret_read_live_makes_the_policy_invalid_and_a_dump_judges_alike() {
    let server = server(false, |api| api);
    let user = User::new(&server.kubeconfig("admin", None));
    let table = user.ok(&["get", "-A"]);
    assert_eq!(status(&table, "users"), "Invalid", "{table}");
    assert_eq!(status(&table, "web-tls"), "Enforced", "{table}");
    // The dump records where its read listed Secrets: read back, the same verdict.
    let dump = user.ok(&["dump", "-A"]);
    let path = user.home.path().join("dump.yaml");
    std::fs::write(&path, &dump).unwrap();
    let from_dump = user.ok(&["-f", path.to_str().unwrap(), "get", "-A"]);
    assert_eq!(status(&from_dump, "users"), "Invalid", "{from_dump}");
    only_metadata_where_named(&server);
    only_gets(&server);
}

#[test]
fn a_403_on_secrets_and_on_configmaps_is_a_blind_spot_and_the_verdict_stands() {
    let server = server(false, |api| {
        api.permit(|a| a.resource != "secrets" && a.resource != "configmaps")
    });
    let user = User::new(&server.kubeconfig("admin", None));
    let (code, table, err) = user.run(&["get", "-A"]);
    assert_eq!(code, 0, "{err}");
    // The Secret is missing, but the user may not list Secrets: not known missing.
    assert_eq!(status(&table, "users"), "Enforced", "{table}");
    assert_eq!(status(&table, "web-tls"), "Enforced", "{table}");
    for plural in ["secrets", "configmaps"] {
        let said = format!("cannot list {plural} in namespace app: forbidden");
        assert_eq!(err.matches(&said).count(), 1, "{err}");
    }
    assert!(
        err.contains("cannot check 1 reference to secret in namespace app"),
        "{err}"
    );
    assert!(
        err.contains("cannot check 1 reference to configmap in namespace app"),
        "{err}"
    );
    let (_, json, _) = user.run(&["get", "-A", "-o", "json"]);
    assert!(json.contains("\"reason\": \"Forbidden\""), "{json}");
    only_metadata_where_named(&server);
    only_gets(&server);
}

/// A scoped read follows what its policies name into namespaces it would not read: the
/// Service an ext-auth reference names there, with that namespace's ReferenceGrants
/// (which let the policy refer in); nothing of a namespace nobody names.
#[test]
fn a_scoped_read_lists_a_named_service_and_its_grants_in_another_namespace() {
    let yaml = format!(
        "{}---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {{name: ext, namespace: app}}
spec:
  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]
  extAuth: {{http: {{backendRef: {{name: authz, namespace: auth, port: 8080}}}}}}
---
apiVersion: v1
kind: Service
metadata: {{name: authz, namespace: auth}}
spec: {{ports: [{{name: http, port: 8080}}]}}
---
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {{name: let-app-in, namespace: auth}}
spec:
  from: [{{group: gateway.envoyproxy.io, kind: SecurityPolicy, namespace: app}}]
  to: [{{group: '', kind: Service}}]
",
        cluster(true)
    );
    let server = FakeApi::from_yaml(&yaml).start();
    let user = User::new(&server.kubeconfig("admin", Some("app")));
    // `dump` of one namespace reads it and what its objects need, no more; read back,
    // it judges as its read did.
    let judged = || {
        let dump = user.ok(&["dump"]);
        let path = user.home.path().join("dump.yaml");
        std::fs::write(&path, &dump).unwrap();
        let file = path.to_str().unwrap();
        user.ok(&["-f", file, "describe", "securitypolicy/ext", "-n", "app"])
    };
    let page = judged();
    assert!(page.contains("Status:       Enforced"), "{page}");
    let targets = server.targets();
    for wanted in [
        "/api/v1/namespaces/auth/services?",
        "/apis/gateway.networking.k8s.io/v1beta1/namespaces/auth/referencegrants?",
    ] {
        assert!(
            targets.iter().any(|t| t.starts_with(wanted)),
            "{wanted}: {targets:#?}"
        );
    }
    assert!(
        !targets
            .iter()
            .any(|t| t.contains("/namespaces/vault/") || t.contains("/api/v1/services")),
        "{targets:#?}"
    );
    // Without the grant, the policy is refused (RefNotPermitted): the grant was read.
    server.delete(
        "gateway.networking.k8s.io/v1beta1",
        "ReferenceGrant",
        Some("auth"),
        "let-app-in",
    );
    let page = judged();
    assert!(page.contains("Status:       Invalid"), "{page}");
    assert!(page.contains("RefNotPermitted"), "{page}");
    only_metadata_where_named(&server);
    only_gets(&server);
}

/// A SecurityPolicy in `app` whose ext-auth Service is in `auth`, a ReferenceGrant there
/// letting it in; a SecurityPolicy in `elsewhere` no grant lets in.
fn ext_auth_across_namespaces() -> String {
    format!(
        "{}---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {{name: ext, namespace: app}}
spec:
  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]
  extAuth: {{http: {{backendRef: {{name: authz, namespace: auth, port: 8080}}}}}}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {{name: stray, namespace: elsewhere}}
spec:
  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]
  extAuth: {{http: {{backendRef: {{name: authz, namespace: auth, port: 8080}}}}}}
---
apiVersion: v1
kind: Service
metadata: {{name: authz, namespace: auth}}
spec: {{ports: [{{name: http, port: 8080}}]}}
---
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {{name: let-app-in, namespace: auth}}
spec:
  from: [{{group: gateway.envoyproxy.io, kind: SecurityPolicy, namespace: app}}]
  to: [{{group: '', kind: Service}}]
",
        cluster(true)
    )
}

/// `describe svc/NAME` live, by a user who may list policies per namespace only
/// (RBAC bound per namespace: the cluster-wide list is refused), reads the policies of
/// the namespaces a ReferenceGrant there lets refer to it, so its `referencedBy` names
/// them as the whole input does; a namespace no grant lets in is not read.
#[test]
fn describe_of_a_service_reads_the_policies_a_reference_grant_lets_name_it() {
    let yaml = ext_auth_across_namespaces();
    let server = FakeApi::from_yaml(&yaml)
        .permit(|a: &Access| a.namespace.is_some() || !a.resource.starts_with("securitypolicies."))
        .start();
    let user = User::new(&server.kubeconfig("admin", Some("auth")));
    let (code, json, err) = user.run(&["describe", "svc/authz", "-o", "json"]);
    assert_eq!(code, 0, "{err}");
    // The refused cluster-wide list is said; `app` was read for the grant.
    assert!(err.contains("read in namespaces app, auth only"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let referrers = |v: &serde_json::Value| -> Vec<String> {
        v["referencedBy"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|d| format!("{}/{}", d["policy"]["namespace"], d["policy"]["name"]))
            .collect()
    };
    assert_eq!(referrers(&v), vec![r#""app"/"ext""#.to_string()], "{json}");
    let targets = server.targets();
    assert!(
        targets.iter().any(|t| t
            .starts_with("/apis/gateway.envoyproxy.io/v1alpha1/namespaces/app/securitypolicies?")),
        "{targets:#?}"
    );
    assert!(
        !targets.iter().any(|t| t.contains("/namespaces/elsewhere/")),
        "{targets:#?}"
    );
    // The whole input names the same (and the stray one, refused: RefNotPermitted).
    let path = user.home.path().join("all.yaml");
    std::fs::write(&path, &yaml).unwrap();
    let file = path.to_str().unwrap();
    let offline = user.ok(&[
        "-f",
        file,
        "describe",
        "svc/authz",
        "-n",
        "auth",
        "-o",
        "json",
    ]);
    let o: serde_json::Value = serde_json::from_str(&offline).unwrap();
    assert_eq!(
        referrers(&o),
        vec![
            r#""app"/"ext""#.to_string(),
            r#""elsewhere"/"stray""#.to_string()
        ],
        "{offline}"
    );
    assert_eq!(o["referencedBy"][0], v["referencedBy"][0], "{offline}");
    only_gets(&server);
}

/// A Consul GatewayPolicy in `app` naming the JWTProvider `provider`, and a JWTProvider
/// `okta` in namespace `consul`.
fn consul_jwt(provider: &str) -> String {
    format!(
        "apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {{name: consul}}
spec: {{controllerName: consul.hashicorp.com/gateway-controller}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{name: gw, namespace: app}}
spec: {{gatewayClassName: consul, listeners: [{{name: http, port: 80, protocol: HTTP}}]}}
---
apiVersion: consul.hashicorp.com/v1alpha1
kind: GatewayPolicy
metadata: {{name: gp, namespace: app}}
spec:
  targetRef: {{group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: http}}
  default: {{jwt: {{providers: [{{name: {provider}}}]}}}}
---
apiVersion: consul.hashicorp.com/v1alpha1
kind: JWTProvider
metadata: {{name: okta, namespace: consul}}
spec: {{issuer: https://okta.example}}
"
    )
}

/// A JWTProvider is looked up by name alone (Consul): a scoped live read lists
/// JWTProviders cluster-wide, so one in another namespace resolves and one missing
/// everywhere is judged missing, as the whole input judges it.
#[test]
fn a_jwt_provider_named_by_name_alone_is_listed_everywhere() {
    // Refused, the policy reaches nothing (`get` says Invalid).
    let reached = [("okta", "Enforced"), ("auth0", "none reach this object")];
    for (provider, status) in reached {
        let server = FakeApi::from_yaml(&consul_jwt(provider)).start();
        let user = User::new(&server.kubeconfig("admin", Some("app")));
        let (code, out, err) = user.run(&["describe", "gateway/gw"]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(status), "{provider}: {out}");
        assert!(!err.contains("cannot check"), "{provider}: {err}");
        let targets = server.targets();
        assert!(
            targets
                .iter()
                .any(|t| t.starts_with("/apis/consul.hashicorp.com/v1alpha1/jwtproviders?")),
            "{targets:#?}"
        );
        if provider == "auth0" {
            let (code, out, err) = user.run(&["get", "-A"]);
            assert_eq!(code, 0, "{err}");
            let row = out.lines().find(|l| l.contains("gp")).unwrap_or_default();
            assert!(row.contains("Invalid"), "{out}");
        }
        only_gets(&server);
    }
}
