import type { Response } from 'supertest';
import { ADMIN_TOKEN, Harness, startGateway } from '../support/gateway-harness';

/**
 * The client address the admin lockout counts and the audit trail records: the connection's peer,
 * or, with `TRUST_PROXY` naming that peer (a balancer on loopback here, as supertest connects from
 * 127.0.0.1), the address the peer forwarded in `X-Forwarded-For`.
 */

/** An admin list read from `from` (an `X-Forwarded-For` value, or none), with `token`. */
function adminRead(gw: Harness, token: string | null, from?: string) {
  const req = gw.http().get('/admin/v1/accounts');
  if (token !== null) req.set('Authorization', `Bearer ${token}`);
  if (from !== undefined) req.set('X-Forwarded-For', from);
  return req;
}

/** The address the audit trail recorded for the change `res` answered. */
async function auditedAddress(gw: Harness, res: Response): Promise<string | null> {
  const page = await gw.admin.get('/admin/v1/audit?action=account.create&limit=200').expect(200);
  const entries = (page.body.items as Array<{ request_id: string; ip: string | null }>).filter(
    (e) => e.request_id === res.headers['x-request-id'],
  );
  expect(entries).toHaveLength(1);
  return entries[0].ip;
}

describe('behind a trusted balancer (TRUST_PROXY=loopback)', () => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway({ env: { TRUST_PROXY: 'loopback', ADMIN_AUTH_MAX_FAILURES: '3' } });
  });
  afterAll(() => gw.close());

  it('counts admin failures per forwarded address: one locked out does not lock out another', async () => {
    for (let i = 0; i < 3; i++) await adminRead(gw, 'wrong', '203.0.113.1').expect(401);
    const blocked = await adminRead(gw, ADMIN_TOKEN, '203.0.113.1').expect(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The balancer appends the address it saw: what a client writes before it changes nothing.
    await adminRead(gw, ADMIN_TOKEN, '198.51.100.7, 203.0.113.1').expect(429);
    await adminRead(gw, 'wrong', '203.0.113.2').expect(401);
    await adminRead(gw, ADMIN_TOKEN, '203.0.113.2').expect(200);
    await adminRead(gw, ADMIN_TOKEN).expect(200);
  });

  it('records the forwarded address in the audit trail', async () => {
    const created = await gw.admin
      .post('/admin/v1/accounts', { name: 'forwarded' })
      .set('X-Forwarded-For', '198.51.100.20')
      .expect(201);
    expect(await auditedAddress(gw, created)).toBe('198.51.100.20');
  });

  it("clears an address's failures when it authenticates; a request with no credential counts as one", async () => {
    const from = '192.0.2.50';
    for (let i = 0; i < 2; i++) await adminRead(gw, 'wrong', from).expect(401);
    await adminRead(gw, ADMIN_TOKEN, from).expect(200);
    // Four failures in all, but never three since the last success.
    for (let i = 0; i < 2; i++) await adminRead(gw, 'wrong', from).expect(401);
    await adminRead(gw, ADMIN_TOKEN, from).expect(200);
    for (let i = 0; i < 3; i++) await adminRead(gw, null, from).expect(401);
    await adminRead(gw, ADMIN_TOKEN, from).expect(429);
  });
});

describe('with TRUST_PROXY unset', () => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway({ env: { ADMIN_AUTH_MAX_FAILURES: '3' } });
  });
  afterAll(() => gw.close());

  it('ignores X-Forwarded-For: the audit records the peer, and a forged header does not dodge the lockout', async () => {
    const created = await gw.admin
      .post('/admin/v1/accounts', { name: 'direct' })
      .set('X-Forwarded-For', '198.51.100.30')
      .expect(201);
    expect(await auditedAddress(gw, created)).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    for (let i = 0; i < 3; i++) await adminRead(gw, 'wrong', `203.0.113.${10 + i}`).expect(401);
    await adminRead(gw, ADMIN_TOKEN, '203.0.113.99').expect(429);
    await adminRead(gw, ADMIN_TOKEN).expect(429);
  });
});
