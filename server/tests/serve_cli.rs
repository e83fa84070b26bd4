//! `keyplan serve` as a user runs it: the real binary, its exit code and its messages.

use std::process::Command;

#[test]
fn serve_without_a_built_app_names_the_command_that_builds_it_and_exits_1() {
    let empty = tempfile::tempdir().expect("temp dir");
    let output = Command::new(env!("CARGO_BIN_EXE_keyplan"))
        .args(["serve", "--port", "0", "--dist"])
        .arg(empty.path().join("dist"))
        .output()
        .expect("the keyplan binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the built app is missing"), "{stderr}");
    assert!(stderr.contains("make run"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
