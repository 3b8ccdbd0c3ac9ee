import { TaskDurations, durationKind } from './task-durations';

describe('TaskDurations', () => {
  it('learns nothing from fewer than four finished tasks of a kind', () => {
    const d = new TaskDurations();
    for (const ms of [3000, 3100, 3200]) d.observe('ax|r2v|m', ms);
    expect(d.typical('ax|r2v|m')).toBeUndefined();
    d.observe('ax|r2v|m', 3300);
    expect(d.typical('ax|r2v|m')).toBe(3000);
  });

  it.each([
    ['a low quantile, not the mean: one slow task does not move it', [10_000, 10_500, 11_000, 12_000, 600_000], 10_000],
    ['only the recent tasks count', [...Array(40).fill(1000), ...Array(32).fill(5000)], 5000],
  ])('%s', (_name, runs, expected) => {
    const d = new TaskDurations();
    for (const ms of runs as number[]) d.observe('k', ms);
    expect(d.typical('k')).toBe(expected);
  });

  it('keeps kinds apart and ignores a run time that is not positive', () => {
    const d = new TaskDurations();
    for (let i = 0; i < 4; i++) d.observe(durationKind({ family: 'ax', action: 'r2v', model: 'a' }), 2000);
    d.observe('other', 0);
    expect(d.typical('ax|r2v|a')).toBe(2000);
    expect(d.typical('ax|r2v|b')).toBeUndefined();
    expect(d.typical('other')).toBeUndefined();
  });
});
