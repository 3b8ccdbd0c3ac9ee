import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'crypto';

/** Where result URLs point and how they are signed. */
export interface ResultLinkOptions {
  /** The gateway's public origin, e.g. `https://gateway.example.com` (no trailing slash). */
  origin: string;
  /** Signing keys, current first; every one is accepted, so the key can rotate. */
  secrets: readonly string[];
  ttlSeconds: number;
  /** Seconds since the epoch (injectable for tests). */
  nowSeconds?: () => number;
}

/** What a valid token names. */
export interface ResultRef {
  taskId: string;
  slot: string;
  expiresAt: number;
}

/** A file the gateway does not keep (a session preview), streamed from the upstream URL the token carries, sealed. */
export interface PreviewRef {
  upstreamUrl: string;
  expiresAt: number;
}

/**
 * A file the gateway does not keep whose upstream link expires before the gateway's URL does (an
 * official voice's trial audio): named by a source and a key, which `RenewableLinks` turns into a
 * current upstream link when the URL is used.
 */
export interface RenewableRef {
  source: string;
  key: string;
  expiresAt: number;
}

export type VerifyOutcome =
  | { ok: true; ref: ResultRef; preview?: undefined; renewable?: undefined }
  | { ok: true; preview: PreviewRef; ref?: undefined; renewable?: undefined }
  | { ok: true; renewable: RenewableRef; ref?: undefined; preview?: undefined }
  | { ok: false; reason: 'malformed' | 'signature' | 'expired' };

/**
 * Preview tokens start with `p.`, renewable ones with `r.`; task file tokens never do (their
 * payload is Base64URL of `task_...`).
 */
const PREVIEW_PREFIX = 'p.';
const RENEWABLE_PREFIX = 'r.';

export const RESULT_PATH = '/results/';

/**
 * Signed, expiring result URLs: `/results/<payload>.<signature>`, where the payload (Base64URL)
 * names the task, the file slot and the expiry, and the signature is an HMAC-SHA256 over it. Only
 * the gateway's own names are in it. The expiry is rounded up to a short step so that answers
 * given within that step (a query and its callback) carry the same URL.
 */
export class ResultLinks {
  private readonly step: number;
  private readonly now: () => number;

  constructor(private readonly options: ResultLinkOptions) {
    if (options.secrets.length === 0) throw new Error('ResultLinks needs at least one secret');
    this.step = Math.max(1, Math.floor(options.ttlSeconds / 100));
    this.now = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  }

  /** A fresh URL for one file of a task. */
  url(taskId: string, slot: string): string {
    const expiresAt = Math.ceil((this.now() + this.options.ttlSeconds) / this.step) * this.step;
    return `${this.options.origin}${RESULT_PATH}${this.token({ taskId, slot, expiresAt })}`;
  }

  /**
   * A URL for a file the gateway passes through without keeping (session previews): the upstream
   * URL is sealed in the token (AES-256-GCM), so the client sees neither the upstream's host nor
   * its session ID, and the gateway needs no record of it.
   */
  previewUrl(upstreamUrl: string): string {
    const expiresAt = Math.ceil((this.now() + this.options.ttlSeconds) / this.step) * this.step;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', sealKey(this.options.secrets[0]), iv);
    const sealed = Buffer.concat([cipher.update(`${expiresAt}~${upstreamUrl}`, 'utf8'), cipher.final()]);
    const payload = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
    return `${this.options.origin}${RESULT_PATH}${PREVIEW_PREFIX}${payload}.${sign(this.options.secrets[0], payload)}`;
  }

  /** A URL for a file named by `source` and `key` (neither may hold `~`), streamed from a link found when it is used. */
  renewableUrl(source: string, key: string): string {
    const expiresAt = Math.ceil((this.now() + this.options.ttlSeconds) / this.step) * this.step;
    const payload = Buffer.from(`${source}~${key}~${expiresAt}`).toString('base64url');
    // The prefix is signed too: a renewable token's payload never verifies as a task file's, nor the reverse.
    const signature = sign(this.options.secrets[0], `${RENEWABLE_PREFIX}${payload}`);
    return `${this.options.origin}${RESULT_PATH}${RENEWABLE_PREFIX}${payload}.${signature}`;
  }

  token(ref: ResultRef): string {
    const payload = Buffer.from(`${ref.taskId}~${ref.slot}~${ref.expiresAt}`).toString('base64url');
    return `${payload}.${sign(this.options.secrets[0], payload)}`;
  }

  verify(token: string): VerifyOutcome {
    if (token.startsWith(PREVIEW_PREFIX)) return this.verifyPreview(token.slice(PREVIEW_PREFIX.length));
    const renewable = token.startsWith(RENEWABLE_PREFIX);
    const signed = renewable
      ? this.signedFields(token.slice(RENEWABLE_PREFIX.length), RENEWABLE_PREFIX)
      : this.signedFields(token, '');
    if (!signed.ok) return signed;
    const [first, second, exp] = signed.fields;
    const expiresAt = Number(exp);
    if (!first || !second || !Number.isInteger(expiresAt)) return { ok: false, reason: 'malformed' };
    if (expiresAt < this.now()) return { ok: false, reason: 'expired' };
    return renewable
      ? { ok: true, renewable: { source: first, key: second, expiresAt } }
      : { ok: true, ref: { taskId: first, slot: second, expiresAt } };
  }

  /** The `~`-separated fields of `<payload>.<signature>` once the signature (over `domain` + payload) is one of the keys'. */
  private signedFields(
    token: string,
    domain: string,
  ): { ok: true; fields: string[] } | { ok: false; reason: 'malformed' | 'signature' } {
    const dot = token.indexOf('.');
    if (dot <= 0 || token.length > 400) return { ok: false, reason: 'malformed' };
    const payload = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const valid = this.options.secrets.some((secret) => {
      const expected = Buffer.from(sign(secret, `${domain}${payload}`), 'base64url');
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
    if (!valid) return { ok: false, reason: 'signature' };
    return { ok: true, fields: Buffer.from(payload, 'base64url').toString('utf8').split('~') };
  }

  private verifyPreview(token: string): VerifyOutcome {
    const dot = token.lastIndexOf('.');
    if (dot <= 0 || token.length > 8192) return { ok: false, reason: 'malformed' };
    const payload = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const secret = this.options.secrets.find((candidate) => {
      const expected = Buffer.from(sign(candidate, payload), 'base64url');
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
    if (!secret) return { ok: false, reason: 'signature' };
    const bytes = Buffer.from(payload, 'base64url');
    if (bytes.length < 29) return { ok: false, reason: 'malformed' };
    let text: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', sealKey(secret), bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return { ok: false, reason: 'signature' };
    }
    const sep = text.indexOf('~');
    const expiresAt = Number(text.slice(0, sep));
    if (sep <= 0 || !Number.isInteger(expiresAt)) return { ok: false, reason: 'malformed' };
    if (expiresAt < this.now()) return { ok: false, reason: 'expired' };
    return { ok: true, preview: { upstreamUrl: text.slice(sep + 1), expiresAt } };
  }
}

/** The sealing key of preview URLs, apart from the signing key. */
function sealKey(secret: string): Buffer {
  return createHash('sha256').update(`preview urls\n${secret}`).digest();
}

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

/** The signing key when none is configured: derived from the admin token, which every instance shares. */
export function derivedResultSecret(adminToken: string): string {
  return createHmac('sha256', adminToken).update('gateway result urls').digest('base64url');
}
