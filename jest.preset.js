// swc turns our TypeScript and the ESM-only NestJS 12 packages into CJS so jest's CJS runtime can load them
// without --experimental-vm-modules (docs/architecture.md §12).
const swc = require('./tools/swc-options.cjs');
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(ts|mts|cts)$': ['@swc/jest', swc],
    '^.+\\.(js|mjs)$': ['@swc/jest', { ...swc, jsc: { ...swc.jsc, parser: { syntax: 'ecmascript' } } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|cookie|uid|load-esm|file-type|strtok3|token-types|@tokenizer)/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  testMatch: ['**/?(*.)+(spec|test).ts'],
};
