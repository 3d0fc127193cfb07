#!/usr/bin/env bash
# Test matrix: the suite on the machine's Node (20); on Node 22 and 24 from the npm registry's `node@22`/`node@24`
# packages; and with msw 3 on Node 22. LEGS="node22 node24 msw3" picks legs (default: all four).
# Run after the install step of .ci/run:  bash .ci/matrix.sh [test files…]
# Without test files, the Node 22/24 and msw 3 legs run a lean subset (SUBSET) that covers what differs between
# runtimes and msw majors: the consumer project (Jest preset, Vitest, an unmocked request), the test helper, the CLI,
# both doors, the README's code blocks. The msw 3 leg runs the consumer tests and the README's blocks with msw 3
# (CONSUMER_MSW=3).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
start=$(date +%s)

LEGS=${LEGS:-node20 node22 node24 msw3}
leg() { [[ " $LEGS " == *" $1 "* ]]; }
SUBSET=${SUBSET:-test/package/consumer.test.ts test/package/readme-blocks.test.ts test/package/testing-helper.test.ts test/cli/cli.test.ts test/cli/cli-start.test.ts test/api/doors.test.ts test/server/server.test.ts}
if [ $# -gt 0 ]; then FILES=("$@"); else read -r -a FILES <<< "$SUBSET"; fi

# node@N from the npm registry; prints the path of its binary.
node_from_npm() {
  npm install --prefix "$TMP/node$1" --no-audit --no-fund --loglevel=error "node@$1" >/dev/null
  echo "$TMP/node$1/node_modules/node/bin/node"
}
# Build and test with another Node: vitest's workers, the CLI the tests spawn and the consumer's npx run on it.
with_node() {
  local node=$1; shift
  PATH="$(dirname "$node"):$PATH" "$node" "$@"
}

if leg node20; then
  echo "== Node $(node --version), msw $(node -p "require('msw/package.json').version")"
  npx tsup >/dev/null
  npx vitest run "$@"
fi

for major in 22 24; do
  if leg "node$major" || { [ "$major" = 22 ] && leg msw3; }; then
    echo "== Node $major from the npm registry (node@$major)"
    NODE=$(node_from_npm "$major")
    echo "Node $("$NODE" --version)"
    declare "NODE$major=$NODE"
  fi
  if leg "node$major"; then
    with_node "$NODE" node_modules/tsup/dist/cli-default.js >/dev/null
    with_node "$NODE" node_modules/vitest/vitest.mjs run "${FILES[@]}"
  fi
done

# msw 3 under Jest runs where msw 3 itself can: Node 24 with --experimental-vm-modules (the consumer test sets it).
if leg node24 && [ $# -eq 0 ]; then
  echo "== the consumer project with msw 3 on Node 24 (Jest in its native ESM mode)"
  CONSUMER_MSW=3 with_node "$NODE24" node_modules/vitest/vitest.mjs run test/package/consumer.test.ts
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
  echo "msw $(cd "$TMP/proj" && "$NODE22" -p "require('msw/package.json').version")"
  (cd "$TMP/proj" && BUILD_DECLARATIONS=0 with_node "$NODE22" node_modules/tsup/dist/cli-default.js >/dev/null \
    && EXPECT_MSW_MAJOR=3 CONSUMER_MSW=3 with_node "$NODE22" node_modules/vitest/vitest.mjs run "${FILES[@]}")
fi
echo "== matrix done in $(( $(date +%s) - start )) s"
