//! The `keyplan` command line. Placeholder until the foundation lands.
fn main() {}
