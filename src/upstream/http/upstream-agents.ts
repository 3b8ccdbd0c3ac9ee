import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { ConnectTimeoutHttpAgent, ConnectTimeoutHttpsAgent } from './connect-timeout-agents';
import { UPSTREAM_HTTP_OPTIONS, UpstreamHttpOptions } from './upstream-http-options';

/** Sockets per upstream host; generous, because the sync worker polls many tasks at once. */
const MAX_SOCKETS_PER_HOST = 128;
/** Idle keep-alive sockets are closed after this; below common server keep-alive windows (Node: 5 s) to dodge reuse races. */
const IDLE_SOCKET_MS = 4_000;

/** One keep-alive pool per protocol, its new connections held to the connect time limit. */
export interface AgentPair {
  readonly http: ConnectTimeoutHttpAgent;
  readonly https: ConnectTimeoutHttpsAgent;
}

/**
 * The keep-alive agents every upstream call goes through; destroyed with the module so no socket
 * outlives the app. API calls (creates, polls, session calls) and file downloads have pools of
 * their own: a download may hold its socket for minutes (a large file, a slow CDN), and a vendor's
 * files often come from the API's own host, so a shared pool let downloads take every socket a
 * create needed.
 */
@Injectable()
export class UpstreamAgents implements OnModuleDestroy {
  readonly http: ConnectTimeoutHttpAgent;
  readonly https: ConnectTimeoutHttpsAgent;
  /** The file downloads' pool (kept results, files served before a copy is kept). */
  readonly files: AgentPair;

  constructor(@Inject(UPSTREAM_HTTP_OPTIONS) options: UpstreamHttpOptions) {
    const api = agentPair(options.connectTimeoutMs);
    this.http = api.http;
    this.https = api.https;
    this.files = agentPair(options.connectTimeoutMs);
  }

  destroy(): void {
    for (const agent of [this.http, this.https, this.files.http, this.files.https]) agent.destroy();
  }

  onModuleDestroy(): void {
    this.destroy();
  }
}

function agentPair(connectTimeoutMs: number): AgentPair {
  const agentOptions = {
    keepAlive: true,
    maxSockets: MAX_SOCKETS_PER_HOST,
    timeout: IDLE_SOCKET_MS,
    scheduling: 'lifo' as const,
  };
  return {
    http: new ConnectTimeoutHttpAgent(agentOptions, connectTimeoutMs),
    https: new ConnectTimeoutHttpsAgent(agentOptions, connectTimeoutMs),
  };
}
