import type { Request } from 'express';
import { CONTEXT } from '../http/request-context';
import { noteRequestSubject } from '../telemetry/request-labels';
import { HttpMetrics } from './http-metrics';
import { MetricsService } from './metrics.service';

function request(path: string, subject?: { family: string; model: string }, client = true): Request {
  const context = { requestId: 'r', startedAt: 0n };
  if (subject) noteRequestSubject(context, subject.family, subject.model);
  return {
    method: 'POST',
    route: { path },
    [CONTEXT]: context,
    ...(client ? { principal: { account: { id: 'acct_1' } } } : {}),
  } as unknown as Request;
}

describe('HttpMetrics: per family and model', () => {
  it('counts client requests by family, model and outcome, with their latency', async () => {
    const metrics = new MetricsService();
    const http = new HttpMetrics(metrics);
    http.record(request('/kl/v1/videos', { family: 'kl', model: 'm1' }), 200, 5_000_000n);
    http.record(request('/kl/v1/videos', { family: 'kl', model: 'm1' }), 400, 1_000_000n);
    http.record(request('/kl/v1/videos', { family: 'kl', model: 'm1' }), 503, 1_000_000n);
    http.record(request('/kl/v1/videos/:id'), 200, 1_000_000n);
    http.record(request('/admin/v1/accounts', undefined, false), 200, 1_000_000n);
    const counts = await metrics.registry.getSingleMetricAsString('gateway_family_requests_total');
    expect(counts).toContain('gateway_family_requests_total{family="kl",model="m1",outcome="ok"} 1');
    expect(counts).toContain('gateway_family_requests_total{family="kl",model="m1",outcome="client_error"} 1');
    expect(counts).toContain('gateway_family_requests_total{family="kl",model="m1",outcome="server_error"} 1');
    expect(counts).toContain('gateway_family_requests_total{family="kl",model="-",outcome="ok"} 1');
    expect(counts).not.toContain('admin');
    const latency = await metrics.registry.getSingleMetricAsString('gateway_family_request_duration_seconds');
    expect(latency).toContain('gateway_family_request_duration_seconds_count{family="kl",model="m1"} 3');
  });
});
