import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { DataSource } from 'typeorm';
import { FAMILIES } from '../../src/families';
import { FamilyRegistry } from '../../src/families/family-registry';
import { SIM_VENDORS } from '../../src/simulator/sim-vendors';
import { UPSTREAM_VENDORS } from '../../src/upstream/vendors';
import { FX_FAMILY, FX_MODEL, FX_SIM_VENDOR, FX_VENDOR } from '../fixtures/fourth-family';
import { SimulatedGateway, bearer, eventually, startSimulatedGateway } from '../support/simulated-gateway';
import { tempDirs } from '../support/temp-dirs';

/** The price the test gives the new model: 7 units per output second. */
const FX_PER_SECOND = 7;

const pricesDir = tempDirs('gw-fx-prices-');

/** config/prices.json with the new model priced, as an operator adding the family would edit it. */
function pricesWithFx(): string {
  const table = JSON.parse(readFileSync('config/prices.json', 'utf8')) as { models: Record<string, unknown> };
  table.models[FX_MODEL] = { per_second: FX_PER_SECOND };
  const file = join(pricesDir(), 'prices.json');
  writeFileSync(file, JSON.stringify(table));
  return file;
}

describe('a fourth family, registered through the lists alone', () => {
  let gw: SimulatedGateway;

  beforeAll(async () => {
    gw = await startSimulatedGateway({
      families: new FamilyRegistry([...FAMILIES, FX_FAMILY]),
      vendors: [...UPSTREAM_VENDORS, FX_VENDOR],
      simVendors: [...SIM_VENDORS, FX_SIM_VENDOR],
      env: { PRICES_FILE: pricesWithFx() },
    });
  });
  afterAll(() => gw?.close());

  it('creates a task through its own route and serves it, finished, through its query route', async () => {
    const account = await gw.admin.account({ models: [FX_MODEL], balance: 1_000 });
    const created = await gw
      .http()
      .post('/fx/v1/videos')
      .set(...bearer(account))
      .send({ model: FX_MODEL, prompt: 'a lighthouse at dusk', seconds: 2 })
      .expect(200);
    expect(created.body).toMatchObject({ status: 'queued', model: FX_MODEL, video_url: null });
    const id = created.body.id as string;

    // The create went to the fourth vendor's simulated server, in its own wire shape.
    const sent = gw.sim.requests.find((r) => r.family === 'fx' && r.method === 'POST');
    expect(sent).toMatchObject({ path: '/fx-api/videos', body: { model: FX_MODEL, seconds: 2 } });

    const done = await eventually(async () => {
      const res = await gw
        .http()
        .get(`/fx/v1/videos/${id}`)
        .set(...bearer(account))
        .expect(200);
      return res.body.status === 'succeeded' ? res.body : undefined;
    });
    expect(done).toMatchObject({ id, status: 'succeeded', model: FX_MODEL });
    expect(done.video_url).toEqual(expect.any(String));

    // Billed by the family's own pricing rule: 2 seconds at 7 units.
    const billed = await eventually(async () => {
      const res = await gw.admin.get(`/admin/v1/accounts/${account.id}`).expect(200);
      return res.body.balance === 1_000 - 2 * FX_PER_SECOND ? res.body : undefined;
    });
    expect(billed.balance).toBe(986);
  });

  it('answers errors under its path with its own native fields', async () => {
    const account = await gw.admin.account({ models: [FX_MODEL] });
    const res = await gw
      .http()
      .post('/fx/v1/videos')
      .set(...bearer(account))
      .send({ model: FX_MODEL })
      .expect(400);
    expect(res.body).toMatchObject({ error: { param: 'prompt' }, fx_error: 'invalid_request' });
  });

  it('ran the family’s own migration at start', async () => {
    const rows = await gw.app.get(DataSource).query('SELECT COUNT(*) AS n FROM fx_notes');
    expect(Number(rows[0].n)).toBe(0);
  });
});
