import * as http from 'node:http';
import * as https from 'node:https';
import { Readable, pipeline } from 'node:stream';
import * as zlib from 'node:zlib';
import axios, { AxiosError, AxiosHeaders, CanceledError } from 'axios';
import type { AxiosAdapter, AxiosInstance, AxiosResponse, InternalAxiosRequestConfig, RawAxiosHeaders } from 'axios';

export interface LeanAdapterOptions {
  readonly httpAgent: http.Agent;
  readonly httpsAgent: https.Agent;
  /** Largest (decoded) answer body; a larger one fails with `ERR_BAD_RESPONSE` and its connection is dropped. */
  readonly maxResponseBytes: number;
  /**
   * A request not wholly handed to its socket within this (waiting for a free socket of the pool,
   * connecting, writing) is destroyed with `SEND_TIMEOUT_CODE`: it never reached the upstream.
   */
  readonly sendTimeoutMs?: number;
}

/** `code` of the error a request is destroyed with when it could not be sent within `sendTimeoutMs`. */
export const SEND_TIMEOUT_CODE = 'UPSTREAM_SEND_TIMEOUT';

/** What a base URL resolves to, parsed once per base URL. */
interface Target {
  readonly request: typeof http.request;
  readonly agent: http.Agent;
  readonly protocol: string;
  readonly hostname: string;
  readonly port: string;
  /** The base URL's path without trailing slashes ('' for a bare origin). */
  readonly pathPrefix: string;
}

/** Channels are configuration, so a handful of base URLs; the bound only guards against misuse. */
const MAX_TARGETS = 256;
/** Paths made only of these, without dot segments, are what URL parsing would leave unchanged. */
const PLAIN_PATH = /^\/[\w\-.~!$&'()*+,;=:@/%]*$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
const LEADING_SLASHES = /^\/+/;
const TRAILING_SLASHES = /\/+$/;
const AXIOS_UNESCAPED = /%(?:3A|24|2C|20)/gi;
const AXIOS_UNESCAPE: Readonly<Record<string, string>> = { '%3A': ':', '%24': '$', '%2C': ',', '%20': '+' };
const USER_AGENT = `axios/${axios.VERSION}`;
/**
 * Compression is not asked for (answers are small; zlib per answer costs more than it saves); decoded anyway if an
 * upstream compresses regardless.
 */
const ACCEPT_ENCODING = 'identity';
// axios' leniency for truncated compressed bodies.
const ZLIB_OPTIONS: zlib.ZlibOptions = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_OPTIONS: zlib.BrotliOptions = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
};

/**
 * An axios adapter for the upstream calls: one `http(s).request` on the given keep-alive agents,
 * the answer read into a UTF-8 string. It replaces axios' node adapter (follow-redirects, proxy
 * resolution, progress and zlib stream plumbing), which cost more CPU than the request itself.
 *
 * Reads `baseURL` (absolute), `url` (a path below it), `params` (flat; undefined and null skipped,
 * encoded as axios does), `method`, `headers`, `data` (string or Buffer) and `signal`.
 * Never follows redirects (a 3xx is an answer), never uses a proxy, resolves every status
 * (no `validateStatus`). Errors are `AxiosError`s carrying the `ClientRequest` (its
 * `writableFinished` and `reusedSocket` tell whether the request went out), as axios' own:
 * Node's code for connection errors, `ERR_CANCELED` when the signal aborted (the request is
 * destroyed), `ERR_BAD_RESPONSE` when the answer broke off or exceeded `maxResponseBytes`.
 *
 * Hand-written because: gateway CPU per create against axios' own node adapter (docs/hand-written.md,
 * "axios adapter on node:http"). Off with `FAST_PATHS=false` (see `libraryAxiosInstance`).
 */
export function createLeanHttpAdapter(options: LeanAdapterOptions): AxiosAdapter {
  const targets = new Map<string, Target>();
  const targetFor = (baseUrl: string): Target => {
    let target = targets.get(baseUrl);
    if (!target) {
      target = parseTarget(baseUrl, options);
      if (targets.size >= MAX_TARGETS) targets.clear();
      targets.set(baseUrl, target);
    }
    return target;
  };
  const maxBytes = options.maxResponseBytes;
  const sendTimeoutMs = options.sendTimeoutMs;

  return (config: InternalAxiosRequestConfig): Promise<AxiosResponse> =>
    new Promise<AxiosResponse>((resolve, reject) => {
      const target = targetFor(config.baseURL ?? '');
      const method = (config.method ?? 'get').toUpperCase();
      const data = config.data as string | Buffer | undefined;
      const signal = config.signal as AbortSignal | undefined;
      let settled = false;
      let answered = false;
      let sendTimer: NodeJS.Timeout | undefined;

      const finish = () => {
        settled = true;
        if (sendTimer) clearTimeout(sendTimer);
        if (signal) signal.removeEventListener('abort', onAbort);
      };
      const fail = (error: AxiosError) => {
        if (settled) return;
        finish();
        reject(error);
      };
      const onAbort = () => {
        if (settled) return;
        fail(new CanceledError(undefined, config, req));
        req.destroy();
      };

      const req = target.request(
        {
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port,
          path: requestPath(target.pathPrefix, config.url ?? '', config.params as Record<string, unknown> | undefined),
          method,
          headers: nodeHeaders(config.headers, data),
          agent: target.agent,
        },
        (res) => {
          answered = true;
          if (settled) return;
          const body = decoded(res, method);
          const chunks: Buffer[] = [];
          let size = 0;
          body.on('data', (chunk: Buffer) => {
            if (settled) return;
            size += chunk.length;
            if (size > maxBytes) {
              fail(
                new AxiosError(
                  `maxContentLength size of ${maxBytes} exceeded`,
                  AxiosError.ERR_BAD_RESPONSE,
                  config,
                  req,
                ),
              );
              // Stop reading: the connection is dropped with the rest of the answer.
              req.destroy();
              if (body !== res) body.destroy();
              return;
            }
            chunks.push(chunk);
          });
          body.on('error', (error: Error) => fail(brokenAnswer(error, config, req)));
          body.on('end', () => {
            if (settled) return;
            finish();
            let text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)).toString('utf8');
            if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
            // As AxiosHeaders already: axios would otherwise build them twice from the plain object.
            resolve({
              data: text,
              status: res.statusCode ?? 0,
              statusText: res.statusMessage ?? '',
              headers: new AxiosHeaders(res.headers as RawAxiosHeaders),
              config,
              request: req,
            });
          });
        },
      );
      // Once an answer has begun, the upstream has processed the request: a reset then is a broken answer, never a
      // stale connection.
      req.on('error', (error: NodeJS.ErrnoException) =>
        fail(answered ? brokenAnswer(error, config, req) : AxiosError.from(error, undefined, config, req)),
      );

      if (signal) {
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort);
      }
      // One timer per call, cleared with its answer: a call already sent when it fires is left to its answer.
      // Failed here, not through the request's 'error': a request still queued for a socket emits it only
      // once it gets one (and then hands that socket straight back).
      if (sendTimeoutMs !== undefined)
        sendTimer = setTimeout(() => {
          if (settled || req.writableFinished) return;
          const error = Object.assign(new Error(`request could not be sent within ${sendTimeoutMs} ms`), {
            code: SEND_TIMEOUT_CODE,
          });
          fail(AxiosError.from(error, undefined, config, req));
          req.destroy(error);
        }, sendTimeoutMs);
      if (data === undefined || data === null) req.end();
      else req.end(data);
    });
}

/**
 * An axios instance (derived from `base`) whose calls all go to `adapter`. axios merges every
 * default into every call (`mergeConfig` over ~15 keys, the per-method header buckets deep-copied);
 * the adapter reads none of them, so the instance keeps only the adapter.
 */
export function leanAxiosInstance(base: AxiosInstance, adapter: AxiosAdapter): AxiosInstance {
  const instance = base.create({ adapter });
  // Mutated in place: the instance's request() reads this very object.
  const defaults = instance.defaults as unknown as Record<string, unknown>;
  for (const key of Object.keys(defaults)) if (key !== 'adapter') delete defaults[key];
  return instance;
}

/**
 * An axios instance (derived from `base`) on axios' own node adapter, set to behave as the lean one:
 * no redirects (a 3xx is an answer), no proxy, every status resolved, the answer as a UTF-8 string
 * (BOM dropped), at most `maxResponseBytes`, and the same send time limit. Used when fast paths are
 * off (`FAST_PATHS=false`). The time limit needs the `ClientRequest` (has it been handed to its
 * socket?): axios' `transport` option passes the request options through to `http(s).request`, as
 * its own choice of transport would.
 */
export function libraryAxiosInstance(base: AxiosInstance, options: LeanAdapterOptions): AxiosInstance {
  const own = axios.getAdapter('http');
  const sendTimeoutMs = options.sendTimeoutMs;
  const adapter: AxiosAdapter = (config) => {
    let req: http.ClientRequest | undefined;
    const transport = {
      request: (opts: https.RequestOptions, callback: (res: http.IncomingMessage) => void) =>
        (req = (opts.protocol === 'https:' ? https : http).request(opts, callback)),
    };
    if (sendTimeoutMs === undefined) return own({ ...config, transport });
    const abort = new AbortController();
    const outer = config.signal as AbortSignal | undefined;
    const forward = () => abort.abort();
    if (outer?.aborted) forward();
    else outer?.addEventListener('abort', forward);
    return new Promise<AxiosResponse>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (req?.writableFinished) return;
        const error = Object.assign(new Error(`request could not be sent within ${sendTimeoutMs} ms`), {
          code: SEND_TIMEOUT_CODE,
        });
        reject(AxiosError.from(error, undefined, config, req));
        req?.destroy(error);
        abort.abort();
      }, sendTimeoutMs);
      own({ ...config, transport, signal: abort.signal })
        .then(resolve, reject)
        .finally(() => {
          clearTimeout(timer);
          outer?.removeEventListener('abort', forward);
        });
    });
  };
  return base.create({
    adapter,
    httpAgent: options.httpAgent,
    httpsAgent: options.httpsAgent,
    maxRedirects: 0,
    proxy: false,
    validateStatus: null,
    responseType: 'text',
    responseEncoding: 'utf8',
    maxContentLength: options.maxResponseBytes,
    maxBodyLength: Infinity,
    transformRequest: [(data: unknown) => data],
    transformResponse: [(data: unknown) => data],
  });
}

/** `pathPrefix` + `url` + `?query`, as axios' URL parsing and `buildURL` would give them. */
export function requestPath(pathPrefix: string, url: string, params: Record<string, unknown> | undefined): string {
  let path =
    url.charCodeAt(0) === 0x2f && url.charCodeAt(1) !== 0x2f
      ? pathPrefix + url
      : `${pathPrefix}/${url.replace(LEADING_SLASHES, '')}`;
  if (!PLAIN_PATH.test(path) || (path.includes('/.') && DOT_SEGMENT.test(path))) {
    // Rare: characters URL parsing would escape, dot segments, a '?' or '#' in the path.
    const parsed = new URL(`http://upstream.invalid${path}`);
    path = parsed.pathname + parsed.search;
  }
  if (!params) return path;
  const query = queryString(params);
  if (query === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/**
 * axios' default serialisation of flat params: undefined and null skipped, keys trimmed, `encodeURIComponent`
 * but `: $ ,` kept and spaces as `+`.
 */
export function queryString(params: Record<string, unknown>): string {
  let query = '';
  for (const key of Object.keys(params)) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    if (typeof value === 'object')
      throw new TypeError(`upstream query parameter "${key}" must be a string, number or boolean`);
    query += `${query === '' ? '' : '&'}${encodeParam(key.trim())}=${encodeParam(String(value as string | number | boolean))}`;
  }
  return query;
}

function encodeParam(text: string): string {
  const encoded = encodeURIComponent(text);
  return encoded.includes('%')
    ? encoded.replace(AXIOS_UNESCAPED, (match) => AXIOS_UNESCAPE[match.toUpperCase()])
    : encoded;
}

function parseTarget(baseUrl: string, options: LeanAdapterOptions): Target {
  const url = new URL(baseUrl);
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:')
    throw new AxiosError(`Unsupported protocol ${url.protocol}`, AxiosError.ERR_BAD_REQUEST);
  return {
    request: secure ? https.request : http.request,
    agent: secure ? options.httpsAgent : options.httpAgent,
    protocol: url.protocol,
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port,
    pathPrefix: url.pathname.replace(TRAILING_SLASHES, ''),
  };
}

/** The request's headers for node, plus what axios' adapter adds: User-Agent, Accept-Encoding, Content-Length. */
function nodeHeaders(headers: AxiosHeaders, data: string | Buffer | undefined): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  let userAgent = false;
  let acceptEncoding = false;
  for (const name of Object.keys(headers)) {
    const value: unknown = headers[name];
    if (value === undefined || value === null || value === false) continue;
    out[name] = Array.isArray(value) ? value.map(String) : String(value as string | number | boolean);
    const lower = name.toLowerCase();
    if (lower === 'user-agent') userAgent = true;
    else if (lower === 'accept-encoding') acceptEncoding = true;
  }
  if (!userAgent) out['User-Agent'] = USER_AGENT;
  if (data !== undefined && data !== null)
    out['Content-Length'] = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
  if (!acceptEncoding) out['Accept-Encoding'] = ACCEPT_ENCODING;
  return out;
}

/** The answer's body stream, decompressed when the upstream compressed it although not asked to. */
function decoded(res: http.IncomingMessage, method: string): Readable {
  const encoding = res.headers['content-encoding'];
  if (!encoding || method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304) return res;
  let decoder: zlib.Gunzip | zlib.Unzip | zlib.BrotliDecompress;
  switch (encoding.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
    case 'deflate':
      decoder = zlib.createUnzip(ZLIB_OPTIONS);
      break;
    case 'br':
      decoder = zlib.createBrotliDecompress(BROTLI_OPTIONS);
      break;
    default:
      return res;
  }
  return pipeline(res, decoder, () => undefined);
}

/** The answer broke off (reset, truncated, undecodable): the upstream had processed the request. */
function brokenAnswer(error: Error, config: InternalAxiosRequestConfig, req: http.ClientRequest): AxiosError {
  return AxiosError.from(error, AxiosError.ERR_BAD_RESPONSE, config, req);
}
