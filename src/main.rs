//! The `pathology` command: parses arguments with clap and calls the library.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // Interrupted by SIGINT, SIGTERM or SIGHUP: remove the partial files (and staging
    // directories) being written, so every destination keeps its old contents or nothing, and
    // exit as a shell expects of a process stopped by SIGINT (128 + 2).
    let _ = ctrlc::set_handler(|| {
        pathology::report::output::remove_partial_files();
        std::process::exit(130);
    });
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(error) => cli::report(&error),
    }
}
