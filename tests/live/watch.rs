//! `get -w` against the loopback server: the table, then a row for each policy whose
//! status, targets or reach changed, as the server's watches report changes. Every test
//! ends itself: the process is interrupted (Ctrl-C) once the lines expected came, or
//! ends when the server goes away; every wait is bounded.

use super::{command, demo_server, only_gets, User, DEMO};
use crate::fake_apiserver::FakeApi;
use serde_json::{json, Value};
use std::collections::BTreeMap;
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

    /// The next json line whose object is the policy `name` (other rows that change
    /// may come first).
    fn event_of(&self, name: &str) -> Value {
        loop {
            let event: Value = serde_json::from_str(&self.line()).unwrap();
            if event["object"]["metadata"]["name"] == name {
                return event;
            }
        }
    }

    /// The next event of the policy `name`, which is of type `kind`, taken into `rows`.
    fn take_event_of(&self, name: &str, kind: &str, rows: &mut BTreeMap<String, Value>) {
        let event = self.event_of(name);
        assert_eq!(event["type"], kind, "{event}");
        rows.insert(policy_key(&event["object"]), event["object"].clone());
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

    /// Ctrl-C: the watch ends with exit 0 and nothing on stderr.
    fn interrupt_quietly(self) {
        let (code, err) = self.interrupt();
        assert_eq!(code, 0, "{err}");
        assert!(err.is_empty(), "{err}");
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

/// `--output-watch-events`, as kubectl prints it with `-o json`: every row a watch event,
/// `{"type": ..., "object": ITEM}` where ITEM is `get -o json`'s item; the first rows
/// ADDED, a change MODIFIED, a deleted policy DELETED with its last row.
#[test]
fn watch_events_in_json_end_a_deleted_policy_on_deleted() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let get: Value =
        serde_json::from_str(&super::offline(&["get", "-A", "--demo", "-o", "json"])).unwrap();
    let items = get["items"].as_array().unwrap();
    let w = Watching::start(
        &user,
        &["get", "-A", "-w", "-o", "json", "--output-watch-events"],
    );
    let first: Vec<Value> = w
        .lines(items.len())
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for (event, item) in first.iter().zip(items) {
        assert_eq!(event["type"], "ADDED", "{event}");
        assert_eq!(&event["object"], item, "the object is get's item");
        assert_eq!(event.as_object().unwrap().len(), 2, "{event}");
    }
    let mut p = demo_object("RetryPolicy", "baker-orders-retries");
    p["spec"]["targetRef"]["name"] = json!("no-such-route");
    server.apply(p);
    let changed: Value = serde_json::from_str(&w.line()).unwrap();
    assert_eq!(changed["type"], "MODIFIED", "{changed}");
    assert_eq!(
        changed["object"]["metadata"]["name"],
        "baker-orders-retries"
    );
    assert_eq!(
        changed["object"]["computed"]["status"], "TargetNotFound",
        "{changed}"
    );
    assert_eq!(
        changed["object"]["spec"]["targetRef"]["name"], "no-such-route",
        "{changed}"
    );
    server.delete(
        "gateway.envoyproxy.io/v1alpha1",
        "BackendTrafficPolicy",
        Some("infra"),
        "gateway-timeouts",
    );
    let deleted = w.event_of("gateway-timeouts");
    assert_eq!(deleted["type"], "DELETED", "{deleted}");
    assert_eq!(
        deleted["object"],
        *items
            .iter()
            .find(|i| i["metadata"]["name"] == "gateway-timeouts")
            .unwrap(),
        "a deleted policy's event carries its last row"
    );
    // A policy that comes back is ADDED again.
    server.apply(demo_object("BackendTrafficPolicy", "gateway-timeouts"));
    let back = w.event_of("gateway-timeouts");
    assert_eq!(back["type"], "ADDED", "{back}");
    let (code, err) = w.interrupt();
    assert_eq!(code, 0, "{err}");
    only_gets(&server);
}

/// In a table, kubectl's EVENT column comes first, on the header and on every row.
#[test]
fn watch_events_in_a_table_are_a_first_event_column() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let table = super::offline(&["get", "-A", "--demo"]);
    let w = Watching::start(&user, &["get", "-A", "-w", "--output-watch-events"]);
    let first = w.lines(table.lines().count());
    let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    assert_eq!(words(&first[0])[..2], ["EVENT", "NAMESPACE"], "{first:?}");
    for (live, offline) in first.iter().zip(table.lines()).skip(1) {
        let (live, offline) = (words(live), words(offline));
        assert_eq!(live[0], "ADDED", "{live:?}");
        assert_eq!(live[1..7], offline[..6], "{live:?}");
    }
    server.delete(
        "gateway.envoyproxy.io/v1alpha1",
        "BackendTrafficPolicy",
        Some("infra"),
        "gateway-timeouts",
    );
    let row = loop {
        let line = w.line();
        if words(&line)[2] == "gateway-timeouts" {
            break line;
        }
    };
    assert_eq!(
        words(&row)[..3],
        ["DELETED", "infra", "gateway-timeouts"],
        "{row}"
    );
    let (code, err) = w.interrupt();
    assert_eq!(code, 0, "{err}");
}

/// A policy's labels alone: under -l it comes into view ADDED when they come to match,
/// and leaves it DELETED when they stop, as a server's watch with a label selector; a
/// change to its spec that no cell shows is no row of a table.
#[test]
fn a_policy_relabelled_to_match_l_is_added_and_deleted_when_it_stops() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let args = [
        "get",
        "-A",
        "-w",
        "-l",
        "tier=gold",
        "--output-watch-events",
    ];
    let w = Watching::start(&user, &args);
    watches_open(&server, 5);
    let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let mut p = demo_object("BackendTrafficPolicy", "gateway-timeouts");
    p["metadata"]["labels"] = json!({"tier": "gold"});
    server.apply(p.clone());
    // kubectl's header comes with the first row printed.
    let mut added = w.line();
    if added.starts_with("EVENT") {
        added = w.line();
    }
    assert_eq!(
        words(&added)[..3],
        ["ADDED", "infra", "gateway-timeouts"],
        "{added}"
    );
    // Its spec alone: nothing a cell shows.
    p["spec"]["timeout"]["http"]["requestTimeout"] = json!("20s");
    server.apply(p.clone());
    std::thread::sleep(Duration::from_millis(1500));
    p["metadata"]["labels"] = json!({"tier": "silver"});
    server.apply(p);
    let deleted = w.line();
    assert_eq!(
        words(&deleted)[..3],
        ["DELETED", "infra", "gateway-timeouts"],
        "the spec's change printed no row: {deleted}"
    );
    let (code, err) = w.interrupt();
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("No policies found."), "{err}");
    only_gets(&server);
}

/// With `-o json`, every change of a policy's item is a line, MODIFIED: its spec, its
/// labels, the status its controller wrote, even when nothing computed of it changed.
#[test]
fn json_lines_carry_changes_to_spec_labels_and_reported_status() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let (w, mut rows) = Watching::events(&user);
    watches_open(&server, 5);
    let mut p = demo_object("BackendTrafficPolicy", "gateway-timeouts");
    p["spec"]["timeout"]["http"]["requestTimeout"] = json!("20s");
    server.apply(p.clone());
    let event = w.event_of("gateway-timeouts");
    assert_eq!(event["type"], "MODIFIED");
    assert_eq!(
        event["object"]["spec"]["timeout"]["http"]["requestTimeout"],
        "20s"
    );
    p["metadata"]["labels"] = json!({"tier": "gold"});
    server.apply(p.clone());
    let event = w.event_of("gateway-timeouts");
    assert_eq!(event["type"], "MODIFIED");
    assert_eq!(event["object"]["metadata"]["labels"]["tier"], "gold");
    p["status"]["ancestors"][0]["conditions"][0]["message"] =
        json!("Policy has been accepted again.");
    server.apply(p);
    let event = w.event_of("gateway-timeouts");
    assert_eq!(event["type"], "MODIFIED");
    assert_eq!(
        event["object"]["status"]["ancestors"][0]["conditions"][0]["message"],
        "Policy has been accepted again."
    );
    rows.insert(policy_key(&event["object"]), event["object"].clone());
    w.settles_on_get(&user, &mut rows);
    let (code, err) = w.interrupt();
    assert_eq!(code, 0, "{err}");
    only_gets(&server);
}

/// A policy's key in json lines and in `get`'s items.
fn policy_key(item: &Value) -> String {
    let m = &item["metadata"];
    format!(
        "{}/{}/{}/{}",
        m["namespace"], item["apiVersion"], item["kind"], m["name"]
    )
}

/// `get -A -o json`'s items asked of the server now, by policy.
fn fresh_get(user: &User) -> BTreeMap<String, Value> {
    fresh_get_with(user, &[])
}

/// `get -A -o json`'s items with the flags `extra`, asked of the server now.
fn fresh_get_with(user: &User, extra: &[&str]) -> BTreeMap<String, Value> {
    let mut args = vec!["get", "-A", "-o", "json"];
    args.extend_from_slice(extra);
    let list: Value = serde_json::from_str(&user.ok(&args)).unwrap();
    let items = list["items"].as_array().unwrap();
    items.iter().map(|i| (policy_key(i), i.clone())).collect()
}

impl Watching {
    /// Starts `get -A -w -o json --output-watch-events` and reads its first rows.
    fn events(user: &User) -> (Watching, BTreeMap<String, Value>) {
        let first = fresh_get(user);
        let w = Watching::start(
            user,
            &["get", "-A", "-w", "-o", "json", "--output-watch-events"],
        );
        let mut rows = BTreeMap::new();
        for _ in 0..first.len() {
            w.take_event(&w.line(), &mut rows);
        }
        assert_eq!(rows, first, "the first rows are get's");
        (w, rows)
    }

    /// One watch event read into the last row of each policy.
    fn take_event(&self, line: &str, rows: &mut BTreeMap<String, Value>) {
        let event: Value = serde_json::from_str(line).unwrap();
        let key = policy_key(&event["object"]);
        match event["type"].as_str() {
            Some("DELETED") => rows.remove(&key),
            Some("ADDED" | "MODIFIED") => rows.insert(key, event["object"].clone()),
            _ => panic!("not a watch event: {line}"),
        };
    }

    /// Reads events until the last row of every policy equals what `get -A -o json`
    /// says now (the guarantee of `get -w`); fails after `WAIT`.
    fn settles_on_get(&self, user: &User, rows: &mut BTreeMap<String, Value>) {
        self.settles_on_get_with(user, rows, &[]);
    }

    /// `settles_on_get`, `get` given the flags `extra` too.
    fn settles_on_get_with(&self, user: &User, rows: &mut BTreeMap<String, Value>, extra: &[&str]) {
        let deadline = Instant::now() + WAIT;
        loop {
            // Every event that came, then the answer of now.
            while let Ok(line) = self.lines.recv_timeout(Duration::from_millis(400)) {
                self.take_event(&line, rows);
            }
            let now = fresh_get_with(user, extra);
            if *rows == now {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the watch's last rows are not get's after {WAIT:?}\nwatch: {rows:#?}\nget: {now:#?}\nstderr: {}",
                self.stderr()
            );
        }
    }
}

/// Changes to make while the watches are failing: a policy retargeted, a route
/// deleted (its policies lose their target), a Service deleted, a policy deleted.
fn churn(server: &crate::fake_apiserver::Server) {
    let mut p = demo_object("RetryPolicy", "baker-orders-retries");
    p["spec"]["targetRef"]["name"] = json!("no-such-route");
    server.apply(p);
    server.delete(
        "gateway.networking.k8s.io/v1",
        "HTTPRoute",
        Some("baker"),
        "baker",
    );
    server.delete("v1", "Service", Some("baker"), "oven");
    server.delete(
        "gateway.envoyproxy.io/v1alpha1",
        "BackendTrafficPolicy",
        Some("infra"),
        "gateway-timeouts",
    );
}

/// Waits until the watches are open (at least `n` watch requests came).
fn watches_open(server: &crate::fake_apiserver::Server, n: usize) {
    let deadline = Instant::now() + WAIT;
    while server.watches() < n {
        assert!(
            Instant::now() < deadline,
            "only {} watches",
            server.watches()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The server closes every stream (as a proxy's idle timeout does) while objects
/// change: the watches are opened again and the last rows are `get`'s.
#[test]
fn streams_closed_mid_watch_resume_and_end_on_gets_rows() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let (w, mut rows) = Watching::events(&user);
    watches_open(&server, 5);
    let watches = server.watches();
    server.close_watches();
    churn(&server);
    w.settles_on_get(&user, &mut rows);
    assert!(server.watches() > watches, "the watches were opened again");
    let (code, err) = w.interrupt();
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "a closed stream is no warning: {err}");
    only_gets(&server);
}

/// 410 Gone mid-watch: the history is gone, the kinds are listed again, and what
/// changed in between (deletions too) ends on `get`'s rows.
#[test]
fn a_410_mid_watch_lists_again_and_ends_on_gets_rows() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let (w, mut rows) = Watching::events(&user);
    watches_open(&server, 5);
    let lists = relists(&server);
    churn(&server);
    server.expire_watches();
    w.settles_on_get(&user, &mut rows);
    assert!(relists(&server) > lists, "listed again after 410");
    let (code, err) = w.interrupt();
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "a 410 is no warning: {err}");
}

/// A server under load answers the watches 429 Too Many Requests, or 500 and 503,
/// several times over, while objects change: each watch is tried again after a pause
/// that grows, resumes where it was, and the rows end on `get`'s.
#[test]
fn watches_answered_429_or_5xx_are_retried_with_backoff_and_end_on_gets_rows() {
    for code in [429, 500, 503] {
        let server = demo_server();
        let user = User::new(&server.kubeconfig("admin", None));
        let (w, mut rows) = Watching::events(&user);
        watches_open(&server, 5);
        let route_watches = |server: &crate::fake_apiserver::Server| -> Vec<Instant> {
            let requests = server.requests();
            let watches = requests
                .iter()
                .filter(|r| r.target.contains("/httproutes") && r.target.contains("watch="));
            watches.map(|r| r.started).collect()
        };
        let before = route_watches(&server).len();
        server.fail_watches("/httproutes", code, 3);
        server.fail_watches("/services", code, 3);
        server.close_watches();
        // The objects change once both watches have failed: they are down.
        wait_for(|| server.watch_faults_left() <= 4, "the watches failing");
        churn(&server);
        wait_for(|| server.watch_faults_left() == 0, "every fault answered");
        w.settles_on_get(&user, &mut rows);
        // Tried again after a pause that grows, not at once: 0.2 + 0.4 + 0.8 s; after
        // the second the server asks for in Retry-After (429 and 503), each time.
        let times = route_watches(&server);
        assert!(times.len() > before + 3, "{code}: {} watches", times.len());
        assert!(
            times[before + 3].duration_since(times[before]) >= Duration::from_millis(1000),
            "{code}: retried with a growing pause"
        );
        if code != 500 {
            for i in before..before + 3 {
                let pause = times[i + 1].duration_since(times[i]);
                assert!(
                    pause >= Duration::from_millis(950),
                    "{code}: retried after {pause:?}, not after the Retry-After of 1 s"
                );
            }
        }
        let (exit, err) = w.interrupt();
        assert_eq!(exit, 0, "{code}: {err}");
        assert!(
            err.is_empty(),
            "{code}: a fault tried again is no warning: {err}"
        );
    }
}

/// A watch answered 429 with `Retry-After: 2` is tried again 2 s later, not after the
/// 0.2 s its own pause would be; one that asks for an hour is tried again no later than
/// `--request-timeout` after it first failed, and the watch ends (exit 1) when it fails
/// still.
#[test]
fn a_watch_is_retried_after_the_retry_after_the_server_asks_for_capped() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let (w, _) = Watching::events(&user);
    watches_open(&server, 5);
    let route_watches = |server: &crate::fake_apiserver::Server| -> Vec<Instant> {
        let requests = server.requests();
        let watches = requests
            .iter()
            .filter(|r| r.target.contains("/httproutes") && r.target.contains("watch="));
        watches.map(|r| r.started).collect()
    };
    let before = route_watches(&server).len();
    server.fail_watches_asking("/httproutes", 429, 1, 2);
    server.close_watches();
    wait_for(|| route_watches(&server).len() > before + 1, "tried again");
    let times = route_watches(&server);
    let pause = times[before + 1].duration_since(times[before]);
    assert!(
        pause >= Duration::from_millis(1950),
        "retried after {pause:?}"
    );
    w.interrupt_quietly();

    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let lines = super::offline(&["get", "-A", "--demo"]).lines().count();
    let w = Watching::start(&user, &["get", "-A", "-w", "--request-timeout", "3s"]);
    w.lines(lines);
    watches_open(&server, 5);
    server.fail_watches_asking("/httproutes", 429, 1000, 3600);
    let failing = Instant::now();
    server.close_watches();
    let (code, err) = w.exit();
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("could not be reached again"), "{err}");
    assert!(
        failing.elapsed() < Duration::from_secs(15),
        "{:?}",
        failing.elapsed()
    );
}

/// Waits (at most `WAIT`) until `done`.
fn wait_for(done: impl Fn() -> bool, what: &str) {
    let deadline = Instant::now() + WAIT;
    while !done() {
        assert!(Instant::now() < deadline, "{what}: not within {WAIT:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A policy kind whose labelled CRD appears while watching is watched from then on:
/// its policies (one there before the CRD, one after) come as rows, ADDED, and the
/// rows end on `get`'s.
#[test]
fn a_policy_kind_whose_crd_appears_while_watching_is_answered() {
    let server = FakeApi::from_yaml(DEMO)
        .serve("example.io/v1", "ColorPolicy", true)
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    let (w, mut rows) = Watching::events(&user);
    let color = |name: &str, service: &str| {
        json!({"apiVersion": "example.io/v1", "kind": "ColorPolicy",
               "metadata": {"name": name, "namespace": "baker",
                            "creationTimestamp": "2026-02-01T00:00:00Z"},
               "spec": {"targetRef": {"group": "", "kind": "Service", "name": service},
                        "color": "red"}})
    };
    // Not a policy yet: no CRD says so.
    server.apply(color("before", "oven"));
    server.apply(json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "colorpolicies.example.io",
                     "labels": {"gateway.networking.k8s.io/policy": "Direct"}},
        "spec": {"group": "example.io", "scope": "Namespaced",
                 "names": {"kind": "ColorPolicy", "plural": "colorpolicies"},
                 "versions": [{"name": "v1", "served": true, "storage": true}]}
    }));
    let before = w.event_of("before");
    assert_eq!(before["type"], "ADDED", "{before}");
    assert_eq!(before["object"]["kind"], "ColorPolicy");
    server.apply(color("after", "sprinkles"));
    let after = w.event_of("after");
    assert_eq!(after["type"], "ADDED", "{after}");
    rows.insert(policy_key(&before["object"]), before["object"].clone());
    rows.insert(policy_key(&after["object"]), after["object"].clone());
    w.settles_on_get(&user, &mut rows);
    assert!(
        server
            .targets()
            .iter()
            .any(|t| t.starts_with("/apis/example.io/v1/colorpolicies?") && t.contains("watch=")),
        "the new kind is watched"
    );
    w.interrupt_quietly();
    only_gets(&server);
}

/// A policy kind's CRD deleted while watching: its policies end DELETED, as the
/// server's own watch of them ends, with no warning (a fresh `get` does not find the
/// kind either); the other kinds are still watched; the CRD back, the kind is watched
/// again and its policies come ADDED.
#[test]
fn a_policy_crd_deleted_while_watching_ends_its_policies_and_comes_back() {
    let server = FakeApi::from_yaml(DEMO)
        .serve("example.io/v1", "ColorPolicy", true)
        .start();
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "colorpolicies.example.io",
                     "labels": {"gateway.networking.k8s.io/policy": "Direct"}},
        "spec": {"group": "example.io", "scope": "Namespaced",
                 "names": {"kind": "ColorPolicy", "plural": "colorpolicies"},
                 "versions": [{"name": "v1", "served": true, "storage": true}]}
    });
    let color = |name: &str| {
        json!({"apiVersion": "example.io/v1", "kind": "ColorPolicy",
               "metadata": {"name": name, "namespace": "baker",
                            "creationTimestamp": "2026-02-01T00:00:00Z"},
               "spec": {"targetRef": {"group": "", "kind": "Service", "name": "oven"},
                        "color": "red"}})
    };
    server.apply(crd.clone());
    server.apply(color("red"));
    let user = User::new(&server.kubeconfig("admin", None));
    let (w, mut rows) = Watching::events(&user);
    assert!(rows.keys().any(|k| k.contains("ColorPolicy")), "{rows:#?}");
    let color_watches = |server: &crate::fake_apiserver::Server| {
        let targets = server.targets();
        targets
            .iter()
            .filter(|t| t.starts_with("/apis/example.io/v1/colorpolicies?") && t.contains("watch="))
            .count()
    };
    wait_for(|| color_watches(&server) > 0, "the kind watched");
    // The CRD deleted: its objects go with it, and the kind is no longer served.
    server.unserve("example.io/v1", "ColorPolicy");
    server.delete(
        "apiextensions.k8s.io/v1",
        "CustomResourceDefinition",
        None,
        "colorpolicies.example.io",
    );
    let gone = w.event_of("red");
    assert_eq!(gone["type"], "DELETED", "{gone}");
    rows.remove(&policy_key(&gone["object"]));
    // The other kinds go on.
    let mut p = demo_object("RetryPolicy", "baker-orders-retries");
    p["spec"]["targetRef"]["name"] = json!("no-such-route");
    server.apply(p);
    w.take_event_of("baker-orders-retries", "MODIFIED", &mut rows);
    w.settles_on_get(&user, &mut rows);
    let watched_before = color_watches(&server);
    // The CRD back: the kind watched again, its policies ADDED.
    server.serve_again("example.io/v1", "ColorPolicy");
    server.apply(crd);
    server.apply(color("blue"));
    w.take_event_of("blue", "ADDED", &mut rows);
    w.settles_on_get(&user, &mut rows);
    assert!(color_watches(&server) > watched_before, "watched again");
    let (code, err) = w.interrupt();
    assert_eq!(code, 0, "{err}");
    assert!(
        err.is_empty(),
        "a kind whose CRD is deleted is no warning: {err}"
    );
    only_gets(&server);
}

/// Envoy Gateway's SecurityPolicy CRD, without the policy label (the registry knows the
/// kind: its CRD needs none).
fn security_policy_crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "securitypolicies.gateway.envoyproxy.io"},
        "spec": {"group": "gateway.envoyproxy.io", "scope": "Namespaced",
                 "names": {"kind": "SecurityPolicy", "plural": "securitypolicies"},
                 "versions": [{"name": "v1alpha1", "served": true, "storage": true}]}
    })
}

/// A SecurityPolicy on the HTTPRoute `route` in baker.
fn security_policy(name: &str, route: &str) -> Value {
    json!({"apiVersion": "gateway.envoyproxy.io/v1alpha1", "kind": "SecurityPolicy",
           "metadata": {"name": name, "namespace": "baker",
                        "creationTimestamp": "2026-02-01T00:00:00Z"},
           "spec": {"targetRefs": [{"group": "gateway.networking.k8s.io",
                                    "kind": "HTTPRoute", "name": route}]}})
}

/// How many watches of SecurityPolicies came.
fn security_policy_watches(server: &crate::fake_apiserver::Server) -> usize {
    server
        .targets()
        .iter()
        .filter(|t| {
            t.starts_with("/apis/gateway.envoyproxy.io/v1alpha1/securitypolicies?")
                && t.contains("watch=")
        })
        .count()
}

/// A kind the registry knows whose CRD (unlabelled) first appears while watching is
/// watched from then on, as the read lists it when it is served: its policies come
/// ADDED, and the rows end on `get`'s.
#[test]
fn a_registry_kind_whose_unlabelled_crd_appears_while_watching_is_answered() {
    let server = FakeApi::from_yaml(DEMO)
        .serve("gateway.envoyproxy.io/v1alpha1", "SecurityPolicy", true)
        .start();
    // Not installed yet: the kind is not served.
    server.unserve("gateway.envoyproxy.io/v1alpha1", "SecurityPolicy");
    let user = User::new(&server.kubeconfig("admin", None));
    let (w, mut rows) = Watching::events(&user);
    assert!(
        !rows.keys().any(|k| k.contains("SecurityPolicy")),
        "{rows:#?}"
    );
    server.serve_again("gateway.envoyproxy.io/v1alpha1", "SecurityPolicy");
    server.apply(security_policy_crd());
    server.apply(security_policy("guard", "oven"));
    w.take_event_of("guard", "ADDED", &mut rows);
    w.settles_on_get(&user, &mut rows);
    assert!(security_policy_watches(&server) > 0, "the kind is watched");
    w.interrupt_quietly();
    only_gets(&server);
}

/// A kind the registry knows whose unlabelled CRD is deleted while watching, then
/// created again: its policies end DELETED, then the kind is watched again and its
/// policies come ADDED; the rows end on `get`'s each time.
#[test]
fn a_registry_kind_whose_unlabelled_crd_comes_back_is_watched_again() {
    let server = FakeApi::from_yaml(DEMO)
        .serve("gateway.envoyproxy.io/v1alpha1", "SecurityPolicy", true)
        .start();
    server.apply(security_policy_crd());
    server.apply(security_policy("guard", "oven"));
    let user = User::new(&server.kubeconfig("admin", None));
    let (w, mut rows) = Watching::events(&user);
    assert!(
        rows.keys().any(|k| k.contains("SecurityPolicy")),
        "{rows:#?}"
    );
    wait_for(|| security_policy_watches(&server) > 0, "the kind watched");
    server.unserve("gateway.envoyproxy.io/v1alpha1", "SecurityPolicy");
    server.delete(
        "apiextensions.k8s.io/v1",
        "CustomResourceDefinition",
        None,
        "securitypolicies.gateway.envoyproxy.io",
    );
    let gone = w.event_of("guard");
    assert_eq!(gone["type"], "DELETED", "{gone}");
    rows.remove(&policy_key(&gone["object"]));
    w.settles_on_get(&user, &mut rows);
    let watched_before = security_policy_watches(&server);
    server.serve_again("gateway.envoyproxy.io/v1alpha1", "SecurityPolicy");
    server.apply(security_policy_crd());
    server.apply(security_policy("shield", "sprinkles"));
    w.take_event_of("shield", "ADDED", &mut rows);
    w.settles_on_get(&user, &mut rows);
    assert!(
        security_policy_watches(&server) > watched_before,
        "watched again"
    );
    w.interrupt_quietly();
    only_gets(&server);
}

/// A kind declared with `--policy-kind` whose unlabelled CRD first appears while
/// watching is watched from then on, as a registry kind is; the rows end on `get`'s
/// (given the same flag).
#[test]
fn a_declared_kind_whose_unlabelled_crd_appears_while_watching_is_answered() {
    let server = FakeApi::from_yaml(DEMO)
        .serve("example.io/v1", "ColorPolicy", true)
        .start();
    server.unserve("example.io/v1", "ColorPolicy");
    let user = User::new(&server.kubeconfig("admin", None));
    let declared = ["--policy-kind", "ColorPolicy.example.io=direct"];
    let first = fresh_get_with(&user, &declared);
    let mut args = vec!["get", "-A", "-w", "-o", "json", "--output-watch-events"];
    args.extend_from_slice(&declared);
    let w = Watching::start(&user, &args);
    let mut rows = BTreeMap::new();
    for _ in 0..first.len() {
        w.take_event(&w.line(), &mut rows);
    }
    assert_eq!(rows, first, "the first rows are get's");
    server.serve_again("example.io/v1", "ColorPolicy");
    server.apply(json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "colorpolicies.example.io"},
        "spec": {"group": "example.io", "scope": "Namespaced",
                 "names": {"kind": "ColorPolicy", "plural": "colorpolicies"},
                 "versions": [{"name": "v1", "served": true, "storage": true}]}
    }));
    server.apply(json!({"apiVersion": "example.io/v1", "kind": "ColorPolicy",
        "metadata": {"name": "dot", "namespace": "baker",
                     "creationTimestamp": "2026-02-01T00:00:00Z"},
        "spec": {"targetRef": {"group": "", "kind": "Service", "name": "oven"},
                 "color": "red"}}));
    w.take_event_of("dot", "ADDED", &mut rows);
    w.settles_on_get_with(&user, &mut rows, &declared);
    w.interrupt_quietly();
    only_gets(&server);
}

/// An unlabelled CRD of a kind nobody knows appearing while watching is not watched:
/// no request for its kind, and the rows stay `get`'s.
#[test]
fn an_unknown_unlabelled_crd_appearing_while_watching_is_not_watched() {
    let server = FakeApi::from_yaml(DEMO)
        .serve("example.io/v1", "ColorPolicy", true)
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    let (w, mut rows) = Watching::events(&user);
    server.apply(json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "colorpolicies.example.io"},
        "spec": {"group": "example.io", "scope": "Namespaced",
                 "names": {"kind": "ColorPolicy", "plural": "colorpolicies"},
                 "versions": [{"name": "v1", "served": true, "storage": true}]}
    }));
    // A change after it, answered: the CRD's batch was read by then.
    let mut p = demo_object("RetryPolicy", "baker-orders-retries");
    p["spec"]["targetRef"]["name"] = json!("no-such-route");
    server.apply(p);
    w.take_event_of("baker-orders-retries", "MODIFIED", &mut rows);
    w.settles_on_get(&user, &mut rows);
    assert_eq!(
        requests_to(&server, "/apis/example.io/v1/colorpolicies"),
        0,
        "an unknown unlabelled kind is never listed nor watched"
    );
    w.interrupt_quietly();
    only_gets(&server);
}

/// How many requests (lists and watches) came whose path starts with `path`.
fn requests_to(server: &crate::fake_apiserver::Server, path: &str) -> usize {
    server
        .targets()
        .iter()
        .filter(|t| t.starts_with(&format!("{path}?")))
        .count()
}

/// The watches started for a policy (the Pods it picks in its namespace, the Secrets it
/// names where none were listed) stop once it is gone: when the server ends every open
/// watch, the others are opened again, those are not; and what they held goes with
/// them, the rows still ending on `get`'s.
#[test]
fn the_watches_started_for_a_policy_stop_when_it_is_gone() {
    let yaml = super::pod_cluster(&super::pod_policy("pods", "app", "payments"));
    let server = FakeApi::from_yaml(&yaml).start();
    let user = User::new(&server.kubeconfig("admin", None));
    let (w, mut rows) = Watching::events(&user);
    let picker = json!({"apiVersion": "networking.gke.io/v1", "kind": "GCPServerTLSPolicy",
           "metadata": {"name": "web-pods", "namespace": "web"},
           "spec": {"targetRefs": [{"kind": "Pod",
                                    "selector": {"matchLabels": {"app": "payments"}}}],
                    "mtlsMode": "Strict"}});
    server.apply(picker);
    w.settles_on_get(&user, &mut rows);
    let pods = "/api/v1/namespaces/web/pods";
    wait_for(
        || requests_to(&server, pods) >= 2,
        "web's Pods listed and watched",
    );
    server.delete(
        "networking.gke.io/v1",
        "GCPServerTLSPolicy",
        Some("web"),
        "web-pods",
    );
    w.settles_on_get(&user, &mut rows);
    // Stopped: the server ends every watch; the others come back, web's Pods do not.
    std::thread::sleep(Duration::from_millis(500));
    let (before, all) = (requests_to(&server, pods), server.watches());
    server.close_watches();
    wait_for(
        || server.watches() >= all + 3,
        "the other watches opened again",
    );
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        requests_to(&server, pods),
        before,
        "web's Pods are no longer watched"
    );
    // Back: watched again.
    server.apply(
        json!({"apiVersion": "networking.gke.io/v1", "kind": "GCPServerTLSPolicy",
           "metadata": {"name": "web-pods", "namespace": "web"},
           "spec": {"targetRefs": [{"kind": "Pod",
                                    "selector": {"matchLabels": {"app": "payments"}}}],
                    "mtlsMode": "Strict"}}),
    );
    w.settles_on_get(&user, &mut rows);
    assert!(requests_to(&server, pods) > before, "watched again");
    w.interrupt_quietly();
    only_gets(&server);
}

/// A Pod-picking policy that appears in another namespace gets its Pods listed and
/// watched there (with its selector); one with another selector in a namespace already
/// watched gets that namespace's Pods watched again, all of them: the rows end on
/// `get`'s, and a Pod that starts matching is seen.
#[test]
fn a_pod_picking_policy_that_appears_later_gets_its_pod_watch() {
    let yaml = super::pod_cluster(&super::pod_policy("pods", "app", "payments"));
    let server = FakeApi::from_yaml(&yaml).start();
    let user = User::new(&server.kubeconfig("admin", None));
    let (w, mut rows) = Watching::events(&user);
    let policy = |name: &str, namespace: &str, app: &str| {
        json!({"apiVersion": "networking.gke.io/v1", "kind": "GCPServerTLSPolicy",
               "metadata": {"name": name, "namespace": namespace},
               "spec": {"targetRefs": [{"kind": "Pod",
                                        "selector": {"matchLabels": {"app": app}}}],
                        "mtlsMode": "Strict"}})
    };
    // Another namespace: its Pods were never listed.
    server.apply(policy("web-pods", "web", "payments"));
    w.settles_on_get(&user, &mut rows);
    let web = rows
        .values()
        .find(|r| r["metadata"]["name"] == "web-pods")
        .unwrap();
    assert_eq!(web["computed"]["affects"], 1, "{web}");
    // Another selector where Pods are watched with the first one.
    server.apply(policy("cart-pods", "app", "cart"));
    w.settles_on_get(&user, &mut rows);
    let cart = rows
        .values()
        .find(|r| r["metadata"]["name"] == "cart-pods")
        .unwrap();
    assert_eq!(cart["computed"]["affects"], 1, "{cart}");
    // A Pod that starts matching the new policy is seen by the new watch.
    server.apply(json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "cart-2", "namespace": "app", "labels": {"app": "cart"}},
        "spec": {"containers": [{"name": "c", "image": "cart"}]}
    }));
    w.settles_on_get(&user, &mut rows);
    let cart = rows
        .values()
        .find(|r| r["metadata"]["name"] == "cart-pods")
        .unwrap();
    assert_eq!(cart["computed"]["affects"], 2, "{cart}");
    let pod_watches: Vec<String> = server
        .targets()
        .into_iter()
        .filter(|t| t.contains("/pods") && t.contains("watch=true"))
        .collect();
    assert!(
        pod_watches
            .iter()
            .any(|t| t.starts_with("/api/v1/namespaces/web/pods?")
                && t.contains("labelSelector=app%3Dpayments")),
        "{pod_watches:#?}"
    );
    assert!(
        pod_watches
            .iter()
            .any(|t| t.starts_with("/api/v1/namespaces/app/pods?") && !t.contains("labelSelector")),
        "{pod_watches:#?}"
    );
    w.interrupt_quietly();
    only_gets(&server);
}

/// Every object of the demo, as JSON.
fn demo_objects() -> Vec<Value> {
    DEMO.split("\n---")
        .filter_map(|doc| serde_saphyr::from_str::<Value>(doc).ok())
        .filter(|v| v["kind"].is_string())
        .collect()
}

/// One random change to the demo's objects on the server, from `roll` (a seeded
/// generator): an object deleted or put back as it was, a policy retargeted, a
/// Namespace relabelled, a Gateway's listener dropped.
fn random_change(
    server: &crate::fake_apiserver::Server,
    demo: &[Value],
    roll: &mut impl FnMut(usize) -> usize,
) {
    let o = &demo[roll(demo.len())];
    let meta = &o["metadata"];
    match roll(5) {
        0 if o["kind"] != "CustomResourceDefinition" => server.delete(
            o["apiVersion"].as_str().unwrap(),
            o["kind"].as_str().unwrap(),
            meta["namespace"].as_str(),
            meta["name"].as_str().unwrap(),
        ),
        1 if o["spec"]["targetRef"].is_object() || o["spec"]["targetRefs"].is_array() => {
            let names: Vec<&Value> = demo.iter().map(|d| &d["metadata"]["name"]).collect();
            let mut p = o.clone();
            let target = match p["spec"]["targetRef"].is_object() {
                true => &mut p["spec"]["targetRef"],
                false => &mut p["spec"]["targetRefs"][0],
            };
            target["name"] = names[roll(names.len())].clone();
            server.apply(p);
        }
        2 if o["kind"] == "Namespace" => {
            let mut ns = o.clone();
            let team = ["cupcakes", "pies"][roll(2)];
            ns["metadata"]["labels"]["team"] = json!(team);
            server.apply(ns);
        }
        3 if o["kind"] == "Gateway" => {
            let mut gw = o.clone();
            let listeners = gw["spec"]["listeners"].as_array_mut().unwrap();
            listeners.remove(roll(listeners.len()));
            server.apply(gw);
        }
        _ => server.apply(o.clone()),
    }
}

/// The property end to end: the binary watching the loopback server through bursts of
/// seeded random changes to the demo (deletions and recreations, policies retargeted,
/// Namespaces relabelled, listeners dropped); after each burst its last rows are a fresh
/// `get`'s.
#[test]
fn the_last_rows_equal_get_after_bursts_of_random_changes() {
    use proptest::test_runner::{RngAlgorithm, TestRng};
    let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]);
    let mut roll = |n: usize| rand_below(&mut rng, n);
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let demo = demo_objects();
    let (w, mut rows) = Watching::events(&user);
    watches_open(&server, 5);
    for _ in 0..6 {
        for _ in 0..1 + roll(12) {
            random_change(&server, &demo, &mut roll);
        }
        w.settles_on_get(&user, &mut rows);
    }
    let (code, err) = w.interrupt();
    assert_eq!(code, 0, "{err}");
    only_gets(&server);
}

/// A number below `n` from `rng`.
fn rand_below(rng: &mut impl proptest::prelude::Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// A Secret deleted while watching makes the policy naming it Invalid; created again,
/// the policy is as before. A policy that appears naming a Secret in a namespace where
/// none was listed gets that namespace's Secrets listed and watched (metadata only).
#[test]
fn a_secret_deleted_mid_watch_flips_its_policy_to_invalid_and_back() {
    use super::secrets;
    let server = secrets::server(true, |api| api);
    let user = User::new(&server.kubeconfig("admin", None));
    let (w, mut rows) = Watching::events(&user);
    let status = |rows: &BTreeMap<String, Value>, name: &str| {
        let row = rows
            .values()
            .find(|r| r["metadata"]["name"] == name)
            .unwrap();
        row["computed"]["status"].clone()
    };
    assert_eq!(status(&rows, "users"), "Enforced");
    server.delete("v1", "Secret", Some("app"), "htpasswd");
    w.settles_on_get(&user, &mut rows);
    assert_eq!(status(&rows, "users"), "Invalid");
    server.apply(json!({"apiVersion": "v1", "kind": "Secret",
                        "metadata": {"name": "htpasswd", "namespace": "app"},
                        "data": {".htpasswd": secrets::PLANTED}}));
    w.settles_on_get(&user, &mut rows);
    assert_eq!(status(&rows, "users"), "Enforced");
    // A policy in a namespace never read names a Secret there that does not exist.
    server.apply(
        json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
        "metadata": {"name": "gw", "namespace": "late"},
        "spec": {"gatewayClassName": "eg",
                 "listeners": [{"name": "http", "port": 80, "protocol": "HTTP"}]}}),
    );
    server.apply(json!({"apiVersion": "gateway.envoyproxy.io/v1alpha1", "kind": "SecurityPolicy",
        "metadata": {"name": "late", "namespace": "late"},
        "spec": {"targetRefs": [{"group": "gateway.networking.k8s.io", "kind": "Gateway", "name": "gw"}],
                 "basicAuth": {"users": {"name": "missing"}}}}));
    w.settles_on_get(&user, &mut rows);
    assert_eq!(status(&rows, "late"), "Invalid");
    let late_watched = server
        .targets()
        .iter()
        .any(|t| t.starts_with("/api/v1/namespaces/late/secrets?") && t.contains("watch=true"));
    assert!(late_watched, "{:#?}", server.targets());
    // The policy gone, no other naming Secrets there: their watch stops.
    server.delete(
        "gateway.envoyproxy.io/v1alpha1",
        "SecurityPolicy",
        Some("late"),
        "late",
    );
    w.settles_on_get(&user, &mut rows);
    std::thread::sleep(Duration::from_millis(500));
    let secrets_late = "/api/v1/namespaces/late/secrets";
    let (before, all) = (requests_to(&server, secrets_late), server.watches());
    server.close_watches();
    wait_for(
        || server.watches() >= all + 3,
        "the other watches opened again",
    );
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        requests_to(&server, secrets_late),
        before,
        "late's Secrets are no longer watched"
    );
    let (code, err) = w.interrupt();
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains(secrets::PLANTED), "{err}");
    secrets::only_metadata_where_named_or(&server, &["app", "late"]);
    only_gets(&server);
}
