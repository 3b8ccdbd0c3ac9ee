import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Request latency buckets (seconds), the same for every request series so that they compare. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The gateway's Prometheus registry: HTTP, task, upstream and billing series in one place. */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'gateway_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
  });
  readonly httpLatency = new Histogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['method', 'route'],
    buckets: REQUEST_BUCKETS,
    registers: [this.registry],
  });
  readonly upstreamCalls = new Counter({
    name: 'gateway_upstream_calls_total',
    help: 'Upstream calls by family, operation and outcome',
    labelNames: ['family', 'operation', 'outcome'],
    registers: [this.registry],
  });
  readonly tasksCreated = new Counter({
    name: 'gateway_tasks_created_total',
    help: 'Tasks accepted by the upstream',
    labelNames: ['family', 'model'],
    registers: [this.registry],
  });
  readonly tasksFinished = new Counter({
    name: 'gateway_tasks_finished_total',
    help: 'Tasks that reached a terminal phase',
    labelNames: ['family', 'phase'],
    registers: [this.registry],
  });
  readonly syncCycleSeconds = new Histogram({
    name: 'gateway_sync_cycle_duration_seconds',
    help: 'Duration of one sync worker cycle',
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30],
    registers: [this.registry],
  });
  /** Client requests by what they were about (see `requestLabels`): rate and errors per family and model. */
  readonly familyRequests = new Counter({
    name: 'gateway_family_requests_total',
    help: 'Client requests by family, model and outcome (ok, client_error, server_error)',
    labelNames: ['family', 'model', 'outcome'],
    registers: [this.registry],
  });
  readonly familyLatency = new Histogram({
    name: 'gateway_family_request_duration_seconds',
    help: 'Client request latency by family and model',
    labelNames: ['family', 'model'],
    buckets: REQUEST_BUCKETS,
    registers: [this.registry],
  });
  /** One upstream call, retries included, as its caller waited for it. */
  readonly upstreamLatency = new Histogram({
    name: 'gateway_upstream_request_duration_seconds',
    help: 'Upstream call latency by channel, method and outcome (answered, failed)',
    labelNames: ['channel', 'method', 'outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  /** How late each task's sync starts (now minus its due time): the sync worker keeping up or not. */
  readonly syncLagSeconds = new Histogram({
    name: 'gateway_sync_lag_seconds',
    help: 'Delay between a task falling due for sync and its sync starting',
    buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });
  /** Counted when scraped (see `countTasksInFlightWith`), not on a timer: a count over every open task is no per-second cost. */
  readonly tasksInFlight = new Gauge({
    name: 'gateway_tasks_in_flight',
    help: 'Open tasks (submitting or active) of every instance, counted when scraped',
    registers: [this.registry],
    collect: () => this.collectTasksInFlight(),
  });
  private countTasksInFlight: (() => Promise<number>) | undefined;

  /** The owner of task records says how to count the open ones. */
  countTasksInFlightWith(count: () => Promise<number>): void {
    this.countTasksInFlight = count;
  }

  /** A count that fails (database unreachable) leaves the last value: `/metrics` still answers. */
  private async collectTasksInFlight(): Promise<void> {
    if (!this.countTasksInFlight) return;
    try {
      this.tasksInFlight.set(await this.countTasksInFlight());
    } catch {
      /* the last value stands */
    }
  }

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}
