//! Any bytes given to the NoSQL Workbench importer yield a design or an error, never a panic or
//! a hang; a design that imports is analysed and round-trips through the design-file writer.
//! The model's items are read beside its JSON tree (core/src/import/nosql_workbench/json.rs),
//! so detection, which shares that parse, is fuzzed on the same text.
#![no_main]

use keyplan_core::import::{self, Format};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(imported) = import::import(Format::NosqlWorkbench, text) {
        let _ = keyplan_core::analyze(&imported.design);
        let again = keyplan_core::file::parse(&keyplan_core::file::to_string(&imported.design));
        assert!(again.is_ok(), "a written design must parse");
    }
    let _ = import::detect_and_import(text);
});
