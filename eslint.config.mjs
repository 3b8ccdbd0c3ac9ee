// Lint: typescript-eslint (type-aware where promises are concerned), import cycles (type imports
// included, see lint:cycles in package.json), and the layer rules of docs/architecture.md as import
// zones. Formatting is Prettier's (see .prettierrc).
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';
import prettier from 'eslint-config-prettier';

/**
 * The layers as import zones, one entry per top-level folder of `src/` (docs/architecture.md):
 * `platform` serves every floor and imports none; `upstream` speaks the vendors' protocols;
 * `core` is the domain; the edges (families, openai, me, admin, result-serving,
 * upstream-callbacks-in, console-ui) turn HTTP into core calls and do not import each other
 * except where listed; `bootstrap` and `cli` assemble everything and nothing imports them.
 */
const TOP = [
  'admin',
  'bootstrap',
  'cli',
  'console-ui',
  'core',
  'families',
  'me',
  'openai',
  'platform',
  'result-serving',
  'simulator',
  'upstream',
  'upstream-callbacks-in',
];
const allBut = (...allowed) => TOP.filter((name) => !allowed.includes(name)).map((name) => `./src/${name}`);
const zone = (name, from, message) => ({ target: `./src/${name}`, from, message });
const layerZones = [
  zone('platform', allBut('platform'), 'platform/ serves every floor and imports none of them'),
  zone('upstream', allBut('upstream', 'platform'), 'upstream/ knows one vendor protocol each and nothing of the core'),
  zone(
    'simulator',
    allBut('simulator', 'platform', 'upstream'),
    'the simulator is an upstream double: it knows no gateway internals',
  ),
  zone('core', allBut('core', 'platform', 'upstream'), 'core/ never names a family: it reads them through its ports'),
  zone(
    'families',
    allBut('families', 'core', 'platform', 'upstream'),
    'a family route knows the core, not the other edges',
  ),
  zone(
    'openai',
    allBut('openai', 'families', 'result-serving', 'core', 'platform', 'upstream'),
    'the OpenAI-shaped API reuses the families and result serving, nothing else of the edges',
  ),
  zone('me', allBut('me', 'core', 'platform'), "the key holder's own reads know only the core"),
  zone(
    'admin',
    allBut('admin', 'families', 'result-serving', 'core', 'platform', 'upstream'),
    'the admin API reads the core',
  ),
  zone(
    'result-serving',
    allBut('result-serving', 'admin', 'core', 'platform'),
    'result serving knows the core (and the admin guard for its admin routes)',
  ),
  zone(
    'upstream-callbacks-in',
    allBut('upstream-callbacks-in', 'core', 'platform', 'upstream'),
    'incoming upstream callbacks go straight to the core',
  ),
  zone('console-ui', allBut('console-ui', 'platform'), 'the console is static files: its API lives in admin/'),
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
