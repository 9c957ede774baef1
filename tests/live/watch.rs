//! `get -w` against the loopback server: the table, then a row for each policy whose
//! status, targets or reach changed, as the server's watches report changes. Every test
//! ends itself: the process is interrupted (Ctrl-C) once the lines expected came, or
//! ends when the server goes away; every wait is bounded.

use super::{command, demo_server, only_gets, User, DEMO};
use crate::fake_apiserver::FakeApi;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long any one line may take to come.
const WAIT: Duration = Duration::from_secs(20);

/// `kubectl policies get -w ...` running, its stdout read line by line.
struct Watching {
    child: Child,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
}

impl Watching {
    fn start(user: &User, args: &[&str]) -> Watching {
        let mut child = command::hermetic(command::binary())
            .env("HOME", user.home.path())
            .env("KUBECONFIG", user.kubeconfig())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, lines) = mpsc::channel();
        let out = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err = child.stderr.take().unwrap();
        let collected = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    return;
                }
                collected
                    .lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Watching {
            child,
            lines,
            stderr,
        }
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// The next line of output; fails the test after `WAIT`.
    fn line(&self) -> String {
        match self.lines.recv_timeout(WAIT) {
            Ok(l) => l,
            Err(e) => panic!("no line within {WAIT:?} ({e}); stderr: {}", self.stderr()),
        }
    }

    /// `n` lines.
    fn lines(&self, n: usize) -> Vec<String> {
        (0..n).map(|_| self.line()).collect()
    }

    /// Ctrl-C, then the exit code (within `WAIT`).
    fn interrupt(self) -> (i32, String) {
        let pid = rustix::process::Pid::from_raw(self.child.id() as i32).unwrap();
        rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
        self.exit()
    }

    /// Waits for the process to end by itself (within `WAIT`); its exit code and stderr.
    fn exit(mut self) -> (i32, String) {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                std::thread::sleep(Duration::from_millis(50));
                return (status.code().unwrap_or(-1), self.stderr());
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("still running after {WAIT:?}; stderr: {}", self.stderr());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// A demo object (from the bundled YAML), by kind and name, as JSON.
fn demo_object(kind: &str, name: &str) -> Value {
    for doc in DEMO.split("\n---") {
        let v: Value = match serde_saphyr::from_str(doc) {
            Ok(v) => v,
            Err(_) => continue,
        };
        if v["kind"] == kind && v["metadata"]["name"] == name {
            return v;
        }
    }
    panic!("no {kind}/{name} in the demo")
}

/// The JSON line of `name` among `lines`.
fn row_of<'a>(lines: &'a [Value], name: &str) -> Option<&'a Value> {
    lines.iter().find(|l| l["metadata"]["name"] == name)
}

#[test]
fn watch_prints_the_table_then_a_row_when_a_policy_changes() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let table = super::offline(&["get", "-A", "--demo"]);
    let w = Watching::start(&user, &["get", "-A", "-w"]);
    // The table first, as `get` prints it (ages differ: the first columns are compared).
    let first = w.lines(table.lines().count());
    for (live, offline) in first.iter().zip(table.lines()) {
        let cut = |s: &str| s.split_whitespace().take(7).collect::<Vec<_>>().join(" ");
        assert_eq!(cut(live), cut(offline));
    }
    // The retry policy on the route now names a route that does not exist.
    let mut p = demo_object("RetryPolicy", "baker-orders-retries");
    p["spec"]["targetRef"]["name"] = json!("no-such-route");
    p["spec"]["targetRef"]
        .as_object_mut()
        .unwrap()
        .remove("sectionName");
    server.apply(p);
    let row = w.line();
    assert!(
        row.contains("baker-orders-retries") && row.contains("TargetNotFound"),
        "{row}"
    );
    assert!(!row.starts_with("NAMESPACE"), "no header again: {row}");
    assert!(row.contains("HTTPRoute/no-such-route"), "{row}");
    let (code, err) = w.interrupt();
    assert_eq!(code, 0, "Ctrl-C ends the watch with exit 0: {err}");
    assert!(err.is_empty(), "{err}");
    only_gets(&server);
    assert!(server.watches() > 0, "the changes came by watches");
}

#[test]
fn a_route_added_prints_the_gateway_policy_whose_reach_grew() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let before = super::offline(&["get", "-A", "--demo", "-o", "json"]);
    let before: Value = serde_json::from_str(&before).unwrap();
    let affects = |name: &str| {
        before["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["metadata"]["name"] == name)
            .unwrap()["computed"]["affects"]
            .as_u64()
            .unwrap()
    };
    let w = Watching::start(&user, &["get", "-A", "-w", "-o", "json"]);
    // json lines: one object per policy first.
    let n = before["items"].as_array().unwrap().len();
    let first: Vec<Value> = w
        .lines(n)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        row_of(&first, "gateway-timeouts").unwrap()["computed"]["affects"],
        json!(affects("gateway-timeouts"))
    );
    // A new route under the Gateway: nothing about the policy object changed.
    server.apply(json!({
        "apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
        "metadata": {"name": "sprinkles-new", "namespace": "baker",
                     "creationTimestamp": "2026-03-01T00:00:00Z"},
        "spec": {"parentRefs": [{"name": "cupcake-gw", "namespace": "infra"}],
                 "hostnames": ["new.cupcakes.example"],
                 "rules": [{"backendRefs": [{"name": "oven", "port": 8080}]}]}
    }));
    let mut seen = Vec::new();
    while row_of(&seen, "gateway-timeouts").is_none() {
        let line = w.line();
        seen.push(serde_json::from_str::<Value>(&line).unwrap());
    }
    let row = row_of(&seen, "gateway-timeouts").unwrap();
    assert!(
        row["computed"]["affects"].as_u64().unwrap() > affects("gateway-timeouts"),
        "{row}"
    );
    assert_eq!(row["computed"]["targets"][0]["name"], "cupcake-gw");
    // Each line is the policy object as read, as `get -o json`'s items.
    assert_eq!(row["kind"], "BackendTrafficPolicy", "{row}");
    assert!(row["spec"]["targetRefs"].is_array(), "{row}");
    let (code, err) = w.interrupt();
    assert_eq!(code, 0, "{err}");
    only_gets(&server);
}

/// `get -w -o json` prints items as `get -o json` does; a policy deleted is printed once
/// more as it was last seen, its spec and all.
#[test]
fn watch_json_lines_are_items_and_a_deleted_policy_is_its_last_object() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let before = super::offline(&["get", "-A", "--demo", "-o", "json"]);
    let before: Value = serde_json::from_str(&before).unwrap();
    let items = before["items"].as_array().unwrap();
    let w = Watching::start(&user, &["get", "-A", "-w", "-o", "json"]);
    let first: Vec<Value> = w
        .lines(items.len())
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(&first, items, "the first lines are get -o json's items");
    server.delete(
        "gateway.envoyproxy.io/v1alpha1",
        "ClientTrafficPolicy",
        Some("infra"),
        "https-listener",
    );
    let line: Value = serde_json::from_str(&w.line()).unwrap();
    let last = items
        .iter()
        .find(|i| i["metadata"]["name"] == "https-listener")
        .unwrap();
    assert_eq!(&line, last, "deleted: the policy as last seen");
    let (code, err) = w.interrupt();
    assert_eq!(code, 0, "{err}");
}

#[test]
fn an_expired_watch_lists_again_and_misses_nothing() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let lines = super::offline(&["get", "-A", "--demo"]).lines().count();
    let w = Watching::start(&user, &["get", "-A", "-w"]);
    w.lines(lines);
    // Give the watches time to start, then end them with their history gone.
    let deadline = Instant::now() + WAIT;
    while server.watches() < 5 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let lists_before = relists(&server);
    server.expire_watches();
    server.delete(
        "gateway.networking.k8s.io/v1",
        "HTTPRoute",
        Some("baker"),
        "baker",
    );
    let row = w.line();
    assert!(row.contains("baker-orders-retries"), "{row}");
    assert!(row.contains("TargetNotFound"), "{row}");
    assert!(
        relists(&server) > lists_before,
        "the kinds were listed again after 410"
    );
    let (code, err) = w.interrupt();
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "a 410 is no warning: {err}");
}

/// Lists (not watches) of HTTPRoutes the server answered.
fn relists(server: &crate::fake_apiserver::Server) -> usize {
    server
        .targets()
        .iter()
        .filter(|t| t.contains("/httproutes") && !t.contains("watch="))
        .count()
}

#[test]
fn a_kind_that_may_not_be_watched_is_warned_once_and_the_rest_goes_on() {
    let server = FakeApi::from_yaml(DEMO)
        .permit(|a| !(a.verb == "watch" && a.resource.starts_with("retrypolicies")))
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    let lines = super::offline(&["get", "-A", "--demo"]).lines().count();
    let w = Watching::start(&user, &["get", "-A", "-w"]);
    w.lines(lines);
    let mut p = demo_object("BackendTLSPolicy", "sprinkles-tls");
    p["spec"]["targetRefs"][0]["name"] = json!("no-such-service");
    server.apply(p);
    let row = w.line();
    assert!(
        row.contains("sprinkles-tls ") && row.contains("TargetNotFound"),
        "{row}"
    );
    let (code, err) = w.interrupt();
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err.matches("cannot watch retrypolicies").count(),
        1,
        "warned once: {err}"
    );
}

#[test]
fn watch_ends_when_the_server_is_gone_for_good() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let lines = super::offline(&["get", "-A", "--demo"]).lines().count();
    let w = Watching::start(&user, &["get", "-A", "-w", "--request-timeout", "2s"]);
    w.lines(lines);
    drop(server);
    let (code, err) = w.exit();
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("could not be reached again"), "{err}");
}

#[test]
fn watch_offline_is_a_usage_error() {
    for args in [&["get", "-w", "--demo"][..], &["get", "-w", "-f", "-"][..]] {
        let out = command::kp().args(args).write_stdin("").output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("-w/--watch follows a live cluster"), "{err}");
        assert!(out.stdout.is_empty());
    }
    // Formats it cannot stream are refused before any cluster is asked.
    let out = command::kp()
        .args(["get", "-w", "-o", "yaml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("json lines (-o json)"), "{err}");
    let out = command::kp().args(["get", "kinds", "-w"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_kind_that_may_not_be_listed_is_warned_once_and_not_watched() {
    let server = FakeApi::from_yaml(DEMO)
        .permit(|a| !a.resource.starts_with("retrypolicies"))
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    let w = Watching::start(&user, &["get", "-A", "-w"]);
    // The table without the RetryPolicies: the header and the other five.
    let first = w.lines(6);
    assert!(
        first.iter().all(|l| !l.contains("RetryPolicy")),
        "{first:?}"
    );
    let mut p = demo_object("BackendTLSPolicy", "oven-tls");
    p["spec"]["targetRefs"][0]["name"] = json!("no-such-service");
    server.apply(p);
    let row = w.line();
    assert!(
        row.contains("oven-tls") && row.contains("TargetNotFound"),
        "{row}"
    );
    let (code, err) = w.interrupt();
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err.matches("retrypolicies").count(),
        1,
        "one warning, as get gives: {err}"
    );
    assert!(
        !server
            .targets()
            .iter()
            .any(|t| t.contains("retrypolicies") && t.contains("watch=")),
        "a kind that could not be listed is not watched"
    );
}

#[test]
fn a_named_policy_not_found_is_said_and_the_watch_goes_on() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", Some("baker")));
    let w = Watching::start(
        &user,
        &["get", "-w", "retrypolicy/ns-retries", "retrypolicy/nope"],
    );
    let first = w.lines(2);
    assert!(first[1].starts_with("ns-retries "), "{first:?}");
    // Only the policies named are followed.
    let mut other = demo_object("BackendTLSPolicy", "oven-tls");
    other["spec"]["targetRefs"][0]["name"] = json!("no-such-service");
    server.apply(other);
    let mut p = demo_object("RetryPolicy", "ns-retries");
    p["spec"]["targetRef"]["name"] = json!("no-such-namespace");
    server.apply(p);
    let row = w.line();
    assert!(
        row.starts_with("ns-retries ") && row.contains("TargetNotFound"),
        "{row}"
    );
    let (code, err) = w.interrupt();
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("Error from server (NotFound)") && err.contains("nope"),
        "{err}"
    );
}

#[test]
fn a_reader_that_stops_ends_the_watch_quietly() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let mut child = command::hermetic(command::binary())
        .env("HOME", user.home.path())
        .env("KUBECONFIG", user.kubeconfig())
        .args(["get", "-A", "-w"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read the first line (the table is there), then stop reading, as `| head -1` does.
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert!(first.starts_with("NAMESPACE"), "{first}");
    drop(out);
    let mut p = demo_object("RetryPolicy", "baker-orders-retries");
    p["spec"]["targetRef"]["name"] = json!("no-such-route");
    server.apply(p);
    let deadline = Instant::now() + WAIT;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            Instant::now() < deadline,
            "still running after the reader left"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
}

/// The Pods a GKE policy picks are watched as they were listed (in its namespace, with
/// its selector): a Pod that starts matching grows the policy's reach.
#[test]
fn a_pod_that_starts_matching_grows_the_reach_of_the_policy_that_picks_it() {
    let yaml = super::pod_cluster(&super::pod_policy("pods", "app", "payments"));
    let server = FakeApi::from_yaml(&yaml).start();
    let user = User::new(&server.kubeconfig("admin", None));
    let w = Watching::start(&user, &["get", "-A", "-w", "-o", "json"]);
    let first: Value = serde_json::from_str(&w.line()).unwrap();
    assert_eq!(first["metadata"]["name"], "pods", "{first}");
    let before = first["computed"]["affects"].as_u64().unwrap();
    server.apply(json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "pay-2", "namespace": "app", "labels": {"app": "payments"}},
        "spec": {"containers": [{"name": "c", "image": "pay"}]}
    }));
    let row: Value = serde_json::from_str(&w.line()).unwrap();
    assert_eq!(row["metadata"]["name"], "pods", "{row}");
    assert_eq!(
        row["computed"]["affects"].as_u64().unwrap(),
        before + 1,
        "{row}"
    );
    let (code, err) = w.interrupt();
    assert_eq!(code, 0, "{err}");
    let pod_watches: Vec<String> = server
        .targets()
        .into_iter()
        .filter(|t| t.contains("/pods") && t.contains("watch=true"))
        .collect();
    assert!(!pod_watches.is_empty(), "{:#?}", server.targets());
    assert!(
        pod_watches
            .iter()
            .all(|t| t.starts_with("/api/v1/namespaces/app/pods?")
                && t.contains("labelSelector=app%3Dpayments")),
        "{pod_watches:#?}"
    );
    only_gets(&server);
}
