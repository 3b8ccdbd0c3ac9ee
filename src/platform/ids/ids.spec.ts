import { newId } from './ids';

describe('newId', () => {
  it('is a prefixed, lower-case ULID: time-sortable and unique', async () => {
    const a = newId('task');
    // Wait for the clock to move on: within one millisecond only the random part differs.
    const started = Date.now();
    while (Date.now() <= started) await new Promise((r) => setTimeout(r, 1));
    const b = newId('task');
    expect(a).toMatch(/^task_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(a < b).toBe(true);
    const many = new Set(Array.from({ length: 20000 }, () => newId('task')));
    expect(many.size).toBe(20000);
  });

  it('spreads its random part over every symbol', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 5000; i++) for (const ch of newId('task').slice(-16)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(32);
  });
});
