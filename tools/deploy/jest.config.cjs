module.exports = { displayName: 'deploy', preset: '../../jest.preset.js', rootDir: __dirname };
