//! Lines on stderr: warnings and errors, their text from input or a server escaped
//! (docs/reference.md#terminal-safety).

use kubectl_policies::model::BlindSpot;
use kubectl_policies::render::escape::terminal_safe;

/// A warning for every part of the input that could not be read.
pub fn warn_blind_spots(spots: &[BlindSpot]) {
    for spot in spots {
        warn_line(&format!("warning: {}", spot.message));
    }
}

/// One line on stderr, its text from input or a server escaped (docs/reference.md#terminal-safety).
pub fn warn_line(text: &str) {
    eprintln!("{}", terminal_safe(text));
}
