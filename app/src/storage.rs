//! The browser's localStorage: the user's local designs, each saved on every change.
//!
//! Keys: `keyplan.designs` lists the designs (one `id<TAB>name` per line), `keyplan.design.<id>`
//! holds each as a design file, `keyplan.current` the one open. A design that no longer parses
//! (written by a newer keyplan) is reported, never silently replaced. Storage that is missing
//! or full (private mode, quota) degrades to an in-memory session with a message.

use keyplan_core::Design;

const LIST: &str = "keyplan.designs";
const CURRENT: &str = "keyplan.current";

/// One local design in the switcher.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalDesign {
    pub id: String,
    pub name: String,
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn get(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

fn set(key: &str, value: &str) -> Result<(), String> {
    let storage = storage().ok_or("this browser keeps no local storage: work is not saved")?;
    storage
        .set_item(key, value)
        .map_err(|_| "the browser refused to save (storage full?): export your design".to_string())
}

fn design_key(id: &str) -> String {
    format!("keyplan.design.{id}")
}

/// Parses the list of local designs; lines that do not read are skipped.
pub fn parse_list(text: &str) -> Vec<LocalDesign> {
    text.lines()
        .filter_map(|line| line.split_once('\t'))
        .filter(|(id, _)| !id.is_empty())
        .map(|(id, name)| LocalDesign {
            id: id.to_string(),
            name: name.to_string(),
        })
        .collect()
}

/// Writes the list of local designs.
pub fn format_list(list: &[LocalDesign]) -> String {
    list.iter()
        .map(|d| format!("{}\t{}\n", d.id, d.name.replace(['\t', '\n', '\r'], " ")))
        .collect()
}

pub fn list() -> Vec<LocalDesign> {
    get(LIST).map(|t| parse_list(&t)).unwrap_or_default()
}

pub fn current() -> Option<String> {
    get(CURRENT)
}

/// Loads a saved design: `None` if there is none, `Err` if it no longer reads.
pub fn load(id: &str) -> Option<Result<Design, String>> {
    let text = get(&design_key(id))?;
    Some(keyplan_core::file::parse(&text).map_err(|e| e.to_string()))
}

/// Saves a design, makes it current and keeps its name in the list.
pub fn save(id: &str, design: &Design) -> Result<(), String> {
    set(&design_key(id), &keyplan_core::file::to_string(design))?;
    let mut list = list();
    match list.iter_mut().find(|d| d.id == id) {
        Some(entry) if entry.name == design.name => {}
        Some(entry) => entry.name = design.name.clone(),
        None => list.push(LocalDesign {
            id: id.to_string(),
            name: design.name.clone(),
        }),
    }
    set(LIST, &format_list(&list))?;
    set(CURRENT, id)
}

/// Forgets a local design.
pub fn remove(id: &str) {
    if let Some(s) = storage() {
        let _ = s.remove_item(&design_key(id));
    }
    let list: Vec<LocalDesign> = list().into_iter().filter(|d| d.id != id).collect();
    let _ = set(LIST, &format_list(&list));
}

/// A fresh id, unlikely to collide across tabs: the time in base 36 and a counter.
pub fn new_id() -> String {
    let now = js_sys::Date::now() as u64;
    let taken = list();
    let mut n = 0u32;
    loop {
        let id = format!(
            "{}{}",
            to_base36(now),
            if n == 0 {
                String::new()
            } else {
                format!("-{n}")
            }
        );
        if !taken.iter().any(|d| d.id == id) {
            return id;
        }
        n += 1;
    }
}

fn to_base36(mut n: u64) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_design_list_round_trips_and_skips_junk() {
        let list = vec![
            LocalDesign {
                id: "a1".into(),
                name: "Orders".into(),
            },
            LocalDesign {
                id: "b2".into(),
                name: "tab\there".into(),
            },
        ];
        let parsed = parse_list(&(format_list(&list) + "junk line\n\tno id\n"));
        assert_eq!(parsed.len(), 2);
        assert_eq!(parsed[1].name, "tab here");
    }

    #[test]
    fn ids_are_base36() {
        assert_eq!(to_base36(0), "0");
        assert_eq!(to_base36(36 * 36 + 35), "10z");
    }
}
