//! `SameTarget::SeveralConflict`: only one policy may reach an object; with several,
//! none applies and all are Conflicted (Envoy AI Gateway's BackendSecurityPolicy:
//! "multiple on the same resource is invalid", its API reference).

use super::Outcome;
use crate::topology::PolicyId;

/// One alone applies; with several, none does: each loses to the next (the last to the
/// first), so every one of them shows whom it conflicts with.
pub(super) fn groups(mine: &[PolicyId]) -> Outcome {
    match mine {
        [] => (Vec::new(), Vec::new()),
        [one] => (vec![vec![*one]], Vec::new()),
        _ => {
            let next = mine.iter().cycle().skip(1);
            (
                Vec::new(),
                mine.iter().copied().zip(next.copied()).collect(),
            )
        }
    }
}
