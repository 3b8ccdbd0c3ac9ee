// Two projects: unit rules beside the code, e2e through HTTP in test/e2e.
const fs = require('fs');
const swc = JSON.parse(fs.readFileSync(`${__dirname}/.swcrc`, 'utf8'));
const transform = { '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }] };
const common = { transform, setupFiles: ['<rootDir>/src/reflect.ts'], moduleFileExtensions: ['ts', 'js', 'json'], testEnvironment: 'node' };
module.exports = {
  projects: [
    // reflect-metadata is loaded once for every test file, as main.ts does for the app.
    { ...common, displayName: 'unit', roots: ['<rootDir>/src'], testMatch: ['**/*.spec.ts'] },
    { ...common, displayName: 'e2e', roots: ['<rootDir>/test'], testMatch: ['**/*.e2e-spec.ts'], setupFiles: ['<rootDir>/src/reflect.ts', '<rootDir>/test/support/env.ts'] },
  ],
};
