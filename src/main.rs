//! The `pathology` command: everything is in the library's [`pathology::cli`].

fn main() -> std::process::ExitCode {
    pathology::cli::main()
}
