#!/usr/bin/env bash
# Builds the browser app into dist/ with trunk, offline, with the tools setup.sh pinned.
# Skips the build when nothing the app is built from changed since the last successful one
# (wasm-opt alone takes tens of seconds); KEYPLAN_REBUILD=1 forces it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

inputs=(index.html Trunk.toml Cargo.toml Cargo.lock .cargo app core style examples scripts/build.sh scripts/split-wasm.py)
stamp=dist/.keyplan-build-stamp
if [ "${KEYPLAN_REBUILD:-0}" != 1 ] && [ -f "$stamp" ] && [ -f dist/index.html ] &&
  [ -z "$(find "${inputs[@]}" -newer "$stamp" -print -quit 2>/dev/null)" ]; then
  echo "dist/ is up to date (KEYPLAN_REBUILD=1 forces a build)"
  exit 0
fi

# The stamp's time is the build's start: a source edited while the build runs is newer than it,
# so the next build does not take the dist/ it did not see for up to date.
started=$(mktemp)
trap 'rm -f "$started"' EXIT

# Offline builds need every crate already downloaded.
cargo fetch
# The app's release build uses the `wasm-release` cargo profile (index.html:
# data-cargo-profile-release); trunk's post-build hook (scripts/split-wasm.py) splits the main
# module and runs wasm-opt -Oz on its parts.
trunk build index.html --release=true --offline=true

# Precompressed copies beside the app's files, which `keyplan serve` sends to a browser that
# accepts them (tower-http's ServeDir, `precompressed_br`/`precompressed_gzip`): brotli at its
# best quality once per build, where compressing on the fly cost seconds of the server's CPU on
# every first load and gave a larger file (the main module: 526 KB at brotli 11, 691 KB at
# gzip 9). Each file is compressed in the background; every one must succeed.
pids=()
for file in dist/*.wasm dist/*.js dist/*.css; do
  brotli --quality=11 --force --keep "$file" & pids+=($!)
  gzip -9 --force --keep "$file" & pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
mv "$started" "$stamp"
trap - EXIT
