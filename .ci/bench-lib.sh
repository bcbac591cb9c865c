# Helpers the file benches share (sourced, not run).

# wait_until CMD...: retry for at most WAIT_SECONDS (default 10) s.
wait_until() {
  local deadline=$(( $(date +%s) + ${WAIT_SECONDS:-10} ))
  until "$@"; do
    [ "$(date +%s)" -lt "$deadline" ] || { echo "timed out waiting for: $*"; return 1; }
    sleep 0.05
  done
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
now() { date +%s.%N; }
# mibs SECONDS: SIZE_MIB transferred in that time, in MiB/s.
mibs() { awk -v m="$SIZE_MIB" -v s="$1" 'BEGIN { printf "%.0f", m / s }'; }

# start_and_sign_in BIN: starts `BIN serve` (DEVHUB_* from the environment, log in $TMP/serve.log)
# as DEVHUB_PID, creates a user and sets TOKEN to its access token. The peak RSS is then
# reset (writing 5 to clear_refs sets VmHWM to the current RSS): signing in hashes a password
# (argon2id, 19 MiB), and the figures are about the transfers; RSS_START is the level then.
start_and_sign_in() {
  "$1" serve >"$TMP/serve.log" 2>&1 &
  DEVHUB_PID=$!
  wait_until curl -fs -o /dev/null "$BASE/healthz" || { cat "$TMP/serve.log"; exit 1; }
  local pw=bench-password-$RANDOM$RANDOM
  printf '%s\n' "$pw" | "$1" user create --email bench@example.com --name Bench --password-stdin >/dev/null
  TOKEN=$(curl -fsS -H 'Content-Type: application/json' \
    -d "{\"email\":\"bench@example.com\",\"password\":\"$pw\"}" "$BASE/api/auth/login" |
    grep -o '"accessToken":"[^"]*"' | cut -d'"' -f4)
  [ -n "$TOKEN" ] || { echo "could not sign in"; exit 1; }
  echo 5 >"/proc/$DEVHUB_PID/clear_refs" 2>/dev/null || true
  RSS_START=$(awk '/VmHWM/ { print $2 }' "/proc/$DEVHUB_PID/status")
}
