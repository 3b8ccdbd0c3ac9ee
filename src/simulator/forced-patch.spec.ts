import { ForcedPatches, deepMerge } from './forced-patch';

describe('forced patches', () => {
  it('deep-merges objects, replaces arrays and scalars, deletes undefined keys', () => {
    const merged = deepMerge(
      { a: { b: 1, c: 2 }, list: [1, 2], gone: true, keep: 'x' },
      { a: { b: '1' }, list: [3], gone: undefined, added: null },
    );
    expect(merged).toEqual({ a: { b: '1', c: 2 }, list: [3], keep: 'x', added: null });
  });

  it('applies only to the forced task, never mutates the input, and can be removed', () => {
    const patches = new ForcedPatches();
    const body = { output: { task_status: 'RUNNING' } };
    patches.set('t1', { output: { task_status: 'WEIRD' } });
    expect(patches.apply('t1', body)).toEqual({ output: { task_status: 'WEIRD' } });
    expect(body.output.task_status).toBe('RUNNING');
    expect(patches.apply('t2', body)).toBe(body);
    patches.set('t1', () => 'replaced');
    expect(patches.apply('t1', body)).toBe('replaced');
    patches.set('t1', null);
    expect(patches.apply('t1', body)).toBe(body);
  });
});
