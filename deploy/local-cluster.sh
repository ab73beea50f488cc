#!/usr/bin/env bash
# ./run.sh cluster: a card room of two nodes on this machine — a throwaway PostgreSQL and Redis,
# `tuolaji serve` on 127.0.0.1:8001 and :8002, and nginx on http://127.0.0.1:8000 in front of them
# (if nginx is installed; otherwise open either node directly), configured by deploy/nginx_conf.py
# from docs/nginx.conf, so a client goes to the node that runs its table (/ws?node=NAME). Ctrl-C
# (or SIGTERM to this script) stops everything and removes the throwaway data; the exit code is then 0.
#
# Each part is started only after the one before answers (PostgreSQL accepts connections, Redis
# answers PING, each node's GET /api/health answers 200, then the same through nginx), each wait
# bounded; the nodes start together (their migrations take turns on a database lock). Every part
# is reported with its address and process id as it becomes ready, then one line "cluster: ready: …".
# If a part fails to start, the script says which, shows the end of its log, stops the rest and
# exits 1. Logs are in the work directory it names (removed on exit).
#
# Needs PostgreSQL's server binaries (Debian: postgresql) and redis-server; uses nginx if installed.
# Environment (defaults in brackets):
#   TUOLAJI_CLUSTER_PORT        nginx's port [8000]
#   TUOLAJI_CLUSTER_NODE_PORTS  the nodes' ports, one node each ["8001 8002"]
#   TUOLAJI_CLUSTER_PG_PORT     PostgreSQL's port [54399]
#   TUOLAJI_CLUSTER_REDIS_PORT  Redis's port [63999]
#   TUOLAJI_CLUSTER_TIMEOUT     seconds each part may take to become ready [60]
#   TUOLAJI_CLUSTER_NGINX       the nginx to run, or "none" for none [nginx on PATH, or /usr/sbin/nginx]
set -euo pipefail
cd "$(dirname "$0")/.."

port=${TUOLAJI_CLUSTER_PORT:-8000}
read -r -a node_ports <<<"${TUOLAJI_CLUSTER_NODE_PORTS:-8001 8002}"
pg_port=${TUOLAJI_CLUSTER_PG_PORT:-54399}
redis_port=${TUOLAJI_CLUSTER_REDIS_PORT:-63999}
timeout=${TUOLAJI_CLUSTER_TIMEOUT:-60}
tuolaji=.venv/bin/tuolaji

say() { echo "cluster: $*"; }
die() { echo "cluster: $*" >&2; exit 2; }

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
redis_server=$(command -v redis-server || true)
nginx=${TUOLAJI_CLUSTER_NGINX:-$(command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true)}
[ "$nginx" != none ] || nginx=""
[ -n "$pg_bin" ] && [ -n "$redis_server" ] \
    || die "needs PostgreSQL and Redis: apt-get install postgresql redis-server"
[ -x "$tuolaji" ] || die "$tuolaji is missing: run ./run.sh setup (or ./run.sh cluster)"
[ ${#node_ports[@]} -gt 0 ] || die "TUOLAJI_CLUSTER_NODE_PORTS names no port"

# answers PORT: something accepts TCP connections on 127.0.0.1:PORT.
answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# http_ok PORT PATH: GET http://127.0.0.1:PORT/PATH answers 200.
http_ok() {
    (
        exec 3<>"/dev/tcp/127.0.0.1/$1"
        printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1:%s\r\n\r\n' "$2" "$1" >&3
        status=""
        read -r -t 5 _ status _ <&3
        [ "$status" = 200 ]
    ) 2>/dev/null
}
# redis_ok PORT: Redis on 127.0.0.1:PORT answers PING.
redis_ok() {
    (
        exec 3<>"/dev/tcp/127.0.0.1/$1"
        printf 'PING\r\n' >&3
        reply=""
        read -r -t 5 reply <&3
        [ "${reply%$'\r'}" = +PONG ]
    ) 2>/dev/null
}

ports=("$pg_port" "$redis_port" "${node_ports[@]}")
[ -n "$nginx" ] && ports+=("$port")
for p in "${ports[@]}"; do
    [[ "$p" =~ ^[1-9][0-9]{0,4}$ ]] && [ "$p" -le 65535 ] || die "$p is not a TCP port"
done
[ "$(printf '%s\n' "${ports[@]}" | sort -u | wc -l)" = ${#ports[@]} ] || die "two parts on one port: ${ports[*]}"
for p in "${ports[@]}"; do
    ! answers "$p" || die "port $p on 127.0.0.1 is in use (the TUOLAJI_CLUSTER_*PORT* variables choose others)"
done

run_pg() {  # PostgreSQL refuses to run as root
    if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else "$@"; fi
}

work=$(mktemp -d /tmp/tuolaji-cluster.XXXXXX)
chmod 711 "$work"  # PostgreSQL's user and nginx's workers pass through to their directories
mkdir -m 700 "$work/log"
mkdir "$work/pg"
[ "$(id -u)" = 0 ] && chown postgres "$work/pg"
# Each part runs in a session of its own (setsid; pg_ctl does the same), so Ctrl-C reaches this
# script only and the parts are stopped in turn by cleanup, not all at once by the terminal.
pids=()   # what this script started, each with its name and log: Redis, the nodes, nginx
names=()
logs=()
redis_pid=""
node_pids=()
nginx_pid=""

# stop PID...: SIGTERM to each, then SIGKILL to any still there after 15 s.
stop() {
    local pid left
    [ $# -gt 0 ] || return 0
    kill "$@" 2>/dev/null || true
    for _ in $(seq 150); do
        left=0
        for pid in "$@"; do kill -0 "$pid" 2>/dev/null && left=1; done
        [ "$left" = 1 ] || break
        sleep 0.1
    done
    kill -KILL "$@" 2>/dev/null || true
    wait "$@" 2>/dev/null || true
}
# Stopped in turn: nginx (no new requests), the nodes (they finish with Redis and PostgreSQL
# still there), Redis, PostgreSQL; then the work directory is removed.
cleanup() {
    trap '' INT TERM
    stop $nginx_pid
    stop "${node_pids[@]}"
    stop $redis_pid
    if [ -f "$work/pg/postmaster.pid" ]; then
        run_pg "$pg_bin/pg_ctl" -D "$work/pg" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
    say "stopped"
}
trap cleanup EXIT
trap 'exit 0' INT TERM

# fail WHAT LOG: report that WHAT failed to start with the end of LOG, then stop everything.
fail() {
    echo "cluster: $1; the end of its log ($2):" >&2
    tail -n 40 "$2" >&2 || true
    exit 1
}
# ready WHAT PID LOG CHECK...: poll CHECK until it succeeds; fail if PID exits or after $timeout s.
ready() {
    local what=$1 pid=$2 log=$3 deadline=$((SECONDS + timeout))
    shift 3
    until "$@"; do
        kill -0 "$pid" 2>/dev/null || fail "$what exited while starting" "$log"
        [ "$SECONDS" -lt "$deadline" ] || fail "$what not ready within ${timeout} s" "$log"
        sleep 0.1
    done
}
say "work directory $work (logs in $work/log)"

if ! run_pg "$pg_bin/initdb" -D "$work/pg" -A trust -U postgres >"$work/log/initdb.log" 2>&1; then
    fail "initdb failed" "$work/log/initdb.log"
fi
if ! run_pg "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg/log" -w -t "$timeout" \
    -o "'-p $pg_port -k $work/pg -c listen_addresses=127.0.0.1'" start >/dev/null; then
    fail "PostgreSQL did not start" "$work/pg/log"
fi
say "PostgreSQL ready on 127.0.0.1:$pg_port (pid $(head -n 1 "$work/pg/postmaster.pid"))"

setsid "$redis_server" --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" \
    >"$work/log/redis.log" 2>&1 &
redis_pid=$!
pids+=($!)
names+=(Redis)
logs+=("$work/log/redis.log")
ready Redis "$redis_pid" "$work/log/redis.log" redis_ok "$redis_port"
say "Redis ready on 127.0.0.1:$redis_port (pid $redis_pid)"

db=postgresql+asyncpg://postgres@127.0.0.1:$pg_port/postgres
for p in "${node_ports[@]}"; do
    setsid "$tuolaji" serve --port "$p" --db "$db" --redis "redis://127.0.0.1:$redis_port/0" \
        --node-name "n$p" --forwarded-allow-ips 127.0.0.1 >"$work/log/n$p.log" 2>&1 &
    pids+=($!)
    names+=("node n$p")
    logs+=("$work/log/n$p.log")
    node_pids+=($!)
done
for i in "${!node_ports[@]}"; do
    p=${node_ports[i]}
    ready "node n$p" "${node_pids[i]}" "$work/log/n$p.log" http_ok "$p" /api/health
    say "node n$p ready on http://127.0.0.1:$p (pid ${node_pids[i]})"
done

if [ -n "$nginx" ]; then
    mkdir -p "$work/nginx/tmp"
    chmod 711 "$work/nginx"
    node_specs=()
    for p in "${node_ports[@]}"; do node_specs+=("n$p=127.0.0.1:$p"); done
    .venv/bin/python deploy/nginx_conf.py "${node_specs[@]}" --listen "127.0.0.1:$port" \
        >"$work/nginx/nginx.conf" 2>"$work/log/nginx.log" \
        || fail "nginx not configured: deploy/nginx_conf.py could not write docs/nginx.conf for the nodes" \
            "$work/log/nginx.log"
    setsid "$nginx" -e stderr -c "$work/nginx/nginx.conf" -p "$work/nginx" -g "daemon off;" \
        >"$work/log/nginx.log" 2>&1 &
    nginx_pid=$!
    pids+=($!)
    names+=(nginx)
    logs+=("$work/log/nginx.log")
    ready nginx "$nginx_pid" "$work/log/nginx.log" http_ok "$port" /api/health
    say "nginx ready on http://127.0.0.1:$port (pid $nginx_pid)"
    say "ready: the card room is http://127.0.0.1:$port (Ctrl-C stops it)"
else
    say "ready: open any node (install nginx for one address in front of them; Ctrl-C stops it)"
fi

gone=""
wait -n -p gone "${pids[@]}" && status=0 || status=$?
for i in "${!pids[@]}"; do
    if [ "${pids[i]}" = "$gone" ]; then
        fail "${names[i]} (pid $gone) exited with status $status, so the rest stop" "${logs[i]}"
    fi
done
echo "cluster: pid $gone exited with status $status, so the rest stop" >&2
exit 1
