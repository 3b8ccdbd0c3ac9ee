import { createHash } from 'crypto';
import { DataSource } from 'typeorm';
import { OperatorEntity } from '../../src/core/operators/operator.entity';
import { Harness, startGateway } from '../support/gateway-harness';

describe('admin API: operators', () => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.close());

  it('adds an operator: 201 with its token once; the list never shows a token; only the hash is stored', async () => {
    const created = await gw.admin.post('/admin/v1/operators', { name: 'Dana', role: 'admin' }).expect(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^op_/),
      name: 'Dana',
      role: 'admin',
      disabled: false,
      token_prefix: created.body.token.slice(0, 12),
      created_at: expect.any(String),
      token: expect.stringMatching(/^vgo_[\w-]{43}$/),
    });
    const list = await gw.admin.get('/admin/v1/operators').expect(200);
    const listed = list.body.items.find((o: { id: string }) => o.id === created.body.id);
    expect(listed).toEqual({ ...created.body, token: undefined });
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);
    const row = await gw.app.get(DataSource).getRepository(OperatorEntity).findOneByOrFail({ id: created.body.id });
    expect(row.tokenHash).toBe(createHash('sha256').update(created.body.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.body.token);
    // The token works at once, as the operator it names.
    expect((await gw.admin.as(created.body.token).get('/admin/v1/me').expect(200)).body).toEqual({
      id: created.body.id,
      name: 'Dana',
      role: 'admin',
    });
  });

  it('refuses a bad name or role naming the field, and changes nothing', async () => {
    const before = (await gw.admin.get('/admin/v1/operators').expect(200)).body.items.length;
    const badRole = await gw.admin.post('/admin/v1/operators', { name: 'X', role: 'root' }).expect(400);
    expect(badRole.body.error).toMatchObject({ code: 'invalid_request', param: 'role' });
    const noName = await gw.admin.post('/admin/v1/operators', { role: 'viewer' }).expect(400);
    expect(noName.body.error).toMatchObject({ param: 'name' });
    const op = await gw.admin.operator('viewer');
    const badPatch = await gw.admin.patch(`/admin/v1/operators/${op.id}`, { disabled: 'yes' }).expect(400);
    expect(badPatch.body.error).toMatchObject({ param: 'disabled' });
    expect((await gw.admin.get('/admin/v1/operators').expect(200)).body.items.length).toBe(before + 1);
  });

  it('changes a role: the new role applies to the next request', async () => {
    const op = await gw.admin.operator('viewer');
    await op.client.post('/admin/v1/accounts', { name: 'nope' }).expect(403);
    const changed = await gw.admin.patch(`/admin/v1/operators/${op.id}`, { role: 'admin' }).expect(200);
    expect(changed.body).toMatchObject({ id: op.id, role: 'admin', disabled: false });
    expect(changed.body).not.toHaveProperty('token');
    await op.client.post('/admin/v1/accounts', { name: 'yes' }).expect(201);
  });

  it("a disabled operator's token is 401, and works again once enabled", async () => {
    const op = await gw.admin.operator('operator');
    await op.client.get('/admin/v1/me').expect(200);
    await gw.admin.patch(`/admin/v1/operators/${op.id}`, { disabled: true }).expect(200);
    const refused = await op.client.get('/admin/v1/me').expect(401);
    expect(refused.body.error.code).toBe('invalid_api_key');
    await gw.admin.patch(`/admin/v1/operators/${op.id}`, { disabled: false }).expect(200);
    await op.client.get('/admin/v1/me').expect(200);
  });

  it('rotates a token: the old one is refused at once, the new one is shown once and works', async () => {
    const op = await gw.admin.operator('viewer');
    await op.client.get('/admin/v1/me').expect(200);
    const rotated = await gw.admin.post(`/admin/v1/operators/${op.id}/token`, {}).expect(200);
    expect(rotated.body).toMatchObject({ id: op.id, token: expect.stringMatching(/^vgo_/) });
    expect(rotated.body.token).not.toBe(op.token);
    await op.client.get('/admin/v1/me').expect(401);
    await gw.admin.as(rotated.body.token).get('/admin/v1/me').expect(200);
  });

  it('answers 404 for an unknown operator, and only the owner manages operators', async () => {
    await gw.admin.patch('/admin/v1/operators/op_unknown', { role: 'viewer' }).expect(404);
    await gw.admin.post('/admin/v1/operators/op_unknown/token', {}).expect(404);
    const admin = await gw.admin.operator('admin');
    const refused = await admin.client.post('/admin/v1/operators', { name: 'Eve', role: 'owner' }).expect(403);
    expect(refused.body.error).toMatchObject({ code: 'permission_denied' });
    expect(refused.body.error.message).toContain("'owner'");
    // An operator-made owner may manage operators too.
    const owner = await gw.admin.operator('owner');
    await owner.client.post('/admin/v1/operators', { name: 'Fay', role: 'viewer' }).expect(201);
  });
});
