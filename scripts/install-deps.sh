#!/usr/bin/env bash
# Installs the Debian packages OnrampKit needs, only those missing. Usage:
#   scripts/install-deps.sh build   # to build and serve: C libraries
#   scripts/install-deps.sh test    # also PostgreSQL, headless Chromium, wrk/nginx and a Python venv
#   scripts/install-deps.sh bench   # also gcc (the C references), valgrind, jq and localstripe
#
# On a Mac (untested: built on Linux only) it installs Homebrew formulas instead, and the Makefile puts the
# keg-only openssl@3 and libpq on PKG_CONFIG_PATH.
set -euo pipefail
mode=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "$(uname -s)" = Darwin ]; then
    command -v brew >/dev/null || { echo "install Homebrew (https://brew.sh), then run make again" >&2; exit 1; }
    formulas=(libmicrohttpd openssl@3 libpq sqlite curl pkg-config)
    if [ "$mode" = test ] || [ "$mode" = bench ]; then formulas+=(postgresql@15 wrk nginx python@3.11); fi
    missing=()
    for f in "${formulas[@]}"; do brew list --formula "$f" >/dev/null 2>&1 || missing+=("$f"); done
    if [ ${#missing[@]} -gt 0 ]; then echo "brew install ${missing[*]}"; brew install "${missing[@]}"; fi
    if [ "$mode" = test ] || [ "$mode" = bench ]; then
        command -v chromedriver >/dev/null \
            || echo "the page tests need Chromium and chromedriver: brew install --cask chromium chromedriver" >&2
        [ -x "$root/.venv/bin/python" ] || python3 -m venv "$root/.venv"
        "$root/.venv/bin/pip" install -q --disable-pip-version-check -r "$root/Tests/python/requirements.txt"
    fi
    exit 0
fi
packages=(libmicrohttpd-dev libssl-dev libsqlite3-dev libpq-dev libcurl4-openssl-dev pkg-config)
if [ "$mode" = test ] || [ "$mode" = bench ]; then
    packages+=(postgresql chromium chromium-driver wrk nginx-light openssl curl)
fi
# bench/http.sh builds its libmicrohttpd reference (bench/reference) with gcc; bench/instructions.sh
# counts instructions with valgrind's callgrind; the Embedded scripts read the API's answers with jq.
if [ "$mode" = bench ]; then packages+=(gcc valgrind jq); fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -q >/dev/null || true
    $sudo apt-get install -y -q "${missing[@]}" >/dev/null
fi
if [ "$mode" = test ] || [ "$mode" = bench ]; then
    if [ ! -x "$root/.venv/bin/python" ]; then
        python3 -m venv "$root/.venv" 2>/dev/null || {
            sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
            $sudo apt-get install -y -q python3-venv >/dev/null
            python3 -m venv "$root/.venv"
        }
    fi
    "$root/.venv/bin/pip" install -q --disable-pip-version-check -r "$root/Tests/python/requirements.txt"
fi
if [ "$mode" = bench ]; then
    # The benchmarks' references from PyPI (localstripe), in a venv of their own: their pins must not
    # move the tests' packages.
    [ -x "$root/.venv-bench/bin/python" ] || python3 -m venv "$root/.venv-bench"
    "$root/.venv-bench/bin/pip" install -q --disable-pip-version-check -r "$root/bench/requirements.txt"
fi
