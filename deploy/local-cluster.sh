#!/usr/bin/env bash
# ./run.sh cluster: a card room of two nodes on this machine — a throwaway PostgreSQL and Redis,
# `tuolaji serve` on 127.0.0.1:8001 and :8002, and nginx on http://127.0.0.1:8000 in front of them
# (if nginx is installed; otherwise open either node directly). Ctrl-C stops everything.
# Needs PostgreSQL's server binaries (Debian: postgresql) and redis-server.
set -euo pipefail
cd "$(dirname "$0")/.."

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$pg_bin" ] || ! command -v redis-server >/dev/null; then
    echo "./run.sh cluster needs PostgreSQL and Redis: apt-get install postgresql redis-server" >&2
    exit 2
fi
work=$(mktemp -d /tmp/tuolaji-cluster.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [ -f "$work/pg/postmaster.pid" ] && run_pg "$pg_bin/pg_ctl" -D "$work/pg" -m fast stop >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

run_pg() {  # PostgreSQL refuses to run as root
    if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else "$@"; fi
}
mkdir "$work/pg"
[ "$(id -u)" = 0 ] && chown postgres "$work" "$work/pg"
run_pg "$pg_bin/initdb" -D "$work/pg" -A trust -U postgres >/dev/null
run_pg "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg/log" -w \
    -o "'-p 54399 -k $work/pg -c listen_addresses=127.0.0.1'" start >/dev/null
redis-server --port 63999 --bind 127.0.0.1 --save '' --appendonly no --dir "$work" >"$work/redis.log" &
pids+=($!)

db=postgresql+asyncpg://postgres@127.0.0.1:54399/postgres
for port in 8001 8002; do
    .venv/bin/tuolaji serve --port "$port" --db "$db" --redis redis://127.0.0.1:63999/0 \
        --node-name "n$port" --forwarded-allow-ips 127.0.0.1 &
    pids+=($!)
done
if command -v nginx >/dev/null; then
    mkdir -p "$work/nginx/tmp"
    cp docs/nginx.conf "$work/nginx/"
    nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" -g "daemon off;" &
    pids+=($!)
    echo "card room: http://127.0.0.1:8000 (nodes on :8001 and :8002)"
else
    echo "card room nodes: http://127.0.0.1:8001 and http://127.0.0.1:8002 (install nginx for one address)"
fi
wait -n "${pids[@]}"
