# Sourced by fuzz/nightly.sh and .ci/run: the cargo fuzz build flags of one
# target, beyond the sanitizer choice.
#
# strip and strip_html: --no-trace-compares. Their time goes to the rule
# engines' lazy DFAs and literal searches, where libFuzzer's compare
# tracing cost more than half of each run and guided nothing the
# dictionaries (corpus/dict/) do not already give: in 120 s from the
# committed corpus, same seed, `strip` ran 6,700 exec/s to coverage 5,909
# with tracing and 18,300 exec/s to coverage 6,116 without.
target_flags() {
    case "$1" in
        strip | strip_html) echo --no-trace-compares ;;
    esac
}
