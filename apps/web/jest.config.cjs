// The browser tests host the stages in-process (libs/sources loads linkedom, unpdf): reuse its transform list
// for ESM-only packages, as the gateway's tests do.
const sources = require('../../libs/sources/jest.config.cjs');

module.exports = {
  displayName: 'web',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
  transformIgnorePatterns: sources.transformIgnorePatterns,
  moduleNameMapper: sources.moduleNameMapper,
};
