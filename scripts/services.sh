#!/usr/bin/env bash
# Throwaway PostgreSQL and Redis servers on loopback ports, for the tests (`make test` uses them).
#
#   scripts/services.sh start DIR   install Debian's postgresql and redis-server if missing, start both with their
#                                   data in DIR, wait until they answer, write their URLs to DIR/env
#   scripts/services.sh env DIR     print DIR/env: SUDOKU_TEST_POSTGRES_URL=... and SUDOKU_TEST_REDIS_URL=...
#   scripts/services.sh stop DIR    stop both servers and remove DIR
#
# SERVICES_TIMEOUT (seconds, default 90) bounds each wait. DIR must be empty, missing, or a DIR this script made
# (a left-over of a killed run is stopped and wiped). As root, PostgreSQL runs as the `postgres` system user.
set -euo pipefail

MARKER=.sudoku-services
TIMEOUT=${SERVICES_TIMEOUT:-90}
PG_USER=sudoku

die() {
    echo "services.sh: $*" >&2
    exit 1
}

usage() {
    die "usage: scripts/services.sh start|stop|env DIR"
}

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

pg_bindir() {
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    [ -n "$found" ] && [ -x "$found/initdb" ] && echo "$found"
}

install_missing() {
    local wanted=()
    pg_bindir >/dev/null || wanted+=(postgresql)
    command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 || wanted+=(redis-server)
    [ ${#wanted[@]} -eq 0 ] && return 0
    echo "services.sh: installing ${wanted[*]}" >&2
    as_root apt-get update -q >&2
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${wanted[@]}" >&2
    pg_bindir >/dev/null || die "postgresql is installed but no /usr/lib/postgresql/*/bin/initdb was found"
}

# Run a command as the user that owns the PostgreSQL cluster (postgres refuses to run as root).
as_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Wait until "$@" succeeds, at most TIMEOUT seconds; false when it never did.
wait_for() {
    local deadline=$((SECONDS + TIMEOUT))
    until "$@" >/dev/null 2>&1; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 0.2
    done
}

prepare_dir() {
    local dir=$1
    if [ -e "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ]; then
        [ -e "$dir/$MARKER" ] || die "$dir is not empty and was not made by services.sh: give an empty or new DIR"
        stop_servers "$dir"
        rm -rf "$dir"
    fi
    mkdir -p "$dir"
    touch "$dir/$MARKER"
    mkdir -p "$dir/pg" "$dir/socket" "$dir/redis"
    if [ "$(id -u)" = 0 ]; then
        id postgres >/dev/null 2>&1 || die "there is no postgres system user to run PostgreSQL as (not as root)"
        chown postgres: "$dir" "$dir/pg" "$dir/socket"
        chmod 700 "$dir/pg"
        runuser -u postgres -- test -w "$dir/pg" || die "the postgres user cannot reach $dir: use a DIR under /tmp"
    fi
}

start_postgres() {
    local dir=$1 bin password port attempt
    bin=$(pg_bindir)
    password=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
    printf '%s\n' "$password" >"$dir/pg.password"
    [ "$(id -u)" != 0 ] || chown postgres: "$dir/pg.password"
    as_pg "$bin/initdb" -D "$dir/pg/data" -U "$PG_USER" --pwfile="$dir/pg.password" --auth=scram-sha-256 \
        -E UTF8 --locale=C.UTF-8 >"$dir/pg-initdb.log" 2>&1 || die "initdb failed: see $dir/pg-initdb.log"
    rm -f "$dir/pg.password"
    for attempt in 1 2 3 4 5; do
        port=$(free_port)
        # A throwaway cluster: no durability work (fsync, full pages) and enough connections for parallel tests.
        if as_pg "$bin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/server.log" -w -t "$TIMEOUT" start \
            -o "-h 127.0.0.1 -p $port -k $dir/socket -c fsync=off -c synchronous_commit=off" \
            -o "-c full_page_writes=off -c max_connections=300 -c shared_buffers=64MB" >/dev/null 2>&1; then
            break
        fi
        if ! grep -qi "address already in use\|could not create any TCP/IP sockets" "$dir/pg/server.log" 2>/dev/null \
            || [ "$attempt" = 5 ]; then
            die "PostgreSQL did not start within ${TIMEOUT}s on port $port: see $dir/pg/server.log"
        fi
    done
    wait_for "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" \
        || die "PostgreSQL did not answer within ${TIMEOUT}s on port $port: see $dir/pg/server.log"
    (umask 077 && echo "SUDOKU_TEST_POSTGRES_URL=postgresql+psycopg://$PG_USER:$password@127.0.0.1:$port/postgres" >>"$dir/env.new")
}

# True while process $1 runs (a zombie waiting for its parent to reap it has stopped).
running() {
    [ -r "/proc/$1/status" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status"
}

stopped() {
    ! running "$1"
}

# True when the Redis server on port $1 answers and is process $2 (not another server on a port taken meanwhile).
redis_answers() {
    redis-cli -h 127.0.0.1 -p "$1" info server 2>/dev/null | tr -d '\r' | grep -qx "process_id:$2"
}

start_redis() {
    local dir=$1 port attempt pid
    for attempt in 1 2 3 4 5; do
        port=$(free_port)
        # No persistence: nothing is saved or appended; the process is backgrounded with its pid in DIR.
        redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --dir "$dir/redis" \
            --daemonize no --logfile "$dir/redis/server.log" >/dev/null 2>&1 </dev/null &
        pid=$!
        echo "$pid" >"$dir/redis.pid"
        local deadline=$((SECONDS + TIMEOUT))
        while running "$pid" && ! redis_answers "$port" "$pid"; do
            [ "$SECONDS" -lt "$deadline" ] || die "Redis did not answer within ${TIMEOUT}s on port $port: see $dir/redis/server.log"
            sleep 0.2
        done
        if redis_answers "$port" "$pid"; then
            echo "SUDOKU_TEST_REDIS_URL=redis://127.0.0.1:$port/0" >>"$dir/env.new"
            return 0
        fi
        rm -f "$dir/redis.pid"
        grep -qi "address already in use" "$dir/redis/server.log" 2>/dev/null && [ "$attempt" != 5 ] \
            || die "Redis did not start on port $port: see $dir/redis/server.log"
    done
}

stop_servers() {
    local dir=$1 bin pid
    bin=$(pg_bindir || true)
    if [ -n "$bin" ] && [ -f "$dir/pg/data/postmaster.pid" ]; then
        as_pg "$bin/pg_ctl" -D "$dir/pg/data" -m immediate -w -t "$TIMEOUT" stop >/dev/null 2>&1 || true
    fi
    if [ -f "$dir/redis.pid" ]; then
        pid=$(cat "$dir/redis.pid")
        if [ -n "$pid" ] && running "$pid" && grep -q redis "/proc/$pid/cmdline" 2>/dev/null; then
            kill "$pid"
            wait_for stopped "$pid" || kill -9 "$pid" 2>/dev/null || true
        fi
        rm -f "$dir/redis.pid"
    fi
}

start() {
    local dir=$1
    install_missing
    prepare_dir "$dir"
    trap 'stop_servers "$dir"' EXIT  # a failed start leaves no server running
    start_postgres "$dir"
    start_redis "$dir"
    mv "$dir/env.new" "$dir/env"
    trap - EXIT
    echo "services.sh: PostgreSQL and Redis are up; their URLs are in $dir/env" >&2
}

stop() {
    local dir=$1
    [ -e "$dir" ] || return 0
    if [ -d "$dir" ] && [ -z "$(ls -A "$dir")" ]; then
        rmdir "$dir"  # a start that failed before it began
        return 0
    fi
    [ -e "$dir/$MARKER" ] || die "$dir was not made by services.sh: not stopping or removing it"
    stop_servers "$dir"
    rm -rf "$dir"
}

[ $# -eq 2 ] || usage
dir=$(realpath -m "$2")
case "$dir" in *[[:space:]]*) die "DIR must not contain spaces (the servers take it on their command lines): $dir" ;; esac
case "$1" in
start) start "$dir" ;;
stop) stop "$dir" ;;
env)
    [ -f "$dir/env" ] || die "$dir/env is missing: run scripts/services.sh start $2 first"
    cat "$dir/env"
    ;;
*) usage ;;
esac
