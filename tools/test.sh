#!/usr/bin/env bash
# `npm test`: everything, on a fresh machine too. Installs dependencies if missing, starts Redis and
# Postgres if they are not answering, applies migrations, then: formatting, import cycles (madge), lint, typecheck,
# k8s manifests and the web build (two at a time), and every jest suite against the real services, one file at a
# time, with the small chaos soak (its own Redis and Postgres) beside them. Ends with one line of totals:
# "N passed, N failed" (jest tests, plus the six static checks counted as one test each).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$_repo_root"
[ -d node_modules/.bin ] || npm ci --no-audit --no-fund --loglevel=error
bash tools/ensure-services.sh || { echo "0 passed, 1 failed"; exit 1; }
bash tools/prisma.sh generate >/dev/null

mkdir -p tmp/checks
rm -f tmp/jest-results.json tmp/jest-soak.json tmp/checks/*

# The small chaos soak runs its own Redis and Postgres on spare ports (tools/soak), so it shares nothing with the
# other suites: it runs beside them, on the core they leave idle (one jest file at a time uses about one core).
# (With arguments, `npm test -- PATTERN`, everything runs in the one jest run below.)
soak_pid=""
if [ $# -eq 0 ]; then
  LOG_LEVEL="${LOG_LEVEL:-silent}" npx jest --runInBand --forceExit --json --outputFile=tmp/jest-soak.json tools/soak \
    > tmp/checks/soak-jest.log 2>&1 &
  soak_pid=$!
fi

checks_passed=0; checks_failed=0
# Static checks, two at a time (each is one process on one core); their output is printed in order when all are done.
check_bg() {
  local name="$1"; shift
  ( "$@" > "tmp/checks/$name.log" 2>&1; echo $? > "tmp/checks/$name.status" ) &
}
report_check() {
  echo "== $1"
  cat "tmp/checks/$1.log"
  if [ "$(cat "tmp/checks/$1.status" 2>/dev/null)" = 0 ]; then checks_passed=$((checks_passed + 1)); else checks_failed=$((checks_failed + 1)); echo "!! $1 failed"; fi
}
# One ESLint run and one tsc program over the whole tree: the same rules as the per-project Nx targets
# (`npm run lint`, `npm run typecheck`), several times faster on two cores. `nx show projects` refreshes the
# project graph that the module-boundary rule reads.
check_bg "lint" bash -c 'NX_DAEMON=false npx nx show projects >/dev/null && npx eslint . --quiet'
# The browser app (DOM types, JSX) is a second program with its own tsconfig; both must pass.
check_bg "typecheck" bash -c 'npx tsc -p tsconfig.typecheck.json && npx tsc -p apps/web/tsconfig.json'
while [ ! -f tmp/checks/lint.status ] || [ ! -f tmp/checks/typecheck.status ]; do sleep 1; done
check_bg "formatting (prettier)" npx prettier --check --log-level warn .
check_bg "import cycles (madge)" npm run --silent circular
# Kubernetes manifests rendered like kustomize and validated against their schemas (also asserted in tools/deploy/test).
check_bg "k8s manifests" npm run --silent k8s:check
# The gateway serves the built web app, and the browser tests drive it: build it if its sources changed.
check_bg "web app build (vite)" node tools/build-web.mjs --quiet
for name in "formatting (prettier)" "import cycles (madge)" "k8s manifests" "web app build (vite)"; do
  while [ ! -f "tmp/checks/$name.status" ]; do sleep 1; done
done
for name in "formatting (prettier)" "import cycles (madge)" "lint" "typecheck" "k8s manifests" "web app build (vite)"; do
  report_check "$name"
done

# One file at a time: the Redis FLUSHALL fault test must not wipe another suite's queues mid-run.
ignore_soak=(); [ -n "$soak_pid" ] && ignore_soak=(--testPathIgnorePatterns=/node_modules/ --testPathIgnorePatterns=tools/soak/)
LOG_LEVEL="${LOG_LEVEL:-silent}" npx jest --runInBand --forceExit --json --outputFile=tmp/jest-results.json "${ignore_soak[@]}" "$@"
jest_status=$?
if [ -n "$soak_pid" ]; then
  wait "$soak_pid"; soak_status=$?
  echo "== chaos soak (small), beside the other suites"
  cat tmp/checks/soak-jest.log
  [ "$soak_status" -eq 0 ] || jest_status=$soak_status
else
  echo '{"numPassedTests":0,"numFailedTests":0}' > tmp/jest-soak.json
fi

node -e '
  const fs = require("fs");
  let p = 0, f = 0;
  for (const file of ["tmp/jest-results.json", "tmp/jest-soak.json"]) {
    try { const r = JSON.parse(fs.readFileSync(file, "utf8")); p += r.numPassedTests; f += r.numFailedTests + (r.numRuntimeErrorTestSuites || 0); }
    catch { f += 1; console.error(`jest wrote no ${file} (exit status ${process.argv[3]}): counted as one failure`); }
  }
  console.log(`${p + Number(process.argv[1])} passed, ${f + Number(process.argv[2])} failed`);
' "$checks_passed" "$checks_failed" "$jest_status"
[ "$jest_status" -eq 0 ] && [ "$checks_failed" -eq 0 ]
