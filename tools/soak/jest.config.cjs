// The small chaos soak of `npm test` (the full size is `npm run soak`). It loads libs/sources through the stages'
// entry points only in child processes, but @dossier/agents' roles pull in ESM-only packages: reuse sources' list.
const sources = require('../../libs/sources/jest.config.cjs');

module.exports = {
  displayName: 'soak',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  transformIgnorePatterns: sources.transformIgnorePatterns,
  moduleNameMapper: sources.moduleNameMapper,
};
