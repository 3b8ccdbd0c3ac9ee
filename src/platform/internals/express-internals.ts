import type { Express } from 'express';
import * as http from 'http';

export interface MessageClasses {
  IncomingMessage: typeof http.IncomingMessage;
  ServerResponse: typeof http.ServerResponse;
}

/**
 * The one file that relies on Express's internals (pinned in package.json; the spec beside it fails
 * when the installed version no longer behaves as relied on).
 */

/**
 * Request and response constructors for an HTTP server in front of `app`, whose objects are born
 * with the app's `request` / `response` prototypes. Express gives every request and response
 * those prototypes on arrival (`Object.setPrototypeOf`); done to a fresh object on every request,
 * that made V8 keep each request's whole object graph through young-generation collections
 * (docs/hand-written.md, "Express request and response classes"). Express's own
 * call then finds the prototype already in place, which V8 answers without a change.
 * See nodejs/node#37457 and expressjs/express#5998.
 *
 * Plain constructor functions, not classes: a class's `prototype` cannot be replaced, and the
 * instance's prototype must be the app's object itself for Express's call to be a no-op.
 *
 * Relies on: `app.request` / `app.response` being the prototypes Express gives its requests and
 * responses, set with `Object.setPrototypeOf` on arrival.
 *
 * Hand-written because: gateway CPU per request (docs/hand-written.md, "Express request and response
 * classes"). Off with `FAST_PATHS=false`.
 */
export function expressMessageClasses(app: Express): MessageClasses {
  function GatewayIncomingMessage(
    this: http.IncomingMessage,
    ...args: ConstructorParameters<typeof http.IncomingMessage>
  ): void {
    http.IncomingMessage.apply(this, args);
  }
  GatewayIncomingMessage.prototype = app.request;

  function GatewayServerResponse(
    this: http.ServerResponse,
    ...args: ConstructorParameters<typeof http.ServerResponse>
  ): void {
    http.ServerResponse.apply(this, args);
  }
  GatewayServerResponse.prototype = app.response;

  return {
    IncomingMessage: GatewayIncomingMessage as unknown as typeof http.IncomingMessage,
    ServerResponse: GatewayServerResponse as unknown as typeof http.ServerResponse,
  };
}

const HOOKED = Symbol('gateway.beforeHeaders');

/**
 * Runs `hook` on every response of `app` just before its headers go out: one `writeHead` on the
 * app's response prototype (Express gives each response that prototype) instead of a closure
 * patched onto each response. With fast paths off (`FAST_PATHS=false`), `beforeHeaders` does it
 * per response instead.
 *
 * Relies on: `app.response` being the prototype of every response the app serves.
 */
export function beforeHeadersOfEveryResponse(app: Express, hook: (res: http.ServerResponse) => void): void {
  patchWriteHead(app.response as unknown as http.ServerResponse, hook);
}

/** Runs `hook` on `res` just before its headers go out (Node's public `writeHead`, wrapped on the response itself). */
export function beforeHeaders(res: http.ServerResponse, hook: (res: http.ServerResponse) => void): void {
  patchWriteHead(res, hook);
}

function patchWriteHead(target: http.ServerResponse, hook: (res: http.ServerResponse) => void): void {
  const marked = target as http.ServerResponse & { [HOOKED]?: true };
  if (Object.prototype.hasOwnProperty.call(marked, HOOKED)) return;
  const writeHead = target.writeHead;
  target.writeHead = function writeHeadWithHook(
    this: http.ServerResponse,
    statusCode: number,
    reason?: unknown,
    headers?: unknown,
  ) {
    if (!this.headersSent) hook(this);
    return (writeHead as (this: http.ServerResponse, ...args: unknown[]) => http.ServerResponse).call(
      this,
      statusCode,
      reason,
      headers,
    );
  } as typeof target.writeHead;
  Object.defineProperty(marked, HOOKED, { value: true });
}
