//! The references of agentgateway's, kgateway's, Envoy AI Gateway's and Linkerd's
//! kinds, each judged as its vendor's controller treats one that does not resolve:
//! refused whole, a setting or an entry left out, the policy's targets left out of
//! the data plane, or a name its controller never looks up.

use crate::common::*;
use kubectl_policies::effective::PolicyStatus;
use kubectl_policies::model::ObjRef;
use kubectl_policies::query::dependents::{describe_dependency, Without};
use kubectl_policies::query::World;
use kubectl_policies::topology::{Code, RefReason, Severity};

/// A Gateway, a Service `auth` and a Secret `present` in namespace `app`: Secrets and
/// Services are in the input, so one that is not there is missing, not unchecked.
const BASE: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: agw
  listeners: [{name: http, port: 80, protocol: HTTP}]
---
apiVersion: v1
kind: Service
metadata: {name: auth, namespace: app}
spec: {ports: [{name: grpc, port: 9000}]}
---
apiVersion: v1
kind: Secret
metadata: {name: present, namespace: app}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: ca, namespace: app}
"#;

fn codes(w: &World, name: &str) -> Vec<Code> {
    findings(w, name).into_iter().map(|(c, _, _)| c).collect()
}

fn with(policy: &str) -> String {
    format!("{BASE}---\n{policy}")
}

fn agentgateway(spec: &str) -> String {
    with(&format!(
        "apiVersion: agentgateway.dev/v1alpha1\nkind: AgentgatewayPolicy\nmetadata: {{name: agp, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]\n{spec}"
    ))
}

#[test]
fn agentgateway_basic_auth_secret_resolves_when_it_exists() {
    let w = world(&agentgateway(
        "  traffic: {basicAuthentication: {secretRef: {name: present}}}\n",
    ));
    assert_eq!(
        references(&w, "agp"),
        one("/spec/traffic/basicAuthentication/secretRef", None)
    );
    assert!(codes(&w, "agp").is_empty(), "{:?}", findings(&w, "agp"));
}

#[test]
fn agentgateway_keeps_basic_auth_without_its_secret_and_warns() {
    // processBasicAuthenticationPolicy: "basic authentication secret ... not found",
    // the setting kept with no users: PartiallyValid.
    let w = world(&agentgateway(
        "  traffic: {basicAuthentication: {secretRef: {name: gone}}}\n",
    ));
    assert_eq!(
        references(&w, "agp"),
        one(
            "/spec/traffic/basicAuthentication/secretRef",
            Some(RefReason::NotFound)
        )
    );
    assert_ne!(status(&w, "agp"), PolicyStatus::Invalid);
    assert_eq!(codes(&w, "agp"), [Code::UnresolvedReference]);
}

#[test]
fn agentgateway_backend_auth_without_its_secret_is_invalid_when_it_is_the_only_setting() {
    // translateBackendAuth: no auth policy; nothing else translates: Invalid.
    let w = world(&agentgateway(
        "  backend: {auth: {secretRef: {name: gone}}}\n",
    ));
    assert_eq!(status(&w, "agp"), PolicyStatus::Invalid);
    let (code, severity, message) = findings(&w, "agp").remove(0);
    assert_eq!((code, severity), (Code::Invalid, Severity::Error));
    assert!(
        message.contains("/spec/backend/auth/secretRef"),
        "{message}"
    );
    assert!(message.contains("sets nothing else"), "{message}");
}

#[test]
fn agentgateway_backend_auth_without_its_secret_is_a_warning_beside_another_setting() {
    // The backend HTTP setting still translates: PartiallyValid.
    let w = world(&agentgateway(
        "  backend:\n    auth: {secretRef: {name: gone}}\n    http: {version: HTTP2}\n",
    ));
    assert_ne!(status(&w, "agp"), PolicyStatus::Invalid);
    let (code, severity, message) = findings(&w, "agp").remove(0);
    assert_eq!(
        (code, severity),
        (Code::UnresolvedReference, Severity::Warning)
    );
    assert!(message.contains("leaves that setting out"), "{message}");
}

#[test]
fn agentgateway_backend_auth_and_tracing_both_missing_leave_nothing() {
    // Two settings, each left out: nothing translates.
    let w = world(&agentgateway(
        "  frontend: {tracing: {backendRef: {name: otel, port: 4317}}}\n  backend: {auth: {aws: {secretRef: {name: gone}}}}\n",
    ));
    assert_eq!(status(&w, "agp"), PolicyStatus::Invalid);
    assert_eq!(
        references(&w, "agp"),
        [
            (
                "/spec/backend/auth/aws/secretRef".to_string(),
                Some(RefReason::NotFound)
            ),
            (
                "/spec/frontend/tracing/backendRef".to_string(),
                Some(RefReason::NotFound)
            ),
        ]
    );
}

#[test]
fn agentgateway_backend_tls_skips_a_missing_ca_and_keeps_the_rest() {
    let w = world(&agentgateway(
        "  backend:\n    tls:\n      caCertificateRefs: [{name: ca}, {name: gone}]\n      mtlsCertificateRef: [{name: present}]\n",
    ));
    assert_eq!(
        references(&w, "agp"),
        [
            ("/spec/backend/tls/mtlsCertificateRef/0".to_string(), None),
            ("/spec/backend/tls/caCertificateRefs/0".to_string(), None),
            (
                "/spec/backend/tls/caCertificateRefs/1".to_string(),
                Some(RefReason::NotFound)
            ),
        ]
    );
    assert_ne!(status(&w, "agp"), PolicyStatus::Invalid);
    assert_eq!(codes(&w, "agp"), [Code::UnresolvedReference]);
}

#[test]
fn agentgateway_skips_a_jwt_provider_whose_jwks_service_is_missing() {
    let w = world(&agentgateway(
        "  traffic:\n    jwtAuthentication:\n      providers:\n      - issuer: a\n        jwks: {remote: {jwksPath: /keys, backendRef: {name: auth, port: 9000}}}\n      - issuer: b\n        jwks: {remote: {jwksPath: /keys, backendRef: {name: gone, port: 443}}}\n",
    ));
    assert_eq!(
        references(&w, "agp"),
        [
            (
                "/spec/traffic/jwtAuthentication/providers/0/jwks/remote/backendRef".to_string(),
                None
            ),
            (
                "/spec/traffic/jwtAuthentication/providers/1/jwks/remote/backendRef".to_string(),
                Some(RefReason::NotFound)
            ),
        ]
    );
    // processJWTAuthenticationPolicy skips that provider and keeps the setting.
    assert_ne!(status(&w, "agp"), PolicyStatus::Invalid);
    assert_eq!(codes(&w, "agp"), [Code::UnresolvedReference]);
}

#[test]
fn without_a_secret_an_agentgateway_setting_drops_or_the_policy_goes() {
    let input = format!(
        "{}---\napiVersion: agentgateway.dev/v1alpha1\nkind: AgentgatewayPolicy\nmetadata: {{name: alone, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]\n  backend: {{auth: {{secretRef: {{name: present}}}}}}\n",
        agentgateway("  backend:\n    auth: {secretRef: {name: present}}\n    http: {version: HTTP2}\n")
    );
    let w = world(&input);
    let secret = ObjRef::new("", "Secret", Some("app"), "present");
    let by: Vec<(String, Without)> = describe_dependency(&w, &secret)
        .referenced_by
        .iter()
        .map(|d| (d.policy.name.to_string(), d.without))
        .collect();
    assert_eq!(
        by,
        [
            ("agp".to_string(), Without::SettingDropped),
            ("alone".to_string(), Without::Invalid),
        ]
    );
}

fn kgateway(policy: &str) -> String {
    with(&format!(
        "apiVersion: gateway.kgateway.dev/v1alpha1\n{policy}"
    ))
}

#[test]
fn kgateway_backend_config_policy_tls_secret() {
    let policy = |name: &str| {
        kgateway(&format!(
            "kind: BackendConfigPolicy\nmetadata: {{name: bcp, namespace: app}}\nspec:\n  targetRefs: [{{group: '', kind: Service, name: auth}}]\n  tls: {{secretRef: {{name: {name}}}}}\n"
        ))
    };
    let w = world(&policy("present"));
    assert_eq!(references(&w, "bcp"), one("/spec/tls/secretRef", None));
    assert_eq!(status(&w, "bcp"), PolicyStatus::Enforced);
    let w = world(&policy("gone"));
    assert_eq!(status(&w, "bcp"), PolicyStatus::Invalid);
    assert_eq!(codes(&w, "bcp"), [Code::Invalid]);
}

#[test]
fn kgateway_listener_policy_access_log_service() {
    let policy = |backend_ref: &str| {
        kgateway(&format!(
            "kind: ListenerPolicy\nmetadata: {{name: lp, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]\n  default:\n    httpSettings:\n      accessLog:\n      - fileSink: {{path: /dev/stdout, stringFormat: x}}\n      - grpcService: {{logName: l, backendRef: {backend_ref}}}\n"
        ))
    };
    let pointer = "/spec/default/httpSettings/accessLog/1/grpcService/backendRef".to_string();
    let w = world(&policy("{name: auth, port: 9000}"));
    assert_eq!(references(&w, "lp"), [(pointer.clone(), None)]);
    assert!(codes(&w, "lp").is_empty(), "{:?}", findings(&w, "lp"));
    let w = world(&policy("{name: gone, port: 9000}"));
    assert_eq!(
        references(&w, "lp"),
        [(pointer.clone(), Some(RefReason::NotFound))]
    );
    assert_eq!(status(&w, "lp"), PolicyStatus::Invalid);
    // Another namespace needs a ReferenceGrant (BackendIndex.GetBackendFromRef).
    let w = world(&policy("{name: auth, namespace: other, port: 9000}"));
    assert_eq!(
        references(&w, "lp"),
        [(pointer, Some(RefReason::RefNotPermitted))]
    );
    assert_eq!(status(&w, "lp"), PolicyStatus::Invalid);
}

#[test]
fn kgateway_per_port_tracing_service_is_read_too() {
    let w = world(&kgateway(
        "kind: ListenerPolicy\nmetadata: {name: lp, namespace: app}\nspec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]\n  perPort:\n  - port: 80\n    listener:\n      httpSettings:\n        tracing: {provider: {openTelemetry: {grpcService: {backendRef: {name: gone, port: 4317}}}}}\n",
    ));
    assert_eq!(
        references(&w, "lp"),
        one("/spec/perPort/0/listener/httpSettings/tracing/provider/openTelemetry/grpcService/backendRef"
                , Some(RefReason::NotFound))
    );
    assert_eq!(status(&w, "lp"), PolicyStatus::Invalid);
}

#[test]
fn kgateway_listener_policy_client_ca_refused_only_when_none_resolves() {
    // translateTLSConfig: each CA that resolves is kept, one that does not is left
    // out (the listener's ResolvedRefs=False); none resolving fails a Require listener.
    let policy = |refs: &str| {
        kgateway(&format!(
            "kind: ListenerPolicy\nmetadata: {{name: lp, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]\n  default:\n    clientCertificateValidation:\n      mode: Require\n      caCertificateRefs: {refs}\n"
        ))
    };
    let pointer =
        |i: usize| format!("/spec/default/clientCertificateValidation/caCertificateRefs/{i}");
    let w = world(&policy(
        "[{group: '', kind: ConfigMap, name: ca}, {group: '', kind: Secret, name: present}]",
    ));
    assert_eq!(
        references(&w, "lp"),
        [(pointer(0), None), (pointer(1), None)]
    );
    assert!(codes(&w, "lp").is_empty(), "{:?}", findings(&w, "lp"));
    assert_eq!(status(&w, "lp"), PolicyStatus::Enforced);
    let w = world(&policy(
        "[{group: '', kind: ConfigMap, name: ca}, {group: '', kind: ConfigMap, name: gone}]",
    ));
    assert_eq!(
        references(&w, "lp"),
        [(pointer(0), None), (pointer(1), Some(RefReason::NotFound))]
    );
    assert_ne!(status(&w, "lp"), PolicyStatus::Invalid);
    assert!(!codes(&w, "lp").is_empty());
    let w = world(&policy("[{group: '', kind: Secret, name: gone}]"));
    assert_eq!(
        references(&w, "lp"),
        [(pointer(0), Some(RefReason::NotFound))]
    );
    assert_eq!(status(&w, "lp"), PolicyStatus::Invalid);
}

/// A BackendSecurityPolicy on AIServiceBackend `llm` with `spec` besides its target.
fn ai_gateway(spec: &str) -> String {
    with(&format!(
        "apiVersion: aigateway.envoyproxy.io/v1beta1\nkind: AIServiceBackend\nmetadata: {{name: llm, namespace: app}}\nspec: {{schema: {{name: OpenAI}}, backendRef: {{name: auth, kind: Service, group: ''}}}}\n---\napiVersion: aigateway.envoyproxy.io/v1beta1\nkind: BackendSecurityPolicy\nmetadata: {{name: bsp, namespace: app}}\nspec:\n  targetRefs: [{{group: aigateway.envoyproxy.io, kind: AIServiceBackend, name: llm}}]\n{spec}"
    ))
}

#[test]
fn ai_gateway_api_key_secret_resolves_when_it_exists() {
    let w = world(&ai_gateway(
        "  type: APIKey\n  apiKey: {secretRef: {name: present}}\n",
    ));
    assert_eq!(references(&w, "bsp"), one("/spec/apiKey/secretRef", None));
    assert_eq!(status(&w, "bsp"), PolicyStatus::Enforced);
}

#[test]
fn ai_gateway_without_its_api_key_leaves_the_backend_out() {
    // bspToFilterAPIBackendAuth fails: "Skipping this backend"; the policy's status
    // stays Accepted, but it applies nowhere.
    let w = world(&ai_gateway(
        "  type: APIKey\n  apiKey: {secretRef: {name: gone}}\n",
    ));
    assert_eq!(status(&w, "bsp"), PolicyStatus::Invalid);
    let (code, severity, message) = findings(&w, "bsp").remove(0);
    assert_eq!((code, severity), (Code::Invalid, Severity::Error));
    assert!(
        message.contains("accepts the policy but leaves the objects it targets out"),
        "{message}"
    );
    let secret = ObjRef::new("", "Secret", Some("app"), "gone");
    let d = describe_dependency(&w, &secret);
    assert_eq!(d.referenced_by[0].without, Without::TargetsDropped);
}

#[test]
fn ai_gateway_without_its_azure_client_secret_refuses_the_policy() {
    // rotateCredential: LookupSecret fails, the status says NotAccepted.
    let w = world(&ai_gateway(
        "  type: AzureCredentials\n  azureCredentials: {clientID: c, tenantID: t, clientSecretRef: {name: gone}}\n",
    ));
    assert_eq!(status(&w, "bsp"), PolicyStatus::Invalid);
    let (_, _, message) = findings(&w, "bsp").remove(0);
    assert!(message.contains("refuses the policy"), "{message}");
}

/// A Linkerd AuthorizationPolicy on Server `web` requiring `refs`, with a
/// MeshTLSAuthentication `mtls` and a ServiceAccount `client` in the input.
fn linkerd(refs: &str) -> String {
    format!(
        r#"
apiVersion: policy.linkerd.io/v1beta3
kind: Server
metadata: {{name: web, namespace: app}}
spec: {{podSelector: {{matchLabels: {{app: web}}}}, port: 8080}}
---
apiVersion: policy.linkerd.io/v1alpha1
kind: MeshTLSAuthentication
metadata: {{name: mtls, namespace: app}}
spec: {{identities: ["*"]}}
---
apiVersion: v1
kind: ServiceAccount
metadata: {{name: client, namespace: app}}
---
apiVersion: policy.linkerd.io/v1alpha1
kind: AuthorizationPolicy
metadata: {{name: authz, namespace: app}}
spec:
  targetRef: {{group: policy.linkerd.io, kind: Server, name: web}}
  requiredAuthenticationRefs: {refs}
"#
    )
}

#[test]
fn linkerd_authentications_that_exist_resolve() {
    let w = world(&linkerd(
        "[{group: policy.linkerd.io, kind: MeshTLSAuthentication, name: mtls}, {kind: ServiceAccount, name: client}]",
    ));
    assert_eq!(
        references(&w, "authz"),
        [
            ("/spec/requiredAuthenticationRefs/0".to_string(), None),
            ("/spec/requiredAuthenticationRefs/1".to_string(), None),
        ]
    );
    assert!(codes(&w, "authz").is_empty(), "{:?}", findings(&w, "authz"));
}

#[test]
fn linkerd_ignores_an_authorization_policy_whose_authentication_is_missing() {
    // "Illegal AuthorizationPolicy; ignoring": it authorizes nothing.
    let w = world(&linkerd(
        "[{group: policy.linkerd.io, kind: MeshTLSAuthentication, name: gone}]",
    ));
    assert_eq!(
        references(&w, "authz"),
        one(
            "/spec/requiredAuthenticationRefs/0",
            Some(RefReason::NotFound)
        )
    );
    assert_eq!(status(&w, "authz"), PolicyStatus::Invalid);
}

#[test]
fn linkerd_never_reads_a_service_account_so_a_missing_one_is_a_warning() {
    let w = world(&linkerd("[{kind: ServiceAccount, name: gone}]"));
    assert_eq!(
        references(&w, "authz"),
        one(
            "/spec/requiredAuthenticationRefs/0",
            Some(RefReason::NotFound)
        )
    );
    assert_ne!(status(&w, "authz"), PolicyStatus::Invalid);
    let (code, severity, message) = findings(&w, "authz").remove(0);
    assert_eq!(
        (code, severity),
        (Code::UnresolvedReference, Severity::Warning)
    );
    assert!(message.contains("without reading the object"), "{message}");
    let sa = ObjRef::new("", "ServiceAccount", Some("app"), "gone");
    assert_eq!(
        describe_dependency(&w, &sa).referenced_by[0].without,
        Without::NotRead
    );
}

#[test]
fn linkerd_refuses_an_authentication_kind_it_does_not_know() {
    let w = world(&linkerd("[{kind: Pod, name: client}]"));
    assert_eq!(
        references(&w, "authz"),
        one(
            "/spec/requiredAuthenticationRefs/0",
            Some(RefReason::InvalidKind)
        )
    );
    assert_eq!(status(&w, "authz"), PolicyStatus::Invalid);
}

#[test]
fn kgateway_s_copy_of_agentgateway_policy_reads_the_same_references() {
    // kgateway 2.1's gateway.kgateway.dev AgentgatewayPolicy: the same translation.
    let policy = |secret: &str| {
        with(&format!(
            "apiVersion: gateway.kgateway.dev/v1alpha1\nkind: AgentgatewayPolicy\nmetadata: {{name: kagp, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]\n  backend: {{auth: {{secretRef: {{name: {secret}}}}}}}\n"
        ))
    };
    let w = world(&policy("present"));
    assert_eq!(
        references(&w, "kagp"),
        one("/spec/backend/auth/secretRef", None)
    );
    let w = world(&policy("gone"));
    assert_eq!(status(&w, "kagp"), PolicyStatus::Invalid);
}

#[test]
fn agentgateway_reads_a_jwks_service_in_another_namespace_without_a_grant() {
    // RefNamespaces::Any: agentgateway asks no ReferenceGrant for a JWKS backendRef.
    let policy = |name: &str| {
        agentgateway(&format!(
            "  traffic:\n    jwtAuthentication:\n      providers:\n      - issuer: a\n        jwks: {{remote: {{jwksPath: /keys, backendRef: {{name: {name}, namespace: auth, port: 9000}}}}}}\n"
        ))
    };
    let present = format!(
        "{}---\napiVersion: v1\nkind: Service\nmetadata: {{name: keys, namespace: auth}}\nspec: {{ports: [{{port: 9000}}]}}\n",
        policy("keys")
    );
    let w = world(&present);
    let pointer = "/spec/traffic/jwtAuthentication/providers/0/jwks/remote/backendRef";
    assert_eq!(references(&w, "agp"), one(pointer, None));
    assert!(codes(&w, "agp").is_empty(), "{:?}", findings(&w, "agp"));
    let keys = ObjRef::new("", "Service", Some("auth"), "keys");
    let by: Vec<String> = describe_dependency(&w, &keys)
        .referenced_by
        .iter()
        .map(|d| d.policy.name.to_string())
        .collect();
    assert_eq!(by, ["agp"]);
    let w = world(&format!(
        "{}---\napiVersion: v1\nkind: Service\nmetadata: {{name: other, namespace: auth}}\n",
        policy("gone")
    ));
    assert_eq!(
        references(&w, "agp"),
        one(pointer, Some(RefReason::NotFound))
    );
    assert_eq!(codes(&w, "agp"), [Code::UnresolvedReference]);
}

fn wasm_plugin(secret: &str) -> String {
    with(&format!(
        "apiVersion: extensions.istio.io/v1alpha1\nkind: WasmPlugin\nmetadata: {{name: wasm, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]\n  url: oci://registry.example/filter:1\n  imagePullSecret: {secret}\n"
    ))
}

#[test]
fn istio_wasm_plugin_pull_secret_is_a_bare_name_that_resolves_when_it_exists() {
    let w = world(&wasm_plugin("present"));
    assert_eq!(references(&w, "wasm"), one("/spec/imagePullSecret", None));
    assert!(codes(&w, "wasm").is_empty(), "{:?}", findings(&w, "wasm"));
}

#[test]
fn istio_sends_a_wasm_plugin_without_its_missing_pull_secret_and_warns() {
    // GeneratePullSecrets logs "Failed to fetch docker credential" and builds the
    // extension config without it: a warning, the plugin applied.
    let w = world(&wasm_plugin("gone"));
    assert_eq!(
        references(&w, "wasm"),
        one("/spec/imagePullSecret", Some(RefReason::NotFound))
    );
    assert_ne!(status(&w, "wasm"), PolicyStatus::Invalid);
    let (code, severity, message) = findings(&w, "wasm").remove(0);
    assert_eq!(
        (code, severity),
        (Code::UnresolvedReference, Severity::Warning)
    );
    assert!(message.contains("/spec/imagePullSecret"), "{message}");
}

#[test]
fn istio_traffic_extension_reads_its_wasm_pull_secret() {
    let policy = |secret: &str| {
        with(&format!(
            "apiVersion: extensions.istio.io/v1alpha1\nkind: TrafficExtension\nmetadata: {{name: ext, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]\n  wasm: {{url: oci://registry.example/filter:1, imagePullSecret: {secret}}}\n"
        ))
    };
    let pointer = "/spec/wasm/imagePullSecret".to_string();
    let w = world(&policy("present"));
    assert_eq!(references(&w, "ext"), [(pointer.clone(), None)]);
    let w = world(&policy("gone"));
    assert_eq!(
        references(&w, "ext"),
        [(pointer, Some(RefReason::NotFound))]
    );
    assert_eq!(codes(&w, "ext"), [Code::UnresolvedReference]);
}

/// A Consul GatewayPolicy in `app` whose default block names the JWTProvider `provider`,
/// and a JWTProvider `okta` in namespace `consul` (`None`: no JWTProvider at all).
fn consul(provider: &str, okta: bool) -> String {
    let okta = match okta {
        true => "---\napiVersion: consul.hashicorp.com/v1alpha1\nkind: JWTProvider\nmetadata: {name: okta, namespace: consul}\nspec: {issuer: https://okta.example}\n",
        false => "",
    };
    with(&format!(
        "apiVersion: consul.hashicorp.com/v1alpha1\nkind: GatewayPolicy\nmetadata: {{name: gp, namespace: app}}\nspec:\n  targetRef: {{group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: http}}\n  default: {{jwt: {{providers: [{{name: {provider}}}]}}}}\n{okta}"
    ))
}

#[test]
fn consul_finds_a_jwt_provider_by_name_in_any_namespace() {
    // GetJWTProviderForGatewayJWTProvider: keyed by kind and name, no namespace.
    let w = world(&consul("okta", true));
    let pointer = "/spec/default/jwt/providers/0".to_string();
    assert_eq!(references(&w, "gp"), [(pointer, None)]);
    assert!(codes(&w, "gp").is_empty(), "{:?}", findings(&w, "gp"));
    let okta = ObjRef::new(
        "consul.hashicorp.com",
        "JWTProvider",
        Some("consul"),
        "okta",
    );
    let by: Vec<String> = describe_dependency(&w, &okta)
        .referenced_by
        .iter()
        .map(|d| d.policy.name.to_string())
        .collect();
    assert_eq!(by, ["gp"]);
}

#[test]
fn consul_refuses_a_gateway_policy_whose_jwt_provider_is_missing() {
    // validateGatewayPolicies: errorForMissingJWTProviders, not Accepted.
    let w = world(&consul("auth0", true));
    assert_eq!(
        references(&w, "gp"),
        one("/spec/default/jwt/providers/0", Some(RefReason::NotFound))
    );
    assert_eq!(status(&w, "gp"), PolicyStatus::Invalid);
    // With no JWTProvider in the input, whether one exists is not known.
    let w = world(&consul("auth0", false));
    assert_eq!(
        references(&w, "gp"),
        one("/spec/default/jwt/providers/0", Some(RefReason::Unchecked))
    );
    assert_ne!(status(&w, "gp"), PolicyStatus::Invalid);
}

fn dns_policy(secret: &str) -> String {
    with(&format!(
        "apiVersion: kuadrant.io/v1\nkind: DNSPolicy\nmetadata: {{name: dns, namespace: app}}\nspec:\n  targetRef: {{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}\n  providerRefs: [{{name: {secret}}}]\n"
    ))
}

#[test]
fn kuadrant_dns_policy_provider_secret_resolves_when_it_exists() {
    let w = world(&dns_policy("present"));
    assert_eq!(references(&w, "dns"), one("/spec/providerRefs/0", None));
    assert!(codes(&w, "dns").is_empty(), "{:?}", findings(&w, "dns"));
    let secret = ObjRef::new("", "Secret", Some("app"), "present");
    let by: Vec<(String, Without)> = describe_dependency(&w, &secret)
        .referenced_by
        .iter()
        .map(|d| (d.policy.name.to_string(), d.without))
        .collect();
    assert_eq!(by, [("dns".to_string(), Without::NotEnforced)]);
}

#[test]
fn kuadrant_does_not_enforce_a_dns_policy_without_its_provider_secret() {
    // Accepted (the validator checks no Secret), but no DNSRecord can be published:
    // Enforced=False, "not a single DNSRecord is ready".
    let w = world(&dns_policy("gone"));
    assert_eq!(
        references(&w, "dns"),
        one("/spec/providerRefs/0", Some(RefReason::NotFound))
    );
    assert_eq!(status(&w, "dns"), PolicyStatus::Invalid);
    let (code, severity, message) = findings(&w, "dns").remove(0);
    assert_eq!((code, severity), (Code::Invalid, Severity::Error));
    assert!(message.contains("Enforced=False"), "{message}");
}

#[test]
fn agentgateway_prompt_guard_webhooks_resolve_and_a_missing_one_is_a_warning() {
    // processWebhook fails, translateBackendAI leaves those guards out and keeps the
    // AI setting: PartiallyValid.
    let policy = |name: &str| {
        agentgateway(&format!(
            "  backend:\n    ai:\n      promptGuard:\n        request:\n        - webhook: {{backendRef: {{name: auth, port: 9000}}}}\n        response:\n        - webhook: {{backendRef: {{name: {name}, port: 9000}}}}\n"
        ))
    };
    let request = "/spec/backend/ai/promptGuard/request/0/webhook/backendRef".to_string();
    let response = "/spec/backend/ai/promptGuard/response/0/webhook/backendRef".to_string();
    let w = world(&policy("auth"));
    assert_eq!(
        references(&w, "agp"),
        [(request.clone(), None), (response.clone(), None)]
    );
    assert!(codes(&w, "agp").is_empty(), "{:?}", findings(&w, "agp"));
    let w = world(&policy("gone"));
    assert_eq!(
        references(&w, "agp"),
        [(request, None), (response, Some(RefReason::NotFound))]
    );
    assert_ne!(status(&w, "agp"), PolicyStatus::Invalid);
    assert_eq!(codes(&w, "agp"), [Code::UnresolvedReference]);
}

#[test]
fn agentgateway_mcp_authentication_without_its_jwks_service_is_left_out() {
    // translateBackendMCPAuthentication: no policy when the JWKS backend does not
    // resolve; alone it leaves nothing, beside another setting it is a warning.
    let policy = |name: &str, more: &str| {
        agentgateway(&format!(
            "  backend:\n    mcp:\n      authentication:\n        issuer: https://idp\n        jwks: {{jwksPath: /keys, backendRef: {{name: {name}, port: 9000}}}}\n{more}"
        ))
    };
    let pointer = "/spec/backend/mcp/authentication/jwks/backendRef".to_string();
    let w = world(&policy("auth", ""));
    assert_eq!(references(&w, "agp"), [(pointer.clone(), None)]);
    assert!(codes(&w, "agp").is_empty(), "{:?}", findings(&w, "agp"));
    let w = world(&policy("gone", ""));
    assert_eq!(
        references(&w, "agp"),
        [(pointer, Some(RefReason::NotFound))]
    );
    assert_eq!(status(&w, "agp"), PolicyStatus::Invalid);
    let w = world(&policy("gone", "    http: {version: HTTP2}\n"));
    assert_ne!(status(&w, "agp"), PolicyStatus::Invalid);
    assert_eq!(codes(&w, "agp"), [Code::UnresolvedReference]);
}

#[test]
fn agentgateway_azure_auth_secret_resolves_or_the_backend_auth_is_left_out() {
    let policy = |name: &str| {
        agentgateway(&format!(
            "  backend:\n    auth: {{azure: {{secretRef: {{name: {name}}}}}}}\n"
        ))
    };
    let pointer = "/spec/backend/auth/azure/secretRef".to_string();
    let w = world(&policy("present"));
    assert_eq!(references(&w, "agp"), [(pointer.clone(), None)]);
    assert!(codes(&w, "agp").is_empty(), "{:?}", findings(&w, "agp"));
    // buildAzureClientSecret returns no auth: the only setting goes, Invalid.
    let w = world(&policy("gone"));
    assert_eq!(
        references(&w, "agp"),
        [(pointer, Some(RefReason::NotFound))]
    );
    assert_eq!(status(&w, "agp"), PolicyStatus::Invalid);
}
