// Extraction checks excerpts with @dossier/sources, whose HTML extraction (linkedom) needs ESM-only packages
// compiled for jest: reuse the sources project's settings for that.
const sources = require('../../sources/jest.config.cjs');

module.exports = {
  displayName: 'stage-extractor',
  preset: '../../../jest.preset.js',
  rootDir: __dirname,
  transformIgnorePatterns: sources.transformIgnorePatterns,
  moduleNameMapper: sources.moduleNameMapper,
};
