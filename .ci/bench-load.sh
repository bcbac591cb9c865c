#!/usr/bin/env bash
# Load and abuse figures for `make bench`, all on 127.0.0.1 and bounded in time:
#  1. a mixed run — static assets, blog list and search, games list, file list, ranged
#     downloads, activity posts, sign-ins — with wrk, 256 connections for DURATION s:
#     requests/s, p50/p99, socket errors, answers by status class, peak RSS, RSS after;
#  2. 200 signed-in uploads that each send 1000 KB and then stall: the server's RSS
#     (target ≤ 96 MiB) and how many were admitted, refused (429) and ended;
#  3. 500 idle keep-alive connections: the server still answers, RSS stays flat.
set -euo pipefail
BIN=$(realpath "${1:-bin/devhub}")
DURATION=${DURATION:-60}
CONNS=${CONNS:-256}
PORT=${PORT:-18951}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/devhub-bench-load.XXXXXX")
cleanup() {
  [ -n "${DEVHUB_PID:-}" ] && kill "$DEVHUB_PID" 2>/dev/null && wait "$DEVHUB_PID" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT
command -v wrk >/dev/null || { apt-get install -y -qq wrk >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }; }
rss() { awk '/VmRSS/ { print int($2 / 1024) }' "/proc/$DEVHUB_PID/status"; }
hwm() { awk '/VmHWM/ { print int($2 / 1024) }' "/proc/$DEVHUB_PID/status"; }

export DEVHUB_STORAGE_DATA_DIR=$TMP/data DEVHUB_STORAGE_UPLOADS_DIR=$TMP/uploads \
  DEVHUB_STORAGE_CONTENT_DIR=$ROOT/content DEVHUB_STORAGE_ROMS_DIR=$ROOT/roms \
  DEVHUB_SERVER_ADDR=127.0.0.1:$PORT DEVHUB_FILES_UPLOADS_PER_MINUTE=100000
BASE=http://127.0.0.1:$PORT
PW=bench-password-$RANDOM$RANDOM
printf '%s\n' "$PW" | "$BIN" user create --email bench@example.com --name Bench --admin --password-stdin >/dev/null
"$BIN" serve >"$TMP/serve.log" 2>&1 &
DEVHUB_PID=$!
until curl -fs -o /dev/null "$BASE/healthz"; do kill -0 "$DEVHUB_PID" 2>/dev/null || { cat "$TMP/serve.log"; exit 1; }; sleep 0.05; done
TOKEN=$(curl -fs -H 'Content-Type: application/json' -d "{\"email\":\"bench@example.com\",\"password\":\"$PW\"}" "$BASE/api/auth/login" |
  sed -n 's/.*"accessToken":"\([^"]*\)".*/\1/p')
head -c 2097152 /dev/urandom >"$TMP/f.bin"
for i in $(seq 1 40); do
  curl -fs -o /dev/null -H "Authorization: Bearer $TOKEN" -F "files=@$TMP/f.bin;filename=f$i.bin" "$BASE/api/files/upload"
done
FILE_ID=$(curl -fs "$BASE/api/files" | grep -o '"id":[0-9]*' | head -1 | cut -d: -f2)
JS=$(curl -fs "$BASE/" | grep -o '/assets/[^"]*\.js' | head -1)
GAMES_CONSOLE=$(curl -fs "$BASE/romserv/consoles" | grep -o '"id":"[^"]*"' | head -1 | cut -d'"' -f4)

cat >"$TMP/mixed.lua" <<LUA
-- Built in init(): wrk.format takes the Host header from wrk.headers, which is set
-- only after the script's top level has run.
local function build()
return {
  wrk.format("GET", "${JS:-/}", {["Accept-Encoding"] = "br"}),
  wrk.format("GET", "/api/blog?limit=9&page=1"),
  wrk.format("GET", "/api/blog?search=go&limit=9"),
  wrk.format("GET", "/romserv/consoles/${GAMES_CONSOLE:-nes}/games?page=1&limit=30"),
  wrk.format("GET", "/api/files"),
  wrk.format("GET", "/api/files/${FILE_ID}/download", {Range = "bytes=100000-165535"}),
  wrk.format("POST", "/api/activity/log", {["Content-Type"] = "application/json"}, '{"action":"bench","details":{}}'),
  wrk.format("POST", "/api/auth/login", {["Content-Type"] = "application/json"}, '{"email":"bench@example.com","password":"wrong-password"}'),
}
end
local weights = {6, 3, 2, 3, 3, 3, 2, 1}
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init()
  n, s2, s4, s429, s5 = 0, 0, 0, 0, 0
  local reqs = build()
  plan = {}
  for i, w in ipairs(weights) do for _ = 1, w do plan[#plan + 1] = reqs[i] end end
end
function request() n = n + 1; return plan[(n % #plan) + 1] end
function response(status)
  if status >= 500 then s5 = s5 + 1 elseif status == 429 then s429 = s429 + 1
  elseif status >= 400 then s4 = s4 + 1 else s2 = s2 + 1 end
end
function done(summary, latency)
  local a, b, c, d = 0, 0, 0, 0
  for _, t in ipairs(threads) do a = a + t:get("s2"); b = b + t:get("s4"); c = c + t:get("s429"); d = d + t:get("s5") end
  io.write(string.format("answers: %d 2xx/3xx, %d 4xx (wrong passwords), %d 429 (limits), %d 5xx\n", a, b, c, d))
  io.write(string.format("latency: p50 %.2f ms, p99 %.2f ms\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000))
  io.write(string.format("socket errors: connect %d, read %d, write %d, timeout %d\n",
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout))
end
LUA
echo "== mixed load: wrk -t2 -c$CONNS -d${DURATION}s (assets, blog, search, games, files, ranges, activity, sign-ins)"
echo "idle RSS before: $(rss) MiB"
echo 5 >"/proc/$DEVHUB_PID/clear_refs"
wrk -t2 -c"$CONNS" -d"${DURATION}s" --timeout 10s -s "$TMP/mixed.lua" "$BASE" | grep -E "Requests/sec|answers|latency:|socket errors"
echo "peak RSS during the run: $(hwm) MiB"
for _ in 1 2 3 4 5 6 7 8 9 10; do sleep 1; done
echo "RSS 10 s after the run: $(rss) MiB"

echo "== file list with 10 000 files (wrk -t2 -c64 -d10s, plain GET /api/files)"
printf 'note\n' >"$TMP/n.txt"
args=(); for j in $(seq 1 100); do args+=(-F "files=@$TMP/n.txt;filename=n$j.txt"); done
for i in $(seq 1 100); do
  curl -fs -o /dev/null -H "Authorization: Bearer $TOKEN" "${args[@]}" "$BASE/api/files/upload" || { echo "seeding failed"; break; }
done
echo "files: $(curl -fs "$BASE/api/files?limit=1" | grep -o '"totals":{[^}]*}')"
wrk -t2 -c64 -d10s --latency "$BASE/api/files" | grep -E "Requests/sec|50%|99%" | tr -s ' ' | sed 's/^/  /'
echo "  (target: ≥ 10 000 requests/s)"

echo "== 200 stalled uploads (1000 KB each, then nothing)"
echo 5 >"/proc/$DEVHUB_PID/clear_refs"
python3 - "$PORT" "$TOKEN" <<'PY' &
import socket, sys, time
port, token = int(sys.argv[1]), sys.argv[2]
boundary = "stallboundary"
head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; filename=\"stall.bin\"\r\n\r\n").encode()
conns = []
for i in range(200):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall((f"POST /api/files/upload HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {token}\r\n"
               f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {50 << 20}\r\n\r\n").encode() + head)
    s.sendall(b"x" * 1000 * 1024)
    conns.append(s)
time.sleep(20)
PY
STALL_PID=$!
for _ in $(seq 1 15); do sleep 1; done
echo "server RSS with 200 stalled uploads: $(rss) MiB, peak $(hwm) MiB (target ≤ 96 MiB)"
echo "temp files held: $(find "$TMP/uploads" -name '.upload-*' | wc -l) (files.max_concurrent_uploads_per_user admits 4 per user)"
wait "$STALL_PID" 2>/dev/null || true
for _ in $(seq 1 5); do sleep 1; done
echo "after the clients went away: RSS $(rss) MiB, temp files $(find "$TMP/uploads" -name '.upload-*' | wc -l)"

echo "== 500 idle keep-alive connections"
python3 - "$PORT" <<'PY' &
import socket, sys, time
conns = [socket.create_connection(("127.0.0.1", int(sys.argv[1]))) for _ in range(500)]
time.sleep(8)
PY
IDLE_PID=$!
sleep 3
start=$(date +%s%N); curl -fs -o /dev/null "$BASE/api/blog?limit=9"; end=$(date +%s%N)
echo "a request while 500 connections idle: $(( (end - start) / 1000000 )) ms; RSS $(rss) MiB"
wait "$IDLE_PID" 2>/dev/null || true
