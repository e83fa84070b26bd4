//! The app's main module keeps the linker's relocations: wasm-split-cli (scripts/split-wasm.py)
//! reads from them which code each function reaches. The worker's module is not split and
//! links without them.
fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "wasm32");
    if wasm {
        println!("cargo::rustc-link-arg-bin=keyplan-app=--emit-relocs");
    }
}
