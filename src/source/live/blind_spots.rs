//! What could not be read, said once per kind and cause: the blind spots of a read.

use super::api::ApiError;
use crate::model::read::Resource;
use crate::model::{BlindReason, BlindSpot};
use std::collections::BTreeMap;

/// What was tried for one kind, to summarise as blind spots.
#[derive(Default)]
pub(super) struct KindLog {
    /// Whether it is a policy kind (the warning says "policies").
    pub(crate) policy: bool,
    /// Its cluster-wide list, when one was made.
    pub(crate) cluster: Option<Result<(), ApiError>>,
    /// Its lists per namespace.
    pub(crate) namespaces: BTreeMap<String, Result<(), ApiError>>,
}

/// The reason a failed list gives a blind spot.
fn reason_of(error: &ApiError) -> BlindReason {
    match error.code() {
        Some(403) => BlindReason::Forbidden,
        Some(404) => BlindReason::NotFound,
        _ => BlindReason::Error,
    }
}

/// A failed list's cause, as a warning says it.
fn short_reason(error: &ApiError) -> String {
    match error.code() {
        Some(403) => "forbidden".into(),
        Some(404) => "not served (404)".into(),
        _ => error.to_string(),
    }
}

fn join_names(names: &[&str]) -> String {
    match names {
        [one] => format!("namespace {one}"),
        many => format!("namespaces {}", many.join(", ")),
    }
}

/// One blind spot per kind and cause: what could not be listed, and what that hides.
pub(super) fn summarise(resource: &Resource, log: &KindLog) -> Vec<BlindSpot> {
    let what = if log.policy {
        "policies of this kind"
    } else {
        "objects of this kind"
    };
    let consequence = match resource.kind.as_str() {
        "CustomResourceDefinition" => {
            "policy kinds are recognised by the built-in registry and by their names only"
                .to_string()
        }
        "Namespace" => {
            "namespace labels are not known (allowedRoutes selectors may not match)".to_string()
        }
        "Pod" if resource.group.is_empty() => {
            "the policies there that pick Pods by label are shown SelectorBound".to_string()
        }
        _ if resource.metadata_only() => {
            "the policies' references to them there are unchecked; their verdicts stand".to_string()
        }
        _ => format!("{what} are not shown"),
    };
    let spot = |namespace: Option<String>, reason: BlindReason, message: String| BlindSpot {
        group: resource.group.clone(),
        kind: resource.kind.clone(),
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
        if e.code() == Some(403) && resource.namespaced && !ok_ns.is_empty() {
            out.push(spot(
                None,
                BlindReason::Forbidden,
                format!(
                    "cannot list {} in all namespaces: forbidden; read in {} only, {what} elsewhere are not shown",
                    resource.display(),
                    join_names(&ok_ns)
                ),
            ));
        } else if e.code() == Some(403) && resource.namespaced && !failed_ns.is_empty() {
            // Forbidden cluster-wide and in the namespaces in scope: said once, below.
        } else {
            let whereabouts = if resource.namespaced {
                " in all namespaces"
            } else {
                ""
            };
            out.push(spot(
                None,
                reason_of(e),
                format!(
                    "cannot list {}{whereabouts}: {cause}; {consequence}",
                    resource.display()
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
                resource.display(),
                join_names(&namespaces)
            ),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resource(namespaced: bool) -> Resource {
        Resource {
            group: "resilience.example.io".into(),
            version: "v1".into(),
            kind: "RetryPolicy".into(),
            plural: "retrypolicies".into(),
            namespaced,
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
        let spots = summarise(&resource(true), &log);
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
        let spots = summarise(&resource(true), &log);
        assert_eq!(spots.len(), 1);
        assert!(
            spots[0]
                .message
                .contains("in all namespaces: forbidden; read in namespace baker only"),
            "{}",
            spots[0].message
        );
    }
}
