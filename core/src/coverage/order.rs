//! An order in words (`newest first` for a time read descending), as a verdict and a
//! suggestion say it: a leaf both `read` and `re_key` use.

/// An order in words: `newest first` for a time read descending, else `descending`.
pub(super) fn words(by: &str, descending: bool) -> &'static str {
    match (is_time_like(by), descending) {
        (true, true) => "newest first",
        (true, false) => "oldest first",
        (false, true) => "descending",
        (false, false) => "ascending",
    }
}

/// True for an attribute named like a point in time: `createdAt`, `orderDate`, `timestamp`.
fn is_time_like(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    name.ends_with("At")
        || name.ends_with("_at")
        || ["date", "time", "timestamp", "day", "month", "year"]
            .iter()
            .any(|w| lower.ends_with(w))
}
