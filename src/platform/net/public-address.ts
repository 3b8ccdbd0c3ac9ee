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
