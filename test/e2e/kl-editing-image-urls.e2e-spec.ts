import { MiB } from '../../src/families/common/media-probe';
import { MediaServer, chunkedFile, gif, jpeg, png, serveMedia } from '../fixtures/media';
import { TestAccount } from '../support/gateway-harness';
import { SimulatedGateway, bearer, startSimulatedGateway } from '../support/simulated-gateway';

/**
 * kl editing tasks with images given by URL: the gateway reads each image's first bytes
 * before the upstream call and refuses what the rules would refuse as Base64, or what it cannot
 * reach, with a 400 naming the field. Loopback addresses are refused unless the operator allows them.
 */
const BASE = '/kl/v1/videos/multi-elements';
const VIDEO = 'https://example.com/clip.mp4';
const PROMPT = 'Using the context of <<<video_1>>>, seamlessly add the hat from <<<image_1>>>';

describe('kl editing: images given by URL', () => {
  let images: MediaServer;
  let gw: SimulatedGateway;
  let acct: TestAccount;

  beforeAll(async () => {
    images = await serveMedia({
      '/hat.png': png(400, 400),
      '/hat.jpg': jpeg(600, 400),
      '/small.png': png(200, 400),
      '/thin.jpg': jpeg(300, 900),
      '/really-a-gif.png': gif(400, 400),
      '/notes.txt.png': Buffer.from('plain words, no image here'),
      // No Content-Length (chunked): its size is known only by counting its bytes.
      '/huge-chunked.png': chunkedFile(png(400, 400), 11 * MiB),
    });
    gw = await startSimulatedGateway({ env: { MEDIA_FETCH_ALLOW_PRIVATE: 'true' } });
    acct = await gw.admin.account({ models: ['kl-v1', 'kl-v1-6'] });
  });
  afterAll(async () => {
    await gw?.close();
    await images?.close();
  });

  const post = (target: SimulatedGateway, account: TestAccount, path: string, body: object) =>
    target
      .http()
      .post(`${BASE}${path}`)
      .set(...bearer(account))
      .send(body);
  const session = async (target: SimulatedGateway, account: TestAccount): Promise<string> =>
    (await post(target, account, '/init-selection', { video_url: VIDEO }).expect(200)).body.data.session_id;
  const task = (sessionId: string, ...urls: string[]) => ({
    session_id: sessionId,
    edit_mode: 'addition',
    image_list: urls.map((image) => ({ image })),
    prompt: PROMPT,
  });
  const upstreamCreates = (target: SimulatedGateway) =>
    target.sim.requests.filter((r) => r.method === 'POST' && r.path === '/v1/videos/multi-elements').length;

  it('creates the task when every URL image passes, forwarding the URLs as given', async () => {
    const s = await session(gw, acct);
    const urls = [images.url('/hat.png'), `${images.url('/hat.jpg')}?sig=abc`];
    await post(gw, acct, '', task(s, ...urls)).expect(200);
    const wire = gw.sim.requests.filter((r) => r.path === '/v1/videos/multi-elements').at(-1)?.body as {
      image_list: unknown;
    };
    expect(wire.image_list).toEqual(urls.map((image) => ({ image })));
    expect(
      images.requests.filter((r) => r.path.startsWith('/hat.')).every((r) => r.range?.startsWith('bytes=0-')),
    ).toBe(true);
  });

  it.each([
    ['too small', '/small.png', /image width 200 px is too small; it must be at least 300 px/],
    ['too thin', '/thin.jpg', /aspect ratio 300:900 is outside 1:2.5 to 2.5:1/],
    ['not a JPEG or PNG', '/really-a-gif.png', /image format gif is not supported/],
    ['not an image', '/notes.txt.png', /is not a readable image/],
    ['missing', '/gone.png', /could not be fetched \(HTTP 404\)/],
    ['over 10 MB, sent without Content-Length', '/huge-chunked.png', /the image is larger than 10 MB/],
  ])('refuses an image that is %s, before any upstream call', async (_name, path, message) => {
    const s = await session(gw, acct);
    const before = upstreamCreates(gw);
    const res = await post(gw, acct, '', task(s, images.url('/hat.png'), images.url(path))).expect(400);
    expect(res.body).toMatchObject({ code: expect.any(Number), message: expect.stringMatching(message) });
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'image_list[1].image' });
    expect(upstreamCreates(gw)).toBe(before);
  });

  it('by default refuses an image URL on a loopback address, without fetching it', async () => {
    const strict = await startSimulatedGateway({ sim: gw.sim });
    try {
      const account = await strict.admin.account({ models: ['kl-v1', 'kl-v1-6'] });
      const s = await session(strict, account);
      const fetched = images.requests.length;
      const res = await post(strict, account, '', task(s, images.url('/hat.png'))).expect(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'image_list[0].image' });
      expect(res.body.error.message).toMatch(/loopback, private, link-local or metadata/);
      expect(images.requests.length).toBe(fetched);
    } finally {
      await strict.close();
    }
  });
});
