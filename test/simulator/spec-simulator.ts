/** The simulator as its own specs run it, and the receiver of its callbacks. */
import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator';
import { sleep } from './spec-helpers';

export interface ReceivedCallback {
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** A tiny HTTP server standing in for the gateway's callback endpoint. */
export async function startCallbackReceiver(): Promise<{
  url: string;
  received: ReceivedCallback[];
  waitForCount(count: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}> {
  const received: ReceivedCallback[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    received,
    async waitForCount(count, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} callbacks, got ${received.length}`);
        await sleep(10);
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The simulated tasks' length in the simulator specs: long enough to be seen running, short enough to wait for. */
export const SPEC_TASK_MS = 400;

/**
 * A simulator for one spec file, started before its cases (tasks of `SPEC_TASK_MS`) and closed after
 * them; `auth` is the header a vendor's client sends, from `authOf`.
 */
export function simulatorForSpec(authOf: (sim: RunningSimulator) => Record<string, string>): {
  sim: RunningSimulator;
  auth: Record<string, string>;
} {
  const spec = {} as { sim: RunningSimulator; auth: Record<string, string> };
  beforeAll(async () => {
    spec.sim = await startSimulator({ taskMs: SPEC_TASK_MS });
    spec.auth = authOf(spec.sim);
  });
  afterAll(() => spec.sim.close());
  return spec;
}
