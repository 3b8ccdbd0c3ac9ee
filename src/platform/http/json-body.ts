import { json } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { ErrorWriter, GatewayError } from '../errors';
import { bodyShapeProblem, urlHasNul } from './input-shape';
import { findJsonSyntaxProblem } from './json-syntax';

/** Upstream callbacks authenticate by a token in the path, never a header: their bodies are always read. */
const PATH_AUTHENTICATED = /^\/callbacks(\/|$)/;
const ANY_TYPE = (): boolean => true;
/** `application/json` with any parameters, in any case (what `req.is` accepts), for a request without a body. */
const JSON_TYPE = /^\s*application\/json\s*(;|$)/i;
/** Content types read without body-parser (as clients send them); anything else goes through type-is and body-parser. */
const PLAIN_JSON = new Set([
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=utf-8',
  'application/json; charset=UTF-8',
]);

export type BodyReader = (req: Request, res: Response, next: NextFunction) => void;

/**
 * Reads JSON bodies with the gateway's own errors: POST/PUT/PATCH must say
 * `Content-Type: application/json` (400), an empty body is 400 saying so, malformed JSON is 400
 * naming where it goes wrong, and a body over the limit 413, all in the error object of the route's
 * family. A URL with a NUL character is 400 for every method.
 *
 * The key is checked first (README "Order of checks"): a client or admin route without an
 * `Authorization` header is answered 401 by its guard whatever its body, so its body is not read.
 *
 * The usual body (plain `application/json` or UTF-8, a Content-Length, no Content-Encoding) is read
 * by `readPlain`; anything else (other charsets, compressed or chunked bodies) by body-parser
 * (Express's `json`), whose error types map to the gateway's errors.
 * `multipartPaths`: routes that read their own `multipart/form-data` POST bodies (with their own caps);
 * JSON to them is read here as everywhere.
 */
export function jsonBodyReader(
  limitBytes: number,
  errors: ErrorWriter,
  multipartPaths: readonly string[] = [],
): BodyReader {
  // The type was checked before: body-parser need not check it again.
  const parse = json({ limit: limitBytes, strict: false, type: ANY_TYPE });
  // body-parser reads an empty body as `{}`. A sized body is known empty from its Content-Length; a
  // chunked one only once read, so only those pay for a look at the raw bytes.
  const parseChunked = json({ limit: limitBytes, strict: false, type: ANY_TYPE, verify: refuseBlank });

  const parsed = (req: Request, res: Response, next: NextFunction): void => {
    const problem = bodyShapeProblem(req.body);
    if (problem) return errors.write(req, res, GatewayError.invalid(problem.message, problem.param));
    next();
  };

  const failed = (req: Request, res: Response, error: { type?: string; body?: unknown }): void => {
    const type = error.type;
    if (type === 'entity.too.large') return writeTooLarge(errors, req, res, limitBytes);
    if (type === EMPTY) return errors.write(req, res, emptyBody());
    if (type === 'entity.parse.failed') return errors.write(req, res, notJson(error.body));
    if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
      return errors.write(req, res, GatewayError.invalid('Unsupported body encoding or charset.'));
    }
    errors.write(req, res, GatewayError.invalid('The request body could not be read.'));
  };

  return function readJsonBody(req: Request, res: Response, next: NextFunction): void {
    if (urlHasNul(req.originalUrl))
      return errors.write(req, res, GatewayError.invalid('The URL must not contain NUL characters.'));
    const method = req.method;
    if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return next();
    const headers = req.headers;
    const callback = PATH_AUTHENTICATED.test(req.path);
    if (headers.authorization === undefined && !callback) return next();
    const length = headers['content-length'];
    if (Number(length ?? 0) > limitBytes) return writeTooLarge(errors, req, res, limitBytes);
    if (multipartPaths.includes(req.path) && req.is('multipart/form-data')) return next();
    const chunked = headers['transfer-encoding'] !== undefined;
    // An upstream callback's body is not used, so an empty one is no mistake.
    const empty = !callback && (length === '0' || (length === undefined && !chunked));
    if (empty && JSON_TYPE.test(headers['content-type'] ?? '')) return errors.write(req, res, emptyBody());
    const type = headers['content-type'];
    if (length !== undefined && !chunked && headers['content-encoding'] === undefined && PLAIN_JSON.has(type!)) {
      return readPlain(req, Number(length), (err) => (err ? failed(req, res, err) : parsed(req, res, next)));
    }
    if (!req.is('application/json'))
      return errors.write(req, res, GatewayError.invalid('Content-Type must be application/json.', null));
    (chunked && !callback ? parseChunked : parse)(req, res, (err?: unknown) =>
      err ? failed(req, res, err as { type?: string }) : parsed(req, res, next),
    );
  };
}

const EMPTY = 'entity.empty';

/**
 * Hand-written because: body-parser (raw-body, type-is, iconv, an async scope per body) costs a
 * create 5-8% more CPU on the usual body (see docs/hand-written.md). Reads a body of known length
 * as UTF-8 JSON into `req.body` as body-parser would (BOM dropped, any JSON value) and calls `done`
 * with body-parser's error shape on failure. An empty body reads as `{}`, as there.
 */
function readPlain(req: Request, length: number, done: (error?: { type: string; body?: string }) => void): void {
  const chunks: Buffer[] = [];
  let received = 0;
  let settled = false;
  const settle = (error?: { type: string }): void => {
    if (settled) return;
    settled = true;
    req.removeListener('data', onData);
    if (error) return done(error);
    let text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received)).toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    try {
      req.body = text.length === 0 ? {} : JSON.parse(text);
    } catch {
      return done({ type: 'entity.parse.failed', body: text });
    }
    done();
  };
  const onData = (chunk: Buffer): void => {
    received += chunk.length;
    chunks.push(chunk);
  };
  req.on('data', onData);
  req.on('end', () => settle(received === length ? undefined : { type: 'request.size.invalid' }));
  // A client that goes away (or is cut off by the request timeout) before the end.
  req.on('error', () => settle({ type: 'request.aborted' }));
  req.on('close', () => settle({ type: 'request.aborted' }));
}

function isBlank(text: Buffer | string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = typeof text === 'string' ? text.charCodeAt(i) : text[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
  }
  return true;
}

function refuseBlank(_req: unknown, _res: unknown, raw: Buffer): void {
  if (isBlank(raw)) throw Object.assign(new Error('empty body'), { type: EMPTY });
}

function emptyBody(): GatewayError {
  return GatewayError.invalid('The request body is empty; send a JSON object.', null);
}

/** Says where the JSON goes wrong; never quotes the body (it may hold private content). */
function notJson(body: unknown): GatewayError {
  if (typeof body !== 'string') return GatewayError.invalid('The request body is not valid JSON.', null);
  if (isBlank(body)) return emptyBody();
  const found = findJsonSyntaxProblem(body);
  if (!found) return GatewayError.invalid('The request body is not valid JSON.', null);
  return GatewayError.invalid(
    `The request body is not valid JSON: ${found.problem} at line ${found.line}, column ${found.column} (character ${found.position + 1}).`,
    null,
  );
}

function writeTooLarge(errors: ErrorWriter, req: Request, res: Response, limitBytes: number): void {
  errors.write(req, res, new GatewayError(413, 'request_too_large', `The request body exceeds ${limitBytes} bytes.`));
  // Stop reading a huge upload we will not use.
  req.unpipe?.();
  req.resume();
}
