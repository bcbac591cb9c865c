#!/usr/bin/env bash
# Lighthouse figures for `make bench`: for each public route, mobile performance,
# accessibility, best practices and SEO, with cumulative layout shift, total blocking time and
# largest contentful paint, then desktop performance. Prints figures only: nothing is asserted.
# Lighthouse (pinned in site/package.json) drives Debian's Chromium through chrome-launcher
# (CHROME_PATH); the server runs on 127.0.0.1 with the shipped content/ and a fresh data dir.
set -euo pipefail
BIN=${1:-bin/devhub}
PORT=${PORT:-18941}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LH=$ROOT/site/node_modules/.bin/lighthouse
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
TMP=$(mktemp -d)
cleanup() {
  [ -n "${DEVHUB_PID:-}" ] && kill "$DEVHUB_PID" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

[ -x "$LH" ] || { echo "lighthouse is missing: cd site && npm ci" >&2; exit 1; }
[ -x "$CHROME_PATH" ] || { echo "no Chromium at $CHROME_PATH (make chromium)" >&2; exit 1; }

export DEVHUB_SERVER_ADDR=127.0.0.1:$PORT
export DEVHUB_STORAGE_DATA_DIR=$TMP/data
export DEVHUB_STORAGE_UPLOADS_DIR=$TMP/uploads
export DEVHUB_STORAGE_CONTENT_DIR=$ROOT/content
export DEVHUB_STORAGE_ROMS_DIR=$ROOT/roms
# The article with 100 comments is seeded through the API by one account: no queue, no rate.
export DEVHUB_COMMENTS_MODERATION=none DEVHUB_MODERATION_RATE_PER_USER=0 DEVHUB_MODERATION_RATE_PER_NETWORK=0
PW=bench-password-$RANDOM$RANDOM
printf '%s\n' "$PW" | "$BIN" user create --admin --email lh@example.com --name Lighthouse --password-stdin >/dev/null
"$BIN" serve >"$TMP/serve.log" 2>&1 &
DEVHUB_PID=$!
until curl -fs -o /dev/null "http://127.0.0.1:$PORT/healthz"; do
  kill -0 "$DEVHUB_PID" 2>/dev/null || { cat "$TMP/serve.log"; exit 1; }
  sleep 0.2
done

# an article of the imported content/ (the newest), by its id
ARTICLE=$("$BIN" article list --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const a=JSON.parse(s);console.log(a.length?a[0].id:"")})')
TOKEN=$(curl -fs -H 'Content-Type: application/json' -d "{\"email\":\"lh@example.com\",\"password\":\"$PW\"}" \
  "http://127.0.0.1:$PORT/api/auth/login" | sed -n 's/.*"accessToken":"\([^"]*\)".*/\1/p')
# An article with 100 comments: its page renders them all (the figure is for that page's weight).
printf '# A discussed article\n\nThe text the comments below are about.\n' >"$TMP/discussed.md"
DISCUSSED=$("$BIN" article create --name "A discussed article" --excerpt "With 100 comments" --category Bench \
  --file "$TMP/discussed.md" --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).id))')
for i in $(seq 100); do
  curl -fs -o /dev/null -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    -d "{\"content\":\"Comment $i: a reader's thoughts on the article, with **some** Markdown and \`code\`.\"}" \
    "http://127.0.0.1:$PORT/api/blog/$DISCUSSED/comments"
done
ROUTES=(/ /blog ${ARTICLE:+/blog/$ARTICLE} "/blog/$DISCUSSED" /filecloud /games /tools/ip /tools/tone_generator /programs /alavar /forum /chat)
EDITOR=1 NOJS=1 DESKTOP=1

# ONLY: a space-separated list limits the run to those of the routes above, for comparing one
# change on a few pages. The names "article" and "discussed" stand for the two seeded articles,
# "editor" for the signed-in editor, "nojs" for the article without JavaScript and "desktop" for
# the desktop pass. Unset, every route is measured.
if [ -n "${ONLY:-}" ]; then
  picked=()
  for path in "${ROUTES[@]}"; do
    for want in $ONLY; do
      case $want in
        article) want=/blog/$ARTICLE ;;
        discussed) want=/blog/$DISCUSSED ;;
      esac
      [ "$path" = "$want" ] && picked+=("$path")
    done
  done
  ROUTES=(${picked[@]+"${picked[@]}"})
  case " $ONLY " in *" editor "*) ;; *) EDITOR= ;; esac
  case " $ONLY " in *" nojs "*) ;; *) NOJS= ;; esac
  case " $ONLY " in *" desktop "*) ;; *) DESKTOP= ;; esac
fi

# Mobile runs per route: the simulated slow phone's blocking time varies between runs here
# (/tools/ip: 48–161 ms over six), so one run is a sample, not a figure; Lighthouse's guide to
# variability recommends the median of several runs.
MOBILE_RUNS=${MOBILE_RUNS:-3}

CHROME_FLAGS="--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"

# run URL OUT [extra lighthouse flags...]: a second try when the first fails, as Lighthouse's own
# message asks for its intermittent trace errors ("Something went wrong with recording the trace
# over your page load. Please run Lighthouse again. (NO_NAVSTART)", seen on /filecloud once).
run() {
  local url=$1 out=$2
  shift 2
  for _ in 1 2; do
    "$LH" "$url" --quiet --output=json --output-path="$out" --chrome-flags="$CHROME_FLAGS" "$@" >/dev/null 2>"$TMP/lh.err" &&
      return 0
  done
  echo "lighthouse failed twice on $url:"
  tail -5 "$TMP/lh.err"
  return 1
}

# figures FILE...: one line of scores (0–100) and metrics from Lighthouse JSON reports of one
# page: of several, the median run as Lighthouse picks it (computeMedianRun: nearest the median
# first contentful paint and time to interactive), with the other runs' performance beside it.
figures() {
  node --input-type=module -e '
    import { readFileSync } from "node:fs";
    import { pathToFileURL } from "node:url";
    const [lib, ...files] = process.argv.slice(1);
    const { computeMedianRun } = await import(pathToFileURL(lib).href);
    const runs = files.map((f) => JSON.parse(readFileSync(f, "utf8")));
    const r = runs.length > 1 ? computeMedianRun(runs) : runs[0];
    const score = (run, k) => Math.round(run.categories[k].score * 100);
    const c = (k) => (r.categories[k] ? String(score(r, k)).padStart(3) : "  -");
    const a = (k) => r.audits[k]?.numericValue;
    const cls = a("cumulative-layout-shift"), tbt = a("total-blocking-time"), lcp = a("largest-contentful-paint");
    const fcp = a("first-contentful-paint");
    const spread = runs.length > 1
      ? `  (median of ${runs.length}; performance ${runs.map((run) => score(run, "performance")).join("/")},` +
        ` TBT ${runs.map((run) => Math.round(run.audits["total-blocking-time"].numericValue)).join("/")} ms)`
      : "";
    console.log(
      `${c("performance")}  ${c("accessibility")}  ${c("best-practices")}  ${c("seo")}` +
        `  CLS ${cls == null ? "-" : cls.toFixed(3)}  TBT ${tbt == null ? "-" : Math.round(tbt) + " ms"}` +
        `  LCP ${lcp == null ? "-" : (lcp / 1000).toFixed(2) + " s"}  FCP ${fcp == null ? "-" : (fcp / 1000).toFixed(2) + " s"}${spread}`,
    );
  ' "$ROOT/site/node_modules/lighthouse/core/lib/median-run.js" "$@"
}

# keep PATH FILE...: with REPORTS_DIR set, the mobile reports are copied there (named after the
# route and run) for a look at what the page spent its time on.
keep() {
  [ -n "${REPORTS_DIR:-}" ] || return 0
  local name i=1
  name=$(printf '%s' "$1" | tr -c 'A-Za-z0-9' '_')
  shift
  mkdir -p "$REPORTS_DIR"
  for f in "$@"; do cp "$f" "$REPORTS_DIR/m${name}_$i.json"; i=$((i + 1)); done
}

# One run first whose figures are not printed, after the disk has settled: in `make bench` this
# step follows the S3 bench, and the first run then measured the writeback of its gigabytes
# and Chromium's first start (home 74 with 1.15 s of blocking time, then 97–98 on every
# repeat).
sync
run "http://127.0.0.1:$PORT/" "$TMP/warm.json" --form-factor=mobile --only-categories=performance || true

echo "== Lighthouse $("$LH" --version), Chromium $("$CHROME_PATH" --version 2>/dev/null | awk '{print $2}'), mobile (perf a11y best-practices seo), median of $MOBILE_RUNS runs"
for path in ${ROUTES[@]+"${ROUTES[@]}"}; do
  reports=()
  for i in $(seq "$MOBILE_RUNS"); do
    run "http://127.0.0.1:$PORT$path" "$TMP/m$i.json" --form-factor=mobile \
      --only-categories=performance,accessibility,best-practices,seo && reports+=("$TMP/m$i.json")
  done
  if [ ${#reports[@]} -gt 0 ]; then printf '%-24s %s\n' "$path" "$(figures "${reports[@]}")"; fi
  keep "$path" ${reports[@]+"${reports[@]}"}
done

# The article editor, signed in as the admin (Lighthouse attached to a Chromium whose storage
# holds the session).
reports=()
for i in $(seq "$([ -n "$EDITOR" ] && echo "$MOBILE_RUNS" || echo 0)"); do
  (cd "$ROOT" && node .ci/lighthouse-signed-in.mjs "http://127.0.0.1:$PORT/blog/$DISCUSSED/edit" "$TMP/e$i.json" "$TOKEN" \
    --form-factor=mobile --only-categories=performance,accessibility,best-practices,seo 2>"$TMP/lh.err") &&
    reports+=("$TMP/e$i.json") || tail -5 "$TMP/lh.err"
done
if [ ${#reports[@]} -gt 0 ]; then printf '%-24s %s\n' "/blog/$DISCUSSED/edit" "$(figures "${reports[@]}")"; fi
keep /edit ${reports[@]+"${reports[@]}"}

# An article read without JavaScript: every script blocked, the server-rendered page alone.
if [ -n "$NOJS" ] && [ -n "$ARTICLE" ] && run "http://127.0.0.1:$PORT/blog/$ARTICLE" "$TMP/nojs.json" --form-factor=mobile \
  --only-categories=performance --blocked-url-patterns='*.js'; then
  node -e 'const r=require(process.argv[1]);console.log(`/blog/'"$ARTICLE"' without JavaScript: first contentful paint ${(r.audits["first-contentful-paint"].numericValue/1000).toFixed(2)} s (simulated slow phone), CLS ${r.audits["cumulative-layout-shift"].numericValue.toFixed(3)}`)' "$TMP/nojs.json"
fi

[ -z "$DESKTOP" ] && exit 0
echo "== desktop performance"
for path in ${ROUTES[@]+"${ROUTES[@]}"}; do
  if run "http://127.0.0.1:$PORT$path" "$TMP/d.json" --preset=desktop --only-categories=performance; then
    printf '%-24s %s\n' "$path" "$(figures "$TMP/d.json")"
  fi
done
