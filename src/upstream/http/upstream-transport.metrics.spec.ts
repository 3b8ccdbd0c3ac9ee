import { HttpService } from '@nestjs/axios';
import axios from 'axios';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { FakeUpstream, sendJson, startFakeUpstream } from '../../../test/upstream/fake-upstream';
import { FAST_HTTP_OPTIONS } from '../../../test/upstream/test-upstream';
import { UpstreamAgents } from './upstream-agents';
import { UpstreamBreakers } from './upstream-breakers';
import { resolveHttpOptions } from './upstream-http-options';
import { UpstreamTransport } from './upstream-transport';

describe('UpstreamTransport: latency per channel', () => {
  let upstream: FakeUpstream;
  let agents: UpstreamAgents;

  beforeEach(async () => (upstream = await startFakeUpstream()));
  afterEach(async () => {
    agents.destroy();
    await upstream.close();
  });

  it('observes each call, retries included, by channel, method and outcome', async () => {
    const options = resolveHttpOptions({ ...FAST_HTTP_OPTIONS, readRetries: 0, breakerConsecutiveFailures: 100 });
    agents = new UpstreamAgents(options);
    const metrics = new MetricsService();
    const transport = new UpstreamTransport(
      new HttpService(axios.create()),
      agents,
      new UpstreamBreakers(options),
      options,
      metrics,
    );
    const channel = { id: 'ch-a', family: 'ax' as const, baseUrl: upstream.baseUrl, apiKey: 'k' };
    upstream.handle((_req, res) => sendJson(res, 200, {}));
    await transport.send(channel, { method: 'GET', path: '/t/1', headers: {} });
    upstream.handle((_req, res) => sendJson(res, 503, {}));
    await expect(transport.send(channel, { method: 'GET', path: '/t/1', headers: {} })).rejects.toThrow();
    const text = await metrics.registry.getSingleMetricAsString('gateway_upstream_request_duration_seconds');
    expect(text).toContain(
      'gateway_upstream_request_duration_seconds_count{channel="ch-a",method="GET",outcome="answered"} 1',
    );
    expect(text).toContain(
      'gateway_upstream_request_duration_seconds_count{channel="ch-a",method="GET",outcome="failed"} 1',
    );
  });
});
