// swc turns our TypeScript and the ESM-only NestJS 12 packages into CJS so jest's CJS runtime can load them
// without --experimental-vm-modules (docs/architecture.md §12). unpdf's PDF.js bundle (pdfjs.mjs) is ESM too: tests in
// every project read rendered PDFs with it (libs/testing/src/pdf-reader.ts).
const swc = require('./tools/swc-options.cjs');
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(ts|mts|cts)$': ['@swc/jest', swc],
    '^.+\\.(js|mjs)$': ['@swc/jest', { ...swc, jsc: { ...swc.jsc, parser: { syntax: 'ecmascript' } } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|unpdf|cookie|uid|load-esm|file-type|strtok3|token-types|@tokenizer)/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  testMatch: ['**/?(*.)+(spec|test).ts'],
};
