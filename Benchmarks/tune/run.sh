#!/bin/sh
# The tune sweep against numpy (Benchmarks/tune/peer.py), from `make bench`.
# numpy lives in its own venv, .build/venv-tune, pinned by Benchmarks/tune/requirements.txt
# (created or updated here, and said so); TuneBench must be built first (release).
set -e
venv=.build/venv-tune
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    echo "bench: created the numpy venv $venv"
fi
pinned=$(sed -n 's/^numpy==//p' Benchmarks/tune/requirements.txt)
if ! "$venv/bin/python" -c "import sys, numpy; sys.exit(numpy.__version__ != '$pinned')" 2>/dev/null; then
    echo "bench: installing numpy==$pinned into $venv"
    "$venv/bin/pip" install -q -r Benchmarks/tune/requirements.txt
fi
exec "$venv/bin/python" Benchmarks/tune/peer.py .build/release/TuneBench "$@"
