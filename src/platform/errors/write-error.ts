import type { Request, Response } from 'express';
import { requestContext } from '../http/request-context';
import { GatewayError } from './gateway-error';
import { errorBody, familyOfPath } from './native-error-fields';

/** Writes a GatewayError as the response: status, extra headers and the family-aware body. */
export function writeGatewayError(req: Request, res: Response, err: GatewayError): void {
  const requestId = requestContext.requestId() ?? String((req as Request & { id?: string }).id ?? '');
  for (const [name, value] of Object.entries(err.options.headers ?? {})) res.setHeader(name, value);
  res.status(err.status).json(errorBody(err, familyOfPath(req.path), requestId));
}
