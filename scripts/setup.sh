#!/usr/bin/env bash
# Installs what PanTrace needs and is missing, saying what it installs.
#   scripts/setup.sh build   Debian packages to build: zlib, libwebsockets, pkg-config
#   scripts/setup.sh python  a venv in .venv with the Python test clients
# Nothing is installed when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
apt_install() {
    [ ${#need_apt[@]} -eq 0 ] && return 0
    echo "setup: installing Debian packages: ${need_apt[*]}"
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
    echo "setup: installed ${need_apt[*]}"
}

build_deps() {
    command -v swift >/dev/null || { echo "setup: swift is not on PATH; install Swift 6.1 or newer (swift.org)" >&2; exit 1; }
    command -v pkg-config >/dev/null || need_apt+=(pkg-config)
    pkg-config --exists zlib 2>/dev/null || need_apt+=(zlib1g-dev)
    pkg-config --exists libwebsockets 2>/dev/null || need_apt+=(libwebsockets-dev)
    apt_install
}

python_deps() {
    local venv=.venv
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv" 2>/dev/null || { need_apt+=(python3-venv); apt_install; python3 -m venv "$venv"; }
        echo "setup: created Python venv $venv"
    fi
    # Every pinned requirement at its pinned version (Tests/requirements.txt), else install.
    if ! "$venv/bin/python" - Tests/requirements.txt <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
for line in open(sys.argv[1]):
    line = line.split("#", 1)[0].strip()
    if line:
        name, pinned = line.split("==")
        if version(name) != pinned:
            sys.exit(1)
PY
    then
        echo "setup: installing Python packages into $venv: $(grep -v '^#' Tests/requirements.txt | xargs)"
        "$venv/bin/pip" install -q -r Tests/requirements.txt
    fi
}

case "${1:-build}" in
    build) build_deps ;;
    python) python_deps ;;
    *) echo "usage: scripts/setup.sh build|python" >&2; exit 2 ;;
esac
