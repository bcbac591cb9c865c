#!/usr/bin/env bash
# File cloud figures for `make bench`: a 1 GiB upload through the API
# (throughput and the server's peak RSS) next to an fsync'd dd of the same
# size on the same disk, and the download of that file (whole and ranged,
# sent with sendfile) next to nginx serving it, when nginx is installed; then
# the same bytes published as a release of the download sections and
# downloaded from there.
# Everything runs on 127.0.0.1 and is bounded: each transfer has a time limit.
#
# Budgets (DESIGN.md): upload ≥ 0.8× dd and peak RSS ≤ 64 MiB; download ≥ 0.9× nginx.
set -euo pipefail
BIN=$(realpath "${1:-bin/devhub}")
SIZE_MIB=${SIZE_MIB:-1024}
RUNS=${RUNS:-3}
PORT=${PORT:-18941}
NGINX_PORT=${NGINX_PORT:-18942}
MAX_TIME=${MAX_TIME:-120}
# The temp dir holds the data dir, uploads/ and the dd target, so all of them
# are on one file system and the comparison is fair.
TMP=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/devhub-bench-files.XXXXXX")
cleanup() {
  [ -n "${DEVHUB_PID:-}" ] && kill "$DEVHUB_PID" 2>/dev/null && wait "$DEVHUB_PID" 2>/dev/null || true
  [ -f "$TMP/nginx.pid" ] && kill "$(cat "$TMP/nginx.pid")" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

. "$(dirname "$0")/bench-lib.sh"

export DEVHUB_STORAGE_DATA_DIR=$TMP/data DEVHUB_STORAGE_UPLOADS_DIR=$TMP/uploads \
  DEVHUB_STORAGE_CONTENT_DIR=$TMP/none DEVHUB_STORAGE_ROMS_DIR=$TMP/none \
  DEVHUB_SERVER_ADDR=127.0.0.1:$PORT DEVHUB_FILES_MAX_UPLOAD_BYTES=$(( (SIZE_MIB + 64) * 1048576 ))
BASE=http://127.0.0.1:$PORT

echo "== file cloud: ${SIZE_MIB} MiB, $RUNS runs each, medians (temp dir $TMP)"
head -c "$((SIZE_MIB * 1048576))" /dev/urandom >"$TMP/src.bin"
SRC_SHA=$(sha256sum "$TMP/src.bin" | cut -d' ' -f1)

start_and_sign_in "$BIN"

up_times=() dd_times=() ID=
for i in $(seq "$RUNS"); do
  # dd: the same bytes from the page cache to the same disk, fsync'd.
  sync
  t0=$(now)
  dd if="$TMP/src.bin" of="$TMP/dd.out" bs=1M conv=fsync status=none
  t1=$(now)
  rm -f "$TMP/dd.out"
  dd_times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")

  # Upload through the API (multipart, like the browser), fsync'd by the server.
  [ -n "$ID" ] && "$BIN" file rm "$ID" >/dev/null
  sync
  t0=$(now)
  resp=$(curl -sS --max-time "$MAX_TIME" -H "Authorization: Bearer $TOKEN" -H 'Expect:' \
    -F "files=@$TMP/src.bin;type=application/octet-stream" -w '\n%{http_code}' "$BASE/api/files/upload")
  t1=$(now)
  code=$(tail -n1 <<<"$resp")
  [ "$code" = 201 ] || { echo "upload failed: $resp"; exit 1; }
  ID=$(grep -o '"id":[0-9]*' <<<"$resp" | head -1 | cut -d: -f2)
  sha=$(grep -o '"sha256":"[0-9a-f]*"' <<<"$resp" | cut -d'"' -f4)
  [ "$sha" = "$SRC_SHA" ] || { echo "upload sha256 $sha != $SRC_SHA"; exit 1; }
  up_times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
  echo "run $i: dd $(mibs "${dd_times[-1]}") MiB/s, upload $(mibs "${up_times[-1]}") MiB/s"
done
RSS_PEAK=$(awk '/VmHWM/ { print $2 }' "/proc/$DEVHUB_PID/status")
DD=$(mibs "$(printf '%s\n' "${dd_times[@]}" | median)")
UP=$(mibs "$(printf '%s\n' "${up_times[@]}" | median)")
echo "dd bs=1M conv=fsync:          $DD MiB/s"
echo "upload (POST /api/files/upload): $UP MiB/s  = $(awk -v a="$UP" -v b="$DD" 'BEGIN { printf "%.2f", a / b }')× dd (budget ≥ 0.80×)"
echo "server peak RSS (VmHWM):      $((RSS_PEAK / 1024)) MiB after the uploads ($((RSS_START / 1024)) MiB before; budget ≤ 64 MiB)"
echo "uploads' own share:           +$(( (RSS_PEAK - RSS_START) / 1024 )) MiB over the level before them"
# What the resident set is made of: file-backed pages are mostly the binary's embedded assets.
awk '/^Rss(Anon|File|Shmem)/ { printf "%s %d MiB  ", $1, $2 / 1024 } END { print "(now)" }' "/proc/$DEVHUB_PID/status"

# Downloads: the page cache holds the file after the first run, as it does
# for nginx; both are measured the same way.
download() { # url [range] → seconds
  local args=(-sS --max-time "$MAX_TIME" -o /dev/null -w '%{http_code} %{time_total}')
  [ -n "${2:-}" ] && args+=(-H "Range: $2")
  curl "${args[@]}" "$1"
}
measure() { # label url expected-status [range]
  local times=() out
  for _ in $(seq $((RUNS + 1))); do
    out=$(download "$2" "${4:-}")
    [ "${out%% *}" = "$3" ] || { echo "$1: status ${out%% *}, want $3"; exit 1; }
    times+=("${out#* }")
  done
  # The first run warms the cache and is not counted.
  mibs "$(printf '%s\n' "${times[@]:1}" | median)"
}
DL=$(measure "download" "$BASE/api/files/$ID/download" 200)
DLR=$(measure "ranged download" "$BASE/api/files/stream/$ID" 206 "bytes=0-")
echo "download (GET …/download):    $DL MiB/s"
echo "ranged (Range: bytes=0-):     $DLR MiB/s"
echo "server peak RSS (VmHWM):      $(( $(awk '/VmHWM/ { print $2 }' "/proc/$DEVHUB_PID/status") / 1024 )) MiB after the downloads"

NGINX=$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null || true)
if [ -n "$NGINX" ]; then
  # nginx workers run as an unprivileged user: let them read the file.
  mkdir -p "$TMP/www"
  ln "$TMP/src.bin" "$TMP/www/file.bin"
  chmod a+rx "$TMP" "$TMP/www" && chmod a+r "$TMP/www/file.bin"
  cat >"$TMP/nginx.conf" <<CONF
worker_processes 2;
pid $TMP/nginx.pid;
error_log $TMP/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on; tcp_nopush on;
  client_body_temp_path $TMP/nginx-body; proxy_temp_path $TMP/nginx-proxy;
  fastcgi_temp_path $TMP/nginx-fcgi; uwsgi_temp_path $TMP/nginx-uwsgi; scgi_temp_path $TMP/nginx-scgi;
  server { listen 127.0.0.1:$NGINX_PORT; root $TMP/www; }
}
CONF
  "$NGINX" -c "$TMP/nginx.conf" -p "$TMP"
  wait_until curl -fs -o /dev/null -r 0-0 "http://127.0.0.1:$NGINX_PORT/file.bin" || { cat "$TMP/nginx-error.log"; exit 1; }
  NG=$(measure "nginx" "http://127.0.0.1:$NGINX_PORT/file.bin" 200)
  NGR=$(measure "nginx ranged" "http://127.0.0.1:$NGINX_PORT/file.bin" 206 "bytes=0-")
  echo "nginx sendfile:               $NG MiB/s (ranged $NGR MiB/s)"
  echo "download = $(awk -v a="$DL" -v b="$NG" 'BEGIN { printf "%.2f", a / b }')× nginx, ranged = $(awk -v a="$DLR" -v b="$NGR" 'BEGIN { printf "%.2f", a / b }')× nginx (budget ≥ 0.90×)"
else
  echo "nginx not installed: download figures reported alone"
fi

# The same bytes as a release file of /programs (published from the terminal while the server runs).
"$BIN" download add bench-release --section programs --name "Bench release" --summary "A release file for make bench" >/dev/null
REL=$("$BIN" download release bench-release --version 1.0 --json "$TMP/src.bin@windows/x64")
# --json is indented: read it with node, not by its spacing.
field() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).releases[0].files[0][process.argv[1]]))' "$1" <<<"$REL"; }
REL_URL=$(field url)
REL_SHA=$(field sha256)
[ "$REL_SHA" = "$SRC_SHA" ] || { echo "release sha256 $REL_SHA != $SRC_SHA"; exit 1; }
RDL=$(measure "release download" "$BASE$REL_URL" 200)
echo "release file (GET $REL_URL): $RDL MiB/s"
if [ -n "${NG:-}" ]; then
  echo "release download = $(awk -v a="$RDL" -v b="$NG" 'BEGIN { printf "%.2f", a / b }')× nginx (budget ≥ 0.90×)"
fi
