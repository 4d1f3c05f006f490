module.exports = { displayName: 'vectors', preset: '../../jest.preset.js', rootDir: __dirname };
