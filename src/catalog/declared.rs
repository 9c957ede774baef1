//! The user's word on a kind: `--policy-kind KIND.GROUP=direct|inherited`, read and
//! checked (`Declared`); the catalog applies it (`Catalog::build`).

use super::class::{parse_class_label, Class};
use crate::model::GroupKind;

/// Why a `--policy-kind` (`given`) is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeclaredError {
    #[error("--policy-kind {given:?}: expected KIND.GROUP=direct|inherited")]
    NoClass { given: String },
    #[error("--policy-kind {given:?}: class must be direct or inherited, not {class:?}")]
    UnknownClass { given: String, class: String },
    #[error("--policy-kind {given:?}: the kind is empty")]
    EmptyKind { given: String },
}

/// A user's `--policy-kind KIND.GROUP=direct|inherited`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    pub(crate) group_kind: GroupKind,
    pub(crate) class: Class,
}

impl std::str::FromStr for Declared {
    type Err = DeclaredError;
    fn from_str(given: &str) -> Result<Self, DeclaredError> {
        let (gk, class) = given
            .split_once('=')
            .ok_or_else(|| DeclaredError::NoClass {
                given: given.to_string(),
            })?;
        let class = parse_class_label(class).ok_or_else(|| DeclaredError::UnknownClass {
            given: given.to_string(),
            class: class.to_string(),
        })?;
        let (kind, group) = gk.split_once('.').unwrap_or((gk, ""));
        if kind.is_empty() {
            return Err(DeclaredError::EmptyKind {
                given: given.to_string(),
            });
        }
        Ok(Declared {
            group_kind: GroupKind::new(group, kind),
            class,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_kind_flags_read_or_say_what_is_wrong() {
        let read = |given: &str| given.parse::<Declared>();
        assert_eq!(
            read("Throttle.example.io=direct"),
            Ok(Declared {
                group_kind: GroupKind::new("example.io", "Throttle"),
                class: Class::Direct,
            })
        );
        assert_eq!(
            read("Throttle.example.io"),
            Err(DeclaredError::NoClass {
                given: "Throttle.example.io".to_string()
            })
        );
        let sideways = read("T.x=sideways").unwrap_err();
        assert_eq!(
            sideways,
            DeclaredError::UnknownClass {
                given: "T.x=sideways".to_string(),
                class: "sideways".to_string()
            }
        );
        assert_eq!(
            sideways.to_string(),
            "--policy-kind \"T.x=sideways\": class must be direct or inherited, not \"sideways\""
        );
        assert!(matches!(
            read(".x=inherited"),
            Err(DeclaredError::EmptyKind { .. })
        ));
    }
}
