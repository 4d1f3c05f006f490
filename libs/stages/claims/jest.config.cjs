module.exports = { displayName: 'stage-claims', preset: '../../../jest.preset.js', rootDir: __dirname };
