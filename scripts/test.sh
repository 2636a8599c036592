#!/usr/bin/env bash
# Set up everything the tests need, then lint, type-check and run them: Debian's chromium for
# the real-browser tests (and libcairo2 for PNG export), Debian's postgresql for the tests'
# private PostgreSQL cluster (tests/web/postgres.py starts and stops it), a venv with every
# extra, then ruff, mypy --strict and pytest. Safe to run again: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ] || ! ldconfig -p | grep -q libcairo.so.2 ||
    ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium libcairo2 postgresql >/dev/null
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet -e '.[dev]'
# SB3's VecEnv source, which tests/rl/test_sb3.py holds the adapter to, without PyTorch (several
# GB): the test reads that one module from the package's files and never imports SB3 itself.
.venv/bin/pip install --quiet --no-deps 'stable-baselines3>=2.3'
.venv/bin/ruff check boardlab tests
.venv/bin/ruff format --check boardlab tests
.venv/bin/mypy
# Two test processes (pytest-xdist), each file's tests in one of them: the suite's servers,
# browsers and installs wait on each other's I/O as much as they compute.
.venv/bin/pytest -n 2 --dist loadfile "$@"
