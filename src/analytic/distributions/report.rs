//! Reports (stub).
