import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('applies the documented defaults with no variables', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.SIM_TASK_MS).toBe(3000);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.MIGRATIONS_RUN).toBe(true);
  });

  it('parses numbers and booleans from strings', () => {
    const c = loadConfig({ PORT: '8080', CALLBACK_ALLOW_PRIVATE: 'true', DATABASE_URL: 'sqlite::memory:' });
    expect(c.PORT).toBe(8080);
    expect(c.CALLBACK_ALLOW_PRIVATE).toBe(true);
    expect(c.DATABASE_URL).toBe('sqlite::memory:');
  });

  it.each([
    ['PORT', 'abc'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'localhost:6379'],
    ['SIM_TASK_MS', '0'],
    ['ADMIN_TOKEN', 'short'],
    ['CALLBACK_ALLOW_PRIVATE', 'maybe'],
  ])('names the variable when %s=%s is bad', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name}=`));
  });
});
