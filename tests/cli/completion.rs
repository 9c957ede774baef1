//! Shell completion: the committed scripts, `__complete` (cobra's protocol, which
//! kubectl speaks to plugins) and `completions/kubectl_complete-policies`.

use crate::command::{binary, hermetic, kp, on_path, path_with, repo};

/// `__complete WORDS`: the candidates (values only) and the directive.
fn complete(words: &[&str]) -> (Vec<String>, String) {
    let out = kp()
        .arg("__complete")
        .arg("--")
        .args(words)
        .output()
        .unwrap();
    assert!(out.status.success(), "{words:?}");
    parse(&String::from_utf8(out.stdout).unwrap())
}

fn parse(text: &str) -> (Vec<String>, String) {
    let mut lines: Vec<&str> = text.lines().collect();
    let directive = lines.pop().unwrap_or_default().to_string();
    let values = lines
        .iter()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    (values, directive)
}

#[test]
fn committed_completion_scripts_are_current() {
    for (shell, file) in [
        ("bash", "completions/kubectl-policies.bash"),
        ("zsh", "completions/_kubectl-policies"),
        ("fish", "completions/kubectl-policies.fish"),
    ] {
        let generated = kp().args(["completion", shell]).output().unwrap();
        assert!(generated.status.success());
        let committed = std::fs::read(repo(file)).unwrap_or_default();
        assert!(
            generated.stdout == committed,
            "{file} is stale; regenerate it with:\n  cargo run -- completion {shell} > {file}"
        );
    }
}

#[test]
fn completion_scripts_name_the_executable_and_not_the_hidden_command() {
    let bash = kp().args(["completion", "bash"]).output().unwrap().stdout;
    let bash = String::from_utf8(bash).unwrap();
    assert!(bash.contains("kubectl-policies"));
    assert!(bash.contains("graph"));
    assert!(!bash.contains("__complete"));
    kp().args(["completion", "powershell"]).assert().code(1);
}

#[test]
fn offers_commands_then_flags() {
    let (commands, directive) = complete(&[""]);
    for c in [
        "get",
        "describe",
        "effective",
        "tree",
        "blast-radius",
        "check",
        "graph",
        "completion",
    ] {
        assert!(commands.contains(&c.to_string()), "{c}: {commands:?}");
    }
    assert!(!commands.iter().any(|c| c.starts_with("__")));
    assert_eq!(directive, ":4", "no file names where a command goes");
    assert_eq!(complete(&["bl"]).0, ["blast-radius"]);
    let (flags, _) = complete(&["describe", "x/y", "--n"]);
    assert_eq!(flags, ["--namespace", "--no-headers"]);
    let (flags, _) = complete(&["-"]);
    assert!(flags.contains(&"-A".to_string()) && flags.contains(&"--demo".to_string()));
}

#[test]
fn offers_flag_values() {
    assert_eq!(
        complete(&["get", "-o", ""]).0,
        [
            "table",
            "wide",
            "json",
            "yaml",
            "name",
            "jsonpath=",
            "jsonpath-file=",
            "jsonpath-as-json=",
            "custom-columns=",
            "custom-columns-file="
        ]
    );
    assert_eq!(
        complete(&["get", "--sort-by", ".c"]).0,
        [".computed.status", ".computed.affects", ".computed.class"]
    );
    // A template follows `jsonpath=` without a space.
    assert_eq!(
        complete(&["get", "-o", "jsonp"]),
        (
            vec![
                "jsonpath=".to_string(),
                "jsonpath-file=".to_string(),
                "jsonpath-as-json=".to_string()
            ],
            ":6".to_string()
        )
    );
    // After `jsonpath-file=` (or `custom-columns-file=`), the file names it begins.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("names.tpl"), "{.items[*].metadata.name}").unwrap();
    std::fs::write(dir.path().join(".hidden.tpl"), "").unwrap();
    std::fs::create_dir(dir.path().join("more")).unwrap();
    let base = dir.path().display().to_string();
    assert_eq!(
        complete(&["get", "-o", &format!("jsonpath-file={base}/")]),
        (
            vec![
                format!("jsonpath-file={base}/more/"),
                format!("jsonpath-file={base}/names.tpl"),
            ],
            ":4".to_string()
        )
    );
    assert_eq!(
        complete(&["get", "-o", &format!("custom-columns-file={base}/m")]),
        (
            vec![format!("custom-columns-file={base}/more/")],
            ":6".to_string()
        )
    );
    assert_eq!(
        complete(&["get", "-o", &format!("jsonpath-file={base}/.h")]).0,
        [format!("jsonpath-file={base}/.hidden.tpl")]
    );
    assert_eq!(
        complete(&["get", "kinds", "-o", ""]).0,
        ["table", "wide", "json", "yaml"]
    );
    assert_eq!(complete(&["graph", "--output", ""]).0, ["dot", "mermaid"]);
    assert_eq!(complete(&["describe", "-o", "t"]).0, ["tree"]);
    assert_eq!(complete(&["--color", ""]).0, ["auto", "always", "never"]);
    assert_eq!(complete(&["completion", ""]).0, ["bash", "zsh", "fish"]);
    // `get` takes policies, kinds, or a policy kind (and then names).
    let get = complete(&["get", ""]).0;
    assert_eq!(get[..2], ["policies", "kinds"]);
    assert!(get.iter().any(|w| w == "backendtlspolicy"), "{get:?}");
    assert!(!get.iter().any(|w| w == "httproute"), "{get:?}");
    assert!(complete(&["get", "kinds", ""]).0.is_empty());
    // Paths are the shell's business: directive 0 lets it complete file names.
    assert_eq!(complete(&["-f", ""]), (vec![], ":0".to_string()));
    assert_eq!(complete(&["blast-radius", "--apply", ""]).1, ":0");
}

#[test]
fn offers_types_without_a_source_and_the_kinds_present_with_one() {
    let (types, _) = complete(&["describe", ""]);
    assert!(types.contains(&"httproute".to_string()));
    assert!(types.contains(&"ratelimitpolicy.kuadrant.io".to_string()));
    let (types, _) = complete(&["--demo", "describe", ""]);
    assert_eq!(
        types,
        [
            "backendtlspolicy",
            "backendtrafficpolicy",
            "clienttrafficpolicy",
            "gateway",
            "gatewayclass",
            "httproute",
            "retrypolicy",
            "service"
        ]
    );
    // blast-radius takes policies, and the kinds policies' specs may name (a Service).
    let (policies, _) = complete(&["--demo", "blast-radius", ""]);
    assert!(
        policies
            .iter()
            .all(|t| t.ends_with("policy") || t == "service"),
        "{policies:?}"
    );
    assert!(policies.contains(&"service".to_string()), "{policies:?}");
    let (objects, _) = complete(&["--demo", "tree", ""]);
    assert!(
        objects.iter().all(|t| !t.ends_with("policy")),
        "{objects:?}"
    );
}

#[test]
fn offers_object_names_from_the_demo() {
    let (names, directive) = complete(&["--demo", "describe", "httproute/"]);
    assert_eq!(
        names,
        [
            "httproute/baker",
            "httproute/glaze",
            "httproute/icing",
            "httproute/legacy",
            "httproute/oven",
            "httproute/sprinkles"
        ]
    );
    assert_eq!(directive, ":4");
    // With -n, only that namespace, in the spelling typed.
    assert_eq!(
        complete(&["--demo", "-n", "baker", "describe", "svc/o"]).0,
        ["svc/oven"]
    );
    assert_eq!(
        complete(&["--demo", "describe", "retrypolicy", "-n", "baker", ""]).0,
        ["baker-orders-retries", "ns-retries", "old-baker-retries"]
    );
    assert_eq!(complete(&["--demo", "tree", "gc/"]).0, ["gc/cupcake-class"]);
    assert_eq!(
        complete(&["--demo", "-n", ""]).0,
        ["baker", "frosting", "infra", "legacy"]
    );
}

#[test]
fn sections_after_a_hash_and_names_of_every_namespace_with_all_namespaces() {
    assert_eq!(
        complete(&["--demo", "-n", "baker", "describe", "httproute/baker#"]).0,
        ["httproute/baker#orders", "httproute/baker#rule-2"]
    );
    assert_eq!(
        complete(&["--demo", "-A", "effective", "gtw/cupcake-gw#https"]).0,
        ["gtw/cupcake-gw#https"]
    );
    assert_eq!(
        complete(&["--demo", "-n", "baker", "describe", "svc", "oven#"]).0,
        ["oven#http", "oven#https"]
    );
    // With -A, every namespace's, each saying where it is.
    let out = kp()
        .args(["__complete", "--", "--demo", "-A", "get", "retrypolicy", ""])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "baker-orders-retries\tnamespace baker\nns-retries\tnamespace baker\nold-baker-retries\tnamespace baker\n:4\n"
    );
    // Several objects: after one TYPE/NAME, another.
    assert_eq!(
        complete(&[
            "--demo",
            "-n",
            "baker",
            "describe",
            "httproute/baker",
            "svc/o"
        ])
        .0,
        ["svc/oven"]
    );
}

#[test]
fn names_outside_the_namespace_say_where_they_are() {
    let out = kp()
        .args(["__complete", "--", "--demo", "describe", "httproute/gl"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "httproute/glaze\tnamespace frosting\n:4\n"
    );
}

#[test]
fn offers_object_names_from_files() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("svc.yaml");
    std::fs::write(
        &f,
        "apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\n",
    )
    .unwrap();
    let path = f.to_str().unwrap();
    assert_eq!(
        complete(&["-f", path, "-n", "shop", "describe", "service/"]).0,
        ["service/web"]
    );
    // An unreadable source: cobra's error directive, nothing offered, nothing printed.
    let out = kp()
        .args([
            "__complete",
            "--",
            "-f",
            "/no/such/file",
            "describe",
            "svc/",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), ":1\n");
    assert!(out.stderr.is_empty());
}

/// The script kubectl runs, on its own: it hands the words to `kubectl-policies __complete`.
#[test]
fn kubectl_complete_script_forwards_the_words() {
    let script = repo("completions/kubectl_complete-policies");
    let bin_dir = binary().parent().unwrap().to_path_buf();
    let out = hermetic(&script)
        .args(["--demo", "describe", "httproute/b"])
        .env("PATH", path_with(&bin_dir))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "httproute/baker\tnamespace baker\n:4\n"
    );
}

/// kubectl itself (1.26 or newer) completing `kubectl policies ...`, where it is installed.
#[test]
fn kubectl_completes_the_plugin_through_the_script() {
    let Some(kubectl) = on_path("kubectl") else {
        eprintln!("note: kubectl is not on PATH; not checking kubectl's plugin completion");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(binary(), dir.path().join("kubectl-policies")).unwrap();
    std::fs::copy(
        repo("completions/kubectl_complete-policies"),
        dir.path().join("kubectl_complete-policies"),
    )
    .unwrap();
    let out = hermetic(kubectl)
        .args(["__complete", "policies", "--demo", "describe", "httproute/"])
        .env("PATH", path_with(dir.path()))
        .output()
        .unwrap();
    let (names, directive) = parse(&String::from_utf8(out.stdout).unwrap());
    assert!(names.contains(&"httproute/baker".to_string()), "{names:?}");
    assert_eq!(directive, ":4");
}

#[test]
fn offers_kubectls_connection_flags_and_the_selector() {
    let (flags, directive) = complete(&["get", "--"]);
    for f in [
        "--server",
        "--token",
        "--user",
        "--cluster",
        "--certificate-authority",
        "--client-certificate",
        "--client-key",
        "--insecure-skip-tls-verify",
        "--tls-server-name",
        "--as",
        "--as-group",
        "--as-uid",
        "--selector",
        "--request-timeout",
    ] {
        assert!(flags.contains(&f.to_string()), "{f}: {flags:?}");
    }
    assert_eq!(directive, ":4");
    let (flags, _) = complete(&["-"]);
    assert!(flags.contains(&"-s".to_string()) && flags.contains(&"-l".to_string()));
    assert_eq!(complete(&["--as"]).0, ["--as", "--as-group", "--as-uid"]);
    // Certificate and key files are the shell's to complete.
    for flag in [
        "--certificate-authority",
        "--client-certificate",
        "--client-key",
    ] {
        assert_eq!(complete(&[flag, ""]), (vec![], ":0".to_string()), "{flag}");
    }
    // `--insecure-skip-tls-verify` takes a value only after `=`: the next word is not it.
    assert_eq!(
        complete(&["--insecure-skip-tls-verify", "get", ""]).0[..2],
        ["policies", "kinds"]
    );
    assert_eq!(
        complete(&["--insecure-skip-tls-verify", ""]).0,
        complete(&[""]).0
    );
}

/// Windows has no sh: the archive for it carries a .cmd that does what the script does.
#[test]
fn the_windows_completion_script_forwards_the_words() {
    let cmd = std::fs::read_to_string(repo("completions/kubectl_complete-policies.cmd")).unwrap();
    assert!(
        cmd.lines()
            .any(|l| l.trim() == "kubectl-policies.exe __complete -- %*"),
        "{cmd}"
    );
}
