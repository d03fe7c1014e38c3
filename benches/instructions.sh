#!/usr/bin/env bash
# One chat parse's instructions per byte on each bench prompt, counted by
# valgrind (cachegrind, no cache simulation): the count of 13 parses less
# the count of 3, over ten parses' bytes, so that start-up and the tables
# built once drop out. Counts do not depend on the machine's load, as
# criterion's times do. With UPSTREAM=1, prompty 2.1.0 beside it (slow to
# build).
#
#   bash benches/instructions.sh            # from the repository root
set -euo pipefail
if ! command -v valgrind > /dev/null; then
    echo "skipped: valgrind is not installed (apt-get install valgrind)"
    exit 0
fi
features=()
parsers=(agentfence)
if [ "${UPSTREAM:-0}" = 1 ]; then
    features=(--features upstream-prompty)
    parsers=(agentfence prompty)
fi
cargo build -q --release -p agentfence-benches --example chat_parse_rounds "${features[@]}"
bin=target/release/examples/chat_parse_rounds
count() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$bin" "$@" 2>&1 \
        | sed -n 's/.*I *refs: *//p' | tr -d ,
}
printf '%-10s %9s %-11s %-10s %s\n' prompt bytes mode parser instructions/byte
for input in "synthetic 1024" "synthetic 102400" "prose 102400"; do
    for mode in non-strict strict; do
        for parser in "${parsers[@]}"; do
            set -- $input
            bytes=$("$bin" "$1" "$2" "$mode" "$parser" 0)
            few=$(count "$1" "$2" "$mode" "$parser" 3)
            many=$(count "$1" "$2" "$mode" "$parser" 13)
            per_byte=$(awk -v a="$few" -v b="$many" -v n="$bytes" 'BEGIN { printf "%.2f", (b - a) / (10 * n) }')
            printf '%-10s %9s %-11s %-10s %s\n' "$1" "$bytes" "$mode" "$parser" "$per_byte"
        done
    done
done
