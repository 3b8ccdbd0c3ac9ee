import type { BillableUsage } from '../billing/billable-usage';
import type { FamilyId, ModelDescriptor } from '../models/model-catalogue';

/**
 * What a family module hands the engine: what to send and what to remember. Creating, billing,
 * syncing and callbacks are the engine's; the family only describes.
 */
export interface TaskDraft {
  family: FamilyId;
  /**
   * Task kind within the family, also the kl list `action` (`multi_elements`, `custom_voices`,
   * `reference2video`).
   */
  action: string;
  model: ModelDescriptor;
  /** Body in the upstream's wire shape. */
  upstreamBody: Record<string, unknown>;
  /** The same without Base64 payloads, for storage. */
  snapshot: Record<string, unknown>;
  billing: BillableUsage;
  externalTaskId?: string | null;
  callbackUrl?: string | null;
  /** Values the creation response echoes, kept for later presentation. */
  creationEcho?: Record<string, unknown> | null;
  /**
   * The upstream channel the task must go to (e.g. the one holding the session it works on),
   * instead of the family's usual pick; 503 when that channel is no longer configured.
   */
  channelId?: string | null;
}
