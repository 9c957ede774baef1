//! A loopback HTTP server that answers the way kube-apiserver does, for the tests of
//! the live path (and the live benchmark, which includes this file).
//!
//! It serves legacy discovery (`/api`, `/apis`, `/apis/G/V`) and aggregated discovery
//! (apidiscovery.k8s.io/v2, when asked for it by `Accept`), lists with `limit`,
//! `continue` and `labelSelector` (built-in kinds' items without apiVersion/kind, as
//! the real server sends them), single GETs, `Table` answers for kubectl, and `Status`
//! bodies for 401/403/404/410/429/500/503. Latency, permissions and faults are
//! configurable (503 with Retry-After, a body without end, continue tokens that go
//! round, a Status message of the test's choosing), and every request is logged with
//! its headers.
//!
//! Watches (`watch=1`) stream events as JSON lines (ADDED, MODIFIED, DELETED, BOOKMARK
//! with `allowWatchBookmarks`) from the `resourceVersion` asked for; a resourceVersion
//! older than the history kept (`Server::expire_watches`) gets an ERROR event with a
//! 410 Expired Status, as kube-apiserver sends it. A test changes the objects while
//! the server runs (`Server::apply`, `Server::delete`): every change takes the next
//! resourceVersion.
//!
//! It speaks plain HTTP, or HTTPS with a certificate authority it makes when it starts
//! (`tls()`), optionally requiring client certificates issued by that authority
//! (`require_client_certs()`); `Server::client_cert` issues them.
#![allow(dead_code)]

pub mod tls;

use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use tls::Tls;

/// The resource name the server serves a kind under. The server's own table, as a real
/// API server has its own (a CRD names its plural), so a wrong plural in the code
/// under test shows as a 404, not as agreement with itself.
fn plural_of(kind: &str) -> String {
    match kind {
        "GatewayClass" => "gatewayclasses".into(),
        "ServiceEntry" => "serviceentries".into(),
        _ if kind.ends_with("Policy") => format!("{}ies", kind[..kind.len() - 1].to_lowercase()),
        _ => format!("{}s", kind.to_lowercase()),
    }
}

/// A served resource (one kind at one version).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Res {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub plural: String,
    pub namespaced: bool,
}

impl Res {
    pub fn new(api_version: &str, kind: &str, namespaced: bool) -> Res {
        let (group, version) = match api_version.split_once('/') {
            Some((g, v)) => (g.to_string(), v.to_string()),
            None => (String::new(), api_version.to_string()),
        };
        Res {
            group,
            version,
            kind: kind.to_string(),
            plural: plural_of(kind),
            namespaced,
        }
    }

    /// `httproutes.gateway.networking.k8s.io`, `services`.
    pub fn display(&self) -> String {
        if self.group.is_empty() {
            self.plural.clone()
        } else {
            format!("{}.{}", self.plural, self.group)
        }
    }

    fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// Kubernetes' own kinds: their list items carry no apiVersion/kind.
    fn builtin(&self) -> bool {
        self.group.is_empty() || self.group == "apiextensions.k8s.io"
    }
}

const CLUSTER_SCOPED: &[&str] = &[
    "Namespace",
    "GatewayClass",
    "CustomResourceDefinition",
    "ClusterRole",
    "Node",
];

/// What a request asks to do, for the permission check.
#[derive(Clone, Debug)]
pub struct Access {
    pub verb: &'static str,
    /// `plural.group` as RBAC errors print it.
    pub resource: String,
    /// None: cluster-wide.
    pub namespace: Option<String>,
}

/// A fault for the requests whose path contains `path_contains`.
#[derive(Clone, Debug)]
pub enum Fault {
    /// Answer with this code and a Status body.
    Status(u16),
    /// Never answer (until the server stops).
    Hang,
    /// Answer 429 with `Retry-After: secs` this many times, then normally.
    TooManyRequests { times: usize, retry_after_secs: u64 },
    /// The first continue token presented is answered 410 Expired.
    ExpireFirstContinue,
    /// Answer 503 with `Retry-After: secs` this many times, then normally.
    Unavailable { times: usize, retry_after_secs: u64 },
    /// Answer 200 with a chunked body that never ends: the start of a list, then items
    /// until the client goes away or the server stops.
    EndlessBody,
    /// Lists answer their pages with continue tokens that go round: the first page
    /// names `loop-a`, `loop-a` names `loop-b`, `loop-b` names `loop-a` again.
    LoopingContinue,
    /// Answer 200 saying `Content-Length: bytes`, then send the start of a list and
    /// nothing more (until the server stops).
    DeclaredLength(u64),
    /// Answer with this code and a Status whose message is this text (as it is: escape
    /// sequences and all).
    Message { code: u16, message: String },
}

/// One request as the server saw it.
#[derive(Clone, Debug)]
pub struct Logged {
    pub method: String,
    pub target: String,
    pub accept: String,
    /// With `require_bearer`: whether the expected token came.
    pub authorized_as: Option<String>,
    /// Every header, names lowercased, in the order sent.
    pub headers: Vec<(String, String)>,
    /// Over TLS, the name `Server::client_cert` issued the client's certificate to
    /// (`"unknown"` for another certificate); None without one.
    pub client_cert: Option<String>,
    pub started: Instant,
    pub took: Duration,
}

impl Logged {
    /// The values of header `name` (any case), in order.
    pub fn header(&self, name: &str) -> Vec<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .filter(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }
}

type Permit = dyn Fn(&Access) -> bool + Send + Sync;

/// The server's configuration, built before it starts.
pub struct FakeApi {
    /// (group, kind) → objects sorted by namespace and name.
    by_kind: BTreeMap<(String, String), Vec<Value>>,
    resources: BTreeSet<Res>,
    aggregated: bool,
    latency: Duration,
    page_limit_cap: Option<usize>,
    permit: Arc<Permit>,
    faults: Vec<(String, Fault)>,
    broken_groups: Vec<String>,
    unauthorized: bool,
    bearer: Option<String>,
    /// HTTPS; `Some(true)` also requires a client certificate.
    tls: Option<bool>,
}

fn index(objects: Vec<Value>) -> BTreeMap<(String, String), Vec<Value>> {
    let mut by_kind: BTreeMap<(String, String), Vec<Value>> = BTreeMap::new();
    for o in objects {
        let av = o["apiVersion"].as_str().unwrap_or_default();
        let group = av
            .rsplit_once('/')
            .map(|(g, _)| g)
            .unwrap_or("")
            .to_string();
        let kind = o["kind"].as_str().unwrap_or_default().to_string();
        by_kind.entry((group, kind)).or_default().push(o);
    }
    for v in by_kind.values_mut() {
        v.sort_by(|a, b| {
            let key = |o: &Value| {
                (
                    o["metadata"]["namespace"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string(),
                    o["metadata"]["name"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string(),
                )
            };
            key(a).cmp(&key(b))
        });
    }
    by_kind
}

impl Default for FakeApi {
    fn default() -> Self {
        Self::new(Vec::new())
    }
}

impl FakeApi {
    /// Serves these objects (full objects, with apiVersion and kind), plus Namespace,
    /// Service and CustomResourceDefinition as every cluster does.
    pub fn new(objects: Vec<Value>) -> FakeApi {
        let mut resources: BTreeSet<Res> = BTreeSet::new();
        resources.insert(Res::new("v1", "Namespace", false));
        resources.insert(Res::new("v1", "Service", true));
        resources.insert(Res::new(
            "apiextensions.k8s.io/v1",
            "CustomResourceDefinition",
            false,
        ));
        for o in &objects {
            let av = o["apiVersion"].as_str().unwrap_or_default();
            let kind = o["kind"].as_str().unwrap_or_default();
            let namespaced = !CLUSTER_SCOPED.contains(&kind);
            resources.insert(Res::new(av, kind, namespaced));
        }
        // The namespaces the objects live in exist, as on a real cluster.
        let mut objects = objects;
        let mut have: BTreeSet<String> = objects
            .iter()
            .filter(|o| o["kind"] == "Namespace")
            .filter_map(|o| o["metadata"]["name"].as_str().map(str::to_string))
            .collect();
        let wanted: Vec<String> = objects
            .iter()
            .filter_map(|o| o["metadata"]["namespace"].as_str().map(str::to_string))
            .collect();
        for ns in wanted {
            if have.insert(ns.clone()) {
                objects.push(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns, "labels": {"kubernetes.io/metadata.name": ns}}}));
            }
        }
        FakeApi {
            by_kind: index(objects),
            resources,
            aggregated: true,
            latency: Duration::ZERO,
            page_limit_cap: None,
            permit: Arc::new(|_| true),
            faults: Vec::new(),
            broken_groups: Vec::new(),
            unauthorized: false,
            bearer: None,
            tls: None,
        }
    }

    /// Parses multi-document YAML or JSON (`kind: List` expanded) into objects.
    pub fn from_yaml(text: &str) -> FakeApi {
        let mut objects = Vec::new();
        for doc in text.split("\n---") {
            if doc.trim().is_empty() {
                continue;
            }
            let v: Value = serde_saphyr::from_str(doc).expect("test YAML parses");
            if v.is_null() {
                continue;
            }
            if v["kind"] == "List" {
                objects.extend(v["items"].as_array().cloned().unwrap_or_default());
            } else {
                objects.push(v);
            }
        }
        FakeApi::new(objects)
    }

    /// Serves a resource even when no object of it exists.
    pub fn serve(mut self, api_version: &str, kind: &str, namespaced: bool) -> Self {
        self.resources
            .insert(Res::new(api_version, kind, namespaced));
        self
    }

    /// Legacy discovery only (no apidiscovery.k8s.io/v2).
    pub fn legacy_discovery(mut self) -> Self {
        self.aggregated = false;
        self
    }

    pub fn latency(mut self, d: Duration) -> Self {
        self.latency = d;
        self
    }

    /// Pages hold at most this many items, whatever `limit` asks.
    pub fn page_cap(mut self, n: usize) -> Self {
        self.page_limit_cap = Some(n);
        self
    }

    /// Which requests are allowed (others get 403 Forbidden).
    pub fn permit(mut self, f: impl Fn(&Access) -> bool + Send + Sync + 'static) -> Self {
        self.permit = Arc::new(f);
        self
    }

    pub fn fault(mut self, path_contains: &str, fault: Fault) -> Self {
        self.faults.push((path_contains.to_string(), fault));
        self
    }

    /// An aggregated API group whose backend is down: discovery of it answers 503.
    pub fn broken_group(mut self, group_version: &str) -> Self {
        self.broken_groups.push(group_version.to_string());
        self
    }

    /// Requests without `Authorization: Bearer TOKEN` are answered 401.
    pub fn require_bearer(mut self, token: &str) -> Self {
        self.bearer = Some(token.to_string());
        self
    }

    /// Every request is answered 401.
    pub fn unauthorized(mut self) -> Self {
        self.unauthorized = true;
        self
    }

    /// Serves HTTPS, with a certificate for 127.0.0.1, localhost and
    /// fake-apiserver.test issued by a certificate authority made at start.
    pub fn tls(mut self) -> Self {
        self.tls = Some(self.tls.unwrap_or(false));
        self
    }

    /// Serves HTTPS and refuses clients without a certificate issued by its authority.
    pub fn require_client_certs(mut self) -> Self {
        self.tls = Some(true);
        self
    }

    /// Starts serving on 127.0.0.1 (a free port).
    pub fn start(self) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let addr = listener.local_addr().expect("local addr");
        let tls = self.tls.map(|require| Arc::new(Tls::new(require)));
        let scheme = if tls.is_some() { "https" } else { "http" };
        let mut by_kind = self.by_kind.clone();
        for objects in by_kind.values_mut() {
            for o in objects {
                o["metadata"]["resourceVersion"] = json!(FIRST_RV.to_string());
            }
        }
        let store = Mutex::new(Store {
            by_kind,
            rv: FIRST_RV,
            events: Vec::new(),
            oldest: FIRST_RV,
            generation: 0,
        });
        let state = Arc::new(State {
            tls: tls.clone(),
            store,
            api: self,
            log: Mutex::new(Vec::new()),
            stop: AtomicBool::new(false),
            counters: Mutex::new(BTreeMap::new()),
            watch_faults: Mutex::new(Vec::new()),
            unserved: Mutex::new(BTreeSet::new()),
            connections: AtomicUsize::new(0),
            tunnels: AtomicUsize::new(0),
        });
        let s = state.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if s.stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                s.connections.fetch_add(1, Ordering::SeqCst);
                let s = s.clone();
                std::thread::spawn(move || {
                    let conn = match &s.tls {
                        Some(tls) => tls.accept(stream),
                        None => {
                            let _ = stream.set_nodelay(true);
                            Some(tls::Conn::Plain(stream))
                        }
                    };
                    if let Some(conn) = conn {
                        serve_connection(conn, &s);
                    }
                });
            }
        });
        Server {
            url: format!("{scheme}://{addr}"),
            addr: addr.to_string(),
            tls,
            state,
        }
    }
}

/// The objects as they are now, and their history for watches.
struct Store {
    /// (group, kind) → objects sorted by namespace and name.
    by_kind: BTreeMap<(String, String), Vec<Value>>,
    /// The resourceVersion of the last change.
    rv: u64,
    /// Every change after the start: (resourceVersion, group, kind, type, object).
    events: Vec<(u64, String, String, &'static str, Value)>,
    /// Watches from a resourceVersion before this one are answered 410 Expired.
    oldest: u64,
    /// Raised by `expire_watches`: every open watch ends.
    generation: u64,
}

const FIRST_RV: u64 = 1000;

fn group_kind_of(o: &Value) -> (String, String) {
    let av = o["apiVersion"].as_str().unwrap_or_default();
    let group = av
        .rsplit_once('/')
        .map(|(g, _)| g)
        .unwrap_or("")
        .to_string();
    (group, o["kind"].as_str().unwrap_or_default().to_string())
}

fn same_object(a: &Value, b: &Value) -> bool {
    a["metadata"]["namespace"] == b["metadata"]["namespace"]
        && a["metadata"]["name"] == b["metadata"]["name"]
}

/// What a watch request asked for.
struct WatchAsk {
    group: String,
    kind: String,
    api_version: String,
    namespace: Option<String>,
    selector: Option<String>,
    from: u64,
    bookmarks: bool,
    timeout: Duration,
    /// Asked as `PartialObjectMetadata`: each event's object is its metadata only.
    metadata_only: bool,
}

struct State {
    api: FakeApi,
    store: Mutex<Store>,
    tls: Option<Arc<Tls>>,
    log: Mutex<Vec<Logged>>,
    stop: AtomicBool,
    /// How often each fault fired, by index.
    counters: Mutex<BTreeMap<usize, usize>>,
    /// Faults for the watches to come (`Server::fail_watches`): the path they match, the
    /// code answered, how many more times, and the `Retry-After` asked for.
    watch_faults: Mutex<Vec<(String, u16, usize, u64)>>,
    /// Kinds no longer served (`Server::unserve`: their CRD deleted), by group and kind.
    unserved: Mutex<BTreeSet<(String, String)>>,
    connections: AtomicUsize,
    /// CONNECT requests seen (the server doubles as an HTTP proxy).
    tunnels: AtomicUsize,
}

/// A running server. Stops when dropped.
pub struct Server {
    pub url: String,
    addr: String,
    tls: Option<Arc<Tls>>,
    state: Arc<State>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.state.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop.
        let _ = TcpStream::connect(&self.addr);
    }
}

impl Server {
    /// The certificate authority's certificate (PEM), over TLS.
    pub fn ca_pem(&self) -> String {
        self.tls.as_ref().expect("a TLS server").ca_pem.clone()
    }

    /// A client certificate and key (PEM) issued by this server's authority, with
    /// `name` as its common name (the user name Kubernetes would read from it).
    pub fn client_cert(&self, name: &str) -> (String, String) {
        self.tls.as_ref().expect("a TLS server").issue_client(name)
    }

    /// Adds or replaces an object (full, with apiVersion and kind), as `kubectl apply`
    /// would: an ADDED or MODIFIED event at the next resourceVersion.
    pub fn apply(&self, object: Value) {
        let mut store = self.state.store.lock().unwrap();
        store.rv += 1;
        let rv = store.rv;
        let mut object = object;
        object["metadata"]["resourceVersion"] = json!(rv.to_string());
        let (group, kind) = group_kind_of(&object);
        let objects = store
            .by_kind
            .entry((group.clone(), kind.clone()))
            .or_default();
        let kind_of_event = match objects.iter_mut().find(|o| same_object(o, &object)) {
            Some(o) => {
                *o = object.clone();
                "MODIFIED"
            }
            None => {
                objects.push(object.clone());
                "ADDED"
            }
        };
        store.events.push((rv, group, kind, kind_of_event, object));
    }

    /// Deletes an object: a DELETED event at the next resourceVersion.
    pub fn delete(&self, api_version: &str, kind: &str, namespace: Option<&str>, name: &str) {
        let mut store = self.state.store.lock().unwrap();
        store.rv += 1;
        let rv = store.rv;
        let probe = json!({"apiVersion": api_version, "kind": kind,
                           "metadata": {"namespace": namespace, "name": name}});
        let (group, kind) = group_kind_of(&probe);
        let objects = store
            .by_kind
            .entry((group.clone(), kind.clone()))
            .or_default();
        let Some(i) = objects.iter().position(|o| same_object(o, &probe)) else {
            return;
        };
        let mut gone = objects.remove(i);
        gone["metadata"]["resourceVersion"] = json!(rv.to_string());
        store.events.push((rv, group, kind, "DELETED", gone));
    }

    /// A kind's CRD deleted: every object of the kind deleted (a DELETED event each),
    /// then the kind no longer served (out of discovery, its lists and watches answered
    /// 404) and every
    /// open watch ended, as the API server ends those of a kind it stops serving.
    pub fn unserve(&self, api_version: &str, kind: &str) {
        let probe = json!({"apiVersion": api_version, "kind": kind});
        let gk = group_kind_of(&probe);
        let objects = {
            let store = self.state.store.lock().unwrap();
            store.by_kind.get(&gk).cloned().unwrap_or_default()
        };
        for o in objects {
            let meta = &o["metadata"];
            self.delete(
                api_version,
                kind,
                meta["namespace"].as_str(),
                meta["name"].as_str().unwrap_or_default(),
            );
        }
        self.state.unserved.lock().unwrap().insert(gk);
        self.close_watches();
    }

    /// A kind `unserve` removed served again (its CRD created again).
    pub fn serve_again(&self, api_version: &str, kind: &str) {
        let probe = json!({"apiVersion": api_version, "kind": kind});
        self.state
            .unserved
            .lock()
            .unwrap()
            .remove(&group_kind_of(&probe));
    }

    /// Forgets the history of changes (as etcd compaction does) and ends every open
    /// watch: a watch resumed from an earlier resourceVersion is answered 410 Expired.
    pub fn expire_watches(&self) {
        let mut store = self.state.store.lock().unwrap();
        // Compacted at a resourceVersion of its own: every one a client has seen is
        // older than the history kept.
        store.events.clear();
        store.rv += 1;
        store.oldest = store.rv + 1;
        store.generation += 1;
    }

    /// Ends every open watch, as a server or a proxy closing a stream does; the history
    /// is kept, so a watch resumed where it was misses nothing.
    pub fn close_watches(&self) {
        self.state.store.lock().unwrap().generation += 1;
    }

    /// The next `times` watch requests whose path contains `path_contains` are answered
    /// `code` (429 and 503 with `Retry-After: 1`), as a server under load answers.
    pub fn fail_watches(&self, path_contains: &str, code: u16, times: usize) {
        self.fail_watches_asking(path_contains, code, times, 1);
    }

    /// As `fail_watches`, asking (429 and 503) to be retried after `retry_after_secs`.
    pub fn fail_watches_asking(
        &self,
        path_contains: &str,
        code: u16,
        times: usize,
        retry_after_secs: u64,
    ) {
        let mut faults = self.state.watch_faults.lock().unwrap();
        faults.push((path_contains.to_string(), code, times, retry_after_secs));
    }

    /// How many of the faults `fail_watches` set are still to be answered.
    pub fn watch_faults_left(&self) -> usize {
        let faults = self.state.watch_faults.lock().unwrap();
        faults.iter().map(|(_, _, left, _)| left).sum()
    }

    /// How many watch requests came so far.
    pub fn watches(&self) -> usize {
        self.targets()
            .iter()
            .filter(|t| t.contains("watch=true") || t.contains("watch=1"))
            .count()
    }

    pub fn requests(&self) -> Vec<Logged> {
        self.state.log.lock().unwrap().clone()
    }

    /// Request targets (path and query) in arrival order.
    pub fn targets(&self) -> Vec<String> {
        self.requests().into_iter().map(|l| l.target).collect()
    }

    /// How many proxy tunnels (CONNECT) were opened through this server.
    pub fn tunnels(&self) -> usize {
        self.state.tunnels.load(Ordering::SeqCst)
    }

    pub fn methods(&self) -> BTreeSet<String> {
        self.requests().into_iter().map(|l| l.method).collect()
    }

    /// A kubeconfig with one context `name` pointing here, as a YAML string (over TLS,
    /// with the server's certificate authority as certificate-authority-data).
    pub fn kubeconfig(&self, name: &str, namespace: Option<&str>) -> String {
        let kc = kubeconfig(&[(name, &self.url, namespace)], name);
        match &self.tls {
            Some(tls) => kc.replacen(
                &format!("    server: {}\n", self.url),
                &format!(
                    "    server: {}\n    certificate-authority-data: {}\n",
                    self.url,
                    tls::base64(tls.ca_pem.as_bytes())
                ),
                1,
            ),
            None => kc,
        }
    }
}

/// A kubeconfig with several contexts (name, server, namespace).
pub fn kubeconfig(contexts: &[(&str, &str, Option<&str>)], current: &str) -> String {
    let mut clusters = String::new();
    let mut ctxs = String::new();
    for (name, server, ns) in contexts {
        clusters.push_str(&format!(
            "- name: {name}\n  cluster:\n    server: {server}\n"
        ));
        ctxs.push_str(&format!(
            "- name: {name}\n  context:\n    cluster: {name}\n    user: tester\n"
        ));
        if let Some(ns) = ns {
            ctxs.push_str(&format!("    namespace: {ns}\n"));
        }
    }
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n{clusters}contexts:\n{ctxs}current-context: {current}\nusers:\n- name: tester\n  user:\n    token: not-a-real-token\n"
    )
}

fn serve_connection(conn: tls::Conn, state: &State) {
    let mut reader = BufReader::new(conn);
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let mut parts = line.split_whitespace();
        let method = parts.next().unwrap_or_default().to_string();
        let target = parts.next().unwrap_or_default().to_string();
        let mut accept = String::new();
        let mut authorization = String::new();
        let mut content_length = 0usize;
        let mut headers = Vec::new();
        loop {
            let mut h = String::new();
            match reader.read_line(&mut h) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
                match k.trim().to_ascii_lowercase().as_str() {
                    "accept" => accept = v.trim().to_string(),
                    "authorization" => authorization = v.trim().to_string(),
                    "content-length" => content_length = v.trim().parse().unwrap_or(0),
                    _ => {}
                }
            }
        }
        if content_length > 0 {
            let mut body = vec![0; content_length];
            if reader.read_exact(&mut body).is_err() {
                return;
            }
        }
        if method == "CONNECT" {
            // Acting as the proxy too: open the "tunnel" to ourselves and go on serving.
            state.tunnels.fetch_add(1, Ordering::SeqCst);
            if reader
                .get_mut()
                .write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n")
                .is_err()
            {
                return;
            }
            continue;
        }
        let started = Instant::now();
        // Through an HTTP proxy the target comes in absolute form.
        let target = match target.strip_prefix("http://") {
            Some(rest) => rest
                .find('/')
                .map(|i| rest[i..].to_string())
                .unwrap_or("/".into()),
            None => target,
        };
        let authorized_as = state.api.bearer.as_ref().map(|want| {
            if authorization == format!("Bearer {want}") {
                "the expected token".to_string()
            } else {
                "another credential".to_string()
            }
        });
        let answer = if authorized_as.as_deref() == Some("another credential") {
            Some(status(401, "Unauthorized", "Unauthorized"))
        } else {
            answer(state, &method, &target, &accept)
        };
        let Some(answer) = answer else {
            // Hang: hold the connection without answering until the server stops.
            while !state.stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(20));
            }
            return;
        };
        if !state.api.latency.is_zero() {
            std::thread::sleep(state.api.latency);
        }
        if let Some(ask) = &answer.watch {
            state.log.lock().unwrap().push(Logged {
                method,
                target,
                accept,
                authorized_as,
                headers,
                client_cert: None,
                started,
                took: Duration::ZERO,
            });
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
            let writer = reader.get_mut();
            if writer.write_all(head.as_bytes()).is_err() || !stream_watch(writer, ask, state) {
                return;
            }
            continue;
        }
        let length = if answer.endless {
            "Transfer-Encoding: chunked".to_string()
        } else {
            let n = answer.declared.unwrap_or(answer.body.len() as u64);
            format!("Content-Length: {n}")
        };
        let mut head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\n{length}\r\n",
            answer.code,
            reason_phrase(answer.code),
            answer.content_type,
        );
        for (k, v) in &answer.headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        let client_cert = reader.get_ref().client_cert(state.tls.as_deref());
        let writer = reader.get_mut();
        let ok = writer.write_all(head.as_bytes()).is_ok()
            && if answer.endless {
                write_endless(writer, &answer.body, state)
            } else {
                writer.write_all(&answer.body).is_ok()
            }
            && writer.flush().is_ok()
            && answer.declared.is_none();
        state.log.lock().unwrap().push(Logged {
            method,
            target,
            accept,
            authorized_as,
            headers,
            client_cert,
            started,
            took: started.elapsed(),
        });
        if !ok {
            // A body shorter than it said: hold the connection, as a slow server would.
            while answer.declared.is_some() && !state.stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(20));
            }
            return;
        }
    }
}

/// `start` as a first chunk, then chunks of list items until the client goes away or
/// the server stops (then false: the connection is done).
fn write_endless(w: &mut impl Write, start: &[u8], state: &State) -> bool {
    let item = br#"{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"again"}},"#;
    let mut chunk = Vec::with_capacity(64 << 10);
    while chunk.len() + item.len() <= 64 << 10 {
        chunk.extend_from_slice(item);
    }
    let mut send = |data: &[u8]| {
        w.write_all(format!("{:x}\r\n", data.len()).as_bytes())
            .and_then(|()| w.write_all(data))
            .and_then(|()| w.write_all(b"\r\n"))
            .is_ok()
    };
    if !send(start) {
        return false;
    }
    while !state.stop.load(Ordering::SeqCst) {
        if !send(&chunk) {
            return false;
        }
    }
    false
}

/// Streams a watch's events as JSON lines, one chunk each, until its timeout, the end
/// of all watches (`expire_watches`) or the server stops; then ends the body (true: the
/// connection can serve again).
fn stream_watch(w: &mut impl Write, ask: &WatchAsk, state: &State) -> bool {
    let mut send = |v: &Value| {
        let mut line = serde_json::to_vec(v).unwrap();
        line.push(b'\n');
        w.write_all(format!("{:x}\r\n", line.len()).as_bytes())
            .and_then(|()| w.write_all(&line))
            .and_then(|()| w.write_all(b"\r\n"))
            .and_then(|()| w.flush())
            .is_ok()
    };
    let started = Instant::now();
    let mut at = ask.from;
    let mut last_bookmark = Instant::now();
    let generation = state.store.lock().unwrap().generation;
    loop {
        let (events, oldest, now_rv, ended) = {
            let store = state.store.lock().unwrap();
            let events: Vec<(u64, &'static str, Value)> = store
                .events
                .iter()
                .filter(|(rv, g, k, _, o)| {
                    *rv > at
                        && *g == ask.group
                        && *k == ask.kind
                        && ask
                            .namespace
                            .as_deref()
                            .is_none_or(|ns| o["metadata"]["namespace"].as_str() == Some(ns))
                })
                .map(|(rv, _, _, t, o)| (*rv, *t, o.clone()))
                .collect();
            (
                events,
                store.oldest,
                store.rv,
                store.generation != generation,
            )
        };
        if at + 1 < oldest {
            let gone = json!({"type": "ERROR", "object": {"kind": "Status", "apiVersion": "v1",
                "metadata": {}, "status": "Failure", "reason": "Expired", "code": 410,
                "message": format!("too old resource version: {at} ({})", oldest - 1)}});
            return send(&gone) && end_chunks(w);
        }
        let empty = Map::new();
        for (rv, t, o) in events {
            at = rv;
            let labels = o["metadata"]["labels"].as_object().unwrap_or(&empty);
            if ask
                .selector
                .as_deref()
                .is_some_and(|sel| !selector_matches(sel, labels))
            {
                continue;
            }
            let mut o = o;
            o["apiVersion"] = json!(ask.api_version);
            if ask.metadata_only {
                o = partial(&o);
            }
            if !send(&json!({"type": t, "object": o})) {
                return false;
            }
        }
        if ended || state.stop.load(Ordering::SeqCst) {
            return end_chunks(w);
        }
        at = at.max(now_rv);
        if ask.bookmarks && last_bookmark.elapsed() >= Duration::from_millis(500) {
            last_bookmark = Instant::now();
            let mark = json!({"type": "BOOKMARK", "object": {"kind": ask.kind, "apiVersion": ask.api_version,
                "metadata": {"resourceVersion": at.to_string()}}});
            if !send(&mark) {
                return false;
            }
        }
        if started.elapsed() >= ask.timeout {
            return end_chunks(w);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn end_chunks(w: &mut impl Write) -> bool {
    w.write_all(b"0\r\n\r\n").and_then(|()| w.flush()).is_ok()
}

fn reason_phrase(code: u16) -> &'static str {
    match code {
        200 => "OK",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        410 => "Gone",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Unknown",
    }
}

struct Answer {
    code: u16,
    content_type: &'static str,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    /// The body is sent chunked, and list items follow it without end.
    endless: bool,
    /// The Content-Length said, when it is not the body's: after the body, the
    /// connection is held until the server stops.
    declared: Option<u64>,
    /// A watch: events are streamed (chunked) after the head.
    watch: Option<WatchAsk>,
}

fn ok(v: Value) -> Answer {
    Answer {
        code: 200,
        content_type: "application/json",
        headers: Vec::new(),
        body: serde_json::to_vec(&v).unwrap(),
        endless: false,
        declared: None,
        watch: None,
    }
}

fn status(code: u16, reason: &str, message: &str) -> Answer {
    let v = json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                   "message": message, "reason": reason, "code": code});
    Answer {
        code,
        content_type: "application/json",
        headers: Vec::new(),
        body: serde_json::to_vec(&v).unwrap(),
        endless: false,
        declared: None,
        watch: None,
    }
}

fn status_reason(code: u16) -> &'static str {
    match code {
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "NotFound",
        410 => "Expired",
        429 => "TooManyRequests",
        503 => "ServiceUnavailable",
        _ => "InternalError",
    }
}

fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(x) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(x);
                i += 3;
                continue;
            }
        }
        out.push(if b[i] == b'+' { b' ' } else { b[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn answer(state: &State, method: &str, target: &str, accept: &str) -> Option<Answer> {
    let api = &state.api;
    if method != "GET" {
        return Some(status(
            405,
            "MethodNotAllowed",
            &format!("the fake API server is read-only: {method} {target}"),
        ));
    }
    if api.unauthorized {
        return Some(status(401, "Unauthorized", "Unauthorized"));
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let query: BTreeMap<String, String> = query
        .split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (k.to_string(), decode(v))
        })
        .collect();
    for (i, (needle, fault)) in api.faults.iter().enumerate() {
        if !path.contains(needle.as_str()) {
            continue;
        }
        let mut counters = state.counters.lock().unwrap();
        let fired = counters.entry(i).or_insert(0);
        match fault {
            Fault::Status(code) => {
                return Some(status(
                    *code,
                    status_reason(*code),
                    &format!("injected fault on {path}"),
                ))
            }
            Fault::Hang => return None,
            Fault::TooManyRequests {
                times,
                retry_after_secs,
            } => {
                if *fired < *times {
                    *fired += 1;
                    let mut a = status(429, "TooManyRequests", "too many requests, slow down");
                    a.headers
                        .push(("Retry-After".into(), retry_after_secs.to_string()));
                    return Some(a);
                }
            }
            Fault::Unavailable {
                times,
                retry_after_secs,
            } => {
                if *fired < *times {
                    *fired += 1;
                    let mut a = status(
                        503,
                        "ServiceUnavailable",
                        "the server is currently unable to handle the request",
                    );
                    a.headers
                        .push(("Retry-After".into(), retry_after_secs.to_string()));
                    return Some(a);
                }
            }
            Fault::EndlessBody => {
                *fired += 1;
                let mut a = ok(json!({}));
                a.body = br#"{"kind":"List","apiVersion":"v1","metadata":{},"items":["#.to_vec();
                a.endless = true;
                return Some(a);
            }
            Fault::DeclaredLength(bytes) => {
                *fired += 1;
                let mut a = ok(json!({}));
                a.body = br#"{"kind":"List","apiVersion":"v1","metadata":{},"items":["#.to_vec();
                a.declared = Some(*bytes);
                return Some(a);
            }
            Fault::LoopingContinue => {
                *fired += 1;
                drop(counters);
                let next = match query.get("continue").map(String::as_str) {
                    Some("loop-a") => "loop-b",
                    _ => "loop-a",
                };
                let mut first = query.clone();
                first.remove("continue");
                let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
                let mut a = resource_request(state, &segs, &first, accept);
                if let Ok(mut page) = serde_json::from_slice::<Value>(&a.body) {
                    page["metadata"]["continue"] = json!(next);
                    a.body = serde_json::to_vec(&page).unwrap();
                }
                return Some(a);
            }
            Fault::Message { code, message } => {
                return Some(status(*code, status_reason(*code), message));
            }
            Fault::ExpireFirstContinue => {
                if query.contains_key("continue") && *fired == 0 {
                    *fired += 1;
                    return Some(status(
                        410,
                        "Expired",
                        "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.",
                    ));
                }
            }
        }
    }
    let aggregated = api.aggregated && accept.contains("as=APIGroupDiscoveryList");
    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    match segs.as_slice() {
        ["api"] if aggregated => Some(discovery_v2(api, state, true)),
        ["api"] => Some(ok(
            json!({"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": []}),
        )),
        ["apis"] if aggregated => Some(discovery_v2(api, state, false)),
        ["apis"] => Some(ok(group_list(api))),
        ["api", "v1"] => Some(ok(resource_list(api, state, "", "v1"))),
        ["apis", g, v] => {
            if api.broken_groups.contains(&format!("{g}/{v}")) {
                return Some(status(
                    503,
                    "ServiceUnavailable",
                    "the server is currently unable to handle the request",
                ));
            }
            if !api
                .resources
                .iter()
                .any(|r| r.group == *g && r.version == *v)
            {
                return Some(status(
                    404,
                    "NotFound",
                    "the server could not find the requested resource",
                ));
            }
            Some(ok(resource_list(api, state, g, v)))
        }
        ["version"] => Some(ok(
            json!({"major": "1", "minor": "34", "gitVersion": "v1.34.0-fake", "platform": "linux/amd64"}),
        )),
        _ => Some(resource_request(state, &segs, &query, accept)),
    }
}

fn group_list(api: &FakeApi) -> Value {
    let mut groups: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for r in api.resources.iter().filter(|r| !r.group.is_empty()) {
        let vs = groups.entry(&r.group).or_default();
        if !vs.contains(&r.version.as_str()) {
            vs.push(&r.version);
        }
    }
    for bg in &api.broken_groups {
        if let Some((g, v)) = bg.split_once('/') {
            let vs = groups.entry(g).or_default();
            if !vs.contains(&v) {
                vs.push(v);
            }
        }
    }
    let items: Vec<Value> = groups
        .into_iter()
        .map(|(g, mut vs)| {
            vs.sort_by_key(|v| version_rank(v));
            let versions: Vec<Value> = vs
                .iter()
                .map(|v| json!({"groupVersion": format!("{g}/{v}"), "version": v}))
                .collect();
            json!({"name": g, "versions": versions, "preferredVersion": versions[0].clone()})
        })
        .collect();
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": items})
}

/// v1 before v1beta1 before v1alpha2, as Kubernetes orders versions.
fn version_rank(v: &str) -> (u8, i64, i64) {
    let num = |s: &str| s.parse::<i64>().unwrap_or(0);
    let rest = v.trim_start_matches('v');
    if let Some((major, minor)) = rest.split_once("beta") {
        (1, -num(major), -num(minor))
    } else if let Some((major, minor)) = rest.split_once("alpha") {
        (2, -num(major), -num(minor))
    } else {
        (0, -num(rest), 0)
    }
}

fn resource_json(r: &Res) -> Value {
    json!({"name": r.plural, "singularName": r.kind.to_lowercase(), "namespaced": r.namespaced,
           "kind": r.kind, "verbs": ["get", "list", "watch", "create", "update", "patch", "delete"]})
}

/// Whether `r` is served now (`unserve` takes a kind out of discovery too, as the API
/// server does when its CRD is deleted).
fn served(state: &State, r: &Res) -> bool {
    let gone = state.unserved.lock().unwrap();
    !gone.contains(&(r.group.clone(), r.kind.clone()))
}

fn resource_list(api: &FakeApi, state: &State, group: &str, version: &str) -> Value {
    let resources: Vec<Value> = api
        .resources
        .iter()
        .filter(|r| r.group == group && r.version == version && served(state, r))
        .map(resource_json)
        .collect();
    let gv = if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    };
    json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": resources})
}

fn discovery_v2(api: &FakeApi, state: &State, core: bool) -> Answer {
    let mut groups: BTreeMap<&str, BTreeMap<&str, Vec<&Res>>> = BTreeMap::new();
    for r in api
        .resources
        .iter()
        .filter(|r| r.group.is_empty() == core && served(state, r))
    {
        groups
            .entry(&r.group)
            .or_default()
            .entry(&r.version)
            .or_default()
            .push(r);
    }
    let mut items: Vec<Value> = groups
        .into_iter()
        .map(|(g, versions)| {
            let mut vs: Vec<(&str, Vec<&Res>)> = versions.into_iter().collect();
            vs.sort_by_key(|(v, _)| version_rank(v));
            let versions: Vec<Value> = vs
                .into_iter()
                .map(|(v, rs)| {
                    let resources: Vec<Value> = rs
                        .iter()
                        .map(|r| {
                            json!({"resource": r.plural, "responseKind": {"group": r.group, "version": r.version, "kind": r.kind},
                                   "scope": if r.namespaced {"Namespaced"} else {"Cluster"},
                                   "singularResource": r.kind.to_lowercase(),
                                   "verbs": ["get", "list", "watch", "create", "update", "patch", "delete"]})
                        })
                        .collect();
                    json!({"version": v, "resources": resources, "freshness": "Current"})
                })
                .collect();
            let mut meta = Map::new();
            if !g.is_empty() {
                meta.insert("name".into(), json!(g));
            }
            json!({"metadata": meta, "versions": versions})
        })
        .collect();
    if !core {
        for bg in &api.broken_groups {
            if let Some((g, v)) = bg.split_once('/') {
                items.push(json!({"metadata": {"name": g}, "versions": [{"version": v, "resources": [], "freshness": "Stale"}]}));
            }
        }
    }
    let body = json!({"kind": "APIGroupDiscoveryList", "apiVersion": "apidiscovery.k8s.io/v2", "metadata": {}, "items": items});
    Answer {
        code: 200,
        content_type: "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
        headers: Vec::new(),
        body: serde_json::to_vec(&body).unwrap(),
        endless: false,
        declared: None,
        watch: None,
    }
}

/// `key`, `!key`, `key=value`, `key==value`, `key!=value`, comma-separated.
fn selector_matches(selector: &str, labels: &Map<String, Value>) -> bool {
    selector.split(',').filter(|s| !s.is_empty()).all(|term| {
        if let Some((k, v)) = term.split_once("!=") {
            labels.get(k).and_then(Value::as_str) != Some(v)
        } else if let Some((k, v)) = term.split_once("==").or_else(|| term.split_once('=')) {
            labels.get(k).and_then(Value::as_str) == Some(v)
        } else if let Some(k) = term.strip_prefix('!') {
            !labels.contains_key(k)
        } else {
            labels.contains_key(term)
        }
    })
}

fn resource_request(
    state: &State,
    segs: &[&str],
    query: &BTreeMap<String, String>,
    accept: &str,
) -> Answer {
    let api = &state.api;
    // /api/v1/... or /apis/G/V/...
    let (group, version, rest) = match segs {
        ["api", v, rest @ ..] => ("", *v, rest),
        ["apis", g, v, rest @ ..] => (*g, *v, rest),
        _ => {
            return status(
                404,
                "NotFound",
                "the server could not find the requested resource",
            )
        }
    };
    let find = |plural: &str| {
        api.resources
            .iter()
            .find(|r| r.group == group && r.version == version && r.plural == plural)
    };
    // namespaces/NS/PLURAL[/NAME] | PLURAL[/NAME]; `namespaces[/NAME]` is the kind itself.
    let (namespace, plural, name) = match rest {
        ["namespaces", ns, plural] => (Some(*ns), *plural, None),
        ["namespaces", ns, plural, name] => (Some(*ns), *plural, Some(*name)),
        [plural] => (None, *plural, None),
        [plural, name] => (None, *plural, Some(*name)),
        _ => {
            return status(
                404,
                "NotFound",
                "the server could not find the requested resource",
            )
        }
    };
    let unserved = |r: &&Res| {
        let gone = state.unserved.lock().unwrap();
        gone.contains(&(r.group.clone(), r.kind.clone()))
    };
    let Some(res) = find(plural).filter(|r| !unserved(r)) else {
        return status(
            404,
            "NotFound",
            "the server could not find the requested resource",
        );
    };
    let watching = matches!(query.get("watch").map(String::as_str), Some("1" | "true"));
    let verb = match (name.is_some(), watching) {
        (true, _) => "get",
        (false, true) => "watch",
        (false, false) => "list",
    };
    let access = Access {
        verb,
        resource: res.display(),
        namespace: namespace.map(str::to_string),
    };
    if !(api.permit)(&access) {
        let scope = match namespace {
            Some(ns) => format!("in the namespace \"{ns}\""),
            None => "at the cluster scope".into(),
        };
        return status(
            403,
            "Forbidden",
            &format!(
                "{} is forbidden: User \"tester\" cannot {verb} resource \"{}\" in API group \"{}\" {scope}",
                res.display(),
                res.plural,
                res.group
            ),
        );
    }
    if watching {
        if let Some((code, retry_after)) = watch_fault(state, &format!("/{}", segs.join("/"))) {
            let mut a = status(code, status_reason(code), "injected fault on a watch");
            if matches!(code, 429 | 503) {
                a.headers
                    .push(("Retry-After".into(), retry_after.to_string()));
            }
            return a;
        }
        let from = query
            .get("resourceVersion")
            .and_then(|rv| rv.parse::<u64>().ok())
            .unwrap_or_else(|| state.store.lock().unwrap().rv);
        let mut a = ok(json!({}));
        a.watch = Some(WatchAsk {
            group: res.group.clone(),
            kind: res.kind.clone(),
            api_version: res.api_version(),
            namespace: namespace.map(str::to_string),
            selector: query.get("labelSelector").cloned(),
            from,
            bookmarks: query.get("allowWatchBookmarks").map(String::as_str) == Some("true"),
            metadata_only: accept.contains("as=PartialObjectMetadata"),
            timeout: Duration::from_secs(
                query
                    .get("timeoutSeconds")
                    .and_then(|t| t.parse().ok())
                    .unwrap_or(1800),
            ),
        });
        return a;
    }
    let store = state.store.lock().unwrap();
    let current_rv = store.rv;
    // Objects are indexed by group and kind, sorted by namespace and name (as etcd keys).
    let matching: Vec<&Value> = store
        .by_kind
        .get(&(res.group.clone(), res.kind.clone()))
        .into_iter()
        .flatten()
        .filter(|o| namespace.is_none_or(|ns| o["metadata"]["namespace"].as_str() == Some(ns)))
        .collect();
    let as_served = |o: &Value| {
        let mut o = o.clone();
        o["apiVersion"] = json!(res.api_version());
        o
    };
    if let Some(name) = name {
        return match matching
            .iter()
            .find(|o| o["metadata"]["name"].as_str() == Some(name))
        {
            Some(o) if accept.contains("as=PartialObjectMetadata") => ok(partial(o)),
            Some(o) => ok(as_served(o)),
            None => status(
                404,
                "NotFound",
                &format!("{} \"{name}\" not found", res.display()),
            ),
        };
    }
    let mut items: Vec<&Value> = matching;
    if let Some(sel) = query.get("labelSelector") {
        let empty = Map::new();
        items.retain(|o| {
            selector_matches(sel, o["metadata"]["labels"].as_object().unwrap_or(&empty))
        });
    }
    let offset: usize = match query.get("continue") {
        Some(t) => match t
            .strip_prefix("fake-continue-")
            .and_then(|n| n.parse().ok())
        {
            Some(n) => n,
            None => return status(400, "BadRequest", "invalid continue token"),
        },
        None => 0,
    };
    let mut limit: usize = query
        .get("limit")
        .and_then(|l| l.parse().ok())
        .filter(|&l| l > 0)
        .unwrap_or(usize::MAX);
    if let Some(cap) = api.page_limit_cap {
        limit = limit.min(cap);
    }
    let end = offset.saturating_add(limit).min(items.len());
    let page = &items[offset.min(items.len())..end];
    let mut meta = json!({"resourceVersion": current_rv.to_string()});
    if end < items.len() {
        meta["continue"] = json!(format!("fake-continue-{end}"));
        meta["remainingItemCount"] = json!(items.len() - end);
    }
    if accept.contains("as=Table") {
        return ok(table(res, page, meta));
    }
    // kube-apiserver's metadata-only list (`asPartialObjectMetadataList`): each item
    // its metadata alone, typed PartialObjectMetadata.
    if accept.contains("as=PartialObjectMetadataList") {
        let items: Vec<Value> = page.iter().map(|o| partial(o)).collect();
        return ok(
            json!({"kind": "PartialObjectMetadataList", "apiVersion": "meta.k8s.io/v1",
                         "metadata": meta, "items": items}),
        );
    }
    let items: Vec<Value> = page
        .iter()
        .map(|o| {
            let mut o = as_served(o);
            if res.builtin() {
                if let Value::Object(m) = &mut o {
                    m.remove("apiVersion");
                    m.remove("kind");
                }
            }
            o
        })
        .collect();
    ok(
        json!({"kind": format!("{}List", res.kind), "apiVersion": res.api_version(),
              "metadata": meta, "items": items}),
    )
}

/// An object as a metadata-only answer gives it: `PartialObjectMetadata`, with its
/// metadata alone (annotations included, as the real server sends them).
fn partial(o: &Value) -> Value {
    json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
           "metadata": o["metadata"]})
}

/// The server-side printing kubectl asks for: Name and Age columns.
fn table(res: &Res, page: &[&Value], meta: Value) -> Value {
    let rows: Vec<Value> = page
        .iter()
        .map(|o| {
            let m = &o["metadata"];
            json!({"cells": [m["name"], "1d"],
                   "object": {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
                              "metadata": {"name": m["name"], "namespace": m["namespace"],
                                           "creationTimestamp": m["creationTimestamp"]}}})
        })
        .collect();
    let _ = res;
    json!({"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": meta,
           "columnDefinitions": [
               {"name": "Name", "type": "string", "format": "name", "description": "Name", "priority": 0},
               {"name": "Age", "type": "string", "format": "", "description": "Age", "priority": 0}],
           "rows": rows})
}

/// The code a watch request on `path` is answered, and the `Retry-After` it asks for,
/// when `Server::fail_watches` says so.
fn watch_fault(state: &State, path: &str) -> Option<(u16, u64)> {
    let mut faults = state.watch_faults.lock().unwrap();
    let (_, code, left, retry_after) = faults
        .iter_mut()
        .find(|(needle, _, left, _)| *left > 0 && path.contains(needle.as_str()))?;
    *left -= 1;
    Some((*code, *retry_after))
}
