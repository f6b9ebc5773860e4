//! Variant options: a schema per game and typed parsing of user-supplied values.
//!
//! Users give variants as JSON objects (Python dicts). Each game declares its options
//! with a default, the allowed values and a one-line description; parsing rejects unknown
//! names and bad values with an [`Error`] that names both.

use crate::error::{Error, Result};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Contents of the files named by file options, by path as given in the variant. The
/// engine never opens a path: callers (the Python layer, the pipeline's workers) read the
/// file and hand its text over with the variant.
pub type Files = BTreeMap<String, String>;

/// One variant option of a game.
#[derive(Debug, Clone)]
pub struct OptionSpec {
    pub name: &'static str,
    pub default: Value,
    /// Human-readable list of allowed values, e.g. `"area | cell"`.
    pub allowed: &'static str,
    pub description: &'static str,
    /// The value is a path of a file the engine reads (a string, or null for none). Callers
    /// that run the engine elsewhere (the pipeline's workers) resolve relative paths first
    /// and record the file's contents; the schema exposes it as `"path": true`.
    pub path: bool,
}

impl OptionSpec {
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "name": self.name,
            "default": self.default,
            "allowed": self.allowed,
            "description": self.description,
            "path": self.path,
        })
    }
}

/// A parsed variant object with helpers that produce errors naming the option.
pub struct Options<'a> {
    map: Map<String, Value>,
    schema: &'a [OptionSpec],
}

impl<'a> Options<'a> {
    /// Checks that every given key is in `schema`.
    pub fn new(game: &str, value: &Value, schema: &'a [OptionSpec]) -> Result<Self> {
        let map = match value {
            Value::Null => Map::new(),
            Value::Object(m) => m.clone(),
            other => {
                return Err(Error::Invalid(format!("variant must be an object of option names to values, got {other}")))
            }
        };
        for key in map.keys() {
            if !schema.iter().any(|s| s.name == key) {
                return Err(Error::UnknownOption {
                    game: game.to_string(),
                    name: key.clone(),
                    allowed: schema.iter().map(|s| s.name.to_string()).collect(),
                });
            }
        }
        Ok(Options { map, schema })
    }

    fn spec(&self, name: &str) -> &OptionSpec {
        self.schema.iter().find(|s| s.name == name).expect("option in schema")
    }

    /// The given value, or `None` when the user left the option out (or gave null).
    pub fn raw(&self, name: &str) -> Option<&Value> {
        self.map.get(name).filter(|v| !v.is_null())
    }

    pub fn bad(&self, name: &str, value: &Value) -> Error {
        Error::BadValue {
            option: name.to_string(),
            value: value.to_string(),
            allowed: self.spec(name).allowed.to_string(),
        }
    }

    /// A string option that must be one of `choices`; returns its index.
    pub fn choice(&self, name: &str, choices: &[&str]) -> Result<usize> {
        let v = self.raw(name).unwrap_or(&self.spec(name).default).clone();
        match &v {
            Value::String(s) => choices.iter().position(|c| c == s).ok_or_else(|| self.bad(name, &v)),
            _ => Err(self.bad(name, &v)),
        }
    }

    pub fn boolean(&self, name: &str, default: bool) -> Result<bool> {
        match self.raw(name) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(v) => Err(self.bad(name, v)),
        }
    }

    pub fn int_in(&self, name: &str, default: i64, lo: i64, hi: i64) -> Result<i64> {
        match self.raw(name) {
            None => Ok(default),
            Some(v) => match v.as_i64() {
                Some(i) if (lo..=hi).contains(&i) => Ok(i),
                _ => Err(self.bad(name, v)),
            },
        }
    }

    /// A file option: `None` when not given (null), else the path as given and the file's
    /// text from `files`. A path without content is an error naming the option.
    pub fn file<'f>(&self, name: &str, files: &'f Files) -> Result<Option<(String, &'f str)>> {
        match self.raw(name) {
            None => Ok(None),
            Some(Value::String(path)) => match files.get(path) {
                Some(text) => Ok(Some((path.clone(), text.as_str()))),
                None => Err(Error::BadFile {
                    option: name.to_string(),
                    path: path.clone(),
                    message: "no content was given (the engine reads no files: pass the file's text with the variant)"
                        .to_string(),
                }),
            },
            Some(v) => Err(self.bad(name, v)),
        }
    }

    pub fn float_in(&self, name: &str, default: f64, lo: f64, hi: f64) -> Result<f64> {
        match self.raw(name) {
            None => Ok(default),
            Some(v) => match v.as_f64() {
                Some(x) if (lo..=hi).contains(&x) => Ok(x),
                _ => Err(self.bad(name, v)),
            },
        }
    }
}
