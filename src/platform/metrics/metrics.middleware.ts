import type { NextFunction, Request, Response } from 'express';
import { MetricsService } from './metrics.service';

/** Counts every request by its route pattern (never the raw path, which would explode labels). */
export function metricsMiddleware(metrics: MetricsService) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const route = (req.route?.path as string | undefined) ?? 'unmatched';
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      metrics.httpRequests.inc({ method: req.method, route, status: String(res.statusCode) });
      metrics.httpLatency.observe({ method: req.method, route }, seconds);
    });
    next();
  };
}
