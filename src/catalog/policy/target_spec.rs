//! What a target entry names (`TargetSpec`): a reference, a label selector over objects
//! of a kind, or a selector of Pods; and the label selectors they carry. The types both
//! readers share: `targets` (targetRef, targetRefs, targetSelectors) and `selector_refs`
//! (targetRefs entries that pick by label).

use super::invalid::{FieldError, FieldProblem};
use crate::model::{GroupKind, ObjRef, Val};
use kube::core::{Expression, Selector, SelectorExt};
use std::collections::{BTreeMap, BTreeSet};

/// What a target entry names.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum TargetSpec {
    /// `targetRef` / `targetRefs[i]`, namespace filled in, group normalised.
    Ref(ObjRef),
    /// `targetSelectors[i]`: objects of this kind whose labels match, in the namespaces
    /// it names (the policy's own unless Envoy Gateway's `namespaces` says otherwise).
    Selector {
        group_kind: GroupKind,
        namespaces: SelectorScope,
        selector: LabelSelector,
    },
    /// `targetRefs[i]` picking Pods by label (`{kind: Pod, selector}`, GKE): the Pods
    /// of the policy's namespace whose labels match. Resolved for the kinds the
    /// registry says pick Pods (`Targeting::pod_selector`), when Pods are in the input.
    Pods(Box<PodSelector>),
}

/// A targetRefs entry that picks Pods by label, as read (`TargetSpec::Pods`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PodSelector {
    /// Where it is written: `spec.targetRefs[i]`.
    pub(crate) field: String,
    /// The policy's namespace, where the Pods are looked for (none: a cluster-scoped
    /// policy, which picks none).
    pub(crate) namespace: Option<String>,
    pub(crate) selector: LabelSelector,
    /// What it picks, for people: "Pods labelled app=payments", "every Pod of the
    /// namespace".
    pub(crate) picks: String,
}

/// The namespaces a `targetSelectors` entry looks in: Envoy Gateway's
/// `namespaces: {from: Same | All | Selector, selector}` (a match in another namespace
/// than the policy's needs a ReferenceGrant there).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum SelectorScope {
    /// The policy's namespace (none: a cluster-scoped kind).
    Same(Option<String>),
    All,
    /// Namespaces whose labels match.
    Labelled(LabelSelector),
}

/// `matchLabels` + `matchExpressions`, as Kubernetes evaluates them: kube's typed
/// selector, each label of `matchLabels` an [`Expression::Equal`] and each entry of
/// `matchExpressions` the expression of its operator. `-l` builds one from kubectl's
/// syntax.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabelSelector(Selector);

impl LabelSelector {
    /// Reads a `{matchLabels, matchExpressions}` mapping at `field`. An In or NotIn
    /// without values is read as an empty set (In then matches nothing, NotIn
    /// everything), as the tool always has; values beside Exists or DoesNotExist are
    /// ignored.
    pub(crate) fn parse(value: &Val, field: &str) -> Result<LabelSelector, FieldError> {
        let Some(mapping) = value.as_object() else {
            return Err(FieldError::new(field, FieldProblem::MustBe("a mapping")));
        };
        let mut expressions = Vec::new();
        if let Some(labels) = mapping.get("matchLabels").filter(|v| !v.is_null()) {
            let labels = labels.as_object().ok_or_else(|| {
                FieldError::new(
                    format!("{field}.matchLabels"),
                    FieldProblem::MustBe("a map of strings"),
                )
            })?;
            for (key, label) in labels {
                let label = label.as_str().ok_or_else(|| {
                    FieldError::new(
                        format!("{field}.matchLabels.{key}"),
                        FieldProblem::MustBe("a string"),
                    )
                })?;
                expressions.push(Expression::Equal(key.to_string(), label.to_string()));
            }
        }
        if let Some(list) = mapping.get("matchExpressions").filter(|v| !v.is_null()) {
            let list = list.as_array().ok_or_else(|| {
                FieldError::new(
                    format!("{field}.matchExpressions"),
                    FieldProblem::MustBe("a list"),
                )
            })?;
            for (i, entry) in list.iter().enumerate() {
                let entry_field = format!("{field}.matchExpressions[{i}]");
                expressions.push(read_expression(entry, &entry_field)?);
            }
        }
        Ok(LabelSelector(expressions.into_iter().collect()))
    }

    /// Whether `labels` satisfy every label and expression.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.0.matches(labels)
    }
}

impl From<Selector> for LabelSelector {
    fn from(selector: Selector) -> LabelSelector {
        LabelSelector(selector)
    }
}

impl FromIterator<Expression> for LabelSelector {
    fn from_iter<I: IntoIterator<Item = Expression>>(expressions: I) -> LabelSelector {
        LabelSelector(expressions.into_iter().collect())
    }
}

/// kubectl's syntax (`env in (prod),team=web`).
impl std::fmt::Display for LabelSelector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// One `matchExpressions` entry (at `field`): its key, operator and values.
fn read_expression(entry: &Val, field: &str) -> Result<Expression, FieldError> {
    let key = entry.get("key").and_then(Val::as_str);
    let operator = entry.get("operator").and_then(Val::as_str);
    let (Some(key), Some(operator)) = (key, operator) else {
        return Err(FieldError::new(field, FieldProblem::NeedsKeyAndOperator));
    };
    let values = || -> Result<BTreeSet<String>, FieldError> {
        let not_strings = || {
            FieldError::new(
                format!("{field}.values"),
                FieldProblem::MustBe("a list of strings"),
            )
        };
        match entry.get("values") {
            None | Some(Val::Null) => Ok(BTreeSet::new()),
            Some(Val::Array(values)) => values
                .iter()
                .map(|v| v.as_str().map(str::to_string).ok_or_else(not_strings))
                .collect(),
            Some(_) => Err(not_strings()),
        }
    };
    // Values are read (and refused when they are not strings) for every operator.
    let key = key.to_string();
    Ok(match operator {
        "In" => Expression::In(key, values()?),
        "NotIn" => Expression::NotIn(key, values()?),
        "Exists" => values().map(|_| Expression::Exists(key))?,
        "DoesNotExist" => values().map(|_| Expression::DoesNotExist(key))?,
        other => {
            return Err(FieldError::new(
                format!("{field}.operator"),
                FieldProblem::UnknownOperator(other.to_string()),
            ))
        }
    })
}
