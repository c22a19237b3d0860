//! **Layer 0, the error type.** May import nothing of the crate.
//!
//! The library's error type: every message names the argument and the allowed range.

use thiserror::Error;

/// Errors from the library.
///
/// The longest value an [`Error::InvalidArgument`] repeats in full (longer ones are shortened
/// to half of it): room for a file name and what differs, not for a 10,000-item law.
pub const MAX_ECHO: usize = 600;

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
    /// Another error with what was being done when it happened ([`Error::context`]). Its
    /// message is the context alone; the error it wraps is its
    /// [`source`](std::error::Error::source), so a chain printer (`anyhow`'s `{:#}`) prints
    /// `context: cause`.
    #[error("{context}")]
    Context {
        /// What was being done.
        context: String,
        /// The error it ran into.
        #[source]
        source: Box<Error>,
    },
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
    ///
    /// A value longer than [`MAX_ECHO`] characters is shortened to its start and its length,
    /// so that a refused 10,000-item law does not fill the terminal:
    ///
    /// ```
    /// use pathology::Error;
    /// let law = vec!["1:1/10000"; 10_000].join(",");
    /// let text = Error::invalid("--noise", "at most 64 values", &law).to_string();
    /// assert!(text.starts_with("--noise must be at most 64 values, got 1:1/10000,"), "{text}");
    /// assert!(text.len() < 400 && text.ends_with("... (99999 characters)"), "{text}");
    /// ```
    pub fn invalid(name: &str, allowed: &str, got: impl std::fmt::Display) -> Self {
        let mut got = got.to_string();
        let length = got.chars().count();
        if length > MAX_ECHO {
            got = got.chars().take(MAX_ECHO / 2).collect::<String>()
                + &format!("... ({length} characters)");
        }
        Error::InvalidArgument {
            name: name.to_string(),
            allowed: allowed.to_string(),
            got,
        }
    }

    /// Wraps the error with what was being done ([`Error::Context`]); it stays the user's to
    /// fix when the wrapped error is.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::Error;
    /// let err = Error::invalid("p0", "in [0, 1]", 2).context("deriving f2");
    /// assert_eq!(err.to_string(), "deriving f2");
    /// assert_eq!(std::error::Error::source(&err).unwrap().to_string(), "p0 must be in [0, 1], got 2");
    /// assert!(err.is_usage());
    /// ```
    pub fn context(self, context: impl Into<String>) -> Self {
        Error::Context {
            context: context.into(),
            source: Box::new(self),
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
        match self {
            Error::InvalidArgument { .. } | Error::TooExpensive { .. } => true,
            Error::Context { source, .. } => source.is_usage(),
            Error::Interrupted => false,
        }
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
