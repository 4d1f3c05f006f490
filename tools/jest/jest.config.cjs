module.exports = { displayName: 'jest-shards', preset: '../../jest.preset.js', rootDir: __dirname };
