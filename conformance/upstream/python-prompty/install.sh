#!/bin/sh
# Installs Python prompty 2.1.0 (requirements.txt: exact versions, every
# file's sha256) into a venv and prints the venv's python.
#
#   conformance/upstream/python-prompty/install.sh [DIR]
#
# The venv is DIR/venv; DIR defaults to python-prompty/ in the cargo target
# directory ($CARGO_TARGET_DIR, else target/ at the repository root).
# PYTHON names the interpreter to build it from (default python3; prompty
# needs 3.11 or later). Re-running it on an installed venv changes nothing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
dir=${1:-${CARGO_TARGET_DIR:-$repo/target}/python-prompty}
python=${PYTHON:-python3}

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "install.sh: prompty 2.1.0 needs Python 3.11 or later; $python is $("$python" -V 2>&1)" >&2
    exit 1
fi
[ -x "$dir/venv/bin/python" ] || "$python" -m venv "$dir/venv"
"$dir/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --require-hashes --no-deps -r "$here/requirements.txt" >&2
"$dir/venv/bin/python" -c 'import prompty, sys; sys.exit(prompty.__version__ != "2.1.0" and "installed prompty is " + prompty.__version__)'
echo "$dir/venv/bin/python"
