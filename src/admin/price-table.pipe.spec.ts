import { readFileSync } from 'fs';
import { join } from 'path';
import { FAMILY_REGISTRY } from '../../test/support/families';
import { PriceTablePipe } from './price-table.pipe';

describe('PriceTablePipe', () => {
  const pipe = new PriceTablePipe(FAMILY_REGISTRY);
  const table = JSON.parse(readFileSync(join(__dirname, '../../config/prices.json'), 'utf8')) as {
    models: Record<string, Record<string, unknown>>;
  };

  it('hands the checked table to the handler', () => {
    expect(pipe.transform(table)).toMatchObject({ version: expect.any(Number), models: expect.any(Object) });
  });

  it('refuses a bad table with a 400 naming the field, before the service runs', () => {
    const bad = { ...table, models: { ...table.models, vdq3: { ...table.models.vdq3, audio_bp: -1 } } };
    expect(() => pipe.transform(bad)).toThrow(expect.objectContaining({ status: 400, param: 'models.vdq3.audio_bp' }));
    expect(() => pipe.transform('not a table')).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('takes a table without a version as asking for the next one; a version sent is still checked', () => {
    const { version: _version, ...unnumbered } = table as { version?: number; models: unknown };
    expect(pipe.transform(unnumbered)).toMatchObject({ version: 1, models: expect.any(Object) });
    expect(() => pipe.transform({ ...table, version: 0 })).toThrow(
      expect.objectContaining({ status: 400, param: 'version' }),
    );
  });
});
