/** What a family handler tells the HTTP layer to do with a request. */
export type SimAnswer =
  | { kind: 'json'; status: number; body: unknown }
  /** Never answer: the socket stays open until the simulator closes (the `sim:hang` marker). */
  | { kind: 'hang' };

export function json(status: number, body: unknown): SimAnswer {
  return { kind: 'json', status, body };
}

export const HANG: SimAnswer = { kind: 'hang' };

/** One request as a family handler sees it. */
export interface SimRequest {
  method: string;
  pathname: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** Set when the body was not valid JSON (the family answers it with its native 400). */
  bodyError?: string;
}

export type SimHandler = (request: SimRequest) => SimAnswer | Promise<SimAnswer>;

/** The native error bodies of one upstream family, by HTTP status. */
export interface NativeErrors {
  badRequest(message: string): SimAnswer;
  unauthorized(message: string): SimAnswer;
  notFound(message: string): SimAnswer;
  throttled(message: string): SimAnswer;
  internal(message: string): SimAnswer;
}

/** Reads one header as a single string (first value when repeated). */
export function headerValue(request: SimRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
