import { QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-unavailable';

/** A driver error as pg or better-sqlite3 raise it: a message and a code. */
function driverError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code ? { code } : {});
}

describe('isDatabaseUnavailable', () => {
  it.each([
    ['PostgreSQL shutting down (57P01)', driverError('terminating connection due to administrator command', '57P01')],
    ['PostgreSQL starting up (57P03)', driverError('the database system is starting up', '57P03')],
    ['PostgreSQL out of connections (53300)', driverError('sorry, too many clients already', '53300')],
    ['a connection exception (08006)', driverError('connection failure', '08006')],
    ['a refused connection', driverError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a reset connection', driverError('read ECONNRESET', 'ECONNRESET')],
    ['a connection pg saw end', driverError('Connection terminated unexpectedly')],
    ['no connection within the pool timeout', driverError('timeout exceeded when trying to connect')],
    [
      'a client broken by an earlier error',
      driverError('Client has encountered a connection error and is not queryable'),
    ],
    ['a transaction whose connection failed (TypeORM released its runner)', new QueryRunnerAlreadyReleasedError()],
    ['SQLite locked by another process', driverError('database is locked', 'SQLITE_BUSY')],
  ])('is true for %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('looks inside TypeORM’s QueryFailedError, a cause and a parallel connect’s AggregateError', () => {
    const refused = driverError('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED');
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], refused))).toBe(true);
    expect(isDatabaseUnavailable(new Error('outer', { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([refused], 'all attempts failed'))).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', new QueryFailedError('INSERT', [], driverError('duplicate key', '23505'))],
    ['a syntax error (42601)', driverError('syntax error at or near "SELEC"', '42601')],
    [
      'a statement cancelled by its timeout (57014)',
      driverError('canceling statement due to statement timeout', '57014'),
    ],
    ['a SQLite constraint', driverError('UNIQUE constraint failed: tasks.id', 'SQLITE_CONSTRAINT_UNIQUE')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error at all', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('is false for %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('ends on an error that names itself as its cause', () => {
    const loop: Error & { cause?: unknown } = new Error('loop');
    loop.cause = loop;
    expect(isDatabaseUnavailable(loop)).toBe(false);
  });
});
