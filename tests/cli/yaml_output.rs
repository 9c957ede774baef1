//! `get -o yaml` is written item by item as it is serialised, as `-o json` is: its text
//! is exactly the YAML of the value `-o json` prints (what going through one
//! `serde_json::Value` of the whole answer wrote before), so it reads back as that value.

use crate::command::{json, stdout};
use serde_json::{json, Value};

/// `get -A -o yaml` is the YAML of `get -A -o json`'s value, byte for byte, and reads
/// back as that value.
fn yaml_is_the_json_value(input: &[&str]) -> Value {
    let args = |format: &'static str| -> Vec<&str> {
        let mut a = input.to_vec();
        a.extend(["get", "-A", "-o", format]);
        a
    };
    let from_json = json(&args("json"));
    let yaml = stdout(&args("yaml"));
    assert_eq!(yaml, serde_saphyr::to_string(&from_json).unwrap());
    let read_back: Value = serde_saphyr::from_str(&yaml).unwrap();
    assert_eq!(read_back, from_json);
    assert!(from_json["items"].as_array().is_some_and(|i| i.len() > 1));
    from_json
}

#[test]
fn get_yaml_of_the_demo_is_its_json_value() {
    yaml_is_the_json_value(&["--demo"]);
}

/// Spec values whose YAML needs quoting, block text, nesting and empty collections.
fn awkward(i: usize) -> Value {
    json!({
        "plain": format!("value-{i}"),
        "looksLikeOther": ["yes", "no", "null", "~", "true", "1.0", "0x1F", "", " lead", "a: b", "#x", "- y"],
        "multiLine": format!("line one {i}\nline two\n"),
        "unicode": "été ✓ \u{1F600}",
        "numbers": [0, -3, 2.5, 1e21, u64::MAX, i64::MIN],
        "empty": {"map": {}, "list": []},
        "nested": [{"a": [{"b": null}], "c": [[1, 2], []]}, false],
    })
}

/// A dump of `routes` HTTPRoutes on one Gateway, each with a BackendTrafficPolicy whose
/// spec is `awkward`, and a policy whose target is gone.
fn generated_dump(routes: usize) -> Value {
    let gw = "gateway.networking.k8s.io";
    let mut items = vec![json!({
        "apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
        "metadata": {"name": "gw", "namespace": "infra"},
        "spec": {"gatewayClassName": "eg", "listeners": [
            {"name": "http", "port": 80, "protocol": "HTTP", "allowedRoutes": {"namespaces": {"from": "All"}}}
        ]}
    })];
    for i in 0..routes {
        let (ns, name) = (format!("app-{}", i % 3), format!("route-{i:03}"));
        items.push(json!({
            "apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
            "metadata": {"name": name, "namespace": ns},
            "spec": {"parentRefs": [{"name": "gw", "namespace": "infra"}],
                     "rules": [{"backendRefs": [{"name": name, "port": 8080}]}]}
        }));
        let mut spec = awkward(i);
        spec["targetRefs"] = json!([{"group": gw, "kind": "HTTPRoute", "name": name}]);
        items.push(json!({
            "apiVersion": "gateway.envoyproxy.io/v1alpha1", "kind": "BackendTrafficPolicy",
            "metadata": {"name": format!("btp-{i:03}"), "namespace": ns,
                         "labels": {"n": i.to_string(), "on": "yes"}},
            "spec": spec,
        }));
    }
    items.push(json!({
        "apiVersion": "gateway.envoyproxy.io/v1alpha1", "kind": "BackendTrafficPolicy",
        "metadata": {"name": "orphan", "namespace": "app-0"},
        "spec": {"targetRefs": [{"group": gw, "kind": "HTTPRoute", "name": "gone"}]},
    }));
    json!({"apiVersion": "v1", "kind": "List", "items": items})
}

#[test]
fn get_yaml_of_a_generated_dump_is_its_json_value() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("dump.json");
    std::fs::write(&f, generated_dump(60).to_string()).unwrap();
    let list = yaml_is_the_json_value(&["-f", f.to_str().unwrap()]);
    let items = list["items"].as_array().unwrap();
    assert_eq!(items.len(), 61, "every policy is listed");
    assert!(items.iter().all(|i| i["kind"] == "BackendTrafficPolicy"));
    assert_eq!(
        items[0]["spec"]["looksLikeOther"],
        awkward(0)["looksLikeOther"]
    );
}
