// linkedom's CJS build requires packages that ship ESM only (css-select, domutils, cssomnom, ...). Plain
// Node 24 loads them natively through require(esm); jest's module runtime cannot without
// --experimental-vm-modules, so swc compiles them for jest. The list is computed from linkedom's
// installed dependency tree so a version bump does not silently break the tests.
const fs = require('node:fs');
const path = require('node:path');
const preset = require('../../jest.preset.js');

function esmOnlyDependencies(pkg, from, seen = new Map()) {
  let pkgJson;
  try {
    pkgJson = require.resolve(`${pkg}/package.json`, { paths: [from] });
  } catch {
    // Packages that do not export ./package.json: find the folder by walking node_modules upwards.
    for (let dir = from; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'node_modules', pkg, 'package.json');
      if (fs.existsSync(candidate)) {
        pkgJson = candidate;
        break;
      }
      if (dir === path.dirname(dir)) return seen;
    }
  }
  if (seen.has(pkgJson)) return seen;
  const manifest = JSON.parse(fs.readFileSync(pkgJson, 'utf8'));
  seen.set(pkgJson, manifest.type === 'module' ? pkg : null);
  for (const dep of Object.keys(manifest.dependencies ?? {})) esmOnlyDependencies(dep, path.dirname(pkgJson), seen);
  return seen;
}

const esmOnly = [...new Set(['unpdf', ...esmOnlyDependencies('linkedom', __dirname).values()].filter((n) => n && n !== 'linkedom'))];
const [presetPattern] = preset.transformIgnorePatterns;
if (!presetPattern.includes('(?!(')) throw new Error(`unexpected transformIgnorePatterns in jest.preset.js: ${presetPattern}`);

module.exports = {
  displayName: 'sources',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  transformIgnorePatterns: [presetPattern.replace('(?!(', `(?!(${esmOnly.join('|')}|`)],
  // The generated Prisma client imports its own TypeScript files as `./x.js` (nodenext style), which
  // jest's resolver does not map back to `./x.ts`. Relative `.js` specifiers resolve without the extension.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};
