#!/usr/bin/env bash
# `npm run demo`: the main job. Set-up first (Node 24, dependencies, Redis, Postgres, migrations).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$_repo_root"
[ -d node_modules/.bin ] || npm ci --no-audit --no-fund --loglevel=error
bash tools/ensure-services.sh
if [ ! -f apps/cli/src/main.ts ]; then
  echo "demo: the research stages and the dossier CLI are not built yet (the offline main-job issue); the engine, services and tests are: run npm test" >&2
  exit 2
fi
exec node --enable-source-maps -r ./tools/ts-register.cjs apps/cli/src/main.ts demo "$@"
