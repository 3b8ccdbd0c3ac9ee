import { NestApplicationOptions, StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import * as http from 'http';
import { fastPathsOn } from '../config/fast-paths';
import { expressMessageClasses } from '../internals/express-internals';

export interface ClientTimeouts {
  /** The request headers must arrive within this (ms). */
  headersMs: number;
  /** The whole request, body included, must arrive within this (ms). */
  requestMs: number;
  /** An idle keep-alive connection is closed after this (ms); Node's default (5 s) when absent. */
  keepAliveMs?: number;
}

/** Takes a JSON answer's text and returns the text to send; must keep it valid JSON. */
export type AnswerRewriter = (req: Request, json: string) => string;

/**
 * Express under Nest, on an HTTP server that cuts off slow-header and slow-body clients, so a
 * few of them cannot hold connections and memory for long. Node checks these deadlines only every
 * `connectionsCheckingInterval`, which can be set only when the server is created: hence this
 * adapter instead of setting the timeouts after the fact. With fast paths on (`FAST_PATHS`), the
 * same server builds each request and response with Express's prototypes already in place (see
 * `expressMessageClasses`).
 *
 * Hand-written because: Nest's adapter cannot pass `connectionsCheckingInterval` to the server it
 * creates; the message classes are a speed piece (docs/hand-written.md). This is
 * the one file that relies on how Nest's Express adapter creates its server (`initHttpServer` sets
 * `httpServer`); its spec fails when the installed version no longer does.
 */
export class TimedExpressAdapter extends ExpressAdapter {
  private readonly afterRoutes: Array<() => void> = [];
  /** `FAST_PATHS` when the adapter was made: the message classes. */
  private readonly fast = fastPathsOn('express-classes');

  constructor(private readonly timeouts: ClientTimeouts) {
    super();
  }

  /**
   * Routes to register once the application's own are (the API documentation): Express tries its
   * routes in order, so every API request would otherwise first be matched against each of them.
   * They still come before the 404 handler, which Nest registers last.
   */
  registerAfterRoutes(register: () => void): void {
    this.afterRoutes.push(register);
  }

  override setNotFoundHandler(handler: Parameters<ExpressAdapter['setNotFoundHandler']>[0], prefix?: string): unknown {
    for (const register of this.afterRoutes.splice(0)) register();
    return super.setNotFoundHandler(handler, prefix);
  }

  override initHttpServer(options: NestApplicationOptions): void {
    // HTTPS and forced connection closing keep Nest's own server (the gateway uses neither).
    if (options?.httpsOptions || options?.forceCloseConnections) return super.initHttpServer(options);
    const { headersMs, requestMs, keepAliveMs } = this.timeouts;
    this.httpServer = http.createServer(
      {
        // Requests and responses born with Express's prototypes (see expressMessageClasses).
        ...(this.fast ? expressMessageClasses(this.getInstance()) : {}),
        ...(keepAliveMs ? { keepAliveTimeout: keepAliveMs } : {}),
        headersTimeout: headersMs,
        // Node requires the request deadline to be at least the headers deadline.
        requestTimeout: Math.max(requestMs, headersMs),
        connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersMs / 2))),
        // Node would answer a missing Host with an empty 400; the gateway's middleware answers it with its error object.
        requireHostHeader: false,
      },
      this.getInstance(),
    );
  }

  private rewrite?: AnswerRewriter;

  /** One rewrite of every JSON answer's text with its request in hand (e.g. URLs on the request's own host). */
  setAnswerRewriter(rewrite: AnswerRewriter | undefined): void {
    this.rewrite = rewrite;
  }

  /**
   * A handler's object answer goes to Nest's own reply (Express's `res.json`), unless an answer
   * rewriter is set: then its JSON text is rewritten and sent as `res.json` would send it. Whatever
   * Express's rules could change (a conditional request, a status without a body, a Content-Type
   * already chosen, HEAD, files, strings, buffers, errors) is never rewritten.
   */
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!this.rewrite || !isPlainAnswer(response, body, statusCode)) return super.reply(response, body, statusCode);
    const json = JSON.stringify(body);
    if (json === undefined) return super.reply(response, body, statusCode);
    if (statusCode) response.status(statusCode);
    // The header's final form and UTF-8 bytes: Express then sends them as they are, where a string
    // would have it parse and rebuild the Content-Type on every answer.
    response.setHeader('Content-Type', JSON_TYPE);
    return response.send(Buffer.from(this.rewrite(response.req, json), 'utf8'));
  }
}

/** What Express's `res.json` sends as the Content-Type. */
const JSON_TYPE = 'application/json; charset=utf-8';

function isPlainAnswer(response: Response, body: unknown, statusCode: number | undefined): boolean {
  if (
    body === null ||
    typeof body !== 'object' ||
    body instanceof StreamableFile ||
    body instanceof Error ||
    ArrayBuffer.isView(body)
  )
    return false;
  const status = statusCode ?? response.statusCode;
  if (status === 204 || status === 205 || status === 304) return false;
  const headers = response.req.headers;
  if (
    response.req.method === 'HEAD' ||
    headers['if-none-match'] !== undefined ||
    headers['if-modified-since'] !== undefined
  )
    return false;
  return !response.hasHeader('Content-Type');
}
