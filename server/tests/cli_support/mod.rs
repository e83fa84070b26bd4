//! The `keyplan` binary as the CLI tests run it.
#![allow(dead_code)]

use std::process::{Command, Output};

/// `keyplan ARGS` with plain output (`NO_COLOR`) and without the environment variables
/// `unset`, which would change what the test reads.
pub fn keyplan_without(unset: &[&str], args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_keyplan"));
    command.args(args).env("NO_COLOR", "1");
    for name in unset {
        command.env_remove(name);
    }
    command.output().expect("the keyplan binary runs")
}

/// [`keyplan_without`], which must exit 0: its stdout.
pub fn succeeds(unset: &[&str], args: &[&str]) -> String {
    let out = keyplan_without(unset, args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// [`keyplan_without`] exits with `code`, its stderr saying `reason`.
pub fn fails(unset: &[&str], args: &[&str], code: i32, reason: &str) {
    let out = keyplan_without(unset, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{stderr}");
    assert!(stderr.contains(reason), "{stderr}");
}
