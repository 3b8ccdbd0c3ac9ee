import { createHmac, randomBytes, timingSafeEqual } from 'crypto';
import type { IncomingMessage, ServerResponse } from 'http';
import { parseByteRange } from '../platform/storage/byte-range';
import type { SimAsset } from './assets';

/** How long a result link stays valid unless SIM_RESULT_TTL_MS or the simulator's option says otherwise: 10 minutes. */
export const DEFAULT_SIM_RESULT_TTL_MS = 600_000;

/** Each process signs its own links: a link cannot be extended by editing its expiry. */
const KEY = randomBytes(32);
/** Link lifetime by server origin (each simulator server registers its own). */
const TTL_BY_ORIGIN = new Map<string, () => number>();

export function resultTtlFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SIM_RESULT_TTL_MS;
  const value = raw === undefined || raw.trim() === '' ? DEFAULT_SIM_RESULT_TTL_MS : Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`SIM_RESULT_TTL_MS must be a positive integer, got "${raw}"`);
  return value;
}

export function registerResultTtl(origin: string, ttlMs: () => number): void {
  TTL_BY_ORIGIN.set(origin, ttlMs);
}

export function unregisterResultTtl(origin: string): void {
  TTL_BY_ORIGIN.delete(origin);
}

/**
 * The expiry and signature a vendor's result link carries (`expires`, `signature`), or nothing
 * for a server that registered no lifetime. The path is signed with the expiry.
 */
export function linkSignature(origin: string, path: string): Record<string, string> {
  const ttl = TTL_BY_ORIGIN.get(origin);
  if (!ttl) return {};
  const expires = String(Date.now() + ttl());
  return { expires, signature: sign(path, expires) };
}

/**
 * Serves a sample file like a vendor's CDN: 403 once the link has expired or when its signature
 * does not match; one byte range (206, 416) or the whole file; HEAD without a body.
 */
export function serveAsset(req: IncomingMessage, res: ServerResponse, url: URL, asset: SimAsset): void {
  const expires = url.searchParams.get('expires');
  const signature = url.searchParams.get('signature') ?? '';
  if (expires !== null && (!validSignature(url.pathname, expires, signature) || Number(expires) < Date.now())) {
    const body = '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
    res.writeHead(403, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  const size = asset.bytes.length;
  const headers = {
    'content-type': asset.contentType,
    'accept-ranges': 'bytes',
    etag: `"sim-${size}"`,
    'last-modified': new Date(0).toUTCString(),
  };
  const span = parseByteRange(req.headers.range, size);
  if (span === 'unsatisfiable') {
    res.writeHead(416, { ...headers, 'content-range': `bytes */${size}`, 'content-length': 0 });
    res.end();
    return;
  }
  const { start, end } = span ?? { start: 0, end: size - 1 };
  const status = span ? 206 : 200;
  res.writeHead(status, {
    ...headers,
    'content-length': end - start + 1,
    ...(span ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : asset.bytes.subarray(start, end + 1));
}

function sign(path: string, expires: string): string {
  return createHmac('sha256', KEY).update(`${path}\n${expires}`).digest('hex');
}

function validSignature(path: string, expires: string, signature: string): boolean {
  const expected = Buffer.from(sign(path, expires));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
