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
  globalTeardown: '<rootDir>/tools/jest/global-teardown.cjs',
  // A hang guard, not a timing assertion: tests wait for states, and only a hung test should reach this
  // (libs/testing/src/hang-guard.ts reads the same variable; docs/decisions/0012).
  testTimeout: Number(process.env.TEST_HANG_GUARD_MS) || 30 * 60_000,
};
