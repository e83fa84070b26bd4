#!/usr/bin/env bash
# Prints them; run from the repository root after `cargo build -p keyplan-server` (K= another binary).
# Wall time of `keyplan run` on the order example (100 customers), embedded engine, without and
# with --keep (the kept run writes to kept-tables.db on disk), then the size of that file.
set -euo pipefail
K=${K:-target/debug/keyplan}
D=$(mktemp -d)
t() { local s=$(date +%s.%N); "$@" > /dev/null; local e=$(date +%s.%N); echo "$(echo "$e - $s" | bc)"; }
echo "in memory: $(t $K run examples/order-management.keyplan.json --count Customer=100 --data-dir $D) s"
echo "kept:      $(t $K run examples/order-management.keyplan.json --count Customer=100 --keep --data-dir $D) s"
echo "kept-tables.db: $(du -b $D/kept-tables.db | cut -f1) bytes"
echo "list-kept: $(t $K run --list-kept --data-dir $D) s"
R=$(ls $D/kept-runs | sed 's/.json//')
echo "delete-kept: $(t $K run --delete-kept $R --data-dir $D) s"
echo "kept-tables.db after delete: $(du -b $D/kept-tables.db | cut -f1) bytes"
rm -rf "$D"
