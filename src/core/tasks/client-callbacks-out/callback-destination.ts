import { GatewayError } from '../../../platform/errors';
import { isPublicHost } from '../../../platform/net/public-address';

/**
 * Checks a caller's `callback_url` at request time: an http(s) URL whose host is not plainly
 * loopback, private, link-local or metadata. An IP literal must be public unicast by the same
 * verdict the delivery agent applies (`isPublicAddress`), so nothing accepted here is refused at
 * every delivery attempt; a name is checked again on its resolved address at delivery.
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
  if (!allowPrivate && !isPublicHost(url)) {
    throw GatewayError.invalid(
      `${param} points to a loopback, private, link-local, metadata or otherwise non-public address; the gateway refuses these unless its operator sets CALLBACK_ALLOW_PRIVATE=true (for tests and local demos).`,
      param,
    );
  }
}
