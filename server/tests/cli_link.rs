//! `keyplan link` end to end (issue 7): a design file becomes a link, the link becomes the same
//! design file again, and a bad link exits 2 with a message and nothing on stdout.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn keyplan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_keyplan"))
        .args(args)
        .output()
        .expect("the keyplan binary runs")
}

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/order-management.keyplan.json")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

#[test]
fn a_design_file_becomes_a_link_and_the_link_the_same_design_file() {
    let file = example();
    let made = keyplan(&["link", file.to_str().expect("UTF-8 path")]);
    assert!(made.status.success(), "{made:?}");
    let link = stdout(&made).trim().to_string();
    assert!(
        link.starts_with(&format!(
            "http://127.0.0.1:8080/#d={}.",
            keyplan_core::share::LINK_VERSION
        )),
        "{link}"
    );

    let opened = keyplan(&["link", "--decode", &link]);
    assert!(opened.status.success(), "{opened:?}");
    let text = std::fs::read_to_string(&file).expect("the example is readable");
    let design = keyplan_core::file::parse(&text).expect("the example parses");
    assert_eq!(stdout(&opened), keyplan_core::file::to_string(&design));
}

#[test]
fn the_base_option_sets_the_address_the_link_opens() {
    let file = example();
    let made = keyplan(&[
        "link",
        file.to_str().expect("UTF-8 path"),
        "--base",
        "https://keyplan.example/app/",
    ]);
    assert!(made.status.success(), "{made:?}");
    assert!(stdout(&made).starts_with(&format!(
        "https://keyplan.example/app/#d={}.",
        keyplan_core::share::LINK_VERSION
    )));
}

#[test]
fn a_bad_link_exits_2_with_a_message() {
    for (link, message) in [
        ("http://127.0.0.1:8080/#d=1.AAA", "the link"),
        ("http://127.0.0.1:8080/#d=9.AAAA", "newer keyplan"),
        ("garbage", "no version"),
    ] {
        let out = keyplan(&["link", "--decode", link]);
        assert_eq!(out.status.code(), Some(2), "{link}: {out:?}");
        assert!(out.stdout.is_empty(), "{link}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{link}: {stderr}");
    }
}
