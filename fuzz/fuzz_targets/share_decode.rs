//! Fuzzes the share-link decoder: any text must decode to a design or to a `LinkError`, never
//! panic, overflow the stack or allocate without bound.
//!
//! The first byte picks how the rest is presented, so the fuzzer reaches every stage: 0, the
//! text as given (prefix, fragment and version parsing); 1, `1.` + base64url of the bytes (the
//! DEFLATE reader); 2, `1.` + base64url of the bytes deflated (the version-1 wire reader, since
//! a stream without back-references reads the same with or without the preset dictionary).
//! A design that decodes must survive encode and decode unchanged.
#![no_main]

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use keyplan_core::share::{LinkError, decode, encode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let text = match mode % 3 {
        0 => String::from_utf8_lossy(rest).into_owned(),
        1 => format!("1.{}", URL_SAFE_NO_PAD.encode(rest)),
        _ => format!(
            "1.{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(rest, 6))
        ),
    };
    if let Ok(design) = decode(&text) {
        match encode(&design) {
            Ok(payload) => assert_eq!(decode(&payload).as_ref(), Ok(&design)),
            // A design that unpacked from a tiny link may still be too large to re-share.
            Err(LinkError::DesignTooLarge { .. }) => {}
            Err(other) => panic!("encoding a decoded design failed: {other}"),
        }
    }
});
