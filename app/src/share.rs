//! Share links in the app: the link for the open design at this page's address, and reading
//! one from the address bar. The codec and its limits are core's (`keyplan_core::share`).

use keyplan_core::Design;

/// The design in a `#d=` fragment's payload (or a whole link).
pub fn decode(payload: &str) -> Result<Design, String> {
    keyplan_core::share::decode(payload).map_err(|e| e.to_string())
}

/// The link to `design` at this page's address.
pub fn link(design: &Design) -> Result<String, String> {
    let location = web_sys::window()
        .map(|w| w.location())
        .ok_or("no page address")?;
    let base = format!(
        "{}{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_else(|_| "/".into())
    );
    keyplan_core::share::link(&base, design).map_err(|e| e.to_string())
}
