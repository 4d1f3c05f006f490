# syntax=docker/dockerfile:1
# One image for every Dossier service; the command chooses the service:
#   docker run IMAGE apps/planner/src/main.ts        (any of apps/*/src/main.ts)
#   docker run --entrypoint bash IMAGE tools/prisma.sh migrate deploy
# TypeScript runs as in development and tests: compiled on load by swc (tools/ts-register.cjs), so the
# code that runs is the code that was tested, and workspace packages resolve through node_modules links.
# docs/decisions/0011-operations.md explains the choice. Prisma's schema engine is the one in
# tools/prisma-offline (its WebAssembly build): building and migrating download nothing but npm packages
# (docs/decisions/0015-self-sufficient-install.md).

ARG NODE_IMAGE=node:24.22.3-bookworm-slim

# 1. Dependencies, from the lockfile only (cached until package*.json change).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/ ./apps-src/
COPY libs/ ./libs-src/
# npm ci needs each workspace's package.json, nothing else of the sources. No install scripts here: the
# root's postinstall (prisma generate) needs the sources, so the build stage runs it; npm 11 skips the
# dependencies' scripts anyway, and none is needed (docs/decisions/0015).
RUN mkdir -p apps libs \
 && (cd apps-src && find . -name package.json -not -path '*/node_modules/*' -exec cp --parents {} ../apps/ \;) \
 && (cd libs-src && find . -name package.json -not -path '*/node_modules/*' -exec cp --parents {} ../libs/ \;) \
 && rm -rf apps-src libs-src \
 && npm ci --no-audit --no-fund --loglevel=error --ignore-scripts

# 2. Sources, the generated Prisma client, a whole-tree typecheck (a broken tree builds no image), and the web
#    app built by Vite into apps/web/dist, which the gateway serves under /.
FROM deps AS build
COPY . .
RUN bash tools/prisma.sh generate \
 && npx --no-install tsc -p tsconfig.typecheck.json \
 && npx --no-install tsc -p apps/web/tsconfig.json \
 && node tools/build-web.mjs --force

# 3. Runtime: the built tree as a non-root user. @swc/core and the prisma CLI stay (load-time compile; migrations).
FROM ${NODE_IMAGE} AS runtime
# The migrate jobs run `bash tools/prisma.sh migrate deploy`, which picks this engine; the variables make a
# plain `npx prisma migrate status` in a container use it too. METRICS_PORT is left unset: each service then
# listens on its own ops port (9464 gateway … 9472 renderer, libs/config OPS_PORTS), as the manifests expect.
ENV NODE_ENV=production \
    PRISMA_SCHEMA_ENGINE_BINARY=/app/tools/prisma-offline/schema-engine.mjs \
    CHECKPOINT_DISABLE=1
WORKDIR /app
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 8080 9464-9472
ENTRYPOINT ["node", "--enable-source-maps", "-r", "./tools/ts-register.cjs"]
CMD ["apps/gateway/src/main.ts"]
