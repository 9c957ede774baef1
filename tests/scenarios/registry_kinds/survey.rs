//! Every kind of the survey of 2025–2026 implementations (issue 28), known offline with
//! no CRD in the input, with the class its controller behaves as. The table is this
//! test's own, typed from the survey; the registry must hold exactly these kinds.

use kubectl_policies::catalog::{Catalog, Class, ClassOrigin};
use kubectl_policies::model::GroupKind;

use Class::{Direct as D, Inherited as I};

const SURVEY: &[(&str, &str, Class)] = &[
    // Gateway API
    ("gateway.networking.k8s.io", "BackendTLSPolicy", D),
    ("gateway.networking.x-k8s.io", "XBackendTrafficPolicy", D),
    ("gateway.networking.k8s.io", "BackendLBPolicy", D),
    // Envoy Gateway
    ("gateway.envoyproxy.io", "ClientTrafficPolicy", I),
    ("gateway.envoyproxy.io", "BackendTrafficPolicy", I),
    ("gateway.envoyproxy.io", "SecurityPolicy", I),
    ("gateway.envoyproxy.io", "EnvoyExtensionPolicy", I),
    ("gateway.envoyproxy.io", "EnvoyPatchPolicy", D),
    // Envoy AI Gateway
    ("aigateway.envoyproxy.io", "BackendSecurityPolicy", D),
    ("aigateway.envoyproxy.io", "QuotaPolicy", D),
    // Kuadrant
    ("kuadrant.io", "AuthPolicy", I),
    ("kuadrant.io", "RateLimitPolicy", I),
    ("kuadrant.io", "TokenRateLimitPolicy", I),
    ("kuadrant.io", "DNSPolicy", D),
    ("kuadrant.io", "TLSPolicy", D),
    ("extensions.kuadrant.io", "OIDCPolicy", D),
    ("extensions.kuadrant.io", "PlanPolicy", D),
    ("extensions.kuadrant.io", "TelemetryPolicy", D),
    ("extensions.kuadrant.io", "ThreatPolicy", D),
    // NGINX Gateway Fabric
    ("gateway.nginx.org", "ClientSettingsPolicy", I),
    ("gateway.nginx.org", "ObservabilityPolicy", D),
    ("gateway.nginx.org", "ProxySettingsPolicy", I),
    ("gateway.nginx.org", "RateLimitPolicy", I),
    ("gateway.nginx.org", "SnippetsPolicy", D),
    ("gateway.nginx.org", "UpstreamSettingsPolicy", D),
    ("gateway.nginx.org", "WAFPolicy", I),
    ("gateway.nginx.org", "PayloadProcessor", I),
    ("gateway.nginx.org", "ExternalLoadBalancer", D),
    // Istio (Telemetry: Istio folds namespace -> workload per telemetry type)
    ("security.istio.io", "AuthorizationPolicy", D),
    ("security.istio.io", "RequestAuthentication", D),
    ("telemetry.istio.io", "Telemetry", I),
    ("extensions.istio.io", "WasmPlugin", D),
    ("networking.istio.io", "EnvoyFilter", D),
    ("extensions.istio.io", "TrafficExtension", D),
    // Gloo Gateway 1.x
    ("gateway.solo.io", "RouteOption", I),
    ("gateway.solo.io", "VirtualHostOption", D),
    ("gateway.solo.io", "ListenerOption", D),
    ("gateway.solo.io", "HttpListenerOption", D),
    // kgateway (TrafficPolicy, RoutePolicy, AgentgatewayPolicy: labelled Direct)
    ("gateway.kgateway.dev", "TrafficPolicy", I),
    ("gateway.kgateway.dev", "ListenerPolicy", D),
    ("gateway.kgateway.dev", "BackendConfigPolicy", D),
    ("gateway.kgateway.dev", "HTTPListenerPolicy", D),
    ("gateway.kgateway.dev", "RoutePolicy", I),
    ("gateway.kgateway.dev", "AgentgatewayPolicy", I),
    // agentgateway
    ("agentgateway.dev", "AgentgatewayPolicy", I),
    // Solo enterprise
    ("gloo.solo.io", "GlooTrafficPolicy", I),
    ("gloo.solo.io", "AgentgatewayEnterprisePolicy", I),
    (
        "enterpriseagentgateway.solo.io",
        "EnterpriseAgentgatewayPolicy",
        I,
    ),
    (
        "enterprisekgateway.solo.io",
        "EnterpriseKgatewayTrafficPolicy",
        I,
    ),
    // Linkerd
    ("policy.linkerd.io", "AuthorizationPolicy", D),
    ("policy.linkerd.io", "HTTPLocalRateLimitPolicy", D),
    // GKE
    ("networking.gke.io", "GCPBackendPolicy", D),
    ("networking.gke.io", "HealthCheckPolicy", D),
    ("networking.gke.io", "GCPGatewayPolicy", D),
    ("networking.gke.io", "GCPTrafficDistributionPolicy", D),
    ("networking.gke.io", "GCPSessionAffinityPolicy", D),
    ("networking.gke.io", "GCPTrafficExtension", D),
    ("networking.gke.io", "GCPRoutingExtension", D),
    ("networking.gke.io", "GCPAuthzPolicy", D),
    ("networking.gke.io", "GCPClientTLSPolicy", D),
    ("networking.gke.io", "GCPServerTLSPolicy", D),
    // AWS Gateway API Controller for VPC Lattice
    ("application-networking.k8s.aws", "TargetGroupPolicy", D),
    ("application-networking.k8s.aws", "VpcAssociationPolicy", D),
    ("application-networking.k8s.aws", "IAMAuthPolicy", D),
    ("application-networking.k8s.aws", "AccessLogPolicy", D),
    // Azure Application Gateway for Containers
    ("alb.networking.azure.io", "BackendTLSPolicy", D),
    ("alb.networking.azure.io", "FrontendTLSPolicy", D),
    ("alb.networking.azure.io", "HealthCheckPolicy", D),
    ("alb.networking.azure.io", "RoutePolicy", D),
    ("alb.networking.azure.io", "WebApplicationFirewallPolicy", D),
    ("alb.networking.azure.io", "BackendLoadBalancingPolicy", D),
    // Consul API Gateway
    ("consul.hashicorp.com", "GatewayPolicy", D),
    ("consul.hashicorp.com", "CustomGatewayPolicy", D),
    // Kong
    ("configuration.konghq.com", "KongUpstreamPolicy", D),
    // APISIX
    ("apisix.apache.org", "BackendTrafficPolicy", D),
    ("apisix.apache.org", "HTTPRoutePolicy", D),
    ("apisix.apache.org", "L4RoutePolicy", D),
    // Airlock Microgateway
    ("microgateway.airlock.com", "AccessControlPolicy", D),
    ("microgateway.airlock.com", "ContentSecurityPolicy", D),
    ("microgateway.airlock.com", "CustomResponsePolicy", D),
    ("microgateway.airlock.com", "EnvoyExtensionPolicy", D),
    ("microgateway.airlock.com", "ICAPPolicy", D),
    ("microgateway.airlock.com", "LogMaskingPolicy", D),
    ("microgateway.airlock.com", "RateLimitPolicy", D),
    // Flomesh
    ("gateway.flomesh.io", "BackendLBPolicy", D),
    ("gateway.flomesh.io", "HealthCheckPolicy", D),
    ("gateway.flomesh.io", "RouteRuleFilterPolicy", D),
];

#[test]
fn every_kind_of_the_survey_is_known_offline_with_its_class() {
    assert_eq!(SURVEY.len(), 87, "the survey counts 87 kinds");
    // No object at all: what the registry alone knows.
    let catalog = Catalog::build(&[], &[]);
    for &(group, kind, class) in SURVEY {
        let k = catalog
            .get(&GroupKind::new(group, kind))
            .unwrap_or_else(|| panic!("{kind}.{group} is not known"));
        assert_eq!(k.entry.class, class, "{kind}.{group}");
        assert_eq!(k.origin, ClassOrigin::Registry, "{kind}.{group}");
        assert!(
            !k.entry.project.is_empty() && !k.entry.cite.is_empty(),
            "{kind}.{group}"
        );
    }
    assert_eq!(catalog.kinds.len(), SURVEY.len(), "kinds beyond the survey");
}
