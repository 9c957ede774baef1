//! The binary, driven as a user runs it: flags, formats, exit codes, stderr.

use crate::command::{json, kp, stdout};
use predicates::prelude::*;
use serde_json::Value;

#[test]
fn demo_describe_route_tells_that_which_and_what() {
    insta::assert_snapshot!(stdout(&[
        "--demo",
        "describe",
        "httproute/baker",
        "-n",
        "baker"
    ]));
}

#[test]
fn describe_wide_spells_out_class_relation_and_attachment() {
    // The route: the ClientTrafficPolicy on listener https reaches it (the client
    // side), not its backend Service.
    let out = stdout(&[
        "--demo",
        "describe",
        "httproute/sprinkles",
        "-n",
        "baker",
        "-o",
        "wide",
    ]);
    let header = out.lines().find(|l| l.contains("KIND")).unwrap();
    assert!(
        header.contains("CLASS") && header.contains("ATTACHED TO"),
        "{header}"
    );
    assert!(
        out.contains("listener https of Gateway infra/cupcake-gw"),
        "{out}"
    );
    // The default page says the same within 100 columns.
    let page = stdout(&["--demo", "describe", "httproute/sprinkles", "-n", "baker"]);
    assert!(page.contains("from Gateway/cupcake-gw#https"), "{page}");
    let page = stdout(&["--demo", "describe", "service/sprinkles", "-n", "baker"]);
    assert!(page.contains("attached here"), "{page}");
    assert!(!page.contains("ClientTrafficPolicy"), "{page}");
}

#[test]
fn demo_describe_policy_shows_reach_and_count() {
    insta::assert_snapshot!(stdout(&[
        "--demo",
        "describe",
        "retrypolicy/ns-retries",
        "-n",
        "baker"
    ]));
}

#[test]
fn demo_describe_gateway_lists_its_listeners_and_routes() {
    insta::assert_snapshot!(stdout(&[
        "--demo",
        "describe",
        "gateway/cupcake-gw",
        "-n",
        "infra"
    ]));
    let j = json(&[
        "--demo",
        "describe",
        "gateway/cupcake-gw",
        "-n",
        "infra",
        "-o",
        "json",
    ]);
    assert_eq!(
        j["listeners"],
        serde_json::json!([
            {"name": "http", "port": 80, "protocol": "HTTP", "attachedRoutes": 4},
            {"name": "https", "port": 443, "protocol": "HTTPS", "hostname": "*.cupcakes.example", "attachedRoutes": 3}
        ])
    );
    let routes: Vec<String> = j["routes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "{}/{} {}",
                r["route"]["namespace"].as_str().unwrap(),
                r["route"]["name"].as_str().unwrap(),
                r["listeners"]
            )
        })
        .collect();
    // legacy/legacy is not admitted by any listener: not attached.
    assert_eq!(
        routes,
        [
            r#"baker/baker ["http","https"]"#,
            r#"baker/icing ["https"]"#,
            r#"baker/oven ["http"]"#,
            r#"baker/sprinkles ["http","https"]"#,
            r#"frosting/glaze ["http"]"#,
        ]
    );
    // Other objects have no listeners to list.
    let route = json(&[
        "--demo",
        "describe",
        "httproute/baker",
        "-n",
        "baker",
        "-o",
        "json",
    ]);
    assert!(route.get("listeners").is_none() && route.get("routes").is_none());
}

#[test]
fn demo_get_all_namespaces() {
    insta::assert_snapshot!(stdout(&["--demo", "get", "-A"]));
}

#[test]
fn demo_get_wide_and_no_headers() {
    let out = stdout(&["--demo", "get", "-n", "infra", "-o", "wide", "--no-headers"]);
    assert!(!out.contains("NAME"));
    assert!(out.contains("gateway-timeouts"));
    assert!(
        out.contains("Atomic Defaults"),
        "wide shows the strategy: {out}"
    );
    assert!(
        out.contains("registry"),
        "wide shows where the class came from: {out}"
    );
}

#[test]
fn demo_get_kinds() {
    let out = stdout(&["--demo", "get", "kinds"]);
    assert!(out.starts_with("KIND "));
    let line = out.lines().find(|l| l.starts_with("RetryPolicy ")).unwrap();
    assert!(
        line.contains("resilience.example.io") && line.contains("label") && line.contains(" 3"),
        "{line}"
    );
    assert!(out
        .lines()
        .any(|l| l.starts_with("BackendTLSPolicy ") && l.contains("registry")));
    let j = json(&["--demo", "get", "kinds", "-o", "json"]);
    assert_eq!(j["kind"], "List");
    assert!(j["items"]
        .as_array()
        .unwrap()
        .iter()
        .any(|k| k["kind"] == "RateLimitPolicy" && k["group"] == "kuadrant.io"));
}

#[test]
fn demo_tree() {
    insta::assert_snapshot!(stdout(&["--demo", "tree", "-A"]));
}

#[test]
fn demo_check_exits_1_on_errors() {
    let out = kp().args(["--demo", "check", "-A"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!(String::from_utf8(out.stdout).unwrap());
}

#[test]
fn check_on_a_clean_input_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("ok.yaml");
    std::fs::write(
        &f,
        "apiVersion: v1\nkind: Service\nmetadata: {name: a, namespace: default}\n",
    )
    .unwrap();
    kp().args(["-f", f.to_str().unwrap(), "check"])
        .assert()
        .success()
        .stdout("No findings.\n");
}

#[test]
fn describe_target_json_shape() {
    let j = json(&[
        "--demo",
        "describe",
        "httproute",
        "baker",
        "-n",
        "baker",
        "-o",
        "json",
    ]);
    assert_eq!(j["kind"], "TargetDescription");
    assert_eq!(
        j["target"],
        serde_json::json!({"group": "gateway.networking.k8s.io", "kind": "HTTPRoute", "namespace": "baker", "name": "baker"})
    );
    let ns = j["policies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["policy"]["name"] == "ns-retries")
        .unwrap();
    assert_eq!(ns["relation"], "inherited");
    assert_eq!(
        ns["attachedTo"],
        serde_json::json!({"group": "", "kind": "Namespace", "name": "baker"})
    );
    // The rule whose effective spec differs from the route's is answered under `sections`.
    let sections = j["sections"].as_array().unwrap();
    assert_eq!(sections.len(), 1);
    assert_eq!(sections[0]["sectionName"], "orders");
    let rule = sections[0]["effective"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["target"]["sectionName"] == "orders")
        .unwrap();
    assert!(j["effective"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["target"].get("sectionName").is_none()));
    assert_eq!(rule["spec"]["attempts"], 2);
    let src: Vec<(String, String)> = rule["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["path"].as_str().unwrap().to_string(),
                s["policy"]["name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(src.contains(&("/attempts".into(), "baker-orders-retries".into())));
    assert!(src.contains(&("/backoff".into(), "ns-retries".into())));
    assert!(j["blindSpots"].as_array().unwrap().is_empty());
}

#[test]
fn describe_policy_json_shape() {
    let j = json(&[
        "--demo",
        "describe",
        "backendtlspolicy/sprinkles-tls-new",
        "-n",
        "baker",
        "-o",
        "json",
    ]);
    assert_eq!(j["kind"], "PolicyDescription");
    assert_eq!(j["class"], "Direct");
    assert_eq!(j["classSource"], "registry");
    assert_eq!(j["status"]["computed"], "Conflicted");
    assert_eq!(j["status"]["reported"][0]["type"], "Accepted");
    assert_eq!(j["status"]["reported"][0]["status"], "True");
    assert!(j["findings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["code"] == "StatusDisagrees"));
    let dangling = json(&[
        "--demo",
        "describe",
        "retrypolicy/old-baker-retries",
        "-n",
        "baker",
        "-o",
        "json",
    ]);
    // Its own settings, without what it targets; and at each object, what of it loses
    // there and to whom.
    assert_eq!(
        j["settings"],
        serde_json::json!({"validation": {"hostname": "sprinkles.cupcakes.internal", "wellKnownCACertificates": "System"}})
    );
    let sprinkles = j["affects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["target"]["name"] == "sprinkles" && a["target"].get("sectionName").is_none())
        .unwrap();
    assert_eq!(sprinkles["status"], "Conflicted");
    let lost: Vec<(&str, &str)> = sprinkles["overridden"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["path"].as_str().unwrap(),
                o["by"]["name"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        lost,
        [
            ("/validation/hostname", "sprinkles-tls"),
            ("/validation/wellKnownCACertificates", "sprinkles-tls")
        ]
    );
    let ns_retries = json(&[
        "--demo",
        "describe",
        "retrypolicy/ns-retries",
        "-n",
        "baker",
        "-o",
        "json",
    ]);
    assert!(ns_retries["settings"].get("targetRef").is_none());
    assert_eq!(ns_retries["settings"]["defaults"]["attempts"], 5);
    for a in ns_retries["affects"].as_array().unwrap() {
        let overridden = a["overridden"].as_array().unwrap();
        // Where it is Enforced nothing of it loses; where it is not, something does.
        assert_eq!(overridden.is_empty(), a["status"] == "Enforced", "{a}");
    }
    assert_eq!(dangling["targets"][0]["resolved"], false);
    assert_eq!(dangling["targets"][0]["reason"], "TargetNotFound");
    assert_eq!(dangling["affectsCount"], 0);
}

#[test]
fn effective_for_people_by_default_yaml_json_and_kind_filter() {
    let y = stdout(&[
        "--demo",
        "effective",
        "service/oven",
        "-n",
        "baker",
        "-o",
        "yaml",
    ]);
    assert!(y.starts_with("kind: EffectivePolicies"), "{y}");
    // For people: each setting with the policy that set it and how it arrives, within
    // 100 columns.
    let human = stdout(&["--demo", "effective", "httproute/baker", "-n", "baker"]);
    insta::assert_snapshot!(human);
    assert!(human.lines().all(|l| l.chars().count() <= 100), "{human}");
    assert!(
        human.contains("attempts: 5            # ns-retries, from Namespace/baker"),
        "{human}"
    );
    let j = json(&[
        "--demo",
        "effective",
        "httproute/baker",
        "-n",
        "baker",
        "--kind",
        "retrypolicy",
        "-o",
        "json",
    ]);
    let kinds: Vec<&str> = j["effective"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["policyKind"]["kind"].as_str().unwrap())
        .collect();
    assert!(!kinds.is_empty() && kinds.iter().all(|k| *k == "RetryPolicy"));
}

#[test]
fn output_name_is_kind_dot_group_slash_name() {
    let out = stdout(&["--demo", "get", "-n", "baker", "-o", "name"]);
    assert!(
        out.lines()
            .any(|l| l == "retrypolicy.resilience.example.io/ns-retries"),
        "{out}"
    );
}

#[test]
fn get_json_and_yaml_are_lists() {
    let j = json(&["--demo", "get", "-A", "-o", "json"]);
    assert_eq!(j["kind"], "List");
    let item = j["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["metadata"]["name"] == "ns-retries")
        .unwrap();
    assert_eq!(item["computed"]["affects"], 8);
    let y = stdout(&["--demo", "get", "-A", "-o", "yaml"]);
    assert!(y.contains("kind: List"));
}

#[test]
fn kubectl_type_spellings_work() {
    for t in [
        "httproute/baker",
        "httproutes/baker",
        "HTTPRoute/baker",
        "httproute.gateway.networking.k8s.io/baker",
    ] {
        kp().args(["--demo", "describe", t, "-n", "baker"])
            .assert()
            .success();
    }
    kp().args(["--demo", "describe", "svc/oven", "-n", "baker"])
        .assert()
        .success();
    kp().args(["--demo", "describe", "gtw/cupcake-gw", "-n", "infra"])
        .assert()
        .success();
    kp().args(["--demo", "describe", "gc/cupcake-class"])
        .assert()
        .success();
}

#[test]
fn not_found_names_the_object_and_hints_the_namespace() {
    kp().args(["--demo", "describe", "httproute/baker"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "httproutes.gateway.networking.k8s.io \"baker\" not found in namespace default",
        ))
        .stderr(predicate::str::contains("add -n baker"));
}

#[test]
fn syntax_error_names_file_document_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("broken.yaml");
    std::fs::write(
        &f,
        "apiVersion: v1\nkind: Service\nmetadata: {name: a}\n---\nkind: [oops\n",
    )
    .unwrap();
    let out = kp()
        .args(["-f", f.to_str().unwrap(), "get"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("broken.yaml: document 2, line "), "{err}");
}

#[test]
fn directories_lists_and_stdin_load() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("nested")).unwrap();
    std::fs::write(
        dir.path().join("nested/routes.json"),
        r#"{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRouteList","items":[{"metadata":{"name":"r","namespace":"default"},"spec":{"parentRefs":[{"name":"g"}]}}]}"#,
    )
    .unwrap();
    std::fs::write(dir.path().join("ignored.txt"), "not yaml").unwrap();
    std::fs::write(
        dir.path().join("policy.yml"),
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: example.io/v1\n  kind: ColorPolicy\n  metadata: {name: p, namespace: default}\n  spec: {targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: r}, color: red}\n",
    )
    .unwrap();
    let out = stdout(&["-f", dir.path().to_str().unwrap(), "get", "-o", "name"]);
    assert_eq!(out, "colorpolicy.example.io/p\n");
    let out = kp()
        .args(["-f", "-", "get", "kinds"])
        .write_stdin(std::fs::read_to_string(dir.path().join("policy.yml")).unwrap())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let words: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with("ColorPolicy"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(
        words,
        ["ColorPolicy", "example.io", "Inherited", "assumed", "1"]
    );
}

#[test]
fn policy_kind_flag_declares_a_kind() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("p.yaml");
    std::fs::write(&f, "apiVersion: example.io/v1\nkind: Throttle\nmetadata: {name: t, namespace: default}\nspec: {targetRef: {group: \"\", kind: Service, name: s}}\n").unwrap();
    let path = f.to_str().unwrap();
    kp().args(["-f", path, "get", "-o", "name"])
        .assert()
        .success()
        .stdout("");
    let out = stdout(&[
        "-f",
        path,
        "--policy-kind",
        "Throttle.example.io=direct",
        "get",
        "kinds",
    ]);
    let words: Vec<&str> = out
        .lines()
        .find(|l| l.starts_with("Throttle"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(words, ["Throttle", "example.io", "Direct", "declared", "1"]);
    kp().args([
        "-f",
        path,
        "--policy-kind",
        "Throttle.example.io=sideways",
        "get",
    ])
    .assert()
    .code(1)
    .stderr(predicate::str::contains("direct or inherited"));
}

#[test]
fn unknown_output_format_is_a_usage_error() {
    kp().args(["--demo", "get", "-o", "xml"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("unknown output format \"xml\""));
}

#[test]
fn no_colour_when_not_a_terminal_and_colour_when_asked() {
    let plain = stdout(&["--demo", "get", "-A"]);
    assert!(!plain.contains('\u{1b}'));
    let coloured = stdout(&["--demo", "get", "-A", "--color", "always"]);
    assert!(coloured.contains("\u{1b}[32mEnforced"), "{coloured}");
    let j = stdout(&[
        "--demo",
        "describe",
        "httproute/baker",
        "-n",
        "baker",
        "-o",
        "json",
        "--color",
        "always",
    ]);
    assert!(!j.contains('\u{1b}'), "never colour in json");
}

#[test]
fn usage_says_kubectl_policies() {
    kp().arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Usage: kubectl policies"));
}

#[test]
fn status_words_have_one_legend_in_help_and_readme() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let get = stdout(&["get", "--help"]);
    let legend = &get[get.find("Status words").expect("get --help has the legend")..];
    assert!(
        readme.contains(legend.trim_end()),
        "README is stale; paste:\n{legend}"
    );
    for command in ["describe", "tree"] {
        let help = stdout(&[command, "--help"]);
        assert!(help.contains(legend.trim_end()), "{command} --help");
    }
    // Every status word the tool prints is in it.
    for word in [
        "Enforced",
        "PartiallyEnforced",
        "Overridden",
        "Conflicted",
        "TargetNotFound",
        "SectionNotFound",
        "SelectorBound",
        "Invalid",
    ] {
        assert!(legend.contains(&format!("\n  {word} ")), "{word}");
    }
    for line in legend.lines() {
        assert!(line.chars().count() <= 100, "{line}");
    }
}

/// Every human page of the demo (`describe` of each object, section and policy, its
/// `-o tree`, `effective` of each object, `tree -A`) fits in 100 columns: the demo's
/// names are short.
#[test]
fn every_human_page_of_the_demo_fits_100_columns() {
    let dump = json(&["--demo", "dump", "-A", "-o", "json"]);
    let mut pages: Vec<Vec<String>> = vec![vec!["tree".into(), "-A".into()]];
    for o in dump["items"].as_array().unwrap() {
        let kind = o["kind"].as_str().unwrap();
        if kind == "CustomResourceDefinition" {
            continue;
        }
        let group = o["apiVersion"]
            .as_str()
            .unwrap()
            .rsplit_once('/')
            .map_or("", |(g, _)| g);
        let name = o["metadata"]["name"].as_str().unwrap();
        let ty = match group {
            "" => kind.to_lowercase(),
            g => format!("{}.{g}", kind.to_lowercase()),
        };
        let ns = o["metadata"]["namespace"].as_str();
        let scope: Vec<String> = match ns {
            Some(ns) => vec!["-n".into(), ns.into()],
            None => vec![],
        };
        let is_policy = kind.ends_with("Policy");
        // The object, and each of its sections: listeners, rules, ports.
        let mut objects = vec![format!("{ty}/{name}")];
        let sections = |field: &str| -> Vec<Value> {
            o["spec"][field].as_array().cloned().unwrap_or_default()
        };
        for s in sections("listeners").iter().chain(&sections("ports")) {
            if let Some(section) = s["name"].as_str() {
                objects.push(format!("{ty}/{name}#{section}"));
            }
        }
        for (i, rule) in sections("rules").iter().enumerate() {
            let section = rule["name"]
                .as_str()
                .map_or(format!("rule-{}", i + 1), str::to_string);
            objects.push(format!("{ty}/{name}#{section}"));
        }
        for object in objects {
            let mut commands = vec![
                vec!["describe".to_string(), object.clone()],
                vec![
                    "describe".into(),
                    object.clone(),
                    "-o".into(),
                    "tree".into(),
                ],
            ];
            // (`effective` of a Namespace is answered with "use -n".)
            if !is_policy && kind != "Namespace" {
                commands.push(vec!["effective".into(), object.clone()]);
            }
            for c in commands {
                pages.push(c.into_iter().chain(scope.iter().cloned()).collect());
            }
        }
    }
    assert!(pages.len() > 60, "{} pages", pages.len());
    for page in pages {
        let args: Vec<&str> = std::iter::once("--demo")
            .chain(page.iter().map(String::as_str))
            .collect();
        let out = kp().args(&args).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.is_empty(), "{args:?} printed nothing");
        for line in text.lines() {
            assert!(
                line.chars().count() <= 100,
                "{args:?}: {} columns:\n{line}",
                line.chars().count()
            );
        }
    }
}

#[test]
fn usage_errors_exit_1() {
    kp().args(["--demo", "frobnicate"]).assert().code(1);
    kp().args(["--demo", "describe"]).assert().code(1);
    kp().args(["--demo", "describe", "nonsense/x"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("resource type"));
}

#[test]
fn blast_radius_of_the_parable_and_exit_code() {
    let out = stdout(&[
        "--demo",
        "blast-radius",
        "retrypolicy/ns-retries",
        "-n",
        "baker",
    ]);
    assert!(out.starts_with(
        "Deleting RetryPolicy baker/ns-retries changes the effective RetryPolicy of 4 HTTPRoutes and 4 Services in 1 namespace (baker)\n"
    ));
    assert!(out.contains("BEFORE→AFTER"));
    kp().args([
        "--demo",
        "blast-radius",
        "retrypolicy/ns-retries",
        "-n",
        "baker",
        "--exit-code",
    ])
    .assert()
    .code(3);
    kp().args([
        "--demo",
        "blast-radius",
        "backendtlspolicy/sprinkles-tls-new",
        "-n",
        "baker",
        "--exit-code",
    ])
    .assert()
    .code(0)
    .stdout(predicate::str::contains(
        "changes nothing: it loses to an older policy",
    ));
    let j = json(&[
        "--demo",
        "blast-radius",
        "retrypolicy/ns-retries",
        "-n",
        "baker",
        "-o",
        "json",
    ]);
    assert_eq!(j["kind"], "BlastRadius");
    assert_eq!(
        j["summary"]["byKind"],
        serde_json::json!({"HTTPRoute": 4, "Service": 4})
    );
}

#[test]
fn blast_radius_of_applying_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("override.yaml");
    std::fs::write(
        &f,
        "apiVersion: resilience.example.io/v1alpha1\nkind: RetryPolicy\nmetadata: {name: gw-no-retries, namespace: infra}\nspec:\n  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: cupcake-gw}\n  overrides: {attempts: 0}\n",
    )
    .unwrap();
    let j = json(&[
        "--demo",
        "blast-radius",
        "--apply",
        f.to_str().unwrap(),
        "-o",
        "json",
    ]);
    assert_eq!(j["apply"][0], f.to_str().unwrap());
    let changes = j["changes"].as_array().unwrap();
    assert!(!changes.is_empty());
    let after = |name: &str, section: Option<&str>| {
        changes
            .iter()
            .find(|c| {
                c["target"]["kind"] == "HTTPRoute"
                    && c["target"]["name"] == name
                    && c["target"].get("sectionName").and_then(|s| s.as_str()) == section
            })
            .map(|c| c["after"].clone())
            .unwrap()
    };
    assert_eq!(after("baker", None), serde_json::json!({"attempts": 0}));
    assert_eq!(
        after("icing", Some("rule-1")),
        serde_json::json!({"attempts": 0})
    );
    // An override holds against everything below it (GEP-2649's order): the rule-level
    // policy under the namespace default does not win back `attempts` on the orders rule.
    assert_eq!(
        after("baker", Some("orders")),
        serde_json::json!({"attempts": 0})
    );
    kp().args([
        "--demo",
        "blast-radius",
        "--apply",
        f.to_str().unwrap(),
        "--exit-code",
    ])
    .assert()
    .code(3);
}

#[test]
fn describe_tree_of_a_target_shows_the_paths_down_to_it_and_what_reaches_it() {
    insta::assert_snapshot!(stdout(&[
        "--demo",
        "describe",
        "httproute/baker",
        "-n",
        "baker",
        "-o",
        "tree"
    ]));
}

#[test]
fn describe_tree_of_a_policy_shows_its_targets_and_reach() {
    insta::assert_snapshot!(stdout(&[
        "--demo",
        "describe",
        "retrypolicy/ns-retries",
        "-n",
        "baker",
        "-o",
        "tree"
    ]));
    assert_eq!(
        stdout(&[
            "--demo",
            "describe",
            "retrypolicy/old-baker-retries",
            "-n",
            "baker",
            "-o",
            "tree"
        ]),
        "◆ RetryPolicy baker/old-baker-retries  TargetNotFound\n└── HTTPRoute baker/baker-v1  TargetNotFound\n"
    );
}

#[test]
fn describe_tree_of_a_backend_leaves_out_direct_policies_that_do_not_reach_it() {
    let out = stdout(&[
        "--demo", "describe", "svc/oven", "-n", "baker", "-o", "tree",
    ]);
    assert!(
        out.contains("◆ BackendTLSPolicy baker/oven-tls  Enforced"),
        "{out}"
    );
    // The Conflicted BackendTLSPolicy on Service sprinkles reaches nothing here.
    assert!(!out.contains("sprinkles-tls"), "{out}");
    assert!(out.starts_with("GatewayClass cupcake-class\n"), "{out}");
}

#[test]
fn no_headers_applies_to_every_table() {
    for (args, header) in [
        (&["--demo", "get", "-A"][..], "NAMESPACE"),
        (&["--demo", "get", "-A", "-o", "wide"][..], "NAMESPACE"),
        (&["--demo", "get", "kinds"][..], "KIND"),
        (&["--demo", "get", "kinds", "-o", "wide"][..], "KIND"),
        (
            &[
                "--demo",
                "blast-radius",
                "retrypolicy/ns-retries",
                "-n",
                "baker",
            ][..],
            "KIND ",
        ),
    ] {
        let with = stdout(args);
        assert!(with.contains(header), "{args:?}: {with}");
        let without = stdout(&[args, &["--no-headers"]].concat());
        assert!(!without.contains(header), "{args:?}: {without}");
        assert_eq!(
            with.lines().count(),
            without.lines().count() + 1,
            "{args:?}: only the header row goes"
        );
    }
    let out = kp()
        .args(["--demo", "check", "-A", "--no-headers"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("error "), "{text}");
    assert!(!text.contains("SEVERITY"), "{text}");
}

#[test]
fn every_command_names_its_formats_when_given_a_wrong_one() {
    for (command, formats) in [
        (
            &["get"][..],
            "table, wide, json, yaml, name, jsonpath=, jsonpath-file=, jsonpath-as-json=, custom-columns=, custom-columns-file=",
        ),
        (&["get", "kinds"][..], "table, wide, json, yaml"),
        (
            &["describe", "httproute/baker", "-n", "baker"][..],
            "human, wide, json, yaml, tree",
        ),
        (
            &["effective", "svc/oven", "-n", "baker"][..],
            "human, yaml, json",
        ),
        (&["tree"][..], "tree, json, yaml"),
        (
            &["blast-radius", "retrypolicy/ns-retries", "-n", "baker"][..],
            "human, json, yaml",
        ),
        (&["graph"][..], "dot, mermaid"),
        (&["check"][..], "table, json, yaml"),
    ] {
        kp().args(["--demo", "-o", "xml"])
            .args(command)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(format!("(use one of: {formats})")));
    }
}

/// ANSI SGR for each status as the tables print it.
#[test]
fn statuses_are_coloured_green_yellow_red() {
    let out = stdout(&["--demo", "get", "-A", "--color", "always"]);
    let line = |name: &str| out.lines().find(|l| l.contains(name)).unwrap().to_string();
    assert!(line("oven-tls").contains("\u{1b}[32mEnforced"), "{out}");
    assert!(
        line("ns-retries").contains("\u{1b}[33mPartiallyEnforced"),
        "{out}"
    );
    assert!(
        line("sprinkles-tls-new").contains("\u{1b}[31mConflicted"),
        "{out}"
    );
    assert!(
        line("old-baker-retries").contains("\u{1b}[31mTargetNotFound"),
        "{out}"
    );
}

#[test]
fn tables_trees_and_text_follow_color_always_and_never() {
    for args in [
        &["--demo", "get", "kinds"][..],
        &["--demo", "tree", "-A"][..],
        &["--demo", "describe", "httproute/baker", "-n", "baker"][..],
        &[
            "--demo",
            "describe",
            "httproute/baker",
            "-n",
            "baker",
            "-o",
            "tree",
        ][..],
        &[
            "--demo",
            "describe",
            "retrypolicy/ns-retries",
            "-n",
            "baker",
            "-o",
            "tree",
        ][..],
        &[
            "--demo",
            "blast-radius",
            "retrypolicy/ns-retries",
            "-n",
            "baker",
        ][..],
        &["--demo", "check", "-A"][..],
    ] {
        let always = kp()
            .args(args)
            .args(["--color", "always"])
            .output()
            .unwrap();
        let always = String::from_utf8(always.stdout).unwrap();
        assert!(
            always.contains('\u{1b}'),
            "{args:?} --color always: {always}"
        );
        let never = kp().args(args).args(["--color", "never"]).output().unwrap();
        let never = String::from_utf8(never.stdout).unwrap();
        assert!(!never.contains('\u{1b}'), "{args:?} --color never");
        // Without --color, stdout here is a pipe: no colour.
        let auto = kp().args(args).output().unwrap();
        assert!(!auto.stdout.contains(&0x1b), "{args:?} on a pipe");
    }
}

#[test]
fn never_colour_in_json_yaml_name_or_pictures() {
    for args in [
        &["--demo", "get", "-A", "-o", "json"][..],
        &["--demo", "get", "-A", "-o", "yaml"][..],
        &["--demo", "get", "-A", "-o", "name"][..],
        &["--demo", "get", "kinds", "-o", "yaml"][..],
        &["--demo", "tree", "-A", "-o", "json"][..],
        &["--demo", "check", "-A", "-o", "json"][..],
        &[
            "--demo",
            "effective",
            "svc/oven",
            "-n",
            "baker",
            "-o",
            "yaml",
        ][..],
        &["--demo", "graph", "-A"][..],
        &["--demo", "graph", "-A", "-o", "mermaid"][..],
        &[
            "--demo",
            "describe",
            "httproute/baker",
            "-n",
            "baker",
            "-o",
            "yaml",
        ][..],
    ] {
        let out = kp()
            .args(args)
            .args(["--color", "always"])
            .output()
            .unwrap();
        assert!(!out.stdout.is_empty(), "{args:?}");
        assert!(!out.stdout.contains(&0x1b), "{args:?}");
    }
}

/// A `dump` records what it could not read on its List; `-f` reads that back from
/// JSON and YAML alike, warns again, and carries it into the answer.
#[test]
fn a_dump_file_warns_about_its_recorded_blind_spots_in_json_and_yaml() {
    let spots = r#"[{"group":"gateway.networking.k8s.io","kind":"HTTPRoute","namespace":"shop","reason":"Forbidden","message":"httproutes.gateway.networking.k8s.io in shop: forbidden"}]"#;
    let json = serde_json::json!({
        "apiVersion": "v1",
        "kind": "List",
        "metadata": {"annotations": {"kubectl-policies/blind-spots": spots}},
        "items": [{
            "apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop"}
        }]
    })
    .to_string();
    let yaml = format!(
        "apiVersion: v1\nkind: List\nmetadata:\n  annotations:\n    kubectl-policies/blind-spots: '{spots}'\nitems:\n- apiVersion: v1\n  kind: Namespace\n  metadata: {{name: shop}}\n"
    );
    for (name, text) in [("dump.json", json), ("dump.yaml", yaml)] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let out = kp()
            .args(["check", "-o", "json", "-f", path.to_str().unwrap()])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("warning: httproutes.gateway.networking.k8s.io in shop: forbidden"),
            "{name}: {err}"
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["blindSpots"][0]["namespace"], "shop", "{name}: {v}");
    }
}

/// A Gateway in `default`, and a route, a Service and two policies written with no
/// namespace, as most vendors' examples are.
const NO_NAMESPACES: &str = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: default}
spec: {gatewayClassName: gc, listeners: [{name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop}
spec: {parentRefs: [{name: gw, namespace: default}], rules: [{backendRefs: [{name: shop-svc, port: 80}]}]}
---
apiVersion: v1
kind: Service
metadata: {name: shop-svc}
spec: {ports: [{name: http, port: 80}]}
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: BackendConfigPolicy
metadata: {name: shop-conn}
spec: {targetRefs: [{group: "", kind: Service, name: shop-svc}], connectTimeout: 5s}
---
apiVersion: example.io/v1
kind: RetryPolicy
metadata: {name: shop-retries}
spec: {targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}, attempts: 3}
"#;

fn no_namespaces_file() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("example.yaml");
    std::fs::write(&f, NO_NAMESPACES).unwrap();
    let f = f.to_str().unwrap().to_string();
    (dir, f)
}

/// (namespace/name, status) of every policy `get -o json` lists.
fn listed(args: &[&str]) -> Vec<(String, String)> {
    let j = json(args);
    j["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let p = &i["metadata"];
            (
                format!(
                    "{}/{}",
                    p["namespace"].as_str().unwrap_or_default(),
                    p["name"].as_str().unwrap()
                ),
                i["computed"]["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn objects_without_a_namespace_are_in_default_offline() {
    let (_dir, f) = no_namespaces_file();
    // No -A: the default namespace lists them, and their targets (also written without
    // a namespace, or in `default`) resolve.
    assert_eq!(
        listed(&["-f", &f, "get", "-o", "json"]),
        [
            ("default/shop-conn".to_string(), "Enforced".to_string()),
            ("default/shop-retries".to_string(), "Enforced".to_string()),
        ]
    );
    let check = json(&["-f", &f, "check", "-A", "-o", "json"]);
    assert_eq!(check["findings"], serde_json::json!([]), "{check}");
    let d = json(&["-f", &f, "describe", "httproute/shop", "-o", "json"]);
    assert_eq!(d["target"]["namespace"], "default");
    let dump = stdout(&["-f", &f, "dump", "-o", "yaml"]);
    assert!(
        dump.contains("name: shop\n    namespace: default"),
        "dump writes the namespace: {dump}"
    );
}

#[test]
fn objects_without_a_namespace_follow_n_then_the_kubeconfig_context() {
    let (dir, f) = no_namespaces_file();
    assert_eq!(
        listed(&["-f", &f, "-n", "shop", "get", "-o", "json"]),
        [
            ("shop/shop-conn".to_string(), "Enforced".to_string()),
            ("shop/shop-retries".to_string(), "Enforced".to_string()),
        ]
    );
    // Offline, the context's namespace is read from the kubeconfig (no cluster contact).
    let kubeconfig = dir.path().join("config");
    std::fs::write(
        &kubeconfig,
        "apiVersion: v1\nkind: Config\ncurrent-context: dev\nclusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]\nusers: [{name: u, user: {}}]\ncontexts:\n- {name: dev, context: {cluster: c, user: u, namespace: team}}\n- {name: ops, context: {cluster: c, user: u, namespace: ops}}\n",
    )
    .unwrap();
    let k = kubeconfig.to_str().unwrap();
    assert_eq!(
        listed(&["-f", &f, "--kubeconfig", k, "get", "-o", "json"])[0].0,
        "team/shop-conn"
    );
    assert_eq!(
        listed(&[
            "-f",
            &f,
            "--kubeconfig",
            k,
            "--context",
            "ops",
            "get",
            "-o",
            "json"
        ])[0]
            .0,
        "ops/shop-conn"
    );
    let out = kp()
        .env("KUBECONFIG", k)
        .args(["-f", &f, "get", "-A", "-o", "name"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("shop-conn"));
    let j: serde_json::Value = serde_json::from_slice(
        &kp()
            .env("KUBECONFIG", k)
            .args(["-f", &f, "get", "-A", "-o", "json"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(j["items"][0]["metadata"]["namespace"], "team");
}

#[test]
fn the_same_object_twice_is_a_finding_naming_both_files() {
    let (dir, f) = no_namespaces_file();
    let again = dir.path().join("again.yaml");
    std::fs::write(
        &again,
        "apiVersion: example.io/v1\nkind: RetryPolicy\nmetadata: {name: shop-retries, namespace: default}\nspec: {targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}, attempts: 9}\n",
    )
    .unwrap();
    let again = again.to_str().unwrap();
    let j = json(&["-f", &f, "-f", again, "check", "-A", "-o", "json"]);
    let dup: Vec<&serde_json::Value> = j["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "DuplicateObject")
        .collect();
    assert_eq!(dup.len(), 1, "{j}");
    assert_eq!(dup[0]["severity"], "warning");
    assert_eq!(dup[0]["object"]["name"], "shop-retries");
    let message = dup[0]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("{f} (document 6)"))
            && message.contains(&format!("{again} (document 1)")),
        "{message}"
    );
    // The later copy is the one used, as `kubectl apply -f A -f B` leaves it.
    let e = json(&[
        "-f",
        &f,
        "-f",
        again,
        "effective",
        "httproute/shop",
        "-o",
        "json",
    ]);
    assert_eq!(
        e["effective"][0]["spec"],
        serde_json::json!({"attempts": 9})
    );
}

#[test]
fn describe_namespace_answers_with_the_policies_that_target_it() {
    let j = json(&["--demo", "describe", "namespace/baker", "-o", "json"]);
    assert_eq!(j["target"]["kind"], "Namespace");
    assert_eq!(j["policies"][0]["policy"]["name"], "ns-retries");
    assert_eq!(j["policies"][0]["relation"], "direct");
    let text = stdout(&["--demo", "describe", "ns", "baker"]);
    assert!(text.contains("baker/ns-retries"), "{text}");
    kp().args(["--demo", "describe", "ns/nowhere"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("\"nowhere\" not found"));
}

#[test]
fn empty_answers_and_unknown_types_say_what_kubectl_would() {
    kp().args(["--demo", "graph", "-A", "-n", "nowhere"])
        .assert()
        .success();
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("cm.yaml");
    std::fs::write(&f, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n").unwrap();
    kp().args(["-f", f.to_str().unwrap(), "tree", "-A"])
        .assert()
        .success()
        .stderr("No resources found.\n");
    kp().args(["--demo", "describe", "widget/x"])
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("unknown resource type \"widget\"")
                .and(predicate::str::contains("server").not()),
        );
}

#[test]
fn describe_a_policy_of_a_kind_that_does_not_merge_says_so() {
    let text = stdout(&[
        "--demo",
        "describe",
        "backendtlspolicy/oven-tls",
        "-n",
        "baker",
    ]);
    let line = text.lines().find(|l| l.starts_with("Strategy:")).unwrap();
    assert!(line.ends_with("None"), "{line}");
    let text = stdout(&[
        "--demo",
        "describe",
        "retrypolicy/ns-retries",
        "-n",
        "baker",
    ]);
    let line = text.lines().find(|l| l.starts_with("Strategy:")).unwrap();
    assert!(line.ends_with("Patch Defaults"), "{line}");
}

/// Two Direct policies on one Service (the older wins, the newer is Conflicted) and one
/// unlabelled policy: -l chooses rows, never statuses.
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
  targetRefs: [{group: "", kind: Service, name: cart}]
  validation: {hostname: cart.shop, wellKnownCACertificates: System}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata:
  name: cart-tls-new
  namespace: shop
  labels: {team: web, env: staging}
  creationTimestamp: "2026-01-01T00:00:00Z"
spec:
  targetRefs: [{group: "", kind: Service, name: cart}]
  validation: {hostname: cart.shop, wellKnownCACertificates: System}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata:
  name: unlabelled
  namespace: shop
  creationTimestamp: "2026-02-01T00:00:00Z"
spec:
  targetRefs: [{group: "", kind: Service, name: gone}]
  validation: {hostname: gone.shop, wellKnownCACertificates: System}
"#;

fn labelled_file() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("labelled.yaml");
    std::fs::write(&path, LABELLED).unwrap();
    let p = path.display().to_string();
    (dir, p)
}

fn names(args: &[&str]) -> Vec<String> {
    json(args)["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["metadata"]["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn get_with_a_selector_lists_only_matching_policies() {
    let (_dir, f) = labelled_file();
    let get = |sel: &str| names(&["-f", &f, "get", "-A", "-o", "json", "-l", sel]);
    assert_eq!(get("team=web"), ["cart-tls-new"]);
    assert_eq!(get("team==payments"), ["cart-tls"]);
    assert_eq!(get("team!=web"), ["cart-tls", "unlabelled"]);
    assert_eq!(get("env in (prod, staging)"), ["cart-tls", "cart-tls-new"]);
    assert_eq!(get("env notin (prod)"), ["cart-tls-new", "unlabelled"]);
    assert_eq!(get("team"), ["cart-tls", "cart-tls-new"]);
    assert_eq!(get("!team"), ["unlabelled"]);
    assert_eq!(get("team=web,env=prod"), Vec::<String>::new());
    assert_eq!(
        get(""),
        ["cart-tls", "cart-tls-new", "unlabelled"],
        "an empty selector selects everything"
    );
    // The status of a row is computed against every policy, shown or not.
    let table = stdout(&["-f", &f, "get", "-n", "shop", "--selector", "team=web"]);
    let rows: Vec<&str> = table.lines().collect();
    assert_eq!(rows.len(), 2, "{table}");
    assert!(
        rows[1].contains("cart-tls-new") && rows[1].contains("Conflicted"),
        "{table}"
    );
    assert_eq!(
        stdout(&["-f", &f, "get", "-A", "-l", "env=prod", "-o", "name"]),
        "backendtlspolicy.gateway.networking.k8s.io/cart-tls\n"
    );
    kp().args(["-f", &f, "get", "-A", "-l", "team=nobody"])
        .assert()
        .success()
        .stdout("")
        .stderr("No policies found.\n");
}

#[test]
fn a_bad_selector_is_a_usage_error_before_anything_is_read() {
    for (bad, says) in [
        ("env in prod", "parenthesised list"),
        ("team=web,", "after the last comma"),
        ("replicas>1", "not supported"),
    ] {
        kp().args(["-f", "/no/such/file", "get", "-l", bad])
            .assert()
            .code(1)
            .stderr(predicate::str::starts_with(format!(
                "error: --selector {bad:?}: "
            )))
            .stderr(predicate::str::contains(says))
            .stderr(predicate::str::contains("/no/such/file").not());
    }
}

#[test]
fn the_selector_applies_to_get_policies_only() {
    for args in [
        &["--demo", "check", "-l", "team=web"][..],
        &["--demo", "get", "kinds", "-l", "team=web"][..],
        &["--demo", "-l", "team=web", "tree", "-A"][..],
    ] {
        kp().args(args)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(
                "-l/--selector filters the policies `get` lists",
            ));
    }
}

#[test]
fn help_groups_kubectls_connection_flags() {
    for args in [&["--help"][..], &["get", "--help"][..]] {
        let out = kp().args(args).output().unwrap();
        let help = String::from_utf8(out.stdout).unwrap();
        let (before, connection) = help
            .split_once("Cluster connection (kubectl's global flags; ignored with -f and --demo):")
            .unwrap_or_else(|| panic!("{args:?}: no connection heading:\n{help}"));
        for flag in [
            "--kubeconfig",
            "--context",
            "--request-timeout",
            "-s, --server",
            "--token",
            "--user",
            "--cluster",
            "--certificate-authority",
            "--client-certificate",
            "--client-key",
            "--insecure-skip-tls-verify",
            "--tls-server-name",
            "--as <USER>",
            "--as-group",
            "--as-uid",
        ] {
            assert!(
                connection.contains(flag),
                "{args:?}: {flag} not under the heading"
            );
            assert!(!before.contains(flag), "{args:?}: {flag} also elsewhere");
        }
        assert!(before.contains("-l, --selector"), "{help}");
        assert!(!connection.contains("--namespace"), "{help}");
    }
}

/// Offline, the connection flags are accepted (scripts and aliases carry them) and
/// change nothing.
#[test]
fn connection_flags_are_accepted_and_ignored_offline() {
    let plain = stdout(&["--demo", "get", "-A"]);
    let with = stdout(&[
        "--demo",
        "--as",
        "bob",
        "--as-group",
        "g1",
        "--as-group",
        "g2",
        "--as-uid",
        "7",
        "-s",
        "https://kube.example:6443",
        "--token",
        "t",
        "--user",
        "u",
        "--cluster",
        "c",
        "--tls-server-name",
        "kube.example",
        "--insecure-skip-tls-verify",
        "get",
        "-A",
    ]);
    assert_eq!(plain, with);
}

/// A JSON List of more than a mebibyte, as `kubectl get -o json` or `dump` writes for a
/// large cluster: its items are read on every core (`source::split`).
fn large_json_list(routes: usize) -> String {
    let mut items = vec![
        r#"{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"gw","namespace":"infra"},"spec":{"gatewayClassName":"c","listeners":[{"name":"http","port":80,"protocol":"HTTP","allowedRoutes":{"namespaces":{"from":"All"}}}]}}"#.to_string(),
        r#"{"apiVersion":"gateway.networking.k8s.io/v1alpha3","kind":"BackendTLSPolicy","metadata":{"name":"tls","namespace":"app"},"spec":{"targetRefs":[{"group":"","kind":"Service","name":"s-7"}],"validation":{"hostname":"s-7.app.svc","wellKnownCACertificates":"System"}}}"#.to_string(),
    ];
    for i in 0..routes {
        items.push(format!(
            r#"{{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{{"name":"r-{i}","namespace":"app"}},"spec":{{"parentRefs":[{{"name":"gw","namespace":"infra"}}],"rules":[{{"backendRefs":[{{"name":"s-{i}","port":80}}]}}]}}}}"#
        ));
        items.push(format!(
            r#"{{"apiVersion":"v1","kind":"Service","metadata":{{"name":"s-{i}","namespace":"app"}},"spec":{{"ports":[{{"port":80}}]}}}}"#
        ));
    }
    format!(
        "{{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[\n{}\n]}}\n",
        items.join(",\n")
    )
}

#[test]
fn a_large_json_list_reads_as_its_objects_do_one_by_one() {
    let dir = tempfile::tempdir().unwrap();
    let list = large_json_list(4000);
    assert!(list.len() > 1 << 20);
    let whole = dir.path().join("list.json");
    std::fs::write(&whole, &list).unwrap();
    // The same objects as separate JSON documents, read serially.
    let items = list
        .lines()
        .filter(|l| l.starts_with('{') && l.contains("metadata"));
    let apart = dir.path().join("apart.json");
    let apart_text: Vec<&str> = items.map(|l| l.trim_end_matches(',')).collect();
    std::fs::write(&apart, apart_text.join("\n")).unwrap();
    for args in [
        &["get", "-A", "-o", "json"][..],
        &["describe", "service/s-7", "-n", "app"],
        &["graph", "httproute/r-7", "-n", "app"],
    ] {
        let run = |f: &std::path::Path| {
            let out = kp().arg("-f").arg(f).args(args).output().unwrap();
            assert_eq!(out.status.code(), Some(0), "{args:?}");
            String::from_utf8(out.stdout).unwrap()
        };
        assert_eq!(run(&whole), run(&apart), "{args:?}");
    }
}

#[test]
fn a_large_json_list_with_a_syntax_error_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let list = large_json_list(4000);
    // Line 5001 writes a key without its quotes.
    let broken: Vec<String> = list
        .lines()
        .enumerate()
        .map(|(i, l)| match i + 1 {
            5001 => l.replacen("\"spec\"", "spec", 1),
            _ => l.to_string(),
        })
        .collect();
    let f = dir.path().join("broken.json");
    std::fs::write(&f, broken.join("\n")).unwrap();
    let out = kp().arg("-f").arg(&f).args(["get", "-A"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("broken.json: document 1, line 5001: invalid JSON"),
        "{err}"
    );
}

/// `blast-radius --apply` of a policy that would lose a conflict changes no effective
/// spec, but is no clean answer: it lists the finding it would bring, and
/// `--exit-code` exits 3 on it.
#[test]
fn blast_radius_of_applying_lists_the_findings_it_would_bring() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("second-tls.yaml");
    std::fs::write(
        &f,
        "apiVersion: gateway.networking.k8s.io/v1\nkind: BackendTLSPolicy\nmetadata: {name: oven-tls-2, namespace: baker, creationTimestamp: \"2026-11-01T00:00:00Z\"}\nspec:\n  targetRefs: [{group: \"\", kind: Service, name: oven, sectionName: https}]\n  validation: {hostname: other.baker.svc, wellKnownCACertificates: System}\n",
    )
    .unwrap();
    let path = f.to_str().unwrap();
    let j = json(&["--demo", "blast-radius", "--apply", path, "-o", "json"]);
    assert_eq!(j["changes"], serde_json::json!([]));
    let findings = j["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0]["code"], "Conflicted");
    assert_eq!(findings[0]["object"]["name"], "oven-tls-2");
    let human = stdout(&["--demo", "blast-radius", "--apply", path]);
    assert!(
        human.starts_with("Applying 1 object from ")
            && human.contains("changes no effective spec, and brings 1 error"),
        "{human}"
    );
    assert!(human.contains("Findings it would bring:"), "{human}");
    kp().args(["--demo", "blast-radius", "--apply", path, "--exit-code"])
        .assert()
        .code(3);
    // Deleting a policy brings no finding: the list is there, empty.
    let j = json(&[
        "--demo",
        "blast-radius",
        "backendtlspolicy/oven-tls",
        "-n",
        "baker",
        "-o",
        "json",
    ]);
    assert_eq!(j["findings"], serde_json::json!([]));
}
#[test]
fn get_kinds_lists_every_registry_kind_with_no_crd_in_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("ns.yaml");
    std::fs::write(
        &f,
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: app}\n",
    )
    .unwrap();
    let j = json(&["-f", f.to_str().unwrap(), "get", "kinds", "-o", "json"]);
    let items = j["items"].as_array().unwrap();
    let registry = kubectl_policies::catalog::registry::entries().count();
    assert_eq!(registry, 87);
    assert_eq!(items.len(), registry);
    assert!(items
        .iter()
        .all(|k| k["source"] == "registry" && k["count"] == 0));
    // Kinds that do not end in Policy, and kinds that share a name across groups.
    for (kind, group) in [
        ("GCPRoutingExtension", "networking.gke.io"),
        ("PayloadProcessor", "gateway.nginx.org"),
        ("HealthCheckPolicy", "alb.networking.azure.io"),
        ("HealthCheckPolicy", "gateway.flomesh.io"),
        ("KongUpstreamPolicy", "configuration.konghq.com"),
    ] {
        assert!(
            items
                .iter()
                .any(|k| k["kind"] == kind && k["group"] == group),
            "{kind}.{group}"
        );
    }
}

#[test]
fn describe_says_when_a_kinds_label_differs_from_its_behaviour() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("p.yaml");
    std::fs::write(&f, "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: gw, namespace: app}\nspec: {gatewayClassName: gc}\n---\napiVersion: gateway.kgateway.dev/v1alpha1\nkind: TrafficPolicy\nmetadata: {name: tp, namespace: app}\nspec: {targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}], timeouts: {request: 5s}}\n").unwrap();
    let path = f.to_str().unwrap();
    let out = stdout(&["-f", path, "describe", "trafficpolicy/tp", "-n", "app"]);
    assert!(
        out.contains("Class:        Inherited (from the built-in registry)")
            && out.contains(
                "Label:        Direct: the kind's gateway.networking.k8s.io/policy label differs"
            ),
        "{out}"
    );
    let j = json(&[
        "-f",
        path,
        "describe",
        "trafficpolicy/tp",
        "-n",
        "app",
        "-o",
        "json",
    ]);
    assert_eq!(
        (&j["class"], &j["labelClass"]),
        (&"Inherited".into(), &"Direct".into())
    );
    // A kind whose label agrees says nothing of it.
    let j = json(&[
        "--demo",
        "describe",
        "backendtlspolicy/oven-tls",
        "-n",
        "baker",
        "-o",
        "json",
    ]);
    assert_eq!(j["class"], "Direct");
    assert!(j.get("labelClass").is_none(), "{j}");
}
