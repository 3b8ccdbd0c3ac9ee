import { json } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { ErrorWriter, GatewayError } from '../errors';
import { bodyShapeProblem, urlHasNul } from './input-shape';

/** Upstream callbacks authenticate by a token in the path, never a header: their bodies are always read. */
const PATH_AUTHENTICATED = /^\/callbacks(\/|$)/;

/**
 * Parses JSON bodies with the gateway's own errors: POST/PUT/PATCH must say
 * `Content-Type: application/json` (400), malformed JSON is 400 and a body over the limit 413,
 * all in the error object of the route's family.
 *
 * The key is checked first (README "Order of checks"): a client or admin route without an
 * `Authorization` header is answered 401 by its guard whatever its body, so its body is not read.
 */
export function jsonBodyMiddleware(limitBytes: number, errors: ErrorWriter) {
  const parse = json({ limit: limitBytes, strict: false });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (urlHasNul(req.originalUrl)) return errors.write(req, res, GatewayError.invalid('The URL must not contain NUL characters.'));
    if (!['POST', 'PUT', 'PATCH'].includes(req.method)) return next();
    if (req.headers.authorization === undefined && !PATH_AUTHENTICATED.test(req.path)) return next();
    const declaredLength = Number(req.headers['content-length'] ?? 0);
    if (declaredLength > limitBytes) return writeTooLarge(errors, req, res, limitBytes);
    if (!req.is('application/json')) {
      return errors.write(req, res, GatewayError.invalid('Content-Type must be application/json.', null));
    }
    parse(req, res, (err?: unknown) => {
      if (!err) {
        const problem = bodyShapeProblem(req.body);
        return problem ? errors.write(req, res, GatewayError.invalid(problem.message, problem.param)) : next();
      }
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') return writeTooLarge(errors, req, res, limitBytes);
      if (type === 'entity.parse.failed') return errors.write(req, res, GatewayError.invalid('The request body is not valid JSON.'));
      if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
        return errors.write(req, res, GatewayError.invalid('Unsupported body encoding or charset.'));
      }
      return errors.write(req, res, GatewayError.invalid('The request body could not be read.'));
    });
  };
}

function writeTooLarge(errors: ErrorWriter, req: Request, res: Response, limitBytes: number): void {
  errors.write(req, res, new GatewayError(413, 'request_too_large', `The request body exceeds ${limitBytes} bytes.`));
  // Stop reading a huge upload we will not use.
  req.unpipe?.();
  req.resume();
}
