//! How a policy says it merges: GEP-713's `default`/`override` stanzas and their
//! strategies, or the kind's own model.

use super::invalid::{FieldError, FieldProblem};
use super::{value_leaf_count, WRAPPER_FIELDS};
use crate::catalog::MergeModel;
use crate::model::{Map, Text, Val};

/// defaults vs overrides (GEP-713 strategy families).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Mode {
    Defaults,
    Overrides,
}

/// How the spec proper combines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum How {
    Atomic,
    /// RFC 7396 JSON Merge Patch.
    Patch,
    /// Keyed rules: the winner per rule.
    Merge,
}

/// A merge strategy as a policy declares it (or as its kind implies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Strategy {
    pub(crate) mode: Mode,
    pub(crate) how: How,
}

impl Strategy {
    /// GEP-713's names: "Atomic Defaults", "Patch Overrides"...
    pub(crate) fn name(self) -> &'static str {
        match (self.how, self.mode) {
            (How::Atomic, Mode::Defaults) => "Atomic Defaults",
            (How::Atomic, Mode::Overrides) => "Atomic Overrides",
            (How::Patch, Mode::Defaults) => "Patch Defaults",
            (How::Patch, Mode::Overrides) => "Patch Overrides",
            (How::Merge, Mode::Defaults) => "Merge Defaults",
            (How::Merge, Mode::Overrides) => "Merge Overrides",
        }
    }
}

/// What a policy asks for, read per its kind's merge model.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Intent {
    /// One spec proper with one strategy (GEP-713's current shape, bare specs, and
    /// every kind whose model has no per-policy strategy).
    Stack { strategy: Strategy, spec: Stanza },
    /// The older GEP-2649 shape: `default:` and `override:` stanzas, merged per field.
    Dual { default: Stanza, overrides: Stanza },
}

/// Where settings are in a policy's spec. They are read from the policy's object
/// when needed, never copied.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Stanza {
    /// The spec itself (`None`) or the mapping under this field of it, without the
    /// fields that say where the policy attaches or how it merges.
    Proper(Option<&'static str>),
    /// The mapping under this field as written (GEP-2649's `default:`, `override:`).
    Whole(&'static str),
}

impl Stanza {
    /// The settings in `spec` (the policy object's), in the order they are written.
    /// An empty mapping has none.
    pub(crate) fn settings(self, spec: &Val) -> impl Iterator<Item = (&Text, &Val)> {
        let (field, proper) = match self {
            Stanza::Proper(field) => (field, true),
            Stanza::Whole(field) => (Some(field), false),
        };
        let map = match field {
            None => spec.as_object(),
            Some(f) => spec.get(f).and_then(Val::as_object),
        };
        map.into_iter()
            .flatten()
            .filter(move |(k, _)| !proper || !WRAPPER_FIELDS.contains(&&***k))
    }

    /// How many settings (leaves) it holds; an empty stanza holds none.
    pub(crate) fn leaf_count(self, spec: &Val) -> usize {
        self.settings(spec).map(|(_, v)| value_leaf_count(v)).sum()
    }
}

impl Intent {
    /// Every setting the policy makes, across its stanzas (`spec` is the object's).
    pub(crate) fn settings<'v>(&self, spec: &'v Val) -> Vec<(&'v Text, &'v Val)> {
        match self {
            Intent::Stack { spec: s, .. } => s.settings(spec).collect(),
            Intent::Dual { default, overrides } => default
                .settings(spec)
                .chain(overrides.settings(spec))
                .collect(),
        }
    }

    /// How many settings (leaves) the policy sets: what "its whole spec survives" counts.
    /// `spec` is the policy object's.
    pub(crate) fn leaf_count(&self, spec: &Val) -> usize {
        match self {
            Intent::Stack { spec: s, .. } => s.leaf_count(spec),
            Intent::Dual { default, overrides } => {
                default.leaf_count(spec) + overrides.leaf_count(spec)
            }
        }
    }

    pub(crate) fn strategy_name(&self) -> String {
        match self {
            Intent::Stack { strategy, .. } => strategy.name().to_string(),
            Intent::Dual { .. } => "default + override (per field)".to_string(),
        }
    }
}

fn parse_how(v: Option<&Val>, field: &str, invalid: &mut Vec<FieldError>) -> Option<How> {
    match v {
        None | Some(Val::Null) => None,
        Some(Val::String(s)) => match s.to_ascii_lowercase().as_str() {
            "atomic" => Some(How::Atomic),
            "patch" => Some(How::Patch),
            "merge" => Some(How::Merge),
            _ => {
                invalid.push(FieldError::new(
                    field,
                    FieldProblem::UnknownStrategy(s.to_string()),
                ));
                None
            }
        },
        Some(_) => {
            invalid.push(FieldError::new(field, FieldProblem::MustBe("a string")));
            None
        }
    }
}

/// The strategy every policy of a model without strategy fields takes part in the fold
/// with (its spec proper as it is); none: the policy says (GEP-713's fields).
fn implied_strategy(model: MergeModel) -> Option<Strategy> {
    let (mode, how) = match model {
        MergeModel::Gep713 { .. } => return None,
        MergeModel::PatchDefaults => (Mode::Defaults, How::Patch),
        MergeModel::KeyedFields { .. } => (Mode::Defaults, How::Merge),
        // Nothing merged, or the merge decided in the fold (`effective::merge`).
        MergeModel::None
        | MergeModel::MostSpecificWins
        | MergeModel::EnvoyMergeType
        | MergeModel::MostSpecificReplaces
        | MergeModel::KgatewayPriority
        | MergeModel::Accumulated => (Mode::Defaults, How::Atomic),
    };
    Some(Strategy { mode, how })
}

/// Reads `defaults` / `overrides` / `strategy` / `default` + `override` as GEP-713 and
/// GEP-2649 describe them. Kinds whose model has no per-policy strategy take the
/// spec proper as it is, with the strategy their model implies.
pub(super) fn read_intent(spec: &Map, model: MergeModel, invalid: &mut Vec<FieldError>) -> Intent {
    if let Some(strategy) = implied_strategy(model) {
        return Intent::Stack {
            strategy,
            spec: Stanza::Proper(None),
        };
    }
    let top_how = parse_how(spec.get("strategy"), "spec.strategy", invalid);
    let stanza = |name: &str, invalid: &mut Vec<FieldError>| -> Option<&Map> {
        match spec.get(name) {
            None | Some(Val::Null) => None,
            Some(Val::Object(m)) => Some(m),
            Some(_) => {
                invalid.push(FieldError::new(
                    format!("spec.{name}"),
                    FieldProblem::MustBe("a mapping"),
                ));
                None
            }
        }
    };
    let defaults = stanza("defaults", invalid);
    let overrides = stanza("overrides", invalid);
    let old_default = stanza("default", invalid);
    let old_override = stanza("override", invalid);
    if old_default.is_some() || old_override.is_some() {
        if defaults.is_some() || overrides.is_some() {
            invalid.push(FieldError::new("spec", FieldProblem::MixedStanzas));
        }
        return Intent::Dual {
            default: Stanza::Whole("default"),
            overrides: Stanza::Whole("override"),
        };
    }
    match (defaults, overrides) {
        (Some(_), Some(_)) => {
            // GEP-713: one strategy per policy. Kuadrant's CRDs refuse this; if it got
            // in anyway, read it the GEP-2649 way (per field) and say so.
            invalid.push(FieldError::new("spec", FieldProblem::TwoStrategies));
            Intent::Dual {
                default: Stanza::Proper(Some("defaults")),
                overrides: Stanza::Proper(Some("overrides")),
            }
        }
        (Some(m), None) | (None, Some(m)) => {
            // The mode of the stanza read (a null or misshapen one beside it reads as absent).
            let mode = if defaults.is_some() {
                Mode::Defaults
            } else {
                Mode::Overrides
            };
            let field = if mode == Mode::Defaults {
                "spec.defaults.strategy"
            } else {
                "spec.overrides.strategy"
            };
            let how = parse_how(m.get("strategy"), field, invalid)
                .or(top_how)
                .unwrap_or(How::Atomic);
            let stanza = if defaults.is_some() {
                "defaults"
            } else {
                "overrides"
            };
            Intent::Stack {
                strategy: Strategy { mode, how },
                spec: Stanza::Proper(Some(stanza)),
            }
        }
        (None, None) => Intent::Stack {
            strategy: Strategy {
                mode: Mode::Defaults,
                how: top_how.unwrap_or(How::Atomic),
            },
            spec: Stanza::Proper(None),
        },
    }
}
