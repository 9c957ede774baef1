//! The names every stage uses: group/kind pairs and references to objects and sections.

use super::text::{text, Text};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A kind qualified by its API group (`""` is the core group).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GroupKind {
    pub(crate) group: Text,
    pub(crate) kind: Text,
}

impl GroupKind {
    pub fn new(group: &str, kind: &str) -> Self {
        GroupKind {
            group: text(normalize_group(group)),
            kind: text(kind),
        }
    }
}

impl fmt::Display for GroupKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.group.is_empty() {
            write!(f, "{}", self.kind)
        } else {
            write!(f, "{}.{}", self.kind, self.group)
        }
    }
}

/// `core` is how some policies spell the core group; the API spells it `""`.
pub(crate) fn normalize_group(group: &str) -> &str {
    if group == "core" {
        ""
    } else {
        group
    }
}

/// The group of an `apiVersion` (`gateway.networking.k8s.io/v1` → the group, `v1` → core).
pub(crate) fn group_of_api_version(api_version: &str) -> &str {
    match api_version.rsplit_once('/') {
        Some((group, _)) => group,
        None => "",
    }
}

/// A reference to an object, or to a section of one (a listener, a rule, a port).
///
/// Field order gives the sort order that every list in the output follows:
/// kind, namespace, name, section (group breaks ties between equal kinds).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ObjRef {
    pub group: Text,
    pub kind: Text,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<Text>,
    pub name: Text,
    #[serde(
        default,
        rename = "sectionName",
        skip_serializing_if = "Option::is_none"
    )]
    pub section: Option<Text>,
}

impl Ord for ObjRef {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (
            &self.kind,
            &self.namespace,
            &self.name,
            &self.section,
            &self.group,
        )
            .cmp(&(
                &other.kind,
                &other.namespace,
                &other.name,
                &other.section,
                &other.group,
            ))
    }
}

impl PartialOrd for ObjRef {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl ObjRef {
    pub fn new(group: &str, kind: &str, namespace: Option<&str>, name: &str) -> Self {
        ObjRef {
            group: text(normalize_group(group)),
            kind: text(kind),
            namespace: namespace.map(text),
            name: text(name),
            section: None,
        }
    }

    pub fn with_section(mut self, section: Option<&str>) -> Self {
        self.section = section.map(text);
        self
    }

    /// The whole object this reference names (drops the section).
    pub fn object(&self) -> ObjRef {
        ObjRef {
            section: None,
            ..self.clone()
        }
    }

    pub fn group_kind(&self) -> GroupKind {
        GroupKind {
            group: self.group.clone(),
            kind: self.kind.clone(),
        }
    }

    /// `namespace/name`, the key GEP-713 orders ties by.
    pub fn ns_name(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{ns}/{}", self.name),
            None => self.name.to_string(),
        }
    }
}

impl fmt::Display for ObjRef {
    /// kubectl's way: `httproute.gateway.networking.k8s.io/baker` plus `#section`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.kind.to_lowercase();
        if self.group.is_empty() {
            write!(f, "{kind}/")?;
        } else {
            write!(f, "{kind}.{}/", self.group)?;
        }
        if let Some(ns) = &self.namespace {
            write!(f, "{ns}/")?;
        }
        write!(f, "{}", self.name)?;
        if let Some(s) = &self.section {
            write!(f, "#{s}")?;
        }
        Ok(())
    }
}

impl ObjRef {
    /// A short human form: `HTTPRoute baker/baker#rule-1`.
    pub(crate) fn short(&self) -> String {
        let mut s = format!("{} {}", self.kind, self.ns_name());
        if let Some(sec) = &self.section {
            s.push('#');
            s.push_str(sec);
        }
        s
    }
}

/// Why `name` cannot name a namespace, or None when it can: a namespace's name is a
/// lowercase RFC 1123 label, as the API server validates it (apimachinery's
/// `ValidateNamespaceName`, `IsDNS1123Label`), so that nothing else goes into a URL.
pub fn namespace_name_problem(name: &str) -> Option<&'static str> {
    const LABEL: &str = "a namespace name must be a lowercase RFC 1123 label: lower case alphanumeric characters or '-', starting and ending with an alphanumeric character (e.g. 'my-name' or '123-abc')";
    let alnum = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    let bytes = name.as_bytes();
    match (bytes.first(), bytes.last()) {
        (None, _) | (_, None) => Some("a namespace name may not be empty"),
        _ if bytes.len() > 63 => Some("a namespace name must be no more than 63 characters"),
        (Some(first), Some(last))
            if !alnum(first) || !alnum(last) || !bytes.iter().all(|b| alnum(b) || *b == b'-') =>
        {
            Some(LABEL)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::namespace_name_problem as problem;

    #[test]
    fn namespace_names_are_rfc_1123_labels() {
        for ok in [
            "default",
            "a",
            "0",
            "kube-system",
            "123-abc",
            &"a".repeat(63),
        ] {
            assert_eq!(problem(ok), None, "{ok}");
        }
        for bad in [
            "",
            "a/b",
            "..",
            "A",
            "-a",
            "a-",
            "a_b",
            "a.b",
            "é",
            "a\u{1b}[2J",
            " a",
            "%2F",
        ] {
            assert!(problem(bad).is_some(), "{bad:?}");
        }
        assert!(problem(&"a".repeat(64)).unwrap().contains("63"));
    }
}
