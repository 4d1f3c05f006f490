#!/usr/bin/env node
// The `dossier` command (npx dossier): runs the TypeScript CLI through the repo's swc loader.
const path = require('node:path');
require(path.join(__dirname, '../../../tools/ts-register.cjs'));
require('../src/main.ts');
