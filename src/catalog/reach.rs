//! What a kind's policies may reach: how they name their targets (`Targeting`), the
//! namespaces (`NamespaceRule`) and sections (`Sections`) they may name, how far down
//! their settings flow (`Flow`), and what their vendor refuses (`RefusedOn`,
//! `SharedPort`, `OtherTargetKinds`). Fields of a kind's registry entry (`Entry`).

use serde::Serialize;

/// How far down the hierarchy an Inherited kind's settings flow from where they
/// attach: the levels its vendor configures with them, and no lower. Direct kinds
/// reach their target and its sections whatever this says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Every level below the target: listeners, routes, their rules, backends and
    /// their ports.
    Down,
    /// The client side of the proxy only (listeners, and the routes and rules their
    /// traffic goes through), not the backends: the vendor writes the settings into
    /// its listeners, filters and route config, not into the upstream clusters it
    /// makes of each backend; but for the settings at `to_backends` (paths of keys
    /// from the spec's top level: `http1`, `timeout/tcp`), which it also sets on those
    /// clusters (none: nothing reaches the backends).
    ClientSide {
        to_backends: &'static [&'static str],
    },
}

/// What the controller does with a policy aimed at one listener that shares its port
/// with other listeners (which the proxy serves as one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SharedPort {
    /// Nothing particular: each listener takes its own.
    Allowed,
    /// Refused when its settings would reach plain HTTP listeners it is not aimed at
    /// (Envoy Gateway's ClientTrafficPolicy): aimed at a plain HTTP listener that
    /// other plain HTTP listeners of its proxy have the port of (its Gateway's, its
    /// ListenerSets', every Gateway's of a class that merges them); or aimed at a whole
    /// Gateway or ListenerSet one of whose plain HTTP listeners has the port of one of
    /// another Gateway or ListenerSet of its proxy (a listener aimed at by a policy of
    /// the kind of its own left to that policy).
    RefusedOnSharedHttpListener,
}

/// Settings a vendor refuses on a target of one kind (Envoy Gateway's SecurityPolicy
/// on a TCPRoute: authorization only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RefusedOn {
    /// The target's kind.
    pub(crate) kind: &'static str,
    /// The spec fields refused there, any one of them set.
    pub(crate) fields: &'static [&'static str],
    pub(crate) refuses: Refuses,
    /// Whether its controller runs the check again on the policy merged into its
    /// closest parent's (a route policy with Envoy Gateway's `mergeType`): a field
    /// refused there that the parent's policy sets refuses the route's policy on
    /// that target, as one of its own would (`Refuses::ThatTarget` rules only).
    pub(crate) after_merge: bool,
}

/// What a vendor refuses when a policy breaks one of its rules on one of its targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refuses {
    /// The whole policy: its CRD's validation fails the request, so the API server
    /// stores nothing and none of its targets stands.
    WholePolicy,
    /// That target: its controller skips it (its status there says why) and the
    /// policy's other targets stand.
    ThatTarget,
}

/// What its vendor does with a policy that names a target of a kind outside the
/// kind's `target_kinds`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OtherTargetKinds {
    /// Its CRD refuses it (CEL or enum validation on the reference's kind): the API
    /// server refuses the whole object (a validation rule fails the request), so none
    /// of its targets stands.
    RefusedByCrd,
    /// Accepted (implementation-specific kinds), or what happens is not known:
    /// nothing is refused.
    NotRefused,
}

impl OtherTargetKinds {
    /// Who refuses, as the finding says it (`its CRD allows ...`); none: nobody.
    pub(crate) fn refused_by(self) -> Option<&'static str> {
        match self {
            OtherTargetKinds::RefusedByCrd => Some("its CRD"),
            OtherTargetKinds::NotRefused => None,
        }
    }

    /// Whether the refusal is the whole policy's (the API server's validation), not
    /// the one target's (its controller's).
    pub(crate) fn refuses_whole(self) -> bool {
        match self {
            OtherTargetKinds::RefusedByCrd => true,
            OtherTargetKinds::NotRefused => false,
        }
    }
}

/// How a kind names its targets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Targeting {
    pub(crate) target_ref: bool,
    pub(crate) target_refs: bool,
    pub(crate) target_selectors: bool,
    /// Istio `selector` / `workloadSelector`: outside the Gateway API hierarchy.
    pub(crate) workload_selector: bool,
    /// A route rule's `ExtensionRef` filter naming the policy attaches it to that rule.
    pub(crate) extension_ref: bool,
    /// Attached from the target's side: this annotation on the target names the policy
    /// (Kong's `konghq.com/upstream-policy` on a Service). Such a policy has no targetRef.
    pub(crate) target_annotation: Option<&'static str>,
    /// Every Service a route rule sends to must carry the same `target_annotation`
    /// value: where they differ (or one has none), its controller refuses the policy
    /// on those Services (Kong: one KongUpstreamPolicy per rule's upstream).
    pub(crate) annotation_same_in_rule: bool,
    /// A `targetRefs` entry `{kind: Pod, selector}` picks the Pods of the policy's
    /// namespace whose labels match (GKE's `PolicyTargetReferenceWithLabelSelectors`):
    /// resolved when Pods are in the input.
    pub(crate) pod_selector: bool,
}

/// Which namespaces a kind's policies may reach from their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum NamespaceRule {
    /// Only objects of the policy's own namespace (a local reference, or a `namespace`
    /// field that must equal the policy's).
    Own,
    /// Its reference may name an object of another namespace.
    AnyNamespace,
    /// Its references stay in its namespace; its `targetSelectors` look in the
    /// namespaces their `namespaces` field names, where a ReferenceGrant there allows it
    /// (Envoy Gateway since v1.8).
    SelectorsWithGrant,
    /// Its own namespace (the CRD rejects a `namespace` in a reference); a policy in the
    /// mesh's root namespace reaches a GatewayClass and the whole mesh (Istio).
    OwnOrMeshRoot,
    /// Its own namespace, except a policy in the install's global policy namespace
    /// (`KGW_GLOBAL_POLICY_NAMESPACE`), whose selectors look in every namespace (kgateway).
    OwnOrGlobalNamespace,
}

impl NamespaceRule {
    /// May a policy of the kind reach an object in another namespace than its own?
    pub(crate) fn reaches_other_namespaces(self) -> bool {
        match self {
            NamespaceRule::Own => false,
            NamespaceRule::AnyNamespace
            | NamespaceRule::SelectorsWithGrant
            | NamespaceRule::OwnOrMeshRoot
            | NamespaceRule::OwnOrGlobalNamespace => true,
        }
    }

    /// One line for `describe` of a policy and the guide's table of kinds (`docs/policies.md`).
    pub(crate) fn describe(self) -> &'static str {
        match self {
            NamespaceRule::Own => "own namespace only",
            NamespaceRule::AnyNamespace => "may name another namespace",
            NamespaceRule::SelectorsWithGrant => {
                "own namespace; selectors in others with a ReferenceGrant"
            }
            NamespaceRule::OwnOrMeshRoot => "own namespace; the root namespace reaches the mesh",
            NamespaceRule::OwnOrGlobalNamespace => {
                "own namespace; selectors everywhere from the global policy namespace"
            }
        }
    }
}

/// What part of a target a kind's reference may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum Sections {
    /// The whole object only.
    None,
    /// `sectionName`: a listener, a route rule, a Service port.
    SectionName,
    /// A `sectionNames` list on the one `targetRef` (Azure Application Gateway for
    /// Containers' pre-GEP-2648 shape).
    SectionNames,
    /// A `ports` list on each reference, `[{port: N}]` (Azure
    /// BackendLoadBalancingPolicy's targetRefs): those ports of the target.
    Ports,
    /// `ports` lists in the spec (`lists`, JSON pointers to `[{port: N}]` lists),
    /// settings for those ports of every target; `whole`, the spec field whose settings
    /// cover every port, the whole target (Flomesh HealthCheckPolicy: `/ports` and
    /// `/healthCheck`; Azure BackendTLSPolicy: `/default/ports`, `/override/ports`).
    SpecPorts {
        lists: &'static [&'static str],
        whole: Option<&'static str>,
    },
    /// A `rule` on each targetRef: a rule of a TCP or UDP route (Flomesh).
    Rule,
    /// `sectionName`, and a `port` on a Gateway reference of a frontend policy: the
    /// Gateway's listeners on that port (agentgateway). A port is a level of its own,
    /// between the Gateway and a listener (`port_ranks_below_sections`). What its CRD
    /// refuses, the policy whole: a `port` when the spec sets none of `port_needs`
    /// (JSON pointers), a `sectionName` when it sets one of `no_section_name_with`.
    SectionNameOrPort {
        port_needs: &'static [&'static str],
        no_section_name_with: &'static [&'static str],
    },
}

impl Sections {
    /// Whether its references' sections may be port numbers, resolved to the port of
    /// that number (`ports` lists, agentgateway's `port`).
    pub(crate) fn names_ports_by_number(self) -> bool {
        match self {
            Sections::Ports | Sections::SpecPorts { .. } | Sections::SectionNameOrPort { .. } => {
                true
            }
            Sections::None | Sections::SectionName | Sections::SectionNames | Sections::Rule => {
                false
            }
        }
    }

    /// Whether a policy that reaches a Gateway's listeners by their port is less
    /// specific there than one that names the listener: the port a level between the
    /// Gateway and its listeners (agentgateway's frontend precedence "Gateway < Port <
    /// Listener", PR #2363), where it wins over the Gateway's and loses to the
    /// listener's as the kind's merge model says. Otherwise such a policy sits at the
    /// listeners' level.
    pub(crate) fn port_ranks_below_sections(self) -> bool {
        match self {
            Sections::SectionNameOrPort { .. } => true,
            Sections::None
            | Sections::SectionName
            | Sections::SectionNames
            | Sections::Ports
            | Sections::SpecPorts { .. }
            | Sections::Rule => false,
        }
    }

    /// The JSON pointers to the spec's per-port lists (`SpecPorts`), none for the other
    /// shapes: where a policy's settings differ from one port of its target to another.
    pub(crate) fn spec_port_lists(self) -> &'static [&'static str] {
        match self {
            Sections::SpecPorts { lists, .. } => lists,
            Sections::None
            | Sections::SectionName
            | Sections::SectionNames
            | Sections::Ports
            | Sections::Rule
            | Sections::SectionNameOrPort { .. } => &[],
        }
    }
}
