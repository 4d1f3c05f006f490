import * as path from 'node:path';
import { definePDFJSModule } from 'unpdf';

let ready: Promise<void> | undefined;

/**
 * Points unpdf at its bundled, serverless PDF.js build (pure JS: no canvas, no worker file). unpdf's own
 * loader uses a native `import()`, which jest's CommonJS runtime cannot run; `require` of the bundle works
 * everywhere we run: Node 24 loads the ES module through require(esm), jest through its transform.
 */
export function ensurePdfjs(): Promise<void> {
  ready ??= definePDFJSModule(async () => {
    const bundle = path.join(path.dirname(require.resolve('unpdf')), 'pdfjs.mjs');
    return require(bundle) as typeof import('unpdf/pdfjs');
  });
  return ready;
}
