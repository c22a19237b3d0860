//! Helpers shared by the integration tests.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

/// The `pathology` binary under test.
pub fn pathology() -> Command {
    Command::cargo_bin("pathology").unwrap()
}

/// Runs a command that must succeed and returns its standard output.
pub fn stdout_of(args: &[&str]) -> String {
    let output = pathology().args(args).output().unwrap();
    assert!(
        output.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Runs a command that must succeed and parses its standard output as JSON.
pub fn json_of(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of(args)).unwrap()
}

/// Runs a command that must be refused: exit code 2, stderr naming `mentions`, no panic.
pub fn refused(args: &[&str], mentions: &[&str]) {
    let mut assert = pathology()
        .args(args)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("panicked").not());
    for m in mentions {
        assert = assert.stderr(predicate::str::contains(*m));
    }
}
