// Runs the TypeScript sources directly under plain `node -r ./tools/ts-register.cjs`: each .ts file is
// compiled to CommonJS by swc on load (decorators and their metadata included, which Node's own type
// stripping does not support). Workspace packages resolve through npm's node_modules/@dossier links.
//
// Compiled files are kept in node_modules/.cache/dossier-ts, named by a hash of the source, the swc options and
// swc's version: every service and CLI process the tests spawn compiles the same few hundred files (about a fifth
// of a process's start), and a changed file simply gets a new name. Written to a temporary name and renamed, so
// concurrent processes never read half a file; any cache error falls back to compiling.
const Module = require('node:module');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { transformSync, version } = require('@swc/core');

const options = require('./swc-options.cjs');

const CACHE = path.join(__dirname, '..', 'node_modules', '.cache', 'dossier-ts');
const SALT = `${version}\n${JSON.stringify(options)}\n`;

function cached(source, filename) {
  const key = crypto.createHash('sha256').update(SALT).update(filename).update('\n').update(source).digest('hex');
  const file = path.join(CACHE, `${key}.js`);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    // Not compiled yet (or unreadable): compile below.
  }
  const { code } = transformSync(source, { ...options, filename });
  try {
    fs.mkdirSync(CACHE, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, code);
    fs.renameSync(tmp, file);
  } catch {
    // A read-only or full disk: the code is compiled, only not kept.
  }
  return code;
}

Module._extensions['.ts'] = function compile(module, filename) {
  module._compile(cached(fs.readFileSync(filename, 'utf8'), filename), filename);
};
