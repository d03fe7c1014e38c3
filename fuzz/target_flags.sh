# Sourced by fuzz/nightly.sh and .ci/run: the cargo fuzz build flags of one
# target, beyond the sanitizer choice (target_flags), and the libFuzzer
# options of its runs (target_run_flags).
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

# The libFuzzer options of one target's runs, beyond the run's length, seed
# and dictionary.
#
# strip and strip_html: -use_counters=0, coverage by edges alone, without
# the hit-count buckets of each edge. Every strip runs the rules' lazy DFAs
# and literal loops a different number of times, so a hit-count feature
# was new on most runs, and libFuzzer's bookkeeping of those features cost
# more than the run. Side by side for 150 s from the committed corpus,
# same seed, sharing the machine: `strip` ran 11,657 exec/s to 6,914 edges
# with counters and 24,596 exec/s to 7,040 edges without, and the edge-only
# run found a bug the other had not (markers nested past the strip's
# passes, corpus/strip/regression-markers-nested-past-the-passes).
# ClusterFuzzLite keeps libFuzzer's defaults, counters included, so the two
# nightly jobs search differently.
target_run_flags() {
    case "$1" in
        strip | strip_html) echo -use_counters=0 ;;
    esac
}
