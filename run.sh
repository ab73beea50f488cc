#!/usr/bin/env bash
# One entry point for the two README commands:
#   ./run.sh serve [tuolaji serve options]   set up .venv, then run the server (SQLite file by default)
#   ./run.sh test  [pytest options]          set up .venv (with the dev and postgres extras), then ruff, mypy --strict and the whole test suite
#   ./run.sh setup                           set up .venv only
#   ./run.sh cluster                         set up .venv, then two nodes on a throwaway PostgreSQL and Redis behind nginx (deploy/)
set -euo pipefail
cd "$(dirname "$0")"

python=${PYTHON:-python3.11}
command -v "$python" >/dev/null 2>&1 || python=python3

setup() {
    if [ ! -x .venv/bin/python ]; then
        "$python" -m venv .venv
    fi
    local stamp=.venv/.installed
    if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ setup.py -nt "$stamp" ] \
        || [ requirements.lock -nt "$stamp" ] || [ run.sh -nt "$stamp" ] || ! .venv/bin/python -m tuolaji.native --stale .; then
        # Every third-party package (the dev and postgres extras and the build backend included) at
        # the version and hashes pinned in requirements.lock; then the project itself, with nothing
        # more fetched, its hot modules compiled by mypyc (tuolaji/native.py) beside their sources,
        # again whenever one of those sources changes.
        .venv/bin/python -m pip install --quiet --require-hashes -r requirements.lock
        .venv/bin/python -m pip install --quiet --no-deps --no-build-isolation -e .
        touch "$stamp"
    fi
}

cmd=${1:-}
shift || true
case "$cmd" in
    setup)
        setup
        ;;
    serve)
        setup
        exec .venv/bin/tuolaji serve "$@"
        ;;
    cluster)
        setup
        exec deploy/local-cluster.sh
        ;;
    test)
        setup
        .venv/bin/ruff check tuolaji tests benchmarks
        .venv/bin/ruff format --check tuolaji tests benchmarks
        .venv/bin/mypy
        exec .venv/bin/python -m pytest "$@"
        ;;
    *)
        echo "usage: ./run.sh serve|test [options] | ./run.sh setup | ./run.sh cluster" >&2
        exit 2
        ;;
esac
