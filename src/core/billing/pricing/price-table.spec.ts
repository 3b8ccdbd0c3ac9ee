import { readFileSync, writeFileSync } from 'fs';
import { FAMILY_REGISTRY } from '../../../../test/support/families';
import { tempDirs } from '../../../../test/support/temp-dirs';
import { join } from 'path';
import { GatewayError } from '../../../platform/errors';
import { MAX_PRICE_VERSION, checkPriceTable, loadPriceTable, validatePriceTable } from './price-table';

const SHIPPED = join(__dirname, '../../../../config/prices.json');
const pricesDir = tempDirs('prices-');
const shippedJson = (): any => JSON.parse(readFileSync(SHIPPED, 'utf8'));

/** The violation a modified copy of the shipped table produces. */
function violationOf(edit: (raw: any) => void): { param: string | null; message: string } {
  const raw = shippedJson();
  edit(raw);
  const result = checkPriceTable(raw, FAMILY_REGISTRY);
  if (!('violation' in result)) throw new Error('expected the table to be rejected');
  return result.violation;
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

/** vd resolutions per model, as the vendor offers them (both call modes). */
const VD_RESOLUTIONS: Record<string, string[]> = {
  'vdq3-mix': ['720p', '1080p'],
  'vdq3-turbo': ['540p', '720p', '1080p'],
  vdq3: ['540p', '720p', '1080p'],
  'vdq2-pro': ['540p', '720p', '1080p'],
  vdq2: ['540p', '720p', '1080p'],
  vdq1: ['1080p'],
  'vd2.0': ['360p', '720p'],
};

describe('shipped config/prices.json', () => {
  const table = loadPriceTable(SHIPPED, FAMILY_REGISTRY);

  it('is valid, versioned and documents its integer unit', () => {
    expect(Number.isInteger(table.version)).toBe(true);
    expect(table.version).toBeGreaterThanOrEqual(1);
    expect(table.unit).toBe('millicredit');
    expect(table.currency_unit).toMatch(/1\/1000 credit/);
  });

  it('prices every catalogue model and nothing else', () => {
    expect(Object.keys(table.models).sort()).toEqual(
      FAMILY_REGISTRY.all()
        .map((m) => m.name)
        .sort(),
    );
  });

  it('prices exactly the resolutions each vd model accepts', () => {
    for (const [model, resolutions] of Object.entries(VD_RESOLUTIONS)) {
      expect([model, Object.keys((table.models[model] as any).per_second).sort()]).toEqual([
        model,
        [...resolutions].sort(),
      ]);
    }
  });

  it('prices the flash audio switch and the editing model', () => {
    expect((table.models['wx2.6-r2v-flash'] as any).silent_bp).toBeLessThan(10000);
    expect((table.models['kl-v1-6'] as any).edit_per_second).toEqual({
      std: expect.any(Number),
      pro: expect.any(Number),
    });
  });

  it('round-trips as the same JSON (what GET /admin/v1/prices shows)', () => {
    expect(JSON.parse(JSON.stringify(table))).toEqual(shippedJson());
  });
});

describe('price table validation', () => {
  it('rejects a negative price, naming the field path', () => {
    const v = violationOf((t) => (t.models['wx2.6-r2v'].per_second['720P'] = -1));
    expect(v.param).toBe('models.wx2.6-r2v.per_second.720P');
    expect(v.message).toContain('models.wx2.6-r2v.per_second.720P');
  });

  it('rejects floating-point amounts and numeric strings', () => {
    expect(violationOf((t) => (t.models.vdq2.per_second['720p'] = 600.5)).param).toBe('models.vdq2.per_second.720p');
    expect(violationOf((t) => (t.models.vdq2.audio_bp = 12500.5)).message).toMatch(
      /models\.vdq2\.audio_bp must be an integer/,
    );
    expect(violationOf((t) => (t.models['kl-v1'].voice = '5000')).param).toBe('models.kl-v1.voice');
    expect(violationOf((t) => (t.version = 1.5)).param).toBe('version');
  });

  it('rejects a table missing a catalogue model', () => {
    const v = violationOf((t) => delete t.models['vd2.0']);
    expect(v).toEqual({ param: 'models.vd2.0', message: 'models.vd2.0 has no price entry.' });
  });

  it('rejects a model the catalogue does not know', () => {
    expect(violationOf((t) => (t.models['nope-1'] = { voice: 1 })).param).toBe('models.nope-1');
  });

  it("rejects a missing required price and an entry of another family's shape", () => {
    expect(violationOf((t) => delete t.models['wx2.7-r2v'].per_reference_video).param).toBe(
      'models.wx2.7-r2v.per_reference_video',
    );
    expect(violationOf((t) => delete t.models['wx2.7-r2v'].per_second['1080P']).param).toBe(
      'models.wx2.7-r2v.per_second.1080P',
    );
    expect(violationOf((t) => (t.models.vdq3 = { voice: 5000 })).param).toMatch(/^models\.vdq3\./);
    expect(violationOf((t) => (t.models['kl-v1'] = 7)).param).toBe('models.kl-v1');
  });

  it('rejects unknown fields instead of ignoring them', () => {
    const v = violationOf((t) => (t.models.vdq1.per_second['4k'] = 100));
    expect(v.param).toBe('models.vdq1.per_second.4k');
    expect(v.message).toMatch(/Unknown field/);
    expect(violationOf((t) => (t.extra = 1)).param).toBe('extra');
  });

  it('rejects prototype keys as unknown fields wherever they sit (class-transformer would build from them)', () => {
    const prototypeKey = (): unknown => JSON.parse('{"constructor":{"prototype":{"x":1}}}');
    const cases: Array<[(t: any) => void, string]> = [
      [(t) => (t.models.vdq3.per_second = prototypeKey()), 'models.vdq3.per_second.constructor'],
      [(t) => (t.models.vdq3.audio_bp = prototypeKey()), 'models.vdq3.audio_bp.constructor'],
      [(t) => (t.models.constructor = 1), 'models.constructor'],
      [(t) => (t.models['wx2.7-r2v'].prototype = 1), 'models.wx2.7-r2v.prototype'],
    ];
    for (const [edit, param] of cases) {
      expect(violationOf(edit)).toEqual({ param, message: `Unknown field '${param}'.` });
    }
  });

  it('requires vd models to price at least one resolution', () => {
    expect(violationOf((t) => (t.models.vdq1.per_second = {})).param).toBe('models.vdq1.per_second');
  });

  it('keeps multipliers on the right side of x1: discounts cannot raise, premiums cannot lower', () => {
    expect(violationOf((t) => (t.models.vdq2.off_peak_bp = 10001)).param).toBe('models.vdq2.off_peak_bp');
    expect(violationOf((t) => (t.models['wx2.6-r2v-flash'].silent_bp = 10001)).param).toBe(
      'models.wx2.6-r2v-flash.silent_bp',
    );
    expect(violationOf((t) => (t.models.vdq2.audio_bp = 9999)).param).toBe('models.vdq2.audio_bp');
    expect(violationOf((t) => (t.models.vdq2.audio_bp = 100001)).param).toBe('models.vdq2.audio_bp');
  });

  it('rejects a version beyond MAX_PRICE_VERSION, which would leave no room for the next one', () => {
    expect(violationOf((t) => (t.version = MAX_PRICE_VERSION + 1)).param).toBe('version');
    expect(violationOf((t) => (t.version = 2 ** 53)).param).toBe('version');
    const raw = shippedJson();
    raw.version = MAX_PRICE_VERSION;
    expect(checkPriceTable(raw, FAMILY_REGISTRY)).toHaveProperty('table.version', MAX_PRICE_VERSION);
  });

  it('rejects a body that is not an object', () => {
    expect(checkPriceTable([1], FAMILY_REGISTRY)).toEqual({
      violation: { param: null, message: 'The price table must be a JSON object.' },
    });
  });
});

describe('validatePriceTable (admin API) and loadPriceTable (config file)', () => {
  it('answers a bad admin table with a 400 naming the field', () => {
    const raw = shippedJson();
    raw.models.vdq3.off_peak_bp = -5;
    const err = thrown(() => validatePriceTable(raw, FAMILY_REGISTRY)) as GatewayError;
    expect(err).toBeInstanceOf(GatewayError);
    expect([err.status, err.code, err.param]).toEqual([400, 'invalid_request', 'models.vdq3.off_peak_bp']);
  });

  it('stops start-up with a plain Error naming the file and the field', () => {
    const dir = pricesDir();
    const file = join(dir, 'prices.json');
    const raw = shippedJson();
    delete raw.models['kl-v1'];
    writeFileSync(file, JSON.stringify(raw));
    const load = () => loadPriceTable(file, FAMILY_REGISTRY);
    expect(load).toThrow(/prices\.json: models\.kl-v1 has no price entry/);
    expect(thrown(load)).not.toBeInstanceOf(GatewayError);

    writeFileSync(file, '{ not json');
    expect(load).toThrow(/Cannot read the price table/);
    expect(() => loadPriceTable(join(dir, 'missing.json'), FAMILY_REGISTRY)).toThrow(/Cannot read the price table/);
  });
});
