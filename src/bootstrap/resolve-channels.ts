import { UpstreamChannel } from '../upstream/upstream.types';

/** Placeholder until the channel loader lands. */
export async function resolveChannels(_env: NodeJS.ProcessEnv, _taskMs: number): Promise<{ channels: UpstreamChannel[]; simulator: null | { families: string[]; close(): Promise<void> } }> {
  return { channels: [], simulator: null };
}
