module.exports = { displayName: 'errors', preset: '../../jest.preset.js', rootDir: __dirname };
