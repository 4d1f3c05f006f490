module.exports = { displayName: 'stage-writer', preset: '../../../jest.preset.js', rootDir: __dirname };
