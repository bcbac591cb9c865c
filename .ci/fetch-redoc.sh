#!/usr/bin/env bash
# Fetch the pinned Redoc standalone bundle that `make build` embeds as the reader of
# api/openapi.yaml at GET /api/docs (build tag embedsite). Idempotent: does nothing when the
# pinned file is already there and intact. Redoc is MIT-licensed (api/reader/LICENSE).
set -euo pipefail
VERSION=3.0.1
SHA256=8c70c2de83d33e33a75b225e573d6d9fe851f066f824b44b1637d831d52d7543
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEST=$ROOT/api/reader
have() { [ -f "$DEST/redoc.standalone.js" ] && echo "$SHA256  $DEST/redoc.standalone.js" | sha256sum -c --status; }
have && exit 0
command -v npm >/dev/null || { echo "fetch-redoc: npm is needed to fetch redoc@$VERSION" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "redoc@$VERSION" >/dev/null)
tar -xzf "$tmp"/redoc-*.tgz -C "$tmp" package/bundles/redoc.standalone.js package/LICENSE
if ! echo "$SHA256  $tmp/package/bundles/redoc.standalone.js" | sha256sum -c --status; then
  echo "fetch-redoc: redoc.standalone.js from redoc@$VERSION does not match the pinned sha256" >&2
  exit 1
fi
mkdir -p "$DEST"
cp "$tmp/package/bundles/redoc.standalone.js" "$tmp/package/LICENSE" "$DEST/"
echo "fetch-redoc: redoc@$VERSION → api/reader/"
