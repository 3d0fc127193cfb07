#!/usr/bin/env bash
# Test matrix: the suite on the machine's Node (20), on Node 22 from the npm registry's `node@22` package, and
# (when MSW3=1, default on) with msw 3 on Node 22. LEGS="node22 msw3" picks legs. Run after the install step of .ci/run:  bash .ci/matrix.sh
# Arguments are passed to `vitest run` (e.g. test files), so `bash .ci/matrix.sh test/smoke.test.ts` is a quick check.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
start=$(date +%s)

LEGS=${LEGS:-node20 node22 msw3}
leg() { [[ " $LEGS " == *" $1 "* ]]; }

if leg node20; then
  echo "== Node $(node --version), msw $(node -p "require('msw/package.json').version")"
  npx tsup >/dev/null
  npx vitest run "$@"
fi

echo "== Node 22 from the npm registry (node@22)"  # also needed by the msw 3 leg
npm install --prefix "$TMP/node22" --no-audit --no-fund --loglevel=error node@22 >/dev/null
NODE22="$TMP/node22/node_modules/node/bin/node"
echo "Node $("$NODE22" --version)"
# Build and test with Node 22: vitest's workers and the CLI the tests spawn run on process.execPath, i.e. Node 22.
if leg node22; then
  PATH="$(dirname "$NODE22"):$PATH" "$NODE22" node_modules/tsup/dist/cli-default.js >/dev/null
  PATH="$(dirname "$NODE22"):$PATH" "$NODE22" node_modules/vitest/vitest.mjs run "$@"
fi

if leg msw3 && [ "${MSW3:-1}" = "1" ]; then
  echo "== msw 3 on Node 22"
  # A copy of the project whose node_modules links every package to ours except msw, which links to a separate
  # install of msw@3 (node resolves a linked package's own dependencies from where it really lives).
  npm install --prefix "$TMP/msw3" --no-audit --no-fund --loglevel=error msw@3 >/dev/null
  mkdir -p "$TMP/proj/node_modules"
  for f in "$ROOT"/* "$ROOT"/.[!.]*; do
    case "$(basename "$f")" in node_modules|dist|.git) ;; *) cp -r "$f" "$TMP/proj/" ;; esac
  done
  MODULES=$(readlink -f "$ROOT/node_modules")
  for entry in "$MODULES"/* "$MODULES"/.bin; do ln -sfn "$entry" "$TMP/proj/node_modules/$(basename "$entry")"; done
  ln -sfn "$TMP/msw3/node_modules/msw" "$TMP/proj/node_modules/msw"
  # The declaration build checks our types against msw 2's; this leg tests the runtime, so it builds JavaScript only.
  sed -i 's/dts: true/dts: false/' "$TMP/proj/tsup.config.ts"
  echo "msw $(cd "$TMP/proj" && "$NODE22" -p "require('msw/package.json').version")"
  (cd "$TMP/proj" && PATH="$(dirname "$NODE22"):$PATH" "$NODE22" node_modules/tsup/dist/cli-default.js >/dev/null \
    && PATH="$(dirname "$NODE22"):$PATH" "$NODE22" node_modules/vitest/vitest.mjs run "$@")
fi
echo "== matrix done in $(( $(date +%s) - start )) s"
