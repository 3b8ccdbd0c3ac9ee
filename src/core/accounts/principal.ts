import type { Capability } from '../models/model-catalogue';

/** Who is calling: resolved once per request by ApiKeyGuard, read by everything after it. */
export interface Principal {
  account: {
    id: string;
    name: string;
    rateLimitRpm: number | null;
    maxConcurrentTasks: number | null;
  };
  apiKey: { id: string; prefix: string; models: string[] | null };
  /** Enabled models and their capabilities. */
  grants: ReadonlyMap<string, readonly Capability[]>;
}
