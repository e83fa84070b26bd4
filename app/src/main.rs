//! The browser entry point: mounts the app and nothing else.

fn main() {
    keyplan_app::mount();
}
