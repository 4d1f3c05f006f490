// The openai engine imports @dossier/sources (shared Redis rate limiter, Retry-After parsing), whose HTML extraction
// loads ESM-only packages: the same transform settings as libs/sources.
const sources = require('../sources/jest.config.cjs');

module.exports = { ...sources, displayName: 'agents', rootDir: __dirname };
