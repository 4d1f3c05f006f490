// Entry of an extraction worker thread (extraction-pool.ts). A worker starts without the parent's module hooks
// (jest's transform, or `node -r tools/ts-register.cjs` when the parent was started another way), so it registers
// the repository's TypeScript loader itself, then loads the worker's code from source like every other process.
require('../../../../tools/ts-register.cjs');
require('./extraction-worker.ts');
