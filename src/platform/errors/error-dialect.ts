import { errorTypeFor } from './error-codes';
import { GatewayError } from './gateway-error';

/**
 * A family's native error fields, added to the gateway error object so its native clients keep
 * working. Each family brings its own; the platform only picks one by path.
 */
export interface ErrorDialect {
  /** Requests under this path prefix get these fields, e.g. `/kl/`. */
  readonly pathPrefix: string;
  nativeFields(err: GatewayError, requestId: string): Record<string, unknown>;
}

/** A family's native code for each HTTP status the gateway answers with, as data. */
export interface NativeCodeTable<T> {
  readonly byStatus: Readonly<Record<number, T>>;
  readonly modelNotFound: T;
  /** A task, session or voice that does not exist for the caller. */
  readonly resourceNotFound: T;
}

/** The native code of `err` from a family's table; unlisted statuses fall back to 500's or 400's. */
export function nativeCodeOf<T>(err: GatewayError, table: NativeCodeTable<T>): T {
  if (err.status === 404) return err.code === 'model_not_found' ? table.modelNotFound : table.resourceNotFound;
  return table.byStatus[err.status] ?? (err.status >= 500 ? table.byStatus[500] : table.byStatus[400]);
}

/** The gateway error object alone: `{error: {message, type, param, code}}`. */
export function gatewayErrorObject(err: GatewayError): Record<string, unknown> {
  return { error: { message: err.message, type: errorTypeFor(err.status), param: err.param, code: err.code } };
}
