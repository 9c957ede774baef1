//! Why a template does not parse, or does not run.

/// Why a template or a path does not parse: the text being read (the template, or a
/// path or quoted text inside it), the byte offset in that text where reading stopped,
/// and why. Its `Display` is the message kubectl-policies has always printed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", describe(.reason, .text, *.position))]
pub struct TemplateError {
    pub(crate) text: String,
    pub(crate) position: usize,
    pub(crate) reason: TemplateReason,
}

/// What is wrong at a [`TemplateError`]'s position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TemplateReason {
    /// The whole template is empty.
    Empty,
    /// A `{` at the position without its `}`.
    UnclosedAction,
    /// `{end}` at the position, outside any `{range}`.
    NothingToEnd,
    /// A backslash at the position followed by this (nothing: the text ends there).
    UnknownEscape(Option<char>),
    /// Text from the position on that cannot continue the path.
    Unexpected,
    /// A `.` followed by neither a key nor `*` nor `[`.
    KeyExpected,
    /// A `[` not closed at the position.
    CloseBracketExpected,
    /// A `[?(` not closed at the position.
    CloseFilterExpected,
    /// A quote opened before the position and never closed.
    UnclosedQuote,
    /// This word, at the position, where an index belongs.
    NotAnIndex(String),
    /// Nothing at the position that an index, a slice or a key starts with.
    IndexExpected,
    /// This word, at the position, to the right of a filter's operator.
    NotAValue(String),
    /// The text (`--sort-by`, a custom column) holds no path at all.
    NotAPath,
}

fn describe(reason: &TemplateReason, text: &str, position: usize) -> String {
    let rest = text.get(position..).unwrap_or_default();
    match reason {
        TemplateReason::Empty => "the template is empty".to_string(),
        TemplateReason::UnclosedAction => format!("unclosed action: {rest}"),
        TemplateReason::NothingToEnd => "not in range, nothing to end".to_string(),
        TemplateReason::UnknownEscape(escape) => format!(
            "unknown escape \\{} in {text:?}",
            escape.map(String::from).unwrap_or_default()
        ),
        TemplateReason::Unexpected => format!("unexpected {rest:?} in {text:?}"),
        TemplateReason::KeyExpected => format!("expected a key after '.' in {text:?}"),
        TemplateReason::CloseBracketExpected => format!("expected ']' in {text:?}"),
        TemplateReason::CloseFilterExpected => {
            format!("expected ')' to close the filter in {text:?}")
        }
        TemplateReason::UnclosedQuote => format!("unclosed quote in {text:?}"),
        TemplateReason::NotAnIndex(word) => format!("{word:?} is not an index in {text:?}"),
        TemplateReason::IndexExpected => {
            format!("expected an index, a slice or a key in {text:?}")
        }
        TemplateReason::NotAValue(word) => format!("{word:?} is not a value to compare with"),
        TemplateReason::NotAPath => format!("{text:?} is not a JSONPath"),
    }
}

/// Why a template that parsed cannot run on a document, in kubectl's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// An index or a slice applied to a value of this kind.
    #[error("{kind} is not array or slice")]
    NotAList { kind: &'static str },
    #[error("array index out of bounds: index {index}, length {length}")]
    OutOfBounds { index: i64, length: i64 },
    #[error("starting index {start} is greater than ending index {end}")]
    StartAfterEnd { start: i64, end: i64 },
    #[error("step must be > 0")]
    StepNotPositive { step: i64 },
    /// A filter's side that reached several values.
    #[error("can only compare one element at a time")]
    SeveralToCompare,
}
