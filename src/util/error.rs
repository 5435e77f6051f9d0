//! The one error type of oxjax. Every fallible function returns [`Result`]; the API layer turns
//! an [`Error`] into a JavaScript `Error` whose message names the function and the problem.

use std::fmt;

/// An error with a message that is shown to the user verbatim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    message: String,
}

impl Error {
    /// An error whose message is `"{function}: {problem}"`.
    pub fn new(function: &str, problem: impl fmt::Display) -> Self {
        Error {
            message: format!("{function}: {problem}"),
        }
    }

    /// An error with a complete message (already naming the function).
    pub fn msg(message: impl Into<String>) -> Self {
        Error {
            message: message.into(),
        }
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
