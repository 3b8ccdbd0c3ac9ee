import type { NextFunction, Request, Response } from 'express';
import type { Counter, Histogram } from 'prom-client';
import { MetricsService } from './metrics.service';

type CounterChild = ReturnType<Counter<string>['labels']>;
type HistogramChild = ReturnType<Histogram<string>['labels']>;

/**
 * Counts every request by its route pattern (never the raw path, which would explode labels).
 * The labelled series are looked up once per method, route and status and kept: prom-client
 * would otherwise hash a new label object on every request.
 */
export function metricsMiddleware(metrics: MetricsService) {
  const counters = new Map<string, CounterChild>();
  const histograms = new Map<string, HistogramChild>();
  const record = (method: string, route: string, status: number, seconds: number): void => {
    const key = `${method} ${route}`;
    const countKey = `${key} ${status}`;
    let counter = counters.get(countKey);
    if (!counter) {
      counter = metrics.httpRequests.labels(method, route, String(status));
      counters.set(countKey, counter);
    }
    counter.inc();
    let histogram = histograms.get(key);
    if (!histogram) {
      histogram = metrics.httpLatency.labels(method, route);
      histograms.set(key, histogram);
    }
    histogram.observe(seconds);
  };
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      const route = (req.route?.path as string | undefined) ?? 'unmatched';
      record(req.method, route, res.statusCode, Number(process.hrtime.bigint() - start) / 1e9);
    });
    next();
  };
}
