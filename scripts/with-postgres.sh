#!/usr/bin/env bash
# Runs a command with LAYERFIX_TEST_POSTGRES_URL pointing at a throwaway
# PostgreSQL cluster on 127.0.0.1, when Debian's PostgreSQL is installed.
# Without it the command runs alone (store tests then cover SQLite only).
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "with-postgres: PostgreSQL not installed; store tests run on SQLite only" >&2
  exec "$@"
fi
dir=$(mktemp -d /tmp/layerfix-pg.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 55432)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$dir"
as_pg "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync >/dev/null
as_pg "$bin/pg_ctl" -D "$dir/data" -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir -c fsync=off" -l "$dir/log" -w start >/dev/null
cleanup() { as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap cleanup EXIT
export LAYERFIX_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
echo "with-postgres: PostgreSQL on 127.0.0.1:$port" >&2
"$@"
