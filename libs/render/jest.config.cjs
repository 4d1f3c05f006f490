module.exports = { displayName: 'render', preset: '../../jest.preset.js', rootDir: __dirname };
