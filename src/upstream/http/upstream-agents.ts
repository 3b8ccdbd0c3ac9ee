import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { ConnectTimeoutHttpAgent, ConnectTimeoutHttpsAgent } from './connect-timeout-agents';
import { UPSTREAM_HTTP_OPTIONS, UpstreamHttpOptions } from './upstream-http-options';

/** Sockets per upstream host; generous, because the sync worker polls many tasks at once. */
const MAX_SOCKETS_PER_HOST = 128;
/** Idle keep-alive sockets are closed after this; below common server keep-alive windows (Node: 5 s) to dodge reuse races. */
const IDLE_SOCKET_MS = 4_000;

/** The keep-alive agents every upstream call goes through; destroyed with the module so no socket outlives the app. */
@Injectable()
export class UpstreamAgents implements OnModuleDestroy {
  readonly http: ConnectTimeoutHttpAgent;
  readonly https: ConnectTimeoutHttpsAgent;

  constructor(@Inject(UPSTREAM_HTTP_OPTIONS) options: UpstreamHttpOptions) {
    const agentOptions = {
      keepAlive: true,
      maxSockets: MAX_SOCKETS_PER_HOST,
      timeout: IDLE_SOCKET_MS,
      scheduling: 'lifo' as const,
    };
    this.http = new ConnectTimeoutHttpAgent(agentOptions, options.connectTimeoutMs);
    this.https = new ConnectTimeoutHttpsAgent(agentOptions, options.connectTimeoutMs);
  }

  destroy(): void {
    this.http.destroy();
    this.https.destroy();
  }

  onModuleDestroy(): void {
    this.destroy();
  }
}
