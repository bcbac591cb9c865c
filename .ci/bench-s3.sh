#!/usr/bin/env bash
# S3 backend figures for `make bench`: a 1 GiB upload and download through
# devhub with storage.backend s3 against a MinIO on 127.0.0.1, beside the
# same transfers straight to MinIO with minio-go (.ci/s3copy), and devhub's
# peak RSS during them. Bounded: each transfer has a time limit.
#
# Targets: through devhub ≥ 0.8× direct; peak RSS ≤ 64 MiB during the 1 GiB upload.
#
# The server runs with storage.s3.serve_direct on, so a download is measured
# both ways: proxied (the SPA's fetch, Sec-Fetch-Mode: cors, which devhub
# always serves itself) and direct (curl -L follows the 307 to the presigned
# URL, as a browser's link does); target for the direct one ≥ 0.95× minio-go.
set -euo pipefail
BIN=$(realpath "${1:-bin/devhub}")
MINIO=${2:-$DEVHUB_MINIO}
SIZE_MIB=${SIZE_MIB:-1024}
RUNS=${RUNS:-4}
PORT=${PORT:-18951}
MINIO_PORT=${MINIO_PORT:-18952}
MAX_TIME=${MAX_TIME:-300}
TMP=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/devhub-bench-s3.XXXXXX")
cleanup() {
  [ -n "${DEVHUB_PID:-}" ] && kill "$DEVHUB_PID" 2>/dev/null && wait "$DEVHUB_PID" 2>/dev/null || true
  [ -n "${MINIO_PID:-}" ] && kill "$MINIO_PID" 2>/dev/null && wait "$MINIO_PID" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT
. "$(dirname "$0")/bench-lib.sh"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

export DEVHUB_STORAGE_S3_ACCESS_KEY=bench-key DEVHUB_STORAGE_S3_SECRET_KEY=bench-secret-$RANDOM$RANDOM
MINIO_URL=http://127.0.0.1:$MINIO_PORT
MINIO_ROOT_USER=$DEVHUB_STORAGE_S3_ACCESS_KEY MINIO_ROOT_PASSWORD=$DEVHUB_STORAGE_S3_SECRET_KEY MINIO_BROWSER=off \
  "$MINIO" server "$TMP/minio" --address "127.0.0.1:$MINIO_PORT" --console-address "127.0.0.1:$((MINIO_PORT + 1))" --quiet \
  >"$TMP/minio.log" 2>&1 &
MINIO_PID=$!
WAIT_SECONDS=60 wait_until curl -fs -o /dev/null "$MINIO_URL/minio/health/ready" || { cat "$TMP/minio.log"; exit 1; }
go build -o "$TMP/s3copy" ./.ci/s3copy

export DEVHUB_STORAGE_DATA_DIR=$TMP/data DEVHUB_STORAGE_UPLOADS_DIR=$TMP/uploads \
  DEVHUB_STORAGE_CONTENT_DIR=$TMP/none DEVHUB_STORAGE_ROMS_DIR=$TMP/none \
  DEVHUB_SERVER_ADDR=127.0.0.1:$PORT DEVHUB_FILES_MAX_UPLOAD_BYTES=$(( (SIZE_MIB + 64) * 1048576 )) \
  DEVHUB_STORAGE_BACKEND=s3 DEVHUB_STORAGE_S3_ENDPOINT=$MINIO_URL DEVHUB_STORAGE_S3_BUCKET=devhub \
  DEVHUB_FILES_QUOTA_BYTES=0 DEVHUB_STORAGE_S3_SERVE_DIRECT=true
BASE=http://127.0.0.1:$PORT

echo "== S3 backend: ${SIZE_MIB} MiB to MinIO on 127.0.0.1, $RUNS runs each, medians"
head -c "$((SIZE_MIB * 1048576))" /dev/urandom >"$TMP/src.bin"
SRC_SHA=$(sha256sum "$TMP/src.bin" | cut -d' ' -f1)

start_and_sign_in "$BIN"

# Each transfer starts from the same state: the writes of the one before are
# flushed first (sync), and the order of the two sides alternates between runs.
# Measured here, MinIO spent about 1.5× the CPU on whichever 1 GiB upload came
# second while the first one's pages were still being written back, so a fixed
# order measured the page cache, not devhub.
direct_round() {
  sync
  direct_put+=("$("$TMP/s3copy" put "$MINIO_URL" devhub "direct-$i.bin" "$TMP/src.bin")")
  direct_get+=("$("$TMP/s3copy" get "$MINIO_URL" devhub "direct-$i.bin" /dev/null)")
}
devhub_round() {
  [ -n "$ID" ] && "$BIN" file rm "$ID" >/dev/null
  sync
  local t0 t1 resp sha out
  t0=$(now)
  resp=$(curl -sS --max-time "$MAX_TIME" -H "Authorization: Bearer $TOKEN" -H 'Expect:' \
    -F "files=@$TMP/src.bin;type=application/octet-stream" -w '\n%{http_code}' "$BASE/api/files/upload")
  t1=$(now)
  [ "$(tail -n1 <<<"$resp")" = 201 ] || { echo "upload failed: $resp"; exit 1; }
  ID=$(grep -o '"id":[0-9]*' <<<"$resp" | head -1 | cut -d: -f2)
  sha=$(grep -o '"sha256":"[0-9a-f]*"' <<<"$resp" | cut -d'"' -f4)
  [ "$sha" = "$SRC_SHA" ] || { echo "upload sha256 $sha != $SRC_SHA"; exit 1; }
  up+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
  out=$(curl -sS --max-time "$MAX_TIME" -H 'Sec-Fetch-Mode: cors' -o /dev/null -w '%{http_code} %{time_total}' "$BASE/api/files/$ID/download")
  [ "${out%% *}" = 200 ] || { echo "download: status ${out%% *}"; exit 1; }
  down+=("${out#* }")
  serve_direct_get
}
# serve_direct_get: the same download as a link: devhub's 307, then the
# bytes from MinIO through the presigned URL (time_total covers both).
serve_direct_get() {
  local out code redirects secs
  if [ "${#presigned[@]}" = 0 ]; then # once, untimed: the store sends the exact bytes
    [ "$(curl -sS -L --max-time "$MAX_TIME" "$BASE/api/files/$ID/download" | sha256sum | cut -d' ' -f1)" = "$SRC_SHA" ] ||
      { echo "serve_direct download: the bytes differ"; exit 1; }
  fi
  out=$(curl -sS -L --max-time "$MAX_TIME" -o /dev/null -w '%{http_code} %{num_redirects} %{time_total}' "$BASE/api/files/$ID/download")
  read -r code redirects secs <<<"$out"
  [ "$code" = 200 ] && [ "$redirects" = 1 ] || { echo "serve_direct download: status $code after $redirects redirects"; exit 1; }
  presigned+=("$secs")
}
direct_put=() direct_get=() up=() down=() presigned=() ID=
for i in $(seq "$RUNS"); do
  if (( i % 2 )); then direct_round; devhub_round; else devhub_round; direct_round; fi
  echo "run $i: direct put $(mibs "${direct_put[-1]}") MiB/s, via devhub $(mibs "${up[-1]}") MiB/s;" \
    "direct get $(mibs "${direct_get[-1]}") MiB/s, via devhub $(mibs "${down[-1]}") MiB/s, serve_direct $(mibs "${presigned[-1]}") MiB/s"
done
RSS_PEAK=$(awk '/VmHWM/ { print $2 }' "/proc/$DEVHUB_PID/status")
DP=$(mibs "$(printf '%s\n' "${direct_put[@]}" | median)")
UP=$(mibs "$(printf '%s\n' "${up[@]}" | median)")
DG=$(mibs "$(printf '%s\n' "${direct_get[@]}" | median)")
DN=$(mibs "$(printf '%s\n' "${down[@]}" | median)")
echo "upload:   direct minio-go $DP MiB/s, through devhub $UP MiB/s = $(ratio "$UP" "$DP")× (target ≥ 0.80×)"
PS=$(mibs "$(printf '%s\n' "${presigned[@]}" | median)")
echo "download: direct minio-go $DG MiB/s, through devhub $DN MiB/s = $(ratio "$DN" "$DG")× (target ≥ 0.80×)"
echo "download: storage.s3.serve_direct (307 + presigned GET) $PS MiB/s = $(ratio "$PS" "$DG")× minio-go (target ≥ 0.95×), proxied $(ratio "$DN" "$DG")×"
echo "devhub peak RSS (VmHWM):  $((RSS_PEAK / 1024)) MiB ($((RSS_START / 1024)) MiB before the transfers; budget ≤ 64 MiB)"
