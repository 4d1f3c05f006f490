module.exports = { displayName: 'prisma-offline', preset: '../../jest.preset.js', rootDir: __dirname };
