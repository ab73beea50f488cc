#!/usr/bin/env bash
# One entry point for the two README commands:
#   ./run.sh serve [tuolaji serve options]   set up .venv, then run the server (SQLite file by default)
#   ./run.sh test  [pytest options]          set up .venv (with the dev and postgres extras), then ruff, mypy --strict and the whole test suite
set -euo pipefail
cd "$(dirname "$0")"

python=${PYTHON:-python3.11}
command -v "$python" >/dev/null 2>&1 || python=python3

setup() {
    if [ ! -x .venv/bin/python ]; then
        "$python" -m venv .venv
    fi
    local stamp=.venv/.installed
    if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ run.sh -nt "$stamp" ]; then
        .venv/bin/python -m pip install --quiet --upgrade pip
        .venv/bin/python -m pip install --quiet -e ".[dev,postgres]"
        touch "$stamp"
    fi
}

cmd=${1:-}
shift || true
case "$cmd" in
    serve)
        setup
        exec .venv/bin/tuolaji serve "$@"
        ;;
    test)
        setup
        .venv/bin/ruff check tuolaji tests benchmarks
        .venv/bin/ruff format --check tuolaji tests benchmarks
        .venv/bin/mypy
        exec .venv/bin/python -m pytest "$@"
        ;;
    *)
        echo "usage: ./run.sh serve|test [options]" >&2
        exit 2
        ;;
esac
