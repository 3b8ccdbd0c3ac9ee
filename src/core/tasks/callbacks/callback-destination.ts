import { isIP } from 'net';
import { GatewayError } from '../../../platform/errors';

/** Literal addresses never allowed as callback targets unless the operator allows private ones. */
const PRIVATE_V4 = [
  /^127\./,
  /^10\./,
  /^172\.(1[6-9]|2\d|3[01])\./,
  /^192\.168\./,
  /^169\.254\./,
  /^0\./,
  /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./,
];
const PRIVATE_HOSTS = new Set(['localhost', 'metadata.google.internal', 'metadata']);

/**
 * Checks a caller's `callback_url` at request time: an http(s) URL whose host is not plainly
 * loopback, private, link-local or metadata. (Delivery re-checks the resolved address, which
 * also defeats DNS tricks.)
 */
export function assertCallbackUrlAllowed(raw: string, allowPrivate: boolean, param = 'callback_url'): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw GatewayError.invalid(`${param} must be an absolute http(s) URL.`, param);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw GatewayError.invalid(`${param} must use http or https.`, param);
  if (url.username || url.password) throw GatewayError.invalid(`${param} must not carry credentials.`, param);
  if (allowPrivate) return;
  // `LOCALHOST.` is `localhost`: a fully qualified name's trailing dots name the same host.
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.+$/, '');
  if (PRIVATE_HOSTS.has(host) || host.endsWith('.localhost') || isPrivateAddress(host)) {
    throw GatewayError.invalid(
      `${param} points to a loopback, private, link-local or metadata address; the gateway refuses these unless its operator sets CALLBACK_ALLOW_PRIVATE=true (for tests and local demos).`,
      param,
    );
  }
}

function isPrivateAddress(host: string): boolean {
  const version = isIP(host);
  if (version === 4) return PRIVATE_V4.some((re) => re.test(host));
  if (version === 6)
    return (
      host === '::1' || host === '::' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || host.startsWith('::ffff:')
    );
  return false;
}
