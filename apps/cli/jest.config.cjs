// The --api tests host the stages in the jest process, so they load libs/sources (linkedom, unpdf): reuse
// its transform list for ESM-only packages.
const sources = require('../../libs/sources/jest.config.cjs');

module.exports = {
  displayName: 'cli',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  transformIgnorePatterns: sources.transformIgnorePatterns,
  moduleNameMapper: sources.moduleNameMapper,
};
