import { GatewayError } from '../../platform/errors';
import { decodeCursor, encodeCursor, pageOf } from './cursor';

describe('admin list cursors', () => {
  it('round-trips a position and stays opaque (no raw ID in the text)', () => {
    const cursor = encodeCursor({ createdAt: 1_767_225_600_000, id: 'task_01abc' });
    expect(cursor).not.toContain('task_01abc');
    expect(decodeCursor(cursor)).toEqual({ createdAt: 1_767_225_600_000, id: 'task_01abc' });
  });

  it.each(['', 'garbage', Buffer.from('12:').toString('base64url'), Buffer.from('x:task').toString('base64url')])(
    'refuses %p with a 400 naming cursor',
    (cursor) => {
      expect(() => decodeCursor(cursor)).toThrow(GatewayError);
      try {
        decodeCursor(cursor);
      } catch (error) {
        expect(error).toMatchObject({ status: 400, param: 'cursor' });
      }
    },
  );

  it('gives a next cursor only when a row beyond the page was fetched, pointing at the last row shown', () => {
    const rows = [3, 2, 1].map((n) => ({ id: `r${n}`, createdAt: n }));
    const page = pageOf(rows, 2);
    expect(page.items.map((r) => r.id)).toEqual(['r3', 'r2']);
    expect(decodeCursor(page.nextCursor!)).toEqual({ createdAt: 2, id: 'r2' });
    expect(pageOf(rows, 3).nextCursor).toBeNull();
  });
});
