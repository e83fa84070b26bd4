//! Any text parses into a key template with diagnostics, never a panic; every diagnostic span
//! lies inside the source on character boundaries, and rendering and re-building from parts
//! never panic.
#![no_main]

use keyplan_core::KeyTemplate;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let t = KeyTemplate::parse(source);
    for d in t.diagnostics() {
        assert!(d.span.start <= d.span.end && d.span.end <= source.len());
        assert!(source.is_char_boundary(d.span.start) && source.is_char_boundary(d.span.end));
    }
    let _ = t.render(|v| Some(v.name.clone()));
    let _ = t.render_prefix(|_| None);
    if t.is_valid() {
        let rebuilt = KeyTemplate::from_parts(t.parts());
        assert_eq!(rebuilt.parts().len(), t.parts().len());
    }
});
