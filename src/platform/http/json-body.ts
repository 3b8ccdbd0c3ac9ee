import { json } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { ErrorWriter, GatewayError } from '../errors';
import { bodyShapeProblem, urlHasNul } from './input-shape';

/** Upstream callbacks authenticate by a token in the path, never a header: their bodies are always read. */
const PATH_AUTHENTICATED = /^\/callbacks(\/|$)/;
/** Content types read without body-parser (lower case, as clients send them); anything else goes through type-is and body-parser. */
const PLAIN_JSON = new Set([
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=utf-8',
  'application/json; charset=UTF-8',
]);
const ANY_TYPE = (): boolean => true;

export type BodyReader = (req: Request, res: Response, next: NextFunction) => void;

/**
 * Reads JSON bodies with the gateway's own errors: POST/PUT/PATCH must say
 * `Content-Type: application/json` (400), malformed JSON is 400 and a body over the limit 413,
 * all in the error object of the route's family. A URL with a NUL character is 400 for every method.
 *
 * The key is checked first (README "Order of checks"): a client or admin route without an
 * `Authorization` header is answered 401 by its guard whatever its body, so its body is not read.
 *
 * The usual body (plain `application/json` or UTF-8, a Content-Length, no Content-Encoding) is read
 * here directly; anything else (other charsets, compressed or chunked bodies) goes through
 * body-parser, as before.
 */
export function jsonBodyReader(limitBytes: number, errors: ErrorWriter): BodyReader {
  // The type was checked before: body-parser need not check it again.
  const parse = json({ limit: limitBytes, strict: false, type: ANY_TYPE });

  const parsed = (req: Request, res: Response, next: NextFunction): void => {
    const problem = bodyShapeProblem(req.body);
    if (problem) return errors.write(req, res, GatewayError.invalid(problem.message, problem.param));
    next();
  };

  const failed = (req: Request, res: Response, type: string | undefined): void => {
    if (type === 'entity.too.large') return writeTooLarge(errors, req, res, limitBytes);
    if (type === 'entity.parse.failed')
      return errors.write(req, res, GatewayError.invalid('The request body is not valid JSON.'));
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
    if (headers.authorization === undefined && !PATH_AUTHENTICATED.test(req.path)) return next();
    const lengthHeader = headers['content-length'];
    const declaredLength = Number(lengthHeader ?? 0);
    if (declaredLength > limitBytes) return writeTooLarge(errors, req, res, limitBytes);
    const type = headers['content-type'];
    const plain = type !== undefined && PLAIN_JSON.has(type) && lengthHeader !== undefined;
    if (!plain && !req.is('application/json'))
      return errors.write(req, res, GatewayError.invalid('Content-Type must be application/json.', null));
    if (plain && headers['content-encoding'] === undefined && headers['transfer-encoding'] === undefined) {
      return readPlain(req, declaredLength, (errorType) =>
        errorType === undefined ? parsed(req, res, next) : failed(req, res, errorType),
      );
    }
    parse(req, res, (err?: unknown) =>
      err ? failed(req, res, (err as { type?: string }).type) : parsed(req, res, next),
    );
  };
}

/**
 * Reads a body of known length as UTF-8 JSON into `req.body`, as body-parser would (BOM dropped,
 * empty body `{}`, any JSON value), and calls `done` with body-parser's error type on failure.
 */
function readPlain(req: Request, length: number, done: (errorType?: string) => void): void {
  if (length === 0) {
    req.body = {};
    return done();
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let settled = false;
  const settle = (errorType?: string): void => {
    if (settled) return;
    settled = true;
    req.removeListener('data', onData);
    finish(errorType);
  };
  const finish = (errorType?: string): void => {
    if (errorType !== undefined) return done(errorType);
    let text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received)).toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    try {
      req.body = text.length === 0 ? {} : JSON.parse(text);
    } catch {
      return done('entity.parse.failed');
    }
    done();
  };
  const onData = (chunk: Buffer): void => {
    received += chunk.length;
    chunks.push(chunk);
  };
  req.on('data', onData);
  req.on('end', () => settle(received === length ? undefined : 'request.size.invalid'));
  // A client that goes away (or is cut off by the request timeout) before the end.
  req.on('error', () => settle('request.aborted'));
  req.on('close', () => settle('request.aborted'));
}

function writeTooLarge(errors: ErrorWriter, req: Request, res: Response, limitBytes: number): void {
  errors.write(req, res, new GatewayError(413, 'request_too_large', `The request body exceeds ${limitBytes} bytes.`));
  // Stop reading a huge upload we will not use.
  req.unpipe?.();
  req.resume();
}
