import fc from 'fast-check';
import { FAMILY_REGISTRY } from '../../../../test/support/families';
import { BillableUsage } from '../billable-usage';
import { ModelDescriptor } from '../../models/model-catalogue';
import { AxModelPrice } from '../../../families/ax/ax.pricing';
import { VdModelPrice } from '../../../families/vd/vd.pricing';
import { MAX_BASIS_POINTS, PriceTable, validatePriceTable } from './price-table';
import { estimateCharge, finalCharge } from './pricing';
import { BP_ONE } from './units';

/** Any valid table: random integer prices for every catalogue model, validated like an admin PUT. */
const price = fc.integer({ min: 0, max: 100_000 });
const discount = fc.integer({ min: 0, max: BP_ONE });
const premium = fc.integer({ min: BP_ONE, max: MAX_BASIS_POINTS });
const entryOf: Record<string, fc.Arbitrary<unknown>> = {
  ax: fc.record(
    {
      per_second: fc.record({ '720P': price, '1080P': price }),
      per_reference_image: price,
      per_reference_video: price,
      silent_bp: discount,
    },
    { requiredKeys: ['per_second', 'per_reference_image', 'per_reference_video'] },
  ),
  vd: fc.record({
    per_second: fc.record({ '360p': price, '540p': price, '720p': price, '1080p': price }, { requiredKeys: ['720p'] }),
    audio_bp: premium,
    off_peak_bp: discount,
    per_reference_video: price,
  }),
  kl: fc.record(
    {
      edit_per_second: fc.record({ std: price, pro: price }),
      voice: price,
      session_ops: fc.record(
        { init: price, add: price, delete: price, clear: price, preview: price },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ['edit_per_second', 'voice'] },
  ),
};
const anyTable: fc.Arbitrary<PriceTable> = fc
  .tuple(fc.integer({ min: 1, max: 1000 }), ...FAMILY_REGISTRY.all().map((m: ModelDescriptor) => entryOf[m.family]))
  .map(([version, ...entries]) =>
    validatePriceTable(
      {
        version,
        unit: 'millicredit',
        currency_unit: '1/1000 credit',
        models: Object.fromEntries(FAMILY_REGISTRY.all().map((m: ModelDescriptor, i: number) => [m.name, entries[i]])),
      },
      FAMILY_REGISTRY,
    ),
  );

/** A valid usage for `model` under `table` (only what the table can price, as request rules ensure). */
function usageFor(table: PriceTable, model: string): fc.Arbitrary<BillableUsage> {
  const family = FAMILY_REGISTRY.all().find((m: ModelDescriptor) => m.name === model)!.family;
  if (family === 'ax') {
    const hasSwitch = (table.models[model] as AxModelPrice).silent_bp !== undefined;
    return fc.record({
      kind: fc.constant('ax-r2v' as const),
      resolution: fc.constantFrom('720P' as const, '1080P' as const),
      durationSeconds: fc.integer({ min: 2, max: 15 }),
      referenceImages: fc.integer({ min: 0, max: 5 }),
      referenceVideos: fc.integer({ min: 0, max: 3 }),
      audio: hasSwitch ? fc.boolean() : fc.constant(null),
    });
  }
  if (family === 'vd') {
    return fc.record({
      kind: fc.constant('vd-r2v' as const),
      mode: fc.constantFrom('subject' as const, 'non-subject' as const),
      resolution: fc.constantFrom(...Object.keys((table.models[model] as VdModelPrice).per_second)),
      durationSeconds: fc.integer({ min: 1, max: 16 }),
      audio: fc.boolean(),
      offPeak: fc.boolean(),
      referenceVideos: fc.integer({ min: 0, max: 2 }),
    });
  }
  return fc.oneof(
    fc.record({
      kind: fc.constant('kl-edit' as const),
      mode: fc.constantFrom('std' as const, 'pro' as const),
      durationSeconds: fc.constantFrom(5 as const, 10 as const),
    }),
    fc.constant({ kind: 'kl-voice' as const }),
    fc.record({
      kind: fc.constant('kl-session-op' as const),
      operation: fc.constantFrom(
        'init' as const,
        'add' as const,
        'delete' as const,
        'clear' as const,
        'preview' as const,
      ),
    }),
  );
}

const priced = anyTable.chain((table) =>
  fc
    .constantFrom(...FAMILY_REGISTRY.all().map((m: ModelDescriptor) => m.name))
    .chain((model) => usageFor(table, model).map((usage) => ({ table, model, usage }))),
);
/** Anything an upstream might report, sensible or not. */
const outputSeconds = fc.option(
  fc.oneof(fc.integer({ min: -5, max: 40 }), fc.double({ min: -5, max: 40, noNaN: false })),
  { nil: undefined },
);
const isAmount = (n: number) => Number.isSafeInteger(n) && n >= 0;
const total = (breakdown: Record<string, number>) => Object.values(breakdown).reduce((a, b) => a + b, 0);

describe('pricing properties', () => {
  it('estimates are non-negative integers whose lines add up', () => {
    fc.assert(
      fc.property(priced, ({ table, model, usage }) => {
        const c = estimateCharge(FAMILY_REGISTRY, table, model, usage);
        expect(isAmount(c.amount)).toBe(true);
        expect(Object.values(c.breakdown).every(Number.isSafeInteger)).toBe(true);
        expect(total(c.breakdown)).toBe(c.amount);
        expect(c.priceVersion).toBe(table.version);
      }),
    );
  });

  it('final charges are non-negative integers, never above the estimate', () => {
    fc.assert(
      fc.property(priced, outputSeconds, ({ table, model, usage }, seconds) => {
        const final = finalCharge(FAMILY_REGISTRY, table, model, usage, { outputSeconds: seconds });
        expect(isAmount(final.amount)).toBe(true);
        expect(total(final.breakdown)).toBe(final.amount);
        expect(final.amount).toBeLessThanOrEqual(estimateCharge(FAMILY_REGISTRY, table, model, usage).amount);
      }),
    );
  });

  it('estimates never decrease as the requested duration grows', () => {
    fc.assert(
      fc.property(priced, fc.integer({ min: 0, max: 10 }), ({ table, model, usage }, more) => {
        fc.pre(usage.kind === 'ax-r2v' || usage.kind === 'vd-r2v');
        const longer = {
          ...usage,
          durationSeconds: (usage as unknown as { durationSeconds: number }).durationSeconds + more,
        } as BillableUsage;
        expect(estimateCharge(FAMILY_REGISTRY, table, model, longer).amount).toBeGreaterThanOrEqual(
          estimateCharge(FAMILY_REGISTRY, table, model, usage).amount,
        );
      }),
    );
  });

  it('final charges never decrease as the output grows', () => {
    fc.assert(
      fc.property(
        priced,
        fc.double({ min: 0.001, max: 20, noNaN: true }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        ({ table, model, usage }, shorter, extra) => {
          const a = finalCharge(FAMILY_REGISTRY, table, model, usage, { outputSeconds: shorter }).amount;
          const b = finalCharge(FAMILY_REGISTRY, table, model, usage, { outputSeconds: shorter + extra }).amount;
          expect(b).toBeGreaterThanOrEqual(a);
        },
      ),
    );
  });
});
