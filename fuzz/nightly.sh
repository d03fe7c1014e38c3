#!/usr/bin/env bash
# Long fuzzing run over every cargo-fuzz target, for the nightly CI job and
# for a maintainer by hand:
#
#   bash fuzz/nightly.sh [SECONDS] [--merge] [--upstream] [TARGET...]
#
# TARGET names limit the run to those targets (default: every target of
# `cargo fuzz list`); a name that is no target is refused before any run.
# --upstream also runs the differential targets of fuzz-upstream/ (agentfence
# against lean-ctx, prompty and agentsec-core) through
# fuzz-upstream/nightly.sh, after the others; their rows join the table.
#
# SECONDS per target: the first argument, else $FUZZ_SECONDS, else 300.
# With nightly Rust (`cargo +nightly` works) the targets run under
# AddressSanitizer; otherwise on stable with `-s none` (no sanitizer).
# Set FUZZ_SANITIZER=none to force the stable mode.
#
# New inputs go to fuzz/corpus/<target> (gitignored); the committed
# corpus/<target> is only read, unless --merge is given: then the inputs of
# fuzz/corpus/<target> that add coverage are merged into corpus/<target>
# (libFuzzer -merge=1, which keeps the existing, named seeds; review and
# commit the new files by hand). Crash inputs stay in fuzz/artifacts/<target>/,
# each target's libFuzzer log in fuzz/artifacts/<target>.log. The script
# prints a Markdown table of libFuzzer's final stats and exits non-zero when
# any target crashed (or failed to build).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-300}"
merge=0
upstream=0
chosen=()
usage="usage: bash fuzz/nightly.sh [SECONDS] [--merge] [--upstream] [TARGET...]"
for arg in "$@"; do
    case "$arg" in
        --merge) merge=1 ;;
        --upstream) upstream=1 ;;
        -*|'') echo "$usage" >&2; exit 2 ;;
        *[!0-9]*) chosen+=("$arg") ;;
        *) seconds="$arg" ;;
    esac
done

if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked --version 0.13.2
fi

if [ "${FUZZ_SANITIZER:-address}" != none ] && cargo +nightly --version >/dev/null 2>&1; then
    fuzz=(cargo +nightly fuzz)
    build=()                      # cargo fuzz's default: -s address
    mode="nightly, AddressSanitizer"
else
    fuzz=(cargo fuzz)
    build=(-s none)
    mode="stable, no sanitizer (-s none)"
fi
echo "fuzzing: $mode, ${seconds}s per target, $("${fuzz[@]}" --version)"

. fuzz/target_flags.sh
targets=$(cargo fuzz list)
[ -n "$targets" ] || { echo "cargo fuzz list found no target" >&2; exit 1; }
if [ "${#chosen[@]}" -gt 0 ]; then
    for name in "${chosen[@]}"; do
        grep -qx -- "$name" <<<"$targets" || {
            echo "no fuzz target named '$name'; the targets are:" $targets >&2
            echo "$usage" >&2
            exit 2
        }
    done
    targets="${chosen[*]}"
fi

# The stat of the last libFuzzer status line ("#N DONE cov: C ft: F corp: U/S ...").
status_field() { grep -E '^#[0-9]+' "$1" | tail -n 1 | grep -oE "$2: [0-9]+" | grep -oE '[0-9]+$' || echo "?"; }
# A line of -print_final_stats=1 ("stat::number_of_executed_units: N").
final_stat() { grep -E "^stat::$2:" "$1" | tail -n 1 | grep -oE '[0-9]+$' || echo "?"; }

# Inputs libFuzzer saved as failures (slow-unit-* files are only reports).
count_crashes() {
    find "fuzz/artifacts/$1" -type f \
        \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l
}

rows=()
failed=0
for target in $targets; do
    mkdir -p "fuzz/corpus/$target" "fuzz/artifacts/$target"
    log="fuzz/artifacts/$target.log"
    dict="corpus/dict/$target.dict"
    dict_arg=()
    [ -f "$dict" ] && dict_arg=("-dict=$dict")
    seeds=()                      # libFuzzer stops on a missing folder
    [ -d "corpus/$target" ] && seeds=("corpus/$target")
    before=$(count_crashes "$target")

    echo "==> $target: fuzzing for ${seconds}s (log: $log)"
    rc=0
    # shellcheck disable=SC2046 # target_flags prints whole words or nothing
    "${fuzz[@]}" run "${build[@]}" $(target_flags "$target") "$target" "fuzz/corpus/$target" "${seeds[@]}" -- \
        -max_total_time="$seconds" -print_final_stats=1 "${dict_arg[@]}" $(target_run_flags "$target") >"$log" 2>&1 || rc=$?

    found=$(count_crashes "$target")
    crashes=$(( found - before ))
    if [ "$rc" -ne 0 ]; then
        failed=1
        if [ "$crashes" -gt 0 ]; then result="CRASH"; else result="FAILED (exit $rc, no artifact: see log)"; fi
        echo "--- $target exited $rc; end of its log:"
        tail -n 40 "$log"
    else
        result="ok"
    fi

    execs=$(final_stat "$log" number_of_executed_units)
    rate=$(final_stat "$log" average_exec_per_sec)
    new=$(final_stat "$log" new_units_added)
    rss=$(final_stat "$log" peak_rss_mb)
    cov=$(status_field "$log" cov)
    ft=$(status_field "$log" ft)
    corp=$(status_field "$log" corp)
    rows+=("| \`$target\` | $execs | $rate | $cov | $ft | $corp | $new | $rss | $crashes | $result |")

    if [ "$merge" -eq 1 ] && [ "$rc" -eq 0 ] && [ "${#seeds[@]}" -gt 0 ]; then
        # Merge (not cmin): corpus/<target> comes first, so it is the output;
        # its files keep their names and only inputs adding coverage join it,
        # named by their SHA-1. `cargo fuzz cmin` would instead rename every
        # committed seed to a hash.
        echo "==> $target: merging fuzz/corpus/$target into corpus/$target"
        n0=$(find "corpus/$target" -type f | wc -l)
        "${fuzz[@]}" run "${build[@]}" "$target" "corpus/$target" "fuzz/corpus/$target" -- \
            -merge=1 "${dict_arg[@]}" >"fuzz/artifacts/$target.merge.log" 2>&1
        echo "    corpus/$target: $n0 -> $(find "corpus/$target" -type f | wc -l) files"
    fi
    [ "$found" -gt 0 ] && echo "    fuzz/artifacts/$target holds $found crash/leak/timeout/oom input(s) in all"
done

# --- Differential targets (only with --upstream) -----------------------------
# fuzz-upstream/ is its own cargo-fuzz package: its first build takes about
# half an hour (lean-ctx), so it runs only when asked for.
if [ "$upstream" -eq 1 ]; then
    echo "==> differential targets (fuzz-upstream/nightly.sh ${seconds})"
    upstream_rows=$(mktemp)
    if ! FUZZ_SANITIZER="${FUZZ_SANITIZER:-address}" bash fuzz-upstream/nightly.sh "$seconds" | tee "$upstream_rows"; then
        failed=1
    fi
    while IFS= read -r row; do rows+=("$row"); done < <(grep -E '^\|' "$upstream_rows")
    rm -f "$upstream_rows"
fi
# ----------------------------------------------------------------------------

echo
echo "Fuzzing, $mode, ${seconds}s per target, $(date -u +%Y-%m-%d):"
echo
echo "| target | execs | exec/s | cov (edges) | ft (features) | corpus units | new units | peak RSS MB | crash inputs | result |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"

if [ "$failed" -ne 0 ]; then
    echo
    echo "A target crashed or failed: inputs in fuzz/artifacts/<target>/, logs in fuzz/artifacts/<target>.log" >&2
    exit 1
fi
