module.exports = { displayName: 'stage-verifier', preset: '../../../jest.preset.js', rootDir: __dirname };
