import { simulatorChannels } from '../../src/bootstrap/resolve-channels';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator';
import { UpstreamChannel } from '../../src/upstream/upstream.types';
import { CdnFrontedUpstream, startCdnFrontedUpstream } from '../support/cdn-fronted-upstream';
import { Harness, startGateway } from '../support/gateway-harness';
import { FAST_ENV, bearer, eventually } from '../support/simulated-gateway';

/**
 * A burst of creates over four ax channels (weights 1 and 3 in the first tier, a backup
 * tier, one channel for one model only) while finished tasks' files are being kept. The weight-3
 * channel's vendor serves files from its own host and refuses them (a 403, as an expired or
 * hotlink-protected link is), keeping idle connections for 65 s as CDNs do: its creates and polls
 * stay healthy throughout.
 */
const AX_CREATE = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
const PINNED_MODEL = 'wx2.7-r2v-2026-06-12';
const body = (model: string) => ({
  model,
  input: { prompt: 'Image 1 walks', media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
});

describe('a burst of creates while results are kept', () => {
  jest.setTimeout(180_000);
  let sims: RunningSimulator[] = [];
  let cdn: CdnFrontedUpstream | undefined;
  let gw: Harness | undefined;

  afterAll(async () => {
    await gw?.close();
    await cdn?.close();
    await Promise.all(sims.map((sim) => sim.close()));
  });

  it('400 creates at 8 at a time: every one accepted, no channel failing, while the refused files are given up', async () => {
    sims = [await startSimulator({ taskMs: 150 }), await startSimulator({ taskMs: 150 })];
    const [shared, behindCdn] = sims.map((sim) => simulatorChannels(sim, ['ax'])[0]);
    cdn = await startCdnFrontedUpstream(behindCdn.baseUrl);
    cdn.files = 'refuse';
    const channels: UpstreamChannel[] = [
      { ...shared, id: 'ax-light', weight: 1, priority: 1 },
      { ...behindCdn, id: 'ax-heavy', weight: 3, priority: 1, baseUrl: cdn.baseUrl },
      { ...shared, id: 'ax-backup', priority: 0 },
      { ...shared, id: 'ax-pinned', priority: 1, models: [PINNED_MODEL] },
    ];
    gw = await startGateway({ channels, env: FAST_ENV });
    const acct = await gw.admin.account({
      models: ['wx2.7-r2v', PINNED_MODEL],
      max_concurrent_tasks: 100_000,
      rate_limit_rpm: 1_000_000,
    });

    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < 400) {
          const model = next++ % 4 === 3 ? PINNED_MODEL : 'wx2.7-r2v';
          const res = await gw!
            .http()
            .post(AX_CREATE)
            .set(...bearer(acct))
            .send(body(model));
          statuses.push(res.status);
        }
      }),
    );

    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const view = (await gw.admin.get('/admin/v1/channels').expect(200)).body.data as Array<Record<string, unknown>>;
    expect(view.map((c) => [c.id, c.breaker, c.last_hour])).toEqual(
      channels.map((c) => [c.id, 'closed', expect.objectContaining({ errors: 0 })]),
    );
    // More refused files than one pool of sockets to that host holds: each would have kept its socket.
    await eventually(async () => cdn!.fileRequests > 128, 60_000, 200);
  });
});
