//! Integration tests, one binary (faster to link on two cores).

mod cli;
mod mc;
mod tables;
