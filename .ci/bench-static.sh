#!/usr/bin/env bash
# Static serving, start-up and size figures for `make bench`.
# Everything runs on 127.0.0.1, bounded in time: wrk runs DURATION seconds per case.
# Compares the devhub binary with nginx (sendfile, gzip_static) serving the
# same built files when nginx is installed, and prints the ratios.
set -euo pipefail
BIN=${1:-bin/devhub}
DURATION=${DURATION:-5}
PORT=${PORT:-18931}
NGINX_PORT=${NGINX_PORT:-18932}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIST=$ROOT/site/dist
TMP=$(mktemp -d)
cleanup() {
  [ -n "${DEVHUB_PID:-}" ] && kill "$DEVHUB_PID" 2>/dev/null || true
  [ -f "$TMP/nginx.pid" ] && kill "$(cat "$TMP/nginx.pid")" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

if ! command -v wrk >/dev/null; then
  echo "installing wrk (Debian package) for the load runs"
  apt-get install -y -qq wrk >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
fi

echo "== binary"
awk -v b="$(stat -c %s "$BIN")" 'BEGIN { printf "size: %d bytes (%.1f MiB)\n", b, b / 1048576 }'

echo "== start-up to first 200 from /healthz (5 runs)"
for i in 1 2 3 4 5; do
  rm -rf "$TMP/data"
  start=$(date +%s%N)
  DEVHUB_STORAGE_DATA_DIR=$TMP/data DEVHUB_STORAGE_UPLOADS_DIR=$TMP/uploads DEVHUB_SERVER_ADDR=127.0.0.1:$PORT \
    DEVHUB_STORAGE_CONTENT_DIR=$TMP/none DEVHUB_STORAGE_ROMS_DIR=$TMP/none \
    "$BIN" serve >"$TMP/serve.log" 2>&1 &
  DEVHUB_PID=$!
  until curl -fs -o /dev/null "http://127.0.0.1:$PORT/healthz"; do
    kill -0 "$DEVHUB_PID" 2>/dev/null || { cat "$TMP/serve.log"; exit 1; }
  done
  end=$(date +%s%N)
  echo "run $i: $(( (end - start) / 1000000 )) ms"
  if [ "$i" -lt 5 ]; then kill "$DEVHUB_PID"; wait "$DEVHUB_PID" 2>/dev/null || true; fi
done

JS=$(cd "$DIST" && ls -S assets/*.js | head -1)
echo "== static files (wrk -t2 -c64 -d${DURATION}s; largest JS: $JS, $(stat -c %s "$DIST/$JS") bytes)"

have_nginx=0
if command -v nginx >/dev/null; then
  have_nginx=1
  cat >"$TMP/nginx.conf" <<CONF
worker_processes 2;
pid $TMP/nginx.pid;
error_log $TMP/nginx-error.log;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on; tcp_nopush on;
  gzip_static on;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    root $DIST;
    location / { try_files \$uri /index.html; }
  }
}
CONF
  nginx -c "$TMP/nginx.conf"
else
  echo "(nginx is not installed: figures for devhub alone; apt-get install nginx for the comparison)"
fi

run_wrk() { # url header -> "reqs p99"
  local out
  out=$(wrk -t2 -c64 -d"${DURATION}s" --latency -H "$2" "$1")
  local rps p99
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  echo "$rps $p99"
}

printf '%-22s %14s %10s %14s %10s %8s\n' case devhub_req/s p99 nginx_req/s p99 ratio
for c in "index.html|/|Accept-Encoding: identity" \
         "index.html gzip|/|Accept-Encoding: gzip" \
         "JS identity|/$JS|Accept-Encoding: identity" \
         "JS gzip|/$JS|Accept-Encoding: gzip"; do
  IFS='|' read -r name path hdr <<<"$c"
  read -r d_rps d_p99 <<<"$(run_wrk "http://127.0.0.1:$PORT$path" "$hdr")"
  if [ $have_nginx = 1 ]; then
    read -r n_rps n_p99 <<<"$(run_wrk "http://127.0.0.1:$NGINX_PORT$path" "$hdr")"
    ratio=$(awk -v a="$d_rps" -v b="$n_rps" 'BEGIN { printf "%.2f", a / b }')
  else
    n_rps=- n_p99=- ratio=-
  fi
  printf '%-22s %14s %10s %14s %10s %8s\n' "$name" "$d_rps" "$d_p99" "$n_rps" "$n_p99" "$ratio"
done
read -r d_rps d_p99 <<<"$(run_wrk "http://127.0.0.1:$PORT/$JS" "Accept-Encoding: br")"
printf '%-22s %14s %10s %14s %10s %8s\n' "JS brotli" "$d_rps" "$d_p99" "-" "-" "-"
