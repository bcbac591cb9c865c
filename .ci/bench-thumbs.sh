#!/usr/bin/env bash
# Thumbnail memory for `make bench`: for each kind of image, the largest one
# pkg/thumbs still accepts (found from its header by .ci/thumbrss), encoded
# by the usual tools (cjpeg, cwebp; Go's PNG encoder), then thumbnailed in a
# process of its own whose peak RSS (VmHWM) is printed beside the estimate.
# Then images over the limit, among them a progressive 4:4:4 JPEG of
# 7000×7000 that used to take the server to 767 MB: refused from the header.
#
# Target: peak RSS ≤ 256 MiB while making the thumbnail of any accepted image.
set -euo pipefail
TARGET_MIB=256
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/devhub-bench-thumbs.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

if ! command -v cjpeg >/dev/null || ! command -v cwebp >/dev/null; then
  echo "installing libjpeg-turbo-progs and webp (Debian packages) for the test images"
  apt-get install -y -qq libjpeg-turbo-progs webp >/dev/null 2>&1 ||
    { apt-get update -qq && apt-get install -y -qq libjpeg-turbo-progs webp >/dev/null; }
fi
(cd "$ROOT" && go build -o "$TMP/thumbrss" ./.ci/thumbrss)
P=$TMP/thumbrss

# encode KIND W H FILE: a W×H picture of KIND in FILE.
encode() {
  local kind=$1 w=$2 h=$3 out=$4
  case $kind in
    png-8) "$P" png "$w" "$h" 8 "$out"; return ;;
    png-16) "$P" png "$w" "$h" 16 "$out"; return ;;
    webp-many-trees) "$P" manytrees "$out"; return ;;
  esac
  "$P" ppm "$w" "$h" "$TMP/src.ppm"
  case $kind in
    jpeg-baseline-444) cjpeg -quality 90 -sample 1x1 -outfile "$out" "$TMP/src.ppm" ;;
    jpeg-baseline-420) cjpeg -quality 90 -sample 2x2 -outfile "$out" "$TMP/src.ppm" ;;
    jpeg-progressive-444) cjpeg -quality 90 -sample 1x1 -progressive -outfile "$out" "$TMP/src.ppm" ;;
    jpeg-progressive-420) cjpeg -quality 90 -sample 2x2 -progressive -outfile "$out" "$TMP/src.ppm" ;;
    webp-lossy) cwebp -quiet -q 80 -m 0 "$TMP/src.ppm" -o "$out" ;;
    webp-lossless) cwebp -quiet -lossless -z 0 "$TMP/src.ppm" -o "$out" ;;
  esac
  rm -f "$TMP/src.ppm"
}

fail=0
# measure KIND W H WANT: makes the image, thumbnails it in a fresh process,
# prints the figures and checks the verdict (and the RSS target).
measure() {
  local kind=$1 w=$2 h=$3 want=$4 file out rss
  file=$TMP/img.${kind%%-*}
  encode "$kind" "$w" "$h" "$file"
  out=$("$P" make "$file")
  rss=$(grep -o 'peak_rss=[0-9]*' <<<"$out" | cut -d= -f2)
  printf '%-22s %9s  %s\n' "$kind" "$(awk -v b="$(stat -c %s "$file")" 'BEGIN { printf "%.1f MB", b / 1e6 }')" "$out"
  [ "${out%% *}" = "$want" ] || { echo "  FAIL: $want expected"; fail=1; }
  [ "$rss" -le "$TARGET_MIB" ] || { echo "  FAIL: peak RSS ${rss} MiB over ${TARGET_MIB} MiB"; fail=1; }
  rm -f "$file"
}

echo "== thumbnails: peak RSS of one process making one thumbnail (target ≤ ${TARGET_MIB} MiB)"
echo "-- the largest accepted image of each kind (4:3; the pixel limit is 50 MP)"
for kind in jpeg-baseline-444 jpeg-baseline-420 jpeg-progressive-444 jpeg-progressive-420 png-8 png-16 webp-lossy webp-lossless; do
  read -r w h < <("$P" limit "$kind")
  measure "$kind" "$w" "$h" accepted
done
echo "-- a lossless WebP of 204×204 whose 2600 Huffman groups take the decoder 200 MiB"
measure webp-many-trees 204 204 accepted
echo "-- over the limit: refused from the header"
measure jpeg-progressive-444 7000 7000 refused
measure jpeg-progressive-420 7000 7000 refused
read -r w h < <("$P" limit png-16)
measure png-16 $((w + 8)) $(((w + 8) * 3 / 4)) refused
[ "$fail" = 0 ] || { echo "thumbnail memory: FAILED"; exit 1; }
echo "thumbnail memory: every accepted image under ${TARGET_MIB} MiB"
