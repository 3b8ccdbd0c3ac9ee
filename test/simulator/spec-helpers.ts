/**
 * Helpers for the simulator's own specs.
 * Everything goes over real HTTP with Node's global fetch, as the gateway's clients do.
 */
import * as http from 'node:http';
import { AddressInfo } from 'node:net';

export interface JsonReply {
  status: number;
  body: any;
}

export async function getJson(url: string, headers: Record<string, string> = {}): Promise<JsonReply> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: await response.json() };
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<JsonReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Sleeps until the wall clock reaches `epochMs` (task phases are computed from the clock). */
export function sleepUntil(epochMs: number): Promise<void> {
  return sleep(Math.max(0, epochMs - Date.now()));
}

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

/** True when the bytes start with an ISO-BMFF `ftyp` box, as every MP4 does. */
export function looksLikeMp4(bytes: Buffer): boolean {
  return bytes.length > 12 && bytes.subarray(4, 8).toString('ascii') === 'ftyp';
}

export function looksLikePng(bytes: Buffer): boolean {
  return bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
}

export async function fetchBytes(url: string): Promise<{ status: number; contentType: string | null; bytes: Buffer }> {
  const response = await fetch(url);
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}
