import { FAMILY_REGISTRY } from '../../test/support/families';
import { AdminFiltersPipe } from './admin-filters.pipe';

describe('AdminFiltersPipe', () => {
  const pipe = new AdminFiltersPipe(FAMILY_REGISTRY);

  it('passes filters the gateway serves, and a query without them', () => {
    expect(pipe.transform({ family: 'vd', model: 'vdq3', limit: 5 })).toEqual({
      family: 'vd',
      model: 'vdq3',
      limit: 5,
    });
    expect(pipe.transform({})).toEqual({});
  });

  it.each([
    [{ family: 'zz' }, 'family'],
    [{ family: 'B' }, 'family'],
    [{ model: 'vdq-3' }, 'model'],
  ])('refuses %j with 400 naming %s', (query, param) => {
    expect(() => pipe.transform(query)).toThrow(expect.objectContaining({ status: 400, param }));
  });
});
