// The one swc configuration for running our TypeScript: jest (jest.preset.js) and plain node
// (tools/ts-register.cjs). Decorators and their metadata are on: NestJS injects by type.
module.exports = {
  swcrc: false,
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    target: 'es2022',
    keepClassNames: true,
    transform: { legacyDecorator: true, decoratorMetadata: true },
  },
};
