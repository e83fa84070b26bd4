#!/usr/bin/env bash
# Builds the browser app into dist/ with trunk, offline, with the tools setup.sh pinned.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

# Offline builds need every crate already downloaded.
cargo fetch
# The app's release build uses the `wasm-release` cargo profile (index.html:
# data-cargo-profile-release), then wasm-opt -Oz.
trunk build index.html --release=true --offline=true
