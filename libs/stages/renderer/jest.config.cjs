module.exports = { displayName: 'stage-renderer', preset: '../../../jest.preset.js', rootDir: __dirname };
