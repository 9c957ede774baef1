//! Every command in every output format it has, on every object of the demo and of each
//! file of tests/fixtures, as a user types it: each run answers (exit 0, or 1 with its
//! reason on stderr), none panics (exit 101) or hangs. The scenario tests' literal YAML
//! is swept the same way in-process (tests/scenarios/sweep.rs).

use crate::command::{kp, repo};
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::Duration;

/// The formats of each command (docs/reference.md); "" is the default.
const GET: &[&str] = &["", "wide", "name", "json", "yaml"];
const GET_KINDS: &[&str] = &["", "wide", "json", "yaml"];
const CHECK: &[&str] = &["", "json", "yaml"];
const TREE: &[&str] = &["", "json", "yaml"];
const GRAPH: &[&str] = &["", "mermaid"];
const DESCRIBE: &[&str] = &["", "wide", "json", "yaml", "tree"];
const EFFECTIVE: &[&str] = &["", "json", "yaml"];
const BLAST: &[&str] = &["", "json", "yaml"];

/// What one run said: its exit code (None: killed, or past the timeout), stdout, stderr.
struct Ran {
    args: Vec<String>,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(args: &[String]) -> Ran {
    let out = kp().args(args).timeout(Duration::from_secs(60)).output();
    let (code, stdout, stderr) = match out {
        Ok(o) => (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        ),
        Err(e) => (None, String::new(), e.to_string()),
    };
    Ran {
        args: args.to_vec(),
        code,
        stdout,
        stderr,
    }
}

/// Each command line in `formats`, run.
fn with_formats(input: &[&str], command: &[&str], formats: &[&str]) -> Vec<Vec<String>> {
    formats
        .iter()
        .map(|f| {
            let mut args: Vec<String> =
                input.iter().chain(command).map(|s| s.to_string()).collect();
            if !f.is_empty() {
                args.extend(["-o".to_string(), f.to_string()]);
            }
            args
        })
        .collect()
}

/// TYPE/NAME and the namespace flag of an object as `dump` or `get -o json` writes it.
fn named(item: &Value) -> (String, Vec<String>) {
    let kind = item["kind"].as_str().unwrap_or_default().to_lowercase();
    let api = item["apiVersion"].as_str().unwrap_or_default();
    let ty = match api.split_once('/') {
        Some((group, _)) => format!("{kind}.{group}"),
        None => kind,
    };
    let name = item["metadata"]["name"].as_str().unwrap_or_default();
    let ns = item["metadata"]["namespace"].as_str();
    let flags = ns.map_or_else(|| vec!["-A".to_string()], |ns| vec!["-n".into(), ns.into()]);
    (format!("{ty}/{name}"), flags)
}

/// `args`, run two at a time.
fn run_all(jobs: Vec<Vec<String>>) -> Vec<Ran> {
    let jobs = Mutex::new(jobs.into_iter());
    let done = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(args) = jobs.lock().unwrap().next() else {
                    break;
                };
                let ran = run(&args);
                done.lock().unwrap().push(ran);
            });
        }
    });
    done.into_inner().unwrap()
}

/// Each run answered: exit 0, or 1 with its reason on stderr (`check`: its findings on
/// stdout); never a panic or a hang.
fn assert_answered(runs: &[Ran]) {
    let failed: Vec<String> = runs
        .iter()
        .filter(|r| {
            let panicked = r.stderr.contains("panicked");
            // `check` exits 1 on an error-level finding, which it prints on stdout.
            let checked = r.args.iter().any(|a| a == "check") && !r.stdout.is_empty();
            let reasoned = r.code == Some(1) && (checked || !r.stderr.trim().is_empty());
            panicked || !(r.code == Some(0) || reasoned)
        })
        .map(|r| format!("{:?} exit {:?}: {}", r.args, r.code, r.stderr.trim()))
        .collect();
    assert!(
        failed.is_empty(),
        "{} runs failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// Every command on `input` (`--demo`, or `-f FILE`). Returns how many runs were made.
fn sweep(input: &[&str]) -> usize {
    let all =
        |c: &[&str]| -> Vec<String> { input.iter().chain(c).map(|s| s.to_string()).collect() };
    let dump = run(&all(&["dump", "-A", "-o", "json"]));
    let objects: Vec<Value> = serde_json::from_str::<Value>(&dump.stdout)
        .map(|v| v["items"].as_array().cloned().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{input:?} dump: {e}: {}", dump.stderr));
    assert!(!objects.is_empty(), "{input:?}: no object");
    let got = run(&all(&["get", "-A", "-o", "json"]));
    let policies: Vec<Value> = serde_json::from_str::<Value>(&got.stdout)
        .map(|v| v["items"].as_array().cloned().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{input:?} get: {e}: {}", got.stderr));
    let mut jobs = Vec::new();
    jobs.extend(with_formats(input, &["get", "-A"], GET));
    jobs.extend(with_formats(input, &["get", "kinds"], GET_KINDS));
    jobs.extend(with_formats(input, &["check", "-A"], CHECK));
    jobs.extend(with_formats(input, &["tree", "-A"], TREE));
    jobs.extend(with_formats(input, &["graph", "-A"], GRAPH));
    for o in &objects {
        let (subject, ns) = named(o);
        let at = |c: &str| -> Vec<String> {
            let mut a = vec![c.to_string(), subject.clone()];
            a.extend(ns.iter().cloned());
            a
        };
        for (c, formats) in [
            ("describe", DESCRIBE),
            ("effective", EFFECTIVE),
            ("tree", TREE),
            ("graph", GRAPH),
            ("blast-radius", BLAST),
        ] {
            let words = at(c);
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            jobs.extend(with_formats(input, &words, formats));
        }
    }
    // What each policy names (a Secret, a ConfigMap, a Service), there or not: its
    // describe and blast radius.
    let described = run_all(
        policies
            .iter()
            .map(|p| {
                let (subject, ns) = named(p);
                let mut a: Vec<String> = input.iter().map(|s| s.to_string()).collect();
                a.extend(["describe".to_string(), subject]);
                a.extend(ns);
                a.extend(["-o".to_string(), "json".to_string()]);
                a
            })
            .collect(),
    );
    for d in &described {
        assert_eq!(d.code, Some(0), "{:?}: {}", d.args, d.stderr);
    }
    let mut names = BTreeSet::new();
    for d in &described {
        let v: Value = serde_json::from_str(&d.stdout).unwrap();
        for r in v["references"].as_array().into_iter().flatten() {
            let t = &r["target"];
            let kind = t["kind"].as_str().unwrap_or_default().to_lowercase();
            let ty = match t["group"].as_str().unwrap_or_default() {
                "" => kind,
                group => format!("{kind}.{group}"),
            };
            let name = t["name"].as_str().unwrap_or_default().to_string();
            let ns = t["namespace"].as_str().map(str::to_string);
            names.insert((format!("{ty}/{name}"), ns));
        }
    }
    for (subject, ns) in &names {
        for (c, formats) in [("describe", DESCRIBE), ("blast-radius", BLAST)] {
            let mut words = vec![c, subject.as_str()];
            if let Some(ns) = ns {
                words.extend(["-n", ns.as_str()]);
            }
            jobs.extend(with_formats(input, &words, formats));
        }
    }
    let runs = run_all(jobs);
    assert_answered(&described);
    assert_answered(&runs);
    // Every policy is described and has a blast radius, in every format.
    for p in &policies {
        let (subject, _) = named(p);
        let mine = runs.iter().filter(|r| r.args.contains(&subject));
        let answered = mine
            .filter(|r| {
                r.args
                    .iter()
                    .any(|a| a == "blast-radius" || a == "describe")
            })
            .filter(|r| r.code == Some(0))
            .count();
        assert!(
            answered >= DESCRIBE.len() + BLAST.len(),
            "{subject}: {answered} answered"
        );
    }
    let n = runs.len() + described.len() + 2;
    eprintln!("{input:?}: {n} runs");
    n
}

#[test]
fn every_command_answers_in_every_format_on_the_demo() {
    let runs = sweep(&["--demo"]);
    assert!(runs > 300, "{runs} runs");
}

#[test]
fn every_command_answers_in_every_format_on_each_fixture() {
    let mut files: Vec<_> = std::fs::read_dir(repo("tests/fixtures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for f in files {
        let path = f.to_str().unwrap();
        sweep(&["-f", path]);
    }
}

#[test]
fn the_blast_radius_of_a_shared_port_kind_answers_on_the_demo() {
    // A ClientTrafficPolicy's kind has a shared-port rule: its blast radius is
    // answered by analysing the world again, which a world whose links were released
    // could not be (it panicked here).
    let out = kp()
        .args([
            "--demo",
            "blast-radius",
            "clienttrafficpolicy/https-listener",
            "-n",
            "infra",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.starts_with("Deleting ClientTrafficPolicy infra/https-listener changes the effective ClientTrafficPolicy of 1 Gateway and 3 HTTPRoutes"),
        "{text}"
    );
    assert!(text.contains("/tls/minVersion: \"1.3\" → -"), "{text}");
}

#[test]
fn the_blast_radius_of_an_object_of_a_kind_known_only_from_the_input_answers() {
    // `backend` resolves only once the input is read (no built-in kind is named so):
    // it was analysed as a policy's reach, its links released, then deleted from a
    // copy analysed again, and panicked.
    let yaml = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: eg
  listeners: [{name: http, port: 80, protocol: HTTP}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: gw}]
  rules: [{backendRefs: [{name: svc, port: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: app}
spec: {ports: [{port: 80}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: be, namespace: app}
spec: {endpoints: [{fqdn: {hostname: x.example, port: 443}}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyExtensionPolicy
metadata: {name: ext, namespace: app}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: r}]
  extProc: [{backendRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: be, port: 443}]}]
"#;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("backend.yaml");
    std::fs::write(&file, yaml).unwrap();
    let out = kp()
        .arg("-f")
        .arg(&file)
        .args(["blast-radius", "backend/be", "-n", "app"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.starts_with("Deleting Backend app/be makes EnvoyExtensionPolicy app/ext Invalid"),
        "{text}"
    );
}
