import { DEFAULT_UPSTREAM_HTTP_OPTIONS, httpOptionsFromConfig, resolveHttpOptions } from './upstream-http-options';

describe('upstream HTTP options', () => {
  it('defaults to connect 5 s, create 30 s, read 10 s, breaker 5 faults / 10 s', () => {
    expect(resolveHttpOptions()).toMatchObject({
      connectTimeoutMs: 5000,
      createTimeoutMs: 30000,
      readTimeoutMs: 10000,
      breakerConsecutiveFailures: 5,
      breakerHalfOpenAfterMs: 10000,
    });
  });

  it('lets given fields override the defaults and ignores undefined ones', () => {
    const options = resolveHttpOptions({ readTimeoutMs: 1234, createTimeoutMs: undefined });
    expect(options.readTimeoutMs).toBe(1234);
    expect(options.createTimeoutMs).toBe(DEFAULT_UPSTREAM_HTTP_OPTIONS.createTimeoutMs);
  });

  it('reads the app configuration knobs', () => {
    expect(
      httpOptionsFromConfig({
        UPSTREAM_TIMEOUT_MS: 100,
        UPSTREAM_CONNECT_TIMEOUT_MS: 200,
        UPSTREAM_READ_TIMEOUT_MS: 300,
      }),
    ).toMatchObject({
      createTimeoutMs: 100,
      connectTimeoutMs: 200,
      readTimeoutMs: 300,
    });
  });
});
