/**
 * Helpers for the simulator's own specs.
 * Everything goes over real HTTP with Node's global fetch, as the gateway's clients do.
 */

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
