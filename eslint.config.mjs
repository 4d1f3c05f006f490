// Root ESLint flat config (ESLint 10, typescript-eslint 8, @nx/eslint-plugin 23).
// Projects get an inferred `lint` target from @nx/eslint/plugin (nx.json); no per-project config is needed.
// Run lint through Nx: @nx/enforce-module-boundaries reads Nx's cached project graph.
import nx from '@nx/eslint-plugin';

export default [
  {
    ignores: ['**/generated/**', '**/node_modules/**', '**/dist/**', '**/tmp/**', '**/out/**', '**/coverage/**', '**/*.cjs', '**/*.mjs'],
  },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.cts', '**/*.mts', '**/*.js', '**/*.jsx'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          banTransitiveDependencies: false,
          allow: [],
          // No '*' constraint: an untagged project may depend on nothing.
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:feature', 'type:data', 'type:util'] },
            { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:data', 'type:util'] },
            { sourceTag: 'type:data', onlyDependOnLibsWithTags: ['type:data', 'type:util'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        projectService: {
          // Root-level TS files that belong to no project tsconfig (only hit by a plain `eslint .` at the root).
          allowDefaultProject: ['prisma.config.ts', 'tools/bench/*.ts'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
];
