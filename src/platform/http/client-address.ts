import { isIP } from 'net';
import type { Request } from 'express';

/**
 * The client's address: `req.ip`, which follows `TRUST_PROXY` (the connection's peer unless that peer
 * is a trusted proxy, then the address it forwarded). A forwarded value that is not an address (a
 * trusted hop passing on what a client wrote) is not taken: the peer's address stands instead.
 */
export function clientAddress(req: Request): string | null {
  const ip = req.ip;
  if (ip !== undefined && isIP(ip) !== 0) return ip;
  return req.socket.remoteAddress ?? null;
}
