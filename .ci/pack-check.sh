#!/usr/bin/env bash
# The packed tarball holds no absolute path of the build machine (this checkout's path, a home or temp directory),
# and its size is printed (docs/benchmarks.md records it).
set -euo pipefail
cd "$(dirname "$0")/.."
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
npm pack --ignore-scripts --pack-destination "$TMP" --json > "$TMP/pack.json"
node -e 'const [p] = require(process.argv[1]); console.log(`tarball ${(p.size / 1e6).toFixed(2)} MB, unpacked ${(p.unpackedSize / 1e6).toFixed(2)} MB, ${p.entryCount} files`)' "$TMP/pack.json"
tar xzf "$TMP"/*.tgz -C "$TMP"
# This checkout's path, the real path of its node_modules, the home directory (faker's data holds made-up paths such
# as /home/user/dir, so a generic pattern would not do).
if grep -rlF -e "$PWD" -e "$(readlink -f node_modules)" -e "$HOME/" "$TMP/package"; then
  echo "pack-check: the files above hold an absolute path" >&2
  exit 1
fi
echo "pack-check: no absolute path in the tarball"
