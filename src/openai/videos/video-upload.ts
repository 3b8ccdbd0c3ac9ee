import type { Request, Response } from 'express';
import multer from 'multer';
import { GatewayError } from '../../platform/errors';
import { tooManyValues } from '../../platform/http/json-body';
import { MAX_BODY_VALUES, countJsonValues } from '../../platform/http/json-values';
import { FACE_FIELDS } from './video-mapping';

/** The caps of a multipart create: one image (the largest inline image a family takes) and a few small fields. */
export const UPLOAD_LIMITS = {
  fileSize: 20 * 1024 * 1024,
  files: 1,
  fields: 64,
  fieldNameSize: 100,
  fieldSize: 1024 * 1024,
  parts: 65,
};

const parse = multer({ storage: multer.memoryStorage(), limits: UPLOAD_LIMITS }).fields([
  { name: 'input_reference', maxCount: 1 },
]);

/**
 * multer's own error codes, as the gateway's errors: a body over one of UPLOAD_LIMITS is 413, as
 * any body over its limit, saying which; `param` names the field at fault where multer knows it.
 */
function uploadError(error: unknown): GatewayError {
  const { code, field } = error as { code?: string; field?: string };
  const param = field ?? null;
  const tooLarge = (message: string): GatewayError => new GatewayError(413, 'request_too_large', message, param);
  switch (code) {
    case 'LIMIT_FILE_SIZE':
      return tooLarge(`An uploaded file may be at most ${inWords(UPLOAD_LIMITS.fileSize)}.`);
    case 'LIMIT_FIELD_VALUE':
      return tooLarge(`A form field's value may be at most ${inWords(UPLOAD_LIMITS.fieldSize)}.`);
    case 'LIMIT_FIELD_KEY':
      return tooLarge(`A form field's name may be at most ${UPLOAD_LIMITS.fieldNameSize} bytes.`);
    case 'LIMIT_FIELD_COUNT':
      return tooLarge(`A multipart create may carry at most ${UPLOAD_LIMITS.fields} fields.`);
    case 'LIMIT_PART_COUNT':
      return tooLarge(`A multipart create may carry at most ${UPLOAD_LIMITS.parts} parts (fields and files).`);
    case 'LIMIT_FILE_COUNT':
      return GatewayError.invalid('Only input_reference may be a file, and only one.', 'input_reference');
    case 'LIMIT_UNEXPECTED_FILE':
      return GatewayError.invalid(
        `Only input_reference may be a file; got a file in ${field ?? 'another field'}.`,
        param,
      );
  }
  if (code?.startsWith('LIMIT_')) return tooLarge('The multipart body is over one of its limits.');
  return GatewayError.invalid('The multipart body could not be read.');
}

/** A byte count as a client reads it: `20 MiB`, `1 MiB`. */
function inWords(bytes: number): string {
  const MiB = 1024 * 1024;
  return bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${bytes} bytes`;
}

/**
 * Values the family reads as numbers, booleans, lists or objects arrive as text in a form: a
 * native field's text that is JSON is read as JSON. The face's own fields stay as sent. The JSON of
 * all fields together may hold at most MAX_BODY_VALUES values, as a JSON body (413 beyond).
 */
function typer(): (value: unknown) => unknown {
  let budget = MAX_BODY_VALUES;
  const typed = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(typed);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typed(v)]));
    if (typeof value !== 'string' || !/^(?:true|false|null|-?\d+(?:\.\d+)?|\[.*\]|\{.*\})$/s.test(value)) return value;
    budget -= countJsonValues(value, budget);
    if (budget < 0) throw tooManyValues();
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  };
  return typed;
}

/**
 * Reads a `multipart/form-data` create (the SDK always sends one) into `req.body`, as the route's
 * body step does a JSON one (after the API key, before the other guards), so the model guard sees
 * `model` as it does in a JSON body. Nested keys (`input_reference[image_url]`) become objects.
 */
export async function readVideoUpload(req: Request, res: Response): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    parse(req, res, (error?: unknown) => (error ? reject(uploadError(error)) : resolve())),
  );
  const body = { ...(req.body as Record<string, unknown>) };
  const typed = typer();
  for (const key of Object.keys(body))
    if (!(FACE_FIELDS as readonly string[]).includes(key)) body[key] = typed(body[key]);
  req.body = body;
}
