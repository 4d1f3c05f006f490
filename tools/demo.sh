#!/usr/bin/env bash
# `npm run demo`: the main job. Set-up first (Node 24, dependencies, Redis, Postgres, migrations), then
# ingest examples/corpus and research the default question offline, writing ./out/report.{md,html,json}.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$_repo_root"
ensure_dependencies
bash tools/ensure-services.sh
exec node --enable-source-maps -r ./tools/ts-register.cjs apps/cli/src/main.ts demo "$@"
