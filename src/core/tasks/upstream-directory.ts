import type { FamilyId } from '../models/model-catalogue';
import type { UpstreamChannel, UpstreamTaskClient } from '../../upstream/upstream.types';

/** Where the engine finds a channel and the client that speaks its protocol. */
export abstract class UpstreamDirectory {
  /** A healthy channel of the family, or null when none is configured. */
  abstract pick(family: FamilyId): UpstreamChannel | null;
  abstract channel(id: string): UpstreamChannel | undefined;
  abstract client(family: FamilyId): UpstreamTaskClient;
}
