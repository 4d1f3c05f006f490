#!/usr/bin/env bash
# The prisma CLI with the repo's environment (Node 24; the schema engine in tools/prisma-offline, so no
# download). The one way scripts, CI, the image and the migrate jobs run Prisma: `bash tools/prisma.sh migrate deploy`.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$_repo_root"
exec node_modules/.bin/prisma "$@"
