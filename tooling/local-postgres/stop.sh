#!/usr/bin/env bash
# Stops a PostgreSQL started by start.sh and deletes its temp dir: stop.sh <PG_DIR>
set -euo pipefail
PG_DIR="${1:?usage: stop.sh <dir printed by start.sh as PG_DIR=...>}"
if [ ! -f "$PG_DIR/.khs-local-postgres" ]; then
  echo "local-postgres: $PG_DIR was not created by start.sh; refusing to touch it" >&2
  exit 2
fi
BIN_DIR=""
for dir in /usr/lib/postgresql/*/bin; do [ -x "$dir/pg_ctl" ] && BIN_DIR="$dir"; done
[ -n "$BIN_DIR" ] || BIN_DIR="$(dirname "$(command -v pg_ctl)")"
if [ -f "$PG_DIR/data/postmaster.pid" ]; then
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$BIN_DIR/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >&2
  else
    "$BIN_DIR/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >&2
  fi
fi
rm -rf "$PG_DIR"
echo "local-postgres: stopped and removed $PG_DIR" >&2
