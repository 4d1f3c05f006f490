module.exports = { displayName: 'stage-planner', preset: '../../../jest.preset.js', rootDir: __dirname };
