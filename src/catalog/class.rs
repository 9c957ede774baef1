//! A kind's GEP-713 class (`Class`), read from the label its CRD carries
//! (`parse_class_label`), and where the tool learned that a kind is a policy
//! (`ClassOrigin`).

use serde::Serialize;

/// GEP-713 classes (a communicative aid in the current text, still the common vocabulary).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Class {
    Direct,
    Inherited,
}

/// The label's value, compared case-insensitively; `true` means direct.
pub fn parse_class_label(label: &str) -> Option<Class> {
    match label.trim().to_ascii_lowercase().as_str() {
        "direct" | "true" => Some(Class::Direct),
        "inherited" => Some(Class::Inherited),
        _ => None,
    }
}

/// Where the tool learned that a kind is a policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ClassOrigin {
    Label,
    Registry,
    Declared,
    Assumed,
}

impl ClassOrigin {
    pub fn as_str(self) -> &'static str {
        match self {
            ClassOrigin::Label => "label",
            ClassOrigin::Registry => "registry",
            ClassOrigin::Declared => "declared",
            ClassOrigin::Assumed => "assumed",
        }
    }
}
