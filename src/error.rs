//! **Layer 0, the error type.** May import nothing of the crate.
//!
//! The library's error type: every message names the argument and the allowed range.

use thiserror::Error;

/// Errors from the library.
///
/// [`Error::InvalidArgument`] and [`Error::TooExpensive`] are the user's to fix (the binary
/// exits with code 2 for them, like a usage error).
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum Error {
    /// An argument outside its allowed range.
    #[error("{name} must be {allowed}, got {got}")]
    InvalidArgument {
        /// The argument's name as the user wrote it (`f1`, `--height`).
        name: String,
        /// The allowed range, in words (`in [0, 1]`).
        allowed: String,
        /// What was given.
        got: String,
    },
    /// Work refused up front because it would need too much time or memory.
    #[error("{what} would need {estimate}; refused (limit: {limit}). {hint}")]
    TooExpensive {
        /// What was asked for.
        what: String,
        /// The estimated cost.
        estimate: String,
        /// The limit that it exceeds.
        limit: String,
        /// What to do instead.
        hint: String,
    },
    /// The computation was cancelled through [`crate::cancel`] (Ctrl-C in the Python
    /// package) before it finished; nothing of it is returned.
    #[error("interrupted: the computation was cancelled before it finished")]
    Interrupted,
}

impl Error {
    /// Shorthand for [`Error::InvalidArgument`].
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::Error;
    /// let err = Error::invalid("--height", "between 1 and 40", 41);
    /// assert_eq!(err.to_string(), "--height must be between 1 and 40, got 41");
    /// assert!(matches!(err, Error::InvalidArgument { ref name, .. } if name == "--height"));
    /// ```
    pub fn invalid(name: &str, allowed: &str, got: impl std::fmt::Display) -> Self {
        Error::InvalidArgument {
            name: name.to_string(),
            allowed: allowed.to_string(),
            got: got.to_string(),
        }
    }

    /// Whether the error is the user's input (the binary exits with code 2).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::analytic::dgame::{DependenceFactors, check_cost};
    /// assert!(DependenceFactors::new(1.5, 0.5).unwrap_err().is_usage());
    /// assert!(check_cost(30, None).unwrap_err().is_usage());
    /// ```
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            Error::InvalidArgument { .. } | Error::TooExpensive { .. }
        )
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
