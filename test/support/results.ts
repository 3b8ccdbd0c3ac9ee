import { createServer, type IncomingMessage } from 'http';
import type { AddressInfo } from 'net';
import request from 'supertest';
import { SIM_ASSETS } from '../../src/simulator/assets';

/** The bytes behind every simulated result link (video and trial audio alike). */
export const SAMPLE_MP4 = SIM_ASSETS.get('/assets/sample.mp4')!.bytes;

/** A result URL as clients see it: the gateway's, opaque and signed (no upstream host or ID). */
export const GATEWAY_RESULT_URL = /^http:\/\/(?:localhost|127\.0\.0\.1):\d+\/results\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The path of a gateway result URL, to request it from the harness's server. */
export function resultPath(url: string): string {
  return new URL(url).pathname;
}

/** Reads a response body as bytes, whatever its type. */
export function binary(res: IncomingMessage, done: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
  res.on('error', (err) => done(err, Buffer.alloc(0)));
}

/** GET of a gateway result URL, its body as bytes. */
export function getResult(http: () => ReturnType<typeof request>, url: string, range?: string) {
  const req = http().get(resultPath(url));
  if (range) req.set('Range', range);
  // superagent types its parser with its own Response; it is handed the raw message.
  return req.buffer(true).parse(binary as never);
}

/** A stand-in for a vendor's CDN that sends its files slowly, and counts who fetched what. */
export interface SlowFileServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The bytes served at `/file/<name>` (the same for every name, made up once). */
  bytes: Buffer;
  /** GET requests received, by path. */
  requests: Map<string, number>;
  /** Whole bodies sent, by path. */
  completed: Map<string, number>;
  close(): Promise<void>;
}

/** Serves `size` bytes per file as video/mp4, in `chunks` pieces `chunkMs` apart. */
export async function startSlowFileServer(size: number, chunks: number, chunkMs: number): Promise<SlowFileServer> {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + 7) & 0xff;
  const requests = new Map<string, number>();
  const completed = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.set(path, (requests.get(path) ?? 0) + 1);
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': size });
    const step = Math.ceil(size / chunks);
    let offset = 0;
    const send = (): void => {
      if (res.destroyed) return;
      res.write(bytes.subarray(offset, offset + step));
      offset += step;
      if (offset < size) setTimeout(send, chunkMs);
      else res.end(() => completed.set(path, (completed.get(path) ?? 0) + 1));
    };
    send();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    bytes,
    requests,
    completed,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
