//! Why a `TYPE/NAME` on the command line names nothing: the words, the kind, or the
//! object, each as data (what was typed, where it was looked for, what is near), said in
//! kubectl's words by `Display`.

use super::hint::did_you_mean;

/// What went wrong naming an object.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// The words are not `TYPE/NAME`, `TYPE NAME…` or `TYPE/NAME#SECTION`.
    #[error("{}{expected}", given_prefix(.given))]
    Words {
        given: Option<String>,
        expected: &'static str,
    },
    /// TYPE names no kind known, or more than one (`message` says which, and the
    /// nearest known).
    #[error("{message}")]
    UnknownType { typed: String, message: String },
    /// A kind that `get` does not list: not a policy kind.
    #[error("get lists policies, and {resource} is not a policy kind: try describe {kind}/NAME for what reaches one")]
    NotAPolicyKind { resource: String, kind: String },
    /// `TYPE/NAME#SECTION` of a policy.
    #[error(
        "{kind}/{name}#{section}: a policy has no sections (it may target one: see its TARGETS)"
    )]
    PolicySection {
        kind: String,
        name: String,
        section: String,
    },
    /// No object of that kind and name in scope: the namespaces where there is one, or
    /// else the nearest names in scope.
    #[error("{resource} {name:?} not found{}{}{}", in_namespace(.namespace), elsewhere_hint(.elsewhere), did_you_mean(.nearest))]
    NotFound {
        resource: String,
        name: String,
        namespace: Option<String>,
        elsewhere: Vec<String>,
        nearest: Vec<String>,
    },
    /// A Pod no policy picks by label: not a node of the hierarchy. `in_input`: the
    /// Pod was read (else none of that name was, and Pods are read only where a policy
    /// picks them).
    #[error("{}", pod_not_in_hierarchy(.name, .namespace, *.in_input))]
    PodNotInHierarchy {
        name: String,
        namespace: String,
        in_input: bool,
    },
    /// The kind could not be read there: whether it exists is unknown.
    #[error("{resource} {name:?}: {why}")]
    Unreadable {
        resource: String,
        name: String,
        why: String,
    },
    /// The object is there, without that section: its sections, and the nearest.
    #[error("{kind} {name:?} has no section {section:?} ({}){}", sections_list(.sections), did_you_mean(.nearest))]
    SectionNotFound {
        kind: String,
        name: String,
        section: String,
        sections: Vec<String>,
        nearest: Vec<String>,
    },
    /// A command that starts at an object of the hierarchy was given a namespace.
    #[error(
        "{what} starts at an object of the hierarchy; for namespace {namespace} use -n {namespace}"
    )]
    NamespaceNotNode { what: String, namespace: String },
    /// A command that starts at an object of the hierarchy was given a policy.
    #[error("{what} starts at an object of the hierarchy, not a policy")]
    PolicyNotNode { what: String },
    /// A command that starts at an object of the hierarchy was given an object only
    /// policies' specs name (a Secret).
    #[error("{what} starts at an object of the hierarchy, and {object} is none (policies name it in their specs: try describe {object})")]
    ReferencedNotNode { what: String, object: String },
}

fn given_prefix(given: &Option<String>) -> String {
    given
        .as_ref()
        .map(|g| format!("{g:?}: "))
        .unwrap_or_default()
}

fn in_namespace(ns: &Option<String>) -> String {
    ns.as_ref()
        .map(|ns| format!(" in namespace {ns}"))
        .unwrap_or_default()
}

fn elsewhere_hint(elsewhere: &[String]) -> String {
    match elsewhere {
        [] => String::new(),
        [one] => format!(" (there is one in namespace {one}: add -n {one})"),
        many => format!(" (there are some in namespaces {})", many.join(", ")),
    }
}

fn pod_not_in_hierarchy(name: &str, namespace: &str, in_input: bool) -> String {
    let picks = "GKE's targetRefs {kind: Pod, selector}";
    match in_input {
        true => format!(
            "pod {name:?} in namespace {namespace} is not part of the policy hierarchy: no policy picks it by label (only the Pods a policy picks are, by {picks}); describe the Service that selects it"
        ),
        false => format!(
            "pods {name:?} not found in namespace {namespace} (Pods are read only where a policy picks Pods by label, by {picks}; a Pod no policy picks is not part of the policy hierarchy)"
        ),
    }
}

fn sections_list(sections: &[String]) -> String {
    match sections {
        [] => "it has none".to_string(),
        all => format!("its sections: {}", all.join(", ")),
    }
}
