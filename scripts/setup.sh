#!/usr/bin/env bash
# Installs whatever keyplan's build and tests need and is missing; idempotent, and quick
# (a few seconds) when everything is present. Each check is by version, not by existence:
#   - Debian: chromium, chromium-driver, brotli, time (+ node/npm and python3-venv when absent);
#   - rustup target wasm32-unknown-unknown;
#   - trunk 0.21.14 (0.22 needs a newer rustc);
#   - wasm-bindgen-cli at exactly Cargo.lock's wasm-bindgen version;
#   - wasm-split-cli (crate wasm_split_cli_support), which splits the app's module;
#   - .tools/node_modules: scripts/npm-packages.txt (wasm-opt from binaryen 132, tsc, ...);
#   - .tools/venv: scripts/python-requirements.txt (moto, cfn-lint, ...).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
started=$SECONDS

TRUNK_VERSION=0.21.14

command -v cargo >/dev/null || {
  echo "error: cargo not found; install Rust with rustup (https://rustup.rs) first" >&2
  exit 1
}
# The workspace's rust-version (Cargo.toml; the AWS SDK's own floor): say so plainly, before a
# build fails on it deep inside a dependency.
need=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' "$(dirname "${BASH_SOURCE[0]}")/../Cargo.toml")
have=$(rustc --version | cut -d' ' -f2)
if [ -n "$need" ] && [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -1)" != "$need" ]; then
  echo "error: rustc $have is older than the $need keyplan needs; run: rustup update stable" >&2
  exit 1
fi

# --- Debian packages, only when one is missing -------------------------------------------
missing=()
# brotli: scripts/build.sh precompresses the app for `keyplan serve` at brotli's best quality.
# time: GNU time (/usr/bin/time -v), the peak memory server/tests/import_bombs.rs and the
# figure scripts read; the base image has no /usr/bin/time.
for pkg in chromium chromium-driver brotli time; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
done
command -v npm >/dev/null || missing+=(nodejs npm)
command -v python3 >/dev/null || missing+=(python3)
if command -v python3 >/dev/null && ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
  missing+=(python3-venv)
fi
if [ ${#missing[@]} -gt 0 ]; then
  step "apt-get install ${missing[*]}"
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

# --- Rust target and cargo-installed tools ------------------------------------------------
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  step "cargo install trunk $TRUNK_VERSION (about 11 minutes)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

# wasm-bindgen-cli must be the exact version of the wasm-bindgen crate in Cargo.lock.
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ -z "$bindgen_version" ]; then
  echo "error: no wasm-bindgen in Cargo.lock" >&2
  exit 1
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $bindgen_version" ]; then
  step "cargo install wasm-bindgen-cli $bindgen_version (about 4 minutes)"
  # Not --locked: its lock file names a dependency version the registry no longer has.
  cargo install wasm-bindgen-cli --version "$bindgen_version" --force
fi

# wasm-split-cli splits the app's module (scripts/split-wasm.py, issue 19). 0.2.4 handles the
# function-table relocations wasm-bindgen >= 0.2.125 emits (wasm-split-prototype#38).
SPLIT_VERSION=0.2.4
# It has no --version: cargo's list of installed crates says which one is there.
if ! cargo install --list | grep -qx "wasm_split_cli_support v$SPLIT_VERSION:" ||
  ! command -v wasm-split-cli >/dev/null; then
  step "cargo install wasm_split_cli_support $SPLIT_VERSION (about a minute)"
  cargo install wasm_split_cli_support --version "$SPLIT_VERSION" --locked --features build-binary
fi

# --- npm packages into .tools -------------------------------------------------------------
# A stamp holding the list as installed: reinstall only when the list changes.
mkdir -p .tools
npm_list=scripts/npm-packages.txt
if ! cmp -s "$npm_list" .tools/npm-packages.installed || [ ! -x .tools/node_modules/.bin/wasm-opt ]; then
  step "npm install into .tools ($npm_list)"
  mapfile -t npm_packages < <(grep -v '^\s*#' "$npm_list" | grep -v '^\s*$')
  npm install --prefix .tools --no-audit --no-fund --save-exact "${npm_packages[@]}"
  cp "$npm_list" .tools/npm-packages.installed
fi

# --- Python venv in .tools/venv -----------------------------------------------------------
python_list=scripts/python-requirements.txt
if ! cmp -s "$python_list" .tools/python-requirements.installed || [ ! -x .tools/venv/bin/python ]; then
  step "python venv .tools/venv ($python_list)"
  [ -x .tools/venv/bin/python ] || python3 -m venv .tools/venv
  .tools/venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$python_list"
  cp "$python_list" .tools/python-requirements.installed
fi

echo "setup: tools ready ($((SECONDS - started)) s)"
