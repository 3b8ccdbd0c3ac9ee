import type { UpstreamChannel, UpstreamTaskClient, UpstreamFamily, UpstreamTaskSnapshot } from '../upstream.types';
import type { FieldExpectation } from './field-checks';
import { inlinePngDataUrl } from './inline-png';
import type { SmokeRow } from './smoke-types';

export type SmokeEnv = Record<string, string | undefined>;

/** What a create sent, for expectations that echo it. */
export interface SentTask {
  /** The reference sent at creation when the plan looks tasks up by it, or undefined. */
  readonly reference?: string;
  /** The model name as it went upstream, after the channel's map. */
  readonly model?: string;
}

/** The cheapest task of one family, and what the gateway expects of each answer. */
export interface SmokePlan {
  readonly family: UpstreamFamily;
  readonly operation: string;
  readonly description: string;
  /** The create body in the gateway's wire shape, public model name included; or why it cannot be sent. */
  body(env: SmokeEnv): { body: Record<string, unknown> } | { skip: string };
  created(sent: SentTask): FieldExpectation[];
  succeeded(sent: SentTask): FieldExpectation[];
  readonly failed: FieldExpectation[];
  /** The result's downloadable files, as the gateway reads them. */
  resultUrls(snapshot: UpstreamTaskSnapshot): string[];
  /** The normalised fields billing and presentation rely on, checked on success. */
  resultFields(snapshot: UpstreamTaskSnapshot): FieldExpectation[];
  /** The task can be found again by the reference sent at creation (unconfirmed creations depend on it). */
  readonly lookupByReference: boolean;
  /** The vendor's name for that reference, for the report. */
  readonly referenceField?: string;
  /** Optional first rows: a free call that proves the credentials before a billed task is created. */
  checkAuth?(channel: UpstreamChannel, client: UpstreamTaskClient): Promise<SmokeRow[]>;
}

/** A reference image: `SMOKE_IMAGE_URL`, or a tiny inline PNG. */
export const smokeImage = (env: SmokeEnv): string => env.SMOKE_IMAGE_URL?.trim() || inlinePngDataUrl();
