module.exports = { displayName: 'runs', preset: '../../jest.preset.js', rootDir: __dirname };
