#!/usr/bin/env bash
# prisma CLI with the repo's environment (Node 24, offline schema engine when needed).
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$_repo_root"
exec npx prisma "$@"
