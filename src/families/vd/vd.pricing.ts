import { IsNotEmptyObject, IsOptional } from 'class-validator';
import type { BillableUsage } from '../../core/billing/billable-usage';
import { BP_ONE, BasisPoints, MAX_BASIS_POINTS, Nested, Price, PricingRule, timed } from '../../core/billing/pricing';

/** vd's cost-affecting facts: resolution, duration, audio, off-peak, reference videos. */
export interface VdBillableUsage extends BillableUsage {
  kind: 'vd-r2v';
  mode: 'subject' | 'non-subject';
  resolution: string;
  durationSeconds: number;
  audio: boolean;
  offPeak: boolean;
  referenceVideos: number;
}

/** vd: each model prices the resolutions it accepts. */
export class VdPerSecond {
  @IsOptional() @Price() '360p'?: number;
  @IsOptional() @Price() '540p'?: number;
  @IsOptional() @Price() '720p'?: number;
  @IsOptional() @Price() '1080p'?: number;
}

export class VdModelPrice {
  @IsNotEmptyObject({ nullable: false }, { message: '$property must price at least one resolution' })
  @Nested(() => VdPerSecond)
  per_second: VdPerSecond;
  /** Multiplier when joint audio-video output is on (>= x1). */
  @BasisPoints(BP_ONE, MAX_BASIS_POINTS) audio_bp: number;
  /** Multiplier for off-peak mode (<= x1: a discount). */
  @BasisPoints(0, BP_ONE) off_peak_bp: number;
  /** Flat surcharge per reference video (`videos` or video subjects). */
  @Price() per_reference_video: number;
}

export const VD_PRICING_RULE = timed<VdBillableUsage, VdModelPrice>({
  family: 'vd',
  perSecond: (u) => ['per_second', u.resolution],
  multipliers: [
    { line: 'audio', field: 'audio_bp', when: (u) => u.audio },
    { line: 'off_peak', field: 'off_peak_bp', when: (u) => u.offPeak },
  ],
  surcharges: [{ line: 'reference_videos', field: 'per_reference_video', count: (u) => u.referenceVideos }],
}) as PricingRule<BillableUsage>;
