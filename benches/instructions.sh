#!/usr/bin/env bash
# Instructions counted by valgrind (cachegrind, no cache simulation), which
# do not depend on the machine's load as criterion's times do: the count of
# 13 rounds less the count of 3, over ten rounds, so that start-up and the
# tables built once drop out.
# - chat: one chat parse's instructions per byte on each bench prompt;
# - template: one failure template's instructions per message, over the
#   harvested tool errors of core/tests/data/real_errors/.
# With UPSTREAM=1, prompty 2.1.0 and lean-ctx 3.12.0 beside them (slow to
# build: lean-ctx takes about half an hour in release mode).
#
#   bash benches/instructions.sh [chat|template]   # from the repository root
set -euo pipefail
if ! command -v valgrind > /dev/null; then
    echo "skipped: valgrind is not installed (apt-get install valgrind)"
    exit 0
fi
which=${1:-all}
# Each section builds with its own upstream crate only: building both
# together changes the features of shared dependencies, and so rebuilds
# lean-ctx.
chat_features=()
template_features=()
parsers=(agentfence)
templaters=(agentfence)
if [ "${UPSTREAM:-0}" = 1 ]; then
    chat_features=(--features upstream-prompty)
    template_features=(--features upstream-lean-ctx)
    parsers=(agentfence prompty)
    templaters=(agentfence lean-ctx)
fi
target=${CARGO_TARGET_DIR:-target}
count() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 \
        | sed -n 's/.*I *refs: *//p' | tr -d ,
}
if [ "$which" = all ] || [ "$which" = chat ]; then
    cargo build -q --release -p agentfence-benches --example chat_parse_rounds "${chat_features[@]}"
    bin=$target/release/examples/chat_parse_rounds
    printf '%-10s %9s %-11s %-10s %s\n' prompt bytes mode parser instructions/byte
    for input in "synthetic 1024" "synthetic 102400" "prose 102400"; do
        for mode in non-strict strict; do
            for parser in "${parsers[@]}"; do
                set -- $input
                bytes=$("$bin" "$1" "$2" "$mode" "$parser" 0)
                few=$(count "$bin" "$1" "$2" "$mode" "$parser" 3)
                many=$(count "$bin" "$1" "$2" "$mode" "$parser" 13)
                per_byte=$(awk -v a="$few" -v b="$many" -v n="$bytes" 'BEGIN { printf "%.2f", (b - a) / (10 * n) }')
                printf '%-10s %9s %-11s %-10s %s\n' "$1" "$bytes" "$mode" "$parser" "$per_byte"
            done
        done
    done
fi
if [ "$which" = all ] || [ "$which" = template ]; then
    cargo build -q --release -p agentfence-benches --example template_rounds "${template_features[@]}"
    bin=$target/release/examples/template_rounds
    messages=$("$bin" agentfence 0)
    printf '%-12s %9s %s\n' templater messages instructions/message
    for templater in "${templaters[@]}"; do
        few=$(count "$bin" "$templater" 3)
        many=$(count "$bin" "$templater" 13)
        per_message=$(awk -v a="$few" -v b="$many" -v n="$messages" 'BEGIN { printf "%.0f", (b - a) / (10 * n) }')
        printf '%-12s %9s %s\n' "$templater" "$messages" "$per_message"
    done
fi
