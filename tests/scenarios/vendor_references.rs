//! The references of NGINX Gateway Fabric's, Gloo's, GKE's and Azure's policy kinds
//! (their registry `references`): what each vendor does when the object is missing, and
//! that one which exists resolves. Closed-source vendors whose documentation does not
//! say what a missing object does get a warning that says so, never Invalid.

use crate::common::*;
use kubectl_policies::effective::PolicyStatus;
use kubectl_policies::model::ObjRef;
use kubectl_policies::query::dependents::{describe_dependency, Without};
use kubectl_policies::query::World;
use kubectl_policies::topology::{Code, RefReason, Severity};

/// A Gateway and an HTTPRoute on it in namespace `app`, a Service `ext` with port 9000
/// and a Secret `present`.
const BASE: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: nginx
  listeners: [{name: http, port: 80, protocol: HTTP}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: app}
spec:
  parentRefs: [{name: gw}]
  rules: [{backendRefs: [{name: ext, port: 9000}]}]
---
apiVersion: v1
kind: Service
metadata: {name: ext, namespace: app}
spec: {ports: [{name: grpc, port: 9000}]}
---
apiVersion: v1
kind: Secret
metadata: {name: present, namespace: app}
"#;

/// `BASE` and the policy `policy` (a YAML document).
fn with(policy: &str) -> String {
    format!("{BASE}---\n{policy}")
}

/// Asserts the policy `name` is Invalid with one error naming `pointer`.
fn assert_refused(w: &World, name: &str, pointer: &str) {
    assert_eq!(status(w, name), PolicyStatus::Invalid);
    let f = findings(w, name);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!((f[0].0, f[0].1), (Code::Invalid, Severity::Error));
    assert!(f[0].2.contains(pointer), "{}", f[0].2);
}

/// Asserts the policy `name` is not refused, with one warning that its vendor does not
/// document the outcome.
fn assert_warned_undocumented(w: &World, name: &str, pointer: &str) {
    assert_ne!(status(w, name), PolicyStatus::Invalid);
    let f = findings(w, name);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(
        (f[0].0, f[0].1),
        (Code::UnresolvedReference, Severity::Warning)
    );
    assert!(
        f[0].2.contains(pointer) && f[0].2.contains("does not document"),
        "{}",
        f[0].2
    );
}

// NGINX Gateway Fabric WAFPolicy: a missing bundle-auth or CA Secret makes the policy
// invalid (graph/policies.go resolveBundleAuth, resolveTLSCA).

fn waf(secret: &str) -> String {
    with(&format!(
        "apiVersion: gateway.nginx.org/v1alpha1\nkind: WAFPolicy\nmetadata: {{name: waf, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]\n  type: NIM\n  policySource:\n    nimSource: {{url: 'https://nim.example', policyName: blocking}}\n    auth: {{secretRef: {{name: {secret}}}}}\n"
    ))
}

#[test]
fn an_ngf_waf_policy_whose_auth_secret_exists_resolves() {
    let w = world(&waf("present"));
    assert_eq!(
        references(&w, "waf"),
        one("/spec/policySource/auth/secretRef", None)
    );
    assert!(findings(&w, "waf").is_empty(), "{:?}", findings(&w, "waf"));
    assert_ne!(status(&w, "waf"), PolicyStatus::Invalid);
}

#[test]
fn an_ngf_waf_policy_whose_auth_secret_is_missing_is_invalid() {
    let w = world(&waf("gone"));
    assert_eq!(
        references(&w, "waf"),
        one(
            "/spec/policySource/auth/secretRef",
            Some(RefReason::NotFound)
        )
    );
    assert_refused(&w, "waf", "/spec/policySource/auth/secretRef");
}

#[test]
fn an_ngf_waf_policy_security_log_ca_secret_is_read_in_its_own_namespace() {
    let yaml = with(
        "apiVersion: gateway.nginx.org/v1alpha1\nkind: WAFPolicy\nmetadata: {name: waf, namespace: app}\nspec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]\n  securityLogs:\n  - destination: {type: stderr}\n    logSource: {url: 'https://logs.example/profile.tgz', tlsSecretRef: {name: present}}\n  - destination: {type: stderr}\n    logSource: {url: 'https://logs.example/other.tgz', tlsSecretRef: {name: absent}}\n",
    );
    let w = world(&yaml);
    assert_eq!(
        references(&w, "waf"),
        vec![
            (
                "/spec/securityLogs/0/logSource/tlsSecretRef".to_string(),
                None
            ),
            (
                "/spec/securityLogs/1/logSource/tlsSecretRef".to_string(),
                Some(RefReason::NotFound)
            ),
        ]
    );
    assert_refused(&w, "waf", "/spec/securityLogs/1/logSource/tlsSecretRef");
}

// NGINX Gateway Fabric PayloadProcessor: its ext-proc Service (with a port of its own,
// in the namespace it names, no ReferenceGrant asked) and its auth-token Secret; either
// missing makes the policy invalid (graph/payloadprocessor.go).

fn payload(backend_ref: &str, token: &str) -> String {
    with(&format!(
        "apiVersion: gateway.nginx.org/v1alpha1\nkind: PayloadProcessor\nmetadata: {{name: pp, namespace: app}}\nspec:\n  targetRef: {{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}}\n  processors:\n  - type: ExtProcess\n    extProcess: {{backendRef: {backend_ref}, authTokenRef: {{name: {token}}}}}\n"
    ))
}

const PP_BACKEND: &str = "/spec/processors/0/extProcess/backendRef";
const PP_TOKEN: &str = "/spec/processors/0/extProcess/authTokenRef";

#[test]
fn an_ngf_payload_processor_whose_service_port_and_token_exist_resolves() {
    let w = world(&payload(
        "{kind: Service, name: ext, port: 9000}",
        "present",
    ));
    assert_eq!(
        references(&w, "pp"),
        vec![(PP_BACKEND.to_string(), None), (PP_TOKEN.to_string(), None)]
    );
    assert!(findings(&w, "pp").is_empty(), "{:?}", findings(&w, "pp"));
}

#[test]
fn an_ngf_payload_processor_with_a_missing_service_port_or_token_is_invalid() {
    let w = world(&payload("{name: gone, port: 9000}", "present"));
    assert_eq!(references(&w, "pp")[0].1, Some(RefReason::NotFound));
    assert_refused(&w, "pp", PP_BACKEND);

    let w = world(&payload("{name: ext, port: 8080}", "present"));
    assert_eq!(references(&w, "pp")[0].1, Some(RefReason::PortNotFound));
    assert_refused(&w, "pp", PP_BACKEND);

    let w = world(&payload("{name: ext, port: 9000}", "absent"));
    assert_eq!(
        references(&w, "pp"),
        vec![
            (PP_BACKEND.to_string(), None),
            (PP_TOKEN.to_string(), Some(RefReason::NotFound))
        ]
    );
    assert_refused(&w, "pp", PP_TOKEN);
}

#[test]
fn an_ngf_payload_processor_service_in_another_namespace_needs_no_grant() {
    let other = "---\napiVersion: v1\nkind: Service\nmetadata: {name: guard, namespace: shared}\nspec: {ports: [{port: 443}]}\n";
    let yaml = [
        payload("{name: guard, namespace: shared, port: 443}", "present").as_str(),
        other,
    ]
    .concat();
    // Built without the oracles of `world`: narrowing does not follow a reference into
    // another namespace yet.
    let w = kubectl_policies::analyze_yaml(&yaml).unwrap();
    crate::sweep::answer_everything(&w);
    assert_eq!(references(&w, "pp")[0], (PP_BACKEND.to_string(), None));
    assert!(findings(&w, "pp").is_empty(), "{:?}", findings(&w, "pp"));
}

// Gloo RouteOption / VirtualHostOption / HttpListenerOption: Enterprise objects named by
// `{name, namespace}`; what a missing one does to the option is not documented.

const AUTH_CONFIG: &str = "---\napiVersion: enterprise.gloo.solo.io/v1\nkind: AuthConfig\nmetadata: {name: basic, namespace: app}\nspec: {configs: []}\n";

fn route_option(config: &str) -> String {
    [
        with(&format!(
            "apiVersion: gateway.solo.io/v1\nkind: RouteOption\nmetadata: {{name: ro, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}}]\n  options: {{extauth: {{configRef: {{name: {config}, namespace: app}}}}}}\n"
        ))
        .as_str(),
        AUTH_CONFIG,
    ]
    .concat()
}

const RO_POINTER: &str = "/spec/options/extauth/configRef";

#[test]
fn a_gloo_route_option_whose_auth_config_exists_resolves() {
    let w = world(&route_option("basic"));
    assert_eq!(references(&w, "ro"), one(RO_POINTER, None));
    assert!(findings(&w, "ro").is_empty(), "{:?}", findings(&w, "ro"));
}

#[test]
fn a_gloo_route_option_whose_auth_config_is_missing_is_warned_as_undocumented() {
    let w = world(&route_option("gone"));
    assert_eq!(
        references(&w, "ro"),
        one(RO_POINTER, Some(RefReason::NotFound))
    );
    assert_warned_undocumented(&w, "ro", RO_POINTER);
}

#[test]
fn a_gloo_http_listener_option_names_its_ext_auth_server_upstream() {
    let yaml = with(
        "apiVersion: gateway.solo.io/v1\nkind: HttpListenerOption\nmetadata: {name: hlo, namespace: app}\nspec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]\n  options: {extauth: {extauthzServerRef: {name: extauth, namespace: app}}}\n---\napiVersion: gloo.solo.io/v1\nkind: Upstream\nmetadata: {name: other, namespace: app}\nspec: {}\n",
    );
    let w = world(&yaml);
    let pointer = "/spec/options/extauth/extauthzServerRef";
    assert_eq!(
        references(&w, "hlo"),
        one(pointer, Some(RefReason::NotFound))
    );
    assert_warned_undocumented(&w, "hlo", pointer);
    let w = world(&yaml.replace("name: other", "name: extauth"));
    assert_eq!(references(&w, "hlo"), one(pointer, None));
}

// GKE GCPBackendPolicy: the IAP OAuth client Secret, in the policy's namespace.

fn iap(secret: &str) -> String {
    with(&format!(
        "apiVersion: networking.gke.io/v1\nkind: GCPBackendPolicy\nmetadata: {{name: bp, namespace: app}}\nspec:\n  targetRef: {{group: '', kind: Service, name: ext}}\n  default: {{iap: {{enabled: true, clientID: id, oauth2ClientSecret: {{name: {secret}}}}}}}\n"
    ))
}

const IAP: &str = "/spec/default/iap/oauth2ClientSecret";

#[test]
fn a_gke_backend_policy_iap_secret_that_exists_resolves() {
    let w = world(&iap("present"));
    assert_eq!(references(&w, "bp"), one(IAP, None));
    assert!(findings(&w, "bp").is_empty(), "{:?}", findings(&w, "bp"));
}

#[test]
fn a_gke_backend_policy_whose_iap_secret_is_missing_is_warned_not_refused() {
    let w = world(&iap("gone"));
    assert_eq!(references(&w, "bp"), one(IAP, Some(RefReason::NotFound)));
    assert_warned_undocumented(&w, "bp", IAP);
}

#[test]
fn a_gke_traffic_extension_names_its_callout_services() {
    let yaml = with(
        "apiVersion: networking.gke.io/v1\nkind: GCPTrafficExtension\nmetadata: {name: te, namespace: app}\nspec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]\n  extensionChains:\n  - name: chain\n    matchCondition: {celExpressions: [{celMatcher: 'true'}]}\n    extensions:\n    - {name: a, supportedEvents: [RequestHeaders], backendRef: {group: '', kind: Service, name: ext, port: 9000}}\n    - {name: b, supportedEvents: [RequestHeaders], backendRef: {group: '', kind: Service, name: callout, port: 443}}\n",
    );
    let w = world(&yaml);
    let pointer = "/spec/extensionChains/0/extensions/1/backendRef";
    assert_eq!(
        references(&w, "te"),
        vec![
            (
                "/spec/extensionChains/0/extensions/0/backendRef".to_string(),
                None
            ),
            (pointer.to_string(), Some(RefReason::NotFound)),
        ]
    );
    assert_warned_undocumented(&w, "te", pointer);
}

// Azure Application Gateway for Containers: the certificate Secrets of BackendTLSPolicy
// and FrontendTLSPolicy.

fn azure_backend_tls(client: &str, ca: &str) -> String {
    with(&format!(
        "apiVersion: alb.networking.azure.io/v1\nkind: BackendTLSPolicy\nmetadata: {{name: mtls, namespace: app}}\nspec:\n  targetRef: {{group: '', kind: Service, name: ext, namespace: app}}\n  default:\n    sni: ext.example.com\n    ports: [{{port: 9000}}]\n    clientCertificateRef: {{group: '', kind: Secret, name: {client}}}\n    verify: {{caCertificateRef: {{group: '', kind: Secret, name: {ca}}}, subjectAltName: ext.example.com}}\n"
    ))
}

#[test]
fn an_azure_backend_tls_policy_whose_secrets_exist_resolves() {
    let w = world(&azure_backend_tls("present", "present"));
    assert_eq!(
        references(&w, "mtls"),
        vec![
            ("/spec/default/clientCertificateRef".to_string(), None),
            ("/spec/default/verify/caCertificateRef".to_string(), None),
        ]
    );
    assert!(
        findings(&w, "mtls").is_empty(),
        "{:?}",
        findings(&w, "mtls")
    );
}

#[test]
fn an_azure_backend_tls_policy_whose_ca_secret_is_missing_is_warned_not_refused() {
    let w = world(&azure_backend_tls("present", "gone"));
    let pointer = "/spec/default/verify/caCertificateRef";
    assert_eq!(
        references(&w, "mtls")[1],
        (pointer.to_string(), Some(RefReason::NotFound))
    );
    assert_warned_undocumented(&w, "mtls", pointer);
}

#[test]
fn an_azure_frontend_tls_policy_names_its_client_ca_secret() {
    let yaml = with(
        "apiVersion: alb.networking.azure.io/v1\nkind: FrontendTLSPolicy\nmetadata: {name: ftls, namespace: app}\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw, namespace: app, sectionNames: [http]}\n  default: {verify: {caCertificateRef: {group: '', kind: Secret, name: ca-bundle, namespace: app}}}\n",
    );
    let pointer = "/spec/default/verify/caCertificateRef";
    let w = world(&yaml);
    assert_eq!(
        references(&w, "ftls"),
        one(pointer, Some(RefReason::NotFound))
    );
    assert_warned_undocumented(&w, "ftls", pointer);
    let w = world(&yaml.replace("name: ca-bundle", "name: present"));
    assert_eq!(references(&w, "ftls"), one(pointer, None));
}

#[test]
fn without_a_secret_whose_outcome_is_undocumented_the_policy_is_said_undocumented() {
    let w = world(&iap("present"));
    let secret = ObjRef::new("", "Secret", Some("app"), "present");
    let d = describe_dependency(&w, &secret);
    assert_eq!(d.referenced_by.len(), 1);
    assert_eq!(d.referenced_by[0].path, IAP);
    assert_eq!(d.referenced_by[0].without, Without::Undocumented);
    assert_eq!(Without::Undocumented.as_str(), "undocumented");
}

// Airlock AccessControlPolicy: its OIDC relying party and identity propagations, Airlock
// objects of its namespace; the closed-source controller's outcome is not documented.

fn access_control(relying_party: &str) -> String {
    with(&format!(
        "apiVersion: microgateway.airlock.com/v1alpha1\nkind: AccessControlPolicy\nmetadata: {{name: acp, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}}]\n  policies:\n  - authorization:\n      authentication: {{oidc: {{oidcRelyingPartyRef: {{name: {relying_party}}}}}}}\n    identityPropagation:\n      onFailure: Pass\n      actions: [{{identityPropagationRef: {{name: header}}}}]\n---\napiVersion: microgateway.airlock.com/v1alpha1\nkind: OIDCRelyingParty\nmetadata: {{name: idp, namespace: app}}\nspec: {{}}\n---\napiVersion: microgateway.airlock.com/v1alpha1\nkind: IdentityPropagation\nmetadata: {{name: header, namespace: app}}\nspec: {{}}\n"
    ))
}

#[test]
fn an_airlock_access_control_policy_names_its_relying_party_and_propagations() {
    let rp = "/spec/policies/0/authorization/authentication/oidc/oidcRelyingPartyRef";
    let ip = "/spec/policies/0/identityPropagation/actions/0/identityPropagationRef";
    let w = world(&access_control("idp"));
    assert_eq!(
        references(&w, "acp"),
        vec![(rp.to_string(), None), (ip.to_string(), None)]
    );
    assert!(findings(&w, "acp").is_empty(), "{:?}", findings(&w, "acp"));
    let w = world(&access_control("gone"));
    assert_eq!(
        references(&w, "acp")[0],
        (rp.to_string(), Some(RefReason::NotFound))
    );
    assert_warned_undocumented(&w, "acp", rp);
}

// Flomesh RouteRuleFilterPolicy: the gateway skips a Filter it cannot get and keeps
// the rule's others (toV2TCPRouteFilters), its status unchanged.

fn route_rule_filter(filter: &str) -> String {
    with(&format!(
        "apiVersion: gateway.networking.k8s.io/v1alpha2\nkind: TCPRoute\nmetadata: {{name: db, namespace: app}}\nspec:\n  parentRefs: [{{name: gw}}]\n  rules: [{{name: main, backendRefs: [{{name: ext, port: 9000}}]}}]\n---\napiVersion: extension.gateway.flomesh.io/v1alpha1\nkind: Filter\nmetadata: {{name: limit, namespace: app}}\nspec: {{type: RateLimit}}\n---\napiVersion: gateway.flomesh.io/v1alpha2\nkind: RouteRuleFilterPolicy\nmetadata: {{name: rrf, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: TCPRoute, name: db, rule: main}}]\n  filterRefs:\n  - {{group: extension.gateway.flomesh.io, kind: Filter, name: limit}}\n  - {{group: extension.gateway.flomesh.io, kind: Filter, name: {filter}}}\n"
    ))
}

#[test]
fn a_flomesh_route_rule_filter_policy_skips_a_missing_filter_with_a_warning() {
    let first = "/spec/filterRefs/0";
    let second = "/spec/filterRefs/1";
    let w = world(&route_rule_filter("limit"));
    assert_eq!(
        references(&w, "rrf"),
        vec![(first.to_string(), None), (second.to_string(), None)]
    );
    assert!(findings(&w, "rrf").is_empty(), "{:?}", findings(&w, "rrf"));
    let w = world(&route_rule_filter("gone"));
    assert_eq!(
        references(&w, "rrf"),
        vec![
            (first.to_string(), None),
            (second.to_string(), Some(RefReason::NotFound))
        ]
    );
    assert_ne!(status(&w, "rrf"), PolicyStatus::Invalid);
    let f = findings(&w, "rrf");
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(
        (f[0].0, f[0].1),
        (Code::UnresolvedReference, Severity::Warning)
    );
    assert!(f[0].2.contains(second), "{}", f[0].2);
}

// GKE GCPAuthzPolicy: a CUSTOM policy's authorization extensions, GCPAuthzExtensions of
// its namespace; GKE does not document what a missing one does.

fn authz(extension: &str) -> String {
    with(&format!(
        "apiVersion: networking.gke.io/v1\nkind: GCPAuthzPolicy\nmetadata: {{name: authz, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: Gateway, name: gw}}]\n  enforcementLevel: L7\n  action: CUSTOM\n  customProviders:\n    extensionRefs: [{{group: networking.gke.io, kind: GCPAuthzExtension, name: {extension}}}]\n---\napiVersion: networking.gke.io/v1\nkind: GCPAuthzExtension\nmetadata: {{name: ext, namespace: app}}\nspec: {{}}\n"
    ))
}

#[test]
fn a_gke_authz_policy_names_its_authz_extensions() {
    let pointer = "/spec/customProviders/extensionRefs/0";
    let w = world(&authz("ext"));
    assert_eq!(references(&w, "authz"), one(pointer, None));
    assert!(
        findings(&w, "authz").is_empty(),
        "{:?}",
        findings(&w, "authz")
    );
    let w = world(&authz("gone"));
    assert_eq!(
        references(&w, "authz"),
        one(pointer, Some(RefReason::NotFound))
    );
    assert_warned_undocumented(&w, "authz", pointer);
}

#[test]
fn an_airlock_access_control_policy_names_its_jwt() {
    let policy = |jwt: &str| {
        with(&format!(
            "apiVersion: microgateway.airlock.com/v1alpha1\nkind: AccessControlPolicy\nmetadata: {{name: acp, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}}]\n  policies:\n  - authorization:\n      authentication: {{jwt: {{jwtRef: {{name: {jwt}}}}}}}\n---\napiVersion: microgateway.airlock.com/v1alpha1\nkind: JWT\nmetadata: {{name: tokens, namespace: app}}\nspec: {{}}\n"
        ))
    };
    let pointer = "/spec/policies/0/authorization/authentication/jwt/jwtRef";
    let w = world(&policy("tokens"));
    assert_eq!(references(&w, "acp"), one(pointer, None));
    assert!(findings(&w, "acp").is_empty(), "{:?}", findings(&w, "acp"));
    let w = world(&policy("gone"));
    assert_eq!(
        references(&w, "acp"),
        one(pointer, Some(RefReason::NotFound))
    );
    assert_warned_undocumented(&w, "acp", pointer);
}

#[test]
fn an_airlock_custom_response_policy_names_its_custom_responses() {
    let policy = |response: &str| {
        with(&format!(
            "apiVersion: microgateway.airlock.com/v1alpha1\nkind: CustomResponsePolicy\nmetadata: {{name: crp, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}}]\n  policies:\n    local:\n    - responses:\n      - statusCodeCondition: {{matcher: {{exact: 404}}}}\n        customResponseRef: {{name: {response}}}\n---\napiVersion: microgateway.airlock.com/v1alpha1\nkind: CustomResponse\nmetadata: {{name: not-found, namespace: app}}\nspec: {{statusCode: 404}}\n"
        ))
    };
    let pointer = "/spec/policies/local/0/responses/0/customResponseRef";
    let w = world(&policy("not-found"));
    assert_eq!(references(&w, "crp"), one(pointer, None));
    assert!(findings(&w, "crp").is_empty(), "{:?}", findings(&w, "crp"));
    let w = world(&policy("gone"));
    assert_eq!(
        references(&w, "crp"),
        one(pointer, Some(RefReason::NotFound))
    );
    assert_warned_undocumented(&w, "crp", pointer);
}

#[test]
fn an_airlock_icap_policy_names_its_icap_provider() {
    let policy = |provider: &str| {
        with(&format!(
            "apiVersion: microgateway.airlock.com/v1alpha1\nkind: ICAPPolicy\nmetadata: {{name: icap, namespace: app}}\nspec:\n  targetRefs: [{{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}}]\n  policies:\n  - request:\n      actions:\n      - icapProviderRef: {{name: {provider}}}\n        onError: Block\n---\napiVersion: microgateway.airlock.com/v1alpha1\nkind: ICAPProvider\nmetadata: {{name: av-scan, namespace: app}}\nspec: {{endpoints: [{{uri: 'icap://scanner'}}]}}\n"
        ))
    };
    let pointer = "/spec/policies/0/request/actions/0/icapProviderRef";
    let w = world(&policy("av-scan"));
    assert_eq!(references(&w, "icap"), one(pointer, None));
    assert!(
        findings(&w, "icap").is_empty(),
        "{:?}",
        findings(&w, "icap")
    );
    let w = world(&policy("gone"));
    assert_eq!(
        references(&w, "icap"),
        one(pointer, Some(RefReason::NotFound))
    );
    assert_warned_undocumented(&w, "icap", pointer);
}
