//! kubectl's JSON dialect (issue #36): `get`'s items are the policy objects as read,
//! with the analysis under `computed`, so kubectl's idioms work on them as typed.

use crate::command::{json, kp, stdout};
use serde_json::json;

/// Three BackendTLSPolicies whose name, age and reach order them three different ways:
/// alpha (12 Services, the newest, read from a cluster: uid, generation, a controller's
/// status, kubectl's bookkeeping), beta (2 Services, the oldest), gamma (its Service is
/// gone: reaches nothing).
const SHOP: &str = r#"apiVersion: v1
kind: Namespace
metadata: {name: shop}
---
apiVersion: v1
kind: Service
metadata: {name: s1, namespace: shop}
spec:
  ports: [{name: https, port: 443}]
---
apiVersion: v1
kind: Service
metadata: {name: s2, namespace: shop}
spec:
  ports: [{name: https, port: 443}]
---
apiVersion: v1
kind: Service
metadata: {name: s3, namespace: shop}
spec:
  ports: [{name: https, port: 443}]
---
apiVersion: v1
kind: Service
metadata: {name: s4, namespace: shop}
spec:
  ports: [{name: https, port: 443}]
---
apiVersion: v1
kind: Service
metadata: {name: s5, namespace: shop}
spec:
  ports: [{name: https, port: 443}]
---
apiVersion: v1
kind: Service
metadata: {name: s6, namespace: shop}
spec:
  ports: [{name: https, port: 443}]
---
apiVersion: v1
kind: Service
metadata: {name: s7, namespace: shop}
spec:
  ports: [{name: https, port: 443}]
---
apiVersion: v1
kind: Service
metadata: {name: s8, namespace: shop}
spec:
  ports: [{name: https, port: 443}]
---
apiVersion: v1
kind: Service
metadata: {name: s9, namespace: shop}
spec:
  ports: [{name: https, port: 443}]
---
apiVersion: v1
kind: Service
metadata: {name: s10, namespace: shop}
spec:
  ports: [{name: https, port: 443}]
---
apiVersion: v1
kind: Service
metadata: {name: s11, namespace: shop}
spec:
  ports: [{name: https, port: 443}]
---
apiVersion: v1
kind: Service
metadata: {name: s12, namespace: shop}
spec:
  ports: [{name: https, port: 443}]
---
apiVersion: v1
kind: Service
metadata: {name: s13, namespace: shop}
spec:
  ports: [{name: https, port: 443}]
---
apiVersion: v1
kind: Service
metadata: {name: s14, namespace: shop}
spec:
  ports: [{name: https, port: 443}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata:
  name: alpha
  namespace: shop
  uid: 7f3c0a52-0000-4000-8000-00000000a1fa
  generation: 3
  resourceVersion: "4711"
  labels: {team: web}
  annotations:
    note: keep me
    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"gateway.networking.k8s.io/v1"}'
  managedFields:
    - {manager: kubectl, operation: Apply}
  creationTimestamp: "2025-06-01T00:00:00Z"
spec:
  targetRefs: [{group: "", kind: Service, name: s1}, {group: "", kind: Service, name: s2}, {group: "", kind: Service, name: s3}, {group: "", kind: Service, name: s4}, {group: "", kind: Service, name: s5}, {group: "", kind: Service, name: s6}, {group: "", kind: Service, name: s7}, {group: "", kind: Service, name: s8}, {group: "", kind: Service, name: s9}, {group: "", kind: Service, name: s10}, {group: "", kind: Service, name: s11}, {group: "", kind: Service, name: s12}]
  validation: {hostname: shop.example, wellKnownCACertificates: System}
status:
  ancestors:
    - ancestorRef: {name: gw, namespace: shop}
      controllerName: example.com/gateway
      conditions: [{type: Accepted, status: "True", reason: Accepted, observedGeneration: 3}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata:
  name: beta
  namespace: shop
  labels: {team: payments}
  creationTimestamp: "2024-01-01T00:00:00Z"
spec:
  targetRefs: [{group: "", kind: Service, name: s13}, {group: "", kind: Service, name: s14}]
  validation: {hostname: shop.example, wellKnownCACertificates: System}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata:
  name: gamma
  namespace: shop
  creationTimestamp: "2025-01-01T00:00:00Z"
spec:
  targetRefs: [{group: "", kind: Service, name: nowhere}]
  validation: {hostname: shop.example, wellKnownCACertificates: System}
"#;

fn shop() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("shop.yaml");
    std::fs::write(&f, SHOP).unwrap();
    let path = f.to_str().unwrap().to_string();
    (dir, path)
}

/// `kubectl policies -f SHOP -n shop get ARGS...`'s stdout.
fn get(f: &str, args: &[&str]) -> String {
    let mut all = vec!["-f", f, "-n", "shop", "get"];
    all.extend_from_slice(args);
    stdout(&all)
}

#[test]
fn items_are_the_policy_objects_as_read_with_the_analysis_under_computed() {
    let (_dir, f) = shop();
    let list = json(&["-f", &f, "-n", "shop", "get", "-o", "json"]);
    assert_eq!(list["apiVersion"], "v1");
    assert_eq!(list["kind"], "List");
    assert_eq!(list["metadata"], json!({}));
    assert_eq!(list["blindSpots"], json!([]));
    let alpha = &list["items"][0];
    assert_eq!(alpha["apiVersion"], "gateway.networking.k8s.io/v1");
    assert_eq!(alpha["kind"], "BackendTLSPolicy");
    // Metadata as read, without managedFields and kubectl's last-applied annotation.
    assert_eq!(
        alpha["metadata"],
        json!({
            "name": "alpha", "namespace": "shop",
            "uid": "7f3c0a52-0000-4000-8000-00000000a1fa", "generation": 3,
            "labels": {"team": "web"}, "annotations": {"note": "keep me"},
            "creationTimestamp": "2025-06-01T00:00:00Z"
        })
    );
    // The spec as read, the status as its controller wrote it.
    assert_eq!(alpha["spec"]["targetRefs"].as_array().unwrap().len(), 12);
    assert_eq!(alpha["spec"]["validation"]["hostname"], "shop.example");
    assert_eq!(
        alpha["status"]["ancestors"][0]["controllerName"],
        "example.com/gateway"
    );
    let computed = &alpha["computed"];
    assert_eq!(computed["class"], "Direct");
    assert_eq!(computed["classSource"], "registry");
    assert_eq!(computed["status"], "Enforced");
    assert_eq!(computed["affects"], 12);
    // Its controller accepts the current generation (3).
    assert_eq!(computed["reported"], "Accepted");
    assert_eq!(
        computed["targets"][0],
        json!({"group": "", "kind": "Service", "namespace": "shop", "name": "s1"})
    );
    // No status read: none written.
    let gamma = &list["items"][2];
    assert!(gamma.get("status").is_none(), "{gamma}");
    // Nor any controller's word.
    assert_eq!(gamma["computed"]["reported"], json!(null));
    assert_eq!(gamma["computed"]["status"], "TargetNotFound");
    // -o yaml says the same.
    let yaml = get(&f, &["-o", "yaml"]);
    let from_yaml: serde_json::Value = serde_saphyr::from_str(&yaml).unwrap();
    assert_eq!(from_yaml, list);
    // One named: the object itself, as `kubectl get KIND NAME -o json`.
    let one = json(&[
        "-f",
        &f,
        "-n",
        "shop",
        "get",
        "backendtlspolicy/alpha",
        "-o",
        "json",
    ]);
    assert_eq!(&one, alpha);
}

#[test]
fn jsonpath_over_the_items_as_kubectl_users_type_it() {
    let (_dir, f) = shop();
    assert_eq!(
        get(&f, &["-o", "jsonpath={.items[*].metadata.name}"]),
        "alpha beta gamma"
    );
    assert_eq!(
        get(
            &f,
            &[
                "-o",
                r#"jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name}{"\t"}{.computed.status}{"\n"}{end}"#,
            ]
        ),
        "shop/alpha\tEnforced\nshop/beta\tEnforced\nshop/gamma\tTargetNotFound\n"
    );
}

#[test]
fn custom_columns_over_labels_and_computed_fields() {
    let (_dir, f) = shop();
    let out = get(
        &f,
        &["-o", "custom-columns=NAME:.metadata.name,TEAM:.metadata.labels.team,STATUS:.computed.status,AFFECTS:.computed.affects"],
    );
    insta::assert_snapshot!(out, @r"
    NAME    TEAM       STATUS           AFFECTS
    alpha   web        Enforced         12
    beta    payments   Enforced         2
    gamma   <none>     TargetNotFound   0
    ");
}

#[test]
fn sort_by_creation_timestamp_is_oldest_first_and_affects_compare_as_numbers() {
    let (_dir, f) = shop();
    let names = |path: &str| get(&f, &["--sort-by", path, "-o", "name"]);
    assert_eq!(
        names(".metadata.creationTimestamp"),
        "backendtlspolicy.gateway.networking.k8s.io/beta\n\
         backendtlspolicy.gateway.networking.k8s.io/gamma\n\
         backendtlspolicy.gateway.networking.k8s.io/alpha\n"
    );
    // 0, 2, 12: as numbers (as text, 12 would come before 2).
    let order = get(
        &f,
        &[
            "--sort-by=.computed.affects",
            "-o",
            "jsonpath={.items[*].computed.affects}",
        ],
    );
    assert_eq!(order, "0 2 12");
    // A field some items lack: those first, as kubectl.
    let order = get(
        &f,
        &[
            "--sort-by",
            "{.metadata.labels.team}",
            "-o",
            "jsonpath={.items[*].metadata.name}",
        ],
    );
    assert_eq!(order, "gamma beta alpha");
    // The table is sorted the same way.
    let table = get(&f, &["--sort-by", ".metadata.creationTimestamp"]);
    let first: Vec<&str> = table
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(first, ["beta", "gamma", "alpha"]);
}

#[test]
fn sort_by_a_path_no_item_has_is_kubectls_error_naming_it() {
    let (_dir, f) = shop();
    for (path, named) in [
        (".metadata.nope", "{.metadata.nope}"),
        ("metadata.nope", "{.metadata.nope}"),
        ("{.computed.nope}", "{.computed.nope}"),
    ] {
        for format in [&[][..], &["-o", "json"][..], &["-o", "name"][..]] {
            let mut args = vec!["-f", &f, "-n", "shop", "get", "--sort-by", path];
            args.extend_from_slice(format);
            kp().args(&args).assert().code(1).stdout("").stderr(format!(
                "error: couldn't find any field with path \"{named}\" in the list of objects\n"
            ));
        }
    }
    // A path one item has is no error.
    assert_eq!(
        get(
            &f,
            &[
                "--sort-by",
                ".status.ancestors",
                "-o",
                "jsonpath={.items[*].metadata.name}"
            ]
        ),
        "beta gamma alpha"
    );
}

#[test]
fn name_is_unchanged_and_tables_do_not_show_the_spec() {
    let (_dir, f) = shop();
    assert_eq!(
        get(&f, &["-o", "name"]),
        "backendtlspolicy.gateway.networking.k8s.io/alpha\n\
         backendtlspolicy.gateway.networking.k8s.io/beta\n\
         backendtlspolicy.gateway.networking.k8s.io/gamma\n"
    );
    let table = get(&f, &[]);
    assert!(table.starts_with("NAME "), "{table}");
    assert!(!table.contains("shop.example"), "{table}");
}

#[test]
fn other_commands_keep_their_own_kinds() {
    let (_dir, f) = shop();
    let d = json(&[
        "-f",
        &f,
        "-n",
        "shop",
        "describe",
        "backendtlspolicy/alpha",
        "-o",
        "json",
    ]);
    assert_eq!(d["kind"], "PolicyDescription");
    let kinds = json(&["-f", &f, "get", "kinds", "-o", "json"]);
    assert_eq!(kinds["metadata"]["listKind"], "PolicyKindList");
}

/// Two policies whose `spec.weight` is a number in one and text in the other.
const MIXED: &str = r#"apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: one, namespace: shop, creationTimestamp: "2025-01-01T00:00:00Z"}
spec:
  targetRefs: [{group: "", kind: Service, name: s1}]
  validation: {hostname: shop.example, wellKnownCACertificates: System}
  weight: 3
  enabled: true
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: two, namespace: shop, creationTimestamp: "2025-02-01T00:00:00Z"}
spec:
  targetRefs: [{group: "", kind: Service, name: s1}]
  validation: {hostname: shop.example, wellKnownCACertificates: System}
  weight: three
  enabled: false
"#;

#[test]
fn sort_by_values_kubectl_cannot_compare_is_its_error() {
    let (_dir, f) = shop();
    let dir = tempfile::tempdir().unwrap();
    let mixed = dir.path().join("mixed.yaml");
    std::fs::write(&mixed, MIXED).unwrap();
    let mixed = mixed.to_str().unwrap();
    let refused =
        |file: &str, path: &str, format: &[&str], named: &str, sorted: &str, why: &str| {
            let mut args = vec!["-f", file, "-n", "shop", "get", "--sort-by", path];
            args.extend_from_slice(format);
            kp().args(&args).assert().code(1).stdout("").stderr(format!(
                "error: Field {named} in {sorted} is an unsortable type: interface, err: {why}\n"
            ));
        };
    let list = "*unstructured.Unstructured";
    let table = "[][][]reflect.Value";
    // A number and a text: kubectl compares neither way round.
    let why = "unsortable interface: interface";
    refused(
        mixed,
        ".spec.weight",
        &["-o", "json"],
        "{.spec.weight}",
        list,
        why,
    );
    refused(
        mixed,
        ".spec.weight",
        &["-o", "name"],
        "{.spec.weight}",
        list,
        why,
    );
    refused(mixed, ".spec.weight", &[], "{.spec.weight}", table, why);
    // Booleans, maps and lists are never compared.
    let why = "unsortable type: bool";
    refused(
        mixed,
        ".spec.enabled",
        &["-o", "yaml"],
        "{.spec.enabled}",
        list,
        why,
    );
    let why = "unsortable type: map[string]interface {}";
    refused(&f, "{.metadata}", &["-o", "json"], "{.metadata}", list, why);
    let why = "unsortable type: []interface {}";
    refused(
        &f,
        ".spec.targetRefs",
        &[],
        "{.spec.targetRefs}",
        table,
        why,
    );
    // One value to compare (the others missing) is no error, as a list of one item.
    assert_eq!(
        get(
            &f,
            &[
                "--sort-by",
                ".metadata.generation",
                "-o",
                "jsonpath={.items[*].metadata.name}"
            ]
        ),
        "beta gamma alpha"
    );
    assert_eq!(
        stdout(&[
            "-f",
            mixed,
            "-n",
            "shop",
            "get",
            "backendtlspolicy/two",
            "--sort-by",
            ".spec.enabled",
            "-o",
            "name"
        ]),
        "backendtlspolicy.gateway.networking.k8s.io/two\n"
    );
}
