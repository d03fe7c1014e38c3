#!/usr/bin/env bash
# The differential targets (agentfence against lean-ctx 3.12.0, prompty
# 2.1.0, agentsec-core 0.5.0), for `bash fuzz/nightly.sh --upstream`, or by
# hand:
#
#   bash fuzz-upstream/nightly.sh [SECONDS] [--no-lean-ctx]
#
# SECONDS per target: the first argument, else $FUZZ_SECONDS, else 300.
# --no-lean-ctx builds without lean-ctx (the half-hour part of the build)
# and runs diff_chat and diff_strip only.
# Builds into $CARGO_TARGET_DIR (default /work/target-upstream where it
# exists, else fuzz-upstream/target): the first build took 53 minutes here,
# most of it lean-ctx; cache that directory in CI. Stable Rust without a
# sanitizer (`-s none`) unless FUZZ_SANITIZER=address and nightly works.
# Prints one table row per target ("| target | execs | exec/s | ... |") and
# exits non-zero when a target disagreed (crashed) or failed to build.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-300}"
features=()
for arg in "$@"; do
    case "$arg" in
        --no-lean-ctx) features=(--no-default-features) ;;
        ''|*[!0-9]*) echo "usage: bash fuzz-upstream/nightly.sh [SECONDS] [--no-lean-ctx]" >&2; exit 2 ;;
        *) seconds="$arg" ;;
    esac
done
if [ -z "${CARGO_TARGET_DIR:-}" ] && [ -d /work/target-upstream ]; then
    export CARGO_TARGET_DIR=/work/target-upstream
fi
if [ "${FUZZ_SANITIZER:-none}" = address ] && cargo +nightly --version >/dev/null 2>&1; then
    fuzz=(cargo +nightly fuzz); build=()
else
    fuzz=(cargo fuzz); build=(-s none)
fi

final_stat() { grep -E "^stat::$2:" "$1" | tail -n 1 | grep -oE '[0-9]+$' || echo "?"; }
status_field() { grep -E '^#[0-9]+' "$1" | tail -n 1 | grep -oE "$2: [0-9]+" | grep -oE '[0-9]+$' || echo "?"; }

failed=0
for target in $(cargo fuzz list --fuzz-dir fuzz-upstream); do
    # diff_template needs lean-ctx (required-features in Cargo.toml).
    if [ "${#features[@]}" -gt 0 ] && [ "$target" = diff_template ]; then continue; fi
    mkdir -p "fuzz-upstream/corpus/$target" "fuzz-upstream/artifacts/$target"
    log="fuzz-upstream/artifacts/$target.log"
    rc=0
    "${fuzz[@]}" run --fuzz-dir fuzz-upstream "${build[@]}" "${features[@]}" "$target" \
        "fuzz-upstream/corpus/$target" "corpus/$target" -- \
        -max_total_time="$seconds" -print_final_stats=1 -dict="corpus/dict/$target.dict" \
        >"$log" 2>&1 || rc=$?
    result=ok
    if [ "$rc" -ne 0 ]; then failed=1; result="FAILED (exit $rc, see $log)"; tail -n 30 "$log" >&2; fi
    echo "| \`$target\` | $(final_stat "$log" number_of_executed_units) | $(final_stat "$log" average_exec_per_sec) | $(status_field "$log" cov) | $(status_field "$log" ft) | $(status_field "$log" corp) | $(final_stat "$log" new_units_added) | $(final_stat "$log" peak_rss_mb) | $(find "fuzz-upstream/artifacts/$target" -name 'crash-*' | wc -l) | $result |"
done
exit "$failed"
