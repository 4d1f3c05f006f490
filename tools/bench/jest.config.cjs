// The benches' pure computations (tools/bench/test), tested on rows built by hand; the benches themselves run in `npm run bench`.
module.exports = { displayName: 'bench', preset: '../../jest.preset.js', rootDir: __dirname };
