// One jest run over every project; each project's jest.config.cjs extends jest.preset.js.
module.exports = {
  projects: ['<rootDir>/libs/*/jest.config.cjs', '<rootDir>/apps/*/jest.config.cjs'],
  globalSetup: '<rootDir>/tools/jest/global-setup.cjs',
  testTimeout: 60000,
};
