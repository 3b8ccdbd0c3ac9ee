import { FakeTransactionRunner, InMemoryOperatorSessions, inMemoryAuditTrail } from '../../../test/fakes';
import { ManualClock } from '../../platform/time/clock';
import { OperatorSessions, csrfMatches } from './operator-sessions.service';

describe('OperatorSessions', () => {
  const dana = { id: 'sso_0123456789abcdef01234567', name: 'Dana <dana@example.com>', role: 'admin' as const };
  const request = { requestId: 'req_1', ip: '127.0.0.1' };
  const HOUR = 3600_000;

  function setup() {
    const clock = new ManualClock();
    const rows = new InMemoryOperatorSessions();
    const audit = inMemoryAuditTrail(clock);
    const sessions = new OperatorSessions(rows, new FakeTransactionRunner(), audit.trail, clock);
    return { clock, rows, audit, sessions };
  }

  it('starts a session the cookie token resolves to, storing only the token’s hash', async () => {
    const f = setup();
    const started = await f.sessions.start(dana, HOUR, request);
    expect(started.token).toMatch(/^vgs_[A-Za-z0-9_-]{43}$/);
    expect(started.expiresAt).toBe(f.clock.nowMs() + HOUR);
    expect(await f.sessions.resolve(started.token)).toEqual({ actor: dana, csrfToken: started.csrfToken });
    const [stored] = [...f.rows.rows.values()];
    expect(stored.tokenHash).not.toContain(started.token);
    expect(JSON.stringify(stored)).not.toContain(started.token);
    expect(await f.sessions.resolve('vgs_not-a-session')).toBeNull();
  });

  it('puts the sign-in on the audit trail under the person, without the token', async () => {
    const f = setup();
    const started = await f.sessions.start(dana, HOUR, request);
    expect(f.audit.entries()).toEqual([
      {
        action: 'operator.sign_in',
        target: { type: 'operator', id: dana.id, accountId: null },
        before: null,
        after: { name: dana.name, role: 'admin', via: 'sso', expires_at: new Date(started.expiresAt).toISOString() },
      },
    ]);
    expect(f.audit.repository.entries[0]).toMatchObject({ actorId: dana.id, actorName: dana.name, actorRole: 'admin' });
    expect(JSON.stringify(f.audit.repository.entries)).not.toContain(started.token);
  });

  it('a session is refused from the moment it expires, and swept at the next sign-in', async () => {
    const f = setup();
    const first = await f.sessions.start(dana, HOUR, request);
    f.clock.advance(HOUR - 1);
    expect(await f.sessions.resolve(first.token)).not.toBeNull();
    f.clock.advance(1);
    expect(await f.sessions.resolve(first.token)).toBeNull();
    const second = await f.sessions.start(dana, HOUR, request);
    expect(f.rows.rows.size).toBe(1);
    expect(await f.sessions.resolve(second.token)).not.toBeNull();
  });

  it('ends a session at sign-out: its token is refused after', async () => {
    const f = setup();
    const started = await f.sessions.start(dana, HOUR, request);
    await f.sessions.end(started.token);
    expect(await f.sessions.resolve(started.token)).toBeNull();
  });

  it('gives each session its own tokens', async () => {
    const f = setup();
    const a = await f.sessions.start(dana, HOUR, request);
    const b = await f.sessions.start(dana, HOUR, request);
    expect(a.token).not.toBe(b.token);
    expect(a.csrfToken).not.toBe(b.csrfToken);
  });

  it.each([
    ['the session’s own token', 'c-0123456789', true],
    ['another token', 'c-0123456788', false],
    ['a prefix of it', 'c-01234', false],
    ['nothing', undefined, false],
    ['an empty header', '', false],
  ])('csrfMatches with %s', (_k, sent, ok) => {
    expect(csrfMatches({ actor: dana, csrfToken: 'c-0123456789' }, sent)).toBe(ok);
  });
});
