import { IsOptional } from 'class-validator';
import type { BillableUsage } from '../../core/billing/billable-usage';
import { BP_ONE, BasisPoints, Nested, Price, PricingRule, timed } from '../../core/billing/pricing';

/** ax's cost-affecting facts: resolution, duration, references, flash audio. */
export interface AxBillableUsage extends BillableUsage {
  kind: 'ax-r2v';
  /** `720P` / `1080P`; the old protocol's `size` is mapped to its tier. */
  resolution: '720P' | '1080P';
  durationSeconds: number;
  referenceImages: number;
  referenceVideos: number;
  /** Flash model only: true sound, false silent; null where the model has no audio switch. */
  audio: boolean | null;
}

/** ax: price per output second by resolution tier (`size` is mapped to its tier). */
export class AxPerSecond {
  @Price() '720P': number;
  @Price() '1080P': number;
}

export class AxModelPrice {
  @Nested(() => AxPerSecond) per_second: AxPerSecond;
  /** Flat surcharge per reference image / reference video in the request. */
  @Price() per_reference_image: number;
  @Price() per_reference_video: number;
  /** Only models with an audio switch (`wx2.6-r2v-flash`): multiplier for `audio: false`. */
  @IsOptional() @BasisPoints(0, BP_ONE) silent_bp?: number;
}

export const AX_PRICING_RULE = timed<AxBillableUsage, AxModelPrice>({
  family: 'ax',
  perSecond: (u) => ['per_second', u.resolution],
  // `audio` is null on models without the switch and true by default: only an explicit false is cheaper.
  multipliers: [{ line: 'silent', field: 'silent_bp', when: (u) => u.audio === false }],
  surcharges: [
    { line: 'reference_images', field: 'per_reference_image', count: (u) => u.referenceImages },
    { line: 'reference_videos', field: 'per_reference_video', count: (u) => u.referenceVideos },
  ],
}) as PricingRule<BillableUsage>;
