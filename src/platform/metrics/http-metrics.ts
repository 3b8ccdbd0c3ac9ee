import type { Request } from 'express';
import type { Counter, Histogram } from 'prom-client';
import { NO_LABEL, requestLabels } from '../telemetry/request-labels';
import { MetricsService } from './metrics.service';

type CounterChild = ReturnType<Counter<string>['labels']>;
type HistogramChild = ReturnType<Histogram<string>['labels']>;

/** The labelled series of one method on one route: found once, then reached from the route object. */
interface RouteSeries {
  method: string;
  latency: HistogramChild;
  byStatus: Map<number, CounterChild>;
}

/**
 * Counts every request by its route pattern (never the raw path, which would explode labels).
 * The series of a route are looked up once and kept on a WeakMap keyed by Express's route object,
 * so a request costs no label object, key string or hash-map lookup of its own.
 */
export class HttpMetrics {
  private readonly byRoute = new WeakMap<object, RouteSeries>();
  /** Unmatched requests, and a second method on a route (HEAD on a GET route). */
  private readonly byKey = new Map<string, RouteSeries>();
  /** Family and model series, found once per pair (models are a catalogue's worth: bounded). */
  private readonly byFamily = new Map<
    string,
    { latency: HistogramChild; ok: CounterChild; clientError: CounterChild; serverError: CounterChild }
  >();

  constructor(private readonly metrics: MetricsService) {}

  record(req: Request, status: number, elapsedNs: bigint): void {
    const route = req.route as { path?: string } | undefined;
    let series = route === undefined ? undefined : this.byRoute.get(route);
    if (series === undefined || series.method !== req.method) series = this.seriesOf(route, req.method);
    let counter = series.byStatus.get(status);
    if (counter === undefined) {
      counter = this.metrics.httpRequests.labels(series.method, routeLabel(route), String(status));
      series.byStatus.set(status, counter);
    }
    counter.inc();
    series.latency.observe(Number(elapsedNs) / 1e9);
    this.recordFamily(req, status, elapsedNs);
  }

  /** Client requests again, by family and model (see `requestLabels`); other requests are not about one. */
  private recordFamily(req: Request, status: number, elapsedNs: bigint): void {
    const { family, model } = requestLabels(req);
    if (family === NO_LABEL) return;
    const key = `${family}\u0000${model}`;
    let series = this.byFamily.get(key);
    if (series === undefined) {
      const outcome = (o: string) => this.metrics.familyRequests.labels(family, model, o);
      series = {
        latency: this.metrics.familyLatency.labels(family, model),
        ok: outcome('ok'),
        clientError: outcome('client_error'),
        serverError: outcome('server_error'),
      };
      this.byFamily.set(key, series);
    }
    (status >= 500 ? series.serverError : status >= 400 ? series.clientError : series.ok).inc();
    series.latency.observe(Number(elapsedNs) / 1e9);
  }

  private seriesOf(route: { path?: string } | undefined, method: string): RouteSeries {
    const label = routeLabel(route);
    const key = `${method} ${label}`;
    let series = this.byKey.get(key);
    if (series === undefined) {
      series = { method, latency: this.metrics.httpLatency.labels(method, label), byStatus: new Map() };
      this.byKey.set(key, series);
    }
    if (route !== undefined && !this.byRoute.has(route)) this.byRoute.set(route, series);
    return series;
  }
}

function routeLabel(route: { path?: string } | undefined): string {
  return (route?.path as string | undefined) ?? 'unmatched';
}
