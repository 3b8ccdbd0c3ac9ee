// Lint: typescript-eslint (type-aware where promises are concerned), import cycles (type imports
// included, see lint:cycles in package.json), and the layer rules of ARCHITECTURE.md as import
// zones. Formatting is Prettier's (see .prettierrc).
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';
import prettier from 'eslint-config-prettier';

/** Folders below may not import folders above (ARCHITECTURE.md "three floors"). */
const layerZones = [
  {
    target: './src/platform',
    from: [
      './src/core',
      './src/families',
      './src/admin',
      './src/upstream',
      './src/simulator',
      './src/callbacks',
      './src/bootstrap',
    ],
    message: 'platform/ serves every floor and imports none of them',
  },
  {
    target: './src/upstream',
    from: ['./src/core', './src/families', './src/admin', './src/callbacks', './src/bootstrap'],
    message: 'upstream/ knows one vendor protocol each and nothing of the core',
  },
  {
    target: './src/core',
    from: ['./src/families', './src/admin', './src/callbacks', './src/bootstrap', './src/simulator'],
    message: 'core/ never names a family: it reads them through its ports',
  },
  {
    target: './src/simulator',
    from: ['./src/core', './src/families', './src/admin'],
    message: 'the simulator is an upstream double: it knows no gateway internals',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'bench/**',
      'scripts/**',
      'eslint.config.mjs',
      'jest.config.js',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { import: importPlugin },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.js', '.json'] } },
      'import/extensions': ['.ts', '.js'],
      'import/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Cycles through runtime imports; `npm run lint:cycles` (dpdm) also counts `import type`,
      // which this rule always skips.
      'import/no-cycle': ['error', { ignoreExternal: true }],
      'import/no-restricted-paths': ['error', { zones: layerZones }],
    },
  },
  {
    // Tests may build fakes loosely and reach across floors to assemble the real registry.
    files: ['**/*.spec.ts', 'test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'import/no-restricted-paths': 'off',
    },
  },
  prettier,
);
