// Its tests drive the agents' openai engine, which imports @dossier/sources: the same transform settings as libs/sources.
const sources = require('../sources/jest.config.cjs');

module.exports = { ...sources, displayName: 'agent-store', rootDir: __dirname };
