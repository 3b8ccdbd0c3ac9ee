import type { UpstreamVendor } from '../vendor';
import { ChannelConfigError } from './channel-config-error';

/**
 * A channel's base URL, checked and without trailing slashes. Refused: anything but absolute
 * http(s), credentials, a query or fragment, and a path ending in (the start of) the segments the
 * client adds itself: `https://host/api/v1` would be called as `https://host/api/v1/api/v1/...`.
 */
export function checkBaseUrl(value: string, name: string, vendor: Pick<UpstreamVendor, 'id' | 'pathPrefix'>): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ChannelConfigError(`${name} must be an absolute http(s) URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ChannelConfigError(`${name} must be an absolute http(s) URL.`);
  // Credentials belong in the key variables, where they are masked; a URL ends up in logs.
  if (url.username || url.password) throw new ChannelConfigError(`${name} must not contain credentials.`);
  if (url.search || url.hash) throw new ChannelConfigError(`${name} must not contain a query or fragment.`);
  const doubled = doubledSegments(url.pathname, vendor.pathPrefix);
  if (doubled) {
    const fixed = `${url.origin}${url.pathname.replace(/\/+$/, '').slice(0, -doubled.length)}`;
    throw new ChannelConfigError(
      `${name} must not end in ${doubled}: the ${vendor.id} client adds ${vendor.pathPrefix} itself (use ${fixed}).`,
    );
  }
  return value.replace(/\/+$/, '');
}

/** The leading part of `prefix` (e.g. `/api` or `/api/v1` of `/api/v1`) the path ends in, if any. */
function doubledSegments(pathname: string, prefix: string): string | undefined {
  const path = pathname.replace(/\/+$/, '').toLowerCase();
  const segments = prefix.split('/').filter(Boolean);
  for (let count = segments.length; count > 0; count--) {
    const lead = `/${segments.slice(0, count).join('/')}`;
    if (path.endsWith(lead)) return lead;
  }
  return undefined;
}
