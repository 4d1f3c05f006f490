#!/usr/bin/env bash
# `npm run serve`: the web app, the API and every stage worker in one process (`dossier serve`), after the
# set-up `npm run demo` does: Node 24, dependencies; Redis, Postgres and migrations are the command's own check.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$_repo_root"
ensure_dependencies
exec node --enable-source-maps -r ./tools/ts-register.cjs apps/cli/src/main.ts serve "$@"
