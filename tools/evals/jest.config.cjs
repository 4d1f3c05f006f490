// The eval sets' check against their corpora (tools/evals/check-set.ts). It extracts HTML with libs/sources,
// whose dependencies include ESM-only packages: reuse sources' transform list.
const sources = require('../../libs/sources/jest.config.cjs');

module.exports = {
  displayName: 'evals-tools',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  transformIgnorePatterns: sources.transformIgnorePatterns,
  moduleNameMapper: sources.moduleNameMapper,
};
