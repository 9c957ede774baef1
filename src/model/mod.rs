//! The data every stage shares, at the bottom of the pipeline: names and references
//! (`names`), objects and what could not be read (`object`), and the Gateway API's
//! vocabulary (`vocabulary`). No I/O, and no import of any other module of the crate.

mod names;
mod object;
mod vocabulary;

pub use names::*;
pub use object::*;
pub use vocabulary::*;
