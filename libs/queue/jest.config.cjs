module.exports = { displayName: 'queue', preset: '../../jest.preset.js', rootDir: __dirname };
