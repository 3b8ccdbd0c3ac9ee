/** Types shared by the simulator servers and the public `startSimulator` API. */

/** A simulated vendor's id (`SimVendor.id`, the same as the upstream vendor's). */
export type SimFamily = string;

export interface RecordedRequest {
  family: SimFamily;
  method: string;
  /** Path with its query string, as received (e.g. `/v1/general/presets-voices?pageNum=1`). */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body; the raw text when it was not valid JSON; undefined when empty. */
  body: unknown;
}

/** What one simulated vendor accepts: an API key, and a key pair when the vendor signs tokens with one. */
export interface SimCredentials {
  apiKey: string;
  accessKey?: string;
  secretKey?: string;
}

/** One simulated vendor as a gateway sees it: where it listens and what it accepts. */
export interface SimEndpoint extends SimCredentials {
  /** The server origin, e.g. `http://127.0.0.1:PORT` (the client appends its own path prefix). */
  baseUrl: string;
}

/**
 * Test hook: changes what a task's query endpoint answers. An object is deep-merged into the JSON
 * body the query answers (plain objects merge, anything else replaces, `undefined` deletes a key);
 * a function receives that body and returns the body to send instead.
 */
export type ForcedPatch = Record<string, unknown> | ((body: unknown) => unknown);
