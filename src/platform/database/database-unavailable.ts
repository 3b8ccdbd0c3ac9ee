/**
 * Whether an error means the database cannot serve now (it is down, restarting, refusing or out of
 * connections), as opposed to a statement it rejected. Such a request is worth retrying: the
 * gateway answers it 503 with `Retry-After`, never 500.
 *
 * PostgreSQL: SQLSTATE class 08 (connection exception), 57P01-57P03 (shutting down, crashed,
 * starting up), 53300 (too many connections); a socket refused, reset or timed out; pg's own
 * "Connection terminated…" and pool "timeout exceeded when trying to connect" (no connection
 * within `DATABASE_CONNECT_TIMEOUT_MS`); TypeORM's "Query runner already released", which every
 * later statement of a transaction gets once its connection failed (TypeORM releases a PostgreSQL
 * query runner when its connection emits an error, e.g. the server ended the session). SQLite: busy
 * or locked past its busy timeout (another process holds the write lock).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length) {
    const current = queue.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const { code, message, driverError, cause, errors } = current as ErrorLike;
    if (typeof code === 'string' && UNAVAILABLE_CODE.test(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    // TypeORM wraps the driver's error (QueryFailedError.driverError); Node wraps causes and parallel attempts.
    queue.push(driverError, cause, ...(Array.isArray(errors) ? errors : []));
  }
  return false;
}

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  driverError?: unknown;
  cause?: unknown;
  errors?: unknown;
}

const UNAVAILABLE_CODE =
  /^(08[0-9A-Z]{3}|57P0[123]|53300|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|SQLITE_BUSY(_\w+)?|SQLITE_LOCKED(_\w+)?)$/;

const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|Query runner already released)/;
