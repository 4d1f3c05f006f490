// The drift and scorer tests extract corpus files as the ingester does (@dossier/sources: linkedom, unpdf), so they
// need the same ESM-only packages compiled for jest as libs/sources' own tests: reuse its settings.
const sources = require('../sources/jest.config.cjs');

module.exports = { ...sources, displayName: 'evals', rootDir: __dirname };
