import { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import * as http from 'http';

export interface ClientTimeouts {
  /** The request headers must arrive within this (ms). */
  headersMs: number;
  /** The whole request, body included, must arrive within this (ms). */
  requestMs: number;
}

/**
 * Express under Nest, on an HTTP server that cuts off slow-header and slow-body clients, so a
 * few of them cannot hold connections and memory for long. Node checks these deadlines only every
 * `connectionsCheckingInterval`, which can be set only when the server is created: hence this
 * adapter instead of setting the timeouts after the fact.
 */
export class TimedExpressAdapter extends ExpressAdapter {
  constructor(private readonly timeouts: ClientTimeouts) {
    super();
  }

  override initHttpServer(options: NestApplicationOptions): void {
    // HTTPS and forced connection closing keep Nest's own server (the gateway uses neither).
    if (options?.httpsOptions || options?.forceCloseConnections) return super.initHttpServer(options);
    const { headersMs, requestMs } = this.timeouts;
    this.httpServer = http.createServer(
      {
        headersTimeout: headersMs,
        // Node requires the request deadline to be at least the headers deadline.
        requestTimeout: Math.max(requestMs, headersMs),
        connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersMs / 2))),
      },
      this.getInstance(),
    );
  }
}
