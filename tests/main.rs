//! Integration tests.
mod errprop;
