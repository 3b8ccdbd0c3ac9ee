import { IsOptional } from 'class-validator';
import type { BillableUsage } from '../../core/billing/billable-usage';
import { Nested, Price, PricingRule, flat, timed } from '../../core/billing/pricing';

/** kl's billable work: editing tasks by mode and seconds, custom voices, session calls. */
export interface KlEditUsage extends BillableUsage {
  kind: 'kl-edit';
  mode: 'std' | 'pro';
  durationSeconds: 5 | 10;
}
export interface KlVoiceUsage extends BillableUsage {
  kind: 'kl-voice';
}
export type KlSessionOperation = 'init' | 'add' | 'delete' | 'clear' | 'preview';
export interface KlSessionOpUsage extends BillableUsage {
  kind: 'kl-session-op';
  operation: KlSessionOperation;
}

/** kl editing: price per output second by `mode`. */
export class KlEditPerSecond {
  @Price() std: number;
  @Price() pro: number;
}

/** kl session operations, per call; an absent operation costs 0. */
export class KlSessionOps {
  @IsOptional() @Price() init?: number;
  @IsOptional() @Price() add?: number;
  @IsOptional() @Price() delete?: number;
  @IsOptional() @Price() clear?: number;
  @IsOptional() @Price() preview?: number;
}

export class KlModelPrice {
  /** Only the editing model needs it (`kl-v1-6`); pricing an edit without it is a config fault. */
  @IsOptional() @Nested(() => KlEditPerSecond) edit_per_second?: KlEditPerSecond;
  /** Flat price of creating one custom voice. */
  @Price() voice: number;
  @IsOptional() @Nested(() => KlSessionOps) session_ops?: KlSessionOps;
}

export const KL_PRICING_RULES: Record<string, PricingRule<BillableUsage>> = {
  'kl-edit': timed<KlEditUsage, KlModelPrice>({
    family: 'kl',
    perSecond: (u) => ['edit_per_second', u.mode],
    multipliers: [],
    surcharges: [],
  }) as PricingRule<BillableUsage>,
  'kl-voice': flat<KlVoiceUsage>('kl', 'voice', () => ['voice']) as PricingRule<BillableUsage>,
  // Session operations are free unless the operator prices them.
  'kl-session-op': flat<KlSessionOpUsage>(
    'kl',
    'session_op',
    (u) => ['session_ops', u.operation],
    0,
  ) as PricingRule<BillableUsage>,
};
