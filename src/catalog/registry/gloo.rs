//! Gloo Gateway 1.x (gateway.solo.io): the CRDs as seen in kgateway-dev/kgateway's
//! history (install/helm/gloo/crds/).

use super::*;

/// Gloo's kinds.
const BASE: Entry = Entry {
    group: "gateway.solo.io",
    project: "Gloo",
    ..Entry::INHERITED
};

/// `targetRefs`, or a route rule's `ExtensionRef` filter naming the policy.
const REFS_OR_EXTENSION_REF: Targeting = Targeting {
    extension_ref: true,
    ..REFS
};

/// A Gloo `core.ResourceRef` (`{name, namespace}`, no kind: the field says what it
/// names; any namespace, the policy's when it names none) to an Enterprise object. The
/// ext-auth and rate-limit plugins are closed source and the documentation names the
/// fields, not what a `RouteOption` or `VirtualHostOption` whose reference does not
/// resolve becomes (solo-io/gloo#3538 shows a VirtualService's missing AuthConfig
/// failing translation, reported on its Gateway): a warning that says so.
const fn gloo_ref(
    path: &'static str,
    kinds: &'static [(&'static str, &'static str)],
    cite: &'static str,
) -> RefField {
    RefField {
        path,
        kinds,
        kind_as_written: false,
        groups: RefGroups::AsWritten,
        namespaces: RefNamespaces::Any,
        port: false,
        unresolved: Unresolved::Undocumented,
        cite,
    }
}

const AUTH_CONFIG: &[(&str, &str)] = &[("enterprise.gloo.solo.io", "AuthConfig")];
const RATE_LIMIT_CONFIG: &[(&str, &str)] = &[("ratelimit.solo.io", "RateLimitConfig")];
const UPSTREAM: &[(&str, &str)] = &[("gloo.solo.io", "Upstream")];
const EXTAUTH_DOC: &str = "https://docs.solo.io/gloo-edge/latest/reference/api/github.com/solo-io/gloo/projects/gloo/api/v1/enterprise/options/extauth/v1/extauth.proto.sk/ (ExtAuthExtension.configRef, Settings.extauthzServerRef)";
const RATELIMIT_DOC: &str = "https://docs.solo.io/gloo-edge/latest/reference/api/github.com/solo-io/gloo/projects/gloo/api/v1/enterprise/options/ratelimit/ratelimit.proto.sk/ (RateLimitConfigRefs.refs, Settings.ratelimitServerRef)";

/// RouteOption and VirtualHostOption: the AuthConfig of ext-auth, the RateLimitConfigs.
const OPTION_REFS: &[RefField] = &[
    gloo_ref("/options/extauth/configRef", AUTH_CONFIG, EXTAUTH_DOC),
    gloo_ref(
        "/options/rateLimitConfigs/refs/*",
        RATE_LIMIT_CONFIG,
        RATELIMIT_DOC,
    ),
];

/// HttpListenerOption: the Upstreams of the ext-auth and rate-limit servers.
const HTTP_LISTENER_OPTION_REFS: &[RefField] = &[
    gloo_ref("/options/extauth/extauthzServerRef", UPSTREAM, EXTAUTH_DOC),
    gloo_ref(
        "/options/ratelimitServer/ratelimitServerRef",
        UPSTREAM,
        RATELIMIT_DOC,
    ),
];

pub(super) static ENTRIES: &[Entry] = &[
    Entry {
        kind: "RouteOption",
        class: Class::Inherited,
        // Route config, not the upstream clusters: its plugin is a RoutePlugin that
        // sets the options of each output route (kgateway-dev/kgateway history,
        // projects/gateway2/translator/plugins/routeoptions/route_options_plugin.go
        // `ApplyRoutePlugin`: `outputRoute.Options = routeOptions`).
        flow: Flow::ClientSide { to_backends: &[] },
        targeting: REFS_OR_EXTENSION_REF,
        target_kinds: &["HTTPRoute"],
        namespaces: NamespaceRule::AnyNamespace,
        sections: Sections::None,
        merge: MergeModel::KeyedFields {
            rule_paths: &["/options"],
        },
        same_target: SameTarget::OldestFieldWins,
        defaults_overrides: DefaultsOverrides::None,
        status_shape: "statuses map",
        note: "Options for an HTTPRoute, by targetRefs or a rule's ExtensionRef filter (the rule's win); several on one target merge by option, the oldest setting each; a route that delegates to child routes passes them down.",
        documented: "https://docs.solo.io/gateway/latest/about/policies/routeoption/ (projects/gateway2/translator/plugins/routeoptions/query/query.go; golden outputs/route_options/merge.yaml)",
        cite: "kgateway-dev/kgateway install/helm/gloo/crds/ (Gloo Gateway 1.x CRDs in its history)",
        references: OPTION_REFS,
        ..BASE
    },
    Entry {
        kind: "VirtualHostOption",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: GATEWAY,
        namespaces: NamespaceRule::Own,
        sections: Sections::SectionName,
        merge: MergeModel::KeyedFields {
            rule_paths: &["/options"],
        },
        same_target: SameTarget::OldestFieldWins,
        defaults_overrides: DefaultsOverrides::None,
        status_shape: "statuses map",
        note: "Virtual host settings for a Gateway or one of its listeners; several on one target merge by option, the oldest setting each, and a listener's beat the Gateway's option by option.",
        documented: "https://docs.solo.io/gateway/latest/about/policies/virtualhostoption/",
        cite: "kgateway-dev/kgateway install/helm/gloo/crds/ (Gloo Gateway 1.x CRDs in its history)",
        references: OPTION_REFS,
        ..BASE
    },
    Entry {
        kind: "ListenerOption",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: GATEWAY,
        namespaces: NamespaceRule::Own,
        sections: Sections::SectionName,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        status_shape: "statuses map",
        note: "Listener-level settings for a Gateway or a single listener, with no merging across policies.",
        documented: "https://docs.solo.io/gateway/latest/about/policies/listeneroption/",
        cite: "kgateway-dev/kgateway install/helm/gloo/crds/ (Gloo Gateway 1.x CRDs in its history)",
        // Names no object: socket, buffer and proxy-protocol settings of a listener.
        references: &[],
        ..BASE
    },
    Entry {
        kind: "HttpListenerOption",
        class: Class::Direct,
        targeting: REFS,
        target_kinds: GATEWAY,
        namespaces: NamespaceRule::Own,
        sections: Sections::SectionName,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        defaults_overrides: DefaultsOverrides::None,
        status_shape: "statuses map",
        note: "HTTP connection settings for a Gateway or listener; one policy per target.",
        documented: "https://docs.solo.io/gateway/latest/about/policies/httplisteneroption/",
        cite: "kgateway-dev/kgateway install/helm/gloo/crds/ (Gloo Gateway 1.x CRDs in its history)",
        references: HTTP_LISTENER_OPTION_REFS,
        ..BASE
    },
];
