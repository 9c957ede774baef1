//! Which rows of an answer `get -w` prints, and as which of kubectl's watch events
//! (`--output-watch-events`).
//!
//! kubectl prints a row for every event the server sends of an object it shows: each
//! change of it (MODIFIED), and, with a label selector, ADDED when an object starts to
//! match and DELETED when it stops. Here a policy's row is an answer, not an object, and
//! what an output prints of it decides when it is printed again:
//!
//! - `-o json` prints the item (the policy object as read and `computed`): at every
//!   change of it, to its spec, labels, annotations or the status its controllers
//!   wrote, and to what was worked out of it.
//! - A table prints cells: a row comes again only when a cell it shows differs (a
//!   change to a policy's spec alone, or to a label `--show-labels` does not show, is
//!   not a row of its own).
//!
//! Whatever the output, a policy that comes into view (new, or its labels now match
//! `-l`) is ADDED, and one that leaves it (deleted, or no longer matching) is DELETED,
//! with its last row.

use super::Answer;
use crate::model::ObjRef;
use crate::query::PolicyRow;
use std::collections::BTreeSet;

/// kubectl's watch event types (`--output-watch-events`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Event {
    Added,
    Modified,
    Deleted,
}

impl Event {
    pub fn as_str(self) -> &'static str {
        match self {
            Event::Added => "ADDED",
            Event::Modified => "MODIFIED",
            Event::Deleted => "DELETED",
        }
    }
}

/// What an output prints of a row, which says when a row that changed is printed again.
#[derive(Clone, Copy)]
pub enum Shows<'f> {
    /// Table cells: `alike` says whether two rows of a policy show the same cells.
    Cells(&'f dyn Fn(&PolicyRow, &PolicyRow) -> bool),
    /// `-o json` items: every change of the policy object or of its row.
    Items,
}

/// The policies whose rows are in view (printed, and not since printed DELETED).
#[derive(Default)]
pub struct Shown {
    policies: BTreeSet<ObjRef>,
}

impl Shown {
    /// The rows first printed (all ADDED).
    pub fn new<'r>(first: impl IntoIterator<Item = &'r PolicyRow>) -> Shown {
        Shown {
            policies: first.into_iter().map(|r| r.policy.clone()).collect(),
        }
    }

    /// The rows of `answer` to print, and their events: those of its changed rows in
    /// view now (`in_view`: in scope, of the names asked, selected by -l) that came into
    /// view (ADDED) or changed in what `shows` prints (MODIFIED), in `get`'s order;
    /// then the rows that left the view (DELETED): their policies gone, or out of view.
    pub fn events(
        &mut self,
        answer: &Answer,
        in_view: impl Fn(&PolicyRow) -> bool,
        shows: Shows,
    ) -> Vec<(PolicyRow, Event)> {
        let mut printed = Vec::new();
        let mut left = Vec::new();
        for row in &answer.changed {
            if !in_view(row) {
                if self.policies.remove(&row.policy) {
                    left.push((row.clone(), Event::Deleted));
                }
                continue;
            }
            if self.policies.insert(row.policy.clone()) {
                printed.push((row.clone(), Event::Added));
                continue;
            }
            let was = answer.was.get(&row.policy);
            let again = match shows {
                Shows::Cells(alike) => was.is_none_or(|was| !alike(was, row)),
                Shows::Items => answer.edited.contains(&row.policy) || was != Some(row),
            };
            if again {
                printed.push((row.clone(), Event::Modified));
            }
        }
        for row in &answer.deleted {
            if self.policies.remove(&row.policy) {
                left.push((row.clone(), Event::Deleted));
            }
        }
        printed.extend(left);
        printed
    }
}
