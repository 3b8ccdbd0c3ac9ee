import { newTimeline, phaseAt, phaseStartedAt } from './task-clock';
import { readMarkers } from './markers';

describe('task clock', () => {
  it('is queued for the first half, running for the second half, then terminal', () => {
    const timeline = newTimeline(1000, new Set(), 10_000);
    expect(phaseAt(timeline, 10_000)).toBe('queued');
    expect(phaseAt(timeline, 10_499)).toBe('queued');
    expect(phaseAt(timeline, 10_500)).toBe('running');
    expect(phaseAt(timeline, 10_999)).toBe('running');
    expect(phaseAt(timeline, 11_000)).toBe('succeeded');
  });

  it('ends failed with sim:fail and takes ten times longer with sim:slow', () => {
    const timeline = newTimeline(100, readMarkers('a sim:fail sim:slow prompt'), 0);
    expect(timeline.durationMs).toBe(1000);
    expect(phaseAt(timeline, 999)).toBe('running');
    expect(phaseAt(timeline, 1000)).toBe('failed');
  });

  it('reports when the current phase began', () => {
    const timeline = newTimeline(1000, new Set(), 0);
    expect(phaseStartedAt(timeline, 100)).toBe(0);
    expect(phaseStartedAt(timeline, 700)).toBe(500);
    expect(phaseStartedAt(timeline, 5000)).toBe(1000);
  });
});

describe('markers', () => {
  it('finds every marker in any string argument and ignores non-strings and near misses', () => {
    expect([...readMarkers('x sim:reject y', undefined, 42, 'sim:hang')].sort()).toEqual(['hang', 'reject']);
    expect(readMarkers('sim:failure sim: fail SIM:FAIL').size).toBe(0);
    expect([...readMarkers('sim:error500')]).toEqual(['error500']);
  });
});
