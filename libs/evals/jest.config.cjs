module.exports = { displayName: 'evals', preset: '../../jest.preset.js', rootDir: __dirname };
