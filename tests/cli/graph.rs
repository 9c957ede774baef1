//! `graph`: the hierarchy and its policies as Graphviz DOT or Mermaid.

use crate::command::{hermetic, kp, on_path, stdout};
use predicates::prelude::*;
use std::io::Write;
use std::process::Stdio;

#[test]
fn graph_of_a_route_is_its_ancestors_descendants_and_policies_in_dot() {
    insta::assert_snapshot!(stdout(&[
        "--demo",
        "graph",
        "httproute/baker",
        "-n",
        "baker"
    ]));
}

#[test]
fn graph_of_a_route_in_mermaid() {
    insta::assert_snapshot!(stdout(&[
        "--demo",
        "graph",
        "httproute/baker",
        "-n",
        "baker",
        "-o",
        "mermaid"
    ]));
}

#[test]
fn whole_graph_has_every_namespace_as_a_cluster_and_every_policy_with_its_status() {
    let dot = stdout(&["--demo", "graph", "-A"]);
    for ns in ["baker", "frosting", "infra", "legacy"] {
        assert!(
            dot.contains(&format!("subgraph \"cluster_{ns}\" {{")),
            "{ns}: {dot}"
        );
    }
    // Every policy is a note labelled with its kind, name and computed status.
    let rows = kp()
        .args(["--demo", "get", "-A", "-o", "json"])
        .output()
        .unwrap();
    let rows: serde_json::Value = serde_json::from_slice(&rows.stdout).unwrap();
    for item in rows["items"].as_array().unwrap() {
        let label = format!(
            "label=\"{}\\n{}\\n{}\", shape=note",
            item["kind"].as_str().unwrap(),
            item["metadata"]["name"].as_str().unwrap(),
            item["computed"]["status"].as_str().unwrap()
        );
        assert!(dot.contains(&label), "{label}: {dot}");
    }
    // Dashed edges from policies; the dangling target drawn, dashed, not left out.
    assert!(dot.contains(
        "\"retrypolicy.resilience.example.io/baker/old-baker-retries\" -> \"unresolved:httproute.gateway.networking.k8s.io/baker/baker-v1\" [style=dashed"
    ));
    assert!(dot
        .contains("label=\"HTTPRoute\\nbaker-v1\\nTargetNotFound\", shape=box, style=\"dashed\""));
    // The namespace level sits above the first objects of its namespace.
    assert!(dot.contains(
        "\"namespace/baker\" -> \"httproute.gateway.networking.k8s.io/baker/icing\" [style=dotted, arrowhead=none];"
    ));
}

#[test]
fn one_shape_per_kind() {
    let dot = stdout(&["--demo", "graph", "-A"]);
    let shape_of = |label_start: &str| -> Vec<String> {
        let mut shapes: Vec<String> = dot
            .lines()
            .filter(|l| l.contains(&format!("[label=\"{label_start}")))
            .map(|l| {
                l.split("shape=")
                    .nth(1)
                    .unwrap()
                    .split([',', ']'])
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect();
        shapes.sort();
        shapes.dedup();
        shapes
    };
    let mut seen = Vec::new();
    for kind in [
        "GatewayClass\\n",
        "Gateway\\n",
        "listener ",
        "HTTPRoute\\n",
        "rule ",
        "Service\\n",
        "port ",
        "Namespace\\n",
    ] {
        let shapes = shape_of(kind);
        assert_eq!(shapes.len(), 1, "{kind}: {shapes:?}");
        assert!(!seen.contains(&shapes[0]), "{kind} shares {}", shapes[0]);
        seen.push(shapes[0].clone());
    }
}

#[test]
fn graph_in_a_namespace_keeps_the_paths_into_it() {
    let dot = stdout(&["--demo", "graph", "-n", "frosting"]);
    assert!(dot.contains("\"httproute.gateway.networking.k8s.io/frosting/glaze\""));
    assert!(dot.contains("\"gateway.gateway.networking.k8s.io/infra/cupcake-gw\""));
    assert!(!dot.contains("cluster_baker"), "{dot}");
    assert!(!dot.contains("legacy"), "{dot}");
    // The Gateway's policy is drawn: it reaches glaze.
    assert!(dot.contains("backendtrafficpolicy.gateway.envoyproxy.io/infra/gateway-timeouts"));
}

#[test]
fn graph_of_a_service_leaves_out_what_does_not_lead_to_it() {
    let m = stdout(&[
        "--demo", "graph", "svc/oven", "-n", "baker", "-o", "mermaid",
    ]);
    assert!(m.contains("\"Service<br/>oven\""), "{m}");
    assert!(
        m.contains("\"BackendTLSPolicy<br/>oven-tls<br/>Enforced\""),
        "{m}"
    );
    for absent in ["icing", "sprinkles", "frosting", "legacy", "https-listener"] {
        assert!(!m.contains(absent), "{absent}: {m}");
    }
}

#[test]
fn graph_of_a_policy_or_a_missing_object_is_an_error() {
    kp().args(["--demo", "graph", "retrypolicy/ns-retries", "-n", "baker"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "graph starts at an object of the hierarchy, not a policy",
        ));
    kp().args(["--demo", "graph", "httproute/nope", "-n", "baker"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "\"nope\" not found in namespace baker",
        ));
}

#[test]
fn graph_of_an_empty_namespace_is_an_empty_picture_and_says_so() {
    kp().args(["--demo", "graph"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("digraph policies {"))
        .stderr("No resources found in default namespace.\n");
}

/// Graphviz accepts the output, where `dot` is installed.
#[test]
fn graphviz_renders_the_dot_output() {
    let Some(dot) = on_path("dot") else {
        eprintln!("note: Graphviz `dot` is not on PATH; not rendering (the DOT text is still checked by the other tests)");
        return;
    };
    for args in [
        &["--demo", "graph", "-A"][..],
        &["--demo", "graph", "httproute/baker", "-n", "baker"][..],
        &["--demo", "graph"][..],
    ] {
        let text = stdout(args);
        let mut child = hermetic(&dot)
            .arg("-Tsvg")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: dot says {err}");
        assert!(err.trim().is_empty(), "{args:?}: dot warns {err}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("<svg"));
    }
}
