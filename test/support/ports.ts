import { createServer } from 'net';

/** A loopback port held by a placeholder listener until `release`. */
export interface ReservedPort {
  port: number;
  /** Frees the port; listen on it straight after. */
  release(): Promise<void>;
}

/**
 * A loopback port for a gateway whose public URL must be known before it listens (its console's
 * sign-in redirect, its result links). The port stays held until `release`: a port that was only
 * found free could meanwhile become the local end of an outgoing connection (the gateway's own, to
 * an issuer or the simulator, as it starts), and the gateway's listen would then fail with
 * EADDRINUSE. Linux does not hand out a port held by a listener as a connection's local port.
 */
export function reservePort(): Promise<ReservedPort> {
  return new Promise((resolve, reject) => {
    const holder = createServer();
    holder.once('error', reject);
    holder.listen(0, '127.0.0.1', () => {
      const address = holder.address();
      if (!address || typeof address !== 'object') return reject(new Error('no port'));
      resolve({
        port: address.port,
        release: () => new Promise<void>((done) => holder.close(() => done())),
      });
    });
  });
}
