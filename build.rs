//! Embeds the git commit the binary is built from (`PATHOLOGY_GIT_COMMIT`) for manifests:
//! `unknown` outside a git checkout, with `-dirty` when tracked files had uncommitted changes.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

fn main() {
    // Only this crate's own checkout names a commit: the packaged crate unpacked inside some
    // other repository (a .crate file, or the Python sdist built in a checkout) is `unknown`.
    let own_checkout = git(&["rev-parse", "--show-toplevel"]).is_some_and(|top| {
        let here = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
        match (std::fs::canonicalize(top), std::fs::canonicalize(here)) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        }
    });
    let commit = git(&["rev-parse", "HEAD"]).filter(|c| own_checkout && !c.is_empty());
    let commit = match commit {
        Some(c) => {
            let dirty = git(&[
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                "src",
                "Cargo.toml",
                "build.rs",
            ])
            .is_some_and(|s| !s.is_empty());
            if dirty { format!("{c}-dirty") } else { c }
        }
        None => "unknown".to_string(),
    };
    println!("cargo:rustc-env=PATHOLOGY_GIT_COMMIT={commit}");
    // Re-run when the commit changes (HEAD moves to another branch or the branch to another
    // commit; packed-refs when git packs the branch's ref) or the sources change, not on every
    // git command: `git status` refreshes the index, which used to force a full rebuild.
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        if let Some(common) = git(&["rev-parse", "--git-common-dir"]) {
            println!("cargo:rerun-if-changed={common}/packed-refs");
            if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
                println!("cargo:rerun-if-changed={common}/{head}");
            }
        }
    }
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=build.rs");
}
