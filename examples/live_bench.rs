//! The live path's benchmark (issue #4): serves a cluster dump from the loopback fake
//! API server with latency on every request, and times, side by side in one run:
//!
//! - `get -A` (cluster-wide reads): its wall time against the sum of the request
//!   times the server logged — the reads must overlap (at most a third);
//! - a scoped `describe` of one route against `kubectl get httproutes -A` on the same
//!   server (at most a half).
//!
//! ```sh
//! cargo build --release
//! cargo run --release --example synth -- --routes 20000 > target/routes-20000.json
//! cargo run --release --example live_bench -- --dump target/routes-20000.json
//! ```
//! Options: `--latency-ms N` (100), `--reps N` (3), `--bin PATH` (the release binary).

#[path = "../tests/support/fake_apiserver/mod.rs"]
mod fake_apiserver;

use fake_apiserver::FakeApi;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

struct Opts {
    dump: PathBuf,
    latency: Duration,
    reps: usize,
    bin: PathBuf,
}

fn parse() -> Result<Opts, String> {
    let mut dump = None;
    let mut latency = Duration::from_millis(100);
    let mut reps = 3;
    let mut bin = PathBuf::from("target/release/kubectl-policies");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--dump" => dump = Some(PathBuf::from(value()?)),
            "--latency-ms" => {
                latency = Duration::from_millis(value()?.parse().map_err(|e| format!("{e}"))?)
            }
            "--reps" => reps = value()?.parse().map_err(|e| format!("{e}"))?,
            "--bin" => bin = PathBuf::from(value()?),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(Opts {
        dump: dump
            .ok_or("--dump PATH is required (a kind: List JSON, e.g. from the synth example)")?,
        latency,
        reps,
        bin,
    })
}

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join(name))
            .find(|p| p.is_file())
    })
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Runs a command `reps` times; returns the median wall time. Fails loudly on a
/// non-zero exit so a broken run never becomes a figure.
fn time(reps: usize, mut make: impl FnMut() -> Command) -> Duration {
    let mut times = Vec::new();
    for _ in 0..reps {
        let mut c = make();
        let started = Instant::now();
        let out = c.output().expect("command runs");
        let took = started.elapsed();
        assert!(
            out.status.success(),
            "{c:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        times.push(took);
    }
    median(times)
}

fn main() {
    let opts = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("live_bench: {e}");
            std::process::exit(1);
        }
    };
    if !opts.bin.is_file() {
        eprintln!(
            "live_bench: {} not found: run `cargo build --release` first",
            opts.bin.display()
        );
        std::process::exit(1);
    }
    let text = std::fs::read(&opts.dump).expect("read the dump");
    let list: Value = serde_json::from_slice(&text).expect("the dump is JSON");
    let items = list["items"].as_array().cloned().unwrap_or_default();
    let routes: Vec<&Value> = items.iter().filter(|o| o["kind"] == "HTTPRoute").collect();
    let probe = routes.first().expect("the dump has HTTPRoutes");
    let probe_name = probe["metadata"]["name"].as_str().unwrap().to_string();
    let probe_ns = probe["metadata"]["namespace"].as_str().unwrap().to_string();
    let n_routes = routes.len();
    let n_objects = items.len();

    let server = FakeApi::new(items).latency(opts.latency).start();
    let home = tempfile::tempdir().expect("temp dir");
    let kubeconfig = home.path().join("kubeconfig");
    std::fs::write(&kubeconfig, server.kubeconfig("bench", None)).unwrap();
    let ours = |args: &[&str]| {
        let mut c = Command::new(&opts.bin);
        c.env("KUBECONFIG", &kubeconfig)
            .env("HOME", home.path())
            .args(args);
        c
    };

    println!(
        "live benchmark: {} ({n_objects} objects, {n_routes} HTTPRoutes), {} ms latency per request, median of {} runs",
        opts.dump.display(),
        opts.latency.as_millis(),
        opts.reps
    );

    // 1. Overlap: one cluster-wide read, its wall time against the requests' sum.
    let before = server.requests().len();
    let started = Instant::now();
    let out = ours(&["get", "-A", "-o", "name"]).output().unwrap();
    let wall = started.elapsed();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reqs = server.requests();
    let run = &reqs[before..];
    let sum: Duration = run.iter().map(|r| r.took).sum();
    let first = run.iter().map(|r| r.started).min().unwrap();
    let last = run.iter().map(|r| r.started + r.took).max().unwrap();
    let span = last - first;
    println!();
    println!(
        "get -A (cluster-wide): {} requests; sum of request times {:.2}s; reads span {:.2}s (span/sum = {:.2}, target <= 0.33); process wall {:.2}s",
        run.len(),
        sum.as_secs_f64(),
        span.as_secs_f64(),
        span.as_secs_f64() / sum.as_secs_f64(),
        wall.as_secs_f64()
    );

    // 2. Scoped describe against kubectl listing every route.
    let describe = time(opts.reps, || {
        ours(&[
            "describe",
            &format!("httproute/{probe_name}"),
            "-n",
            &probe_ns,
        ])
    });
    let before = server.requests().len();
    let _ = ours(&[
        "describe",
        &format!("httproute/{probe_name}"),
        "-n",
        &probe_ns,
    ])
    .output();
    let describe_requests = server.requests().len() - before;
    println!(
        "describe httproute/{probe_name} -n {probe_ns} (scoped): {:.2}s, {describe_requests} requests",
        describe.as_secs_f64()
    );
    match on_path("kubectl") {
        Some(kubectl) => {
            let cache = home.path().join("kubectl-cache");
            let kubectl_cmd = || {
                let mut c = Command::new(&kubectl);
                c.env("KUBECONFIG", &kubeconfig)
                    .env("HOME", home.path())
                    .env("KUBECACHEDIR", &cache)
                    .args(["get", "httproutes", "-A"]);
                c
            };
            // Warm kubectl's discovery cache first, as a user's would be.
            let _ = kubectl_cmd().output();
            let kubectl_time = time(opts.reps, kubectl_cmd);
            println!(
                "kubectl get httproutes -A: {:.2}s",
                kubectl_time.as_secs_f64()
            );
            println!(
                "describe / kubectl = {:.2} (target < 0.5)",
                describe.as_secs_f64() / kubectl_time.as_secs_f64()
            );
        }
        None => println!("kubectl is not on PATH: the describe/kubectl ratio was not measured"),
    }
}
