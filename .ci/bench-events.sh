#!/usr/bin/env bash
# Live events figures for `make bench`, on 127.0.0.1: 1000 event streams (GET /api/events) on the
# chat room, a message's arrival at all of them (p50/p99/max over 5 messages; target p99 < 200 ms),
# the server's RSS idle, with the streams (memory per idle stream; target growth ≤ 64 MiB) and as
# it falls back after they close. One account holds every stream (its per-account limit raised),
# so the figures are the fan-out's, not 1000 sign-ins'.
set -euo pipefail
BIN=$(realpath "${1:-bin/devhub}")
STREAMS=${STREAMS:-1000}
PORT=${PORT:-18961}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/devhub-bench-events.XXXXXX")
cleanup() {
  [ -n "${DEVHUB_PID:-}" ] && kill "$DEVHUB_PID" 2>/dev/null && wait "$DEVHUB_PID" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

export DEVHUB_STORAGE_DATA_DIR=$TMP/data DEVHUB_STORAGE_UPLOADS_DIR=$TMP/uploads \
  DEVHUB_STORAGE_CONTENT_DIR=$ROOT/content DEVHUB_STORAGE_ROMS_DIR=$ROOT/roms \
  DEVHUB_SERVER_ADDR=127.0.0.1:$PORT DEVHUB_EVENTS_MAX_STREAMS_PER_USER=$((STREAMS + 10)) \
  DEVHUB_EVENTS_HEARTBEAT=5s DEVHUB_CHAT_RATE_PER_MINUTE=600
BASE=http://127.0.0.1:$PORT
PW=bench-password-$RANDOM$RANDOM
printf '%s\n' "$PW" | "$BIN" user create --email bench@example.com --name Bench --password-stdin >/dev/null
"$BIN" serve >"$TMP/serve.log" 2>&1 &
DEVHUB_PID=$!
until curl -fs -o /dev/null "$BASE/healthz"; do kill -0 "$DEVHUB_PID" 2>/dev/null || { cat "$TMP/serve.log"; exit 1; }; sleep 0.05; done
TOKEN=$(curl -fs -H 'Content-Type: application/json' -d "{\"email\":\"bench@example.com\",\"password\":\"$PW\"}" "$BASE/api/auth/login" |
  sed -n 's/.*"accessToken":"\([^"]*\)".*/\1/p')
echo "== live events: $STREAMS streams on the chat room"
cd "$ROOT" && go run ./.ci/bench-events -addr "127.0.0.1:$PORT" -token "$TOKEN" -n "$STREAMS" -pid "$DEVHUB_PID" -settle "${SETTLE:-60s}"
