import { readFileSync } from 'fs';
import { join } from 'path';

describe('tracing preload', () => {
  it('is required by main.ts before Nest, Express, the database drivers and ioredis', () => {
    const imports = [
      ...readFileSync(join(__dirname, '../../main.ts'), 'utf8').matchAll(/^import (?:.* from )?'([^']+)';/gm),
    ].map((m) => m[1]);
    const preload = imports.indexOf('./platform/telemetry/preload');
    expect(preload).toBeGreaterThanOrEqual(0);
    // Only modules that load none of them may come first (e.g. heap settings).
    expect(imports.slice(0, preload).filter((m) => !m.startsWith('./platform/memory/'))).toEqual([]);
  });
});
