//! `get -w`'s re-answer benchmark (issue #29): builds the world from a cluster dump (the
//! synthetic one of `scripts/bench.sh`), then applies one change at a time, as the
//! watches would hand it over, and times, side by side in one run:
//!
//! - the re-answer: `Watched::apply` and `Watched::answer` (the rows that changed);
//!   after an answer in full, what the next answers are counted from is counted once
//!   its rows are printed (`Watched::forget_first`): timed apart, in the last column;
//! - a full `get -A` analysis of the same objects: `analyze` and `policy_rows` (no
//!   parsing: the objects are already in hand, as they are for the watch).
//!
//! Each re-answer is also checked against the full one (the same rows, or it fails).
//!
//! ```sh
//! cargo run --release --example synth -- --routes 20000 > target/bench/routes-20000-seed-7.json
//! cargo run --release --example watch_bench -- --dump target/bench/routes-20000-seed-7.json
//! ```
//! Options: `--reps N` (3): each change is applied and undone N times; medians;
//! `--only TEXT`: only the changes whose description contains TEXT. The first answer
//! is timed against a full analysis too, `N` times: the first table (`Watched::new`),
//! and the state the answers after it are counted from, which the command line counts
//! once the table is printed (`Watched::forget_first`). Beside each time ratio, the
//! ratio of the CPU time the process's threads ran (Linux), which depends less on what
//! else runs on the machine.

use kubectl_policies::model::watch::Change;
use kubectl_policies::model::{Object, Snapshot};
use kubectl_policies::query::watch::Watched;
use kubectl_policies::query::{analyze, policy_rows, PolicyRow};
use kubectl_policies::source::files::{self, load_text, Loaded};
use std::time::{Duration, Instant};

fn main() {
    let mut dump = None;
    let mut reps = 3usize;
    let mut only: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--dump" => dump = args.next(),
            "--reps" => reps = args.next().and_then(|n| n.parse().ok()).unwrap_or(3),
            "--only" => only = args.next(),
            other => {
                eprintln!("unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    let Some(dump) = dump else {
        eprintln!("--dump PATH is required (a kind: List JSON, e.g. from the synth example)");
        std::process::exit(2);
    };
    let started = Instant::now();
    let mut loaded = match files::load_paths(std::slice::from_ref(&dump)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{dump}: {e:#}");
            std::process::exit(1);
        }
    };
    loaded.snapshot.settle();
    let all = loaded.snapshot.objects;
    eprintln!("read {} objects in {:?}", all.len(), started.elapsed());
    // The first table (`Watched::new`), then the state the answers after it are counted
    // from (`forget_first`, once the table is printed), against a full `get -A` analysis
    // of the same objects, side by side.
    let (mut first, mut state, mut full) = (Vec::new(), Vec::new(), Vec::new());
    let (mut first_cpu, mut state_cpu, mut full_cpu) = (Vec::new(), Vec::new(), Vec::new());
    let mut w = None;
    for _ in 0..reps {
        let c = cpu();
        let t = Instant::now();
        let mut fresh = Watched::new(
            Snapshot {
                objects: all.clone(),
                ..Snapshot::default()
            },
            &[],
        );
        first.push(t.elapsed());
        first_cpu.push(cpu().saturating_sub(c));
        let rows = fresh.rows();
        let c = cpu();
        let t = Instant::now();
        fresh.forget_first();
        state.push(t.elapsed());
        state_cpu.push(cpu().saturating_sub(c));
        // The last one is kept (the one before is let go outside the timing).
        drop(w.replace(fresh));
        let c = cpu();
        let t = Instant::now();
        let full_rows = full_rows(&all);
        full.push(t.elapsed());
        full_cpu.push(cpu().saturating_sub(c));
        assert_eq!(json(&rows), json(&full_rows), "the first answer differs");
    }
    let (f1, s1, f2) = (median(&mut first), median(&mut state), median(&mut full));
    let (c1, cs, c2) = (
        median(&mut first_cpu),
        median(&mut state_cpu),
        median(&mut full_cpu),
    );
    println!(
        "first table: {} against a full get -A analysis in {}: {:.3}× (CPU time: {} against {}, {:.3}×)",
        ms(f1),
        ms(f2),
        f1.as_secs_f64() / f2.as_secs_f64(),
        ms(c1),
        ms(c2),
        c1.as_secs_f64() / c2.as_secs_f64()
    );
    println!(
        "then the state counted after it is printed: {} ({:.3}×; CPU time {}, {:.3}×)\n",
        ms(s1),
        s1.as_secs_f64() / f2.as_secs_f64(),
        ms(cs),
        cs.as_secs_f64() / c2.as_secs_f64()
    );
    let Some(mut w) = w else {
        eprintln!("--reps must be at least 1");
        std::process::exit(2);
    };
    let find = |kind: &str, ns: &str, name: &str| -> Object {
        all.iter()
            .find(|o| &*o.kind == kind && o.namespace.as_deref() == Some(ns) && &*o.name == name)
            .cloned()
            .unwrap_or_else(|| panic!("no {kind} {ns}/{name} in the dump"))
    };
    let new_route = one(r#"
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: route-watch-new, namespace: app-00, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  parentRefs: [{name: gw-000, namespace: gw-0}]
  hostnames: [watch-new.app-00.example.com]
  rules: [{backendRefs: [{name: route-00000, port: 8080}]}]
"#);
    let in_app = |kind: &str, target: &str| {
        all.iter()
            .find(|o| {
                &*o.kind == kind
                    && o.namespace.as_deref() == Some("app-00")
                    && ["/targetRef/kind", "/targetRefs/0/kind"]
                        .iter()
                        .any(|p| o.spec.pointer(p).and_then(|k| k.as_str()) == Some(target))
            })
            .cloned()
            .unwrap_or_else(|| panic!("no {kind} on a {target} in app-00"))
    };
    let route_policy = in_app("BackendTrafficPolicy", "HTTPRoute");
    let namespace_policy = in_app("RetryPolicy", "Namespace");
    let service = find("Service", "app-00", "route-00000");
    let gateway_policy = find("BackendTrafficPolicy", "gw-0", "gw-000-traffic");
    let class_policy = find("RetryPolicy", "gw-0", "class-0-retries");
    let gateway = find("Gateway", "gw-0", "gw-000");
    let class = all
        .iter()
        .find(|o| &*o.kind == "GatewayClass" && &*o.name == "class-0")
        .cloned()
        .expect("no GatewayClass class-0 in the dump");
    type Case = (&'static str, Vec<Change>, Vec<Change>);
    let cases: Vec<Case> = vec![
        (
            "a route added under a Gateway (app-00)",
            vec![Change::Applied(new_route.clone())],
            vec![Change::Deleted(new_route.obj_ref())],
        ),
        (
            "a route's BackendTrafficPolicy deleted (app-00)",
            vec![Change::Deleted(route_policy.obj_ref())],
            vec![Change::Applied(route_policy.clone())],
        ),
        (
            "a Namespace's RetryPolicy deleted (app-00)",
            vec![Change::Deleted(namespace_policy.obj_ref())],
            vec![Change::Applied(namespace_policy.clone())],
        ),
        (
            "a Service deleted (app-00)",
            vec![Change::Deleted(service.obj_ref())],
            vec![Change::Applied(service.clone())],
        ),
        (
            "a Gateway's BackendTrafficPolicy deleted (gw-0)",
            vec![Change::Deleted(gateway_policy.obj_ref())],
            vec![Change::Applied(gateway_policy.clone())],
        ),
        (
            "a Gateway deleted (gw-0, routes in every app namespace)",
            vec![Change::Deleted(gateway.obj_ref())],
            vec![Change::Applied(gateway.clone())],
        ),
        (
            "a GatewayClass deleted (class-0, a third of the Gateways)",
            vec![Change::Deleted(class.obj_ref())],
            vec![Change::Applied(class.clone())],
        ),
        (
            "a GatewayClass's RetryPolicy deleted (gw-0)",
            vec![Change::Deleted(class_policy.obj_ref())],
            vec![Change::Applied(class_policy.clone())],
        ),
    ];
    println!(
        "| change | re-answer (median) | full get -A analysis (median) | ratio | CPU time ratio | rows changed | how | then, after printing: state counted (ratio, CPU ratio) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---|---:|");
    for (what, change, undo) in cases {
        if only.as_deref().is_some_and(|o| !what.contains(o)) {
            continue;
        }
        let (mut inc, mut full) = (Vec::new(), Vec::new());
        let (mut inc_cpu, mut full_cpu) = (Vec::new(), Vec::new());
        let (mut after, mut after_cpu) = (Vec::new(), Vec::new());
        let mut changed_rows = 0;
        let mut how = "";
        for _ in 0..reps {
            let before = w.answered;
            let c = cpu();
            let t = Instant::now();
            w.apply(clone_changes(&change));
            changed_rows = {
                let a = w.answer();
                a.changed.len() + a.deleted.len()
            };
            inc.push(t.elapsed());
            inc_cpu.push(cpu().saturating_sub(c));
            // What the next answers are counted from, after an answer in full (the
            // command line does it once the rows are printed).
            let c = cpu();
            let t = Instant::now();
            w.forget_first();
            after.push(t.elapsed());
            after_cpu.push(cpu().saturating_sub(c));
            how = if w.answered.1 > before.1 {
                "the namespaces it touches"
            } else if w.answered.2 > before.2 {
                "its policy kind folded again"
            } else {
                "in full"
            };
            let now = objects_after(&all, &change);
            let c = cpu();
            let t = Instant::now();
            let rows = full_rows(&now);
            full.push(t.elapsed());
            full_cpu.push(cpu().saturating_sub(c));
            assert_eq!(json(&w.rows()), json(&rows), "{what}: re-answer differs");
            w.apply(clone_changes(&undo));
            w.answer();
            w.forget_first();
        }
        let (i, f) = (median(&mut inc), median(&mut full));
        let (ic, fc) = (median(&mut inc_cpu), median(&mut full_cpu));
        let (a, ac) = (median(&mut after), median(&mut after_cpu));
        println!(
            "| {what} | {} | {} | {:.3}× | {:.3}× | {changed_rows} | {how} | {} ({:.3}×, {:.3}×) |",
            ms(i),
            ms(f),
            i.as_secs_f64() / f.as_secs_f64(),
            ic.as_secs_f64() / fc.as_secs_f64(),
            ms(a),
            a.as_secs_f64() / f.as_secs_f64(),
            ac.as_secs_f64() / fc.as_secs_f64()
        );
    }
}

fn one(yaml: &str) -> Object {
    let mut loaded = Loaded::default();
    load_text(yaml, "<bench>", &mut loaded).expect("the bench's YAML");
    loaded.snapshot.settle();
    loaded.snapshot.objects.remove(0)
}

fn clone_changes(c: &[Change]) -> Vec<Change> {
    c.iter()
        .map(|c| match c {
            Change::Applied(o) => Change::Applied(o.clone()),
            Change::Deleted(r) => Change::Deleted(r.clone()),
            _ => unreachable!("the bench only adds and deletes"),
        })
        .collect()
}

fn objects_after(all: &[Object], change: &[Change]) -> Vec<Object> {
    let mut now: Vec<Object> = all.to_vec();
    for c in change {
        match c {
            Change::Applied(o) => now.push(o.clone()),
            Change::Deleted(r) => now.retain(|o| o.obj_ref() != *r),
            _ => {}
        }
    }
    now
}

fn full_rows(objects: &[Object]) -> Vec<PolicyRow> {
    let w = analyze(
        Snapshot {
            objects: objects.to_vec(),
            ..Snapshot::default()
        },
        &[],
        &[],
    );
    policy_rows(&w, None)
}

fn json(rows: &[PolicyRow]) -> String {
    format!("{rows:?}")
}

/// The CPU time this process's threads have run so far (Linux: each thread's
/// `schedstat`; zero elsewhere). On a machine shared with other work it varies less
/// than the time taken.
fn cpu() -> Duration {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Duration::ZERO;
    };
    let ns: u64 = tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum();
    Duration::from_nanos(ns)
}

fn median(d: &mut [Duration]) -> Duration {
    d.sort();
    d[d.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}
