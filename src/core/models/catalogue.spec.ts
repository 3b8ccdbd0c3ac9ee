import { ALL_CAPABILITIES, MODEL_CATALOGUE, findModel } from './catalogue';

describe('model catalogue', () => {
  it('holds the 13 models of SPEC.md, each once', () => {
    const names = MODEL_CATALOGUE.map((m) => m.name);
    expect(new Set(names).size).toBe(13);
    expect(names.sort()).toEqual(
      ['kl-v1', 'kl-v1-6', 'wx2.7-r2v', 'wx2.7-r2v-2026-06-12', 'wx2.6-r2v', 'wx2.6-r2v-flash', 'vdq3-mix', 'vdq3-turbo', 'vdq3', 'vdq2-pro', 'vdq2', 'vdq1', 'vd2.0'].sort(),
    );
  });

  it('chooses the family B protocol by model', () => {
    expect(findModel('wx2.7-r2v')?.protocol).toBe('ax-r2v-new');
    expect(findModel('wx2.7-r2v-2026-06-12')?.protocol).toBe('ax-r2v-new');
    expect(findModel('wx2.6-r2v')?.protocol).toBe('ax-r2v-old');
    expect(findModel('wx2.6-r2v-flash')?.protocol).toBe('ax-r2v-old');
  });

  it('only names known capabilities', () => {
    for (const m of MODEL_CATALOGUE) for (const c of m.capabilities) expect(ALL_CAPABILITIES).toContain(c);
    expect(findModel('nope')).toBeUndefined();
  });
});
