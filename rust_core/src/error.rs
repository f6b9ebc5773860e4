//! The one error type of the core. Every variant names what was wrong and what is allowed;
//! the Python layer turns it into `ValueError`.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    UnknownGame {
        name: String,
        allowed: Vec<String>,
    },
    UnknownOption {
        game: String,
        name: String,
        allowed: Vec<String>,
    },
    BadValue {
        option: String,
        value: String,
        allowed: String,
    },
    /// A file option whose file is missing or invalid.
    BadFile {
        option: String,
        path: String,
        message: String,
    },
    UnknownAgent {
        spec: String,
        allowed: Vec<String>,
    },
    BadAgentParam {
        spec: String,
        message: String,
    },
    PlayerCount {
        game: String,
        count: usize,
        min: usize,
        max: usize,
    },
    Invalid(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownGame { name, allowed } => {
                write!(f, "unknown game {name:?}; allowed: {}", allowed.join(", "))
            }
            Error::UnknownOption { game, name, allowed } => {
                write!(f, "unknown variant option {name:?} for game {game:?}; allowed: {}", allowed.join(", "))
            }
            Error::BadValue { option, value, allowed } => {
                write!(f, "bad value {value} for option {option:?}; allowed: {allowed}")
            }
            Error::BadFile { option, path, message } => {
                write!(f, "variant option {option:?}: file {path:?}: {message}")
            }
            Error::UnknownAgent { spec, allowed } => {
                write!(f, "unknown agent {spec:?}; allowed: {}", allowed.join(", "))
            }
            Error::BadAgentParam { spec, message } => write!(f, "bad agent spec {spec:?}: {message}"),
            Error::PlayerCount { game, count, min, max } => write!(
                f,
                "{game} needs {min} to {max} players, got {count} agents; allowed player counts: {min}..={max}"
            ),
            Error::Invalid(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
