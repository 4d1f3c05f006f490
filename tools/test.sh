#!/usr/bin/env bash
# `npm test`: everything, on a fresh machine too. Installs dependencies if missing, starts Redis and
# Postgres if they are not answering, applies migrations, then: formatting, import cycles (madge), lint, typecheck,
# k8s manifests and the web build (two at a time), and every jest suite against the real services in two shards
# of one file at a time, with the small chaos soak (its own Redis and Postgres) before the second shard. Ends with one line of totals:
# "N passed, N failed" (jest tests, plus the six static checks counted as one test each).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$_repo_root"
ensure_dependencies
bash tools/ensure-services.sh || { echo "0 passed, 1 failed"; exit 1; }
bash tools/prisma.sh generate >/dev/null

mkdir -p tmp/checks tmp/shard2
rm -f tmp/jest-results*.json tmp/jest-soak.json tmp/checks/*

checks_passed=0; checks_failed=0
# Static checks, two at a time (each is one process on one core); their output is printed in order when all are done.
check_bg() {
  local name="$1"; shift
  ( "$@" > "tmp/checks/$name.log" 2>&1; echo $? > "tmp/checks/$name.status" ) &
}
wait_checks() { for name in "$@"; do while [ ! -f "tmp/checks/$name.status" ]; do sleep 1; done; done; }
report_check() {
  echo "== $1"
  cat "tmp/checks/$1.log"
  if [ "$(cat "tmp/checks/$1.status" 2>/dev/null)" = 0 ]; then checks_passed=$((checks_passed + 1)); else checks_failed=$((checks_failed + 1)); echo "!! $1 failed"; fi
}
CHECKS=("formatting (prettier)" "import cycles (madge)" "lint" "typecheck" "k8s manifests" "web app build (vite)")
static_checks() {
  # One ESLint run and one tsc program over the whole tree: the same rules as the per-project Nx targets
  # (`npm run lint`, `npm run typecheck`), several times faster on two cores. `nx show projects` refreshes the
  # project graph that the module-boundary rule reads.
  check_bg "lint" bash -c 'NX_DAEMON=false npx nx show projects >/dev/null && npx eslint . --quiet'
  # The browser app (DOM types, JSX) is a second program with its own tsconfig; both must pass.
  check_bg "typecheck" bash -c 'npx tsc -p tsconfig.typecheck.json && npx tsc -p apps/web/tsconfig.json'
  wait_checks "lint" "typecheck"
  check_bg "formatting (prettier)" npx prettier --check --log-level warn .
  check_bg "import cycles (madge)" npm run --silent circular
  # Kubernetes manifests rendered like kustomize and validated against their schemas (also asserted in tools/deploy/test).
  check_bg "k8s manifests" npm run --silent k8s:check
  wait_checks "formatting (prettier)" "import cycles (madge)"
  # The gateway serves the built web app, and the browser tests drive it: build it if its sources changed.
  check_bg "web app build (vite)" node tools/build-web.mjs --quiet
  wait_checks "${CHECKS[@]}"
}

jest_run() { # OUTPUT_JSON [jest arguments...]
  local out="$1"; shift
  LOG_LEVEL="${LOG_LEVEL:-silent}" npx jest --runInBand --forceExit --json --outputFile="$out" "$@"
}

if [ $# -gt 0 ]; then
  # `npm test -- PATTERN`: the static checks, then everything matching in one jest run.
  static_checks
  for name in "${CHECKS[@]}"; do report_check "$name"; done
  jest_run tmp/jest-results.json "$@"
  jest_status=$?
  echo '{"numPassedTests":0,"numFailedTests":0}' > tmp/jest-soak.json
  results=(tmp/jest-results.json tmp/jest-soak.json)
  logs=(- -)
else
  # Two cores, and the suites mostly wait (on Postgres, Redis, child processes, simulated model latency): three
  # streams at once. Shard 1 of the jest files on the machine's Redis and Postgres; the small chaos soak (its own
  # Redis and Postgres, tools/soak) and then shard 2 on a Redis and a Postgres of its own (tools/jest/own-services.ts),
  # so the Redis FLUSHALL fault test of one shard never wipes the other's queues and the two never share Postgres's
  # connection limit; the static checks beside both. Each stream runs one jest file at a time.
  # tools/jest/shards.cjs balances the shards by the durations of the last recorded run (tools/jest/durations.json).
  static_checks > tmp/checks/all.log 2>&1 &
  checks_pid=$!
  # Shard 2's own Redis and Postgres (spare ports, a temporary folder), up before the soak ends.
  rm -f tmp/shard2/env
  node -r ./tools/ts-register.cjs tools/jest/own-services.ts tmp/shard2/env > tmp/checks/shard2-services.log 2>&1 &
  shard2_services=$!
  trap 'kill "$shard2_services" 2>/dev/null; wait "$shard2_services" 2>/dev/null' EXIT
  mapfile -t shard1 < <(node tools/jest/shards.cjs split 2 1 --after-soak)
  mapfile -t shard2 < <(node tools/jest/shards.cjs split 2 2 --after-soak)
  (
    jest_run tmp/jest-soak.json tools/soak > tmp/checks/soak-jest.log 2>&1
    soak=$?
    while [ ! -s tmp/shard2/env ] && kill -0 "$shard2_services" 2>/dev/null; do sleep 1; done
    if [ -s tmp/shard2/env ]; then
      # shellcheck disable=SC1091
      source tmp/shard2/env
      VECTOR_DIR="$PWD/tmp/shard2/vectors" jest_run tmp/jest-results-2.json --runTestsByPath "${shard2[@]}" > tmp/checks/shard2-jest.log 2>&1
      shard=$?
    else
      cat tmp/checks/shard2-services.log > tmp/checks/shard2-jest.log
      echo "shard 2's own Redis and Postgres did not start: its files did not run" >> tmp/checks/shard2-jest.log
      shard=1
    fi
    [ "$soak" -eq 0 ] && exit "$shard"; exit "$soak"
  ) &
  stream2_pid=$!
  echo "== jest shard 1 of 2 (${#shard1[@]} files; shard 2's ${#shard2[@]} files and the small chaos soak run beside it, printed after)"
  jest_run tmp/jest-results-1.json --runTestsByPath "${shard1[@]}" 2>&1 | tee tmp/checks/shard1-jest.log
  jest_status=${PIPESTATUS[0]}
  wait "$stream2_pid"; stream2_status=$?
  echo "== chaos soak (small), beside the other suites"
  cat tmp/checks/soak-jest.log
  echo "== jest shard 2 of 2"
  cat tmp/checks/shard2-jest.log
  [ "$stream2_status" -eq 0 ] || jest_status=$stream2_status
  wait "$checks_pid"
  for name in "${CHECKS[@]}"; do report_check "$name"; done
  results=(tmp/jest-results-1.json tmp/jest-results-2.json tmp/jest-soak.json)
  logs=(tmp/checks/shard1-jest.log tmp/checks/shard2-jest.log tmp/checks/soak-jest.log)
  # The next run balances its shards by this one's times.
  node tools/jest/shards.cjs record "${results[@]}" 2>/dev/null || true
fi

# Totals from each jest run's JSON; when a run wrote none (seen once in CI: jest printed its summary but left no file),
# from the summary it printed ("Tests: 1 failed, 953 passed, 954 total"), so the line always counts what ran. Only a
# run with neither counts as one failure.
node -e '
  const fs = require("fs");
  const [checksPassed, checksFailed, status, ...pairs] = process.argv.slice(1);
  let p = Number(checksPassed), f = Number(checksFailed);
  for (let i = 0; i < pairs.length; i += 2) {
    const [file, log] = [pairs[i], pairs[i + 1]];
    try {
      const r = JSON.parse(fs.readFileSync(file, "utf8"));
      p += r.numPassedTests; f += r.numFailedTests + (r.numRuntimeErrorTestSuites || 0);
      continue;
    } catch (e) {
      console.log(`jest wrote no readable ${file} (${e.code ?? e.message}; exit status ${status})`);
    }
    const text = log === "-" ? "" : (() => { try { return fs.readFileSync(log, "utf8"); } catch { return ""; } })();
    const summary = [...text.matchAll(/^Tests:\s+(.*\btotal)$/gm)].pop();
    const count = (word) => Number((summary?.[1].match(new RegExp(`(\\d+) ${word}`)) ?? [0, 0])[1]);
    if (summary) {
      p += count("passed"); f += count("failed");
      console.log(`  counted from the summary in ${log}: ${summary[1]}`);
    } else {
      f += 1;
      console.log("  and printed no summary: counted as one failure");
    }
  }
  console.log(`${p} passed, ${f} failed`);
' "$checks_passed" "$checks_failed" "$jest_status" $(for i in "${!results[@]}"; do echo "${results[$i]}" "${logs[$i]}"; done)
[ "$jest_status" -eq 0 ] && [ "$checks_failed" -eq 0 ]
