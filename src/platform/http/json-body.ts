import { json } from 'express';
import type { Request, Response } from 'express';
import { GatewayError } from '../errors';
import { bodyShapeProblem } from './input-shape';
import { findJsonSyntaxProblem } from './json-syntax';
import { MAX_BODY_VALUES, countJsonValues } from './json-values';

const ANY_TYPE = (): boolean => true;
/** `application/json` with any parameters, in any case (what `req.is` accepts), for a request without a body. */
const JSON_TYPE = /^\s*application\/json\s*(;|$)/i;
const EMPTY = 'entity.empty';
const TOO_MANY_VALUES = 'entity.too.many.values';

/** Reads a body of another type (the route's own parser with its own caps) into `req.body`. */
export type OtherBodyReader = (req: Request, res: Response) => Promise<void>;

export interface BodyRules {
  /** The route's body limit: a larger Content-Length, or a body that grows past it, is 413. */
  limitBytes: number;
  /** The route's reader of `multipart/form-data` bodies, where it takes them; JSON to it is read here as everywhere. */
  multipart?: OtherBodyReader;
}

type BodyParser = ReturnType<typeof json>;
/** body-parser's readers by limit (one per route kind): for sized bodies, and for chunked ones. */
const parsers = new Map<number, { sized: BodyParser; chunked: BodyParser }>();

/**
 * Reads the JSON body of a POST, PUT or PATCH into `req.body`, or rejects with the gateway error
 * that says why it cannot: the Content-Type must be `application/json` (400), an empty body is 400
 * saying so, malformed JSON is 400 naming where it goes wrong, a body over the route's limit or
 * holding more than MAX_BODY_VALUES values is 413. Called once the route's credential is known
 * (`RequestBodyGuard`): nothing is read for a caller who would be refused.
 *
 * body-parser (Express's `json`) reads it; its error types map to the gateway's errors.
 */
export async function readRequestBody(req: Request, res: Response, rules: BodyRules): Promise<void> {
  const { limitBytes } = rules;
  const headers = req.headers;
  const length = headers['content-length'];
  // Refused unread; the error writer lets the body arrive before it answers.
  if (Number(length ?? 0) > limitBytes) throw tooLarge(req, limitBytes);
  if (rules.multipart && req.is('multipart/form-data')) return rules.multipart(req, res);
  const chunked = headers['transfer-encoding'] !== undefined;
  const type = headers['content-type'];
  if ((length === '0' || (length === undefined && !chunked)) && JSON_TYPE.test(type ?? '')) throw emptyBody();
  if (!req.is('application/json')) throw GatewayError.invalid('Content-Type must be application/json.', null);
  const parse = parsersFor(limitBytes)[chunked ? 'chunked' : 'sized'];
  const failure = await new Promise<{ type?: string; body?: unknown } | undefined>((resolve) =>
    parse(req, res, resolve as (error?: unknown) => void),
  );
  if (failure) throw readFailure(req, failure, limitBytes);
  const problem = bodyShapeProblem(req.body);
  if (problem) throw GatewayError.invalid(problem.message, problem.param);
}

function parsersFor(limitBytes: number): { sized: BodyParser; chunked: BodyParser } {
  let found = parsers.get(limitBytes);
  if (!found) {
    // The type was checked before: body-parser need not check it again. body-parser reads an
    // empty body as `{}`: a sized body is known empty from its Content-Length, a chunked one only
    // once read, so only those pay for a look at the raw bytes.
    found = {
      sized: json({ limit: limitBytes, strict: false, type: ANY_TYPE, verify: refuseTooManyValues }),
      chunked: json({
        limit: limitBytes,
        strict: false,
        type: ANY_TYPE,
        verify: (req, res, raw, encoding) => {
          refuseBlank(raw);
          refuseTooManyValues(req, res, raw, encoding);
        },
      }),
    };
    parsers.set(limitBytes, found);
  }
  return found;
}

function readFailure(req: Request, error: { type?: string; body?: unknown }, limitBytes: number): GatewayError {
  const type = error.type;
  if (type === 'entity.too.large') return tooLarge(req, limitBytes);
  if (type === TOO_MANY_VALUES) return tooManyValues();
  if (type === EMPTY) return emptyBody();
  if (type === 'entity.parse.failed') return notJson(error.body);
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return GatewayError.invalid('Unsupported body encoding or charset.');
  }
  return GatewayError.invalid('The request body could not be read.');
}

function isBlank(text: Buffer | string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = typeof text === 'string' ? text.charCodeAt(i) : text[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
  }
  return true;
}

function refuseBlank(raw: Buffer): void {
  if (isBlank(raw)) throw Object.assign(new Error('empty body'), { type: EMPTY });
}

/** body-parser's `verify`: the raw body (inflated, not yet decoded) is counted before it is parsed. */
function refuseTooManyValues(_req: unknown, _res: unknown, raw: Buffer, encoding: string): void {
  const utf8 = /^utf-?8$/i.test(encoding) ? raw : Buffer.from(new TextDecoder(encoding).decode(raw), 'utf8');
  if (countJsonValues(utf8, MAX_BODY_VALUES) > MAX_BODY_VALUES)
    throw Object.assign(new Error('too many values'), { type: TOO_MANY_VALUES });
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

/** A body too large for its route (by its length or by its values); the rest of it is drained unread. */
export function tooLarge(req: Request, limitBytes: number): GatewayError {
  // Stop reading a huge upload we will not use.
  req.unpipe?.();
  req.resume();
  return new GatewayError(413, 'request_too_large', `The request body exceeds ${limitBytes} bytes.`);
}

export function tooManyValues(): GatewayError {
  return new GatewayError(
    413,
    'request_too_large',
    `The request body holds more than ${MAX_BODY_VALUES} JSON values (array elements and object members).`,
  );
}
