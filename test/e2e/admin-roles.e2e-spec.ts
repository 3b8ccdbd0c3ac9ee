import { OPERATOR_ROLES, OperatorRole, hasRole } from '../../src/core/operators/operator-roles';
import { AdminRoute, adminRoutes } from '../support/admin-routes';
import { AdminClient, Harness, startGateway } from '../support/gateway-harness';
import { SimulatedGateway, startSimulatedGateway } from '../support/simulated-gateway';

/**
 * The role each admin route needs. Routes are found from Nest's own registry, so a route added
 * without a role, or without an entry here, fails the first test.
 */
const EXPECTED: Record<string, OperatorRole> = {
  'GET /admin/v1/accounts': 'viewer',
  'GET /admin/v1/accounts/:id': 'viewer',
  'GET /admin/v1/accounts/:id/keys': 'viewer',
  'POST /admin/v1/accounts': 'admin',
  'PATCH /admin/v1/accounts/:id': 'admin',
  'POST /admin/v1/accounts/:id/keys': 'admin',
  'DELETE /admin/v1/keys/:keyId': 'admin',
  'PUT /admin/v1/accounts/:id/models': 'admin',
  'POST /admin/v1/accounts/:id/balance': 'admin',
  'GET /admin/v1/ledger/verify': 'viewer',
  'GET /admin/v1/prices': 'viewer',
  'PUT /admin/v1/prices': 'admin',
  'GET /admin/v1/usage': 'viewer',
  'GET /admin/v1/usage/daily': 'viewer',
  'GET /admin/v1/tasks': 'viewer',
  'GET /admin/v1/tasks/:taskId': 'viewer',
  'GET /admin/v1/tasks/:taskId/callbacks': 'viewer',
  'GET /admin/v1/tasks/:taskId/results': 'viewer',
  'POST /admin/v1/tasks/:taskId/cancel': 'operator',
  'POST /admin/v1/tasks/:taskId/callbacks/redeliver': 'operator',
  'POST /admin/v1/tasks/:taskId/results/keep': 'operator',
  'GET /admin/v1/channels': 'viewer',
  'PATCH /admin/v1/channels/:id': 'operator',
  'POST /admin/v1/channels/:id/check': 'operator',
  'GET /admin/v1/models': 'viewer',
  'GET /admin/v1/me': 'viewer',
  'GET /admin/v1/operators': 'viewer',
  'POST /admin/v1/operators': 'owner',
  'PATCH /admin/v1/operators/:id': 'owner',
  'POST /admin/v1/operators/:id/token': 'owner',
  'GET /admin/v1/audit': 'viewer',
};

describe('admin roles', () => {
  let gw: Harness;
  let routes: AdminRoute[];
  const as: Partial<Record<OperatorRole, AdminClient>> = {};

  beforeAll(async () => {
    gw = await startGateway();
    routes = adminRoutes(gw.app);
    for (const role of OPERATOR_ROLES) as[role] = (await gw.admin.operator(role)).client;
  });
  afterAll(() => gw.close());

  it('every admin route declares the role the table expects, and the table names every route', () => {
    expect(routes.length).toBeGreaterThanOrEqual(Object.keys(EXPECTED).length);
    expect(Object.fromEntries(routes.map((r) => [r.route, r.role]))).toEqual(EXPECTED);
  });

  it('walks every admin route with every role: refused with 403 naming the role needed, else let through', async () => {
    const wrong: unknown[] = [];
    let walked = 0;
    for (const route of routes) {
      const needed = EXPECTED[route.route];
      // Unknown IDs and empty bodies: a caller let through gets 200, 400 or 404, never a change.
      const path = route.path.replace(/:\w+/g, 'unknown');
      const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
      for (const role of OPERATOR_ROLES) {
        const client = as[role]!;
        const res = await (method === 'get' || method === 'delete' ? client[method](path) : client[method](path, {}));
        walked += 1;
        const allowed = hasRole(role, needed);
        const refusedRight =
          res.status === 403 &&
          res.body.error?.code === 'permission_denied' &&
          String(res.body.error?.message).includes(`'${needed}'`);
        if (allowed ? res.status === 401 || res.status === 403 : !refusedRight)
          wrong.push({ route: route.route, role, allowed, status: res.status, error: res.body.error });
      }
    }
    expect(wrong).toEqual([]);
    expect(walked).toBe(routes.length * OPERATOR_ROLES.length);
  });

  it('GET /admin/v1/me says who the caller is', async () => {
    for (const role of OPERATOR_ROLES) {
      const me = await as[role]!.get('/admin/v1/me').expect(200);
      expect(me.body).toEqual({ id: expect.stringMatching(/^op_/), name: `${role} operator`, role });
    }
    expect((await gw.admin.get('/admin/v1/me').expect(200)).body).toEqual({
      id: 'bootstrap',
      name: 'bootstrap owner (ADMIN_TOKEN)',
      role: 'owner',
    });
  });

  it('a viewer never sees an account’s webhook secret; an operator does', async () => {
    const acct = await gw.admin.account();
    const seen = await as.viewer!.get(`/admin/v1/accounts/${acct.id}`).expect(200);
    expect(seen.body.id).toBe(acct.id);
    expect(seen.body).not.toHaveProperty('webhook_secret');
    expect(JSON.stringify(seen.body)).not.toContain('whsec_');
    const operator = await as.operator!.get(`/admin/v1/accounts/${acct.id}`).expect(200);
    expect(operator.body.webhook_secret).toMatch(/^whsec_/);
  });
});

describe('admin roles: channels', () => {
  let gw: SimulatedGateway;
  beforeAll(async () => {
    gw = await startSimulatedGateway();
  });
  afterAll(() => gw.close());

  it('an operator may turn a channel off and on, but only an admin may change its weight', async () => {
    const operator = (await gw.admin.operator('operator')).client;
    const admin = (await gw.admin.operator('admin')).client;
    const [channel] = (await gw.admin.get('/admin/v1/channels').expect(200)).body.data as Array<{ id: string }>;
    const path = `/admin/v1/channels/${channel.id}`;
    expect((await operator.patch(path, { enabled: false }).expect(200)).body.enabled).toBe(false);
    const refused = await operator.patch(path, { enabled: true, weight: 5 }).expect(403);
    expect(refused.body.error).toMatchObject({ code: 'permission_denied', param: 'weight' });
    expect(refused.body.error.message).toContain("'admin'");
    // Nothing of the refused change was applied.
    expect((await gw.admin.get('/admin/v1/channels').expect(200)).body.data[0]).toMatchObject({ enabled: false });
    expect((await admin.patch(path, { enabled: true, weight: 5 }).expect(200)).body).toMatchObject({
      enabled: true,
      weight: 5,
    });
  });
});
