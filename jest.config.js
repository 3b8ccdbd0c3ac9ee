// Two projects: unit rules beside the code (src/**/*.spec.ts, scripts/*.spec.ts), e2e through HTTP (test/e2e).
// ts-jest only transpiles (tsconfig has isolatedModules): type checking is `npm run typecheck`.
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }] };
const common = {
  transform,
  moduleFileExtensions: ['ts', 'js', 'json'],
  testEnvironment: 'node',
  // reflect-metadata is loaded once for every test file, as main.ts does for the app.
  setupFiles: ['<rootDir>/src/reflect.ts'],
};
module.exports = {
  // An e2e file boots whole gateways: on a loaded 2-core machine one boot alone can pass jest's 5 s.
  testTimeout: 20_000,
  projects: [
    { ...common, displayName: 'unit', roots: ['<rootDir>/src', '<rootDir>/scripts'], testMatch: ['**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.e2e-spec.ts'],
      setupFiles: [...common.setupFiles, '<rootDir>/test/support/env.ts'],
    },
  ],
};
