//! Any text given to the ElectroDB importer yields a design or an error, never a panic, within
//! its bounds; a design that imports is analysed and round-trips through the design-file
//! writer.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(imported) = keyplan_core::import::import(keyplan_core::import::Format::ElectroDb, text) {
        let _ = keyplan_core::analyze(&imported.design);
        let again = keyplan_core::file::parse(&keyplan_core::file::to_string(&imported.design));
        assert!(again.is_ok(), "an imported design must write and parse");
    }
});
