//! Any bytes given to the design-file parser yield a design or an error, never a panic; a
//! design that parses is analysed (coverage and findings must not panic either) and
//! round-trips through the writer.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(design) = keyplan_core::file::parse(text) {
        let _ = keyplan_core::analyze(&design);
        let again = keyplan_core::file::parse(&keyplan_core::file::to_string(&design));
        assert!(again.is_ok(), "a written design must parse");
    }
});
