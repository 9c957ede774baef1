//! AWS Gateway API Controller for VPC Lattice (aws/aws-application-networking-k8s @
//! 03d6abec, v2.1.3). No CRD carries the policy label. Every kind has one `targetRef`
//! whose namespace must be the policy's; several on one target: the oldest
//! creationTimestamp (then name) applies, the others are Accepted=False/Conflicted
//! (pkg/k8s/policyhelper/policy.go), except AccessLogPolicy.

use super::*;

const fn lattice(
    kind: &'static str,
    target_kinds: &'static [&'static str],
    merge: MergeModel,
    same_target: SameTarget,
    note: &'static str,
    documented: &'static str,
    source: &'static str,
) -> KnownKind {
    KnownKind {
        group: "application-networking.k8s.aws",
        kind,
        class: Class::Direct,
        flow: Flow::Down,
        refused_on: &[],
        shared_port: SharedPort::Allowed,
        targeting: REF,
        target_kinds,
        other_target_kinds: OtherTargetKinds::NotRefused,
        namespaces: NamespaceRule::Own,
        sections: Sections::None,
        merge,
        same_target,
        defaults_overrides: DefaultsOverrides::None,
        label: None,
        project: "AWS VPC Lattice",
        status_shape: "conditions",
        note,
        documented,
        source,
        // Names no Kubernetes object: what its spec names are AWS resources (security
        // group IDs, log destination ARNs) or settings (its API types).
        references: &[],
    }
}

pub(super) static ENTRIES: &[KnownKind] = &[
    lattice(
        "TargetGroupPolicy",
        &["Service", "ServiceExport"],
        MergeModel::None,
        SameTarget::OldestWins,
        "Target group settings (protocol, health checks) for a Service or ServiceExport; the oldest on one target applies.",
        "https://www.gateway-api-controller.eks.aws.dev/latest/api-types/target-group-policy/",
        "aws/aws-application-networking-k8s@03d6abec pkg/apis/applicationnetworking/v1alpha1/targetgrouppolicy_types.go",
    ),
    lattice(
        "VpcAssociationPolicy",
        GATEWAY,
        MergeModel::None,
        SameTarget::OldestWins,
        "How a Gateway's service network is associated with the VPC (security groups); the oldest on one Gateway applies.",
        "https://www.gateway-api-controller.eks.aws.dev/latest/api-types/vpc-association-policy/",
        "aws/aws-application-networking-k8s@03d6abec pkg/apis/applicationnetworking/v1alpha1/vpcassociationpolicy_types.go",
    ),
    lattice(
        "IAMAuthPolicy",
        GATEWAY_AND_ROUTES,
        MergeModel::None,
        SameTarget::OldestWins,
        "An IAM auth policy for a Gateway's service network or a route's service: Lattice evaluates both, neither is inherited by the other; the oldest on one target applies.",
        "https://www.gateway-api-controller.eks.aws.dev/latest/api-types/iam-auth-policy/",
        "aws/aws-application-networking-k8s@03d6abec pkg/apis/applicationnetworking/v1alpha1/authpolicy_types.go",
    ),
    lattice(
        "AccessLogPolicy",
        GATEWAY_AND_ROUTES,
        // Different destinations log side by side.
        MergeModel::Accumulated,
        SameTarget::OnePerValue {
            field: "/destinationArn",
            key: ValueKey::ArnService,
        },
        "Access logs of a Gateway (all its routes) or a route: one per destination type (S3, CloudWatch, Firehose) per target, a second of the same type is Conflicted.",
        "https://www.gateway-api-controller.eks.aws.dev/latest/api-types/access-log-policy/",
        "aws/aws-application-networking-k8s@03d6abec pkg/apis/applicationnetworking/v1alpha1/accesslogpolicy_types.go",
    ),
];
