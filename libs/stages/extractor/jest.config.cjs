module.exports = { displayName: 'stage-extractor', preset: '../../../jest.preset.js', rootDir: __dirname };
