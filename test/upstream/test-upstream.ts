import { HttpService } from '@nestjs/axios';
import axios from 'axios';
import { Clock } from '../../src/platform/time/clock';
import { AxClient } from '../../src/upstream/ax/ax.client';
import { UpstreamAgents } from '../../src/upstream/http/upstream-agents';
import { UpstreamBreakers } from '../../src/upstream/http/upstream-breakers';
import { UpstreamHttpOptions, resolveHttpOptions } from '../../src/upstream/http/upstream-http-options';
import { UpstreamTransport } from '../../src/upstream/http/upstream-transport';
import { KlAuth } from '../../src/upstream/kl/kl.auth';
import { KlClient } from '../../src/upstream/kl/kl.client';
import { VdClient } from '../../src/upstream/vd/vd.client';

/**
 * Defaults for tests: short back-off so the suite stays quick, and time limits long enough that a stall of a busy
 * two-core CI machine never trips them on a call that is answered. A test of a time limit sets its own short one.
 */
export const FAST_HTTP_OPTIONS: Partial<UpstreamHttpOptions> = {
  connectTimeoutMs: 5_000,
  createTimeoutMs: 10_000,
  readTimeoutMs: 10_000,
  readRetries: 2,
  retryInitialDelayMs: 5,
  retryMaxDelayMs: 20,
  breakerConsecutiveFailures: 3,
  breakerHalfOpenAfterMs: 150,
};

/** The upstream floor wired by hand (what UpstreamModule does through DI), plus a `close()` for the sockets. */
export function createTestUpstream(overrides: Partial<UpstreamHttpOptions> = {}, clock?: Clock) {
  const options = resolveHttpOptions({ ...FAST_HTTP_OPTIONS, ...overrides });
  const agents = new UpstreamAgents(options);
  const breakers = new UpstreamBreakers(options);
  const transport = new UpstreamTransport(new HttpService(axios.create()), agents, breakers, options);
  return {
    options,
    agents,
    breakers,
    transport,
    kl: new KlClient(transport, new KlAuth(clock)),
    ax: new AxClient(transport),
    vd: new VdClient(transport),
    close: () => agents.destroy(),
  };
}
