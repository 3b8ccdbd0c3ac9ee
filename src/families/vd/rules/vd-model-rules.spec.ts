import fc from 'fast-check';
import { FAMILY_REGISTRY } from '../../../../test/support/families';
import {
  VD_MODEL_NAMES,
  VD_MODEL_RULES,
  VdDurationRule,
  aspectRatioAccepted,
  bgmTakesEffect,
  durationAccepted,
  effectiveDuration,
  maxImagesFor,
  offPeakSupported,
  vdModelRules,
  vdModesOf,
} from './vd-model-rules';

describe('vd rule functions', () => {
  it('keys the table by the catalogue names of vd, each row naming itself', () => {
    expect([...VD_MODEL_NAMES].sort()).toEqual(
      FAMILY_REGISTRY.all()
        .filter((m) => m.family === 'vd')
        .map((m) => m.name)
        .sort(),
    );
    for (const name of VD_MODEL_NAMES) expect(VD_MODEL_RULES[name].model).toBe(name);
  });

  it('finds rows by own name only', () => {
    expect(vdModelRules('vdq2-pro')?.series).toBe('q2');
    for (const name of ['toString', '__proto__', 'constructor', 'kl-v1', ''])
      expect(vdModelRules(name)).toBeUndefined();
  });

  it('offers non-subject mode only for vdq3-mix, both modes for the others', () => {
    for (const name of VD_MODEL_NAMES)
      expect(vdModesOf(VD_MODEL_RULES[name])).toEqual(
        name === 'vdq3-mix' ? ['non-subject'] : ['subject', 'non-subject'],
      );
  });

  it('accepts exactly the integers of a duration range, and 0 only where allowed', () => {
    const arb = fc.record({
      min: fc.integer({ min: 1, max: 20 }),
      span: fc.integer({ min: 0, max: 20 }),
      zeroAllowed: fc.boolean(),
    });
    fc.assert(
      fc.property(
        arb,
        fc.oneof(fc.integer({ min: -50, max: 60 }), fc.double({ min: -50, max: 60, noNaN: true })),
        ({ min, span, zeroAllowed }, value) => {
          const rule: VdDurationRule = { default: min, min, max: min + span, zeroAllowed };
          const expected = value === 0 ? zeroAllowed : Number.isInteger(value) && value >= min && value <= min + span;
          expect(durationAccepted(rule, value)).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('uses the default for an absent duration, and for 0 where 0 is allowed', () => {
    const rule: VdDurationRule = { default: 5, min: 1, max: 10, zeroAllowed: true };
    expect([effectiveDuration(rule, undefined), effectiveDuration(rule, 0), effectiveDuration(rule, 7)]).toEqual([
      5, 5, 7,
    ]);
  });

  it("reads 'any' aspect ratio as any W:H of positive integers", () => {
    const any = { default: '16:9', allowed: 'any' as const };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 9999 }), (w, h) =>
        aspectRatioAccepted(any, `${w}:${h}`),
      ),
    );
    for (const bad of ['0:1', '1:0', '16/9', '16:9 ', ':9', '01:2', 'a:b', ''])
      expect(aspectRatioAccepted(any, bad)).toBe(false);
    const list = { default: '16:9', allowed: ['16:9', '1:1'] };
    expect([aspectRatioAccepted(list, '1:1'), aspectRatioAccepted(list, '4:3')]).toEqual([true, false]);
  });

  it('supports off_peak only under the series audio condition', () => {
    expect([true, false].map((a) => offPeakSupported({ supported: true, whenAudio: true }, a))).toEqual([true, false]);
    expect([true, false].map((a) => offPeakSupported({ supported: true, whenAudio: false }, a))).toEqual([false, true]);
    expect([true, false].map((a) => offPeakSupported({ supported: false }, a))).toEqual([false, false]);
  });

  it('knows when bgm adds music', () => {
    const q2 = VD_MODEL_RULES.vdq2.modes['non-subject']!.bgm;
    expect([1, 8, 9, 10].map((d) => bgmTakesEffect(q2, d))).toEqual([true, true, false, false]);
    expect(bgmTakesEffect(VD_MODEL_RULES.vdq3.modes['non-subject']!.bgm, 5)).toBe(false);
    expect(bgmTakesEffect(VD_MODEL_RULES.vdq1.modes['non-subject']!.bgm, 5)).toBe(true);
    expect(bgmTakesEffect(VD_MODEL_RULES.vdq1.modes.subject!.bgm, 5)).toBe(false);
  });

  it('lowers the image limit with video input', () => {
    const refs = VD_MODEL_RULES['vdq2-pro'].modes['non-subject']!.references;
    expect([maxImagesFor(refs, 0), maxImagesFor(refs, 1), maxImagesFor(refs, 2)]).toEqual([7, 4, 4]);
  });
});
