// Runs the TypeScript sources directly under plain `node -r ./tools/ts-register.cjs`: each .ts file is
// compiled to CommonJS by swc on load (decorators and their metadata included, which Node's own type
// stripping does not support). Workspace packages resolve through npm's node_modules/@dossier links.
const Module = require('node:module');
const fs = require('node:fs');
const { transformSync } = require('@swc/core');

const options = require('./swc-options.cjs');

Module._extensions['.ts'] = function compile(module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...options, filename });
  module._compile(code, filename);
};
