//! Reading policies: targets, sections, selectors, intent.

//! Label selectors as Kubernetes evaluates them, and a policy's intent as GEP-713
//! and GEP-2649 write it.
use super::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn val(v: Value) -> Val {
    Val::from_value(v)
}

fn selector(v: Value) -> LabelSelector {
    LabelSelector::parse(&val(v), "selector").expect("selector parses")
}

fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Which of a few label sets `sel` matches, by their names.
fn matching(sel: &LabelSelector) -> Vec<&'static str> {
    let sets: [(&str, &[(&str, &str)]); 4] = [
        ("none", &[]),
        ("prod", &[("env", "prod")]),
        ("staging", &[("env", "staging"), ("team", "web")]),
        ("team", &[("team", "web")]),
    ];
    sets.iter()
        .filter(|(_, l)| sel.matches(&labels(l)))
        .map(|(name, _)| *name)
        .collect()
}

fn expression(op: &str, values: &[&str]) -> LabelSelector {
    selector(json!({"matchExpressions": [{"key": "env", "operator": op, "values": values}]}))
}

#[test]
fn an_empty_selector_matches_everything() {
    assert_eq!(
        matching(&selector(json!({}))),
        ["none", "prod", "staging", "team"]
    );
    assert_eq!(
        matching(&selector(
            json!({"matchLabels": null, "matchExpressions": null})
        )),
        ["none", "prod", "staging", "team"]
    );
}

#[test]
fn match_labels_must_all_be_there_with_those_values() {
    assert_eq!(
        matching(&selector(json!({"matchLabels": {"env": "prod"}}))),
        ["prod"]
    );
    assert_eq!(
        matching(&selector(
            json!({"matchLabels": {"env": "staging", "team": "web"}})
        )),
        ["staging"]
    );
    assert!(matching(&selector(json!({"matchLabels": {"env": "Prod"}}))).is_empty());
}

#[test]
fn in_needs_the_key_with_one_of_the_values() {
    assert_eq!(
        matching(&expression("In", &["prod", "staging"])),
        ["prod", "staging"]
    );
    assert_eq!(matching(&expression("In", &["dev"])), Vec::<&str>::new());
    assert_eq!(matching(&expression("In", &[])), Vec::<&str>::new());
}

#[test]
fn not_in_matches_a_missing_key_or_another_value() {
    assert_eq!(
        matching(&expression("NotIn", &["prod"])),
        ["none", "staging", "team"]
    );
    assert_eq!(
        matching(&expression("NotIn", &[])),
        ["none", "prod", "staging", "team"]
    );
}

#[test]
fn exists_and_does_not_exist_look_at_the_key_only() {
    assert_eq!(matching(&expression("Exists", &[])), ["prod", "staging"]);
    assert_eq!(matching(&expression("DoesNotExist", &[])), ["none", "team"]);
    let no_values = selector(json!({"matchExpressions": [{"key": "team", "operator": "Exists"}]}));
    assert_eq!(matching(&no_values), ["staging", "team"]);
}

#[test]
fn labels_and_expressions_must_all_hold() {
    let sel = selector(json!({
        "matchLabels": {"team": "web"},
        "matchExpressions": [
            {"key": "env", "operator": "Exists"},
            {"key": "env", "operator": "NotIn", "values": ["prod"]},
        ],
    }));
    assert_eq!(matching(&sel), ["staging"]);
}

#[test]
fn a_selector_that_cannot_be_read_names_the_field() {
    let err = |v: Value| LabelSelector::parse(&val(v), "s").unwrap_err();
    let not_a_mapping = LabelSelector::parse(&val(json!([])), "spec.targetSelectors[0]");
    assert_eq!(
        not_a_mapping,
        Err(FieldError::new(
            "spec.targetSelectors[0]",
            FieldProblem::MustBe("a mapping")
        ))
    );
    let unknown = err(json!({"matchExpressions": [{"key": "env", "operator": "Within"}]}));
    assert_eq!(
        unknown,
        FieldError::new(
            "s.matchExpressions[0].operator",
            FieldProblem::UnknownOperator("Within".to_string())
        )
    );
    assert_eq!(
        unknown.to_string(),
        "s.matchExpressions[0].operator: unknown operator \"Within\""
    );
    // Operators are case-sensitive, as in Kubernetes.
    assert_eq!(
        err(json!({"matchExpressions": [{"key": "env", "operator": "in", "values": ["a"]}]}))
            .problem,
        FieldProblem::UnknownOperator("in".to_string())
    );
    assert_eq!(
        err(json!({"matchLabels": {"env": 1}})),
        FieldError::new("s.matchLabels.env", FieldProblem::MustBe("a string"))
    );
    assert_eq!(
        err(json!({"matchLabels": ["env"]})).to_string(),
        "s.matchLabels: must be a map of strings"
    );
    assert_eq!(
        err(json!({"matchExpressions": {"key": "env"}})).field,
        "s.matchExpressions"
    );
    assert_eq!(
        err(json!({"matchExpressions": [{"key": "env"}]})),
        FieldError::new("s.matchExpressions[0]", FieldProblem::NeedsKeyAndOperator)
    );
    // Values must be a list of strings, whatever the operator.
    for operator in ["In", "NotIn", "Exists", "DoesNotExist"] {
        for values in [json!("prod"), json!(["prod", 1])] {
            assert_eq!(
                err(
                    json!({"matchExpressions": [{"key": "env", "operator": operator, "values": values}]})
                ),
                FieldError::new(
                    "s.matchExpressions[0].values",
                    FieldProblem::MustBe("a list of strings")
                ),
                "{operator} {values}"
            );
        }
    }
}

#[test]
fn each_operator_reads_into_kubes_expression() {
    use kube::core::{Expression, Selector};
    let set = |values: &[&str]| values.iter().map(|v| v.to_string()).collect();
    let cases = [
        ("In", Expression::In("env".into(), set(&["prod", "dev"]))),
        (
            "NotIn",
            Expression::NotIn("env".into(), set(&["prod", "dev"])),
        ),
        ("Exists", Expression::Exists("env".into())),
        ("DoesNotExist", Expression::DoesNotExist("env".into())),
    ];
    for (operator, expected) in cases {
        assert_eq!(
            expression(operator, &["prod", "dev"]),
            LabelSelector::from(Selector::from(expected)),
            "{operator}"
        );
    }
    let sel = selector(json!({
        "matchLabels": {"team": "web"},
        "matchExpressions": [{"key": "env", "operator": "NotIn", "values": ["prod"]}],
    }));
    assert_eq!(sel.to_string(), "team=web,env notin (prod)");
}

const GEP713: MergeModel = MergeModel::Gep713 { rule_paths: &[] };

/// The intent of `spec` under `model`, and the fields found invalid.
fn intent(spec: Value, model: MergeModel) -> (Intent, Vec<String>) {
    let mut invalid = Vec::new();
    let spec = val(spec);
    let intent = read_intent(spec.as_object().expect("a mapping"), model, &mut invalid);
    (intent, invalid.into_iter().map(|e| e.field).collect())
}

fn stack(mode: Mode, how: How, stanza: Option<&'static str>) -> Intent {
    Intent::Stack {
        strategy: Strategy { mode, how },
        spec: Stanza::Proper(stanza),
    }
}

#[test]
fn a_bare_spec_is_atomic_defaults() {
    let (got, invalid) = intent(json!({"targetRef": {}, "color": "red"}), GEP713);
    assert_eq!(got, stack(Mode::Defaults, How::Atomic, None));
    assert!(invalid.is_empty());
    assert_eq!(got.strategy_name(), "Atomic Defaults");
}

#[test]
fn defaults_or_overrides_with_each_strategy() {
    for (written, how) in [
        (None, How::Atomic),
        (Some("atomic"), How::Atomic),
        (Some("patch"), How::Patch),
        (Some("merge"), How::Merge),
        (Some("Patch"), How::Patch),
    ] {
        for (field, mode) in [("defaults", Mode::Defaults), ("overrides", Mode::Overrides)] {
            let mut stanza = json!({"color": "red"});
            if let Some(s) = written {
                stanza["strategy"] = json!(s);
            }
            let (got, invalid) = intent(json!({ field: stanza }), GEP713);
            assert_eq!(got, stack(mode, how, Some(field)), "{field} {written:?}");
            assert!(invalid.is_empty(), "{field} {written:?}: {invalid:?}");
        }
    }
}

#[test]
fn a_top_level_strategy_applies_where_the_stanza_names_none() {
    let (got, _) = intent(json!({"strategy": "patch", "color": "red"}), GEP713);
    assert_eq!(got, stack(Mode::Defaults, How::Patch, None));
    let (got, _) = intent(
        json!({"strategy": "merge", "overrides": {"color": "red"}}),
        GEP713,
    );
    assert_eq!(got, stack(Mode::Overrides, How::Merge, Some("overrides")));
    // The stanza's own strategy wins.
    let (got, invalid) = intent(
        json!({"strategy": "merge", "defaults": {"strategy": "patch", "color": "red"}}),
        GEP713,
    );
    assert_eq!(got, stack(Mode::Defaults, How::Patch, Some("defaults")));
    assert!(invalid.is_empty());
}

#[test]
fn gep2649_default_and_override_are_dual() {
    let dual = Intent::Dual {
        default: Stanza::Whole("default"),
        overrides: Stanza::Whole("override"),
    };
    for spec in [
        json!({"default": {"color": "red"}}),
        json!({"override": {"color": "red"}}),
        json!({"default": {"color": "red"}, "override": {"size": 1}}),
    ] {
        let (got, invalid) = intent(spec.clone(), GEP713);
        assert_eq!(got, dual, "{spec}");
        assert!(invalid.is_empty(), "{spec}: {invalid:?}");
    }
    assert_eq!(dual.strategy_name(), "default + override (per field)");
    // Mixed with the GEP-713 stanzas: the older ones are used, and that is said.
    let (got, invalid) = intent(
        json!({"default": {"color": "red"}, "defaults": {"color": "blue"}}),
        GEP713,
    );
    assert_eq!(got, dual);
    assert_eq!(invalid, ["spec"]);
}

#[test]
fn both_defaults_and_overrides_are_read_per_field_and_invalid() {
    let (got, invalid) = intent(
        json!({"defaults": {"color": "red"}, "overrides": {"size": 1}}),
        GEP713,
    );
    assert_eq!(
        got,
        Intent::Dual {
            default: Stanza::Proper(Some("defaults")),
            overrides: Stanza::Proper(Some("overrides")),
        }
    );
    assert_eq!(invalid, ["spec"]);
}

#[test]
fn an_unknown_or_misshapen_strategy_is_invalid_and_atomic() {
    let (got, invalid) = intent(
        json!({"defaults": {"strategy": "deep", "color": "red"}}),
        GEP713,
    );
    assert_eq!(got, stack(Mode::Defaults, How::Atomic, Some("defaults")));
    assert_eq!(invalid, ["spec.defaults.strategy"]);
    let (got, invalid) = intent(json!({"strategy": 3, "color": "red"}), GEP713);
    assert_eq!(got, stack(Mode::Defaults, How::Atomic, None));
    assert_eq!(invalid, ["spec.strategy"]);
    let (_, invalid) = intent(
        json!({"overrides": {"strategy": ["patch"], "color": "red"}}),
        GEP713,
    );
    assert_eq!(invalid, ["spec.overrides.strategy"]);
}

#[test]
fn a_stanza_that_is_not_a_mapping_is_invalid() {
    let (got, invalid) = intent(json!({"defaults": "red"}), GEP713);
    assert_eq!(got, stack(Mode::Defaults, How::Atomic, None));
    assert_eq!(invalid, ["spec.defaults"]);
    let (_, invalid) = intent(json!({"override": 1}), GEP713);
    assert_eq!(invalid, ["spec.override"]);
}

/// `defaults: ~` (or a `defaults` that is not a mapping) beside `overrides`: the
/// policy overrides; its mode follows the stanza that is read.
#[test]
fn a_null_defaults_beside_overrides_still_overrides() {
    for defaults in [json!(null), json!("red")] {
        let (got, _) = intent(
            json!({"defaults": defaults, "overrides": {"color": "red"}}),
            GEP713,
        );
        assert_eq!(
            got,
            stack(Mode::Overrides, How::Atomic, Some("overrides")),
            "defaults: {defaults}"
        );
    }
}

#[test]
fn other_models_take_the_spec_with_their_fixed_strategy() {
    for (model, how) in [
        (MergeModel::None, How::Atomic),
        (MergeModel::MostSpecificWins, How::Atomic),
        (MergeModel::PatchDefaults, How::Patch),
        (MergeModel::KeyedFields { rule_paths: &[] }, How::Merge),
        (MergeModel::EnvoyMergeType, How::Atomic),
        (MergeModel::MostSpecificReplaces, How::Atomic),
        (MergeModel::KgatewayPriority, How::Atomic),
        (MergeModel::Accumulated, How::Atomic),
    ] {
        // Strategy fields mean nothing to these kinds: never read, never invalid.
        let (got, invalid) = intent(
            json!({"strategy": "bogus", "overrides": {"strategy": "patch"}, "default": 1}),
            model,
        );
        assert_eq!(got, stack(Mode::Defaults, how, None), "{model:?}");
        assert!(invalid.is_empty(), "{model:?}: {invalid:?}");
    }
}

#[test]
fn a_spec_at_one_port_keeps_that_ports_entries_of_each_list() {
    let lists = ["/default/ports", "/override/ports"];
    let spec = val(json!({
        "targetRef": {"kind": "Service", "name": "svc"},
        "default": {"sni": "a.example", "ports": [{"port": 80}, {"port": 443}]},
        "override": {"ports": [{"port": 443, "x": 1}]}
    }));
    let at = |port| spec_at_port(&spec, &lists, port).map(|v| v.to_value());
    assert_eq!(
        at(Some(80)),
        Some(json!({
            "targetRef": {"kind": "Service", "name": "svc"},
            "default": {"sni": "a.example", "ports": [{"port": 80}]},
            "override": {}
        }))
    );
    assert_eq!(
        at(Some(443)).map(|v| v["override"].clone()),
        Some(json!({"ports": [{"port": 443, "x": 1}]}))
    );
    // The target whole: no port's entry, the rest as written.
    assert_eq!(
        at(None).map(|v| v["default"].clone()),
        Some(json!({"sni": "a.example"}))
    );
    // No list set, or a kind with no lists: nothing to narrow.
    let plain = val(json!({"default": {"sni": "a.example"}}));
    assert_eq!(spec_at_port(&plain, &lists, Some(80)), None);
    assert_eq!(spec_at_port(&spec, &[], Some(80)), None);
}
