import { SimulatedGateway, bearer, startSimulatedGateway } from '../support/simulated-gateway';
import { TestAccount } from '../support/gateway-harness';

const KL = '/kl/v1/videos/multi-elements';

/** Issue 14, item 6: a key restricted to some models reads nothing of other models; echoed client values are capped. */
describe('security probes', () => {
  let gw: SimulatedGateway;
  let owner: TestAccount;
  let restricted: TestAccount;

  beforeAll(async () => {
    gw = await startSimulatedGateway();
    owner = await gw.admin.account({ models: ['kl-v1', 'kl-v1-6', 'vdq3', 'wx2.7-r2v'] });
    const key = await gw.admin
      .post(`/admin/v1/accounts/${owner.id}/keys`, { name: 'kl-v1 only', models: ['kl-v1'] })
      .expect(201);
    restricted = { id: owner.id, key: key.body.key, keyId: key.body.id };
  });
  afterAll(() => gw.close());

  it('a key restricted to kl-v1 cannot use or read a session of kl-v1-6 (404, as if it did not exist)', async () => {
    const session = await gw
      .http()
      .post(`${KL}/init-selection`)
      .set(...bearer(owner))
      .send({ model_name: 'kl-v1-6', video_url: 'https://example.com/clip.mp4' })
      .expect(200);
    const res = await gw
      .http()
      .post(`${KL}/add-selection`)
      .set(...bearer(restricted))
      .send({ session_id: session.body.data.session_id, frame_index: 0, points: [{ x: 0.5, y: 0.5 }] })
      .expect(404);
    expect(res.body.error.code).toBe('not_found');
  });

  it('caps a huge model name and a huge unknown field name in error messages', async () => {
    const huge = 'M'.repeat(100_000);
    const model = await gw
      .http()
      .post('/vd/ent/v2/reference2video')
      .set(...bearer(owner))
      .send({ model: huge, prompt: 'x', images: ['https://example.com/a.png'] });
    expect(model.status).toBe(404);
    expect(JSON.stringify(model.body).length).toBeLessThan(2000);
    const field = await gw
      .http()
      .post('/ax/api/v1/services/aigc/video-generation/video-synthesis')
      .set(...bearer(owner))
      .send({
        model: 'wx2.7-r2v',
        input: { prompt: 'Image 1', media: [{ type: 'reference_image', url: 'https://example.com/a.png' }] },
        ['k'.repeat(100_000)]: 1,
      });
    expect(field.status).toBe(400);
    expect(JSON.stringify(field.body).length).toBeLessThan(2000);
  });
});
