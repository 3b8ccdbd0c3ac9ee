import { GatewayError } from '../../../platform/errors';
import { parseKlListQuery } from './kl-task-list';

const param = (q: Record<string, unknown>) => {
  try {
    parseKlListQuery(q);
  } catch (error) {
    if (error instanceof GatewayError) return error.param;
  }
  return 'accepted';
};

describe('kl list query: the flat filter form', () => {
  it.each([
    ['2', '500', 'kl-v1-6'],
    ['2', '5', 'kl-v1'],
  ])('reads page %s of %s, model %s and the task IDs', (pageNum, pageSize, model) => {
    const query = { pageNum, pageSize, 'filter.model': model, 'filter.task_ids': ['a', 'b'] };
    expect(parseKlListQuery(query)).toEqual({ page: +pageNum, pageSize: +pageSize, model, ids: ['a', 'b'] });
  });
});

describe('kl list query', () => {
  it('defaults, and the nested spelling of filters', () => {
    expect(parseKlListQuery({})).toEqual({ page: 1, pageSize: 20, model: undefined, ids: undefined });
    expect(parseKlListQuery({ filter: { task_ids: 'a' } })).toMatchObject({ ids: ['a'] });
  });

  it.each([
    [{ pageNum: '0' }, 'pageNum'],
    [{ pageNum: '501' }, 'pageNum'],
    [{ pageSize: 'x' }, 'pageSize'],
    [{ pageSize: '1.5' }, 'pageSize'],
    [{ 'filter.task_ids': Array.from({ length: 101 }, (_, i) => `t${i}`) }, 'filter.task_ids'],
  ])('refuses %p', (q, p) => expect(param(q)).toBe(p));

  it('takes 100 task IDs', () =>
    expect(param({ 'filter.task_ids': Array.from({ length: 100 }, (_, i) => `t${i}`) })).toBe('accepted'));
});

const paramOf = (fn: () => unknown): string | null | undefined => {
  try {
    fn();
  } catch (error) {
    if (error instanceof GatewayError) return error.param;
  }
  return undefined;
};

describe('kl list query: strict parameters', () => {
  it('defaults to page 1 of 20', () => {
    expect(parseKlListQuery({})).toEqual({ page: 1, pageSize: 20 });
  });

  it('reads the nested filter form', () => {
    expect(parseKlListQuery({ filter: { task_ids: 'a' } })).toEqual({ page: 1, pageSize: 20, ids: ['a'] });
  });

  it.each([
    [{ pageNum: '0' }, 'pageNum'],
    [{ pageNum: '501' }, 'pageNum'],
    [{ pageSize: '1.5' }, 'pageSize'],
    [{ pageSize: ['1', '2'] }, 'pageSize'],
    [{ 'filter.task_ids': Array.from({ length: 101 }, (_, i) => `t${i}`) }, 'filter.task_ids'],
    [{ 'filter.status': 'x' }, 'filter.status'],
  ])('refuses %j naming %s', (query, param) => {
    expect(paramOf(() => parseKlListQuery(query))).toBe(param);
  });
});
