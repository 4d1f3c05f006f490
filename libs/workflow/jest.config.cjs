module.exports = { displayName: 'workflow', preset: '../../jest.preset.js', rootDir: __dirname };
