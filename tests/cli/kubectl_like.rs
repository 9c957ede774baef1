//! kubectl's habits: `get KIND [NAME…]`, `get KIND/NAME…`, kubectl's output options,
//! "did you mean", several objects per command, sections as objects.

use crate::command::{json, kp, stdout};
use predicates::prelude::*;

/// The NAME column (or the NAMESPACE/NAME pair with -A) of a table.
fn names(table: &str) -> Vec<String> {
    table
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().next().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn get_a_kind_in_every_type_spelling_lists_only_its_policies() {
    for ty in [
        "retrypolicies",
        "retrypolicy",
        "RetryPolicy",
        "retrypolicy.resilience.example.io",
    ] {
        let out = stdout(&["--demo", "get", ty, "-n", "baker"]);
        assert_eq!(
            names(&out),
            ["baker-orders-retries", "ns-retries", "old-baker-retries"],
            "{ty}: {out}"
        );
    }
    // The CRDs' short names: Envoy Gateway's btp and ctp, Gateway API's btlspolicy.
    let out = stdout(&["--demo", "get", "btp", "-A"]);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.contains("gateway-timeouts"), "{out}");
    let out = stdout(&["--demo", "get", "btlspolicy", "-n", "baker"]);
    assert_eq!(
        names(&out),
        ["oven-tls", "sprinkles-tls", "sprinkles-tls-new"]
    );
}

#[test]
fn get_a_kind_with_nothing_in_scope_says_no_resources_found_and_exits_0() {
    kp().args(["--demo", "get", "btp", "-n", "baker"])
        .assert()
        .success()
        .stdout("")
        .stderr("No resources found in baker namespace.\n");
    kp().args(["--demo", "get", "securitypolicies", "-A"])
        .assert()
        .success()
        .stderr("No resources found.\n");
    // As JSON, an empty List.
    let j = json(&["--demo", "get", "btp", "-n", "baker", "-o", "json"]);
    assert_eq!(j["items"], serde_json::json!([]));
}

#[test]
fn get_names_in_the_order_given_missing_ones_on_stderr_and_exit_1() {
    let out = kp()
        .args([
            "--demo",
            "get",
            "backendtlspolicy",
            "sprinkles-tls",
            "nope",
            "oven-tls",
            "-n",
            "baker",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(names(&text), ["sprinkles-tls", "oven-tls"]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        "Error from server (NotFound): backendtlspolicies.gateway.networking.k8s.io \"nope\" not found in namespace baker\n"
    );
    // TYPE/NAME, of several kinds.
    let j = json(&[
        "--demo",
        "get",
        "ctp/https-listener",
        "btp/gateway-timeouts",
        "-n",
        "infra",
        "-o",
        "json",
    ]);
    let listed: Vec<&str> = j["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["kind"].as_str().unwrap())
        .collect();
    assert_eq!(listed, ["ClientTrafficPolicy", "BackendTrafficPolicy"]);
}

#[test]
fn get_refuses_a_kind_that_is_not_a_policy_and_mixed_forms() {
    kp().args(["--demo", "get", "httproutes"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("not a policy kind"));
    kp().args(["--demo", "get", "btp/gateway-timeouts", "ctp"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("TYPE/NAME"));
    // `get kinds` and `get policies` keep their meaning.
    assert!(stdout(&["--demo", "get", "kinds"]).starts_with("KIND "));
    assert_eq!(
        stdout(&["--demo", "get", "policies", "-A"]),
        stdout(&["--demo", "get", "-A"])
    );
}

#[test]
fn unknown_types_and_names_are_answered_with_the_nearest_known_ones() {
    kp().args(["--demo", "describe", "httproute/bakr", "-n", "baker"])
        .assert()
        .code(1)
        .stderr(predicate::str::ends_with(
            "not found in namespace baker; did you mean httproute/baker?\n",
        ));
    kp().args(["--demo", "describe", "htproute/baker", "-n", "baker"])
        .assert()
        .code(1)
        .stderr(predicate::str::ends_with("did you mean httproute?\n"));
    kp().args(["--demo", "get", "retrypolices", "-n", "baker"])
        .assert()
        .code(1)
        .stderr(predicate::str::ends_with("did you mean retrypolicy?\n"));
    // In scope only: the names of another namespace are not offered as near ones.
    kp().args(["--demo", "get", "retrypolicy", "ns-retris", "-n", "infra"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("did you mean").not());
    kp().args(["--demo", "get", "retrypolicy", "ns-retris", "-n", "baker"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "did you mean retrypolicy/ns-retries?",
        ));
}

/// Two policies with labels, one without, in one namespace.
const LABELLED: &str = r#"
apiVersion: v1
kind: Service
metadata: {name: cart, namespace: shop}
spec: {ports: [{name: https, port: 443}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata:
  name: cart-tls
  namespace: shop
  labels: {team: payments, env: prod}
  creationTimestamp: "2025-01-01T00:00:00Z"
spec:
  targetRefs: [{group: "", kind: Service, name: cart, sectionName: https}]
  validation: {hostname: cart.shop, wellKnownCACertificates: System}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata:
  name: cart-tls-10
  namespace: shop
  labels: {team: web}
  creationTimestamp: "2025-02-01T00:00:00Z"
spec:
  targetRefs: [{group: "", kind: Service, name: cart}, {group: "", kind: Service, name: gone}]
  validation: {hostname: cart.shop, wellKnownCACertificates: System}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata:
  name: cart-tls-9
  namespace: shop
  creationTimestamp: "2025-03-01T00:00:00Z"
spec:
  targetRefs: [{group: "", kind: Service, name: nowhere}]
  validation: {hostname: cart.shop, wellKnownCACertificates: System}
"#;

fn labelled() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("shop.yaml");
    std::fs::write(&f, LABELLED).unwrap();
    let path = f.to_str().unwrap().to_string();
    (dir, path)
}

#[test]
fn jsonpath_templates_as_kubectl_evaluates_them() {
    let (_dir, f) = labelled();
    let run = |template: &str| {
        stdout(&[
            "-f",
            &f,
            "-n",
            "shop",
            "get",
            "-o",
            &format!("jsonpath={template}"),
        ])
    };
    // {range}{end} over the items, quoted text for tabs and newlines.
    assert_eq!(
        run(r#"{range .items[*]}{.metadata.name}{"\t"}{.computed.status}{"\n"}{end}"#),
        "cart-tls\tEnforced\ncart-tls-10\tOverridden\ncart-tls-9\tTargetNotFound\n"
    );
    // Several results are separated by one space, and nothing is added at the end.
    assert_eq!(
        run("{.items[*].metadata.name}"),
        "cart-tls cart-tls-10 cart-tls-9"
    );
    // Filters; a missing key yields nothing; maps print as JSON with sorted keys.
    assert_eq!(
        run(r#"{.items[?(@.computed.status=="TargetNotFound")].metadata.name}"#),
        "cart-tls-9"
    );
    assert_eq!(
        run("{.items[?(@.computed.affects>0)].computed.affects}"),
        "1 1"
    );
    assert_eq!(run("[{.items[2].metadata.labels}]"), "[]");
    assert_eq!(
        run("{.items[0].metadata.labels}"),
        r#"{"env":"prod","team":"payments"}"#
    );
    assert_eq!(run("{.items[-1].computed.targets[0].name}"), "nowhere");
    // An index out of bounds is an error, as in kubectl.
    kp().args(["-f", &f, "-n", "shop", "get", "-o", "jsonpath={.items[7]}"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("array index out of bounds"));
    // A template that does not parse fails before anything is read.
    kp().args(["--demo", "get", "-o", "jsonpath={.items[0"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("-o jsonpath: unclosed"));
}

#[test]
fn custom_columns_print_none_for_missing_fields_and_join_several() {
    let (_dir, f) = labelled();
    let out = stdout(&[
        "-f",
        &f,
        "-n",
        "shop",
        "get",
        "-o",
        "custom-columns=NAME:.metadata.name,TARGETS:.computed.targets[*].name,SECTION:computed.targets[*].sectionName,TEAM:{.metadata.labels.team}",
    ]);
    insta::assert_snapshot!(out, @r"
    NAME          TARGETS     SECTION   TEAM
    cart-tls      cart        https     payments
    cart-tls-10   cart,gone   <none>    web
    cart-tls-9    nowhere     <none>    <none>
    ");
    let out = stdout(&[
        "-f",
        &f,
        "-n",
        "shop",
        "get",
        "--no-headers",
        "-o",
        "custom-columns=N:.metadata.name",
    ]);
    assert_eq!(out, "cart-tls\ncart-tls-10\ncart-tls-9\n");
    kp().args(["--demo", "get", "-o", "custom-columns=NAME"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "expected <header>:<json-path-expr>",
        ));
}

#[test]
fn jsonpath_file_reads_the_template_as_it_is_and_names_a_file_it_cannot_read() {
    let (dir, f) = labelled();
    let template = dir.path().join("names.tpl");
    // The file's last newline is text of the template, printed as kubectl prints it.
    std::fs::write(
        &template,
        "{range .items[*]}{.metadata.name}={.computed.status}{\"\\n\"}{end}\n",
    )
    .unwrap();
    let out = stdout(&[
        "-f",
        &f,
        "-n",
        "shop",
        "get",
        "-o",
        &format!("jsonpath-file={}", template.display()),
    ]);
    assert_eq!(
        out,
        "cart-tls=Enforced\ncart-tls-10=Overridden\ncart-tls-9=TargetNotFound\n\n"
    );
    // A file that is not there is a usage error naming it, before anything is read.
    refuses_a_file_it_cannot_read("jsonpath-file", &dir.path().join("nope.tpl"));
    // A template in the file that does not parse says which file.
    std::fs::write(&template, "{.items[0").unwrap();
    kp().args([
        "--demo",
        "get",
        "-o",
        &format!("jsonpath-file={}", template.display()),
    ])
    .assert()
    .code(1)
    .stderr(predicate::str::contains("names.tpl").and(predicate::str::contains("unclosed")));
}

#[test]
fn custom_columns_file_is_a_line_of_headers_and_a_line_of_paths() {
    let (dir, f) = labelled();
    let spec = dir.path().join("columns.txt");
    std::fs::write(
        &spec,
        "NAME   TEAM\n.metadata.name   {.metadata.labels.team}\n",
    )
    .unwrap();
    let out = stdout(&[
        "-f",
        &f,
        "-n",
        "shop",
        "get",
        "-o",
        &format!("custom-columns-file={}", spec.display()),
    ]);
    insta::assert_snapshot!(out, @r"
    NAME          TEAM
    cart-tls      payments
    cart-tls-10   web
    cart-tls-9    <none>
    ");
    refuses_a_file_it_cannot_read("custom-columns-file", &dir.path().join("nope.txt"));
    std::fs::write(&spec, "NAME TEAM\n.metadata.name\n").unwrap();
    kp().args([
        "--demo",
        "get",
        "-o",
        &format!("custom-columns-file={}", spec.display()),
    ])
    .assert()
    .code(1)
    .stderr(predicate::str::contains(
        "number of headers (2) and field specifications (1) don't match",
    ));
}

#[test]
fn jsonpath_as_json_prints_each_result_list_as_an_indented_json_array() {
    let (_dir, f) = labelled();
    let run = |template: &str| {
        stdout(&[
            "-f",
            &f,
            "-n",
            "shop",
            "get",
            "-o",
            &format!("jsonpath-as-json={template}"),
        ])
    };
    assert_eq!(
        run("{.items[*].metadata.name}"),
        "[\n    \"cart-tls\",\n    \"cart-tls-10\",\n    \"cart-tls-9\"\n]\n"
    );
    // Maps with sorted keys; a key no item has is an empty array.
    assert_eq!(
        run("{.items[0].metadata.labels}{.items[*].nope}"),
        "[\n    {\n        \"env\": \"prod\",\n        \"team\": \"payments\"\n    }\n]\n[]\n"
    );
    // What it prints is JSON a script can read back.
    let read: serde_json::Value = serde_json::from_str(&run(
        "{.items[?(@.computed.status==\"Overridden\")].computed.targets[*].name}",
    ))
    .unwrap();
    assert_eq!(read, serde_json::json!(["cart", "gone"]));
    kp().args(["--demo", "get", "-o", "jsonpath-as-json={.items[0"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("-o jsonpath: unclosed"));
}

#[test]
fn sort_by_orders_rows_by_a_jsonpath_naturally_and_missing_first() {
    let (_dir, f) = labelled();
    let sorted = |path: &str| names(&stdout(&["-f", &f, "-n", "shop", "get", "--sort-by", path]));
    // Natural order: 9 before 10.
    assert_eq!(
        sorted(".metadata.name"),
        ["cart-tls", "cart-tls-9", "cart-tls-10"]
    );
    // Numbers by value; ties keep the table's order.
    assert_eq!(
        sorted("{.computed.affects}"),
        ["cart-tls-9", "cart-tls", "cart-tls-10"]
    );
    // A row without the field comes first.
    assert_eq!(
        sorted(".metadata.labels.team"),
        ["cart-tls-9", "cart-tls", "cart-tls-10"]
    );
    // The same order in every format.
    let j = json(&[
        "-f",
        &f,
        "-n",
        "shop",
        "get",
        "--sort-by",
        "metadata.name",
        "-o",
        "json",
    ]);
    assert_eq!(j["items"][1]["metadata"]["name"], "cart-tls-9");
}

#[test]
fn show_labels_adds_kubectls_labels_column() {
    let (_dir, f) = labelled();
    let out = stdout(&["-f", &f, "-n", "shop", "get", "--show-labels"]);
    let header = out.lines().next().unwrap();
    assert!(header.ends_with("   LABELS"), "{header}");
    let labels: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().last().unwrap())
        .collect();
    assert_eq!(labels, ["env=prod,team=payments", "team=web", "<none>"]);
    // -o json carries the labels the column shows.
    let j = json(&["-f", &f, "-n", "shop", "get", "-o", "json"]);
    let metadata = |i: usize| &j["items"][i]["metadata"];
    assert_eq!(metadata(1)["labels"], serde_json::json!({"team": "web"}));
    assert!(metadata(2).get("labels").is_none());
}

#[test]
fn several_objects_are_answered_in_order_and_a_missing_one_reported() {
    // Human: each answer as it is alone, apart as kubectl describe sets them.
    let one = |name: &str| stdout(&["--demo", "describe", name, "-n", "baker"]);
    let both = stdout(&[
        "--demo",
        "describe",
        "svc/oven",
        "httproute/baker",
        "-n",
        "baker",
    ]);
    assert_eq!(
        both,
        format!("{}\n\n{}", one("svc/oven"), one("httproute/baker"))
    );
    // TYPE NAME NAME..., with one missing: the others answered, exit 1 at the end.
    let out = kp()
        .args([
            "--demo",
            "describe",
            "svc",
            "oven",
            "nope",
            "sprinkles",
            "-n",
            "baker",
            "-o",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "Error from server (NotFound): services \"nope\" not found in namespace baker\n"
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["kind"], "List");
    let targets: Vec<&str> = j["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["target"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(targets, ["oven", "sprinkles"]);
    // One object keeps its own shape.
    let j = json(&[
        "--demo", "describe", "svc/oven", "-n", "baker", "-o", "json",
    ]);
    assert_eq!(j["kind"], "TargetDescription");
}

#[test]
fn effective_tree_and_blast_radius_take_several_objects() {
    let j = json(&[
        "--demo",
        "effective",
        "svc/sprinkles",
        "svc/oven",
        "-n",
        "baker",
        "-o",
        "json",
    ]);
    assert_eq!(j["kind"], "List");
    assert_eq!(j["items"][0]["target"]["name"], "sprinkles");
    assert_eq!(j["items"][1]["kind"], "EffectivePolicies");
    let trees = stdout(&["--demo", "tree", "svc/oven", "svc/sprinkles", "-n", "baker"]);
    let roots: Vec<&str> = trees
        .lines()
        .filter(|l| l.starts_with("Service "))
        .collect();
    assert_eq!(roots, ["Service baker/oven", "Service baker/sprinkles"]);
    let j = json(&[
        "--demo",
        "blast-radius",
        "retrypolicy",
        "ns-retries",
        "baker-orders-retries",
        "-n",
        "baker",
        "-o",
        "json",
    ]);
    let policies: Vec<&str> = j["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["policy"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(policies, ["ns-retries", "baker-orders-retries"]);
    // A missing policy among them: the gate fails (exit 1), never passes quietly.
    kp().args([
        "--demo",
        "blast-radius",
        "retrypolicy/ns-retries",
        "retrypolicy/gone",
        "-n",
        "baker",
        "--exit-code",
    ])
    .assert()
    .code(1)
    .stderr(predicate::str::contains("\"gone\" not found"));
    kp().args([
        "--demo",
        "blast-radius",
        "retrypolicy/ns-retries",
        "retrypolicy/baker-orders-retries",
        "-n",
        "baker",
        "--exit-code",
    ])
    .assert()
    .code(3);
}

#[test]
fn sections_are_objects_wherever_a_type_name_is_taken() {
    // describe, effective, tree, graph and blast-radius's neighbours take NAME#section,
    // the spelling the TARGETS column prints.
    let d = json(&[
        "--demo",
        "describe",
        "httproute/baker#orders",
        "-n",
        "baker",
        "-o",
        "json",
    ]);
    assert_eq!(d["target"]["sectionName"], "orders");
    let direct: Vec<&str> = d["policies"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["relation"] == "direct")
        .map(|p| p["policy"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(direct, ["baker-orders-retries"]);
    let text = stdout(&["--demo", "describe", "gtw/cupcake-gw#https", "-n", "infra"]);
    assert!(
        text.lines()
            .nth(1)
            .unwrap()
            .starts_with("Section:      https"),
        "{text}"
    );
    let e = json(&[
        "--demo",
        "effective",
        "svc",
        "oven#https",
        "-n",
        "baker",
        "-o",
        "json",
    ]);
    assert_eq!(e["target"]["sectionName"], "https");
    let tree = stdout(&["--demo", "tree", "gtw/cupcake-gw#https", "-n", "infra"]);
    // At the top, the section says whose it is.
    assert!(
        tree.starts_with("listener https of Gateway infra/cupcake-gw\n"),
        "{tree}"
    );
    let graph = stdout(&["--demo", "graph", "svc/oven#https", "-n", "baker"]);
    assert!(graph.starts_with("digraph"), "{graph}");
    // A section that is not there: the object's sections, and the nearest.
    kp().args(["--demo", "describe", "httproute/baker#order", "-n", "baker"])
        .assert()
        .code(1)
        .stderr(
            "error: httproute \"baker\" has no section \"order\" (its sections: orders, rule-2); did you mean httproute/baker#orders?\n",
        );
    kp().args([
        "--demo",
        "describe",
        "retrypolicy/ns-retries#x",
        "-n",
        "baker",
    ])
    .assert()
    .code(1)
    .stderr(predicate::str::contains("a policy has no sections"));
}

#[test]
fn describe_and_effective_of_an_object_answer_for_its_sections_that_differ() {
    let e = json(&[
        "--demo",
        "effective",
        "svc/oven",
        "-n",
        "baker",
        "-o",
        "json",
    ]);
    let sections = e["sections"].as_array().unwrap();
    assert_eq!(sections.len(), 1, "{e}");
    assert_eq!(sections[0]["sectionName"], "https");
    assert_eq!(
        sections[0]["effective"][0]["policyKind"]["kind"],
        "BackendTLSPolicy"
    );
    // The object's own list holds the object's specs only.
    assert!(e["effective"]
        .as_array()
        .unwrap()
        .iter()
        .all(|x| x["target"].get("sectionName").is_none()));
    // --kind narrows the sections too: RetryPolicy is the same on every port.
    let e = json(&[
        "--demo",
        "effective",
        "svc/oven",
        "-n",
        "baker",
        "--kind",
        "retrypolicy",
        "-o",
        "json",
    ]);
    assert!(e.get("sections").is_none(), "{e}");
    // The human page shows each differing section after the object's own.
    let text = stdout(&["--demo", "describe", "svc/oven", "-n", "baker"]);
    let at = text
        .find("BackendTLSPolicy.gateway.networking.k8s.io at port https of Service baker/oven")
        .unwrap();
    assert!(at > text.find("RetryPolicy.resilience.example.io").unwrap());
}

#[test]
fn one_policy_named_is_answered_as_itself_as_kubectl_get_kind_name_is() {
    let (_dir, f) = labelled();
    let status = stdout(&[
        "-f",
        &f,
        "-n",
        "shop",
        "get",
        "btlspolicy",
        "cart-tls-9",
        "-o",
        "jsonpath={.computed.status}",
    ]);
    assert_eq!(status, "TargetNotFound");
    let j = json(&[
        "-f",
        &f,
        "-n",
        "shop",
        "get",
        "btlspolicy/cart-tls",
        "-o",
        "json",
    ]);
    assert_eq!(j["metadata"]["name"], "cart-tls");
    // Two names, or a kind: a List.
    let j = json(&[
        "-f",
        &f,
        "-n",
        "shop",
        "get",
        "btlspolicy",
        "cart-tls",
        "cart-tls-9",
        "-o",
        "json",
    ]);
    assert_eq!(j["kind"], "List");
    let j = json(&["-f", &f, "-n", "shop", "get", "btlspolicy", "-o", "json"]);
    assert_eq!(j["kind"], "List");
}

#[test]
fn demo_describe_a_listener_section() {
    insta::assert_snapshot!(stdout(&[
        "--demo",
        "describe",
        "gateway/cupcake-gw#https",
        "-n",
        "infra"
    ]));
}

#[test]
fn demo_tree_of_two_objects() {
    insta::assert_snapshot!(stdout(&[
        "--demo",
        "tree",
        "httproute",
        "sprinkles",
        "icing",
        "-n",
        "baker"
    ]));
}

/// `get -o FORM=MISSING` is a usage error naming the file, before anything is read.
fn refuses_a_file_it_cannot_read(form: &str, missing: &std::path::Path) {
    kp().args([
        "--demo",
        "get",
        "-o",
        &format!("{form}={}", missing.display()),
    ])
    .assert()
    .code(1)
    .stdout("")
    .stderr(predicate::str::contains(format!(
        "-o {form}: cannot read {:?}",
        missing.display().to_string()
    )));
}

/// kubectl reads `--output-watch-events` only when it watches: without -w it is
/// accepted and `get` answers as without it.
#[test]
fn output_watch_events_without_watch_is_accepted_and_changes_nothing() {
    for output in ["json", "wide", "name"] {
        let plain = stdout(&["get", "-A", "--demo", "-o", output]);
        let flagged = stdout(&["get", "-A", "--demo", "-o", output, "--output-watch-events"]);
        assert_eq!(plain, flagged, "-o {output}");
    }
}
