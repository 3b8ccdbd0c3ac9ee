/** Timeouts, retries and breaker settings shared by every upstream client. */
export interface UpstreamHttpOptions {
  /**
   * TCP (and TLS) connect must finish within this; an API call must also be wholly on the wire within
   * it (waiting for a free socket of its pool included), or it fails as never sent.
   */
  readonly connectTimeoutMs: number;
  /** Whole POST (task creation, session calls): connect, send, answer. */
  readonly createTimeoutMs: number;
  /** Whole GET, per attempt. */
  readonly readTimeoutMs: number;
  /** Extra attempts for GETs after an upstream fault (never for POSTs: they are not idempotent). */
  readonly readRetries: number;
  /** First back-off delay of GET retries; grows exponentially with jitter up to `retryMaxDelayMs`. */
  readonly retryInitialDelayMs: number;
  readonly retryMaxDelayMs: number;
  /** Upstream faults in a row that open a channel's circuit breaker. */
  readonly breakerConsecutiveFailures: number;
  /** How long an open breaker fails fast before letting one probe call through. */
  readonly breakerHalfOpenAfterMs: number;
  /** Largest answer body accepted, bytes. */
  readonly maxResponseBytes: number;
}

/** Injection token of the resolved `UpstreamHttpOptions`. */
export const UPSTREAM_HTTP_OPTIONS = Symbol('UPSTREAM_HTTP_OPTIONS');

export const DEFAULT_UPSTREAM_HTTP_OPTIONS: UpstreamHttpOptions = Object.freeze({
  connectTimeoutMs: 5_000,
  createTimeoutMs: 30_000,
  readTimeoutMs: 10_000,
  readRetries: 2,
  retryInitialDelayMs: 200,
  retryMaxDelayMs: 2_000,
  breakerConsecutiveFailures: 5,
  breakerHalfOpenAfterMs: 10_000,
  maxResponseBytes: 16 * 1024 * 1024,
});

export function resolveHttpOptions(overrides: Partial<UpstreamHttpOptions> = {}): UpstreamHttpOptions {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  return Object.freeze({ ...DEFAULT_UPSTREAM_HTTP_OPTIONS, ...defined });
}

/** The upstream knobs of the app configuration (`AppConfig`), matched structurally so upstream needs no config import. */
export interface UpstreamTimeoutConfig {
  UPSTREAM_TIMEOUT_MS?: number;
  UPSTREAM_CONNECT_TIMEOUT_MS?: number;
  UPSTREAM_READ_TIMEOUT_MS?: number;
}

export function httpOptionsFromConfig(config: UpstreamTimeoutConfig): UpstreamHttpOptions {
  return resolveHttpOptions({
    createTimeoutMs: config.UPSTREAM_TIMEOUT_MS,
    connectTimeoutMs: config.UPSTREAM_CONNECT_TIMEOUT_MS,
    readTimeoutMs: config.UPSTREAM_READ_TIMEOUT_MS,
  });
}
