//! The live path, end to end: the binary against a loopback server that answers as
//! kube-apiserver does (`tests/support/fake_apiserver`). Every case also checks that the
//! server saw only GET requests.
//!
//! One test binary (`cargo test --test live`); the same questions offline are tested in
//! `tests/cli`, the library's stages in `tests/scenarios`.

#[path = "../support/command.rs"]
mod command;
#[path = "../support/fake_apiserver/mod.rs"]
mod fake_apiserver;
mod parameters;
mod secrets;
mod watch;

use assert_cmd::Command;
use fake_apiserver::{Access, FakeApi, Fault, Server};
use std::path::PathBuf;
use std::time::{Duration, Instant};

const DEMO: &str = kubectl_policies::source::demo::DEMO_YAML;

/// A user: a HOME of their own holding their kubeconfig; the rest of the environment
/// as `command::hermetic` makes it.
struct User {
    home: tempfile::TempDir,
}

impl User {
    fn new(kubeconfig: &str) -> User {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join("kubeconfig"), kubeconfig).unwrap();
        User { home }
    }

    fn kubeconfig(&self) -> PathBuf {
        self.home.path().join("kubeconfig")
    }

    /// The binary, hermetic, run by this user.
    fn cmd(&self) -> Command {
        let mut c = command::kp();
        c.env("HOME", self.home.path())
            .env("KUBECONFIG", self.kubeconfig())
            .timeout(Duration::from_secs(60));
        c
    }

    fn run(&self, args: &[&str]) -> (i32, String, String) {
        let out = self.cmd().args(args).output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    }

    /// Runs and expects exit 0 with no warnings.
    fn ok(&self, args: &[&str]) -> String {
        let (code, out, err) = self.run(args);
        assert_eq!(code, 0, "{args:?} exited {code}: {err}");
        assert!(err.is_empty(), "{args:?} warned: {err}");
        out
    }
}

/// A user whose kubeconfig gets its credentials from `script` (an exec plugin), with
/// `env` (a YAML flow list) passed to it.
fn exec_plugin_user(server: &Server, script: &str, env: &str) -> User {
    let user = User::new("");
    let plugin = user.home.path().join("credential-plugin");
    std::fs::write(&plugin, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let kc = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {{server: '{}'}}\ncontexts:\n- name: c\n  context: {{cluster: c, user: u}}\ncurrent-context: c\nusers:\n- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: {}\n      env: {env}\n      interactiveMode: Never\n",
        server.url,
        plugin.display()
    );
    std::fs::write(user.kubeconfig(), kc).unwrap();
    user
}

/// The same question offline, on the bundled demo or files.
fn offline(args: &[&str]) -> String {
    command::stdout(args)
}

fn only_gets(server: &Server) {
    let methods = server.methods();
    assert!(
        methods.iter().all(|m| m == "GET"),
        "the server saw {methods:?}"
    );
}

fn demo_server() -> Server {
    FakeApi::from_yaml(DEMO).start()
}

/// Every command of docs/reference.md gives the same answer live as offline on the same objects.
#[test]
fn an_admin_gets_the_same_answers_live_as_offline() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let cases: &[&[&str]] = &[
        &["get", "-A"],
        &["get", "-n", "baker", "-o", "wide"],
        &["get", "-A", "-o", "json"],
        &["get", "kinds"],
        &["describe", "httproute/baker", "-n", "baker"],
        &["describe", "httproute/baker", "-n", "baker", "-o", "json"],
        &["describe", "service", "oven", "-n", "baker"],
        &[
            "describe",
            "retrypolicy/ns-retries",
            "-n",
            "baker",
            "-o",
            "yaml",
        ],
        &["describe", "gateway/cupcake-gw", "-n", "infra"],
        // Its listeners and routes; a policy's settings and what of it loses where.
        &[
            "describe",
            "gateway/cupcake-gw",
            "-n",
            "infra",
            "-o",
            "json",
        ],
        &[
            "describe",
            "backendtlspolicy/sprinkles-tls-new",
            "-n",
            "baker",
        ],
        &["describe", "service/sprinkles", "-n", "baker", "-o", "wide"],
        &["effective", "httproute/baker", "-n", "baker"],
        &["effective", "svc/oven", "-n", "baker", "-o", "json"],
        &["tree", "-A"],
        &["tree", "gateway/cupcake-gw", "-n", "infra"],
        &["graph", "-A"],
        &["graph", "httproute/baker", "-n", "baker", "-o", "mermaid"],
        &["describe", "gatewayclass/cupcake-class"],
        &["describe", "httproute/baker", "-n", "baker", "-o", "tree"],
        &["blast-radius", "retrypolicy/ns-retries", "-n", "baker"],
        &[
            "blast-radius",
            "retrypolicy/ns-retries",
            "-n",
            "baker",
            "-o",
            "json",
        ],
    ];
    for args in cases {
        let live = user.ok(args);
        let mut off_args = vec!["--demo"];
        off_args.extend_from_slice(args);
        assert_eq!(
            live,
            offline(&off_args),
            "{args:?} differs live and offline"
        );
    }
    // check exits 1 on the demo's errors, live as offline.
    let (code, live, _) = user.run(&["check", "-A"]);
    assert_eq!(code, 1);
    let off = command::kp()
        .args(["--demo", "check", "-A"])
        .output()
        .unwrap();
    assert_eq!(live, String::from_utf8(off.stdout).unwrap());
    only_gets(&server);
}

/// kubectl's habits (issue 29) give the same answers live as offline: get KIND and
/// KIND/NAME, kubectl's output options, several objects, sections.
#[test]
fn kubectl_like_forms_answer_live_as_offline() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let cases: &[&[&str]] = &[
        &["get", "retrypolicies", "-n", "baker"],
        &["get", "btp", "-A"],
        &[
            "get",
            "btp/gateway-timeouts",
            "ctp/https-listener",
            "-n",
            "infra",
        ],
        &[
            "get",
            "-A",
            "--sort-by",
            ".computed.affects",
            "-o",
            "custom-columns=NAME:.metadata.name,AFFECTS:.computed.affects",
        ],
        &[
            "get",
            "-A",
            "-o",
            "jsonpath={range .items[*]}{.metadata.name}={.computed.status}{\"\\n\"}{end}",
        ],
        &["get", "-n", "baker", "--show-labels"],
        &["describe", "svc", "oven", "sprinkles", "-n", "baker"],
        &[
            "describe",
            "httproute/baker#orders",
            "-n",
            "baker",
            "-o",
            "json",
        ],
        &[
            "effective",
            "svc/oven",
            "svc/sprinkles",
            "-n",
            "baker",
            "-o",
            "json",
        ],
        &["tree", "gtw/cupcake-gw#https", "-n", "infra"],
    ];
    for args in cases {
        let live = user.ok(args);
        let mut off_args = vec!["--demo"];
        off_args.extend_from_slice(args);
        assert_eq!(
            live,
            offline(&off_args),
            "{args:?} differs live and offline"
        );
    }
    // An empty kind, and a missing name among found ones, as offline.
    let (code, out, err) = user.run(&["get", "btp", "-n", "baker"]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert_eq!(err, "No resources found in baker namespace.\n");
    let (code, out, err) = user.run(&["describe", "svc", "oven", "nope", "-n", "baker"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("Name:         oven\n"), "{out}");
    assert!(err.contains("services \"nope\" not found"), "{err}");
    only_gets(&server);
}

/// `kubectl policies -n <TAB>` on a live cluster: its namespaces, read with one GET.
#[test]
fn completion_of_the_namespace_flag_lists_the_clusters_namespaces() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let out = user.ok(&["__complete", "--", "describe", "-n", ""]);
    assert_eq!(out, "baker\nfrosting\ninfra\nlegacy\n:4\n");
    let out = user.ok(&["__complete", "--", "get", "--namespace", "ba"]);
    assert_eq!(out, "baker\n:4\n");
    only_gets(&server);
    assert_eq!(
        server.targets(),
        ["/api/v1/namespaces", "/api/v1/namespaces"],
        "one request per completion"
    );
    // A cluster that cannot be reached: cobra's error directive, nothing printed on stderr.
    let gone = User::new(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: 'http://127.0.0.1:9'}\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\nusers:\n- name: u\n  user: {}\n",
    );
    let (code, out, err) = gone.run(&["__complete", "--", "-n", ""]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, ":1\n", ""));
    let (code, out, err) = gone.run(&["__complete", "--", "describe", "httproute/"]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, ":1\n", ""));
}

/// `describe httproute/<TAB>` on a live cluster: the routes, from one list after
/// discovery; with -n only that namespace's, with -A (or no -n) each saying where it is.
#[test]
fn completion_of_names_reads_one_list_of_the_kind() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let out = user.ok(&["__complete", "--", "-n", "baker", "describe", "httproute/s"]);
    assert_eq!(out, "httproute/sprinkles\n:4\n");
    let out = user.ok(&["__complete", "--", "-A", "get", "retrypolicy", ""]);
    assert_eq!(
        out,
        "baker-orders-retries\tnamespace baker\nns-retries\tnamespace baker\nold-baker-retries\tnamespace baker\n:4\n"
    );
    let out = user.ok(&["__complete", "--", "describe", "httproute/g"]);
    assert_eq!(out, "httproute/glaze\tnamespace frosting\n:4\n");
    // One list per completion (a GET sent again after a connection lost before any
    // answer, as on a loaded machine, is the same list).
    let lists: std::collections::BTreeSet<String> = server
        .targets()
        .into_iter()
        .filter(|t| t.contains("httproutes") || t.contains("retrypolicies"))
        .collect();
    assert_eq!(lists.len(), 3, "one list per completion: {lists:?}");
    only_gets(&server);
}

#[test]
fn the_namespace_comes_from_the_context() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", Some("baker")));
    let live = user.ok(&["describe", "httproute/baker"]);
    assert_eq!(
        live,
        offline(&["--demo", "describe", "httproute/baker", "-n", "baker"])
    );
    let listed = user.ok(&["get"]);
    assert!(listed.contains("ns-retries"), "{listed}");
    assert!(!listed.contains("cupcake-gw"), "{listed}");
}

/// A scoped describe reads the route's namespace and its parents' — never every route.
#[test]
fn describe_of_one_route_reads_only_what_the_answer_needs() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    user.ok(&["describe", "httproute/baker", "-n", "baker"]);
    let targets = server.targets();
    let lists_all_routes = targets
        .iter()
        .any(|t| t.starts_with("/apis/gateway.networking.k8s.io/v1/httproutes"));
    assert!(!lists_all_routes, "listed every route: {targets:#?}");
    for ns in ["baker", "infra"] {
        let read = format!("/apis/gateway.networking.k8s.io/v1/namespaces/{ns}/httproutes?");
        assert!(
            targets.iter().any(|t| t.starts_with(&read)),
            "did not read routes in {ns}: {targets:#?}"
        );
    }
    for ns in ["frosting", "legacy"] {
        let read = format!("/namespaces/{ns}/");
        assert!(
            !targets.iter().any(|t| t.contains(&read)),
            "read namespace {ns} it does not need: {targets:#?}"
        );
    }
    // A policy kind that attaches within its namespace (the registry says it targets
    // Services, by local references) is read where needed; one that may target a
    // GatewayClass from any namespace (RetryPolicy: labelled, targets unknown) or reach
    // other namespaces (Envoy Gateway's targetSelectors) is read cluster-wide.
    let gapi = "/apis/gateway.networking.k8s.io/v1";
    assert!(!targets
        .iter()
        .any(|t| t.starts_with(&format!("{gapi}/backendtlspolicies"))));
    assert!(targets
        .iter()
        .any(|t| t.starts_with(&format!("{gapi}/namespaces/baker/backendtlspolicies?"))));
    assert!(targets
        .iter()
        .any(|t| t.starts_with("/apis/gateway.envoyproxy.io/v1alpha1/backendtrafficpolicies?")));
    assert!(targets
        .iter()
        .any(|t| t.starts_with("/apis/resilience.example.io/v1alpha1/retrypolicies?")));
    // Every list is paginated.
    for t in targets.iter().filter(|t| t.contains('?')) {
        assert!(t.contains("limit=500"), "{t}");
    }
    only_gets(&server);
}

fn developer_server() -> Server {
    // No CRDs, no cluster-wide lists, and no RetryPolicies even in her own namespace;
    // she may read the Gateway namespace (infra) as a platform team often allows.
    FakeApi::from_yaml(DEMO)
        .permit(|a: &Access| {
            if a.resource.starts_with("customresourcedefinitions") {
                return false;
            }
            if a.resource.starts_with("retrypolicies.") {
                return false;
            }
            match &a.namespace {
                None => a.resource.starts_with("gatewayclasses"),
                Some(ns) => ns == "baker" || ns == "infra",
            }
        })
        .start()
}

/// The GEP-713 parable: the developer cannot list RetryPolicies. She still gets an
/// answer, and a warning that names the kind she cannot see.
#[test]
fn a_developer_without_rights_gets_an_answer_and_a_warning_naming_the_kind() {
    let server = developer_server();
    let user = User::new(&server.kubeconfig("dev", Some("baker")));
    let (code, out, err) = user.run(&["describe", "httproute/baker"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Name:         baker"), "{out}");
    assert!(
        err.contains("warning: cannot list retrypolicies.resilience.example.io in namespaces baker, infra: forbidden; policies of this kind are not shown"),
        "{err}"
    );
    // One warning per kind, not one per attempt.
    assert_eq!(err.matches("retrypolicies").count(), 1, "{err}");
    assert!(err.contains("customresourcedefinitions"), "{err}");

    let (code, out, _) = user.run(&["describe", "httproute/baker", "-o", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let spots = v["blindSpots"].as_array().unwrap();
    assert!(
        spots.iter().any(|s| s["kind"] == "RetryPolicy"
            && s["group"] == "resilience.example.io"
            && s["reason"] == "Forbidden"),
        "{spots:#?}"
    );
    // The policies she may see are still there.
    let policies: Vec<&str> = v["policies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["policy"]["kind"].as_str().unwrap())
        .collect();
    assert!(!policies.contains(&"RetryPolicy"), "{policies:?}");
    assert!(policies.contains(&"BackendTrafficPolicy"), "{policies:?}");
    only_gets(&server);
}

#[test]
fn the_asked_for_object_itself_unreadable_is_an_error() {
    let server = FakeApi::from_yaml(DEMO)
        .permit(|a: &Access| !a.resource.starts_with("httproutes."))
        .start();
    let user = User::new(&server.kubeconfig("dev", Some("baker")));
    let (code, _, err) = user.run(&["describe", "httproute/baker"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("httproutes.gateway.networking.k8s.io \"baker\": cannot list httproutes.gateway.networking.k8s.io in namespace baker: forbidden"),
        "{err}"
    );
}

#[test]
fn one_item_per_page_gives_the_same_answer() {
    let server = FakeApi::from_yaml(DEMO).page_cap(1).start();
    let user = User::new(&server.kubeconfig("admin", None));
    assert_eq!(user.ok(&["get", "-A"]), offline(&["--demo", "get", "-A"]));
    let continued = server
        .targets()
        .iter()
        .filter(|t| t.contains("continue=fake-continue-"))
        .count();
    assert!(continued > 10, "pages were not followed: {continued}");
    only_gets(&server);
}

#[test]
fn an_expired_continue_token_restarts_the_list_and_it_stays_complete() {
    let server = FakeApi::from_yaml(DEMO)
        .page_cap(1)
        .fault("/namespaces/baker/httproutes", Fault::ExpireFirstContinue)
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    let args = ["describe", "httproute/baker", "-n", "baker"];
    assert_eq!(
        user.ok(&args),
        offline(&["--demo", "describe", "httproute/baker", "-n", "baker"])
    );
    let targets = server.targets();
    let starts = targets
        .iter()
        .filter(|t| {
            t.starts_with("/apis/gateway.networking.k8s.io/v1/namespaces/baker/httproutes?")
                && !t.contains("continue=")
        })
        .count();
    assert_eq!(
        starts, 2,
        "the list was not restarted exactly once: {targets:#?}"
    );
}

#[test]
fn context_chooses_between_two_clusters() {
    let a = FakeApi::from_yaml(DEMO).start();
    let b = FakeApi::from_yaml(
        r#"
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: only-in-b, namespace: shop}
spec:
  targetRefs: [{group: "", kind: Service, name: cart}]
  validation: {hostname: cart.shop, wellKnownCACertificates: System}
"#,
    )
    .start();
    let kc = fake_apiserver::kubeconfig(&[("a", &a.url, None), ("b", &b.url, None)], "a");
    let user = User::new(&kc);
    let in_a = user.ok(&["get", "-A"]);
    assert!(
        in_a.contains("ns-retries") && !in_a.contains("only-in-b"),
        "{in_a}"
    );
    let in_b = user.ok(&["--context", "b", "get", "-A"]);
    assert!(
        in_b.contains("only-in-b") && !in_b.contains("ns-retries"),
        "{in_b}"
    );
    let (code, _, err) = user.run(&["--context", "c", "get", "-A"]);
    assert_eq!(code, 1);
    assert!(err.contains("c"), "{err}");
}

#[test]
fn kubeconfig_flag_beats_the_environment() {
    let server = demo_server();
    let user = User::new("this: is not a kubeconfig\n");
    let good = user.home.path().join("good");
    std::fs::write(&good, server.kubeconfig("admin", None)).unwrap();
    let out = user.ok(&["--kubeconfig", good.to_str().unwrap(), "get", "-A"]);
    assert!(out.contains("ns-retries"));
}

#[test]
fn kubeconfig_as_a_colon_list_is_merged() {
    let server = demo_server();
    let user = User::new("apiVersion: v1\nkind: Config\npreferences: {}\n");
    let second = user.home.path().join("second");
    std::fs::write(&second, server.kubeconfig("admin", None)).unwrap();
    let list = format!("{}:{}", user.kubeconfig().display(), second.display());
    let out = user
        .cmd()
        .env("KUBECONFIG", list)
        .args(["get", "-A"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("ns-retries"));
}

#[test]
fn an_unreachable_server_fails_fast_naming_it() {
    // A port nothing listens on.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}");
    let user = User::new(&fake_apiserver::kubeconfig(&[("gone", &url, None)], "gone"));
    let started = Instant::now();
    let (code, _, err) = user.run(&["--request-timeout", "3s", "get", "-A"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!("cannot reach the API server at {url}")),
        "{err}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
}

#[test]
fn a_broken_kubeconfig_names_the_file() {
    let user = User::new("clusters: [this is: not valid\n");
    let (code, _, err) = user.run(&["get", "-A"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&user.kubeconfig().display().to_string()),
        "{err}"
    );
    let missing = user.home.path().join("nope");
    let (code, _, err) = user.run(&["--kubeconfig", missing.to_str().unwrap(), "get"]);
    assert_eq!(code, 1);
    assert!(err.contains(&missing.display().to_string()), "{err}");
}

#[test]
fn no_kubeconfig_at_all_says_what_to_do() {
    let user = User::new("");
    let out = user
        .cmd()
        .env_remove("KUBECONFIG")
        .args(["get"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no kubeconfig found"), "{err}");
    assert!(err.contains("-f PATH") && err.contains("--demo"), "{err}");
}

#[test]
fn legacy_discovery_and_a_broken_aggregated_group() {
    let server = FakeApi::from_yaml(DEMO)
        .legacy_discovery()
        .broken_group("metrics.k8s.io/v1beta1")
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    let (code, out, err) = user.run(&["get", "-A"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, offline(&["--demo", "get", "-A"]));
    assert!(
        err.contains("cannot discover metrics.k8s.io/v1beta1: 503"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // Aggregated discovery was asked for, and the legacy walk followed.
    let targets = server.targets();
    assert!(
        targets
            .iter()
            .any(|t| t == "/apis/gateway.networking.k8s.io/v1"),
        "{targets:#?}"
    );
    only_gets(&server);
}

#[test]
fn aggregated_discovery_is_one_request_per_root() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    user.ok(&["get", "-A"]);
    let discovery: Vec<_> = server
        .requests()
        .into_iter()
        .filter(|r| !r.target.contains('?'))
        .collect();
    let mut roots: Vec<&str> = discovery.iter().map(|r| r.target.as_str()).collect();
    roots.sort();
    assert_eq!(roots, ["/api", "/apis"]);
    for r in &discovery {
        assert!(
            r.accept.contains("as=APIGroupDiscoveryList"),
            "{}",
            r.accept
        );
    }
}

#[test]
fn a_failing_kind_is_a_blind_spot_and_the_rest_answers() {
    let server = FakeApi::from_yaml(DEMO)
        .fault("/backendtlspolicies", Fault::Status(500))
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    let (code, out, err) = user.run(&["get", "-A"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("ns-retries"), "{out}");
    assert!(!out.contains("oven-tls"), "{out}");
    assert!(
        err.contains(
            "cannot list backendtlspolicies.gateway.networking.k8s.io in all namespaces: 500"
        ),
        "{err}"
    );
}

#[test]
fn a_kind_that_never_answers_ends_at_the_request_timeout() {
    let server = FakeApi::from_yaml(DEMO)
        .fault("/retrypolicies", Fault::Hang)
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    let started = Instant::now();
    let (code, out, err) = user.run(&["--request-timeout", "1s", "get", "-A", "-o", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    assert!(
        err.contains("retrypolicies.resilience.example.io") && err.contains("no answer within 1s"),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["items"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["kind"] != "RetryPolicy"));
}

#[test]
fn too_many_requests_is_retried_as_the_server_asks() {
    let server = FakeApi::from_yaml(DEMO)
        .fault(
            "/httproutes",
            Fault::TooManyRequests {
                times: 2,
                retry_after_secs: 1,
            },
        )
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    assert_eq!(user.ok(&["get", "-A"]), offline(&["--demo", "get", "-A"]));
}

#[test]
fn rejected_credentials_are_named() {
    let server = FakeApi::from_yaml(DEMO).unauthorized().start();
    let user = User::new(&server.kubeconfig("admin", None));
    let (code, _, err) = user.run(&["get", "-A"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!(
            "the API server at {} rejected the credentials (401 Unauthorized)",
            server.url
        )),
        "{err}"
    );
    assert!(!err.contains("not-a-real-token"), "{err}");
}

/// With latency on every request the reads overlap: many are in flight at once.
#[test]
fn reads_run_concurrently() {
    let server = FakeApi::from_yaml(DEMO)
        .latency(Duration::from_millis(150))
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    user.ok(&["get", "-A"]);
    let reqs = server.requests();
    let busiest = reqs
        .iter()
        .map(|r| {
            reqs.iter()
                .filter(|o| o.started < r.started + r.took && r.started < o.started + o.took)
                .count()
        })
        .max()
        .unwrap();
    assert!(busiest >= 5, "at most {busiest} requests overlapped");
}

#[test]
fn dump_reads_back_with_f_to_the_same_answers() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let dump = user.ok(&["dump", "-A"]);
    let path = user.home.path().join("dump.yaml");
    std::fs::write(&path, &dump).unwrap();
    let p = path.to_str().unwrap();
    for args in [
        vec!["get", "-A"],
        vec!["describe", "httproute/baker", "-n", "baker"],
        vec!["check", "-A", "-o", "json"],
    ] {
        let mut from_dump = vec!["-f", p];
        from_dump.extend_from_slice(&args);
        let mut demo = vec!["--demo"];
        demo.extend_from_slice(&args);
        let a = user.cmd().args(&from_dump).output().unwrap();
        let b = command::kp().args(&demo).output().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&a.stdout),
            String::from_utf8_lossy(&b.stdout),
            "{args:?}"
        );
    }
    let json = user.ok(&["dump", "-A", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["kind"], "List");
    only_gets(&server);
}

#[test]
fn a_dump_keeps_its_blind_spots() {
    let server = developer_server();
    let user = User::new(&server.kubeconfig("dev", Some("baker")));
    let (code, dump, err) = user.run(&["dump"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("retrypolicies"), "{err}");
    let path = user.home.path().join("dump.yaml");
    std::fs::write(&path, &dump).unwrap();
    let (code, _, err) = user.run(&[
        "-f",
        path.to_str().unwrap(),
        "describe",
        "httproute/baker",
        "-n",
        "baker",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "cannot list retrypolicies.resilience.example.io in namespaces baker, infra: forbidden"
        ),
        "{err}"
    );
}

/// Where kubectl is installed, it reads the same server: the fake stays faithful.
#[test]
fn kubectl_reads_the_same_server() {
    let Some(kubectl) = command::on_path("kubectl") else {
        eprintln!("kubectl is not on PATH; skipping");
        return;
    };
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let out = command::hermetic(kubectl)
        .env("KUBECONFIG", user.kubeconfig())
        .env("HOME", user.home.path())
        .env("KUBECACHEDIR", user.home.path().join("cache"))
        .args(["get", "httproutes", "-A", "-o", "name"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let names = String::from_utf8(out.stdout).unwrap();
    let mut names: Vec<&str> = names.lines().collect();
    names.sort();
    assert_eq!(
        names,
        [
            "httproute.gateway.networking.k8s.io/baker",
            "httproute.gateway.networking.k8s.io/glaze",
            "httproute.gateway.networking.k8s.io/icing",
            "httproute.gateway.networking.k8s.io/legacy",
            "httproute.gateway.networking.k8s.io/oven",
            "httproute.gateway.networking.k8s.io/sprinkles",
        ]
    );
    only_gets(&server);
}

/// An operator who may not read every namespace gets a blast radius that says,
/// loudly and in the answer itself, that it may be incomplete.
#[test]
fn an_incomplete_blast_radius_says_so_in_the_answer() {
    let server = FakeApi::from_yaml(DEMO)
        .permit(|a: &Access| {
            !(a.resource.starts_with("services") && a.namespace.as_deref() != Some("infra"))
        })
        .start();
    let user = User::new(&server.kubeconfig("ops", Some("baker")));
    let (code, out, err) = user.run(&["blast-radius", "retrypolicy/ns-retries"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("Deleting RetryPolicy baker/ns-retries changes"),
        "{out}"
    );
    assert!(
        out.contains(
            "Blind spots: some kinds could not be read, so the blast radius may be incomplete:"
        ),
        "{out}"
    );
    assert!(out.contains("services"), "{out}");
    assert!(err.contains("warning: cannot list services"), "{err}");
    let (_, json, _) = user.run(&["blast-radius", "retrypolicy/ns-retries", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(!v["blindSpots"].as_array().unwrap().is_empty());
    only_gets(&server);
}

/// Credentials from an exec plugin (as cloud providers' kubeconfigs use) are fetched
/// by running the command and sent as a bearer token.
#[test]
fn an_exec_credential_plugin_is_run() {
    let server = FakeApi::from_yaml(DEMO)
        .require_bearer("token-from-exec")
        .start();
    let user = exec_plugin_user(
        &server,
        "#!/bin/sh\necho '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"token-from-exec\"}}'\n",
        "[]",
    );
    let out = user.ok(&["get", "-A"]);
    assert!(out.contains("ns-retries"), "{out}");
    assert!(server
        .requests()
        .iter()
        .all(|r| r.authorized_as.as_deref() == Some("the expected token")));
}

/// `proxy-url` in the kubeconfig sends every request through that proxy.
#[test]
fn the_kubeconfig_proxy_url_is_used() {
    let proxy = demo_server();
    let kc = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {{server: 'http://kube-api.invalid:6443', proxy-url: '{}'}}\ncontexts:\n- name: c\n  context: {{cluster: c, user: u}}\ncurrent-context: c\nusers:\n- name: u\n  user: {{token: t}}\n",
        proxy.url
    );
    let user = User::new(&kc);
    let out = user.ok(&["get", "-A"]);
    assert!(out.contains("ns-retries"), "{out}");
    assert!(proxy.tunnels() >= 1, "no CONNECT reached the proxy");
    assert!(!proxy.requests().is_empty());
    only_gets(&proxy);
}

/// A TLS failure (here: https to a server that speaks plain HTTP) exits 1 naming the server.
#[test]
fn a_tls_failure_names_the_server() {
    let server = demo_server();
    let https = server.url.replace("http://", "https://");
    let user = User::new(&fake_apiserver::kubeconfig(&[("tls", &https, None)], "tls"));
    let (code, _, err) = user.run(&["--request-timeout", "5s", "get", "-A"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!("cannot reach the API server at {https}")),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// Read-only, provably: every command sends only GETs, never asks for Secrets, and two
/// runs print the same bytes.
#[test]
fn every_command_only_reads_and_never_secrets() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", Some("baker")));
    let commands: &[&[&str]] = &[
        &["get"],
        &["get", "-A", "-o", "yaml"],
        &["get", "kinds"],
        &["describe", "httproute/baker"],
        &["describe", "retrypolicy/ns-retries"],
        &["effective", "httproute/baker"],
        &["tree", "-A"],
        &["blast-radius", "retrypolicy/ns-retries"],
        &["dump"],
        &["dump", "-A", "-o", "json"],
        &["graph", "-A"],
        &["describe", "httproute/baker", "-o", "tree"],
    ];
    for args in commands {
        let first = user.ok(args);
        assert_eq!(first, user.ok(args), "{args:?} is not stable");
        assert!(
            !first.contains("not-a-real-token"),
            "{args:?} printed the credential"
        );
    }
    let (code, _, _) = user.run(&["check", "-A"]);
    assert_eq!(code, 1);
    only_gets(&server);
    let targets = server.targets();
    assert!(
        !targets.iter().any(|t| t.contains("secrets")),
        "{targets:#?}"
    );
}

/// A long cluster-wide list is read per namespace, concurrently, when that takes
/// clearly fewer rounds than paging through it; the answer is the same.
#[test]
fn a_long_list_is_read_per_namespace_and_stays_complete() {
    let mut yaml = String::from(DEMO);
    for i in 0..60 {
        yaml.push_str(&format!(
            "\n---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: extra-{i}, namespace: team-{}}}\nspec:\n  parentRefs: [{{name: cupcake-gw, namespace: infra}}]\n",
            i % 6
        ));
    }
    let server = FakeApi::from_yaml(&yaml).page_cap(5).start();
    let user = User::new(&server.kubeconfig("admin", None));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("all.yaml");
    std::fs::write(&file, &yaml).unwrap();
    let offline_out = offline(&["-f", file.to_str().unwrap(), "tree", "-A", "-o", "json"]);
    assert_eq!(user.ok(&["tree", "-A", "-o", "json"]), offline_out);
    let targets = server.targets();
    assert!(
        targets
            .iter()
            .any(|t| t
                .starts_with("/apis/gateway.networking.k8s.io/v1/namespaces/team-3/httproutes?")),
        "{targets:#?}"
    );
    // Only the first page of the cluster-wide list was read before sharding.
    assert!(!targets.iter().any(|t| t
        .starts_with("/apis/gateway.networking.k8s.io/v1/httproutes?")
        && t.contains("continue=")));
    only_gets(&server);
}

/// A credential plugin that fails: exit 1, naming its command and what it said on
/// stderr; nothing of its environment or its stdout (where credentials go) is printed.
#[test]
fn a_failing_credential_plugin_is_named_and_leaks_nothing() {
    let server = demo_server();
    let user = exec_plugin_user(
        &server,
        "#!/bin/sh\necho 'token SECRET-OUTPUT'\necho 'login failed:' >&2\necho '  session expired  ' >&2\nexit 1\n",
        "[{name: API_KEY, value: SUPERSECRETVALUE}]",
    );
    let (code, _, err) = user.run(&["get", "-A"]);
    assert_eq!(code, 1);
    let plugin = user.home.path().join("credential-plugin");
    assert_eq!(
        err.trim(),
        format!(
            "error: credential plugin \"{}\" failed with exit status 1: login failed: | session expired",
            plugin.display()
        )
    );
    assert!(
        !err.contains("SUPERSECRETVALUE") && !err.contains("SECRET-OUTPUT"),
        "{err}"
    );
    assert!(server.requests().is_empty());
}

/// A credential plugin that never answers (waiting for a browser login nobody
/// completes) is killed at the request timeout: exit 1, never a hang.
#[test]
fn a_hanging_credential_plugin_ends_at_the_request_timeout() {
    let server = demo_server();
    let user = exec_plugin_user(
        &server,
        "#!/bin/sh\necho 'waiting for the browser login' >&2\nsleep 30\n",
        "[]",
    );
    let started = Instant::now();
    let (code, _, err) = user.run(&["--request-timeout", "1s", "get", "-A"]);
    let took = started.elapsed();
    assert_eq!(code, 1, "{err}");
    assert!(took < Duration::from_secs(10), "took {took:?}");
    let plugin = user.home.path().join("credential-plugin");
    assert_eq!(
        err.trim(),
        format!(
            "error: credential plugin \"{}\" gave no credentials within 1s (--request-timeout): waiting for the browser login",
            plugin.display()
        )
    );
    assert!(server.requests().is_empty());
}

/// A credential plugin may answer with a client certificate instead of a token.
#[test]
fn a_credential_plugin_may_give_a_client_certificate() {
    let server = FakeApi::from_yaml(DEMO).require_client_certs().start();
    let (cert, key) = server.client_cert("carol");
    let answer = serde_json::json!({
        "apiVersion": "client.authentication.k8s.io/v1",
        "kind": "ExecCredential",
        "status": {"clientCertificateData": cert, "clientKeyData": key}
    });
    let user = exec_plugin_user(&server, "", "[]");
    let answer_file = user.home.path().join("answer.json");
    std::fs::write(&answer_file, answer.to_string()).unwrap();
    std::fs::write(
        user.home.path().join("credential-plugin"),
        format!("#!/bin/sh\ncat '{}'\n", answer_file.display()),
    )
    .unwrap();
    // The plugin user's kubeconfig, with the server's CA.
    let ca = user.home.path().join("ca.pem");
    std::fs::write(&ca, server.ca_pem()).unwrap();
    let out = user.ok(&["--certificate-authority", ca.to_str().unwrap(), "get", "-A"]);
    assert_eq!(out, offline(&["--demo", "get", "-A"]));
    let reqs = server.requests();
    assert!(!reqs.is_empty());
    assert!(reqs
        .iter()
        .all(|r| r.client_cert.as_deref() == Some("carol")));
}

#[test]
fn a_missing_file_in_the_kubeconfig_list_is_skipped_as_kubectl_does() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    let missing = user.home.path().join("does-not-exist");
    let list = format!("{}:{}", missing.display(), user.kubeconfig().display());
    let out = user
        .cmd()
        .env("KUBECONFIG", list)
        .args(["get", "-A"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_request_timeout_out_of_range_is_a_usage_error() {
    let user = User::new("");
    for bad in ["99999999999999999999h", "2y", "1x", "abc"] {
        let (code, _, err) = user.run(&["--request-timeout", bad, "get"]);
        assert_eq!(code, 1, "{bad}: {err}");
        assert!(err.contains("--request-timeout"), "{bad}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn credentials_rejected_part_way_are_an_error_not_a_blind_spot() {
    let server = FakeApi::from_yaml(DEMO)
        .fault("/httproutes", Fault::Status(401))
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    let (code, _, err) = user.run(&["get", "-A"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("rejected the credentials (401 Unauthorized) part-way"),
        "{err}"
    );
}

#[test]
fn a_stale_aggregated_group_is_one_warning() {
    let server = FakeApi::from_yaml(DEMO)
        .broken_group("metrics.k8s.io/v1beta1")
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    let (code, out, err) = user.run(&["get", "-A"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, offline(&["--demo", "get", "-A"]));
    assert_eq!(err.trim(), "warning: cannot discover metrics.k8s.io/v1beta1: the aggregated API behind it is not answering (discovery is stale); kinds it serves are not read");
}

// ------------------------------------------------------------ TLS and connection flags

/// A kubeconfig with one context `c`: `cluster` and `user` are extra YAML lines of the
/// cluster's and the user's fields (indented by four spaces).
fn kubeconfig_with(url: &str, cluster: &str, user: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: {url}\n{cluster}contexts:\n- name: c\n  context: {{cluster: c, user: u}}\ncurrent-context: c\nusers:\n- name: u\n  user:\n{user}"
    )
}

fn b64(bytes: &[u8]) -> String {
    fake_apiserver::tls::base64(bytes)
}

/// Writes `text` into the user's home as `name`; returns the path as a string.
fn file(user: &User, name: &str, text: &str) -> String {
    let p = user.home.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// Over HTTPS, with the CA from the kubeconfig's certificate-authority-data: the same
/// answers, and the kubeconfig's bearer token on every request, no impersonation.
#[test]
fn https_with_the_kubeconfigs_certificate_authority() {
    let server = FakeApi::from_yaml(DEMO).tls().start();
    assert!(server.url.starts_with("https://127.0.0.1:"));
    let user = User::new(&server.kubeconfig("admin", None));
    assert_eq!(user.ok(&["get", "-A"]), offline(&["--demo", "get", "-A"]));
    let reqs = server.requests();
    assert!(reqs.len() > 5);
    for r in &reqs {
        assert_eq!(
            r.header("authorization"),
            ["Bearer not-a-real-token"],
            "{}",
            r.target
        );
        assert!(r.header("impersonate-user").is_empty());
        assert_eq!(r.client_cert, None);
    }
    only_gets(&server);
}

#[test]
fn certificate_authority_flag() {
    let server = FakeApi::from_yaml(DEMO).tls().start();
    let user = User::new(&kubeconfig_with(&server.url, "", "    token: t\n"));
    let ca = file(&user, "ca.pem", &server.ca_pem());
    assert_eq!(
        user.ok(&["--certificate-authority", &ca, "get", "-A"]),
        offline(&["--demo", "get", "-A"])
    );
    // Without it, the system's authorities do not know the server's.
    let (code, _, err) = user.run(&["get", "-A"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!("cannot reach the API server at {}", server.url)),
        "{err}"
    );
    let missing = user.home.path().join("no-such-ca.pem");
    let (code, _, err) = user.run(&[
        "--certificate-authority",
        missing.to_str().unwrap(),
        "get",
        "-A",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with(&format!(
            "error: --certificate-authority {}: ",
            missing.display()
        )),
        "{err}"
    );
}

/// A kubeconfig that trusts another authority than the one that signed the server's
/// certificate: refused before any request, with one line that says why.
#[test]
fn a_server_certificate_from_an_unknown_authority_is_refused() {
    let server = FakeApi::from_yaml(DEMO).tls().start();
    let other = FakeApi::default().tls().start();
    let user = User::new(&kubeconfig_with(
        &server.url,
        &format!(
            "    certificate-authority-data: {}\n",
            b64(other.ca_pem().as_bytes())
        ),
        "    token: t\n",
    ));
    let (code, _, err) = user.run(&["get", "-A"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with(&format!(
            "error: cannot reach the API server at {}",
            server.url
        )),
        "{err}"
    );
    assert!(
        err.contains("the server's certificate is not signed by a certificate authority this connection trusts"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(server.requests().is_empty());
}

#[test]
fn insecure_skip_tls_verify_accepts_the_server_unchecked() {
    let server = FakeApi::from_yaml(DEMO).tls().start();
    let other = FakeApi::default().tls().start();
    // The flag replaces the kubeconfig's (wrong) authority, as kubectl's does.
    let user = User::new(&kubeconfig_with(
        &server.url,
        &format!(
            "    certificate-authority-data: {}\n",
            b64(other.ca_pem().as_bytes())
        ),
        "    token: t\n",
    ));
    let want = offline(&["--demo", "get", "-A"]);
    assert_eq!(user.ok(&["--insecure-skip-tls-verify", "get", "-A"]), want);
    assert_eq!(
        user.ok(&["get", "--insecure-skip-tls-verify=true", "-A"]),
        want
    );
    let (code, _, _) = user.run(&["--insecure-skip-tls-verify=false", "get", "-A"]);
    assert_eq!(code, 1);
    let ca = file(&user, "ca.pem", &server.ca_pem());
    let (code, _, err) = user.run(&[
        "--insecure-skip-tls-verify",
        "--certificate-authority",
        &ca,
        "get",
    ]);
    assert_eq!(code, 1);
    assert_eq!(
        err.trim(),
        "error: --insecure-skip-tls-verify and --certificate-authority: specifying a root certificates file with the insecure flag is not allowed"
    );
}

/// A server that requires client certificates: the kubeconfig's, on every request;
/// none, refused with a line that says so.
#[test]
fn client_certificates_from_the_kubeconfig() {
    let server = FakeApi::from_yaml(DEMO).require_client_certs().start();
    let (cert, key) = server.client_cert("alice");
    let ca = format!(
        "    certificate-authority-data: {}\n",
        b64(server.ca_pem().as_bytes())
    );
    let user = User::new(&kubeconfig_with(
        &server.url,
        &ca,
        &format!(
            "    client-certificate-data: {}\n    client-key-data: {}\n",
            b64(cert.as_bytes()),
            b64(key.as_bytes())
        ),
    ));
    assert_eq!(user.ok(&["get", "-A"]), offline(&["--demo", "get", "-A"]));
    let reqs = server.requests();
    assert!(!reqs.is_empty());
    assert!(
        reqs.iter()
            .all(|r| r.client_cert.as_deref() == Some("alice")
                && r.header("authorization").is_empty())
    );

    let anonymous = User::new(&kubeconfig_with(&server.url, &ca, "    token: t\n"));
    let (code, _, err) = anonymous.run(&["--request-timeout", "5s", "get", "-A"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with(&format!(
            "error: cannot reach the API server at {}",
            server.url
        )),
        "{err}"
    );
    assert!(err.contains("client certificate"), "{err}");

    // A certificate from another authority is refused as well.
    let other = FakeApi::default().tls().start();
    let (cert, key) = other.client_cert("mallory");
    let stranger = User::new(&kubeconfig_with(
        &server.url,
        &ca,
        &format!(
            "    client-certificate-data: {}\n    client-key-data: {}\n",
            b64(cert.as_bytes()),
            b64(key.as_bytes())
        ),
    ));
    let (code, _, err) = stranger.run(&["--request-timeout", "5s", "get", "-A"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("client certificate"), "{err}");
    assert!(server
        .requests()
        .iter()
        .all(|r| r.client_cert.as_deref() == Some("alice")));
}

#[test]
fn client_certificate_flags_win_over_the_kubeconfig() {
    let server = FakeApi::from_yaml(DEMO).require_client_certs().start();
    let (cert, key) = server.client_cert("alice");
    let user = User::new(&kubeconfig_with(
        &server.url,
        &format!(
            "    certificate-authority-data: {}\n",
            b64(server.ca_pem().as_bytes())
        ),
        &format!(
            "    client-certificate-data: {}\n    client-key-data: {}\n",
            b64(cert.as_bytes()),
            b64(key.as_bytes())
        ),
    ));
    let (cert, key) = server.client_cert("bob");
    let cert = file(&user, "bob.crt", &cert);
    let key = file(&user, "bob.key", &key);
    let out = user.ok(&[
        "--client-certificate",
        &cert,
        "--client-key",
        &key,
        "get",
        "-A",
    ]);
    assert_eq!(out, offline(&["--demo", "get", "-A"]));
    let reqs = server.requests();
    assert!(!reqs.is_empty());
    assert!(reqs.iter().all(|r| r.client_cert.as_deref() == Some("bob")));
    // Half a pair is refused before anything is sent.
    let tokened = User::new(&kubeconfig_with(&server.url, "", "    token: t\n"));
    let (code, _, err) = tokened.run(&["--client-certificate", &cert, "get"]);
    assert_eq!(code, 1);
    assert!(err.contains("a client certificate needs its key"), "{err}");
}

/// `--server URL --token T` with no kubeconfig at all, as kubectl allows.
#[test]
fn server_and_token_flags_need_no_kubeconfig() {
    let server = FakeApi::from_yaml(DEMO).tls().start();
    let user = User::new("");
    let ca = file(&user, "ca.pem", &server.ca_pem());
    let out = user
        .cmd()
        .env_remove("KUBECONFIG")
        .args([
            "--server",
            &server.url,
            "--token",
            "flag-token",
            "--certificate-authority",
            &ca,
            "get",
            "-A",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        offline(&["--demo", "get", "-A"])
    );
    let reqs = server.requests();
    assert!(!reqs.is_empty());
    assert!(reqs
        .iter()
        .all(|r| r.header("authorization") == ["Bearer flag-token"]));
    // The token is never printed, not even in an error.
    let (code, _, err) = user.run(&[
        "--server",
        "https://127.0.0.1:1",
        "--token",
        "flag-token",
        "--request-timeout",
        "2s",
        "get",
    ]);
    assert_eq!(code, 1);
    assert!(!err.contains("flag-token"), "{err}");
}

/// `--server` replaces the kubeconfig's server (here one nothing listens on).
#[test]
fn server_flag_replaces_the_kubeconfigs() {
    let server = FakeApi::from_yaml(DEMO).tls().start();
    let ca = format!(
        "    certificate-authority-data: {}\n",
        b64(server.ca_pem().as_bytes())
    );
    let user = User::new(&kubeconfig_with(
        "https://127.0.0.1:1",
        &ca,
        "    token: t\n",
    ));
    assert_eq!(
        user.ok(&["-s", &server.url, "get", "-A"]),
        offline(&["--demo", "get", "-A"])
    );
}

/// `--token` replaces the user's credentials: the kubeconfig's plugin is not run.
#[test]
fn token_flag_replaces_a_credential_plugin() {
    let server = FakeApi::from_yaml(DEMO)
        .require_bearer("flag-token")
        .start();
    let user = exec_plugin_user(&server, "#!/bin/sh\necho 'ran' >&2\nexit 1\n", "[]");
    let out = user.ok(&["--token", "flag-token", "get", "-A"]);
    assert_eq!(out, offline(&["--demo", "get", "-A"]));
    assert!(server
        .requests()
        .iter()
        .all(|r| r.authorized_as.as_deref() == Some("the expected token")));
}

/// `--as`, `--as-group` (repeated) and `--as-uid` are sent on every request.
#[test]
fn impersonation_headers_on_every_request() {
    let server = FakeApi::from_yaml(DEMO).tls().start();
    let user = User::new(&server.kubeconfig("admin", None));
    let out = user.ok(&[
        "--as",
        "bob",
        "--as-group",
        "team-a",
        "--as-group",
        "team-b",
        "--as-uid",
        "1234",
        "get",
        "-A",
    ]);
    assert_eq!(out, offline(&["--demo", "get", "-A"]));
    let reqs = server.requests();
    assert!(reqs.len() > 5);
    for r in &reqs {
        assert_eq!(r.header("impersonate-user"), ["bob"], "{}", r.target);
        assert_eq!(
            r.header("impersonate-group"),
            ["team-a", "team-b"],
            "{}",
            r.target
        );
        assert_eq!(r.header("impersonate-uid"), ["1234"], "{}", r.target);
        assert_eq!(r.header("authorization"), ["Bearer not-a-real-token"]);
    }
    let (code, _, err) = user.run(&["--as-group", "team-a", "get"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("--as-group and --as-uid need --as USER"),
        "{err}"
    );
}

/// `--cluster` and `--user` pick kubeconfig entries by name, over the context's.
#[test]
fn cluster_and_user_flags_pick_kubeconfig_entries() {
    let a = FakeApi::from_yaml(DEMO).require_bearer("token-a").start();
    let b = FakeApi::from_yaml(DEMO).require_bearer("token-b").start();
    let kc = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: a\n  cluster: {{server: '{}'}}\n- name: b\n  cluster: {{server: '{}'}}\ncontexts:\n- name: a\n  context: {{cluster: a, user: ua}}\ncurrent-context: a\nusers:\n- name: ua\n  user: {{token: token-a}}\n- name: ub\n  user: {{token: token-b}}\n",
        a.url, b.url
    );
    let user = User::new(&kc);
    user.ok(&["--cluster", "b", "--user", "ub", "get", "-A"]);
    assert!(a.requests().is_empty());
    let reqs = b.requests();
    assert!(!reqs.is_empty());
    assert!(reqs
        .iter()
        .all(|r| r.authorized_as.as_deref() == Some("the expected token")));
    // The context's user on cluster b: b refuses a's token.
    let (code, _, err) = user.run(&["--cluster", "b", "get", "-A"]);
    assert_eq!(code, 1);
    assert!(err.contains("401"), "{err}");
    let (code, _, err) = user.run(&["--user", "nobody", "get"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("error: --user nobody: no user \"nobody\" in kubeconfig "),
        "{err}"
    );
    let (code, _, err) = user.run(&["--cluster", "nowhere", "get"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("error: --cluster nowhere: no cluster \"nowhere\" in kubeconfig "),
        "{err}"
    );
}

/// `--tls-server-name` is the name the server's certificate is checked against.
#[test]
fn tls_server_name_is_the_name_checked() {
    let server = FakeApi::from_yaml(DEMO).tls().start();
    let user = User::new(&server.kubeconfig("admin", None));
    user.ok(&["--tls-server-name", "fake-apiserver.test", "get", "-A"]);
    let (code, _, err) = user.run(&["--tls-server-name", "other.example", "get", "-A"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("the server's certificate is not valid for the name connected to"),
        "{err}"
    );
}

/// `get -l` live gives the rows that the same selector gives offline on the same objects.
#[test]
fn get_with_a_selector_live_as_offline() {
    let yaml = format!("{DEMO}\n---\n{LABELLED}");
    let server = FakeApi::from_yaml(&yaml).start();
    let user = User::new(&server.kubeconfig("admin", None));
    let path = file(&user, "all.yaml", &yaml);
    for sel in ["team=payments", "team notin (payments)", "!team"] {
        let live = user.ok(&["get", "-A", "-l", sel]);
        assert_eq!(
            live,
            offline(&["-f", &path, "get", "-A", "-l", sel]),
            "{sel}"
        );
    }
    let live = user.ok(&["get", "-A", "-l", "team=payments", "-o", "name"]);
    assert_eq!(
        live,
        "backendtlspolicy.gateway.networking.k8s.io/labelled-tls\n"
    );
}

const LABELLED: &str = r#"apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata:
  name: labelled-tls
  namespace: baker
  labels: {team: payments}
  creationTimestamp: "2026-01-01T00:00:00Z"
spec:
  targetRefs: [{group: "", kind: Service, name: oven}]
  validation: {hostname: oven.baker, wellKnownCACertificates: System}
"#;

// ------------------------------------------------ a client that behaves like client-go

/// The requests whose path contains `needle`.
fn requests_to(server: &Server, needle: &str) -> usize {
    server
        .targets()
        .iter()
        .filter(|t| t.contains(needle))
        .count()
}

/// A 503 that says `Retry-After` is retried as the server asks, as a 429 is; the answer
/// is then complete.
#[test]
fn unavailable_with_retry_after_is_retried_as_the_server_asks() {
    let server = FakeApi::from_yaml(DEMO)
        .fault(
            "/httproutes",
            Fault::Unavailable {
                times: 2,
                retry_after_secs: 1,
            },
        )
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    let started = Instant::now();
    assert_eq!(
        user.ok(&["--request-timeout", "10s", "get", "-A"]),
        offline(&["--demo", "get", "-A"])
    );
    assert!(started.elapsed() >= Duration::from_secs(2));
    assert_eq!(requests_to(&server, "/httproutes"), 3);
}

/// client-go retries at most ten times; then the kind is a blind spot that says so.
#[test]
fn retries_that_run_out_are_a_blind_spot_that_says_why() {
    let server = FakeApi::from_yaml(DEMO)
        .fault(
            "/httproutes",
            Fault::Unavailable {
                times: usize::MAX,
                retry_after_secs: 0,
            },
        )
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    let (code, _, err) = user.run(&["get", "-A"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: cannot list httproutes.gateway.networking.k8s.io in all namespaces: 503 ServiceUnavailable: the server is currently unable to handle the request (still so after 10 retries, each after the Retry-After the server asked for); objects of this kind are not shown"),
        "{err}"
    );
    assert_eq!(requests_to(&server, "/httproutes"), 11);
}

/// A Retry-After past the request timeout is not waited for: the timeout bounds the
/// request and its retries together.
#[test]
fn a_retry_after_past_the_request_timeout_is_not_waited_for() {
    let server = FakeApi::from_yaml(DEMO)
        .fault(
            "/httproutes",
            Fault::Unavailable {
                times: usize::MAX,
                retry_after_secs: 1,
            },
        )
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    let started = Instant::now();
    let (code, _, err) = user.run(&["--request-timeout", "2500ms", "get", "-A"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(
        err.contains("503 ServiceUnavailable: the server is currently unable to handle the request (the server asked to retry after 1s, past the --request-timeout of 2500ms, after 2 retries)"),
        "{err}"
    );
    assert_eq!(requests_to(&server, "/httproutes"), 3);
}

/// Every request names the program, its version and the platform, as client-go's
/// user agent does (`kubectl/v1.34.0 (linux/amd64)`).
#[test]
fn every_request_says_who_sends_it() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    user.ok(&["get", "-A"]);
    user.ok(&["describe", "httproute/baker", "-n", "baker"]);
    let os = match std::env::consts::OS {
        "macos" => "darwin",
        os => os,
    };
    let arch = match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        arch => arch,
    };
    let want = format!(
        "kubectl-policies/{} ({os}/{arch})",
        env!("CARGO_PKG_VERSION")
    );
    let requests = server.requests();
    assert!(requests.len() > 10);
    for r in &requests {
        assert_eq!(r.header("user-agent"), [want.as_str()], "{}", r.target);
    }
}

/// A list whose continue tokens come round again would never end: it is stopped, and
/// the kind is a blind spot naming it.
#[test]
fn a_continue_token_that_comes_round_again_stops_the_list() {
    let server = FakeApi::from_yaml(DEMO)
        .fault("/httproutes", Fault::LoopingContinue)
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    let (code, _, err) = user.run(&["--request-timeout", "5s", "get", "-A"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: cannot list httproutes.gateway.networking.k8s.io in all namespaces: the server gave a continue token it had given before, after 3 pages; the list was stopped, as it would never end; objects of this kind are not shown"),
        "{err}"
    );
    assert_eq!(requests_to(&server, "/httproutes"), 3);
}

/// The highest resident memory of a process, in KiB, as `/proc` reports it.
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A server that streams a body without end: the read stops once the body holds more
/// than the bound (256 MiB), long before the request timeout, with a blind spot naming
/// the kind; the memory of the process stays near that bound.
#[test]
fn an_endless_body_ends_in_an_error_naming_the_kind_and_memory_stays_bounded() {
    let server = FakeApi::from_yaml(DEMO)
        .fault("/retrypolicies", Fault::EndlessBody)
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    let started = Instant::now();
    let mut child = command::hermetic(command::binary())
        .env("HOME", user.home.path())
        .env("KUBECONFIG", user.kubeconfig())
        .args(["--request-timeout", "120s", "get", "-A"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut s).unwrap();
        s
    });
    let mut peak = 0;
    let status = loop {
        if let Some(kib) = peak_kib(child.id()) {
            peak = peak.max(kib);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "still reading"
        );
        std::thread::sleep(Duration::from_millis(5));
    };
    let err = reader.join().unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning: cannot list retrypolicies.resilience.example.io in all namespaces: the answer is larger than 256 MiB, the most one answer may hold; it was not read further; policies of this kind are not shown"),
        "{err}"
    );
    // The bound, and what the process holds besides (its runtime, the demo's objects).
    assert!(peak > 0);
    assert!(peak < (256 + 128) << 10, "peak {} MiB", peak >> 10);
    eprintln!(
        "endless body: stopped after {:?}, peak {} MiB",
        started.elapsed(),
        peak >> 10
    );
}

/// A server's Status message with escape sequences (retitling the terminal, clearing
/// it) never reaches the terminal raw.
#[test]
fn escape_sequences_in_a_server_message_never_reach_the_terminal() {
    let server = FakeApi::from_yaml(DEMO)
        .fault(
            "/retrypolicies",
            Fault::Message {
                code: 500,
                message: "\u{1b}]0;pwned\u{7}\u{1b}[2J".into(),
            },
        )
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    let (code, _, err) = user.run(&["get", "-A"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("retrypolicies.resilience.example.io"), "{err}");
    assert!(!err.contains('\u{1b}'), "{err:?}");
    assert!(!err.contains('\u{7}'), "{err:?}");
}

// ------------------------------------------------------------ namespace names in URLs

/// `-n` is a namespace's name before it goes into any URL: `-n a/b` is a usage error
/// (exit 1, saying why) and no request is sent; offline too, as kubectl refuses it.
#[test]
fn a_namespace_flag_that_is_no_namespace_name_is_a_usage_error() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", None));
    for bad in ["a/b", "..", "Baker", "baker\u{1b}[2J"] {
        for args in [
            vec!["get", "-n", bad],
            vec!["describe", "httproute/baker", "-n", bad],
            vec!["--demo", "get", "-n", bad],
        ] {
            let (code, out, err) = user.run(&args);
            assert_eq!(code, 1, "{args:?}: {err}");
            assert!(out.is_empty(), "{out}");
            let first = err.lines().next().unwrap_or_default();
            assert!(
                first.starts_with(&format!("error: -n/--namespace {bad:?}: not a namespace name: a namespace name must be a lowercase RFC 1123 label")),
                "{err}"
            );
            assert_eq!(err.lines().count(), 1, "{err}");
        }
    }
    assert!(server.requests().is_empty(), "{:#?}", server.targets());
    user.ok(&["get", "-n", "baker"]);
}

/// The kubeconfig context's namespace is checked as `-n` is; `-n` given instead is used.
#[test]
fn a_context_namespace_that_is_no_namespace_name_is_refused() {
    let server = demo_server();
    let user = User::new(&server.kubeconfig("admin", Some("a/b")));
    let (code, _, err) = user.run(&["get"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("the kubeconfig context's namespace \"a/b\" is not a namespace name"),
        "{err}"
    );
    assert!(
        !server.targets().iter().any(|t| t.contains("a/b")),
        "{:#?}",
        server.targets()
    );
    user.ok(&["get", "-n", "baker"]);
}

/// A reference may name any text as a namespace; one that is no namespace name is never
/// read (it can hold nothing), so it never goes into a URL.
#[test]
fn a_reference_to_a_namespace_that_cannot_exist_is_never_requested() {
    let yaml = format!(
        "{DEMO}\n---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: sly, namespace: baker}}\nspec:\n  parentRefs: [{{name: gw, namespace: \"x/../../../api/v1/secrets?\"}}]\n"
    );
    let server = FakeApi::from_yaml(&yaml).start();
    let user = User::new(&server.kubeconfig("admin", Some("baker")));
    let (code, out, err) = user.run(&["describe", "httproute/sly"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("sly"), "{out}");
    let targets = server.targets();
    assert!(
        targets
            .iter()
            .all(|t| !t.contains("x/") && !t.contains("secrets")),
        "{targets:#?}"
    );
    // The namespaces it did read are those of the route and of real references.
    assert!(
        targets.iter().any(|t| t.contains("/namespaces/baker/")),
        "{targets:#?}"
    );
}

/// Whether process `pid` is still running (not gone, not a zombie waiting to be reaped).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let state = stat
                .rsplit_once(')')?
                .1
                .split_whitespace()
                .next()?
                .to_string();
            Some(state != "Z" && state != "X")
        })
        .unwrap_or(false)
}

/// A credential plugin that times out is ended with everything it started: it runs in
/// a process group of its own, and the whole group is killed.
#[test]
fn a_credential_plugin_that_times_out_is_ended_with_its_whole_process_group() {
    let server = demo_server();
    let user = exec_plugin_user(&server, "", "[]");
    let pid_file = user.home.path().join("helper.pid");
    std::fs::write(
        user.home.path().join("credential-plugin"),
        format!(
            "#!/bin/sh\nsleep 60 &\necho $! > '{}'\necho 'waiting for the browser login' >&2\nsleep 60\n",
            pid_file.display()
        ),
    )
    .unwrap();
    let started = Instant::now();
    let (code, _, err) = user.run(&["--request-timeout", "1s", "get", "-A"]);
    assert_eq!(code, 1, "{err}");
    assert!(started.elapsed() < Duration::from_secs(10), "{err}");
    assert!(err.contains("gave no credentials within 1s"), "{err}");
    let helper: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // Killed with the group; reaped by whoever adopted it, soon.
    let gone_by = Instant::now() + Duration::from_secs(5);
    while running(helper) && Instant::now() < gone_by {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!running(helper), "the plugin's helper {helper} still runs");
}

// ------------------------------------------------------------ no secret in a message

/// Recognisable secrets, one per place a kubeconfig keeps one.
const SECRETS: &[&str] = &[
    "SECRET-TOKEN-0001",
    "SECRET-PASSWORD-0002",
    "SECRET-KEY-DATA-0003",
    "SECRET-CERT-DATA-0004",
    "SECRET-ENV-0005",
    "SECRET-ARG-0006",
    "SECRET-URL-PW-0007",
];

/// Runs the user's command and checks that no secret reached stdout or stderr; returns
/// the exit code and stderr.
fn run_without_secrets(user: &User, args: &[&str]) -> (i32, String) {
    let out = user.cmd().args(args).output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    for secret in SECRETS {
        assert!(
            !stdout.contains(secret) && !stderr.contains(secret),
            "{args:?} printed {secret}:\n{stdout}\n{stderr}"
        );
    }
    (out.status.code().unwrap_or(-1), stderr.into_owned())
}

/// A kubeconfig whose user entry holds every kind of secret, with `user` (YAML lines
/// indented by four spaces) added to it, and `server` as the cluster's URL.
fn secret_kubeconfig(server: &str, user: &str) -> String {
    kubeconfig_with(
        server,
        "",
        &format!("    token: SECRET-TOKEN-0001\n    username: admin\n    password: SECRET-PASSWORD-0002\n{user}"),
    )
}

/// A kubeconfig whose YAML cannot be read: the error gives the file, the line and the
/// column, never the text there or around it (the token on the line before).
#[test]
fn a_kubeconfig_yaml_error_shows_no_text_of_it() {
    for broken in [
        "    client-key: [unclosed\n",
        "    client-key: {SECRET-KEY-DATA-0003: [1, 2}\n",
        "    client-certificate: [SECRET-CERT-DATA-0004]\n",
        "    exec: {command: x, env: [{name: K, value: SECRET-ENV-0005}], args: SECRET-ARG-0006}\n",
    ] {
        let user = User::new(&secret_kubeconfig("http://127.0.0.1:1", broken));
        for args in [vec!["get"], vec!["--demo", "get"]] {
            let (code, err) = run_without_secrets(&user, &args);
            let path = user.kubeconfig().display().to_string();
            assert!(
                err.contains(&format!("kubeconfig {path}"))
                    && err.contains(": not a valid kubeconfig at line "),
                "{broken}: {err}"
            );
            assert!(err.contains("the text there is not shown"), "{err}");
            assert_eq!(err.lines().count(), 1 + usize::from(code == 0), "{err}");
            assert!(!err.contains(" | ") && !err.contains("-->"), "{err}");
        }
    }
}

/// A server URL's `user:password@` is redacted wherever the URL is named.
#[test]
fn user_information_in_a_server_url_is_never_shown() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let gone = format!("http://admin:SECRET-URL-PW-0007@127.0.0.1:{port}");
    let user = User::new(&secret_kubeconfig(&gone, ""));
    let (code, err) = run_without_secrets(&user, &["--request-timeout", "3s", "get", "-A"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!(
            "cannot reach the API server at http://***@127.0.0.1:{port}"
        )),
        "{err}"
    );
    // Through --server too, and when the server answers 401.
    let server = FakeApi::from_yaml(DEMO).unauthorized().start();
    let with_password = server
        .url
        .replace("http://", "http://admin:SECRET-URL-PW-0007@");
    let (code, err) = run_without_secrets(&user, &["--server", &with_password, "get", "-A"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("the API server at http://***@127.0.0.1:"),
        "{err}"
    );
}

/// Key and certificate data that cannot be decoded: the error says which field, not
/// what it holds.
#[test]
fn undecodable_key_data_is_named_not_shown() {
    let server = demo_server();
    let user = User::new(&secret_kubeconfig(
        &server.url,
        "    client-certificate-data: SECRET-CERT-DATA-0004!!\n    client-key-data: SECRET-KEY-DATA-0003!!\n",
    ));
    let (code, err) = run_without_secrets(&user, &["get", "-A"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("-data is not valid base64") && err.contains("the user's client-"),
        "{err}"
    );
    assert!(server.requests().is_empty());
}

/// A credential plugin whose arguments and environment hold secrets: neither is shown
/// when it fails or hangs.
#[test]
fn a_credential_plugins_arguments_and_environment_are_never_shown() {
    let server = demo_server();
    let user = exec_plugin_user(
        &server,
        "",
        "[{name: CLIENT_SECRET, value: SECRET-ENV-0005}]",
    );
    let kc = std::fs::read_to_string(user.kubeconfig()).unwrap().replace(
        "      env:",
        "      args: ['--client-secret=SECRET-ARG-0006']\n      env:",
    );
    std::fs::write(user.kubeconfig(), kc).unwrap();
    let plugin = user.home.path().join("credential-plugin");
    for script in [
        "#!/bin/sh\necho \"cannot log in\" >&2\nexit 1\n",
        "#!/bin/sh\nsleep 5\n",
        "#!/bin/sh\necho not-json\n",
    ] {
        std::fs::write(&plugin, script).unwrap();
        let (code, err) = run_without_secrets(&user, &["--request-timeout", "1s", "get", "-A"]);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains(&format!("credential plugin \"{}\"", plugin.display())),
            "{err}"
        );
    }
    assert!(server.requests().is_empty());
}

/// Every command, on a server reached with a kubeconfig full of secrets: nothing of
/// them in any answer or warning.
#[test]
fn no_command_prints_a_kubeconfig_secret() {
    let server = FakeApi::from_yaml(DEMO)
        .fault("/backendtlspolicies", Fault::Status(500))
        .start();
    let with_password = server
        .url
        .replace("http://", "http://admin:SECRET-URL-PW-0007@");
    let user = User::new(&secret_kubeconfig(&with_password, ""));
    for args in [
        vec!["get", "-A"],
        vec!["get", "-A", "-o", "json"],
        vec!["describe", "httproute/baker", "-n", "baker"],
        vec!["dump", "-A"],
        vec![
            "blast-radius",
            "retrypolicy/ns-retries",
            "-n",
            "baker",
            "-o",
            "json",
        ],
        vec!["check", "-A"],
    ] {
        let (code, err) = run_without_secrets(&user, &args);
        assert!(code == 0 || args[0] == "check", "{args:?}: {err}");
        assert!(err.contains("backendtlspolicies"), "{err}");
    }
    assert!(!server.requests().is_empty());
}

/// A body that says it is larger than the bound is refused as soon as it says so, not
/// read until the request timeout.
#[test]
fn a_body_that_says_it_is_too_large_is_refused_at_once() {
    let server = FakeApi::from_yaml(DEMO)
        .fault("/retrypolicies", Fault::DeclaredLength(300 << 20))
        .start();
    let user = User::new(&server.kubeconfig("admin", None));
    let started = Instant::now();
    let (code, _, err) = user.run(&["--request-timeout", "30s", "get", "-A"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(
        err.contains("cannot list retrypolicies.resilience.example.io in all namespaces: the answer is larger than 256 MiB"),
        "{err}"
    );
}

/// Namespaces app (a Gateway, a route to Service payments and its Pods), web (Pods,
/// no policy picking them) and lonely (a Pod no selector matches); `policies` added.
pub(crate) fn pod_cluster(policies: &str) -> String {
    let objects = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec: {gatewayClassName: gke-l7-rilb, listeners: [{name: http, port: 80, protocol: HTTP}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: pay, namespace: app}
spec: {parentRefs: [{name: gw}], rules: [{backendRefs: [{name: payments, port: 80}]}]}
---
apiVersion: v1
kind: Service
metadata: {name: payments, namespace: app}
spec: {selector: {app: payments}, ports: [{name: http, port: 80}]}
---
apiVersion: v1
kind: Pod
metadata: {name: pay-1, namespace: app, labels: {app: payments}}
spec: {containers: [{name: c, image: pay}]}
---
apiVersion: v1
kind: Pod
metadata: {name: cart-1, namespace: app, labels: {app: cart}}
spec: {containers: [{name: c, image: cart}]}
---
apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: web, labels: {app: payments}}
spec: {containers: [{name: c, image: web}]}
---
apiVersion: v1
kind: Pod
metadata: {name: alone-1, namespace: lonely, labels: {app: alone}}
spec: {containers: [{name: c, image: alone}]}
";
    format!("{objects}{policies}")
}

/// A GCPServerTLSPolicy `name` in `namespace` picking the Pods labelled app=`app`.
pub(crate) fn pod_policy(name: &str, namespace: &str, app: &str) -> String {
    format!(
        "---
apiVersion: networking.gke.io/v1
kind: GCPServerTLSPolicy
metadata: {{name: {name}, namespace: {namespace}}}
spec:
  targetRefs: [{{kind: Pod, selector: {{matchLabels: {{app: {app}}}}}}}]
  mtlsMode: Strict
"
    )
}

/// The Pod lists the server saw.
fn pod_requests(server: &Server) -> Vec<String> {
    let mut pods: Vec<String> = server
        .targets()
        .into_iter()
        .filter(|t| t.contains("/pods"))
        .collect();
    pods.sort();
    pods
}

/// A GKE policy picking Pods by label reads them live: Pods are listed only in the
/// namespaces of such policies, with the policy's selector, and the policy resolves to
/// the Pods that match, as the same objects in a file do; one whose selector matches
/// no Pod of its namespace is TargetNotFound, not SelectorBound.
#[test]
fn a_gke_pod_selector_lists_pods_in_its_namespace_only_and_resolves_live() {
    let yaml = pod_cluster(
        &[
            pod_policy("pods", "app", "payments"),
            pod_policy("ghost", "lonely", "ghost"),
        ]
        .concat(),
    );
    let server = FakeApi::from_yaml(&yaml).start();
    let user = User::new(&server.kubeconfig("admin", Some("app")));
    let live = user.ok(&["describe", "gcpservertlspolicy/pods"]);
    assert!(live.contains("Pod app/pay-1   resolved"), "{live}");
    assert!(!live.contains("cart-1"), "{live}");
    assert!(live.contains("Enforced (computed)"), "{live}");
    let pods = pod_requests(&server);
    assert_eq!(pods.len(), 2, "{pods:#?}");
    assert!(
        pods[0].starts_with("/api/v1/namespaces/app/pods?")
            && pods[0].contains("labelSelector=app%3Dpayments"),
        "{pods:#?}"
    );
    assert!(
        pods[1].starts_with("/api/v1/namespaces/lonely/pods?")
            && pods[1].contains("labelSelector=app%3Dghost"),
        "{pods:#?}"
    );
    only_gets(&server);
    // The same objects in a file: the same answer.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("objects.yaml");
    std::fs::write(&file, &yaml).unwrap();
    let file = file.display().to_string();
    let args = ["describe", "gcpservertlspolicy/pods", "-n", "app"];
    let from_file = offline(&[&["-f", file.as_str()][..], &args].concat());
    assert_eq!(user.ok(&args), from_file);
    // The Pod it picks, asked about by name: the same page as offline, its namespace
    // read (with its Services) as `describe service/NAME` reads.
    for args in [["describe", "pod/pay-1"], ["tree", "po/pay-1"]] {
        let live = user.ok(&args);
        assert!(live.contains("GCPServerTLSPolicy"), "{live}");
        assert_eq!(
            live,
            offline(&[&["-f", file.as_str(), "-n", "app"][..], &args].concat())
        );
    }
    // A Pod its selector does not pick is not listed: said so, not "unknown type".
    let (code, _, err) = user.run(&["describe", "pod/cart-1"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("pods \"cart-1\" not found in namespace app (Pods are read only where a policy picks Pods by label"),
        "{err}"
    );
    // Listed with its selector, nothing came back: no Pod matches.
    let ghost = user.ok(&["describe", "gcpservertlspolicy/ghost", "-n", "lonely"]);
    assert!(ghost.contains("TargetNotFound (computed)"), "{ghost}");
    assert!(!ghost.contains("SelectorBound"), "{ghost}");
}

/// No policy that picks Pods (one of a kind that may, picking its Namespace): no Pod
/// is ever listed.
#[test]
fn without_a_pod_selecting_policy_no_pod_is_listed() {
    let namespace_wide = "---
apiVersion: networking.gke.io/v1
kind: GCPServerTLSPolicy
metadata: {name: whole, namespace: app}
spec:
  targetRefs: [{kind: Namespace, selector: {}}]
  mtlsMode: Strict
";
    let server = FakeApi::from_yaml(&pod_cluster(namespace_wide)).start();
    let user = User::new(&server.kubeconfig("admin", Some("app")));
    user.ok(&["get", "-A"]);
    user.ok(&["tree", "service/payments"]);
    user.ok(&["describe", "service/payments"]);
    assert_eq!(pod_requests(&server), Vec::<String>::new());
    only_gets(&server);
}

/// Pods that may not be listed are a blind spot: the warning says so, and the policy
/// that picks them stays SelectorBound, saying why.
#[test]
fn forbidden_pods_are_a_blind_spot_and_the_policy_stays_selector_bound() {
    let server = FakeApi::from_yaml(&pod_cluster(&pod_policy("pods", "app", "payments")))
        .permit(|a: &Access| !a.resource.starts_with("pods"))
        .start();
    let user = User::new(&server.kubeconfig("admin", Some("app")));
    let (code, out, err) = user.run(&["describe", "gcpservertlspolicy/pods"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("cannot list pods in namespace app: forbidden; the policies there that pick Pods by label are shown SelectorBound"),
        "{err}"
    );
    assert!(out.contains("SelectorBound (computed)"), "{out}");
    let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("(Pods labelled app=payments; the Pods of namespace app could not be read: cannot list pods in namespace app: forbidden"),
        "{out}"
    );
    assert_eq!(pod_requests(&server).len(), 1, "{:#?}", server.targets());
}
