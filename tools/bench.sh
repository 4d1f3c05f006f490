#!/usr/bin/env bash
# `npm run bench`: engine step overhead beside a bare BullMQ hop, SIGKILL recovery time, report scaling, PDF render time and size.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$_repo_root"
[ -d node_modules/.bin ] || npm ci --no-audit --no-fund --loglevel=error
bash tools/ensure-services.sh
LOG_LEVEL=warn OTEL_SDK_DISABLED=true node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/step-overhead.ts
LOG_LEVEL=warn OTEL_SDK_DISABLED=true node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/report-scaling.ts
LOG_LEVEL=warn OTEL_SDK_DISABLED=true node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/pdf-render.ts
