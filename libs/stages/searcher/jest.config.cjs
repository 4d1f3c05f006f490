module.exports = { displayName: 'stage-searcher', preset: '../../../jest.preset.js', rootDir: __dirname };
