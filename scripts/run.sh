#!/usr/bin/env bash
# `make run`: set up, build the app, serve it and the API on http://127.0.0.1:8080.
# Extra arguments go to `keyplan serve` (e.g. `scripts/run.sh --port 9000`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

scripts/setup.sh
step "trunk build --release"
scripts/build.sh
step "keyplan serve (Ctrl-C stops it)"
# A debug build: it shares artifacts with `make test`, and serving files needs no speed.
exec cargo run --quiet -p keyplan-server --bin keyplan -- serve --dist dist "$@"
