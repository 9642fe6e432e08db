#!/usr/bin/env bash
# Starts a throwaway PostgreSQL for tests and benchmarks.
#
#   eval "$(tooling/local-postgres/start.sh | tail -1)"   # exports nothing, sets DATABASE_URL in this shell
#   tooling/local-postgres/start.sh                        # prints PG_DIR=... then DATABASE_URL=... (last line)
#   tooling/local-postgres/stop.sh "$PG_DIR"
#
# Uses the Debian server binaries (/usr/lib/postgresql/*/bin); installs the `postgresql`
# package with apt-get when they are missing and we are root. The cluster, its log and its
# unix socket live in one temp dir; it listens on 127.0.0.1 on a free port with trust auth
# (local throwaway only) and fsync off (speed; the data is disposable).
# Exit codes: 0 started, 3 cannot provide PostgreSQL here (not root / no apt-get), 1 other failure.
set -euo pipefail

log() { echo "local-postgres: $*" >&2; }

find_bin_dir() {
  local dir best=""
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && best="$dir"
  done
  if [ -z "$best" ] && command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    best="$(dirname "$(command -v initdb)")"
  fi
  echo "$best"
}

BIN_DIR="$(find_bin_dir)"
if [ -z "$BIN_DIR" ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    log "initdb/pg_ctl not found and cannot install them (needs root and apt-get)."
    log "Install PostgreSQL server binaries, or set DATABASE_URL to an existing server."
    exit 3
  fi
  log "installing the Debian postgresql package (takes a while)…"
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y postgresql >&2; then
    apt-get update >&2
    apt-get install -y postgresql >&2
  fi
  BIN_DIR="$(find_bin_dir)"
  [ -n "$BIN_DIR" ] || { log "postgresql installed but initdb not found"; exit 1; }
fi

PG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/khs-local-postgres.XXXXXX")"
touch "$PG_DIR/.khs-local-postgres"   # marker: stop.sh only deletes dirs carrying it
mkdir -p "$PG_DIR/socket"

# initdb refuses to run as root: run the server as the `postgres` user then.
run_as_owner() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --home-dir "$PG_DIR" --shell /usr/sbin/nologin postgres
  chown -R postgres: "$PG_DIR"
  chmod 700 "$PG_DIR"
  run_as_owner() {
    if command -v runuser >/dev/null 2>&1; then runuser -u postgres -- "$@"; else su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; fi
  }
fi

run_as_owner "$BIN_DIR/initdb" -D "$PG_DIR/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 -N >"$PG_DIR/initdb.log" 2>&1 \
  || run_as_owner "$BIN_DIR/initdb" -D "$PG_DIR/data" -U postgres -A trust -E UTF8 -N >"$PG_DIR/initdb.log" 2>&1 \
  || { log "initdb failed, see $PG_DIR/initdb.log"; cat "$PG_DIR/initdb.log" >&2; exit 1; }

free_port() {
  # A string, not a number: with FORCE_COLOR set (Playwright sets it) console.log colours numbers.
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(String(s.address().port));s.close()})"
}

# A port picked now may be taken before the server binds it: retry a few times.
started=""
for attempt in 1 2 3 4 5; do
  PORT="$(free_port)"
  if run_as_owner "$BIN_DIR/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
      -o "-p $PORT -k $PG_DIR/socket -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >&2; then
    started=1
    break
  fi
  log "start attempt $attempt on port $PORT failed; retrying"
done
[ -n "$started" ] || { log "could not start PostgreSQL, see $PG_DIR/server.log"; tail -20 "$PG_DIR/server.log" >&2 || true; exit 1; }

run_as_owner "$BIN_DIR/psql" -h "$PG_DIR/socket" -p "$PORT" -U postgres -d postgres -qAt -c "CREATE DATABASE khs_test" >&2

log "started in $PG_DIR (stop with: tooling/local-postgres/stop.sh $PG_DIR)"
echo "PG_DIR=$PG_DIR"
echo "DATABASE_URL=postgres://postgres@127.0.0.1:$PORT/khs_test"
