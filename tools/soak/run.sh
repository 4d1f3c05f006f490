#!/usr/bin/env bash
# `npm run soak [-- --runs N --kills N --duration S --seed N --keep-logs]`: the chaos soak (docs/decisions/0018).
# Starts its own Postgres and Redis from the machine's binaries (never the machine's servers), prints one JSON
# summary on stdout, and exits 0 only when every check held.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../env.sh"
cd "$_repo_root"
ensure_dependencies
[ -f libs/db/src/generated/prisma/client.ts ] || bash tools/prisma.sh generate >/dev/null
exec node --enable-source-maps -r ./tools/ts-register.cjs tools/soak/main.ts "$@"
