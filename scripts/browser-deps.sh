#!/usr/bin/env bash
# Installs what the real-browser tests (Tests/browser) need and is missing, saying what it
# installs: Debian's chromium and chromium-driver, and Python selenium in .venv.
# Nothing is installed (and apt-get update is not run) when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
[ -x /usr/bin/chromedriver ] || need_apt+=(chromium-driver)
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "browser-deps: installing Debian packages: ${need_apt[*]}"
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
    echo "browser-deps: installed ${need_apt[*]}"
fi

# The venv with the pinned Python test packages (Tests/requirements.txt, selenium among them).
scripts/setup.sh python
