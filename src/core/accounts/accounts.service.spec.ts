import { accountFactory, grantFactory, keyFactory } from '../../../test/factories';
import { FixedModelCatalogue, OWNER_ORIGIN, newAccountsFakes, offlineManager } from '../../../test/fakes';
import { hashApiKey } from './api-key-secret';

const CATALOGUE = new FixedModelCatalogue([
  { name: 'ax-model', family: 'ax', protocol: 'v1', capabilities: ['r2v', 'query'] },
  { name: 'vd-model', family: 'vd', protocol: 'v1', capabilities: ['r2v'] },
]);

function setup() {
  const account = accountFactory.build({ id: 'acct_1', name: 'Acme', rateLimitRpm: 60 });
  return newAccountsFakes({ accounts: [account], catalogue: CATALOGUE });
}

describe('AccountsService', () => {
  it('changes only the fields sent, records before and after (never the webhook secret), drops the principal caches', async () => {
    const f = setup();
    f.clock.advance(5_000);
    const details = await f.service.update('acct_1', { disabled: true, name: undefined }, OWNER_ORIGIN);
    expect(details.account).toMatchObject({ name: 'Acme', disabled: true, rateLimitRpm: 60 });
    expect(f.accounts.account('acct_1').updatedAt).toBe(f.clock.nowMs());
    expect(f.audit.entries()).toEqual([
      {
        action: 'account.update',
        target: { type: 'account', id: 'acct_1', accountId: 'acct_1' },
        before: expect.objectContaining({ disabled: false, name: 'Acme', rate_limit_rpm: 60 }),
        after: expect.objectContaining({ disabled: true, name: 'Acme', rate_limit_rpm: 60 }),
      },
    ]);
    expect(JSON.stringify(f.audit.repository.entries)).not.toContain(f.accounts.account('acct_1').webhookSecret);
    expect(f.principals.invalidations).toBe(1);
  });

  it('answers 404 for an unknown account and writes nothing', async () => {
    const f = setup();
    await expect(f.service.update('acct_nope', { disabled: true }, OWNER_ORIGIN)).rejects.toMatchObject({
      status: 404,
    });
    expect(f.audit.repository.entries).toEqual([]);
    expect(f.principals.invalidations).toBe(0);
  });

  it('issues a key whose secret is returned once: only its hash and shown prefix are stored or audited', async () => {
    const f = setup();
    const { key, secret } = await f.service.issueKey('acct_1', { name: 'ci', models: ['vd-model'] }, OWNER_ORIGIN);
    const stored = f.keys.rows.get(key.id)!;
    expect(stored).toMatchObject({ accountId: 'acct_1', name: 'ci', models: ['vd-model'], revokedAt: null });
    expect(stored.keyHash).toBe(hashApiKey(secret));
    expect(secret.startsWith(stored.prefix)).toBe(true);
    expect(JSON.stringify([...f.keys.rows.values()])).not.toContain(secret);
    const [entry] = f.audit.entries();
    expect(entry).toMatchObject({ action: 'key.create', target: { type: 'key', id: key.id, accountId: 'acct_1' } });
    expect(JSON.stringify(f.audit.repository.entries)).not.toContain(secret);
    expect(JSON.stringify(f.audit.repository.entries)).not.toContain(stored.keyHash);
  });

  it('refuses a key restricted to a model the catalogue does not have, naming the entry, and stores nothing', async () => {
    const f = setup();
    await expect(
      f.service.issueKey('acct_1', { models: ['ax-model', 'no-such-model'] }, OWNER_ORIGIN),
    ).rejects.toMatchObject({ status: 404, code: 'model_not_found', param: 'models[1]' });
    expect(f.keys.rows.size).toBe(0);
    expect(f.audit.repository.entries).toEqual([]);
  });

  it('revokes a key once: revoking it again keeps the first time and is still recorded', async () => {
    const f = setup();
    f.keys.rows.set('key_1', keyFactory.build({ id: 'key_1', accountId: 'acct_1' }));
    const first = await f.service.revokeKey('key_1', OWNER_ORIGIN);
    const revokedAt = f.clock.nowMs();
    expect(first.revokedAt).toBe(revokedAt);
    f.clock.advance(60_000);
    const again = await f.service.revokeKey('key_1', OWNER_ORIGIN);
    expect(again.revokedAt).toBe(revokedAt);
    expect(f.keys.rows.get('key_1')!.revokedAt).toBe(revokedAt);
    expect(f.audit.entries().map((e) => e.action)).toEqual(['key.revoke', 'key.revoke']);
    expect(f.principals.invalidations).toBe(2);
  });

  it('replaces the grants: no capabilities means all of the model, and the old set is audited as before', async () => {
    const f = setup();
    f.grants.rows = [grantFactory.build({ accountId: 'acct_1', model: 'ax-model', capabilities: ['query'] })];
    const details = await f.service.replaceGrants(
      'acct_1',
      [{ model: 'vd-model' }, { model: 'ax-model', capabilities: ['r2v'] }],
      OWNER_ORIGIN,
    );
    expect(details.grants.map((g) => [g.model, g.capabilities])).toEqual([
      ['ax-model', ['r2v']],
      ['vd-model', ['r2v']],
    ]);
    expect(f.audit.entries()[0]).toMatchObject({
      action: 'grant.update',
      before: { models: [{ model: 'ax-model', capabilities: ['query'] }] },
      after: {
        models: [
          { model: 'vd-model', capabilities: ['r2v'] },
          { model: 'ax-model', capabilities: ['r2v'] },
        ],
      },
    });
  });

  it.each([
    ['an unknown model', [{ model: 'nope' }], 404, 'models[0].model'],
    ['a model listed twice', [{ model: 'vd-model' }, { model: 'vd-model' }], 400, 'models[1].model'],
    [
      'a capability the model lacks',
      [{ model: 'vd-model', capabilities: ['r2v', 'query'] }],
      400,
      'models[0].capabilities[1]',
    ],
    [
      'a capability listed twice',
      [{ model: 'vd-model', capabilities: ['r2v', 'r2v'] }],
      400,
      'models[0].capabilities[1]',
    ],
  ])('refuses grants with %s, naming the field, and keeps the old grants', async (_case, requested, status, param) => {
    const f = setup();
    const old = grantFactory.build({ accountId: 'acct_1', model: 'ax-model', capabilities: ['query'] });
    f.grants.rows = [old];
    await expect(f.service.replaceGrants('acct_1', requested, OWNER_ORIGIN)).rejects.toMatchObject({ status, param });
    expect(f.grants.rows).toEqual([old]);
    expect(f.audit.repository.entries).toEqual([]);
    expect(f.principals.invalidations).toBe(0);
  });

  it('creates an account empty, unlimited unless told, with a fresh webhook secret', async () => {
    const f = setup();
    const a = await f.service.create({ name: 'New' }, offlineManager);
    const b = await f.service.create({ name: 'Other', maxConcurrentTasks: 3 }, offlineManager);
    expect(a).toMatchObject({
      name: 'New',
      balance: 0,
      held: 0,
      inFlightTasks: 0,
      rateLimitRpm: null,
      disabled: false,
    });
    expect(b.maxConcurrentTasks).toBe(3);
    expect(a.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    expect(a.webhookSecret).not.toBe(b.webhookSecret);
    expect(f.accounts.rows.get(a.id)).toBeDefined();
  });
});
