#!/usr/bin/env bash
# `npm test`: everything, on a fresh machine too. Installs dependencies if missing, starts Redis and
# Postgres if they are not answering, applies migrations, then: import cycles (madge), lint and
# typecheck (Nx), and every jest suite against the real services. Ends with one line of totals:
# "N passed, N failed" (jest tests, plus the three static checks counted as one test each).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$_repo_root"
[ -d node_modules/.bin ] || npm ci --no-audit --no-fund --loglevel=error
bash tools/ensure-services.sh || { echo "0 passed, 1 failed"; exit 1; }
bash tools/prisma.sh generate >/dev/null

checks_passed=0; checks_failed=0
check() {
  local name="$1"; shift
  echo "== $name"
  if "$@"; then checks_passed=$((checks_passed + 1)); else checks_failed=$((checks_failed + 1)); echo "!! $name failed"; fi
}
check "formatting (prettier)" npx prettier --check --log-level warn .
check "import cycles (madge)" npm run --silent circular
# One ESLint run and one tsc program over the whole tree: the same rules as the per-project Nx targets
# (`npm run lint`, `npm run typecheck`), several times faster on two cores. `nx show projects` refreshes the
# project graph that the module-boundary rule reads.
check "lint" bash -c 'NX_DAEMON=false npx nx show projects >/dev/null && npx eslint . --quiet'
# The browser app (DOM types, JSX) is a second program with its own tsconfig; both must pass.
check "typecheck" bash -c 'npx tsc -p tsconfig.typecheck.json && npx tsc -p apps/web/tsconfig.json'
# Kubernetes manifests rendered like kustomize and validated against their schemas (also asserted in tools/deploy/test).
check "k8s manifests" npm run --silent k8s:check

# The gateway serves the built web app, and the browser tests drive it: build it if its sources changed.
check "web app build (vite)" node tools/build-web.mjs --quiet

mkdir -p tmp
rm -f tmp/jest-results.json
# One file at a time: the Redis FLUSHALL fault test must not wipe another suite's queues mid-run.
LOG_LEVEL="${LOG_LEVEL:-silent}" npx jest --runInBand --forceExit --json --outputFile=tmp/jest-results.json "$@"
jest_status=$?

node -e '
  const fs = require("fs");
  let p = 0, f = 0;
  try { const r = JSON.parse(fs.readFileSync("tmp/jest-results.json", "utf8")); p = r.numPassedTests; f = r.numFailedTests + (r.numRuntimeErrorTestSuites || 0); }
  catch { f = 1; console.error(`jest wrote no results (exit status ${process.argv[3]}): counted as one failure`); }
  console.log(`${p + Number(process.argv[1])} passed, ${f + Number(process.argv[2])} failed`);
' "$checks_passed" "$checks_failed" "$jest_status"
[ "$jest_status" -eq 0 ] && [ "$checks_failed" -eq 0 ]
