/** Types shared by the simulator servers and the public `startSimulator` API. */

export type SimFamily = 'kl' | 'ax' | 'vd';

export interface RecordedRequest {
  family: SimFamily;
  method: string;
  /** Path with its query string, as received (e.g. `/v1/general/presets-voices?pageNum=1`). */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body; the raw text when it was not valid JSON; undefined when empty. */
  body: unknown;
}

export interface SimulatorCredentials {
  klApiKey: string;
  klAccessKey: string;
  klSecretKey: string;
  axApiKey: string;
  vdApiKey: string;
}

/**
 * Test hook: changes what a task's query endpoint answers. An object is deep-merged into the JSON
 * body the query answers (plain objects merge, anything else replaces, `undefined` deletes a key);
 * a function receives that body and returns the body to send instead.
 */
export type ForcedPatch = Record<string, unknown> | ((body: unknown) => unknown);
