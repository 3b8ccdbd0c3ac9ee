import { readListQuery, readVariant } from './video.requests';

describe('the /v1/videos query parameters', () => {
  it('list: after, limit 1-100 (20), order asc/desc (desc)', () => {
    expect(readListQuery({})).toEqual({ after: undefined, limit: 20, order: 'desc' });
    expect(readListQuery({ after: 'task_1', limit: '100', order: 'asc' })).toEqual({
      after: 'task_1',
      limit: 100,
      order: 'asc',
    });
    for (const limit of ['0', '101', 'x', '1.5']) expect(() => readListQuery({ limit })).toThrow(/limit/);
    expect(() => readListQuery({ order: 'up' })).toThrow(/order/);
  });

  it('content: video (default) and thumbnail; any other variant is 404', () => {
    expect(readVariant({})).toBe('video');
    expect(readVariant({ variant: 'thumbnail' })).toBe('thumbnail');
    expect(() => readVariant({ variant: 'spritesheet' })).toThrow(
      expect.objectContaining({ status: 404, param: 'variant' }),
    );
  });
});
