#!/bin/sh
# Records Python prompty 2.1.0's answers into conformance/vectors/chat.json
# (under "upstream" key prompty-python@2.1.0, beside the Rust crate's
# prompty@2.1.0), installing it first (install.sh). Re-run it after the chat
# vectors change; `git diff conformance/vectors/chat.json` then shows what
# prompty answers differently from the recording.
#
#   conformance/upstream/python-prompty/record.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
python=$("$here/install.sh" ${PROMPTY_DIR:+"$PROMPTY_DIR"})
exec python3 "$repo/conformance/tools/record_upstream.py" \
    --port "'$python' '$here/prompty_port.py'" "$repo/conformance/vectors/chat.json"
