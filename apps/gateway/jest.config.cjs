// The gateway's tests host the stages in-process, so they load libs/sources (linkedom, unpdf): reuse its
// transform list for ESM-only packages rather than repeating it.
const sources = require('../../libs/sources/jest.config.cjs');

module.exports = {
  displayName: 'gateway',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  // bull-board's @fastify/static requires content-disposition, which ships ESM only.
  transformIgnorePatterns: sources.transformIgnorePatterns.map((p) => p.replace('(?!(', '(?!(content-disposition|')),
  moduleNameMapper: sources.moduleNameMapper,
};
