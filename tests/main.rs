//! Integration tests, one binary (faster to link on two cores).

mod architecture;
mod ballard_kalah_gap;
mod cli;
mod common;
mod decision;
mod distributions;
mod errprop;
mod estimates;
mod exact;
mod figures;
mod ggame;
mod hostile;
mod limits;
mod mc;
mod models;
mod options;
mod packaging;
mod readme;
mod reliability;
mod report_commands;
mod round4_numbers;
mod studies;
mod tables;
mod uct;
mod validate;
mod variety;
