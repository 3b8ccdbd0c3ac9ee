import { readFileSync } from 'fs';
import { FAMILY_REGISTRY } from '../../../../test/support/families';
import { join } from 'path';
import { BillableUsage } from '../billable-usage';
import { GatewayError } from '../../../platform/errors';
import { AxModelPrice } from '../../../families/ax/ax.pricing';
import { KlModelPrice } from '../../../families/kl/kl.pricing';
import { VdBillableUsage, VdModelPrice } from '../../../families/vd/vd.pricing';
import { loadPriceTable, PriceTable, validatePriceTable } from './price-table';
import { estimateCharge, finalCharge } from './pricing';
import { axUsage } from '../../../../test/factories/billing';

const SHIPPED = join(__dirname, '../../../../config/prices.json');
const table = loadPriceTable(SHIPPED, FAMILY_REGISTRY);
const ax = (model: string) => table.models[model] as AxModelPrice;
const vd = (model: string) => table.models[model] as VdModelPrice;
const kl = (model: string) => table.models[model] as KlModelPrice;
const est = (model: string, usage: BillableUsage, t: PriceTable = table) =>
  estimateCharge(FAMILY_REGISTRY, t, model, usage).amount;

/** The shipped table with one edit, validated like an admin PUT. */
function tableWith(edit: (raw: any) => void): PriceTable {
  const raw = JSON.parse(readFileSync(SHIPPED, 'utf8'));
  edit(raw);
  return validatePriceTable(raw, FAMILY_REGISTRY);
}

type VdUsage = VdBillableUsage;
const vdUsage = (over: Partial<VdUsage> = {}): VdUsage => ({
  kind: 'vd-r2v',
  mode: 'non-subject',
  resolution: '720p',
  durationSeconds: 5,
  audio: false,
  offPeak: false,
  referenceVideos: 0,
  ...over,
});

describe('ax pricing', () => {
  const p = ax('wx2.7-r2v');

  it('charges the per-second price of the resolution tier for each second', () => {
    expect(est('wx2.7-r2v', axUsage())).toBe(5 * p.per_second['720P']);
    expect(est('wx2.7-r2v', axUsage({ resolution: '1080P' })) - est('wx2.7-r2v', axUsage())).toBe(
      5 * (p.per_second['1080P'] - p.per_second['720P']),
    );
    expect(p.per_second['1080P']).toBeGreaterThan(p.per_second['720P']);
  });

  it('adds one per-second price per extra second', () => {
    expect(est('wx2.6-r2v', axUsage({ durationSeconds: 6 })) - est('wx2.6-r2v', axUsage())).toBe(
      ax('wx2.6-r2v').per_second['720P'],
    );
  });

  it('adds a surcharge per reference image and per reference video', () => {
    const base = est('wx2.7-r2v', axUsage());
    expect(est('wx2.7-r2v', axUsage({ referenceImages: 3 })) - base).toBe(3 * p.per_reference_image);
    expect(est('wx2.7-r2v', axUsage({ referenceVideos: 2 })) - base).toBe(2 * p.per_reference_video);
    expect(p.per_reference_image).toBeGreaterThan(0);
    expect(p.per_reference_video).toBeGreaterThan(0);
  });

  it('makes silent flash output cheaper by its multiplier, sound the default price', () => {
    const f = ax('wx2.6-r2v-flash');
    const sound = estimateCharge(
      FAMILY_REGISTRY,
      table,
      'wx2.6-r2v-flash',
      axUsage({ audio: true, referenceImages: 1 }),
    );
    const silent = estimateCharge(
      FAMILY_REGISTRY,
      table,
      'wx2.6-r2v-flash',
      axUsage({ audio: false, referenceImages: 1 }),
    );
    expect(sound.amount).toBe(5 * f.per_second['720P'] + f.per_reference_image);
    expect(silent.breakdown.silent).toBe(
      Math.ceil((5 * f.per_second['720P'] * f.silent_bp!) / 10000) - 5 * f.per_second['720P'],
    );
    expect(silent.amount).toBe(sound.amount + silent.breakdown.silent);
    expect(silent.amount).toBeLessThan(sound.amount);
    // The reference surcharge is not discounted.
    expect(silent.breakdown.reference_images).toBe(f.per_reference_image);
  });

  it('treats a model without an audio switch (audio null) like sound on', () => {
    expect(est('wx2.6-r2v-flash', axUsage({ audio: null }))).toBe(est('wx2.6-r2v-flash', axUsage({ audio: true })));
  });

  it('fails as a config fault when silent output is priced for a model without silent_bp', () => {
    expect(() => estimateCharge(FAMILY_REGISTRY, table, 'wx2.6-r2v', axUsage({ audio: false }))).toThrow(
      'No price configured at models.wx2.6-r2v.silent_bp.',
    );
  });
});

describe('vd pricing', () => {
  const p = vd('vdq3');

  it('charges the per-second price of the resolution', () => {
    for (const res of ['540p', '720p', '1080p'] as const)
      expect(est('vdq3', vdUsage({ resolution: res }))).toBe(5 * p.per_second[res]!);
    expect(p.per_second['540p']!).toBeLessThan(p.per_second['720p']!);
    expect(p.per_second['720p']!).toBeLessThan(p.per_second['1080p']!);
  });

  it('makes audio dearer and off-peak cheaper by their multipliers, compounding', () => {
    const base = 5 * p.per_second['720p']!;
    const withAudio = Math.ceil((base * p.audio_bp) / 10000);
    expect(est('vdq3', vdUsage({ audio: true }))).toBe(withAudio);
    expect(est('vdq3', vdUsage({ offPeak: true }))).toBe(Math.ceil((base * p.off_peak_bp) / 10000));
    expect(est('vdq3', vdUsage({ audio: true, offPeak: true }))).toBe(Math.ceil((withAudio * p.off_peak_bp) / 10000));
    expect(withAudio).toBeGreaterThan(base);
    expect(est('vdq3', vdUsage({ offPeak: true }))).toBeLessThan(base);
  });

  it('adds a surcharge per reference video', () => {
    const q = vd('vdq2-pro');
    expect(q.per_reference_video).toBeGreaterThan(0);
    expect(est('vdq2-pro', vdUsage({ referenceVideos: 2 })) - est('vdq2-pro', vdUsage())).toBe(
      2 * q.per_reference_video,
    );
  });

  it('names its lines so that they add up to the amount', () => {
    const c = estimateCharge(
      FAMILY_REGISTRY,
      table,
      'vdq2-pro',
      vdUsage({ audio: true, offPeak: true, referenceVideos: 1 }),
    );
    expect(Object.keys(c.breakdown)).toEqual(['base', 'audio', 'off_peak', 'reference_videos']);
    expect(Object.values(c.breakdown).reduce((a, b) => a + b, 0)).toBe(c.amount);
    expect(c.breakdown.off_peak).toBeLessThan(0);
  });

  it('fails with a plain Error (not a client error) for a resolution without a price', () => {
    const call = () => estimateCharge(FAMILY_REGISTRY, table, 'vdq1', vdUsage({ resolution: '720p' }));
    expect(call).toThrow('No price configured at models.vdq1.per_second.720p.');
    try {
      call();
    } catch (e) {
      expect(e).not.toBeInstanceOf(GatewayError);
    }
  });
});

describe('kl pricing', () => {
  const p = kl('kl-v1-6');
  const edit = (mode: 'std' | 'pro', durationSeconds: 5 | 10): BillableUsage => ({
    kind: 'kl-edit',
    mode,
    durationSeconds,
  });

  it('prices editing per second by mode', () => {
    expect(est('kl-v1-6', edit('std', 5))).toBe(5 * p.edit_per_second!.std);
    expect(est('kl-v1-6', edit('pro', 5)) - est('kl-v1-6', edit('std', 5))).toBe(
      5 * (p.edit_per_second!.pro - p.edit_per_second!.std),
    );
    expect(p.edit_per_second!.pro).toBeGreaterThan(p.edit_per_second!.std);
  });

  it('charges 10 s of editing twice 5 s', () => {
    expect(est('kl-v1-6', edit('pro', 10))).toBe(2 * est('kl-v1-6', edit('pro', 5)));
  });

  it('fails as a config fault for editing on a model without editing prices', () => {
    expect(() => est('kl-v1', edit('std', 5))).toThrow('No price configured at models.kl-v1.edit_per_second.std.');
  });

  it('charges a custom voice its flat price, estimate and final alike', () => {
    const voice: BillableUsage = { kind: 'kl-voice' };
    expect(estimateCharge(FAMILY_REGISTRY, table, 'kl-v1', voice)).toEqual({
      amount: kl('kl-v1').voice,
      priceVersion: table.version,
      breakdown: { voice: kl('kl-v1').voice },
    });
    expect(kl('kl-v1').voice).toBeGreaterThan(0);
    expect(finalCharge(FAMILY_REGISTRY, table, 'kl-v1', voice, { outputSeconds: 1 }).amount).toBe(kl('kl-v1').voice);
  });

  it('charges session operations their per-call price, 0 by default', () => {
    const op = (operation: 'init' | 'preview'): BillableUsage => ({ kind: 'kl-session-op', operation });
    expect(est('kl-v1', op('preview'))).toBe(0);
    const priced = tableWith((t) => {
      t.models['kl-v1'].session_ops = { preview: 30 };
      delete t.models['kl-v1-6'].session_ops;
    });
    expect(est('kl-v1', op('preview'), priced)).toBe(30);
    expect(est('kl-v1', op('init'), priced)).toBe(0);
    expect(est('kl-v1-6', op('init'), priced)).toBe(0);
  });
});

describe('charges in general', () => {
  it('stamps the price version', () => {
    const v7 = tableWith((t) => (t.version = 7));
    expect(estimateCharge(FAMILY_REGISTRY, v7, 'vdq2', vdUsage()).priceVersion).toBe(7);
    expect(finalCharge(FAMILY_REGISTRY, v7, 'vdq2', vdUsage(), {}).priceVersion).toBe(7);
  });

  it('rounds a fractional multiplier result up to a whole unit, so a hold never under-covers', () => {
    const t = tableWith((raw) => {
      raw.models.vdq2.per_second['720p'] = 1;
      raw.models.vdq2.audio_bp = 10001;
    });
    const c = estimateCharge(FAMILY_REGISTRY, t, 'vdq2', vdUsage({ durationSeconds: 1, audio: true }));
    expect(c).toEqual({ amount: 2, priceVersion: 1, breakdown: { base: 1, audio: 1 } });
  });

  it('fails as a config fault for an unknown model, a model missing from the table, or a usage of another family', () => {
    expect(() => est('nope', vdUsage())).toThrow(/models\.nope/);
    const partial: PriceTable = { ...table, models: { ...table.models } };
    delete partial.models.vdq2;
    expect(() => est('vdq2', vdUsage(), partial)).toThrow('No price configured at models.vdq2 (price version 1).');
    expect(() => est('vdq2', axUsage())).toThrow(/cannot be priced for model 'vdq2'/);
  });

  it('rejects a usage that is not a whole count', () => {
    expect(() => est('wx2.7-r2v', axUsage({ referenceImages: -1 }))).toThrow(/reference_images/);
    expect(() => est('wx2.7-r2v', axUsage({ durationSeconds: Number.NaN }))).toThrow(/durationSeconds/);
  });
});

describe('final charge', () => {
  const usage = vdUsage({ durationSeconds: 8, audio: true, referenceVideos: 1 });
  const estimate = estimateCharge(FAMILY_REGISTRY, table, 'vdq2-pro', usage);
  const final = (outputSeconds?: number) => finalCharge(FAMILY_REGISTRY, table, 'vdq2-pro', usage, { outputSeconds });

  it('bills the reported output seconds', () => {
    expect(final(3)).toEqual(estimateCharge(FAMILY_REGISTRY, table, 'vdq2-pro', { ...usage, durationSeconds: 3 }));
    expect(final(3).amount).toBeLessThan(estimate.amount);
  });

  it('counts a started output second whole', () => {
    expect(final(2.2)).toEqual(final(3));
  });

  it('bills the requested duration when no output seconds are reported', () => {
    expect(final(undefined)).toEqual(estimate);
    for (const junk of [0, -4, Number.NaN, Number.POSITIVE_INFINITY])
      expect([junk, final(junk)]).toEqual([junk, estimate]);
  });

  it('never bills more than the estimate, e.g. for native usage that counts input seconds too', () => {
    expect(final(8.04)).toEqual(estimate);
    expect(final(8 + 12)).toEqual(estimate);
  });

  it('bills ax and kl edits by output seconds too', () => {
    const axu = axUsage({ durationSeconds: 10, referenceImages: 2 });
    expect(finalCharge(FAMILY_REGISTRY, table, 'wx2.7-r2v', axu, { outputSeconds: 4 }).amount).toBe(
      4 * ax('wx2.7-r2v').per_second['720P'] + 2 * ax('wx2.7-r2v').per_reference_image,
    );
    const klu: BillableUsage = { kind: 'kl-edit', mode: 'std', durationSeconds: 10 };
    expect(finalCharge(FAMILY_REGISTRY, table, 'kl-v1-6', klu, { outputSeconds: 9.5 }).amount).toBe(
      est('kl-v1-6', klu),
    );
    expect(finalCharge(FAMILY_REGISTRY, table, 'kl-v1-6', klu, { outputSeconds: 5 }).amount).toBe(
      5 * kl('kl-v1-6').edit_per_second!.std,
    );
  });
});
