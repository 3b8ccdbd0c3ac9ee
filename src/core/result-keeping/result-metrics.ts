import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { ResultFilesRepository } from './result-files.repository';
import { StoredTotals } from './stored-totals';

/** Why a file was not kept. */
export type NotKeptReason = 'too_large' | 'content_type' | 'store_full' | 'upstream_gone' | 'attempts_exhausted';

/** The keep queue's series, on the gateway's registry; the gauges are counted when scraped. */
@Injectable()
export class ResultMetrics {
  readonly keptBytes: Counter;
  readonly keptFiles: Counter;
  readonly notKept: Counter;
  readonly downloadFailures: Counter;
  private lastPending = 0;
  private lastBytes = 0;

  constructor(metrics: MetricsService, files: ResultFilesRepository, stored: StoredTotals) {
    const registers = [metrics.registry];
    const existing = <T>(name: string) => metrics.registry.getSingleMetric(name) as T | undefined;
    this.keptBytes =
      existing<Counter>('gateway_results_kept_bytes_total') ??
      new Counter({ name: 'gateway_results_kept_bytes_total', help: 'Bytes of result files kept', registers });
    this.keptFiles =
      existing<Counter>('gateway_results_kept_total') ??
      new Counter({ name: 'gateway_results_kept_total', help: 'Result files kept', registers });
    this.notKept =
      existing<Counter>('gateway_results_not_kept_total') ??
      new Counter({
        name: 'gateway_results_not_kept_total',
        help: 'Result files given up (left at the upstream), by reason',
        labelNames: ['reason'],
        registers,
      });
    this.downloadFailures =
      existing<Counter>('gateway_results_download_failures_total') ??
      new Counter({
        name: 'gateway_results_download_failures_total',
        help: 'Failed download attempts of result files (retried until the last attempt)',
        registers,
      });
    if (!existing('gateway_results_pending'))
      new Gauge({
        name: 'gateway_results_pending',
        help: 'Result files waiting to be downloaded, every instance, counted when scraped',
        registers,
        collect: async function (this: Gauge) {
          this.set(await pending());
        },
      });
    if (!existing('gateway_results_stored_bytes'))
      new Gauge({
        name: 'gateway_results_stored_bytes',
        help: "Bytes of result files in the store, counted at most every 5 s, plus this instance's files kept since",
        registers,
        collect: async function (this: Gauge) {
          this.set(await bytes());
        },
      });
    // A count that fails (database unreachable) leaves the last value: `/metrics` still answers.
    const pending = async () => (this.lastPending = await files.pendingCount().catch(() => this.lastPending));
    const bytes = async () =>
      (this.lastBytes = await stored.read().then(
        (t) => t.bytes,
        () => this.lastBytes,
      ));
  }
}
