//! How answers are printed for people: kubectl's printer flags (`-o wide`,
//! `--no-headers`, `--show-labels`, the NAMESPACE column of `-A`, colour, the instant AGE
//! counts from) as one value. The command line resolves it once (as ripgrep's `HiArgs`
//! builds its printer) and hands it to every renderer, which takes what it needs from it
//! and decides nothing else about the page.

use super::{age, Style};

/// kubectl's printer flags, resolved once: what every human renderer (tables, pages,
/// trees) is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Printer {
    /// Colour (never for structured output: the command line decides).
    pub style: Style,
    /// Tables with their header row (not `--no-headers`).
    pub headers: bool,
    /// `-o wide`: the extra columns, every target, the wide pages.
    pub wide: bool,
    /// `--show-labels`: `get`'s LABELS column.
    pub show_labels: bool,
    /// `-A`: `get`'s NAMESPACE column, as kubectl's printer prints it with
    /// `--all-namespaces`.
    pub with_namespace: bool,
    /// The instant AGE counts from.
    pub clock: Clock,
}

/// The instant AGE counts from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Clock {
    /// The system clock (or `KUBECTL_POLICIES_NOW`: `age::now`), read as each table or
    /// page is written, as kubectl reads it when it prints (`get -w` prints for hours).
    #[default]
    System,
    /// A fixed instant, in seconds since the epoch.
    At(i64),
}

impl Default for Printer {
    /// kubectl's defaults: headers, the narrow columns, no labels, no colour, the
    /// system clock.
    fn default() -> Printer {
        Printer {
            style: Style::default(),
            headers: true,
            wide: false,
            show_labels: false,
            with_namespace: false,
            clock: Clock::System,
        }
    }
}

impl Printer {
    /// The instant AGE counts from, in seconds since the epoch.
    pub(crate) fn now(&self) -> i64 {
        match self.clock {
            Clock::System => age::now(),
            Clock::At(t) => t,
        }
    }
}
