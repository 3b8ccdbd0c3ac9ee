import { trace } from '@opentelemetry/api';
import {
  currentTraceparent,
  formatTraceparent,
  parseTraceparent,
  traceIdOf,
  tracingStarted,
  untraced,
  withSpan,
  withTaskSpan,
} from './spans';

const STORED = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('traceparent', () => {
  it('round-trips a sampled and an unsampled context', () => {
    const sc = parseTraceparent(STORED);
    expect(sc).toEqual({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: 1,
      isRemote: true,
    });
    expect(formatTraceparent(sc!)).toBe(STORED);
    const unsampled = STORED.replace(/01$/, '00');
    expect(formatTraceparent(parseTraceparent(unsampled)!)).toBe(unsampled);
  });

  it('refuses what is not a valid W3C traceparent (all-zero IDs included)', () => {
    for (const bad of [null, undefined, '', 'garbage', STORED.toUpperCase(), `01${STORED.slice(2)}`])
      expect(parseTraceparent(bad)).toBeNull();
    expect(parseTraceparent(`00-${'0'.repeat(32)}-b7ad6b7169203331-01`)).toBeNull();
    expect(parseTraceparent(`00-0af7651916cd43dd8448eb211c80319c-${'0'.repeat(16)}-01`)).toBeNull();
  });

  it('gives an operator the trace ID of a stored context', () => {
    expect(traceIdOf(STORED)).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(traceIdOf(null)).toBeNull();
  });
});

describe('spans with tracing off (no SDK started)', () => {
  it('runs the work directly: no span, no tracer, nothing stored', async () => {
    expect(tracingStarted()).toBe(false);
    const getTracer = jest.spyOn(trace, 'getTracer');
    await expect(withTaskSpan('task.sync', STORED, {}, () => Promise.resolve(1))).resolves.toBe(1);
    await expect(withSpan('task.settle', {}, () => Promise.resolve(2))).resolves.toBe(2);
    await expect(untraced(() => Promise.resolve(3))).resolves.toBe(3);
    await expect(withSpan('x', {}, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(getTracer).not.toHaveBeenCalled();
    expect(currentTraceparent()).toBeNull();
    getTracer.mockRestore();
  });
});
