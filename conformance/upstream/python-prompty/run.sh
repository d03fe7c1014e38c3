#!/bin/sh
# Runs the conformance vectors against Python prompty 2.1.0, installing it
# first (install.sh), and passes any further arguments to `agentfence run`:
#
#   conformance/upstream/python-prompty/run.sh --report reports/5-prompty-python.json
#   conformance/upstream/python-prompty/run.sh --suite chat --id 'chat-01*'
#
# prompty answers the chat suite only; the other suites' cases are counted
# as skipped, as for the other upstream rows of UPSTREAM.md's matrix.
# AGENTFENCE is the runner (default: target/release/agentfence, built with
# `cargo build --release -p agentfence-conformance`); PROMPTY_DIR is
# install.sh's DIR. The run exits with status 1 because prompty fails cases;
# UPSTREAM.md explains each failure.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
runner=${AGENTFENCE:-${CARGO_TARGET_DIR:-$repo/target}/release/agentfence}
python=$("$here/install.sh" ${PROMPTY_DIR:+"$PROMPTY_DIR"})
[ -x "$runner" ] || { echo "run.sh: no runner at $runner (cargo build --release -p agentfence-conformance)" >&2; exit 2; }
exec "$runner" run --port "'$python' '$here/prompty_port.py'" "$@"
