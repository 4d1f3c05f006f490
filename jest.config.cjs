// One jest run over every project that has a jest.config.cjs (each extends jest.preset.js).
const fs = require('node:fs');
const path = require('node:path');

const roots = ['libs', 'libs/stages', 'apps', 'tools'];
const projects = roots.flatMap((root) =>
  fs.existsSync(path.join(__dirname, root))
    ? fs
        .readdirSync(path.join(__dirname, root))
        .map((d) => path.join(__dirname, root, d, 'jest.config.cjs'))
        .filter((f) => fs.existsSync(f))
    : [],
);

module.exports = {
  projects,
  globalSetup: '<rootDir>/tools/jest/global-setup.cjs',
  testTimeout: 120000,
};
