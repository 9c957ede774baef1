//! The live cluster: kubeconfig, discovery, then concurrent paginated GETs.
//!
//! Only GET requests are ever sent. Every list is paginated (`limit` 500, following
//! `continue`, restarting once on 410 Expired) and runs as its own task, at most
//! `concurrency` requests in flight. What cannot be read (403, 404, an error, a
//! timeout) becomes a [`BlindSpot`]; the answer is built from the rest.

pub mod api;
pub mod config;
pub mod discovery;
pub mod error;
mod exec;
pub mod names;
pub mod watch;

use crate::model::POLICY_LABEL;
use crate::model::{BlindReason, BlindSpot, Lazy, Object, Origin, ShapeError, Text, Val};
use crate::model::{GroupKind, ObjRef, GATEWAY_GROUP, GATEWAY_X_GROUP};
use crate::source::document::{Doc, MapOr};
use crate::source::files::Loaded;
use crate::source::objects_from_document;
use api::{Api, ApiError};
pub use config::ConfigError;
use discovery::{Discovery, Resource};
pub use error::{DiscoveryError, LiveError};
pub use exec::{AnswerProblem, CredentialError, PluginStderr};
use serde::de::{
    DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// Page size of every list, as kubectl uses.
pub(crate) const PAGE_SIZE: usize = 500;

/// How to reach the cluster.
#[derive(Clone, Debug)]
pub struct LiveOptions {
    pub kubeconfig: Option<PathBuf>,
    pub context: Option<String>,
    pub request_timeout: Duration,
    /// Requests in flight at once.
    pub concurrency: usize,
    /// kubectl's connection flags (`--server`, `--token`, `--as`, ...), over the kubeconfig.
    pub overrides: config::Overrides,
}

impl Default for LiveOptions {
    fn default() -> Self {
        LiveOptions {
            kubeconfig: None,
            context: None,
            request_timeout: Duration::from_secs(30),
            concurrency: 16,
            overrides: config::Overrides::default(),
        }
    }
}

/// What to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadScope {
    /// Every namespace; a kind the user may not list cluster-wide is read in
    /// `fallback` (the namespaces in scope) instead.
    Cluster { fallback: Vec<String> },
    /// One namespace, and the namespaces its objects' ancestors live in.
    Namespace(String),
    /// What the answer for one object needs: its namespace and its ancestors'.
    Object(ObjRef),
}

/// A connection to one cluster.
#[derive(Clone)]
pub struct Cluster {
    api: Api,
    /// The API server's URL, for messages.
    pub server: String,
    /// The context's namespace, else `default` (in-cluster: the pod's namespace).
    pub default_namespace: String,
    concurrency: usize,
}

/// The namespace of the kubeconfig's context (`context`, else the current one), read from
/// the files only: what `kubectl apply -f` puts an object without a namespace in. None
/// when there is no kubeconfig or the context names no namespace.
pub fn context_namespace(
    kubeconfig: Option<&std::path::Path>,
    context: Option<&str>,
) -> Result<Option<String>, ConfigError> {
    let Some(file) = config::load_kubeconfig(kubeconfig)? else {
        return Ok(None);
    };
    let kubeconfig = file.kubeconfig;
    let Some(name) = context.map(str::to_string).or(kubeconfig.current_context) else {
        return Ok(None);
    };
    Ok(kubeconfig
        .contexts
        .iter()
        .find(|c| c.name == name)
        .and_then(|c| c.context.as_ref())
        .and_then(|c| c.namespace.clone())
        .filter(|ns| !ns.is_empty()))
}

/// Loads the kubeconfig (`--kubeconfig`, else `KUBECONFIG` as a colon list, else
/// `~/.kube/config`, else the in-cluster service account), lays kubectl's connection
/// flags over it, runs a credential plugin within the request timeout, and builds a
/// client whose every request is bounded by the request timeout.
pub async fn connect(opts: &LiveOptions) -> Result<Cluster, LiveError> {
    use kube::config::{Config, KubeConfigOptions};
    config::check_flags(&opts.overrides)?;
    let loaded = config::load_kubeconfig(opts.kubeconfig.as_deref())?;
    let chosen = config::choose(
        loaded.as_ref(),
        opts.context.as_deref(),
        &opts.overrides,
        || {
            config::in_cluster(
                |k| std::env::var(k).ok(),
                std::path::Path::new(config::SERVICE_ACCOUNT_DIR),
            )
        },
    )?;
    let origin = chosen.origin.clone();
    let mut config =
        Config::from_custom_kubeconfig(chosen.kubeconfig(), &KubeConfigOptions::default())
            .await
            .map_err(|error| config::config_error(&origin, error))?;
    // A credential plugin runs here, bounded, rather than inside kube with no bound.
    if let Some(exec) = config.auth_info.exec.take() {
        match exec::run(&exec, opts.request_timeout)? {
            exec::Credential::Token(token) => config.auth_info.token = Some(token.into()),
            exec::Credential::Certificate { certificate, key } => {
                use base64::Engine as _;
                let b64 = base64::engine::general_purpose::STANDARD;
                config.auth_info.client_certificate = None;
                config.auth_info.client_key = None;
                config.auth_info.client_certificate_data = Some(b64.encode(certificate));
                config.auth_info.client_key_data = Some(b64.encode(key).into());
            }
        }
    }
    // Each request as a whole is bounded by `Api::get`; the connector only needs to
    // give up on a connection no later than that.
    config.connect_timeout = Some(opts.request_timeout);
    config.read_timeout = None;
    config.write_timeout = None;
    // Retries are ours (429 and 5xx with Retry-After, 410 on continue), explicit and
    // bounded.
    config.default_retry = false;
    // Every request says who sends it, as client-go's do.
    config.headers.push((
        http::header::USER_AGENT,
        http::HeaderValue::from_str(&api::user_agent())
            .map_err(|error| LiveError::UserAgent { error })?,
    ));
    // For messages: a URL's user information may be a password or a token.
    let server = config::redact_userinfo(&config.cluster_url.to_string());
    let server = server.trim_end_matches('/').to_string();
    let default_namespace = config.default_namespace.clone();
    let client = kube::Client::try_from(config).map_err(|error| match error {
        // kube's message for failed credentials may carry a plugin's environment and
        // output: credentials, possibly. Say less.
        kube::Error::Auth(_) => LiveError::CredentialsUnobtainable {
            server: server.clone(),
            origin: origin.clone(),
        },
        // Key and certificate data are decoded here: said without what they hold.
        kube::Error::InferKubeconfig(error) => config::config_error(&origin, error).into(),
        other => LiveError::Client {
            server: server.clone(),
            origin: origin.clone(),
            message: config::redact_userinfo(&other.to_string()),
        },
    })?;
    Ok(Cluster {
        api: Api::new(client, opts.request_timeout),
        server,
        default_namespace,
        concurrency: opts.concurrency.max(1),
    })
}

impl Cluster {
    /// Discovers what the cluster serves. Fails (naming the server) only when the
    /// discovery roots cannot be read at all.
    pub async fn discover(&self) -> Result<Discovery, LiveError> {
        discovery::discover(&self.api, self.concurrency)
            .await
            .map_err(|e| self.fatal(e))
    }

    /// What a failed discovery means for the user: credentials rejected, a server
    /// that cannot be reached (and why, for TLS), one too slow, or the request that failed.
    fn fatal(&self, error: DiscoveryError) -> LiveError {
        let server = self.server.clone();
        match error {
            DiscoveryError::Api {
                error: ApiError::Status { code: 401, .. },
                ..
            } => LiveError::Unauthorized { server },
            DiscoveryError::Api {
                error: ApiError::Transport(message),
                ..
            } => LiveError::Unreachable {
                server,
                hint: tls_hint(&message),
                message,
            },
            DiscoveryError::Api {
                error: error @ ApiError::Timeout(_),
                path,
            } => LiveError::TimedOut {
                server,
                path,
                error,
            },
            error => LiveError::Discovery { server, error },
        }
    }

    /// Reads what `scope` needs: the objects the analysis uses (Gateway API kinds,
    /// Services, Namespaces, policy CRDs and every policy kind), with the blind spots.
    pub async fn read(
        &self,
        d: &Discovery,
        scope: &ReadScope,
        guide: &Guide,
    ) -> Result<Loaded, LiveError> {
        let mut r = Reader::new(self, d, guide);
        r.run(scope).await?;
        Ok(r.finish())
    }

    /// `read`, and the lists it made that succeeded, to be watched (`get -w`).
    pub async fn read_watched(
        &self,
        d: &Discovery,
        scope: &ReadScope,
        guide: &Guide,
    ) -> Result<(Loaded, Vec<watch::WatchList>), LiveError> {
        let mut r = Reader::new(self, d, guide);
        r.run(scope).await?;
        let lists = r.watch_lists();
        Ok((r.finish(), lists))
    }
}

/// What a TLS failure means, in the terms of the kubeconfig and the flags.
fn tls_hint(message: &str) -> Option<&'static str> {
    let m = message.to_ascii_lowercase();
    if m.contains("unknownissuer") || m.contains("unknown issuer") || m.contains("badsignature") {
        Some("the server's certificate is not signed by a certificate authority this connection trusts: the cluster's certificate-authority(-data) or --certificate-authority; --insecure-skip-tls-verify skips the check")
    } else if m.contains("notvalidforname") || m.contains("not valid for name") {
        Some("the server's certificate is not valid for the name connected to: the server URL's host, or --tls-server-name")
    } else if m.contains("certificaterequired") || m.contains("certificate required") {
        Some("the server asks for a client certificate: the user's client-certificate and client-key, or --client-certificate and --client-key")
    } else if m.contains("unknownca")
        || m.contains("badcertificate")
        || m.contains("bad certificate")
    {
        Some("the server refused the client certificate: it is not issued by a certificate authority the server trusts")
    } else {
        None
    }
}

/// The kinds of the hierarchy (besides policies).
fn structural(d: &Discovery) -> (Vec<Resource>, Vec<Resource>) {
    let mut wanted: Vec<GroupKind> = vec![
        GroupKind::new("", "Namespace"),
        GroupKind::new("", "Service"),
        GroupKind::new("multicluster.x-k8s.io", "ServiceImport"),
    ];
    for g in [GATEWAY_GROUP, GATEWAY_X_GROUP] {
        for k in [
            "GatewayClass",
            "Gateway",
            "ListenerSet",
            "XListenerSet",
            "ReferenceGrant",
            "HTTPRoute",
            "GRPCRoute",
            "TLSRoute",
            "TCPRoute",
            "UDPRoute",
        ] {
            wanted.push(GroupKind::new(g, k));
        }
    }
    let found: Vec<Resource> = wanted.iter().filter_map(|gk| d.get(gk).cloned()).collect();
    found.into_iter().partition(|r| !r.namespaced)
}

/// A discovered kind that GEP-713 tooling would call a policy by its name alone: a
/// `*Policy` kind outside the Kubernetes built-in groups.
fn looks_like_policy_kind(r: &Resource) -> bool {
    let g = r.group.as_str();
    let builtin = !g.contains('.') || (g.ends_with(".k8s.io") && g != GATEWAY_GROUP);
    r.kind.ends_with("Policy") && !builtin
}

/// What the layers above tell the live reader: the policy kinds to look for before any
/// CRD is read (as the caller's catalog knows them: the registry's and the declared
/// ones; the reader learns the labelled ones from the CRDs it reads), and how to follow
/// an object's references to the namespaces its answer needs (`focus`).
#[derive(Clone, Debug)]
pub struct Guide {
    /// Each kind, and whether its project says it attaches within its own namespace
    /// only (never to a GatewayClass): such kinds are read in the namespaces an answer
    /// needs, the others cluster-wide.
    pub policy_kinds: Vec<(GroupKind, bool)>,
    /// The namespaces the answer about `starts` needs, as far as `objects` (read so
    /// far) tell: called again after each round of reads until nothing new is named.
    pub follow: fn(objects: &[Object], starts: &[ObjRef]) -> BTreeSet<String>,
}

impl Guide {
    /// Whether a policy of this kind may target a GatewayClass, from a policy in any
    /// namespace: a kind not known to attach within its own namespace (labelled,
    /// declared or assumed) may target anything.
    fn may_target_cluster_scoped(&self, r: &Resource) -> bool {
        let gk = r.group_kind();
        !self
            .policy_kinds
            .iter()
            .any(|(k, namespaced)| *k == gk && *namespaced)
    }
}

#[derive(Deserialize)]
struct ListMeta {
    #[serde(default, rename = "continue")]
    continue_token: Option<String>,
    #[serde(default, rename = "remainingItemCount")]
    remaining_item_count: Option<u64>,
}

/// One page of a list, read by [`Page`].
struct ListPage {
    metadata: Option<ListMeta>,
    /// How many items it held.
    items: usize,
}

/// Reads one page of a list. Its items are read straight into documents (no
/// `serde_json::Value` is built for one) and made objects as each is read, into the
/// list's objects and shape errors: the API server leaves apiVersion
/// and kind out of the items of built-in lists, so an item without them gets its
/// kind's, and a CRD's schemas are dropped.
struct Page<'p> {
    resource: &'p Resource,
    origin: &'p Origin,
    objects: &'p mut Vec<Object>,
    errors: &'p mut Vec<ShapeError>,
}

impl Page<'_> {
    fn item(&mut self, mut item: MapOr<Doc>) {
        complete_item(self.resource, &mut item);
        objects_from_document(item, self.origin, self.objects, self.errors);
    }
}

/// A listed or watched item as a document: the apiVersion and kind built-in kinds'
/// items leave out, a CRD without its schemas.
pub(crate) fn complete_item(r: &Resource, item: &mut MapOr<Doc>) {
    if let MapOr::Map(doc) = item {
        doc.api_version
            .get_or_insert_with(|| Value::String(r.api_version()));
        doc.kind
            .get_or_insert_with(|| Value::String(r.kind.clone()));
        if r.kind == "CustomResourceDefinition" {
            if let Some(spec) = &mut doc.spec {
                strip_crd_schemas(spec);
            }
        }
    }
}

#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "camelCase")]
enum PageField {
    Metadata,
    Items,
    #[serde(other)]
    Skipped,
}

impl<'de> DeserializeSeed<'de> for Page<'_> {
    type Value = ListPage;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<ListPage, D::Error> {
        d.deserialize_struct("ListPage", &["metadata", "items"], self)
    }
}

impl<'de> Visitor<'de> for Page<'_> {
    type Value = ListPage;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("struct ListPage")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<ListPage, A::Error> {
        let (mut metadata, mut items) = (None, None);
        while let Some(field) = map.next_key::<PageField>()? {
            match field {
                PageField::Metadata if metadata.is_some() => {
                    return Err(A::Error::duplicate_field("metadata"))
                }
                PageField::Metadata => metadata = Some(map.next_value::<Option<ListMeta>>()?),
                PageField::Items if items.is_some() => {
                    return Err(A::Error::duplicate_field("items"))
                }
                PageField::Items => items = Some(map.next_value_seed(PageItems(&mut self))?),
                PageField::Skipped => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(ListPage {
            metadata: metadata.flatten(),
            items: items.unwrap_or(0),
        })
    }
}

/// A page's `items`, each made objects as it is read; their number.
struct PageItems<'a, 'p>(&'a mut Page<'p>);

impl<'de> DeserializeSeed<'de> for PageItems<'_, '_> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for PageItems<'_, '_> {
    type Value = usize;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
        let mut n = 0;
        while let Some(item) = seq.next_element::<MapOr<Doc>>()? {
            self.0.item(item);
            n += 1;
        }
        Ok(n)
    }
}

/// One list: a kind, cluster-wide or in one namespace.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct ListKey {
    gk: GroupKind,
    namespace: Option<String>,
}

struct Listed {
    key: ListKey,
    resource: Resource,
    selector: Option<String>,
    result: Result<Listing, ApiError>,
}

enum Listing {
    Items(Vec<Object>, Vec<ShapeError>),
    /// A cluster-wide list too long to page through one page at a time: list it per
    /// namespace instead, concurrently.
    Shard,
}

/// What every list shares: the client, the bound on requests in flight, and what
/// decides whether a long list is sharded.
struct ListContext {
    api: Api,
    permits: Arc<Semaphore>,
    server: String,
    /// How many namespaces a sharded list would be read in.
    shard_namespaces: usize,
    concurrency: usize,
}

/// Lists every page of one collection. A 410 Expired on a continue token (the
/// snapshot behind it was compacted) restarts the list once from the beginning.
async fn list_all(
    ctx: ListContext,
    resource: Resource,
    namespace: Option<String>,
    label_selector: Option<String>,
) -> Result<Listing, ApiError> {
    let ListContext {
        api,
        permits,
        server,
        shard_namespaces,
        concurrency,
    } = ctx;
    let base = resource.list_path(namespace.as_deref());
    let origin = Origin {
        file: format!("{server}{base}").into(),
        document: 0,
    };
    let mut restarted = false;
    'restart: loop {
        let mut objects = Vec::new();
        let mut errors = Vec::new();
        let mut token: Option<String> = None;
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut pages = 0usize;
        loop {
            pages += 1;
            let mut query = format!("{base}?limit={PAGE_SIZE}");
            if let Some(sel) = &label_selector {
                query.push_str("&labelSelector=");
                query.push_str(&encode(sel));
            }
            if let Some(t) = &token {
                query.push_str("&continue=");
                query.push_str(&encode(t));
            }
            let body = {
                let _permit = permits.acquire().await;
                api.get(&query, "application/json").await
            };
            let body = match body {
                Err(e) if e.code() == Some(410) && token.is_some() && !restarted => {
                    restarted = true;
                    continue 'restart;
                }
                other => other?,
            };
            let page = Page {
                resource: &resource,
                origin: &origin,
                objects: &mut objects,
                errors: &mut errors,
            };
            let mut d = serde_json::Deserializer::from_slice(&body);
            let page = page
                .deserialize(&mut d)
                .and_then(|page| d.end().map(|()| page))
                .map_err(|e| {
                    ApiError::Invalid(format!("the list is not the JSON expected: {e}"))
                })?;
            let page_len = page.items;
            let first_page = token.is_none();
            let remaining = page
                .metadata
                .as_ref()
                .and_then(|m| m.remaining_item_count)
                .unwrap_or(0);
            let next = page
                .metadata
                .and_then(|m| m.continue_token)
                .filter(|t| !t.is_empty());
            // A token seen before means the pages go round: the list would never end.
            if let Some(t) = &next {
                if !seen.insert(t.clone()) {
                    return Err(ApiError::Invalid(format!(
                        "the server gave a continue token it had given before, after {pages} {}; the list was stopped, as it would never end",
                        if pages == 1 { "page" } else { "pages" }
                    )));
                }
            }
            token = next;
            if token.is_none() {
                return Ok(Listing::Items(objects, errors));
            }
            if first_page
                && namespace.is_none()
                && resource.namespaced
                && shard_pays(remaining, page_len, shard_namespaces, concurrency)
            {
                return Ok(Listing::Shard);
            }
        }
    }
}

/// Whether listing per namespace, concurrently, beats paging through the remaining
/// items one page after another: it must take clearly fewer rounds of requests, and
/// not many more requests in all.
fn shard_pays(remaining: u64, page_len: usize, namespaces: usize, concurrency: usize) -> bool {
    let pages = remaining.div_ceil(page_len.max(1) as u64) as usize;
    let rounds = namespaces.div_ceil(concurrency.max(1));
    namespaces > 0 && pages >= 3 && rounds * 2 <= pages && namespaces <= pages * 4
}

/// The tool reads a CRD's group, names, scope and labels; its schemas are large and
/// unused, so they are dropped as the page is read: the spec is built (CRDs are few),
/// each version's `schema` taken out, and the rest kept built. The version's last
/// member takes the schema's place, as `serde_json::Map::remove` leaves it (how the
/// tool has always dropped them, and so how `dump` has always written a CRD).
fn strip_crd_schemas(spec: &mut Lazy) {
    if let Some(stripped) = spec.with(without_schemas) {
        *spec = Lazy::from(stripped);
    }
}

/// The spec with no `schema` in its `versions`; none when it has no list of versions.
fn without_schemas(spec: &Val) -> Option<Val> {
    let versions = spec.get("versions")?.as_array()?;
    let version = |v: &Val| match v.as_object() {
        Some(m) => {
            let mut members: Vec<(Text, Val)> =
                m.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            if let Some(i) = members.iter().position(|(k, _)| k.as_str() == "schema") {
                members.swap_remove(i);
            }
            Val::Object(members.into_iter().collect())
        }
        None => v.clone(),
    };
    let mut versions = Some(Val::Array(versions.iter().map(version).collect()));
    let members = spec.as_object()?.iter().map(|(k, v)| {
        // A mapping holds each key once: `versions` is met once.
        let v = match k.as_str() {
            "versions" => versions.take().unwrap_or_default(),
            _ => v.clone(),
        };
        (k.clone(), v)
    });
    Some(Val::Object(members.collect()))
}

/// Percent-encodes a query value (label selectors and continue tokens).
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// What was tried for one kind, to summarise as blind spots.
#[derive(Default)]
struct KindLog {
    policy: bool,
    cluster: Option<Result<(), ApiError>>,
    namespaces: BTreeMap<String, Result<(), ApiError>>,
}

struct Reader<'a> {
    cluster: &'a Cluster,
    d: &'a Discovery,
    guide: &'a Guide,
    permits: Arc<Semaphore>,
    objects: Vec<Object>,
    shape_errors: Vec<ShapeError>,
    log: BTreeMap<GroupKind, KindLog>,
    blind_spots: Vec<BlindSpot>,
}

impl<'a> Reader<'a> {
    fn new(cluster: &'a Cluster, d: &'a Discovery, guide: &'a Guide) -> Self {
        Reader {
            cluster,
            d,
            guide,
            permits: Arc::new(Semaphore::new(cluster.concurrency)),
            objects: Vec::new(),
            shape_errors: Vec::new(),
            log: BTreeMap::new(),
            blind_spots: d.blind_spots.clone(),
        }
    }

    /// Runs lists concurrently and files their results.
    fn spawn_list(
        &self,
        tasks: &mut tokio::task::JoinSet<Listed>,
        resource: Resource,
        namespace: Option<String>,
        selector: Option<String>,
        shard_namespaces: usize,
    ) {
        let key = ListKey {
            gk: resource.group_kind(),
            namespace: namespace.clone(),
        };
        let ctx = ListContext {
            api: self.cluster.api.clone(),
            permits: self.permits.clone(),
            server: self.cluster.server.clone(),
            shard_namespaces,
            concurrency: self.cluster.concurrency,
        };
        let fut = list_all(ctx, resource.clone(), namespace, selector.clone());
        tasks.spawn(async move {
            Listed {
                key,
                resource,
                selector,
                result: fut.await,
            }
        });
    }

    /// The namespaces read so far (for sharding long lists).
    fn namespace_names(&self) -> Vec<String> {
        self.objects
            .iter()
            .filter(|o| o.kind == "Namespace" && o.group().is_empty())
            .map(|o| o.name.to_string())
            .collect()
    }

    /// Runs lists concurrently and files their results.
    async fn batch(&mut self, lists: Vec<(Resource, Option<String>, Option<String>)>) {
        // The namespaces are known before a batch starts (they are read in the first).
        let namespaces = self.namespace_names();
        let mut tasks = tokio::task::JoinSet::new();
        for (resource, namespace, selector) in lists {
            self.spawn_list(&mut tasks, resource, namespace, selector, namespaces.len());
        }
        type Outcome = Result<(Vec<Object>, Vec<ShapeError>), ApiError>;
        let mut done: Vec<(ListKey, Outcome)> = Vec::new();
        while let Some(joined) = tasks.join_next().await {
            match joined {
                Ok(Listed {
                    key,
                    resource,
                    selector,
                    result: Ok(Listing::Shard),
                }) => {
                    for ns in &namespaces {
                        self.spawn_list(
                            &mut tasks,
                            resource.clone(),
                            Some(ns.clone()),
                            selector.clone(),
                            namespaces.len(),
                        );
                    }
                    // The kind is covered cluster-wide once every namespace is read.
                    self.log.entry(key.gk).or_default().cluster = Some(Ok(()));
                }
                Ok(Listed {
                    key,
                    result: Ok(Listing::Items(objects, errors)),
                    ..
                }) => done.push((key, Ok((objects, errors)))),
                Ok(Listed {
                    key,
                    result: Err(e),
                    ..
                }) => done.push((key, Err(e))),
                Err(e) => self.blind_spots.push(BlindSpot {
                    group: String::new(),
                    kind: String::new(),
                    namespace: None,
                    reason: BlindReason::Error,
                    message: format!("a read failed unexpectedly: {e}"),
                    file: None,
                    document: None,
                }),
            }
        }
        // Filed in a fixed order so the snapshot does not depend on timing.
        done.sort_by(|a, b| a.0.cmp(&b.0));
        for (key, result) in done {
            let entry = self.log.entry(key.gk.clone()).or_default();
            let outcome = result.map(|(objects, errors)| {
                self.objects.extend(objects);
                // Nothing read is dropped in silence: every answer says what was not shown.
                self.blind_spots
                    .extend(errors.iter().map(ShapeError::blind_spot));
                self.shape_errors.extend(errors);
            });
            match key.namespace {
                None => entry.cluster = Some(outcome),
                Some(ns) => {
                    entry.namespaces.insert(ns, outcome);
                }
            }
        }
    }

    fn mark_policy(&mut self, gk: &GroupKind) {
        self.log.entry(gk.clone()).or_default().policy = true;
    }

    /// The policy kinds known before reading CRDs: the ones handed in, and the
    /// `*Policy` look-alikes the server serves.
    fn known_policy_kinds(&self, lookalikes: bool) -> Vec<Resource> {
        let mut gks: BTreeSet<GroupKind> = self
            .guide
            .policy_kinds
            .iter()
            .map(|(gk, _)| gk.clone())
            .collect();
        if lookalikes {
            gks.extend(
                self.d
                    .resources
                    .values()
                    .filter(|r| looks_like_policy_kind(r))
                    .map(Resource::group_kind),
            );
        }
        gks.iter()
            .filter_map(|gk| self.d.get(gk).cloned())
            .collect()
    }

    /// Policy kinds named by labelled CRDs that were not read yet.
    fn labelled_policy_kinds(&self) -> Vec<Resource> {
        let mut out = Vec::new();
        for o in self
            .objects
            .iter()
            .filter(|o| o.kind == "CustomResourceDefinition" && o.labels.contains_key(POLICY_LABEL))
        {
            let group = o
                .spec
                .get("group")
                .and_then(Val::as_str)
                .unwrap_or_default();
            let kind = o
                .spec
                .pointer("/names/kind")
                .and_then(Val::as_str)
                .unwrap_or_default();
            let gk = GroupKind::new(group, kind);
            if self.log.contains_key(&gk) {
                continue;
            }
            if let Some(r) = self.d.get(&gk) {
                out.push(r.clone());
            }
        }
        out
    }

    /// Kinds whose cluster-wide list was forbidden: to be read per namespace.
    fn forbidden_cluster_wide(&self) -> Vec<Resource> {
        self.log
            .iter()
            .filter(|(_, l)| matches!(&l.cluster, Some(Err(e)) if e.code() == Some(403)))
            .filter_map(|(gk, _)| self.d.get(gk).cloned())
            .filter(|r| r.namespaced)
            .collect()
    }

    /// Lists of `kinds` in each of `namespaces` not read for that kind yet.
    fn per_namespace(
        &self,
        kinds: &[Resource],
        namespaces: &BTreeSet<String>,
    ) -> Vec<(Resource, Option<String>, Option<String>)> {
        let mut out = Vec::new();
        for r in kinds.iter().filter(|r| r.namespaced) {
            let log = self.log.get(&r.group_kind());
            if matches!(log.and_then(|l| l.cluster.as_ref()), Some(Ok(()))) {
                continue;
            }
            // A reference may name any text as a namespace; one that cannot be a
            // namespace's name holds nothing, and never goes into a URL.
            for ns in namespaces
                .iter()
                .filter(|ns| crate::model::namespace_name_problem(ns).is_none())
            {
                if log.is_some_and(|l| l.namespaces.contains_key(ns)) {
                    continue;
                }
                out.push((r.clone(), Some(ns.clone()), None));
            }
        }
        out
    }

    async fn run(&mut self, scope: &ReadScope) -> Result<(), LiveError> {
        let (cluster_scoped, namespaced) = structural(self.d);
        let start_namespace = match scope {
            ReadScope::Cluster { .. } => None,
            ReadScope::Namespace(ns) => Some(ns.clone()),
            ReadScope::Object(r) => r.namespace.as_deref().map(str::to_string),
        };
        // Only a namespace name goes into a URL (the caller checks `-n` first).
        if let Some(ns) = &start_namespace {
            if let Some(problem) = crate::model::namespace_name_problem(ns) {
                return Err(LiveError::NotANamespaceName {
                    namespace: ns.clone(),
                    problem,
                });
            }
        }
        // Cluster-wide: every kind in one (paginated) list. Scoped: cluster-scoped
        // kinds whole, namespaced kinds (policies too: a policy attaches within its own
        // namespace, GEP-2649) in the namespaces the answer needs.
        let wide = matches!(scope, ReadScope::Cluster { .. });
        let hierarchy: BTreeSet<GroupKind> = namespaced.iter().map(Resource::group_kind).collect();
        let read_wide = |r: &Resource| {
            wide || !r.namespaced
                || (!hierarchy.contains(&r.group_kind()) && self.guide.may_target_cluster_scoped(r))
        };
        let lists_for = |kinds: &[Resource]| -> Vec<(Resource, Option<String>, Option<String>)> {
            kinds
                .iter()
                .filter_map(|r| match (!read_wide(r), &start_namespace) {
                    (false, _) => Some((r.clone(), None, None)),
                    (true, Some(ns)) => Some((r.clone(), Some(ns.clone()), None)),
                    (true, None) => None,
                })
                .collect()
        };
        let mut first: Vec<(Resource, Option<String>, Option<String>)> = Vec::new();
        if let Some(crd) = self.d.get(&GroupKind::new(
            "apiextensions.k8s.io",
            "CustomResourceDefinition",
        )) {
            first.push((crd.clone(), None, Some(POLICY_LABEL.to_string())));
        }
        // Cluster-scoped kinds first: the labelled CRDs name the remaining policy kinds,
        // and the namespaces let a long list be read per namespace, concurrently.
        first.extend(lists_for(&cluster_scoped));
        self.batch(first).await;

        // `*Policy` look-alikes only stand in for the labelled CRDs when those could
        // not be listed (other projects' `*Policy` kinds are not Gateway API policies).
        let crds_listed = matches!(
            self.log
                .get(&GroupKind::new(
                    "apiextensions.k8s.io",
                    "CustomResourceDefinition"
                ))
                .and_then(|l| l.cluster.as_ref()),
            Some(Ok(()))
        );
        let policies = self.known_policy_kinds(!crds_listed);
        for p in &policies {
            self.mark_policy(&p.group_kind());
        }
        let mut second = lists_for(&policies);
        let labelled = self.labelled_policy_kinds();
        for p in &labelled {
            self.mark_policy(&p.group_kind());
        }
        second.extend(lists_for(&labelled));
        second.extend(lists_for(&namespaced));
        self.batch(second).await;

        let mut namespaced_kinds = namespaced.clone();
        namespaced_kinds.extend(
            self.log
                .iter()
                .filter(|(_, l)| l.policy)
                .filter_map(|(gk, _)| self.d.get(gk).cloned())
                .filter(|r| r.namespaced && !self.guide.may_target_cluster_scoped(r)),
        );
        // Kinds whose cluster-wide list was refused are read where the answer needs them.
        namespaced_kinds.extend(self.forbidden_cluster_wide());

        match scope {
            ReadScope::Cluster { fallback } => {
                let namespaces: BTreeSet<String> = fallback.iter().cloned().collect();
                let lists = self.per_namespace(&self.forbidden_cluster_wide(), &namespaces);
                self.batch(lists).await;
            }
            ReadScope::Namespace(_) | ReadScope::Object(_) => {
                // Read the namespaces the ancestors live in until no new one appears.
                let mut read: BTreeSet<String> = start_namespace.iter().cloned().collect();
                let mut rounds = 0;
                loop {
                    let starts: Vec<ObjRef> = match scope {
                        ReadScope::Object(r) => vec![r.clone()],
                        // The namespace's own objects; their ancestors are followed
                        // through whatever the rounds read.
                        _ => self
                            .objects
                            .iter()
                            .filter(|o| {
                                o.namespace.is_some()
                                    && o.namespace.as_deref() == start_namespace.as_deref()
                            })
                            .map(Object::obj_ref)
                            .collect(),
                    };
                    let mut needed = (self.guide.follow)(&self.objects, &starts);
                    needed.extend(read.iter().cloned());
                    let lists = self.per_namespace(&namespaced_kinds, &needed);
                    if lists.is_empty() {
                        break;
                    }
                    read = needed;
                    self.batch(lists).await;
                    rounds += 1;
                    if rounds > 64 {
                        break;
                    }
                }
            }
        }
        // Credentials rejected part-way is no blind spot: nothing can be trusted.
        let rejected = self.log.values().any(|l| {
            l.cluster
                .iter()
                .chain(l.namespaces.values())
                .any(|r| matches!(r, Err(e) if e.code() == Some(401)))
        });
        if rejected {
            return Err(LiveError::UnauthorizedPartWay {
                server: self.cluster.server.clone(),
            });
        }
        self.check_gateway_api_served();
        Ok(())
    }

    fn check_gateway_api_served(&mut self) {
        let served = self
            .d
            .resources
            .keys()
            .any(|gk| crate::model::is_gateway_group(&gk.group));
        if !served {
            self.blind_spots.push(BlindSpot {
                group: GATEWAY_GROUP.into(),
                kind: String::new(),
                namespace: None,
                reason: BlindReason::NotFound,
                message: format!(
                    "the API server at {} does not serve {GATEWAY_GROUP}: the Gateway API CRDs are not installed, so there is no hierarchy to attach policies to",
                    self.cluster.server
                ),
                file: None,
                document: None,
            });
        }
    }

    /// The lists that succeeded: cluster-wide where the kind was read so (sharded
    /// lists too), else per namespace read.
    fn watch_lists(&self) -> Vec<watch::WatchList> {
        let mut out = Vec::new();
        for (gk, log) in &self.log {
            let Some(resource) = self.d.get(gk) else {
                continue;
            };
            let selector =
                (resource.kind == "CustomResourceDefinition").then(|| POLICY_LABEL.to_string());
            let list = |namespace: Option<String>| watch::WatchList {
                resource: resource.clone(),
                namespace,
                selector: selector.clone(),
            };
            match &log.cluster {
                Some(Ok(())) => out.push(list(None)),
                _ => out.extend(
                    log.namespaces
                        .iter()
                        .filter(|(_, r)| r.is_ok())
                        .map(|(ns, _)| list(Some(ns.clone()))),
                ),
            }
        }
        out
    }

    fn finish(mut self) -> Loaded {
        let mut spots = std::mem::take(&mut self.blind_spots);
        for (gk, log) in &self.log {
            if let Some(r) = self.d.get(gk) {
                spots.extend(summarise(r, log));
            }
        }
        spots.sort();
        spots.dedup();
        let mut objects = self.objects;
        objects.sort_by(|a, b| {
            (a.group(), &a.kind, &a.namespace, &a.name).cmp(&(
                b.group(),
                &b.kind,
                &b.namespace,
                &b.name,
            ))
        });
        Loaded {
            snapshot: crate::model::Snapshot {
                objects,
                blind_spots: spots,
                links_released: false,
            },
            shape_errors: self.shape_errors,
        }
    }
}

fn reason_of(e: &ApiError) -> BlindReason {
    match e.code() {
        Some(403) => BlindReason::Forbidden,
        Some(404) => BlindReason::NotFound,
        _ => BlindReason::Error,
    }
}

fn short_reason(e: &ApiError) -> String {
    match e.code() {
        Some(403) => "forbidden".into(),
        Some(404) => "not served (404)".into(),
        _ => e.to_string(),
    }
}

fn join_names(names: &[&str]) -> String {
    match names {
        [one] => format!("namespace {one}"),
        many => format!("namespaces {}", many.join(", ")),
    }
}

/// One blind spot per kind and cause: what could not be listed, and what that hides.
fn summarise(r: &Resource, log: &KindLog) -> Vec<BlindSpot> {
    let what = if log.policy {
        "policies of this kind"
    } else {
        "objects of this kind"
    };
    let consequence = match r.kind.as_str() {
        "CustomResourceDefinition" => {
            "policy kinds are recognised by the built-in registry and by their names only"
                .to_string()
        }
        "Namespace" => {
            "namespace labels are not known (allowedRoutes selectors may not match)".to_string()
        }
        _ => format!("{what} are not shown"),
    };
    let spot = |namespace: Option<String>, reason: BlindReason, message: String| BlindSpot {
        group: r.group.clone(),
        kind: r.kind.clone(),
        namespace,
        reason,
        message,
        file: None,
        document: None,
    };
    let mut out = Vec::new();
    let failed_ns: Vec<(&str, &ApiError)> = log
        .namespaces
        .iter()
        .filter_map(|(ns, res)| res.as_ref().err().map(|e| (ns.as_str(), e)))
        .collect();
    let ok_ns: Vec<&str> = log
        .namespaces
        .iter()
        .filter(|(_, res)| res.is_ok())
        .map(|(ns, _)| ns.as_str())
        .collect();
    // Namespaces that failed for the same reason share one warning.
    let mut by_cause: BTreeMap<(BlindReason, String), Vec<&str>> = BTreeMap::new();
    for (ns, e) in &failed_ns {
        by_cause
            .entry((reason_of(e), short_reason(e)))
            .or_default()
            .push(ns);
    }
    if let Some(Err(e)) = &log.cluster {
        let cause = short_reason(e);
        if e.code() == Some(403) && r.namespaced && !ok_ns.is_empty() {
            out.push(spot(
                None,
                BlindReason::Forbidden,
                format!(
                    "cannot list {} in all namespaces: forbidden; read in {} only, {what} elsewhere are not shown",
                    r.display(),
                    join_names(&ok_ns)
                ),
            ));
        } else if e.code() == Some(403) && r.namespaced && !failed_ns.is_empty() {
            // Forbidden cluster-wide and in the namespaces in scope: said once, below.
        } else {
            let whereabouts = if r.namespaced {
                " in all namespaces"
            } else {
                ""
            };
            out.push(spot(
                None,
                reason_of(e),
                format!(
                    "cannot list {}{whereabouts}: {cause}; {consequence}",
                    r.display()
                ),
            ));
        }
    }
    for ((reason, cause), namespaces) in by_cause {
        let namespace = match namespaces.as_slice() {
            [one] => Some(one.to_string()),
            _ => None,
        };
        out.push(spot(
            namespace,
            reason,
            format!(
                "cannot list {} in {}: {cause}; {consequence}",
                r.display(),
                join_names(&namespaces)
            ),
        ));
    }
    out
}

/// Connects, discovers and reads on a runtime of its own; `scope_for` picks the scope
/// once the context's namespace is known. For the binary and the tests: their error
/// type `E` takes the live source's, and `scope_for`'s is theirs.
pub fn load<E: From<LiveError>>(
    opts: &LiveOptions,
    guide: &Guide,
    scope_for: impl FnOnce(&Cluster, &Discovery) -> Result<ReadScope, E>,
) -> Result<(Loaded, Cluster), E> {
    let runtime = io_runtime()?;
    runtime.block_on(async {
        let cluster = connect(opts).await?;
        let discovery = cluster.discover().await?;
        let scope = scope_for(&cluster, &discovery)?;
        let loaded = cluster.read(&discovery, &scope, guide).await?;
        Ok((loaded, cluster))
    })
}

/// The runtime the live reads and watches run on: I/O only (CPU work is rayon's).
fn io_runtime() -> Result<tokio::runtime::Runtime, LiveError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| LiveError::Runtime { error })
}

/// `load`, then every list it made watched until Ctrl-C (Ok) or until the server
/// cannot be reached again within the request timeout (Err): `initial` gets what was
/// read, `on_changes` each batch of changes after.
pub fn load_and_watch<E: From<LiveError>>(
    opts: &LiveOptions,
    guide: &Guide,
    scope_for: impl FnOnce(&Cluster, &Discovery) -> Result<ReadScope, E>,
    initial: impl FnOnce(Loaded, &Cluster) -> Result<(), E>,
    on_changes: impl FnMut(Vec<watch::Change>) -> Result<(), E>,
) -> Result<(), E> {
    let runtime = io_runtime()?;
    runtime.block_on(async {
        let cluster = connect(opts).await?;
        let discovery = cluster.discover().await?;
        let scope = scope_for(&cluster, &discovery)?;
        let (loaded, lists) = cluster.read_watched(&discovery, &scope, guide).await?;
        initial(loaded, &cluster)?;
        watch::watch(&cluster, &lists, opts.request_timeout, on_changes).await
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn res(ns: bool) -> Resource {
        Resource {
            group: "resilience.example.io".into(),
            version: "v1".into(),
            kind: "RetryPolicy".into(),
            plural: "retrypolicies".into(),
            namespaced: ns,
        }
    }

    fn forbidden() -> ApiError {
        ApiError::Status {
            code: 403,
            reason: "Forbidden".into(),
            message: "no".into(),
        }
    }

    #[test]
    fn forbidden_everywhere_is_one_warning_naming_kind_and_namespace() {
        let log = KindLog {
            policy: true,
            cluster: Some(Err(forbidden())),
            namespaces: [("baker".to_string(), Err(forbidden()))].into(),
        };
        let spots = summarise(&res(true), &log);
        assert_eq!(spots.len(), 1);
        assert_eq!(
            spots[0].message,
            "cannot list retrypolicies.resilience.example.io in namespace baker: forbidden; policies of this kind are not shown"
        );
        assert_eq!(spots[0].namespace.as_deref(), Some("baker"));
        assert_eq!(spots[0].reason, BlindReason::Forbidden);
    }

    #[test]
    fn forbidden_cluster_wide_but_readable_in_scope_says_what_was_read() {
        let log = KindLog {
            policy: false,
            cluster: Some(Err(forbidden())),
            namespaces: [("baker".to_string(), Ok(()))].into(),
        };
        let spots = summarise(&res(true), &log);
        assert_eq!(spots.len(), 1);
        assert!(
            spots[0]
                .message
                .contains("in all namespaces: forbidden; read in namespace baker only"),
            "{}",
            spots[0].message
        );
    }

    #[test]
    fn query_values_are_percent_encoded() {
        assert_eq!(
            encode("gateway.networking.k8s.io/policy"),
            "gateway.networking.k8s.io%2Fpolicy"
        );
        assert_eq!(encode("a=b,c"), "a%3Db%2Cc");
    }

    #[test]
    fn builtin_groups_do_not_look_like_policies() {
        let mut r = res(true);
        assert!(looks_like_policy_kind(&r));
        r.group = "networking.k8s.io".into();
        r.kind = "NetworkPolicy".into();
        assert!(!looks_like_policy_kind(&r));
        r.group = "policy".into();
        assert!(!looks_like_policy_kind(&r));
        r.group = GATEWAY_GROUP.into();
        r.kind = "BackendTLSPolicy".into();
        assert!(looks_like_policy_kind(&r));
    }
}
