#!/usr/bin/env bash
# Backup and restore figures for `make bench`: a site of FILES uploaded files
# (SIZE_MIB in all, random bytes) and a store, backed up to a directory with
# `devhub backup` and restored with `devhub restore`; each prints its time,
# throughput and peak RSS (GNU time). Bounded by FILES and SIZE_MIB; runs on
# this machine's disk only. FILES=10000 SIZE_MIB=1024 is the full size.
set -euo pipefail
BIN=$(realpath "${1:-bin/devhub}")
FILES=${FILES:-10000}
SIZE_MIB=${SIZE_MIB:-1024}
TMP=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/devhub-bench-backup.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

export DEVHUB_STORAGE_DATA_DIR=$TMP/data DEVHUB_STORAGE_UPLOADS_DIR=$TMP/uploads \
  DEVHUB_STORAGE_CONTENT_DIR=$TMP/content DEVHUB_STORAGE_ROMS_DIR=$TMP/roms \
  DEVHUB_BACKUP_TO=$TMP/backups DEVHUB_BACKUP_KEEP=0
mkdir -p "$TMP/uploads" "$TMP/content" "$TMP/roms" "$TMP/data"

echo "== backup and restore: $FILES files, $SIZE_MIB MiB (temp dir $TMP)"
# The files: one random source cut into FILES pieces, so making them costs
# one read of /dev/urandom.
per=$(( SIZE_MIB * 1048576 / FILES ))
head -c "$(( per * FILES ))" /dev/urandom | split -b "$per" -a 6 -d - "$TMP/uploads/f"
printf 'bench password 1\n' | "$BIN" user create --email bench@example.org --name Bench --password-stdin >/dev/null
for i in $(seq 200); do
  printf '# Article %d\n\nBody.\n' "$i" | "$BIN" article create --name "Article $i" --excerpt x --category bench --file - >/dev/null
done 2>/dev/null || true

measure() { # label, command…
  local label=$1; shift
  sync
  /usr/bin/time -f '%e %M' -o "$TMP/time" "$@" >/dev/null
  read -r secs kib <"$TMP/time"
  awk -v l="$label" -v s="$secs" -v k="$kib" -v m="$SIZE_MIB" \
    'BEGIN { printf "%-8s %6.2f s  %7.1f MiB/s  peak RSS %5.1f MiB\n", l, s, (s > 0 ? m / s : 0), k / 1024 }'
}

measure backup "$BIN" backup
du -sh "$TMP/backups" | awk '{ print "archive  " $1 }'
rm -rf "$TMP/uploads" "$TMP/data"
measure restore "$BIN" restore latest
n=$(find "$TMP/uploads" -type f | wc -l)
[ "$n" = "$FILES" ] || { echo "restored $n files, want $FILES"; exit 1; }
