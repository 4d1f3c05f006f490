module.exports = { displayName: 'lint', preset: '../../jest.preset.js', rootDir: __dirname };
