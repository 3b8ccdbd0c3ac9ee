/**
 * Whether an IP address is one that outbound requests on caller-given URLs may reach. The verdict
 * is request-filtering-agent's, which guards those requests (client callbacks, media probes): it
 * refuses every address that ipaddr.js does not class as `unicast`, and this module asks the very
 * copy of ipaddr.js that library loads, so a check made when a URL is accepted refuses exactly what
 * the agent would refuse when it is used.
 */
import { createRequire } from 'module';
import { isIP } from 'net';

/** The part of ipaddr.js read here. */
interface IpAddrLib {
  parse(address: string): { range(): string };
}

const agentRequire = createRequire(require.resolve('request-filtering-agent'));
const ipaddr = agentRequire('ipaddr.js') as IpAddrLib;

/** True for an IPv4 or IPv6 literal (no brackets) in a public unicast range; false for anything else. */
export function isPublicAddress(address: string): boolean {
  return isIP(address) !== 0 && ipaddr.parse(address).range() === 'unicast';
}

/** Host names that always mean this machine or a cloud metadata service. */
const NON_PUBLIC_NAMES = new Set(['localhost', 'metadata.google.internal', 'metadata']);

/**
 * Whether a URL's host may be handed to someone else to reach: an IP literal must be public
 * unicast (`isPublicAddress`); a name must not always mean this machine or a metadata service. A
 * name is not resolved here: whoever connects checks the address it resolves to.
 */
export function isPublicHost(url: URL): boolean {
  // `[::1]` is `::1`; `LOCALHOST.` is `localhost`: a fully qualified name's trailing dots name the same host.
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.+$/, '');
  if (isIP(host) !== 0) return isPublicAddress(host);
  return !NON_PUBLIC_NAMES.has(host) && !host.endsWith('.localhost');
}
