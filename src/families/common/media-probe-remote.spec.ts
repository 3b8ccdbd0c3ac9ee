import { GatewayError } from '../../platform/errors';
import { ImageLimits, MiB } from './media-probe';
import { MediaServer, chunkedFile, gif, jpeg, png, serveMedia } from '../../../test/fixtures/media';
import { MEDIA_FETCH_MAX_BYTES, RemoteMediaProbe } from './media-probe-remote';

const LIMITS: ImageLimits = {
  formats: ['jpg', 'png'],
  minSide: 300,
  maxAspectRatio: 2.5,
  maxBytes: 10 * MiB,
  allowPngTransparency: true,
};
const PARAM = 'image_list[0].image';

async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw e;
  }
  throw new Error('expected a GatewayError');
}

describe('RemoteMediaProbe', () => {
  let server: MediaServer;
  // Reading a 9 MB body on a loaded machine can take seconds: only the time-limit cases get 0.5 s.
  const probe = new RemoteMediaProbe({ allowPrivate: true, timeoutMs: 20_000 });
  const hasty = new RemoteMediaProbe({ allowPrivate: true, timeoutMs: 500 });
  const pending = new Set<() => void>();

  beforeAll(async () => {
    server = await serveMedia({
      '/good.png': png(400, 400),
      '/photo.jpg': jpeg(640, 480),
      '/narrow.png': png(200, 400),
      '/wide.png': png(1000, 300),
      '/anim.gif': gif(400, 400),
      '/page.html': Buffer.from('<html><body>not an image</body></html>'),
      // The header says 400 x 400; the file is 11 MB.
      '/huge.png': png(400, 400, { padTo: 11 * MiB }),
      '/huge-no-range.png': (_req, res) => {
        res.writeHead(200, { 'content-length': String(11 * MiB) });
        res.write(png(400, 400));
        pending.add(() => res.destroy());
      },
      '/chunked.jpg': (_req, res) => {
        res.writeHead(200, { 'transfer-encoding': 'chunked' });
        res.end(jpeg(640, 480));
      },
      // No Content-Length (chunked), the Range ignored: 11 MB behind a 400 x 400 header.
      '/huge-chunked.png': chunkedFile(png(400, 400), 11 * MiB),
      '/big-chunked.png': chunkedFile(png(400, 400), 9 * MiB),
      '/redirect.png': (_req, res) => void res.writeHead(302, { location: '/good.png' }).end(),
      '/loop.png': (_req, res) => void res.writeHead(302, { location: '/loop.png' }).end(),
      '/silent.png': (_req, res) => void pending.add(() => res.destroy()),
      '/stalls.png': (_req, res) => {
        res.writeHead(200, { 'content-length': '100000' });
        res.write(Buffer.from([0x89, 0x50]));
        pending.add(() => res.destroy());
      },
    });
  });
  afterAll(async () => {
    for (const release of pending) release();
    await server.close();
  });

  it.each([
    ['/good.png', 'png', 400, 400],
    ['/photo.jpg', 'jpg', 640, 480],
    ['/chunked.jpg', 'jpg', 640, 480],
    ['/big-chunked.png', 'png', 400, 400],
    ['/redirect.png', 'png', 400, 400],
  ])('accepts %s, read from its first bytes', async (path, format, width, height) => {
    await expect(probe.checkImageUrl(server.url(path), LIMITS, PARAM)).resolves.toMatchObject({
      format,
      width,
      height,
    });
  });

  it('asks for the first bytes only (Range), whatever the file size', async () => {
    server.requests.length = 0;
    await probe.checkImageUrl(server.url('/good.png'), LIMITS, PARAM);
    expect(server.requests).toEqual([{ path: '/good.png', range: `bytes=0-${MEDIA_FETCH_MAX_BYTES - 1}` }]);
  });

  it.each([
    ['/narrow.png', /image width 200 px is too small; it must be at least 300 px\./],
    ['/wide.png', /aspect ratio 1000:300 is outside 1:2.5 to 2.5:1/],
    ['/anim.gif', /image format gif is not supported \(allowed: JPEG, PNG\)/],
    ['/page.html', /is not a readable image/],
    ['/huge.png', /the image is larger than 10 MB/],
    ['/huge-no-range.png', /the image is larger than 10 MB/],
    ['/missing.png', /could not be fetched \(HTTP 404\)/],
    ['/loop.png', /could not be fetched \(more than 3 redirects\)/],
    ['/silent.png', /could not be fetched \(no answer within 0.5 s\)/],
    ['/stalls.png', /could not be fetched \(no answer within 0.5 s\)/],
  ])('refuses %s with a 400 naming the field', async (path, message) => {
    const timed = message.source.includes('no answer within');
    const err = await refusal((timed ? hasty : probe).checkImageUrl(server.url(path), LIMITS, PARAM));
    expect([err.status, err.code, err.param]).toEqual([400, 'invalid_request', PARAM]);
    expect(err.message).toMatch(message);
    expect(err.message.startsWith(`${PARAM}`)).toBe(true);
  });

  it('refuses an image over 10 MB sent chunked, without Content-Length, by counting the bytes read', async () => {
    const err = await refusal(probe.checkImageUrl(server.url('/huge-chunked.png'), LIMITS, PARAM));
    expect([err.status, err.code, err.param]).toEqual([400, 'invalid_request', PARAM]);
    expect(err.message).toMatch(/the image is larger than 10 MB/);
  });

  it('refuses a port nobody listens on', async () => {
    const closed = await serveMedia({});
    const url = closed.url('/x.png');
    await closed.close();
    const err = await refusal(probe.checkImageUrl(url, LIMITS, PARAM));
    expect(err.message).toMatch(/could not be fetched \(the connection was refused\)/);
  });

  it('by default reaches no loopback or private address, and sends nothing there', async () => {
    const strict = new RemoteMediaProbe({ allowPrivate: false, timeoutMs: 500 });
    server.requests.length = 0;
    for (const url of [server.url('/good.png'), 'http://localhost:9/x.png', 'http://169.254.169.254/latest/x.png']) {
      const err = await refusal(strict.checkImageUrl(url, LIMITS, PARAM));
      expect(err.param).toBe(PARAM);
      expect(err.message).toMatch(/its address is loopback, private, link-local or metadata/);
    }
    expect(server.requests).toEqual([]);
  });

  it('checks PNG transparency when the rules forbid it, reading past the header', async () => {
    const opaque = await serveMedia({ '/a.png': png(400, 400, { colourType: 6 }), '/b.png': png(400, 400) });
    try {
      const limits = { ...LIMITS, allowPngTransparency: false };
      const err = await refusal(probe.checkImageUrl(opaque.url('/a.png'), limits, PARAM));
      expect(err.message).toMatch(/must not have transparency/);
      await expect(probe.checkImageUrl(opaque.url('/b.png'), limits, PARAM)).resolves.toMatchObject({ format: 'png' });
    } finally {
      await opaque.close();
    }
  });
});
