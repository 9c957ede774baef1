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
        .map(|i| i["policy"]["kind"].as_str().unwrap())
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
