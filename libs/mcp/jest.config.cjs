module.exports = { displayName: 'mcp', preset: '../../jest.preset.js', rootDir: __dirname };
