//! `diff --from … --to …` as a reviewer's pipeline runs it, on two fixture directories
//! (tests/fixtures/diff: base and head): a deleted policy (`shop-retries`), a
//! retargeted one (`slow-pay`), a route moved to another Gateway (`shop`), and a
//! Secret removed that a policy names (`admin-users`). The JSON is checked, the human
//! and Markdown outputs are snapshots, and the Markdown is parsed back into its tables
//! and `<details>` blocks.

use crate::command::{kp, repo};
use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use serde_json::Value;

/// (exit code, stdout, stderr) of `kubectl policies ARGS` run in tests/fixtures/diff.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    run_with(args, None)
}

fn run_with(args: &[&str], stdin: Option<&str>) -> (Option<i32>, String, String) {
    let mut cmd = kp();
    cmd.current_dir(repo("tests/fixtures/diff"))
        .args(["--color", "never"])
        .args(args);
    if let Some(text) = stdin {
        cmd.write_stdin(text);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Stdout of a diff of base to head that must answer (exit 0).
fn plan(extra: &[&str]) -> String {
    let mut args = vec!["diff", "--from", "base", "--to", "head"];
    args.extend(extra);
    let (code, out, err) = run(&args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    out
}

fn named<'a>(list: &'a Value, name: &str) -> &'a Value {
    list.as_array()
        .unwrap()
        .iter()
        .find(|v| v["policy"]["name"] == name)
        .unwrap_or_else(|| panic!("{name} not in {list}"))
}

#[test]
fn diff_json_says_what_each_change_does() {
    let d: Value = serde_json::from_str(&plan(&["-o", "json"])).unwrap();
    assert_eq!(d["kind"], "PolicyDiff");
    assert_eq!(d["from"], serde_json::json!(["base"]));
    let objects: Vec<(String, String)> = d["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                format!(
                    "{}/{}",
                    o["object"]["kind"].as_str().unwrap(),
                    o["object"]["name"].as_str().unwrap()
                ),
                o["change"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        objects,
        [
            ("BackendTrafficPolicy/shop-retries", "deleted"),
            ("BackendTrafficPolicy/slow-pay", "changed"),
            ("HTTPRoute/shop", "changed"),
            ("Secret/admin-users", "deleted"),
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    // The deleted policy, the retargeted one, and the one whose Secret is gone.
    let verdicts = &d["verdicts"];
    let deleted = named(verdicts, "shop-retries");
    assert_eq!(deleted["after"], Value::Null);
    assert_eq!(deleted["reasons"], serde_json::json!(["deleted"]));
    let moved = named(verdicts, "slow-pay");
    assert_eq!(moved["before"]["targets"][0]["sectionName"], "pay");
    assert_eq!(moved["after"]["targets"][0]["name"], "admin");
    let auth = named(verdicts, "admin-auth");
    assert_eq!(auth["before"]["status"], "Enforced");
    assert_eq!(auth["after"]["status"], "Invalid");
    assert!(
        auth["reasons"][0]
            .as_str()
            .unwrap()
            .contains("admin-users, which does not exist"),
        "{auth}"
    );
    // Overridden by the retargeted policy on the admin route.
    let public = named(verdicts, "public-timeouts");
    assert_eq!(public["after"]["status"], "Overridden");
    assert_eq!(
        public["reasons"],
        serde_json::json!(["overridden by BackendTrafficPolicy shop/slow-pay"])
    );
    // The route moved: its retries go with the old Gateway, the new one's timeout comes,
    // each value with the policy behind it.
    let changes = d["changes"].as_array().unwrap();
    let on_shop = |kind: &str| {
        changes
            .iter()
            .filter(|c| c["target"]["name"] == "shop" && c["target"].get("sectionName").is_none())
            .find(|c| c["contexts"][0][2]["name"] == kind)
            .unwrap_or_else(|| panic!("no change via {kind}"))
    };
    let old = on_shop("public");
    assert_eq!(old["before"]["retry"]["numRetries"], 3);
    assert_eq!(old["after"], Value::Null);
    assert_eq!(old["sourcesBefore"][0]["policy"]["name"], "shop-retries");
    let new = on_shop("internal");
    assert_eq!(new["after"]["timeout"]["http"]["requestTimeout"], "60s");
    assert_eq!(
        new["sourcesAfter"][0]["policy"]["name"],
        "internal-timeouts"
    );
    // The admin route loses its basic auth.
    assert!(changes.iter().any(|c| c["target"]["name"] == "admin"
        && c["policyKind"]["kind"] == "SecurityPolicy"
        && c["after"].is_null()));
    assert_eq!(d["findings"]["appeared"][0]["code"], "Invalid");
    assert_eq!(d["summary"]["newErrors"], 1);
    assert_eq!(d["summary"]["verdicts"], 5);
    // YAML is the same answer.
    let yaml: Value = serde_saphyr::from_str(&plan(&["-o", "yaml"])).unwrap();
    assert_eq!(yaml, d);
}

#[test]
fn diff_for_people() {
    insta::assert_snapshot!(plan(&[]));
}

#[test]
fn diff_markdown_for_a_pull_request() {
    insta::assert_snapshot!(plan(&["-o", "markdown"]));
}

/// The tables of a Markdown text (each as its rows of cell texts) and the summaries of
/// its `<details>` blocks, as a CommonMark parser with GitHub's tables reads them.
fn parse(markdown: &str) -> (Vec<Vec<Vec<String>>>, Vec<String>, Vec<String>) {
    let mut tables: Vec<Vec<Vec<String>>> = Vec::new();
    let (mut summaries, mut html) = (Vec::new(), Vec::new());
    let mut cell: Option<String> = None;
    let options = pulldown_cmark::Options::ENABLE_TABLES;
    for event in Parser::new_ext(markdown, options) {
        match event {
            Event::Start(Tag::Table(_)) => tables.push(Vec::new()),
            Event::Start(Tag::TableHead | Tag::TableRow) => {
                tables.last_mut().unwrap().push(Vec::new())
            }
            Event::Start(Tag::TableCell) => cell = Some(String::new()),
            Event::End(TagEnd::TableCell) => {
                let text = cell.take().unwrap();
                tables.last_mut().unwrap().last_mut().unwrap().push(text);
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(c) = cell.as_mut() {
                    c.push_str(&t);
                }
            }
            Event::Html(h) | Event::InlineHtml(h) => {
                if let Some(s) = h.trim().strip_prefix("<details><summary>") {
                    summaries.push(s.split("</summary>").next().unwrap().to_string());
                }
                html.push(h.to_string());
            }
            _ => {}
        }
    }
    (tables, summaries, html)
}

#[test]
fn diff_markdown_parses_into_its_tables_and_details() {
    let markdown = plan(&["-o", "markdown"]);
    let (tables, summaries, _) = parse(&markdown);
    // Verdicts, the two routes' changes, the new finding, the objects.
    assert_eq!(tables.len(), 5, "{markdown}");
    let verdicts = &tables[0];
    assert_eq!(
        verdicts[0],
        ["Policy", "Namespace", "Status", "Affects", "Why"]
    );
    let auth = verdicts
        .iter()
        .find(|r| r[0].contains("admin-auth"))
        .unwrap();
    assert_eq!(auth[2], "Enforced → Invalid");
    assert_eq!(auth[3], "1 → 0");
    // Long groups are folded: the admin route's 4 settings and the shop route's 6.
    assert_eq!(summaries.len(), 3, "{summaries:?}");
    assert!(summaries[0].starts_with("HTTPRoute <code>shop/admin</code>: 4 settings"));
    assert!(summaries[1].starts_with("HTTPRoute <code>shop/shop</code>: 6 settings"));
    let shop = &tables[2];
    assert_eq!(shop.len(), 7);
    assert!(shop
        .iter()
        .any(|r| r[2] == "/retry/numRetries" && r[3] == "3" && r[4] == "-"));
    assert!(markdown.contains("```mermaid\nflowchart TB\n"));
    assert!(markdown.chars().count() <= 65_536);
}

/// A name from the input, whatever it holds, stays text: no tag, link, emphasis or table
/// cell comes of it.
#[test]
fn diff_markdown_escapes_names_from_the_input() {
    let hostile = "x<img src=x onerror=alert(1)>|**b**[l](http://e)`c`@team";
    let dir = tempfile::tempdir().unwrap();
    let route = |name: &str| {
        format!(
            "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: {name:?}, namespace: shop}}\nspec: {{parentRefs: [{{name: public, namespace: infra}}]}}\n"
        )
    };
    std::fs::write(dir.path().join("after.yaml"), route(hostile)).unwrap();
    let base = repo("tests/fixtures/diff/base");
    let (code, out, err) = run(&[
        "diff",
        "--from",
        base.to_str().unwrap(),
        "--to",
        base.to_str().unwrap(),
        "--to",
        dir.path().join("after.yaml").to_str().unwrap(),
        "-o",
        "markdown",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let (tables, _, html) = parse(&out);
    for h in &html {
        let own = [
            "<!--",
            "<code>",
            "</code>",
            "<details>",
            "</details>",
            "</summary>",
        ];
        assert!(
            own.iter().any(|o| h.trim().starts_with(o)),
            "markup from input: {h}"
        );
    }
    assert!(!out.contains("<img"), "{out}");
    let objects = tables.last().unwrap();
    let row = objects.iter().find(|r| r[3] == "added").unwrap();
    assert_eq!(row.len(), 4);
    assert_eq!(row[2], hostile);
}

#[test]
fn equal_sides_answer_no_changes_and_exit_0() {
    let (code, out, _) = run(&["diff", "--from", "base", "--to", "base", "--exit-code"]);
    assert_eq!((code, out.as_str()), (Some(0), "No changes\n"));
    let (code, out, _) = run(&["diff", "--from", "base", "--to", "base", "-o", "markdown"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("No changes"), "{out}");
}

#[test]
fn exit_code_3_when_anything_changes() {
    let (code, ..) = run(&["diff", "--from", "base", "--to", "head", "--exit-code"]);
    assert_eq!(code, Some(3));
    let (code, ..) = run(&["diff", "--from", "base", "--to", "head"]);
    assert_eq!(code, Some(0));
}

#[test]
fn one_side_from_stdin_and_sides_of_several_paths() {
    let mut head = String::new();
    for f in ["auth.yaml", "gateways.yaml", "shop.yaml"] {
        let text = std::fs::read_to_string(repo("tests/fixtures/diff/head").join(f)).unwrap();
        head.push_str(&text);
        head.push_str("\n---\n");
    }
    let (code, piped, err) = run_with(
        &["diff", "--from", "base", "--to", "-", "-o", "json"],
        Some(&head),
    );
    assert_eq!(code, Some(0), "{err}");
    let piped: Value = serde_json::from_str(&piped).unwrap();
    let files: Value = serde_json::from_str(&plan(&["-o", "json"])).unwrap();
    assert_eq!(piped["verdicts"], files["verdicts"]);
    assert_eq!(piped["changes"], files["changes"]);
    // Repeated: the head as its three files.
    let (code, out, _) = run(&[
        "diff",
        "--from",
        "base",
        "--to",
        "head/auth.yaml",
        "--to",
        "head/gateways.yaml",
        "--to",
        "head/shop.yaml",
        "-o",
        "json",
    ]);
    assert_eq!(code, Some(0));
    let repeated: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(repeated["verdicts"], files["verdicts"]);
    // Stdin is one side only.
    let (code, _, err) = run_with(&["diff", "--from", "-", "--to", "-"], Some(&head));
    assert_eq!(code, Some(1));
    assert!(err.contains("one side only"), "{err}");
}

#[test]
fn a_side_that_cannot_be_read_fails_naming_the_side_file_document_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.yaml");
    std::fs::write(
        &bad,
        "apiVersion: v1\nkind: Service\n---\nkind: [unclosed\n",
    )
    .unwrap();
    let (code, out, err) = run(&["diff", "--from", "base", "--to", bad.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (Some(1), ""));
    assert!(err.contains("the --to side"), "{err}");
    assert!(err.contains("bad.yaml: document 2, line 4"), "{err}");
    let (code, _, err) = run(&["diff", "--from", "missing-dir", "--to", "head"]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("the --from side") && err.contains("missing-dir"),
        "{err}"
    );
}

#[test]
fn a_malformed_document_is_a_blind_spot_of_its_side_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("odd.yaml");
    std::fs::write(
        &odd,
        "apiVersion: v1\nkind: Service\nmetadata: {name: 5, namespace: shop}\n",
    )
    .unwrap();
    let args = |format: &'static str| {
        vec![
            "diff".to_string(),
            "--from".into(),
            "base".into(),
            "--to".into(),
            "head".into(),
            "--to".into(),
            odd.to_str().unwrap().to_string(),
            "-o".into(),
            format.into(),
        ]
    };
    for format in ["human", "json", "yaml", "markdown"] {
        let a = args(format);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let (code, out, err) = run(&a);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.contains("metadata.name"), "{format}: {out}");
        assert!(err.contains("odd.yaml document 1"), "{err}");
    }
    let a = args("json");
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let d: Value = serde_json::from_str(&run(&a).1).unwrap();
    assert_eq!(d["blindSpots"]["to"][0]["reason"], "Invalid");
    assert_eq!(d["blindSpots"]["from"], serde_json::json!([]));
}

#[test]
fn the_same_object_twice_on_one_side_is_taken_as_apply_leaves_it() {
    let dir = tempfile::tempdir().unwrap();
    // The head's slow-pay, then base's again after it: the last one is used, so the
    // policy is not retargeted.
    let again = std::fs::read_to_string(repo("tests/fixtures/diff/base/shop.yaml")).unwrap();
    let slow_pay = again.split("---").last().unwrap();
    std::fs::write(dir.path().join("zz-again.yaml"), slow_pay).unwrap();
    let (code, out, err) = run(&[
        "diff",
        "--from",
        "base",
        "--to",
        "head",
        "--to",
        dir.path().to_str().unwrap(),
        "-o",
        "json",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let d: Value = serde_json::from_str(&out).unwrap();
    let verdicts = d["verdicts"].as_array().unwrap();
    assert!(
        verdicts.iter().all(|v| v["policy"]["name"] != "slow-pay"),
        "{out}"
    );
    let duplicate = d["findings"]["appeared"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "DuplicateObject")
        .unwrap();
    assert_eq!(duplicate["object"]["name"], "slow-pay");
}

#[test]
fn an_unknown_reference_on_a_file_side_is_unchecked_not_missing() {
    // The policy's file holds no Secret: whether its Secret exists is not known.
    let dir = tempfile::tempdir().unwrap();
    let policy = "apiVersion: gateway.envoyproxy.io/v1alpha1\nkind: SecurityPolicy\nmetadata: {name: other-auth, namespace: shop}\nspec:\n  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}]\n  basicAuth: {users: {name: elsewhere}}\n";
    std::fs::write(dir.path().join("p.yaml"), policy).unwrap();
    let (code, out, err) = run(&[
        "diff",
        "--from",
        "base",
        "--to",
        "base",
        "--to",
        dir.path().to_str().unwrap(),
        "-o",
        "json",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let d: Value = serde_json::from_str(&out).unwrap();
    let added = named(&d["verdicts"], "other-auth");
    assert_eq!(added["after"]["status"], "Enforced");
    assert_eq!(d["blindSpots"]["to"][0]["reason"], "Unchecked", "{out}");
    assert_eq!(d["findings"]["appeared"], serde_json::json!([]));
}

#[test]
fn namespace_scopes_what_is_shown() {
    let d: Value = serde_json::from_str(&plan(&["-n", "infra", "-o", "json"])).unwrap();
    for v in d["verdicts"].as_array().unwrap() {
        assert_eq!(v["policy"]["namespace"], "infra");
    }
    assert_eq!(d["changes"], serde_json::json!([]));
    assert_eq!(d["summary"]["verdicts"], 2);
    let all: Value = serde_json::from_str(&plan(&["-A", "-o", "json"])).unwrap();
    assert_eq!(all["summary"]["verdicts"], 5);
}

#[test]
fn without_from_the_demo_is_the_side_before() {
    let dir = tempfile::tempdir().unwrap();
    let dump = kp().args(["--demo", "dump", "-A"]).output().unwrap();
    assert!(dump.status.success());
    std::fs::write(dir.path().join("demo.yaml"), &dump.stdout).unwrap();
    let (code, out, err) = run(&[
        "--demo",
        "diff",
        "--to",
        dir.path().to_str().unwrap(),
        "--exit-code",
    ]);
    assert_eq!((code, out.as_str()), (Some(0), "No changes\n"), "{err}");
    let (code, _, err) = run(&["--demo", "diff", "--to", "head", "--exit-code"]);
    assert_eq!(code, Some(3), "{err}");
    let (code, _, err) = run(&["-f", "base", "diff", "--to", "head"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("--from"), "{err}");
}

#[test]
fn a_long_markdown_plan_stays_within_a_comment_and_says_what_it_left_out() {
    // One Gateway policy whose timeout changes, over 1,500 routes.
    let dir = tempfile::tempdir().unwrap();
    let mut routes = String::new();
    for i in 0..1500 {
        routes.push_str(&format!(
            "---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: route-{i}, namespace: shop}}\nspec: {{parentRefs: [{{name: public, namespace: infra}}], rules: [{{name: a}}, {{name: b}}]}}\n"
        ));
    }
    let gateways = std::fs::read_to_string(repo("tests/fixtures/diff/base/gateways.yaml")).unwrap();
    for (side, timeout) in [("before", "10s"), ("after", "11s")] {
        let d = dir.path().join(side);
        std::fs::create_dir(&d).unwrap();
        std::fs::write(d.join("routes.yaml"), &routes).unwrap();
        std::fs::write(d.join("gateways.yaml"), gateways.replace("10s", timeout)).unwrap();
    }
    let (code, out, err) = run(&[
        "diff",
        "--from",
        dir.path().join("before").to_str().unwrap(),
        "--to",
        dir.path().join("after").to_str().unwrap(),
        "-o",
        "markdown",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.chars().count() <= 65_536, "{}", out.chars().count());
    assert!(out.chars().count() > 60_000, "{}", out.chars().count());
    assert!(out.contains("1 Gateway and 1500 HTTPRoutes"), "{out}");
    let note = out.lines().rev().find(|l| l.contains("Left out")).unwrap();
    assert!(note.contains("effective changes on"), "{note}");
    assert!(note.contains("the picture"), "{note}");
    // What was kept still parses: every <details> is closed.
    assert_eq!(
        out.matches("<details>").count(),
        out.matches("</details>").count()
    );
}

/// The lines of `text` that run `kubectl policies diff` (or the plugin's executable) on
/// `out/base` and `out/head`, as written (code blocks and `run:`/`script:` lines).
fn documented_diffs(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.trim().trim_start_matches("- ").trim())
        .filter(|l| l.contains("diff --from out/base --to out/head"))
        .map(str::to_string)
        .collect()
}

/// Every diff command docs/ci.md and the two CI examples show, run as written on the
/// fixtures laid out as the jobs lay out their sides (`out/base`, `out/head`).
#[test]
fn the_documented_ci_commands_run_on_the_fixtures() {
    let work = tempfile::tempdir().unwrap();
    for side in ["base", "head"] {
        let to = work.path().join("out").join(side);
        std::fs::create_dir_all(&to).unwrap();
        for f in std::fs::read_dir(repo("tests/fixtures/diff").join(side)).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, to.join(f.file_name().unwrap())).unwrap();
        }
    }
    let mut commands = Vec::new();
    for page in [
        "docs/ci.md",
        "examples/ci/github-actions.yaml",
        "examples/ci/gitlab-ci.yml",
    ] {
        let found = documented_diffs(&std::fs::read_to_string(repo(page)).unwrap());
        assert!(!found.is_empty(), "{page} shows no diff command");
        commands.extend(found);
    }
    let expected = plan(&["-o", "markdown"])
        .replace("<code>base</code>", "<code>out/base</code>")
        .replace("<code>head</code>", "<code>out/head</code>");
    for command in commands {
        let words: Vec<&str> = command.split_whitespace().collect();
        let args = match words.as_slice() {
            ["kubectl", "policies", rest @ ..] | ["kubectl-policies", rest @ ..] => rest,
            _ => panic!("{command}: not a kubectl policies command"),
        };
        // `> FILE` is the shell's: the test reads stdout.
        let args: Vec<&str> = args.iter().take_while(|w| **w != ">").copied().collect();
        let out = kp().current_dir(work.path()).args(&args).output().unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        if args.contains(&"--exit-code") {
            assert_eq!(out.status.code(), Some(3), "{command}");
            continue;
        }
        assert_eq!(out.status.code(), Some(0), "{command}");
        if args.contains(&"markdown") {
            assert_eq!(stdout, expected, "{command}");
        } else {
            let d: Value = serde_json::from_str(&stdout).unwrap();
            assert_eq!(d["summary"]["newErrors"], 1, "{command}");
        }
    }
}

/// The README's tour shows `diff` on the fixtures with what it prints.
#[test]
fn the_readme_shows_the_diff_it_prints() {
    let readme = std::fs::read_to_string(repo("README.md")).unwrap();
    let command = "$ kubectl policies diff --from tests/fixtures/diff/base --to tests/fixtures/diff/head | head -16\n";
    let at = readme.find(command).expect("the README's tour shows diff") + command.len();
    let shown = readme[at..].split("```").next().unwrap();
    let out = kp()
        .current_dir(repo(""))
        .args([
            "diff",
            "--from",
            "tests/fixtures/diff/base",
            "--to",
            "tests/fixtures/diff/head",
        ])
        .output()
        .unwrap();
    let printed: String = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .take(16)
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(shown, printed);
}

/// `--to <(kustomize build …)`: a side read from a pipe the shell names as a file.
#[test]
fn a_side_from_process_substitution() {
    let Some(bash) = crate::command::on_path("bash") else {
        eprintln!("skipped: no bash on PATH");
        return;
    };
    let script = format!(
        "{:?} diff --from base --to <(for f in head/*.yaml; do cat \"$f\"; echo ---; done) -o json",
        crate::command::binary()
    );
    let out = crate::command::hermetic(bash)
        .current_dir(repo("tests/fixtures/diff"))
        .args(["-c", &script])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let piped: Value = serde_json::from_slice(&out.stdout).unwrap();
    let files: Value = serde_json::from_str(&plan(&["-o", "json"])).unwrap();
    assert_eq!(piped["verdicts"], files["verdicts"]);
    assert_eq!(piped["changes"], files["changes"]);
}
