import { performance } from 'node:perf_hooks';
import { HttpService } from '@nestjs/axios';
import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  ExponentialBackoff,
  RetryPolicy,
  TimeoutPolicy,
  TimeoutStrategy,
  handleType,
  isBrokenCircuitError,
  isIsolatedCircuitError,
  retry,
  timeout,
} from 'cockatiel';
import type { AxiosInstance, AxiosRequestConfig, AxiosResponse } from 'axios';
import {
  UpstreamChannel,
  UpstreamOutcomeUnknownError,
  UpstreamTiming,
  UpstreamUnavailableError,
} from '../upstream.types';
import { fastPathsOn } from '../../platform/config/fast-paths';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { annotateActiveSpan, tracingStarted, withSpan } from '../../platform/telemetry/spans';
import { createLeanHttpAdapter, leanAxiosInstance, libraryAxiosInstance } from './lean-http-adapter';
import { parseJsonLeniently } from './lenient';
import { UpstreamAgents } from './upstream-agents';
import { UpstreamBreakers } from './upstream-breakers';
import { UpstreamFault, faultFromTransportError } from './upstream-fault';
import { UPSTREAM_HTTP_OPTIONS, UpstreamHttpOptions } from './upstream-http-options';

/** Stale keep-alive sockets tried in a row before the fault counts (see requestOnLiveSocket). */
const STALE_SOCKET_RETRIES = 4;

export interface UpstreamRequest {
  /** GET is the only method treated as idempotent (retried, never "outcome unknown"). */
  readonly method: 'GET' | 'POST';
  /** Path below the channel's base URL, e.g. `/v1/videos/multi-elements`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly body?: unknown;
  /** Auth and protocol headers of the family. */
  readonly headers: Readonly<Record<string, string>>;
  readonly timing?: UpstreamTiming;
}

/** Any answer below 500. The body is parsed JSON, or the raw text when it was not JSON. */
export interface UpstreamResponse {
  readonly status: number;
  readonly body: unknown;
}

/**
 * The one way out to an upstream: keep-alive agents, a time limit per attempt, a per-channel
 * breaker, and retries with jittered back-off for GETs only. Answers below 500 are returned for the
 * family client to interpret; everything else becomes `UpstreamUnavailableError` or, when a POST
 * went out completely and no answer came back, `UpstreamOutcomeUnknownError`.
 */
@Injectable()
export class UpstreamTransport {
  private readonly writeTimeout: TimeoutPolicy;
  private readonly readTimeout: TimeoutPolicy;
  private readonly readRetry: RetryPolicy;
  private readonly axios: AxiosInstance;

  constructor(
    private readonly http: HttpService,
    private readonly agents: UpstreamAgents,
    private readonly breakers: UpstreamBreakers,
    @Inject(UPSTREAM_HTTP_OPTIONS) private readonly options: UpstreamHttpOptions,
    @Optional() private readonly metrics?: MetricsService,
  ) {
    // abortOnReturn off: the signal belongs to this one call, and aborting it after every answer
    // built a DOMException with a stack trace per call (docs/decisions.md, "Upstream client").
    this.writeTimeout = timeout(options.createTimeoutMs, {
      strategy: TimeoutStrategy.Cooperative,
      abortOnReturn: false,
    });
    this.readTimeout = timeout(options.readTimeoutMs, { strategy: TimeoutStrategy.Cooperative, abortOnReturn: false });
    this.readRetry = retry(handleType(UpstreamFault), {
      maxAttempts: options.readRetries,
      // cockatiel's default generator is decorrelated jitter: exponential growth, randomised spacing.
      backoff: new ExponentialBackoff({ initialDelay: options.retryInitialDelayMs, maxDelay: options.retryMaxDelayMs }),
    });
    // Derived from the @nestjs/axios instance and called directly (its Observable wrapper cancelled
    // every finished request, building an AxiosError with a stack). The lean adapter replaces axios'
    // node adapter: no redirects (they could carry credentials to another host; a 3xx is an answer),
    // no proxy from the environment (channels name their upstream), at most maxResponseBytes read.
    // A call not on the wire within the connect time limit (its pool full, its connection slow) fails
    // then, as surely not sent, instead of at the whole call's limit: a create can still go to the
    // next channel in time.
    // With fast paths off (FAST_PATHS=false), axios' own node adapter does the same.
    const adapterOptions = {
      httpAgent: agents.http,
      httpsAgent: agents.https,
      maxResponseBytes: options.maxResponseBytes,
      sendTimeoutMs: options.connectTimeoutMs,
    };
    this.axios = fastPathsOn('axios-adapter')
      ? leanAxiosInstance(http.axiosRef, createLeanHttpAdapter(adapterOptions))
      : libraryAxiosInstance(http.axiosRef, adapterOptions);
  }

  /**
   * One call as its caller waits for it, retries included: a span (vendor, channel, operation, status,
   * URL without query or credentials; never a header or a body) and its latency per channel.
   */
  async send(channel: UpstreamChannel, request: UpstreamRequest): Promise<UpstreamResponse> {
    const startedAt = performance.now();
    let outcome = 'failed';
    try {
      const response = tracingStarted()
        ? await withSpan(`upstream ${request.method}`, spanAttributes(channel, request), async () => {
            const answer = await this.sendWithPolicies(channel, request);
            annotateActiveSpan({ 'http.response.status_code': answer.status });
            return answer;
          })
        : await this.sendWithPolicies(channel, request);
      outcome = 'answered';
      return response;
    } finally {
      this.metrics?.upstreamLatency
        .labels(channel.id, request.method, outcome)
        .observe((performance.now() - startedAt) / 1000);
    }
  }

  private async sendWithPolicies(channel: UpstreamChannel, request: UpstreamRequest): Promise<UpstreamResponse> {
    const isRead = request.method === 'GET';
    const breaker = this.breakers.policyFor(channel.id);
    const timeLimit = isRead ? this.readTimeout : this.writeTimeout;
    // Retry outside the breaker: every attempt counts towards the channel's health, and an open breaker stops retrying.
    const attempt = () =>
      breaker.execute(() => timeLimit.execute(({ signal }) => this.sendOnce(channel, request, signal)));
    try {
      return isRead ? await this.readRetry.execute(attempt) : await attempt();
    } catch (error) {
      throw this.toPublicError(error, channel, request);
    }
  }

  private async sendOnce(
    channel: UpstreamChannel,
    request: UpstreamRequest,
    signal: AbortSignal,
  ): Promise<UpstreamResponse> {
    const startedAt = performance.now();
    try {
      // Only the keys a call uses: axios merges every key given (an undefined `params` still costs a deep-merge pass).
      const config: AxiosRequestConfig = {
        baseURL: channel.baseUrl,
        url: request.path,
        method: request.method,
        signal,
      };
      if (request.query !== undefined) config.params = request.query;
      if (request.body === undefined) {
        config.headers = { Accept: 'application/json', ...request.headers };
      } else {
        config.headers = { Accept: 'application/json', 'Content-Type': 'application/json', ...request.headers };
        // Serialised here, once (the instance has no transformRequest).
        config.data = JSON.stringify(request.body);
      }
      const response = await this.requestOnLiveSocket(config, signal);
      if (response.status >= 500)
        throw new UpstreamFault('http-5xx', `answered HTTP ${response.status}`, true, response.status);
      return { status: response.status, body: parseJsonLeniently(response.data) };
    } catch (error) {
      if (error instanceof UpstreamFault) throw error;
      throw faultFromTransportError(error, signal.aborted) ?? error;
    } finally {
      if (request.timing) request.timing.upstreamMs += performance.now() - startedAt;
    }
  }

  /**
   * A keep-alive socket the upstream closed while it sat idle (the event loop was busy when its idle
   * timer was due) fails at once, with nothing processed: the request goes again on another socket,
   * POST included, and neither the breaker nor the caller sees it. Bounded: each failure destroys
   * the dead socket, and a pool rarely holds more than a few of them.
   */
  private async requestOnLiveSocket(config: AxiosRequestConfig, signal: AbortSignal): Promise<AxiosResponse<string>> {
    for (let retries = 0; ; retries++) {
      try {
        return await this.axios.request<string>(config);
      } catch (error) {
        const fault = signal.aborted ? undefined : faultFromTransportError(error, false);
        if (fault?.kind !== 'stale-connection' || retries >= STALE_SOCKET_RETRIES) throw error;
      }
    }
  }

  private toPublicError(error: unknown, channel: UpstreamChannel, request: UpstreamRequest): unknown {
    const call = `${request.method} ${request.path}`;
    if (isBrokenCircuitError(error) || isIsolatedCircuitError(error)) {
      return new UpstreamUnavailableError(
        `Upstream channel ${channel.id} is paused after repeated failures (circuit open); ${call} not sent.`,
      );
    }
    if (!(error instanceof UpstreamFault)) return error;
    const maybeAccepted = request.method !== 'GET' && error.requestSent && error.kind !== 'http-5xx';
    if (maybeAccepted) {
      return new UpstreamOutcomeUnknownError(
        `Upstream channel ${channel.id}: ${call} was sent but ${error.message}; it may have been accepted.`,
      );
    }
    return new UpstreamUnavailableError(
      `Upstream channel ${channel.id}: ${call} failed: ${error.message}.`,
      error.httpStatus,
    );
  }
}

/** What an upstream span says about its call: the URL without query string or user info (credentials live in headers). */
function spanAttributes(channel: UpstreamChannel, request: UpstreamRequest): Record<string, string> {
  const url = new URL(`${channel.baseUrl.replace(/\/$/, '')}${request.path}`);
  url.username = '';
  url.password = '';
  url.search = '';
  return {
    'gateway.upstream.vendor': channel.family,
    'gateway.upstream.channel': channel.id,
    'gateway.upstream.operation': `${request.method} ${request.path}`,
    'http.request.method': request.method,
    'url.full': url.toString(),
  };
}
