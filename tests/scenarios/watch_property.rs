//! `get -w`'s guarantee as a property: after any sequence of changes, the last row
//! printed for every policy is the row a fresh `get` computes on the objects as they
//! are (in a table, the same cells; with `-o json -l tier=gold`, the same item, the
//! policies whose labels came to match or stopped included), and the rows `Watched`
//! holds are `get`'s rows.
//!
//! A generated cluster (every kind the tool reads: Namespaces whose labels allowedRoutes
//! selectors read, a GatewayClass, a Gateway and a ListenerSet whose listeners come and
//! go, routes across namespaces, Services, a ReferenceGrant, Pods, the CRD that makes a
//! policy kind, policies of inherited, direct and Pod-picking kinds, and Secrets and
//! ConfigMaps with the policies that name them, listed where those name them, and what
//! those references rest on one step further: the BackendTLSPolicy on an ext-auth
//! Service and its CA ConfigMap, a kgateway GatewayExtension's backend, the
//! ReferenceGrant letting them in, a Gateway's BackendTrafficPolicy a route's merges
//! with and its ConfigMap), then batches
//! of changes: each object put in one of its shapes or deleted (and recreated under
//! the same name), one event at a time or a few at once, or missed and seen again in a
//! fresh list (a 410 Gone), and the policy kind's CRD deleted with its kind no longer
//! served (its watch ends, its policies gone with it). After every batch the watch's
//! answer is compared with a full analysis. proptest shrinks a failure to the fewest changes; the seed is fixed, so
//! every run tries the same sequences (PROPTEST_RNG_SEED picks others).

use kubectl_policies::model::read::Resource;
use kubectl_policies::model::watch::{Change, WatchList};
use kubectl_policies::model::{Listed, ObjRef, Object, Snapshot};
use kubectl_policies::query::watch::events::{Event, Shown, Shows};
use kubectl_policies::query::watch::{Answer, Watched};
use kubectl_policies::query::{analyze, policy_item, policy_rows, PolicyRow};
use kubectl_policies::render::human::policy_cells_alike;
use kubectl_policies::render::Printer;
use kubectl_policies::source::files::{load_text, Loaded};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use std::collections::{BTreeMap, BTreeSet};

/// The namespaces whose Pods a live read listed (those of the Pod-picking policies).
const PODS_READ_IN: [&str; 2] = ["backends", "other"];

/// Every object of the generated cluster: its shapes (`shape(slot, v)`, v below
/// `SHAPES[slot]`) share a name, so putting one after another is a change to it, and a
/// delete then a put is a recreation under the same name.
const SHAPES: [u8; 37] = [
    3, 3, 2, 3, 2, 3, 2, 2, 2, 2, 2, 3, 2, 2, 3, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 3, 2, 3, 2, 3, 2, 2,
    3, 2, 2, 2, 2,
];

/// The label selector of `get -w -l`, which some policies' shapes match and others not
/// (a change to their labels alone takes them in or out of view).
const GOLD: (&str, &str) = ("tier", "gold");

const RETRY_CRD: &str = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: retrypolicies.example.io\n  labels: {gateway.networking.k8s.io/policy: LABEL}\nspec: {group: example.io, names: {kind: RetryPolicy, plural: retrypolicies}, scope: Namespaced}\n";

/// Object `slot` in its shape `v`, as YAML.
fn shape(slot: usize, v: u8) -> String {
    let namespace = |name: &str, labels: &str| {
        format!(
            "apiVersion: v1\nkind: Namespace\nmetadata: {{name: {name}, labels: {{{labels}}}}}\n"
        )
    };
    let team = |v: u8| match v {
        0 => "team: a",
        1 => "team: b",
        _ => "",
    };
    let service = |name: &str, ns: &str, v: u8| {
        let ports = match v {
            0 => "[{name: http, port: 80}]",
            _ => "[{name: http, port: 80}, {name: alt, port: 8080}]",
        };
        format!("apiVersion: v1\nkind: Service\nmetadata: {{name: {name}, namespace: {ns}}}\nspec: {{selector: {{app: pay}}, ports: {ports}}}\n")
    };
    let retry = |name: &str, ns: &str, target: &str, spec: &str| {
        format!("apiVersion: example.io/v1\nkind: RetryPolicy\nmetadata: {{name: {name}, namespace: {ns}, creationTimestamp: \"2025-0{}-01T00:00:00Z\"}}\nspec:\n  targetRef: {target}\n  {spec}\n", 1 + name.len() % 8)
    };
    let gw = "{group: gateway.networking.k8s.io, kind: Gateway, name: gw";
    let route = "{group: gateway.networking.k8s.io, kind: HTTPRoute";
    let pod = |name: &str, ns: &str, app: &str| {
        format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: {ns}, labels: {{app: {app}}}}}\nspec: {{containers: [{{name: c, image: x}}]}}\n")
    };
    let pod_policy = |ns: &str, app: &str| {
        format!("apiVersion: networking.gke.io/v1\nkind: GCPServerTLSPolicy\nmetadata: {{name: pods, namespace: {ns}}}\nspec:\n  targetRefs: [{{kind: Pod, selector: {{matchLabels: {{app: {app}}}}}}}]\n  mtlsMode: Strict\n")
    };
    let app = |v: u8| if v == 0 { "pay" } else { "cart" };
    match slot {
        0 => namespace("shop", team(v)),
        1 => namespace("other", team(v)),
        2 => format!("apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata: {{name: gc}}\nspec: {{controllerName: example.com/c{v}}}\n"),
        3 => {
            let listeners = match v {
                0 => "- {name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: Selector, selector: {matchLabels: {team: a}}}}}\n  - {name: https, port: 443, protocol: HTTPS, allowedRoutes: {namespaces: {from: All}}}",
                1 => "- {name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}",
                _ => "- {name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: Same}}}\n  - {name: https, port: 443, protocol: HTTPS, allowedRoutes: {namespaces: {from: Selector, selector: {matchLabels: {team: b}}}}}",
            };
            format!("apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {{name: gw, namespace: infra}}\nspec:\n  gatewayClassName: gc\n  allowedListeners: {{namespaces: {{from: All}}}}\n  listeners:\n  {listeners}\n")
        }
        4 => {
            let allowed = match v {
                0 => "{from: All}",
                _ => "{from: Selector, selector: {matchLabels: {team: b}}}",
            };
            format!("apiVersion: gateway.networking.k8s.io/v1\nkind: ListenerSet\nmetadata: {{name: extra, namespace: edge}}\nspec:\n  parentRef: {{name: gw, namespace: infra}}\n  listeners:\n  - {{name: extra, port: 8080, protocol: HTTP, allowedRoutes: {{namespaces: {allowed}}}}}\n")
        }
        5 => {
            let spec = match v {
                0 => "parentRefs:\n  - {name: gw, namespace: infra, sectionName: http}\n  - {kind: ListenerSet, name: extra, namespace: edge}\n  rules:\n  - name: cart\n    backendRefs: [{name: cart, namespace: backends, port: 80}]\n  - name: home\n    backendRefs: [{name: home, port: 80}]",
                1 => "parentRefs: [{name: gw, namespace: infra}]\n  rules:\n  - name: home\n    backendRefs: [{name: home, port: 80}]",
                _ => "parentRefs: [{kind: ListenerSet, name: extra, namespace: edge}]\n  rules:\n  - name: cart\n    backendRefs: [{name: cart, namespace: backends, port: 8080}]",
            };
            format!("apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: shop, namespace: shop}}\nspec:\n  {spec}\n")
        }
        6 => {
            let spec = match v {
                0 => "parentRefs: [{name: gw, namespace: infra}]\n  rules: [{backendRefs: [{name: svc, port: 80}]}]",
                _ => "parentRefs: [{name: gw, namespace: infra, sectionName: https}]\n  rules: [{backendRefs: [{name: cart, namespace: backends, port: 80}]}]",
            };
            format!("apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: other, namespace: other}}\nspec:\n  {spec}\n")
        }
        7 => {
            let backend = match v {
                0 => "{name: cart, namespace: backends, port: 80}",
                _ => "{name: home, namespace: shop, port: 80}",
            };
            format!("apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: calls, namespace: mesh}}\nspec:\n  parentRefs: [{{group: \"\", kind: Service, name: cart, namespace: backends}}]\n  rules: [{{backendRefs: [{backend}]}}]\n")
        }
        8 => service("home", "shop", v),
        9 => service("cart", "backends", v),
        10 => service("svc", "other", v),
        11 => {
            let from = match v {
                0 => "[{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: shop}]",
                1 => "[{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: other}]",
                _ => "[{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: shop}, {group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: other}, {group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: mesh}]",
            };
            format!("apiVersion: gateway.networking.k8s.io/v1beta1\nkind: ReferenceGrant\nmetadata: {{name: let-in, namespace: backends}}\nspec:\n  from: {from}\n  to: [{{group: \"\", kind: Service}}]\n")
        }
        12 => RETRY_CRD.replace("LABEL", if v == 0 { "inherited" } else { "Direct" }),
        13 => retry(
            "class-wide",
            "ops",
            "{group: gateway.networking.k8s.io, kind: GatewayClass, name: gc}",
            if v == 0 { "override: {attempts: 1}" } else { "default: {attempts: 1}" },
        ),
        14 => match v {
            0 => retry("gw-retries", "infra", &format!("{gw}, sectionName: http}}"), "default: {attempts: 2, backoff: 1s}"),
            1 => retry("gw-retries", "infra", &format!("{gw}}}"), "override: {attempts: 2}"),
            _ => retry("gw-retries", "infra", &format!("{route}, name: shop, namespace: shop, sectionName: cart}}"), "default: {timeout: 9s}"),
        },
        // Shapes 2 and 3 are 0 and 1 labelled tier: gold: a change to labels alone.
        15 => retry(
            "ns-retries",
            "shop",
            "{group: \"\", kind: Namespace, name: shop}",
            if v.is_multiple_of(2) { "default: {attempts: 3}" } else { "override: {attempts: 3}" },
        )
        .replace("namespace: shop,", if v >= 2 { "namespace: shop, labels: {tier: gold}," } else { "namespace: shop," }),
        16 => match v {
            0 => retry("route-retries", "shop", &format!("{route}, name: shop, sectionName: cart}}"), "default: {attempts: 5}")
                .replace("namespace: shop,", "namespace: shop, labels: {tier: gold},"),
            1 => retry("route-retries", "shop", &format!("{route}, name: shop}}"), "override: {attempts: 5}"),
            _ => retry("route-retries", "shop", &format!("{route}, name: other}}"), "default: {attempts: 5}"),
        },
        17 => {
            let target = if v == 1 { "home" } else { "cart" };
            // Its CA certificates from the ConfigMap of slot 24 (whose data is never read).
            let ca = match v {
                2 => "caCertificateRefs: [{group: \"\", kind: ConfigMap, name: ca}]",
                _ => "wellKnownCACertificates: System",
            };
            format!("apiVersion: gateway.networking.k8s.io/v1\nkind: BackendTLSPolicy\nmetadata: {{name: cart-tls, namespace: backends, creationTimestamp: \"2025-01-01T00:00:00Z\"}}\nspec:\n  targetRefs: [{{group: \"\", kind: Service, name: {target}}}]\n  validation: {{hostname: cart.example.com, {ca}}}\n")
        }
        // Shape 2 is shape 0 with a controller's report: a change to its status alone.
        18 => {
            let section = if v == 1 { ", sectionName: alt" } else { "" };
            let status = match v {
                2 => "status: {ancestors: [{ancestorRef: {name: svc, kind: Service, group: \"\"}, controllerName: example.com/c, conditions: [{type: Accepted, status: \"True\", reason: Accepted, message: ok}]}]}\n",
                _ => "",
            };
            format!("apiVersion: gateway.networking.k8s.io/v1\nkind: BackendTLSPolicy\nmetadata: {{name: svc-tls, namespace: other, creationTimestamp: \"2025-02-01T00:00:00Z\", labels: {{tier: gold}}}}\nspec:\n  targetRefs: [{{group: \"\", kind: Service, name: svc{section}}}]\n  validation: {{hostname: svc.example.com, wellKnownCACertificates: System}}\n{status}")
        }
        19 => pod("pay-1", "backends", app(v)),
        20 => pod_policy("backends", app(v)),
        21 => pod("web-1", "other", app(v)),
        22 => pod_policy("other", app(v)),
        // Secrets and ConfigMaps, as a metadata-only list gives them, and the policies
        // that name them.
        23 => format!("apiVersion: v1\nkind: Secret\nmetadata: {{name: users, namespace: other, labels: {{v: \"{v}\"}}}}\n"),
        24 => format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: ca, namespace: backends, labels: {{v: \"{v}\"}}}}\n"),
        25 => {
            let auth = match v {
                0 => "basicAuth: {users: {name: users}}",
                1 => "basicAuth: {users: {name: gone}}",
                _ => "extAuth: {http: {backendRef: {name: svc, port: 80}}}",
            };
            format!("apiVersion: gateway.envoyproxy.io/v1alpha1\nkind: SecurityPolicy\nmetadata: {{name: auth, namespace: other, creationTimestamp: \"2025-03-01T00:00:00Z\"}}\nspec:\n  targetRefs: [{route}, name: other}}]\n  {auth}\n")
        }
        // A Secret named across namespaces (kgateway reads any namespace's).
        26 => {
            let name = if v == 0 { "users" } else { "gone" };
            format!("apiVersion: gateway.kgateway.dev/v1alpha1\nkind: TrafficPolicy\nmetadata: {{name: shop-auth, namespace: shop, creationTimestamp: \"2025-04-01T00:00:00Z\"}}\nspec:\n  targetRefs: [{route}, name: shop}}]\n  basicAuth: {{secretRef: {{name: {name}, namespace: other}}}}\n")
        }
        27 => namespace("backends", team(v)),
        // References one step further (`catalog::Further`): the CA ConfigMap of the
        // BackendTLSPolicy on Service `other/svc`, which a SecurityPolicy in `shop` names
        // for ext-auth (slot 25's names it from its own namespace).
        28 => format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: ext-ca, namespace: other, labels: {{v: \"{v}\"}}}}\n"),
        29 => {
            let (section, ca) = match v {
                0 => ("", "ext-ca"),
                1 => ("", "gone"),
                _ => (", sectionName: alt", "gone"),
            };
            format!("apiVersion: gateway.networking.k8s.io/v1\nkind: BackendTLSPolicy\nmetadata: {{name: ext-tls, namespace: other, creationTimestamp: \"2024-01-01T00:00:00Z\"}}\nspec:\n  targetRefs: [{{group: \"\", kind: Service, name: svc{section}}}]\n  validation: {{hostname: svc.example.com, caCertificateRefs: [{{group: \"\", kind: ConfigMap, name: {ca}}}]}}\n")
        }
        30 => {
            let port = if v == 0 { 80 } else { 8080 };
            format!("apiVersion: gateway.envoyproxy.io/v1alpha1\nkind: SecurityPolicy\nmetadata: {{name: far-auth, namespace: shop, creationTimestamp: \"2025-05-01T00:00:00Z\"}}\nspec:\n  targetRefs: [{route}, name: shop}}]\n  extAuth: {{http: {{backendRef: {{name: svc, namespace: other, port: {port}}}}}}}\n")
        }
        // The grant that lets them into `other` (shape 1 lets routes alone).
        31 => {
            let from = match v {
                0 => "[{group: gateway.envoyproxy.io, kind: SecurityPolicy, namespace: shop}, {group: gateway.kgateway.dev, kind: GatewayExtension, namespace: shop}]",
                _ => "[{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: shop}]",
            };
            format!("apiVersion: gateway.networking.k8s.io/v1beta1\nkind: ReferenceGrant\nmetadata: {{name: let-auth, namespace: other}}\nspec:\n  from: {from}\n  to: [{{group: \"\", kind: Service}}]\n")
        }
        // A kgateway GatewayExtension whose backend lies in `other`, nowhere, or at home,
        // and a TrafficPolicy naming it (or one that is not there).
        32 => {
            let backend = match v {
                0 => "{name: svc, namespace: other, port: 80}",
                1 => "{name: nowhere, namespace: other, port: 80}",
                _ => "{name: home, port: 80}",
            };
            format!("apiVersion: gateway.kgateway.dev/v1alpha1\nkind: GatewayExtension\nmetadata: {{name: ext, namespace: shop}}\nspec:\n  extAuth: {{grpcService: {{backendRef: {backend}}}}}\n")
        }
        33 => {
            let name = if v == 0 { "ext" } else { "gone" };
            format!("apiVersion: gateway.kgateway.dev/v1alpha1\nkind: TrafficPolicy\nmetadata: {{name: shop-ext, namespace: shop, creationTimestamp: \"2025-06-01T00:00:00Z\"}}\nspec:\n  targetRefs: [{route}, name: shop}}]\n  extAuth: {{extensionRef: {{name: {name}}}}}\n")
        }
        // Envoy Gateway's merged BackendTrafficPolicies: the Gateway's, whose response
        // override's ConfigMap may not be there, and the route's, merged with it or not.
        34 => format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: error-page, namespace: infra, labels: {{v: \"{v}\"}}}}\n"),
        35 => {
            let name = if v == 0 { "error-page" } else { "gone" };
            format!("apiVersion: gateway.envoyproxy.io/v1alpha1\nkind: BackendTrafficPolicy\nmetadata: {{name: gw-errors, namespace: infra, creationTimestamp: \"2024-01-01T00:00:00Z\"}}\nspec:\n  targetRefs: [{gw}}}]\n  responseOverride:\n  - match: {{statusCodes: [{{type: Value, value: 503}}]}}\n    response: {{body: {{type: ValueRef, valueRef: {{group: \"\", kind: ConfigMap, name: {name}}}}}}}\n")
        }
        _ => {
            let merge = if v == 0 { "mergeType: StrategicMerge\n  " } else { "" };
            format!("apiVersion: gateway.envoyproxy.io/v1alpha1\nkind: BackendTrafficPolicy\nmetadata: {{name: shop-limits, namespace: shop, creationTimestamp: \"2024-01-01T00:00:01Z\"}}\nspec:\n  targetRefs: [{route}, name: shop}}]\n  {merge}rateLimit: {{local: {{rules: [{{limit: {{requests: 10, unit: Minute}}}}]}}}}\n")
        }
    }
}

/// One object of `shape`, read as a file's is.
fn object(yaml: &str) -> Object {
    let mut loaded = Loaded::default();
    load_text(yaml, "<generated>", &mut loaded).unwrap();
    loaded.place_in("default");
    loaded.snapshot.settle();
    assert_eq!(loaded.snapshot.objects.len(), 1, "{yaml}");
    loaded.snapshot.objects.remove(0)
}

/// A change to one object: put in a shape (Some) or deleted (None).
#[derive(Clone, Debug)]
struct Step {
    slot: usize,
    shape: Option<u8>,
}

/// A batch of changes, seen one event at a time (`missed`: false) or missed and seen
/// in a fresh list of each kind they touched, as after 410 Gone; then, when
/// `unserved`, the RetryPolicy CRD deleted and the kind no longer served (its watch
/// ends: `Change::Unwatched`), every RetryPolicy gone with it.
#[derive(Clone, Debug)]
struct Batch {
    steps: Vec<Step>,
    missed: bool,
    unserved: bool,
}

fn step() -> impl Strategy<Value = Step> {
    (0..SHAPES.len()).prop_flat_map(|slot| {
        prop_oneof![
            3 => (0..SHAPES[slot]).prop_map(Some),
            1 => Just(None),
        ]
        .prop_map(move |shape| Step { slot, shape })
    })
}

fn batch() -> impl Strategy<Value = Batch> {
    (
        prop_oneof![6 => proptest::collection::vec(step(), 1..=1), 1 => proptest::collection::vec(step(), 2..=4)],
        proptest::bool::weighted(0.08),
        proptest::bool::weighted(0.03),
    )
        .prop_map(|(steps, missed, unserved)| Batch {
            steps,
            missed,
            unserved,
        })
}

/// The first objects: each in one of its shapes, or absent.
fn cluster() -> impl Strategy<Value = Vec<Option<u8>>> {
    SHAPES
        .iter()
        .map(|&n| proptest::option::weighted(0.85, 0..n))
        .collect::<Vec<_>>()
}

/// What a fresh `get -A -o json` says of every policy of `objects`.
fn full(objects: &BTreeMap<ObjRef, Object>) -> Vec<PolicyRow> {
    let w = analyze(snapshot(objects), &[], &[]);
    policy_rows(&w, None)
}

fn snapshot(objects: &BTreeMap<ObjRef, Object>) -> Snapshot {
    Snapshot {
        objects: objects.values().cloned().collect(),
        pods_read_in: PODS_READ_IN.iter().map(|s| s.to_string()).collect(),
        listed: Some(listed()),
        ..Snapshot::default()
    }
}

/// What the live read listed: every kind cluster-wide, but Secrets and ConfigMaps,
/// listed only in the namespaces the policies name them in.
fn listed() -> BTreeSet<Listed> {
    let at = |group: &str, kind: &str, namespace: Option<&str>| Listed {
        group: group.into(),
        kind: kind.into(),
        namespace: namespace.map(str::to_string),
        file: None,
    };
    let mut listed: BTreeSet<Listed> = [
        ("", "Service"),
        ("", "Namespace"),
        ("gateway.networking.k8s.io", "HTTPRoute"),
        ("gateway.networking.k8s.io", "Gateway"),
    ]
    .iter()
    .map(|(g, k)| at(g, k, None))
    .collect();
    listed.insert(at("", "Secret", Some("other")));
    listed.insert(at("", "ConfigMap", Some("backends")));
    // What the references one step further name, where they name it.
    listed.insert(at("", "ConfigMap", Some("other")));
    listed.insert(at("", "ConfigMap", Some("infra")));
    listed.insert(at("gateway.kgateway.dev", "GatewayExtension", Some("shop")));
    listed
}

/// Whether `get -w -l tier=gold` shows a row.
fn gold(row: &PolicyRow) -> bool {
    row.labels.get(GOLD.0).map(String::as_str) == Some(GOLD.1)
}

/// A table's cells (`get -w` prints a row again when they differ).
fn alike(a: &PolicyRow, b: &PolicyRow) -> bool {
    policy_cells_alike(a, b, &Printer::default())
}

/// What `get -w` printed last: per policy in view, its last row, and its last item with
/// `-o json`.
struct Printed {
    table: Shown,
    items: Shown,
    rows: BTreeMap<ObjRef, PolicyRow>,
    json: BTreeMap<ObjRef, String>,
}

impl Printed {
    /// The first rows: a table of every policy, and the json items of `-l tier=gold`.
    fn new(rows: &[PolicyRow], objects: &BTreeMap<ObjRef, Object>) -> Printed {
        let selected: Vec<&PolicyRow> = rows.iter().filter(|r| gold(r)).collect();
        Printed {
            table: Shown::new(rows),
            items: Shown::new(selected.iter().copied()),
            rows: rows.iter().map(|r| (r.policy.clone(), r.clone())).collect(),
            json: selected
                .iter()
                .map(|r| (r.policy.clone(), item(r, objects.get(&r.policy))))
                .collect(),
        }
    }

    /// The rows an answer prints, taken in: each a policy's last, but the DELETED.
    fn take(&mut self, answer: &Answer) {
        for (row, event) in self.table.events(answer, |_| true, Shows::Cells(&alike)) {
            match event {
                Event::Deleted => self.rows.remove(&row.policy),
                _ => self.rows.insert(row.policy.clone(), row),
            };
        }
        for (row, event) in self.items.events(answer, gold, Shows::Items) {
            match event {
                Event::Deleted => self.json.remove(&row.policy),
                _ => self
                    .json
                    .insert(row.policy.clone(), item(&row, answer.object(&row.policy))),
            };
        }
    }

    /// Whether the last rows printed are a fresh `get`'s (`expected`, on `objects`).
    fn check(
        &self,
        expected: &[PolicyRow],
        objects: &BTreeMap<ObjRef, Object>,
    ) -> Result<(), String> {
        let table_ok = self.rows.len() == expected.len()
            && expected
                .iter()
                .all(|r| self.rows.get(&r.policy).is_some_and(|p| alike(p, r)));
        if !table_ok {
            return Err(format!(
                "the table's last rows differ from get's\nprinted: {:#?}\nget: {expected:#?}",
                self.rows
            ));
        }
        let json: BTreeMap<ObjRef, String> = expected
            .iter()
            .filter(|r| gold(r))
            .map(|r| (r.policy.clone(), item(r, objects.get(&r.policy))))
            .collect();
        if self.json != json {
            return Err(format!(
                "the json items last printed with -l differ from get's\nprinted: {:#?}\nget: {json:#?}",
                self.json
            ));
        }
        Ok(())
    }
}

/// A row's `-o json` item.
fn item(row: &PolicyRow, object: Option<&Object>) -> String {
    serde_json::to_string(&policy_item(row, object)).unwrap()
}

/// A fresh list of every object of `kind`'s kind, cluster-wide.
fn relist(kind: &Object, objects: &BTreeMap<ObjRef, Object>) -> Change {
    let (group, version) = match kind.api_version.rsplit_once('/') {
        Some((g, v)) => (g.to_string(), v.to_string()),
        None => (String::new(), kind.api_version.to_string()),
    };
    let list = WatchList {
        resource: Resource {
            group,
            version,
            kind: kind.kind.to_string(),
            plural: format!("{}s", kind.kind.to_lowercase()),
            namespaced: kind.namespace.is_some(),
        },
        namespace: None,
        selector: None,
    };
    let listed = objects
        .values()
        .filter(|o| list.covers(o))
        .cloned()
        .collect();
    Change::Relisted {
        list,
        objects: listed,
    }
}

/// Runs `batches` from `first`; Err names the first batch after which the watch's
/// answer differs from a full analysis.
fn run(first: &[Option<u8>], batches: &[Batch]) -> Result<(usize, (usize, usize, usize)), String> {
    let mut objects: BTreeMap<ObjRef, Object> = BTreeMap::new();
    for (slot, v) in first.iter().enumerate() {
        if let Some(v) = v {
            let o = object(&shape(slot, *v));
            objects.insert(o.obj_ref(), o);
        }
    }
    let mut watched = Watched::new(snapshot(&objects), &[]);
    let mut printed = Printed::new(&watched.rows(), &objects);
    let mut steps = 0;
    for (i, batch) in batches.iter().enumerate() {
        let mut changes = Vec::new();
        let mut kinds: Vec<Object> = Vec::new();
        for s in &batch.steps {
            let o = object(&shape(s.slot, s.shape.unwrap_or(0)));
            let r = o.obj_ref();
            match s.shape {
                Some(_) => {
                    objects.insert(r.clone(), o.clone());
                    changes.push(Change::Applied(o.clone()));
                }
                None => {
                    objects.remove(&r);
                    changes.push(Change::Deleted(r));
                }
            }
            if !kinds.iter().any(|k| k.group_kind() == o.group_kind()) {
                kinds.push(o);
            }
            steps += 1;
        }
        if batch.missed {
            changes = kinds.iter().map(|k| relist(k, &objects)).collect();
        }
        if batch.unserved {
            let crd = object(&shape(12, 0));
            let retries = object(&shape(13, 0));
            objects.remove(&crd.obj_ref());
            changes.push(Change::Deleted(crd.obj_ref()));
            let Change::Relisted { list, .. } = relist(&retries, &objects) else {
                unreachable!()
            };
            objects.retain(|_, o| !list.covers(o));
            changes.push(Change::Unwatched(list));
        }
        watched.apply(changes);
        let answer = watched.answer();
        printed.take(&answer);
        let expected = full(&objects);
        printed
            .check(&expected, &objects)
            .map_err(|e| format!("after batch {i} ({batch:?}): {e}"))?;
        let held = format!("{:#?}", watched.rows());
        let fresh = format!("{expected:#?}");
        if held != fresh {
            return Err(format!(
                "after batch {i} ({batch:?}): the rows held differ from get's\nheld: {held}\nget: {fresh}"
            ));
        }
    }
    Ok((steps, watched.answered))
}

/// How many generated sequences each run tries, and how long each is at most.
const CASES: u32 = 48;
const BATCHES: usize = 80;

/// The property over sequences from a fixed seed, shrunk to the fewest changes on a
/// failure; thousands of changes in all, most of them answered incrementally (from the
/// namespaces or the policy kinds a change touches, not in full).
#[test]
fn the_rows_printed_last_equal_a_fresh_get_after_any_changes() {
    use proptest::test_runner::{TestCaseError, TestRunner};
    use std::cell::Cell;
    let config = ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(713),
        ..ProptestConfig::default()
    };
    let strategy = (cluster(), proptest::collection::vec(batch(), 1..BATCHES));
    let (steps, full, incremental) = (Cell::new(0), Cell::new(0), Cell::new(0));
    let outcome = TestRunner::new(config).run(&strategy, |(first, batches)| {
        let (n, answered) = run(&first, &batches).map_err(TestCaseError::fail)?;
        steps.set(steps.get() + n);
        full.set(full.get() + answered.0);
        incremental.set(incremental.get() + answered.1 + answered.2);
        Ok(())
    });
    if let Err(e) = outcome {
        panic!("{e}");
    }
    // Shrinking runs failing cases only: these counts are the passing runs'.
    assert!(steps.get() >= 1000, "only {} changes", steps.get());
    assert!(
        incremental.get() > full.get(),
        "{} answers incremental, {} in full",
        incremental.get(),
        full.get()
    );
}

/// The generator reaches every shape of every object, and deletes each one.
#[test]
fn every_shape_of_every_object_is_read_as_one_object() {
    let mut names: BTreeSet<ObjRef> = BTreeSet::new();
    for (slot, &n) in SHAPES.iter().enumerate() {
        let mut refs = BTreeSet::new();
        for v in 0..n {
            refs.insert(object(&shape(slot, v)).obj_ref());
        }
        assert_eq!(refs.len(), 1, "the shapes of slot {slot} share one name");
        names.extend(refs);
    }
    assert_eq!(
        names.len(),
        SHAPES.len(),
        "every slot is an object of its own"
    );
}
