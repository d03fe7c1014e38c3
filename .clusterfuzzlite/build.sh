#!/bin/bash -eu
# ClusterFuzzLite build: AddressSanitizer (the only sanitizer for Rust) via
# cargo fuzz on the image's nightly. Runs in $SRC/agentfence (the Dockerfile's
# WORKDIR); $OUT receives each fuzzer, its dictionary and its seed corpus.
cd "$SRC/agentfence/fuzz"
cargo fuzz build -O

for target in $(cargo fuzz list); do
    cp "target/x86_64-unknown-linux-gnu/release/$target" "$OUT/"
    if [ -f "../corpus/dict/$target.dict" ]; then
        cp "../corpus/dict/$target.dict" "$OUT/$target.dict"
    fi
    if [ -d "../corpus/$target" ]; then
        (cd "../corpus/$target" && zip -q -j "$OUT/${target}_seed_corpus.zip" ./*)
    fi
done
