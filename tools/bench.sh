#!/usr/bin/env bash
# `npm run bench`: engine step overhead beside its floors (a bare BullMQ hop, a bare Postgres commit), SIGKILL
# recovery time, run event latency to an SSE client, report scaling, the sentence splitter against Intl.Segmenter,
# PDF render time and size, record-and-replay times and recording sizes (decision 0030), and runs that wait on the
# model (wall time over the critical path of model calls, fan-out start skew, throughput with one and two processes per service, tokens per verified sentence; decision 0036).
# `npm run bench -- steps` runs the step part alone (measure it in isolation); `npm run bench -- model` the model part;
# both take `--cpu-prof` (where the CPU went, by category: tools/bench/cpu-profile.ts) and `--json FILE` (steps: the figures);
# `npm run bench -- interviews` one run in interviews mode, its interviews' wall time beside the slowest and tokens per
# turn (decision 0024); `npm run bench -- designs` a durable step's round trips alone, in the engine's design and in Postgres alone (decision 0163); `npm run bench -- connections` Postgres connections with 200 model-bound steps in flight (issue 31); `npm run bench -- hostile` /healthz latency under hostile imports and uploads (issue 30); `npm run bench -- vectors` the embedded vector store (LanceDB) at 100k points (decision 0033).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$_repo_root"
ensure_dependencies
bash tools/ensure-services.sh
if [ "${1:-}" = model ]; then
  LOG_LEVEL=warn OTEL_SDK_DISABLED=true node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/model-bound.ts "${@:2}"
  exit 0
fi
if [ "${1:-}" = vectors ]; then
  # Not in the default run: at 100,000 points the index build alone takes minutes (decision 0033).
  LOG_LEVEL=warn node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/vector-stores.ts
  exit 0
fi
if [ "${1:-}" = connections ]; then
  # Postgres connections with 200 model-bound steps in flight across two worker processes (issue 31): the engine's own
  # test at the issue's size; it prints the most it counted beside the pools' bound.
  CONNECTION_STEPS=200 LOG_LEVEL=warn OTEL_SDK_DISABLED=true npx jest --forceExit libs/workflow/test/integration/step-connections.spec.ts
  exit 0
fi
if [ "${1:-}" = hostile ]; then
  # /healthz while the gateway is fed hostile imports and uploads (issue 30).
  LOG_LEVEL=warn OTEL_SDK_DISABLED=true node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/hostile-input.ts
  exit 0
fi
if [ "${1:-}" = interviews ]; then
  LOG_LEVEL=warn OTEL_SDK_DISABLED=true node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/interviews.ts
  exit 0
fi
if [ "${1:-}" = designs ]; then
  # What a durable step costs by design alone, the engine's (BullMQ) and a transport in Postgres alone (decision 0163).
  LOG_LEVEL=warn node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/step-designs.ts "${@:2}"
  exit 0
fi
if [ "${1:-}" = steps ]; then
  LOG_LEVEL=warn OTEL_SDK_DISABLED=true node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/step-overhead.ts "${@:2}"
  exit 0
fi
LOG_LEVEL=warn OTEL_SDK_DISABLED=true node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/step-overhead.ts
LOG_LEVEL=warn node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/step-designs.ts
LOG_LEVEL=warn OTEL_SDK_DISABLED=true node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/event-latency.ts
LOG_LEVEL=warn OTEL_SDK_DISABLED=true node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/report-scaling.ts
LOG_LEVEL=warn node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/sentence-splitter.ts
LOG_LEVEL=warn OTEL_SDK_DISABLED=true node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/pdf-render.ts
LOG_LEVEL=warn OTEL_SDK_DISABLED=true node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/replay.ts
LOG_LEVEL=warn OTEL_SDK_DISABLED=true node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/model-bound.ts
LOG_LEVEL=warn OTEL_SDK_DISABLED=true node --enable-source-maps -r ./tools/ts-register.cjs tools/bench/interviews.ts
