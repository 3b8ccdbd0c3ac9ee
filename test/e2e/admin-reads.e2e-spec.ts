import { DataSource } from 'typeorm';
import { TaskEntity } from '../../src/core/tasks/entities/task.entity';
import { UsageRecordEntity } from '../../src/core/billing/entities/usage-record.entity';
import { ADMIN_TOKEN, TestAccount, startGateway } from '../support/gateway-harness';
import { SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';
import { taskRecord } from '../factories/tasks';

/**
 * The operator console's reads: account search, an account's keys, task lists with filters and
 * cursors, one task's whole story, usage per day and model, and a key holder's own `me`. Runs on
 * SQLite, and on PostgreSQL + Redis in the second CI pass.
 */
const T0 = Date.UTC(2026, 0, 10);
const MIN = 60_000;

/** The usage row of a priced session operation: no task, its hold's reference in `task_id`. */
let operations = 0;
function sessionOperation(accountId: string, createdAt: number): UsageRecordEntity {
  operations++;
  return {
    id: `use_op_${operations}`,
    taskId: `hold_op_${operations}`,
    accountId,
    model: 'kl-v1',
    action: 'session_init',
    amount: 25,
    priceVersion: 1,
    usage: { kind: 'kl-session-op', operation: 'init' },
    createdAt,
  };
}

interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

describe('operator console API', () => {
  let gw: SimulatedGateway;
  let owner: TestAccount;
  let other: TestAccount;

  /** Every item of a list, walked page by page through `next_cursor`. */
  async function walk<T>(path: string, limit: number): Promise<T[]> {
    const all: T[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 100; i++) {
      const sep = path.includes('?') ? '&' : '?';
      const url: string = `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = (await gw.admin.get(url).expect(200)).body as Page<T>;
      expect(page.items.length).toBeLessThanOrEqual(limit);
      all.push(...page.items);
      cursor = page.next_cursor;
      if (!cursor) return all;
    }
    throw new Error('cursor never ended');
  }

  beforeAll(async () => {
    gw = await startSimulatedGateway();
    owner = await gw.admin.account({ models: ['vdq3', 'vdq2-pro'] });
    other = await gw.admin.account({ models: ['vdq3'], balance: 777 });
  });
  afterAll(() => gw.close());

  describe('GET /admin/v1/accounts', () => {
    const names = ['Alpha Studio', 'beta films', 'ALPHA two', '100% real'];
    const ids: string[] = [];
    beforeAll(async () => {
      for (const name of names) ids.push((await gw.admin.post('/admin/v1/accounts', { name }).expect(201)).body.id);
    });

    it('needs the admin token', async () => {
      await gw.http().get('/admin/v1/accounts').expect(401);
    });

    it('searches by part of a name, case-insensitively, and by ID exactly; summaries carry no secret', async () => {
      const byName = (await gw.admin.get('/admin/v1/accounts?q=alpha').expect(200)).body as Page<{ name: string }>;
      expect(byName.items.map((a) => a.name)).toEqual(['ALPHA two', 'Alpha Studio']);
      expect(byName.next_cursor).toBeNull();
      const byId = (await gw.admin.get(`/admin/v1/accounts?q=${ids[1]}`).expect(200)).body;
      expect(byId.items).toEqual([
        {
          id: ids[1],
          name: 'beta films',
          balance: 0,
          held: 0,
          disabled: false,
          in_flight_tasks: 0,
          created_at: expect.any(String),
        },
      ]);
      // `%` is a character to find, not a wildcard.
      const literal = (await gw.admin.get(`/admin/v1/accounts?q=${encodeURIComponent('0%')}`).expect(200)).body;
      expect(literal.items.map((a: { name: string }) => a.name)).toEqual(['100% real']);
    });

    it('walks every account once through the cursor, newest first', async () => {
      const all = await walk<{ id: string }>('/admin/v1/accounts', 2);
      const ordered = await walk<{ id: string }>('/admin/v1/accounts', 200);
      expect(all.map((a) => a.id)).toEqual(ordered.map((a) => a.id));
      expect(new Set(all.map((a) => a.id)).size).toBe(names.length + 2);
      expect(all.slice(0, 4).map((a) => a.id)).toEqual([...ids].reverse());
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['cursor=not-a-cursor', 'cursor'],
      ['colour=red', 'colour'],
    ])('400 for %s, naming the parameter', async (query, param) => {
      const res = await gw.admin.get(`/admin/v1/accounts?${query}`).expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
    });
  });

  describe('GET /admin/v1/accounts/:id/keys', () => {
    it('lists the keys newest first with prefix, models, last use and revocation, never a secret', async () => {
      const restricted = await gw.admin
        .post(`/admin/v1/accounts/${owner.id}/keys`, { name: 'only vdq3', models: ['vdq3'] })
        .expect(201);
      const spare = await gw.admin.post(`/admin/v1/accounts/${owner.id}/keys`, { name: 'spare' }).expect(201);
      await gw.admin.delete(`/admin/v1/keys/${spare.body.id}`).expect(200);
      await gw
        .http()
        .get('/gateway/v1/me')
        .set(...bearer(owner))
        .expect(200);

      const res = await gw.admin.get(`/admin/v1/accounts/${owner.id}/keys`).expect(200);
      expect(res.body.account_id).toBe(owner.id);
      expect(res.body.items.map((k: { id: string }) => k.id)).toEqual([spare.body.id, restricted.body.id, owner.keyId]);
      const [revoked, limited, used] = res.body.items;
      expect(revoked).toMatchObject({ name: 'spare', revoked_at: expect.any(String) });
      expect(limited).toMatchObject({ name: 'only vdq3', models: ['vdq3'], revoked_at: null, last_used_at: null });
      await eventually(async () => {
        const again = await gw.admin.get(`/admin/v1/accounts/${owner.id}/keys`).expect(200);
        return again.body.items[2].last_used_at !== null;
      });
      expect(used.prefix).toBe(owner.key.slice(0, used.prefix.length));
      expect(JSON.stringify(res.body)).not.toContain(owner.key);
      expect(Object.keys(used).sort()).toEqual(
        ['created_at', 'expires_at', 'id', 'last_used_at', 'models', 'name', 'prefix', 'revoked_at'].sort(),
      );
    });

    it('404 for an unknown account', async () => {
      await gw.admin.get('/admin/v1/accounts/acct_nobody/keys').expect(404);
    });
  });

  describe('every admin list checks its query', () => {
    it('a family or model no family serves, or a name for an account ID, is 400 naming the parameter', async () => {
      const family = await gw.admin.get('/admin/v1/tasks?family=B').expect(400);
      expect(family.body.error).toMatchObject({ code: 'invalid_request', param: 'family' });
      expect(family.body.error.message).toContain('family must be one of kl, ax, vd');
      for (const path of ['/admin/v1/usage', '/admin/v1/usage/daily']) {
        const model = await gw.admin.get(`${path}?model=vdq-3`).expect(400);
        expect(model.body.error).toMatchObject({
          param: 'model',
          message: "model 'vdq-3' is not a model of the catalogue.",
        });
        const account = await gw.admin.get(`${path}?account_id=Acme`).expect(400);
        expect(account.body.error).toMatchObject({ param: 'account_id' });
        expect(account.body.error.message).toContain('account_id must be an account ID (acct_…)');
        await gw.admin.get(`${path}?model=vdq3&account_id=${owner.id}`).expect(200);
      }
    });

    it.each([
      '/admin/v1/channels?family=vd',
      `/admin/v1/accounts/{owner}/keys?revoked=false`,
      '/admin/v1/tasks/task_nobody/callbacks?status=failed',
      '/admin/v1/tasks/task_nobody/results?slot=v0',
    ])('a list without parameters refuses one instead of ignoring it: %s', async (path) => {
      const url = path.replace('{owner}', owner.id);
      const param = new URL(url, 'http://x').searchParams.keys().next().value;
      const res = await gw.admin.get(url).expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
      await gw.http().get(url).expect(401);
    });
  });

  describe('GET /admin/v1/tasks', () => {
    const rows = Array.from({ length: 9 }, (_, i) =>
      taskRecord({
        id: `task_list_${i}`,
        accountId: i % 3 === 0 ? 'acct_list_b' : 'acct_list_a',
        family: i % 2 === 0 ? 'vd' : 'ax',
        model: i % 2 === 0 ? 'vdq3' : 'wx2.7-r2v',
        phase: i < 3 ? 'succeeded' : i < 6 ? 'active' : 'failed',
        externalTaskId: `ext-${i}`,
        upstreamTaskId: `up-${i}`,
        // Two tasks share a creation time, so the ID must break the tie for cursors.
        createdAt: T0 + Math.min(i, 7) * MIN,
      }),
    );
    const ids = (items: Array<{ id: string }>) => items.map((t) => t.id);
    const expected = (keep: (t: TaskEntity) => boolean) =>
      rows
        .filter(keep)
        .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
        .map((t) => t.id);
    const ofList = (t: TaskEntity) => t.accountId.startsWith('acct_list');

    beforeAll(async () => {
      await gw.app
        .get(DataSource)
        .getRepository(TaskEntity)
        .insert(rows as never);
    });

    it('filters by account, family, model, status, time, external and upstream IDs', async () => {
      const get = async (query: string) =>
        ids((await gw.admin.get(`/admin/v1/tasks?${query}`).expect(200)).body.items).filter((id) =>
          id.startsWith('task_list'),
        );
      expect(await get('account_id=acct_list_b')).toEqual(expected((t) => t.accountId === 'acct_list_b'));
      expect(await get('family=ax')).toEqual(expected((t) => ofList(t) && t.family === 'ax'));
      expect(await get('model=vdq3&status=active')).toEqual(
        expected((t) => ofList(t) && t.model === 'vdq3' && t.phase === 'active'),
      );
      expect(await get(`from=${(T0 + 2 * MIN) / 1000}&to=2026-01-10T00:05:00Z`)).toEqual(
        expected((t) => ofList(t) && t.createdAt >= T0 + 2 * MIN && t.createdAt < T0 + 5 * MIN),
      );
      expect(await get('external_task_id=ext-4')).toEqual(['task_list_4']);
      expect(await get('upstream_task_id=up-7')).toEqual(['task_list_7']);
      expect(await get('account_id=acct_nobody')).toEqual([]);
    });

    it('walks every task once through the cursor, ties broken by ID', async () => {
      const walked = ids(await walk<{ id: string }>('/admin/v1/tasks?account_id=acct_list_a', 2));
      expect(walked).toEqual(expected((t) => t.accountId === 'acct_list_a'));
      const withTie = ids(await walk<{ id: string }>(`/admin/v1/tasks?from=${(T0 + 7 * MIN) / 1000}`, 1));
      expect(withTie).toEqual(['task_list_8', 'task_list_7']);
    });

    it('answers the documented summary shape', async () => {
      const res = await gw.admin.get('/admin/v1/tasks?external_task_id=ext-0').expect(200);
      expect(res.body.items[0]).toEqual({
        id: 'task_list_0',
        account_id: 'acct_list_b',
        // No such account row: the tasks were written straight to the table.
        account_name: null,
        api_key_id: null,
        family: 'vd',
        action: 'reference2video',
        model: 'vdq3',
        channel_id: 'c',
        upstream_task_id: 'up-0',
        status: 'succeeded',
        native_status: 'PENDING',
        progress: 0,
        external_task_id: 'ext-0',
        failure_code: null,
        failure_reason: null,
        billing_state: 'held',
        estimated_charge: 0,
        final_charge: null,
        created_at: '2026-01-10T00:00:00.000Z',
        updated_at: '2026-01-10T00:00:00.000Z',
        finished_at: null,
        deleted_at: null,
      });
    });

    it.each([
      ['status=done', 'status'],
      ['family=zz', 'family'],
      ['family=B', 'family'],
      ['model=vdq-3', 'model'],
      ['account_id=Acme%20Studio', 'account_id'],
      ['from=yesterday', 'from'],
      ['from=2026-01-02&to=2026-01-01', 'to'],
      ['limit=x', 'limit'],
      ['cursor=' + Buffer.from('12:bad id!').toString('base64url'), 'cursor'],
    ])('400 for %s, naming the parameter', async (query, param) => {
      const res = await gw.admin.get(`/admin/v1/tasks?${query}`).expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
    });
  });

  describe('a real task through the simulator', () => {
    let taskId: string;

    beforeAll(async () => {
      const res = await gw
        .http()
        .post('/vd/ent/v2/reference2video')
        .set(...bearer(owner))
        .send({
          model: 'vdq3',
          subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }],
          prompt: '@cat plays',
        })
        .expect(200);
      taskId = res.body.task_id;
      await eventually(async () => {
        const detail = await gw.admin.get(`/admin/v1/tasks/${taskId}`).expect(200);
        return detail.body.status === 'succeeded' && detail.body.billing_state === 'settled';
      }, 10_000);
    });

    it("GET /admin/v1/tasks/:id tells the task's whole story", async () => {
      const { body } = await gw.admin.get(`/admin/v1/tasks/${taskId}`).expect(200);
      const task = await gw.app.get(DataSource).getRepository(TaskEntity).findOneByOrFail({ id: taskId });
      expect(body).toMatchObject({
        id: taskId,
        account_id: owner.id,
        account_name: 'test account',
        api_key_id: owner.keyId,
        key_prefix: owner.key.slice(0, body.key_prefix.length),
        family: 'vd',
        model: 'vdq3',
        channel_id: task.channelId,
        upstream_task_id: task.upstreamTaskId,
        status: 'succeeded',
        billing_state: 'settled',
        final_charge: task.finalCharge,
        finished_at: expect.any(String),
        deleted_at: null,
      });
      expect(body.upstream_request).toMatchObject({ prompt: '@cat plays' });
      if (task.callbackToken) expect(JSON.stringify(body.upstream_request)).not.toContain(task.callbackToken);
      expect(body.ledger.map((e: { kind: string }) => e.kind).sort()).toEqual(['charge', 'hold', 'release']);
      const events = body.timeline.map((e: { event: string }) => e.event);
      expect(events[0]).toBe('created');
      expect(events).toEqual(expect.arrayContaining(['hold', 'charge', 'finished']));
      const times = body.timeline.map((e: { at: string }) => Date.parse(e.at));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      expect(body.videos).toEqual([{ slot: 'v0', url: expect.stringMatching(/^https?:\/\//) }]);
      expect(Array.isArray(body.callbacks)).toBe(true);
      expect(Array.isArray(body.result_files)).toBe(true);
    });

    it('404 for an unknown task', async () => {
      await gw.admin.get('/admin/v1/tasks/task_nobody').expect(404);
    });

    it('GET /admin/v1/usage/daily sums charged tasks per day and model, as JSON and CSV', async () => {
      await gw.app
        .get(DataSource)
        .getRepository(UsageRecordEntity)
        .insert(
          [0, 1, 2].map((i) => ({
            id: `use_daily_${i}`,
            taskId: `task_daily_${i}`,
            accountId: 'acct_daily',
            model: i === 2 ? 'vdq2-pro' : 'vdq3',
            action: 'reference2video',
            amount: 100 * (i + 1),
            priceVersion: 1,
            usage: {},
            createdAt: T0 + i * 3_600_000 + (i === 2 ? 86_400_000 : 0),
          })),
        );
      // A session operation: a charged call with no task, logged under its hold's reference.
      await gw.app
        .get(DataSource)
        .getRepository(UsageRecordEntity)
        .insert([
          { ...sessionOperation('acct_daily', T0 + 2 * 3_600_000), model: 'vdq3' },
          sessionOperation('acct_daily', T0 + 2 * 3_600_000),
        ] as never);
      const daily = await gw.admin.get('/admin/v1/usage/daily?account_id=acct_daily').expect(200);
      expect(daily.body).toEqual({
        items: [
          { day: '2026-01-10', model: 'kl-v1', tasks: 0, operations: 1, amount: 25 },
          { day: '2026-01-10', model: 'vdq3', tasks: 2, operations: 1, amount: 325 },
          { day: '2026-01-11', model: 'vdq2-pro', tasks: 1, operations: 0, amount: 300 },
        ],
      });
      const today = new Date().toISOString().slice(0, 10);
      const mine = await gw.admin.get(`/admin/v1/usage/daily?account_id=${owner.id}`).expect(200);
      expect(mine.body.items).toEqual([
        { day: today, model: 'vdq3', tasks: 1, operations: 0, amount: expect.any(Number) },
      ]);
      const windowed = await gw.admin.get('/admin/v1/usage/daily?account_id=acct_daily&to=2026-01-11').expect(200);
      expect(windowed.body.items).toHaveLength(2);

      const csv = await gw.admin.get('/admin/v1/usage/daily?account_id=acct_daily&format=csv').expect(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      expect(csv.headers['content-disposition']).toContain('attachment');
      expect(csv.text).toBe(
        'day,model,tasks,amount,operations\r\n' +
          '2026-01-10,kl-v1,0,25,1\r\n2026-01-10,vdq3,2,325,1\r\n2026-01-11,vdq2-pro,1,300,0\r\n',
      );
      const viaAccept = await gw
        .http()
        .get('/admin/v1/usage/daily?account_id=acct_daily')
        .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
        .set('Accept', 'text/csv')
        .expect(200);
      expect(viaAccept.text).toBe(csv.text);
      const bad = await gw.admin.get('/admin/v1/usage/daily?format=xml').expect(400);
      expect(bad.body.error).toMatchObject({ param: 'format' });
    });

    it("GET /gateway/v1/me: the key's own account, models, limit and month's usage, never another's", async () => {
      await gw.app
        .get(DataSource)
        .getRepository(UsageRecordEntity)
        .insert(sessionOperation(owner.id, Date.now()) as never);
      const me = (account: TestAccount) =>
        gw
          .http()
          .get('/gateway/v1/me')
          .set(...bearer(account));
      const mine = (await me(owner).expect(200)).body;
      const charged = (await gw.admin.get(`/admin/v1/tasks/${taskId}`).expect(200)).body.final_charge;
      const account = (await gw.admin.get(`/admin/v1/accounts/${owner.id}`).expect(200)).body;
      expect(mine).toEqual({
        account_id: owner.id,
        account_name: 'test account',
        balance: account.balance,
        held: account.held,
        key_prefix: owner.key.slice(0, mine.key_prefix.length),
        models: [
          { model: 'vdq2-pro', family: 'vd', capabilities: expect.any(Array) },
          { model: 'vdq3', family: 'vd', capabilities: expect.any(Array) },
        ],
        rate_limit_rpm: gw.config.DEFAULT_RATE_LIMIT_RPM,
        max_concurrent_tasks: gw.config.DEFAULT_MAX_CONCURRENT_TASKS,
        usage_this_month: {
          since: expect.stringMatching(/-01T00:00:00\.000Z$/),
          tasks: 1,
          operations: 1,
          amount: charged + 25,
        },
      });

      const theirs = (await me(other).expect(200)).body;
      expect(theirs).toMatchObject({
        account_id: other.id,
        balance: 777,
        usage_this_month: { tasks: 0, operations: 0, amount: 0 },
        models: [{ model: 'vdq3', family: 'vd', capabilities: expect.any(Array) }],
      });
      expect(JSON.stringify(theirs)).not.toContain(owner.id);

      const restricted = await gw.admin
        .post(`/admin/v1/accounts/${owner.id}/keys`, { name: 'vdq3 only', models: ['vdq3'] })
        .expect(201);
      const viaRestricted = (await me({ ...owner, key: restricted.body.key }).expect(200)).body;
      expect(viaRestricted.models.map((m: { model: string }) => m.model)).toEqual(['vdq3']);

      await gw.http().get('/gateway/v1/me').expect(401);
      await gw.http().get('/gateway/v1/me').set('Authorization', `Bearer ${ADMIN_TOKEN}`).expect(401);
    });
  });
});

describe('the console routes in /docs-json', () => {
  let doc: {
    paths: Record<
      string,
      Record<string, { responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }> }>
    >;
    components: { schemas: Record<string, { properties: Record<string, unknown> }> };
  };
  beforeAll(async () => {
    const gw = await startGateway();
    doc = (await gw.http().get('/docs-json').expect(200)).body;
    await gw.close();
  });

  it.each([
    ['/admin/v1/accounts', 'AccountPageResponse'],
    ['/admin/v1/accounts/{id}/keys', 'AccountKeysResponse'],
    ['/admin/v1/tasks', 'TaskPageResponse'],
    ['/admin/v1/tasks/{taskId}', 'TaskDetailResponse'],
    ['/admin/v1/usage/daily', 'DailyUsageResponse'],
    ['/gateway/v1/me', 'MeResponse'],
  ])('GET %s documents its 200 answer as %s', (path, schema) => {
    const ok = doc.paths[path].get.responses['200'].content['application/json'].schema;
    expect(ok.$ref).toBe(`#/components/schemas/${schema}`);
    expect(Object.keys(doc.components.schemas[schema].properties).length).toBeGreaterThan(0);
  });

  it('leaves the console out of the API documentation', () => {
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/console'))).toEqual([]);
  });
});

describe('admin token hygiene', () => {
  /** `ADMIN_AUTH_MAX_FAILURES`'s default. */
  const ADMIN_AUTH_MAX_FAILURES = 20;

  it('refuses an address after too many failed admin authentications, with 429 and Retry-After', async () => {
    const gw = await startGateway();
    try {
      for (let i = 0; i < ADMIN_AUTH_MAX_FAILURES; i++)
        await gw.http().get('/admin/v1/accounts').set('Authorization', `Bearer wrong-${i}`).expect(401);
      // Good tokens do not count: the limit is on failures only.
      await gw.admin.get('/admin/v1/accounts').expect(429);
      const blocked = await gw.http().get('/admin/v1/accounts').set('Authorization', 'Bearer wrong').expect(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.body.error).toMatchObject({ code: 'rate_limit_exceeded' });
      // The key holders' routes are not affected.
      await gw.http().get('/gateway/v1/me').set('Authorization', 'Bearer sk-unknown').expect(401);
    } finally {
      await gw.close();
    }
  });

  it('takes its limit from ADMIN_AUTH_MAX_FAILURES', async () => {
    const gw = await startGateway({ env: { ADMIN_AUTH_MAX_FAILURES: '3' } });
    try {
      for (let i = 0; i < 3; i++)
        await gw.http().get('/admin/v1/accounts').set('Authorization', 'Bearer wrong').expect(401);
      await gw.http().get('/admin/v1/accounts').set('Authorization', 'Bearer wrong').expect(429);
    } finally {
      await gw.close();
    }
  });

  it('a correct token before the limit is served normally', async () => {
    const gw = await startGateway();
    try {
      for (let i = 0; i < ADMIN_AUTH_MAX_FAILURES - 1; i++)
        await gw.http().get('/admin/v1/accounts').set('Authorization', 'Bearer wrong').expect(401);
      await gw.admin.get('/admin/v1/accounts').expect(200);
    } finally {
      await gw.close();
    }
  });
});
