#!/usr/bin/env bash
# `make test`: the whole suite. Every step runs even after a failure, so one log shows every
# problem; the summary at the end lists each step, and the exit code is non-zero when any
# step failed. Tests that need a tool fail (not skip) when it is missing:
# KEYPLAN_REQUIRE_TOOLS=1.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
export KEYPLAN_REQUIRE_TOOLS=1

results=()
failed=0
run_step() {
  local name=$1
  shift
  step "$name"
  local started=$SECONDS
  if "$@"; then
    results+=("ok      $name ($((SECONDS - started)) s)")
  else
    results+=("FAILED  $name ($((SECONDS - started)) s)")
    failed=1
  fi
}

run_step "setup" scripts/setup.sh
run_step "file lengths: no source file over 1,000 lines (issue 42)" scripts/file-lengths
run_step "no import circle between the top-level modules of any crate (issue 42)" scripts/module-cycles --top
run_step "no import circle between any two modules of any crate" scripts/module-cycles
run_step "keyplan check server/rooms.keyplan.json (the live rooms' own table, issue 38)" \
  cargo run -q -p keyplan-server --bin keyplan -- check server/rooms.keyplan.json
run_step "trunk build --release (the app the end-to-end test opens)" scripts/build.sh
run_step "cargo test --workspace --no-fail-fast (every crate, with the browser end-to-end test)" \
  cargo test --workspace --no-fail-fast
run_step "cargo test -p keyplan-app --features partiql --lib (the worker's PartiQL job, issue 40)" \
  cargo test -p keyplan-app --features partiql --lib
run_step "cargo build -p keyplan-core --target wasm32-unknown-unknown" \
  cargo build -p keyplan-core --target wasm32-unknown-unknown
run_step "wasm-bindgen-test: keyplan-app in headless Chromium" \
  env CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  CHROMEDRIVER=/usr/bin/chromedriver \
  cargo test -p keyplan-app --target wasm32-unknown-unknown

step "summary"
printf '  %s\n' "${results[@]}"
if [ "$failed" -ne 0 ]; then
  echo "keyplan test: FAILED"
  exit 1
fi
echo "keyplan test: all steps passed"
