//! A synthetic large cluster for the benchmark (issue #7): writes one `kind: List` JSON
//! dump, the shape `kubectl get ... -A -o json` prints, to stdout.
//!
//! ```sh
//! cargo run --release --example synth -- --routes 20000 > target/bench/routes-20000.json
//! ```
//!
//! Deterministic: the same flags give the same bytes. What is in it, for N routes:
//! - 3 GatewayClasses; N/100 Gateways (4 listeners each: http, https, grpc, admin) in
//!   5 `gw-*` namespaces; the `admin` listener admits only namespaces labelled `tier: gold`.
//! - N/500 app namespaces (`app-00` …, at least 10, at most 60); route `route-NNNNN` lives
//!   in `app-{NNNNN % namespaces}`, with two rules (`api` named, the other not), attached
//!   to one or two Gateways, a third of them to one listener by sectionName; one Service
//!   per route (ports `http` and `metrics`).
//! - Inherited policies at every level: a labelled `RetryPolicy` CRD (GatewayClass
//!   overrides, Namespace patch defaults, rule-level defaults), Kuadrant
//!   `RateLimitPolicy` (Gateway merge defaults, some Gateway atomic overrides, route
//!   limits), Envoy Gateway `BackendTrafficPolicy` (Gateway, route with `mergeType`) and
//!   `ClientTrafficPolicy` (https listener), NGINX `ClientSettingsPolicy` (Gateway,
//!   route), Kuadrant `AuthPolicy` on route rules.
//! - Route-level policies on a tenth to a twentieth of the routes each; Direct
//!   `BackendTLSPolicy` on a fifth of the Services (a third of those on the `http` port
//!   only), with a newer conflicting one on every 100th; a few policies whose target is gone.
//! - Policies carry a controller's `status.ancestors` where the conflicts and the parable
//!   need one; other objects carry no status (the tool does not read it there).

use serde_json::{json, Value};
use std::io::Write;

/// SplitMix64: a small, seedable generator (no dependency needed for this).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

struct Opts {
    routes: usize,
    seed: u64,
}

fn parse_args() -> Result<Opts, String> {
    let mut o = Opts {
        routes: 20_000,
        seed: 7,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .and_then(|v| v.parse::<u64>().ok())
                .ok_or_else(|| format!("{name} needs a number"))
        };
        match a.as_str() {
            "--routes" => o.routes = value("--routes")? as usize,
            "--seed" => o.seed = value("--seed")?,
            "-h" | "--help" => {
                return Err("usage: synth [--routes N] [--seed S] > dump.json".into());
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(o)
}

const GW: &str = "gateway.networking.k8s.io";
const GW_V1: &str = "gateway.networking.k8s.io/v1";
const LISTENERS: &[&str] = &["http", "https", "grpc", "admin"];

/// A creationTimestamp `days` days and `secs` seconds after 2025-01-01.
fn timestamp(days: u64, secs: u64) -> String {
    // Months of 28 days keep the arithmetic obvious; every date is valid.
    let (month, day) = (days / 28 % 12 + 1, days % 28 + 1);
    let year = 2025 + days / (28 * 12);
    let (h, m, s) = (secs / 3600 % 24, secs / 60 % 60, secs % 60);
    format!("{year}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}Z")
}

/// Writes objects as items of one List, comma-separated, without holding them all.
struct Out<W: Write> {
    w: W,
    count: usize,
}

impl<W: Write> Out<W> {
    fn item(&mut self, v: Value) -> std::io::Result<()> {
        if self.count > 0 {
            self.w.write_all(b",\n")?;
        }
        self.count += 1;
        serde_json::to_writer(&mut self.w, &v)?;
        Ok(())
    }
}

fn meta(name: &str, ns: Option<&str>, ts: String) -> Value {
    let mut m = json!({"name": name, "creationTimestamp": ts});
    if let Some(ns) = ns {
        m["namespace"] = json!(ns);
    }
    m
}

/// `status.ancestors` as a controller writes it on a policy.
fn policy_status(ns: &str, gateway: &str) -> Value {
    json!({"ancestors": [{
        "ancestorRef": {"group": GW, "kind": "Gateway", "name": gateway, "namespace": ns},
        "controllerName": "example.com/gateway-controller",
        "conditions": [{"type": "Accepted", "status": "True", "reason": "Accepted",
            "message": "Policy has been accepted", "observedGeneration": 1,
            "lastTransitionTime": "2025-06-01T00:00:00Z"}]
    }]})
}

fn target(group: &str, kind: &str, name: &str, section: Option<&str>) -> Value {
    let mut t = json!({"group": group, "kind": kind, "name": name});
    if let Some(s) = section {
        t["sectionName"] = json!(s);
    }
    t
}

fn main() -> std::io::Result<()> {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut rng = Rng(o.seed);
    let n = o.routes;
    let n_ns = (n / 500).clamp(10, 60);
    let n_gw = (n / 100).max(4);
    let gw_ns = |g: usize| format!("gw-{}", g % 5);
    let stdout = std::io::stdout();
    let mut out = Out {
        w: std::io::BufWriter::with_capacity(1 << 20, stdout.lock()),
        count: 0,
    };
    out.w
        .write_all(b"{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[\n")?;

    // Namespaces: every third app namespace is gold tier (may use the admin listener).
    for i in 0..5 {
        let mut m = meta(&format!("gw-{i}"), None, timestamp(0, i));
        m["labels"] = json!({"kubernetes.io/metadata.name": format!("gw-{i}")});
        out.item(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": m}))?;
    }
    for i in 0..n_ns {
        let name = format!("app-{i:02}");
        let mut m = meta(&name, None, timestamp(10 + i as u64, 0));
        m["labels"] = json!({"kubernetes.io/metadata.name": name,
            "tier": if i % 3 == 0 { "gold" } else { "standard" }});
        out.item(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": m}))?;
    }

    // The labelled CRD that makes RetryPolicy an inherited policy kind.
    let mut crd_meta = meta("retrypolicies.resilience.example.io", None, timestamp(1, 0));
    crd_meta["labels"] = json!({"gateway.networking.k8s.io/policy": "inherited"});
    out.item(json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": crd_meta,
        "spec": {"group": "resilience.example.io", "scope": "Namespaced",
            "names": {"kind": "RetryPolicy", "listKind": "RetryPolicyList",
                "plural": "retrypolicies", "singular": "retrypolicy"},
            "versions": [{"name": "v1alpha1", "served": true, "storage": true}]}
    }))?;

    for c in 0..3 {
        out.item(json!({"apiVersion": GW_V1, "kind": "GatewayClass",
            "metadata": meta(&format!("class-{c}"), None, timestamp(2, c)),
            "spec": {"controllerName": "example.com/gateway-controller"}}))?;
    }

    for g in 0..n_gw {
        let listeners: Vec<Value> = LISTENERS
            .iter()
            .enumerate()
            .map(|(j, l)| {
                let port = [80, 443, 8443, 9443][j];
                let mut v = json!({"name": l, "port": port,
                    "protocol": if j == 0 { "HTTP" } else { "HTTPS" },
                    "allowedRoutes": {"namespaces": {"from": "All"}}});
                if *l == "admin" {
                    v["allowedRoutes"]["namespaces"] = json!({"from": "Selector",
                        "selector": {"matchLabels": {"tier": "gold"}}});
                }
                if j > 0 {
                    v["hostname"] = json!("*.example.com");
                    v["tls"] = json!({"mode": "Terminate",
                        "certificateRefs": [{"name": format!("gw-{g}-cert")}]});
                }
                v
            })
            .collect();
        out.item(json!({"apiVersion": GW_V1, "kind": "Gateway",
            "metadata": meta(&format!("gw-{g:03}"), Some(&gw_ns(g)), timestamp(3, g as u64)),
            "spec": {"gatewayClassName": format!("class-{}", g % 3), "listeners": listeners}}))?;
    }

    // Routes and their Services.
    for i in 0..n {
        let ns = format!("app-{:02}", i % n_ns);
        let name = format!("route-{i:05}");
        let created = timestamp(30 + rng.below(300), rng.below(86_400));
        let first = rng.below(n_gw as u64) as usize;
        let mut parents = vec![(first, None)];
        if rng.chance(40) {
            parents.push((
                (first + 1 + rng.below(n_gw as u64 - 1) as usize) % n_gw,
                None,
            ));
        }
        if rng.chance(33) {
            parents[0].1 = Some(LISTENERS[rng.below(3) as usize]);
        }
        let parent_refs: Vec<Value> = parents
            .iter()
            .map(|&(g, section)| {
                let mut p = json!({"group": GW, "kind": "Gateway",
                    "name": format!("gw-{g:03}"), "namespace": gw_ns(g)});
                if let Some(s) = section {
                    p["sectionName"] = json!(s);
                }
                p
            })
            .collect();
        let backend = json!([{"name": name, "port": 8080}]);
        out.item(json!({"apiVersion": GW_V1, "kind": "HTTPRoute",
            "metadata": meta(&name, Some(&ns), created.clone()),
            "spec": {"parentRefs": parent_refs,
                "hostnames": [format!("{name}.{ns}.example.com")],
                "rules": [
                    {"name": "api", "matches": [{"path": {"type": "PathPrefix", "value": "/api"}}],
                     "backendRefs": backend},
                    {"backendRefs": backend}]}}))?;
        out.item(json!({"apiVersion": "v1", "kind": "Service",
            "metadata": meta(&name, Some(&ns), created),
            "spec": {"selector": {"app": name},
                "ports": [
                    {"name": "http", "port": 8080, "targetPort": 8080},
                    {"name": "metrics", "port": 9090, "targetPort": 9090}]}}))?;
    }

    // ---- policies ----
    let policy = |api: &str, kind: &str, name: String, ns: &str, ts: String, spec: Value| json!({"apiVersion": api, "kind": kind, "metadata": meta(&name, Some(ns), ts), "spec": spec});
    const RETRY: &str = "resilience.example.io/v1alpha1";
    const EG: &str = "gateway.envoyproxy.io/v1alpha1";
    const KUADRANT: &str = "kuadrant.io/v1";
    const NGINX: &str = "gateway.nginx.org/v1alpha1";

    // GatewayClass level: retry overrides a platform team enforces everywhere.
    for c in 0..3 {
        out.item(policy(
            RETRY,
            "RetryPolicy",
            format!("class-{c}-retries"),
            "gw-0",
            timestamp(4, c),
            json!({"targetRef": target(GW, "GatewayClass", &format!("class-{c}"), None),
                "overrides": {"strategy": "patch", "perTryTimeout": "5s"}}),
        ))?;
    }
    // Gateway level.
    for g in 0..n_gw {
        let (ns, gname) = (gw_ns(g), format!("gw-{g:03}"));
        let ts = timestamp(5, g as u64);
        let mut p = policy(
            EG,
            "BackendTrafficPolicy",
            format!("{gname}-traffic"),
            &ns,
            ts.clone(),
            json!({"targetRefs": [target(GW, "Gateway", &gname, None)],
                "timeout": {"http": {"requestTimeout": "15s"}},
                "retry": {"numRetries": 1}}),
        );
        p["status"] = policy_status(&ns, &gname);
        out.item(p)?;
        out.item(policy(
            EG,
            "ClientTrafficPolicy",
            format!("{gname}-https"),
            &ns,
            ts.clone(),
            json!({"targetRefs": [target(GW, "Gateway", &gname, Some("https"))],
                "tls": {"minVersion": "1.3"}, "timeout": {"http": {"idleTimeout": "60s"}}}),
        ))?;
        // One Gateway in seven enforces its limits (atomic overrides); the rest set defaults
        // that routes may extend rule by rule.
        let limits = json!({"limits": {"global": {"rates": [{"limit": 1000, "window": "1s"}]},
            "per-client": {"rates": [{"limit": 50, "window": "1s"}],
                "counters": [{"expression": "auth.identity.sub"}]}}});
        let spec = if g % 7 == 0 {
            json!({"targetRef": target(GW, "Gateway", &gname, None),
                "overrides": {"strategy": "atomic", "limits": limits["limits"]}})
        } else {
            json!({"targetRef": target(GW, "Gateway", &gname, None),
                "defaults": {"strategy": "merge", "limits": limits["limits"]}})
        };
        out.item(policy(
            KUADRANT,
            "RateLimitPolicy",
            format!("{gname}-limits"),
            &ns,
            ts.clone(),
            spec,
        ))?;
        out.item(policy(
            NGINX,
            "ClientSettingsPolicy",
            format!("{gname}-client"),
            &ns,
            ts,
            json!({"targetRef": target(GW, "Gateway", &gname, None),
                "body": {"maxSize": "10m", "timeout": "30s"},
                "keepAlive": {"requests": 100, "time": "1h"}}),
        ))?;
    }
    // Namespace level: the retries every app namespace gets (GEP-713's parable, many times).
    for i in 0..n_ns {
        let ns = format!("app-{i:02}");
        let mut p = policy(
            RETRY,
            "RetryPolicy",
            "ns-retries".into(),
            &ns,
            timestamp(20, i as u64),
            json!({"targetRef": {"group": "", "kind": "Namespace", "name": ns},
                "defaults": {"strategy": "patch", "attempts": 5, "backoff": "2s",
                    "retryOn": ["5xx", "reset"]}}),
        );
        p["status"] = policy_status("gw-0", "gw-000");
        out.item(p)?;
        if i % 4 == 0 {
            out.item(policy(
                KUADRANT,
                "RateLimitPolicy",
                "ns-limits".into(),
                &ns,
                timestamp(21, i as u64),
                json!({"targetRef": {"group": "", "kind": "Namespace", "name": ns},
                    "defaults": {"strategy": "merge",
                        "limits": {"namespace": {"rates": [{"limit": 5000, "window": "1m"}]}}}}),
            ))?;
        }
    }
    // Route, rule and Service level.
    for i in 0..n {
        let ns = format!("app-{:02}", i % n_ns);
        let name = format!("route-{i:05}");
        let ts = timestamp(200 + rng.below(200), rng.below(86_400));
        if i % 10 == 0 {
            out.item(policy(
                EG,
                "BackendTrafficPolicy",
                format!("{name}-traffic"),
                &ns,
                ts.clone(),
                json!({"targetRefs": [target(GW, "HTTPRoute", &name, None)],
                    "mergeType": "JSONMerge",
                    "timeout": {"http": {"requestTimeout": "3s"}}}),
            ))?;
        }
        if i % 10 == 1 {
            out.item(policy(
                KUADRANT,
                "RateLimitPolicy",
                format!("{name}-limits"),
                &ns,
                ts.clone(),
                json!({"targetRef": target(GW, "HTTPRoute", &name, None),
                    "limits": {"global": {"rates": [{"limit": 100, "window": "1s"}]},
                        "login": {"rates": [{"limit": 5, "window": "1m"}]}}}),
            ))?;
        }
        if i % 16 == 2 {
            out.item(policy(
                NGINX,
                "ClientSettingsPolicy",
                format!("{name}-client"),
                &ns,
                ts.clone(),
                json!({"targetRef": target(GW, "HTTPRoute", &name, None),
                    "body": {"maxSize": "1m"}}),
            ))?;
        }
        if i % 10 == 3 {
            out.item(policy(
                RETRY,
                "RetryPolicy",
                format!("{name}-api-retries"),
                &ns,
                ts.clone(),
                json!({"targetRef": target(GW, "HTTPRoute", &name, Some("api")),
                    "defaults": {"strategy": "patch", "attempts": 2}}),
            ))?;
        }
        if i % 20 == 4 {
            out.item(policy(KUADRANT, "AuthPolicy", format!("{name}-api-auth"), &ns, ts.clone(),
                json!({"targetRef": target(GW, "HTTPRoute", &name, Some("api")),
                    "rules": {"authentication": {"jwt": {"jwt": {"issuerUrl": "https://id.example.com"}}}}})))?;
        }
        if i % 5 == 0 {
            let section = (i % 15 == 0).then_some("http");
            let tls = |host: &str| {
                json!({"targetRefs": [target("", "Service", &name, section)],
                    "validation": {"hostname": host, "wellKnownCACertificates": "System"}})
            };
            out.item(policy(
                GW_V1,
                "BackendTLSPolicy",
                format!("{name}-tls"),
                &ns,
                ts.clone(),
                tls(&format!("{name}.{ns}.svc")),
            ))?;
            if i % 100 == 0 {
                // Newer, so it loses (Conflicted), though its controller says Accepted.
                let mut p = policy(
                    GW_V1,
                    "BackendTLSPolicy",
                    format!("{name}-tls-new"),
                    &ns,
                    timestamp(500, i as u64),
                    tls(&format!("{name}.internal")),
                );
                p["status"] = policy_status(&gw_ns(0), "gw-000");
                out.item(p)?;
            }
        }
        if i % 1000 == 5 {
            // Left behind after its route was renamed.
            out.item(policy(
                RETRY,
                "RetryPolicy",
                format!("{name}-old-retries"),
                &ns,
                ts,
                json!({"targetRef": target(GW, "HTTPRoute", &format!("{name}-v1"), None),
                    "defaults": {"attempts": 3}}),
            ))?;
        }
    }
    out.w
        .write_all(b"\n],\"metadata\":{\"resourceVersion\":\"\"}}\n")?;
    out.w.flush()?;
    eprintln!(
        "synth: {} objects ({n} routes, {n_ns} app namespaces, {n_gw} Gateways)",
        out.count
    );
    Ok(())
}
