#!/usr/bin/env bash
# `make autobahn`: the Autobahn|Testsuite fuzzing client against `pantrace serve --echo`.
#   scripts/autobahn.sh           install wstest if missing, build pantrace, run cases 1–7 and 10
#   scripts/autobahn.sh install   only install wstest
# Everything it installs and writes stays in .autobahn/ (git-ignored):
#   .autobahn/download/   the autobahntestsuite 25.10.1 sdist from PyPI (its requires.txt pins the rest)
#   .autobahn/py2/        autobahntestsuite and its pinned dependencies (Twisted 19.10.0,
#                         autobahn 0.10.9, ...), installed with pip --prefix for Python 2.7
#   .autobahn/reports/    the HTML and JSON reports (index.json has the verdicts)
#   .autobahn/server.log  what the echo server printed
# autobahntestsuite is Python 2.7-only (its PyPI classifiers);
# set PYTHON2=/path/to/python2.7 when none is found on PATH or under pyenv.
# Cases 2.10 and 2.11 (10 pings in a row) are excluded: libwebsockets keeps one PING in
# flight per connection and fails both by design (its READMEs/README.test-apps.md, "Autobahn
# Test Notes"). Exit status: 0 when no case is FAILED and the server
# survived, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=25.10.1
DIR=$PWD/.autobahn
PREFIX=$DIR/py2
DL=$DIR/download
SCRATCH=${SCRATCH:-.build}
BIN=$SCRATCH/debug/pantrace

find_python2() {
    local candidates=()
    [ -n "${PYTHON2:-}" ] && candidates+=("$PYTHON2")
    command -v python2.7 >/dev/null && candidates+=("$(command -v python2.7)")
    command -v python2 >/dev/null && candidates+=("$(command -v python2)")
    local root=${PYENV_ROOT:-$HOME/.pyenv}
    for p in "$root"/versions/2.7*/bin/python2.7; do [ -x "$p" ] && candidates+=("$p"); done
    for p in "${candidates[@]}"; do
        # A pyenv shim exists even when 2.7 is not the selected version: ask it.
        if "$p" -c 'import sys; sys.exit(sys.version_info[:2] != (2, 7))' 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

PY2=$(find_python2) || {
    echo "autobahn: needs a Python 2.7 interpreter (autobahntestsuite $VERSION is Python 2.7-only);" >&2
    echo "autobahn: none found on PATH or under pyenv. Install one (e.g. pyenv install 2.7.18) or set PYTHON2=." >&2
    exit 1
}

install_wstest() {
    if [ -f "$PREFIX/.installed-$VERSION" ]; then return 0; fi
    echo "autobahn: installing autobahntestsuite $VERSION and its pinned dependencies from PyPI"
    echo "autobahn:   interpreter $PY2 ($("$PY2" --version 2>&1)), into $PREFIX (nothing outside .autobahn/)"
    mkdir -p "$DL" "$PREFIX"
    PIP_NO_PYTHON_VERSION_WARNING=1 "$PY2" -m pip download -q --disable-pip-version-check --no-deps --no-binary autobahntestsuite \
        -d "$DL" "autobahntestsuite==$VERSION"
    tar xzf "$DL/autobahntestsuite-$VERSION.tar.gz" -C "$DL"
    # --ignore-installed with --prefix: otherwise pip uninstalls the interpreter's own
    # setuptools.
    PIP_NO_PYTHON_VERSION_WARNING=1 "$PY2" -m pip install -q --disable-pip-version-check --no-warn-script-location --ignore-installed --prefix "$PREFIX" \
        -r "$DL/autobahntestsuite-$VERSION/autobahntestsuite.egg-info/requires.txt" \
        "$DL/autobahntestsuite-$VERSION.tar.gz"
    touch "$PREFIX/.installed-$VERSION"
    echo "autobahn: installed wstest into $PREFIX"
}

# PYTHONPATH alone breaks the zope namespace .pth; site.addsitedir runs it (Python docs, `site.addsitedir`).
wstest() {
    "$PY2" -c "import site, sys; site.addsitedir('$PREFIX/lib/python2.7/site-packages'); \
sys.argv = ['wstest'] + sys.argv[1:]; from autobahntestsuite.wstest import run; run()" "$@"
}

install_wstest
[ "${1:-}" = install ] && exit 0

echo "autobahn: building pantrace ($SCRATCH)"
swift build --scratch-path "$SCRATCH" --product pantrace >/dev/null

mkdir -p "$DIR/recordings"  # echo mode loads no recordings; the folder must exist
rm -rf "$DIR/reports"
"$BIN" serve --echo --port 0 --recordings "$DIR/recordings" --web web >"$DIR/server.log" 2>&1 &
SERVER=$!
cleanup() {
    if kill -0 "$SERVER" 2>/dev/null; then
        kill -TERM "$SERVER" 2>/dev/null || true
        wait "$SERVER" 2>/dev/null || true
    fi
}
trap cleanup EXIT

# Readiness: the first line names the port (--port 0 picks a free one).
PORT=
for _ in $(seq 100); do
    PORT=$(sed -n 's|^pantrace serve: open http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$DIR/server.log")
    [ -n "$PORT" ] && break
    kill -0 "$SERVER" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$PORT" ]; then
    echo "autobahn: pantrace serve --echo did not start:" >&2
    cat "$DIR/server.log" >&2
    exit 1
fi

cat >"$DIR/fuzzingclient.json" <<EOF
{
  "outdir": "$DIR/reports/servers",
  "servers": [ { "agent": "pantrace-echo", "url": "ws://127.0.0.1:$PORT/live" } ],
  "cases": [ "1.*", "2.*", "3.*", "4.*", "5.*", "6.*", "7.*", "10.*" ],
  "exclude-cases": [ "2.10", "2.11" ],
  "exclude-agent-cases": {}
}
EOF
echo "autobahn: wstest -m fuzzingclient against ws://127.0.0.1:$PORT/live (cases 1–7, 10; not 2.10, 2.11)"
status=0
(cd "$DIR" && wstest -m fuzzingclient -s "$DIR/fuzzingclient.json") >"$DIR/wstest.log" 2>&1 || {
    echo "autobahn: wstest failed (see $DIR/wstest.log):" >&2
    tail -20 "$DIR/wstest.log" >&2
    status=1
}

crashed=0
if ! kill -0 "$SERVER" 2>/dev/null; then
    crashed=1
    echo "autobahn: pantrace serve --echo died during the run; its log:" >&2
    tail -20 "$DIR/server.log" >&2
fi

INDEX=$DIR/reports/servers/index.json
if [ -f "$INDEX" ]; then
    "$PY2" - "$INDEX" <<'EOF' || status=1
import json, sys
cases = json.load(open(sys.argv[1])).values()[0]
counts = {}
failed = []
for case, result in sorted(cases.items(), key=lambda kv: [int(p) for p in kv[0].split(".")]):
    counts[result["behavior"]] = counts.get(result["behavior"], 0) + 1
    if "FAILED" in (result["behavior"], result["behaviorClose"]):
        failed.append(case)
order = ["OK", "NON-STRICT", "INFORMATIONAL", "UNIMPLEMENTED", "FAILED"]
summary = ", ".join("%d %s" % (counts[b], b) for b in order + sorted(set(counts) - set(order)) if b in counts)
print("autobahn: %d cases: %s" % (len(cases), summary))
if failed:
    print("autobahn: FAILED: " + " ".join(failed))
    sys.exit(1)
EOF
else
    echo "autobahn: no report at $INDEX" >&2
    status=1
fi
echo "autobahn: reports in $DIR/reports/servers/index.html"
[ $crashed -eq 0 ] || status=1
exit $status
