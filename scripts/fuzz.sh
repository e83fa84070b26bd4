#!/usr/bin/env bash
# Fuzzes keyplan's parsers and importers with cargo-fuzz: each target for SECONDS (default 120), then prints
# the executions libFuzzer ran per target. Installs what is missing, idempotently: the nightly
# toolchain (rustup) and cargo-fuzz at exactly $CARGO_FUZZ_VERSION.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]        # targets default to every one in fuzz/
#   nice -n 19 scripts/fuzz.sh 240 design_file   # on a shared machine
#
# The corpus grows in fuzz/corpus/TARGET (git-ignored; design_file is seeded with examples/,
# key_template with a few templates, import_* with keyplan's exports of examples/ and with
# fuzz/seeds/import_*, onetable and electrodb with tests/fixtures/). A crash leaves its input
# in fuzz/artifacts/TARGET/ and makes the script exit 1 after the other targets have run;
# reproduce it with the command the script printed for the target and the input:
# `cargo +nightly fuzz run [-O] TARGET
# fuzz/artifacts/TARGET/crash-...` (`-O` for onetable and electrodb, see below).
# FUZZ_TARGET_DIR (default fuzz/target) chooses cargo's target dir.
#
# Each target runs as it was fuzzed for issue 15: cargo-fuzz's default build (optimised, with
# debug assertions and overflow checks) for most; `-O` (release, no debug assertions) for the
# targets that parse JavaScript with oxc_parser, onetable and electrodb: oxc_parser 0.146 has a
# debug_assert that valid input trips (fuzz/regressions/onetable), so keyplan builds it without
# debug assertions everywhere (root Cargo.toml), and the OneTable target was fuzzed with
# `cargo +nightly fuzz run -O onetable`. The two builds use separate target dirs, so switching
# between them does not rebuild every dependency.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

CARGO_FUZZ_VERSION=0.13.2
seconds=${1:-120}
shift || true
case $seconds in
'' | *[!0-9]*)
  echo "error: SECONDS must be a whole number, got \`$seconds\`" >&2
  exit 2
  ;;
esac
target_dir=${FUZZ_TARGET_DIR:-$KEYPLAN_ROOT/fuzz/target}

# Sets `options` to the cargo-fuzz build options target $1 is fuzzed with (see above).
options_for() {
  case $1 in
  onetable | electrodb) options=(-O --target-dir "$target_dir/no-debug-assertions") ;;
  *) options=(--target-dir "$target_dir") ;;
  esac
}

command -v rustup >/dev/null || {
  echo "error: rustup not found; cargo-fuzz needs a nightly toolchain from rustup" >&2
  exit 1
}
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  step "rustup toolchain install nightly"
  rustup toolchain install nightly --profile minimal
fi
if [ "$(cargo fuzz --version 2>/dev/null)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]; then
  step "cargo install cargo-fuzz $CARGO_FUZZ_VERSION"
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked --force
fi

cd "$KEYPLAN_ROOT/fuzz"
if [ $# -eq 0 ]; then
  mapfile -t targets < <(cargo +nightly fuzz list)
else
  targets=("$@")
fi

# Seeds: valid inputs get the fuzzer past the parsers' first error quickly.
mkdir -p corpus/design_file corpus/key_template
for example in "$KEYPLAN_ROOT"/examples/*.keyplan.json; do
  cp -n "$example" "corpus/design_file/seed-$(basename "$example")"
done
# OneTable and ElectroDB: the real models of tests/fixtures and keyplan's own exports.
mkdir -p corpus/onetable corpus/electrodb
for format in onetable electrodb; do
  for fixture in "$KEYPLAN_ROOT"/tests/fixtures/$format/*.ts "$KEYPLAN_ROOT"/tests/fixtures/$format/*.js; do
    [ -e "$fixture" ] && cp -n "$fixture" "corpus/$format/seed-$(basename "$fixture")"
  done
done
seed=0
for template in 'CUSTOMER#{customerId}' '{createdAt}#{orderId}' 'PROFILE' \
  'STATUS#{status}#SHARD{shard:10}' 'ORDER#{orderId}#ITEM#{itemId}' '{' '#{}{shard:}'; do
  seed=$((seed + 1))
  [ -e "corpus/key_template/seed-$seed" ] || printf '%s' "$template" >"corpus/key_template/seed-$seed"
done

# The importers start from keyplan's own exports of the examples, made here so that they follow
# the exporters (TARGET:FORMAT:EXTENSION), and from the inputs in fuzz/seeds/TARGET that no
# export writes.
exports=(import_terraform:terraform:tf)
for export in "${exports[@]}"; do
  IFS=: read -r target format extension <<<"$export"
  [[ " ${targets[*]} " == *" $target "* ]] || continue
  mkdir -p "corpus/$target"
  for example in "$KEYPLAN_ROOT"/examples/*.keyplan.json; do
    out="$KEYPLAN_ROOT/fuzz/corpus/$target/$(basename "$example" .keyplan.json).$extension"
    [ -e "$out" ] || cargo run --quiet --manifest-path "$KEYPLAN_ROOT/Cargo.toml" \
      -p keyplan-server --bin keyplan -- export "$example" --to "$format" -o "$out"
  done
done
for seeds in "$KEYPLAN_ROOT"/fuzz/seeds/*/; do
  target=$(basename "$seeds")
  mkdir -p "corpus/$target"
  cp -n "$seeds"* "corpus/$target/"
done

step "cargo +nightly fuzz build ${targets[*]}"
for target in "${targets[@]}"; do
  options_for "$target"
  cargo +nightly fuzz build "${options[@]}" "$target"
done

logs=$(mktemp -d)
summary=()
failed=0
for target in "${targets[@]}"; do
  options_for "$target"
  step "fuzz $target for $seconds s: cargo +nightly fuzz run ${options[*]} $target"
  log="$logs/$target.log"
  if cargo +nightly fuzz run "${options[@]}" "$target" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    >"$log" 2>&1; then
    outcome=ok
  else
    outcome=CRASH
    failed=1
    tail -n 40 "$log"
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  per_second=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  summary+=("$(printf '%-6s %-14s %12s executions (%s/s) in %s s' \
    "$outcome" "$target" "${execs:-?}" "${per_second:-?}" "$seconds")")
done

step "summary (logs in $logs)"
printf '%s\n' "${summary[@]}"
if [ "$failed" -ne 0 ]; then
  echo "crash inputs:"
  ls -1 "$KEYPLAN_ROOT"/fuzz/artifacts/*/ 2>/dev/null || true
fi
exit "$failed"
