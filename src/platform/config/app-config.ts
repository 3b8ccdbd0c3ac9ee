import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateBy,
  ValidationArguments,
  validateSync,
} from 'class-validator';
import { isIP } from 'net';
import { DEFAULT_PG_CONNECT_TIMEOUT_MS, DEFAULT_PG_POOL_SIZE } from '../database/data-source-options';
import { FAST_PATH_PIECES, FastPathPiece } from './fast-paths';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : value === true || value === 'true' || value === '1'
      ? true
      : value === false || value === 'false' || value === '0'
        ? false
        : value;

/** What `TRUST_PROXY` may be, in the form Express's `trust proxy` setting takes it. */
export type TrustProxy = false | number | string[];

/** Express's names for address ranges (`loopback`: 127.0.0.1/8 and ::1; `linklocal`; `uniquelocal`: the private ranges). */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

const toTrustProxy = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (/^false$/i.test(text)) return false;
  if (/^true$/i.test(text)) return true;
  if (/^\d+$/.test(text)) return Number(text);
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
};

/** An address, a CIDR block (a prefix of 0 would be every address) or one of Express's range names. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || address.includes('%') || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * `true` is refused: every peer would be believed, so any client could name its own address (and
 * so dodge the admin lockout and write what it likes into the audit trail).
 */
function IsTrustProxy(): PropertyDecorator {
  return ValidateBy({
    name: 'isTrustProxy',
    validator: {
      validate: (value: unknown) =>
        value === false ||
        (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) ||
        (Array.isArray(value) && value.length > 0 && value.every((entry) => isProxyEntry(String(entry)))),
      defaultMessage: (args?: ValidationArguments) =>
        args?.value === true
          ? 'TRUST_PROXY must not be true (any client could name its own address): name the proxies (addresses, CIDRs, loopback, linklocal, uniquelocal) or their number'
          : 'TRUST_PROXY must be false, a number of proxies (1 or more), or a comma-separated list of addresses, CIDRs, loopback, linklocal, uniquelocal',
    },
  });
}

/**
 * Every environment variable the gateway reads (the documented ones and operational knobs), typed and
 * validated at start. Upstream channel variables are read by `upstream/channel-routing`.
 */
export class AppConfig {
  @Transform(toInt) @IsInt() @Min(0) @Max(65535) PORT = 3000;
  @IsOptional()
  @IsString()
  @Matches(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, { message: 'DATABASE_URL must be sqlite:<path> or postgres://...' })
  DATABASE_URL?: string;
  /** PostgreSQL connections per instance (each instance has its own pool; mind the server's max_connections). */
  @Transform(toInt) @IsInt() @Min(1) @Max(1000) DATABASE_POOL_SIZE = DEFAULT_PG_POOL_SIZE;
  /** PostgreSQL: longest wait for a connection (pool or new) before the request is answered 503 with Retry-After. */
  @Transform(toInt) @IsInt() @Min(100) @Max(60_000) DATABASE_CONNECT_TIMEOUT_MS = DEFAULT_PG_CONNECT_TIMEOUT_MS;
  @IsOptional()
  @IsString()
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be redis://host:port/db' })
  REDIS_URL?: string;
  @IsOptional()
  @IsString()
  @Matches(/^.{16,}$/, { message: 'ADMIN_TOKEN must be at least 16 characters' })
  ADMIN_TOKEN?: string;
  @IsOptional()
  @IsString()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'PUBLIC_BASE_URL must be an http(s) URL' })
  PUBLIC_BASE_URL?: string;
  @Transform(toInt) @IsInt() @Min(1) SIM_TASK_MS = 3000;
  @IsOptional() @Transform(toBool) @IsBoolean() DEMO_SEED?: boolean;
  @Transform(toBool) @IsBoolean() MIGRATIONS_RUN = true;
  @Transform(toBool) @IsBoolean() CALLBACK_ALLOW_PRIVATE = false;
  /**
   * Media URLs may point to loopback, private, link-local or metadata addresses: the images the gateway reads the
   * first bytes of (kl editing images), and the media it passes on for the upstream to fetch (every other media
   * URL). Tests and local demos only.
   */
  @Transform(toBool) @IsBoolean() MEDIA_FETCH_ALLOW_PRIVATE = false;
  /**
   * Single sign-on for the console (off unless OIDC_ISSUER_URL is set): the OpenID Connect issuer,
   * the gateway's client there, and the claim naming each person's role (a role name, or a list of
   * them: the strongest counts). A person whose claim names no role gets OIDC_DEFAULT_ROLE, or no entry.
   */
  @IsOptional()
  @IsString()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'OIDC_ISSUER_URL must be an http(s) URL' })
  OIDC_ISSUER_URL?: string;
  @IsOptional() @IsString() @Matches(/\S/, { message: 'OIDC_CLIENT_ID must not be blank' }) OIDC_CLIENT_ID?: string;
  @IsOptional() @IsString() OIDC_CLIENT_SECRET?: string;
  @IsString() @Matches(/^\S+$/, { message: 'OIDC_ROLE_CLAIM must be a claim name' }) OIDC_ROLE_CLAIM = 'gateway_role';
  @IsOptional() @IsIn(['viewer', 'operator', 'admin', 'owner']) OIDC_DEFAULT_ROLE?: string;
  @IsString() OIDC_SCOPES = 'openid profile email';
  /** Where the issuer sends people back; unset: PUBLIC_BASE_URL (or the request's host) + /console/sso/callback. */
  @IsOptional()
  @IsString()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'OIDC_REDIRECT_URL must be an http(s) URL' })
  OIDC_REDIRECT_URL?: string;
  /** How long a console sign-in lasts (seconds). */
  @Transform(toInt) @IsInt() @Min(60) @Max(7 * 86400) CONSOLE_SESSION_TTL_S = 8 * 3600;
  /** Failed admin authentications one client address may make per 10 minutes before it is refused (429). */
  @Transform(toInt) @IsInt() @Min(1) @Max(1_000_000) ADMIN_AUTH_MAX_FAILURES = 20;
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL = 'info';
  /** `auto`: human-readable lines when stdout is a terminal, JSON lines otherwise. */
  @IsIn(['auto', 'json', 'pretty']) LOG_FORMAT: LogFormat = 'auto';
  /**
   * Where the generated admin token is kept when ADMIN_TOKEN is unset (created with mode 0600, reused at every start).
   */
  @IsString() @Matches(/\S/, { message: 'ADMIN_TOKEN_FILE must be a file path' }) ADMIN_TOKEN_FILE = 'data/admin-token';
  /** Body limit of the routes that take Base64 media inline (the family creates), bytes (413 above). */
  @Transform(toInt) @IsInt() @Min(1024) BODY_LIMIT_BYTES = 64 * 1024 * 1024;
  /** Body limit of every other route that reads a body (sessions, voices, the admin API), bytes (413 above). */
  @Transform(toInt) @IsInt() @Min(1024) SMALL_BODY_LIMIT_BYTES = 1024 * 1024;
  /**
   * Scavenge V8's young generation when no request is in flight and it is three quarters full, so that the pause falls
   * between requests. Needs node's `--expose-gc`, which `npm start` and the Docker image do not pass
   * (docs/hand-written.md, "idle scavenges"); and fast paths on (`FAST_PATHS`).
   */
  @Transform(toBool) @IsBoolean() IDLE_SCAVENGE = true;
  /**
   * The hand-written speed pieces (docs/hand-written.md). `false`: every one of them gives way to its
   * library's own public path, with the same answers (the fallback when an upgrade breaks one).
   */
  @Transform(toBool) @IsBoolean() FAST_PATHS = true;
  /**
   * Speed pieces turned off by name, comma-separated (the rest stay on): one a library upgrade
   * broke, or one measured alone. The names: `FAST_PATH_PIECES` (src/platform/config/fast-paths.ts).
   */
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((piece) => piece.trim())
          .filter(Boolean)
      : value,
  )
  @IsIn(FAST_PATH_PIECES, { each: true, message: `FAST_PATHS_OFF names pieces among: ${FAST_PATH_PIECES.join(', ')}` })
  FAST_PATHS_OFF: FastPathPiece[] = [];
  /** Requests per minute for accounts without their own `rate_limit_rpm`. */
  @Transform(toInt) @IsInt() @Min(1) DEFAULT_RATE_LIMIT_RPM = 600;
  /** In-flight tasks for accounts without their own `max_concurrent_tasks`. */
  @Transform(toInt) @IsInt() @Min(1) DEFAULT_MAX_CONCURRENT_TASKS = 50;
  /** A task still not terminal this long after creation fails with a reason. */
  @Transform(toInt) @IsInt() @Min(1000) TASK_DEADLINE_MS = 24 * 3600 * 1000;
  @Transform(toInt) @IsInt() @Min(10) SYNC_INTERVAL_MS = 100;
  @Transform(toInt) @IsInt() @Min(1) @Max(1000) SYNC_BATCH_SIZE = 50;
  /** Upstream polls in flight at once (sized for the upstream's latency). */
  @Transform(toInt) @IsInt() @Min(1) @Max(256) SYNC_CONCURRENCY = 16;
  /**
   * Of those, how many write their outcome (update, settlement) at once, so that a burst of answers
   * is written a few at a time. Unset: 4 on PostgreSQL (each write holds a pooled connection), no
   * bound on SQLite (the writes of one turn share a group commit and hold nothing). See TaskSyncService.
   */
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(256) SYNC_WRITE_CONCURRENCY?: number;
  /** First delay between polls of one task; grows 1.5x per poll up to SYNC_POLL_MAX_MS. */
  @Transform(toInt) @IsInt() @Min(10) SYNC_POLL_BASE_MS = 1000;
  @Transform(toInt) @IsInt() @Min(10) SYNC_POLL_MAX_MS = 60000;
  /**
   * Time a task's polls from how long recent tasks of its kind took on this instance (the first at a
   * low quantile of them, then the back-off); false: the back-off from SYNC_POLL_BASE_MS alone.
   */
  @Transform(toBool) @IsBoolean() SYNC_FIRST_POLL_LEARNED = true;
  /** First retry delay of a client callback; doubles per attempt. */
  @Transform(toInt) @IsInt() @Min(10) CALLBACK_RETRY_BASE_MS = 5000;
  @Transform(toInt) @IsInt() @Min(1) @Max(30) CALLBACK_MAX_ATTEMPTS = 10;
  @Transform(toInt) @IsInt() @Min(100) CALLBACK_TIMEOUT_MS = 10000;
  /** A client must send its request headers within this time (slow-header clients are cut off). */
  @Transform(toInt) @IsInt() @Min(100) CLIENT_HEADERS_TIMEOUT_MS = 10000;
  /** A client must send its whole request, body included, within this time (slow-body clients are cut off). */
  @Transform(toInt) @IsInt() @Min(100) CLIENT_REQUEST_TIMEOUT_MS = 60000;
  /**
   * An idle keep-alive connection is closed after this. Above the 60 s idle timeout of common load
   * balancers and client pools: with Node's 5 s default, a client reusing a connection the gateway
   * was just closing got a reset (a create then cannot know whether it went through).
   */
  @Transform(toInt) @IsInt() @Min(1000) CLIENT_KEEP_ALIVE_TIMEOUT_MS = 65000;
  /**
   * The proxies in front of the gateway whose `X-Forwarded-For` names the client (Express's `trust
   * proxy`): a number of hops, or addresses, CIDRs and `loopback`, `linklocal`, `uniquelocal`. The
   * client's address keys the admin lockout and is written in the audit trail; `false`: the
   * connection's own peer, as a gateway that clients reach directly must use (the header is the
   * client's to write).
   */
  @Transform(toTrustProxy) @IsTrustProxy() TRUST_PROXY: TrustProxy = false;
  /** Timeout of an upstream create call (ms). */
  @Transform(toInt) @IsInt() @Min(50) UPSTREAM_TIMEOUT_MS = 30000;
  @Transform(toInt) @IsInt() @Min(50) UPSTREAM_CONNECT_TIMEOUT_MS = 5000;
  @Transform(toInt) @IsInt() @Min(50) UPSTREAM_READ_TIMEOUT_MS = 10000;
  /** Channels one create may try when each refuses it before taking it (1: no failover). */
  @Transform(toInt) @IsInt() @Min(1) @Max(20) UPSTREAM_FAILOVER_MAX = 3;
  /** How often the reconciliation sweep runs (terminal tasks still holding money, drifted in-flight counts). */
  @Transform(toInt) @IsInt() @Min(10) RECONCILE_INTERVAL_MS = 60000;
  /** Run the background workers (sync, callbacks, sweeps) in this process. */
  @Transform(toBool) @IsBoolean() WORKERS_ENABLED = true;
  @IsOptional() @IsString() PRICES_FILE?: string;
  /** Where finished tasks' files are kept: `fs` (RESULT_STORE_DIR), `s3` (RESULT_S3_*), or `off` (upstream URLs passed through). */
  @IsIn(['fs', 's3', 'off']) RESULT_STORE: 'fs' | 's3' | 'off' = 'fs';
  @IsString() @Matches(/\S/, { message: 'RESULT_STORE_DIR must be a directory path' }) RESULT_STORE_DIR =
    'data/results';
  @IsOptional() @IsString() RESULT_S3_BUCKET?: string;
  @IsOptional()
  @IsString()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'RESULT_S3_ENDPOINT must be an http(s) URL' })
  RESULT_S3_ENDPOINT?: string;
  @IsString() RESULT_S3_REGION = 'us-east-1';
  @Transform(toBool) @IsBoolean() RESULT_S3_FORCE_PATH_STYLE = false;
  /** With `s3`: `proxy` streams kept files through the gateway, `redirect` answers 302 to a short presigned URL. */
  @IsIn(['proxy', 'redirect']) RESULT_SERVE: 'proxy' | 'redirect' = 'proxy';
  /** Largest file kept (bytes); a larger one stays at the upstream. */
  @Transform(toInt) @IsInt() @Min(1) RESULT_MAX_BYTES = 2 * 1024 * 1024 * 1024;
  /** Total bytes kept; when reached, new results are not kept (nothing is evicted early). 0: no limit. */
  @Transform(toInt) @IsInt() @Min(0) RESULT_STORE_MAX_BYTES = 0;
  /** Kept files are removed this many days after their task ended. */
  @Transform(toInt) @IsInt() @Min(1) RESULT_RETENTION_DAYS = 30;
  /** Lifetime of a result URL handed to a client (seconds); each query signs afresh. */
  @Transform(toInt) @IsInt() @Min(1) RESULT_URL_TTL_S = 86400;
  /** Key of result URL signatures (unset: derived from the admin token); the previous key is still accepted. */
  @IsOptional()
  @IsString()
  @Matches(/^.{16,}$/, { message: 'RESULT_URL_SECRET must be at least 16 characters' })
  RESULT_URL_SECRET?: string;
  @IsOptional()
  @IsString()
  @Matches(/^.{16,}$/, { message: 'RESULT_URL_SECRET_PREVIOUS must be at least 16 characters' })
  RESULT_URL_SECRET_PREVIOUS?: string;
  /** Downloads in flight at once per instance, and attempts before a file is given up. */
  @Transform(toInt) @IsInt() @Min(1) @Max(64) RESULT_DOWNLOAD_CONCURRENCY = 4;
  @Transform(toInt) @IsInt() @Min(1) @Max(30) RESULT_DOWNLOAD_MAX_ATTEMPTS = 8;
  /** First retry delay of a failed download (ms); doubles per attempt, with jitter. */
  @Transform(toInt) @IsInt() @Min(10) RESULT_RETRY_BASE_MS = 2000;
  /** One download's whole time limit (ms), also its lease. */
  @Transform(toInt) @IsInt() @Min(100) RESULT_DOWNLOAD_TIMEOUT_MS = 300000;
}

export type LogFormat = 'auto' | 'json' | 'pretty';

/** Type checks first: `PORT=abc` is "must be an integer", not a range complaint about NaN. */
const TYPE_CONSTRAINTS = ['isInt', 'isBoolean', 'isString', 'isIn'];
/** Values never echoed in an error (the message names the variable and the rule only). */
const SECRET_VARIABLES = new Set([
  'ADMIN_TOKEN',
  'RESULT_URL_SECRET',
  'RESULT_URL_SECRET_PREVIOUS',
  'OIDC_CLIENT_SECRET',
]);

/** Validates the environment; on a bad value throws one clear line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const known = Object.keys(new AppConfig());
  const picked: Record<string, unknown> = {};
  for (const key of [
    ...known,
    'DATABASE_URL',
    'REDIS_URL',
    'ADMIN_TOKEN',
    'PUBLIC_BASE_URL',
    'DEMO_SEED',
    'PRICES_FILE',
    'SYNC_WRITE_CONCURRENCY',
    'RESULT_S3_BUCKET',
    'RESULT_S3_ENDPOINT',
    'RESULT_URL_SECRET',
    'RESULT_URL_SECRET_PREVIOUS',
    'OIDC_ISSUER_URL',
    'OIDC_CLIENT_ID',
    'OIDC_CLIENT_SECRET',
    'OIDC_DEFAULT_ROLE',
    'OIDC_REDIRECT_URL',
  ]) {
    if (env[key] !== undefined && env[key] !== '') picked[key] = env[key];
  }
  const config = plainToInstance(AppConfig, picked, { exposeDefaultValues: true });
  const errors = validateSync(config);
  if (errors.length > 0) {
    const first = errors[0];
    const constraints = first.constraints ?? {};
    const rule = TYPE_CONSTRAINTS.find((name) => constraints[name]) ?? Object.keys(constraints)[0];
    const why = (rule && constraints[rule]) || `${first.property} is invalid`;
    throw new ConfigError(`Invalid configuration: ${shown(first.property, env[first.property])}: ${why}`);
  }
  return config;
}

/** `NAME="value"` for the error line, with secrets hidden and URL passwords masked. */
function shown(name: string, value: string | undefined): string {
  if (SECRET_VARIABLES.has(name)) return `${name} (value hidden, ${value?.length ?? 0} characters)`;
  return `${name}=${JSON.stringify(value?.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@/\s]*@/i, '$1***@'))}`;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
