#!/usr/bin/env bash
# Makes sure Redis and Postgres answer: docker compose where a Docker engine runs, otherwise the
# machine's own servers. Then applies the migrations (prisma migrate deploy creates the database).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$_repo_root"

redis_up() { node -e "const n=require('net');const u=new URL(process.env.REDIS_URL);const s=n.connect(+u.port||6379,u.hostname,()=>{s.write('PING\r\n')});s.on('data',d=>process.exit(String(d).startsWith('+PONG')?0:1));s.on('error',()=>process.exit(1));setTimeout(()=>process.exit(1),1000)"; }
pg_up() { node -e "const {Client}=require('pg');const u=new URL(process.env.DATABASE_URL);u.pathname='/postgres';const c=new Client({connectionString:u.toString(),connectionTimeoutMillis:1500});c.connect().then(()=>c.end()).then(()=>process.exit(0),()=>process.exit(1))"; }
docker_ok() { command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; }

if ! redis_up; then
  if docker_ok; then docker compose -f docker-compose.yml -f docker-compose.dev.yml up -d --wait redis
  elif command -v redis-server >/dev/null; then
    mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no --maxmemory-policy noeviction \
      --dir /var/lib/redis --logfile /var/log/redis/dossier.log
  else echo "Redis is not answering at $REDIS_URL and neither Docker nor redis-server is available" >&2; exit 1; fi
  for _ in $(seq 1 50); do redis_up && break; sleep 0.2; done
  redis_up || { echo "Redis did not come up at $REDIS_URL" >&2; exit 1; }
fi

if ! pg_up; then
  if docker_ok; then docker compose -f docker-compose.yml -f docker-compose.dev.yml up -d --wait postgres
  elif command -v pg_ctlcluster >/dev/null; then pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start
  else echo "Postgres is not answering at $DATABASE_URL and neither Docker nor pg_ctlcluster is available" >&2; exit 1; fi
  for _ in $(seq 1 50); do pg_up && break; sleep 0.2; done
  pg_up || { echo "Postgres did not come up at $DATABASE_URL" >&2; exit 1; }
fi

[ -d libs/db/src/generated/prisma ] || bash tools/prisma.sh generate >/dev/null
bash tools/prisma.sh migrate deploy >/dev/null
