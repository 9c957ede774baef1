//! AWS Gateway API Controller for VPC Lattice (aws/aws-application-networking-k8s @
//! 03d6abec, v2.1.3). No CRD carries the policy label. Every kind has one `targetRef`
//! whose namespace must be the policy's; several on one target: the oldest
//! creationTimestamp (then name) applies, the others are Accepted=False/Conflicted
//! (pkg/k8s/policyhelper/policy.go), except AccessLogPolicy.

use super::*;

/// A VPC Lattice kind: Direct, one `targetRef` in the policy's namespace, no section.
const BASE: Entry = Entry {
    group: "application-networking.k8s.aws",
    class: Class::Direct,
    targeting: REF,
    namespaces: NamespaceRule::Own,
    sections: Sections::None,
    defaults_overrides: DefaultsOverrides::None,
    project: "AWS VPC Lattice",
    status_shape: "conditions",
    // Names no Kubernetes object: what its spec names are AWS resources (security
    // group IDs, log destination ARNs) or settings (its API types).
    references: &[],
    ..Entry::INHERITED
};

pub(super) static ENTRIES: &[Entry] = &[
    Entry {
        kind: "TargetGroupPolicy",
        target_kinds: &["Service", "ServiceExport"],
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        note: "Target group settings (protocol, health checks) for a Service or ServiceExport; the oldest on one target applies.",
        documented: "https://www.gateway-api-controller.eks.aws.dev/latest/api-types/target-group-policy/",
        cite: "aws/aws-application-networking-k8s@03d6abec pkg/apis/applicationnetworking/v1alpha1/targetgrouppolicy_types.go",
        ..BASE
    },
    Entry {
        kind: "VpcAssociationPolicy",
        target_kinds: GATEWAY,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        note: "How a Gateway's service network is associated with the VPC (security groups); the oldest on one Gateway applies.",
        documented: "https://www.gateway-api-controller.eks.aws.dev/latest/api-types/vpc-association-policy/",
        cite: "aws/aws-application-networking-k8s@03d6abec pkg/apis/applicationnetworking/v1alpha1/vpcassociationpolicy_types.go",
        ..BASE
    },
    Entry {
        kind: "IAMAuthPolicy",
        target_kinds: GATEWAY_AND_ROUTES,
        merge: MergeModel::None,
        same_target: SameTarget::OldestWins,
        note: "An IAM auth policy for a Gateway's service network or a route's service: Lattice evaluates both, neither is inherited by the other; the oldest on one target applies.",
        documented: "https://www.gateway-api-controller.eks.aws.dev/latest/api-types/iam-auth-policy/",
        cite: "aws/aws-application-networking-k8s@03d6abec pkg/apis/applicationnetworking/v1alpha1/authpolicy_types.go",
        ..BASE
    },
    Entry {
        kind: "AccessLogPolicy",
        target_kinds: GATEWAY_AND_ROUTES,
        // Different destinations log side by side.
        merge: MergeModel::Accumulated,
        same_target: SameTarget::OnePerValue {
            field: "/destinationArn",
            key: ValueKey::ArnService,
        },
        note: "Access logs of a Gateway (all its routes) or a route: one per destination type (S3, CloudWatch, Firehose) per target, a second of the same type is Conflicted.",
        documented: "https://www.gateway-api-controller.eks.aws.dev/latest/api-types/access-log-policy/",
        cite: "aws/aws-application-networking-k8s@03d6abec pkg/apis/applicationnetworking/v1alpha1/accesslogpolicy_types.go",
        ..BASE
    },
];
