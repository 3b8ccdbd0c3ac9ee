import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { readWhole } from '../../core/result-keeping/result-download';
import { createTestUpstream } from '../../../test/upstream/test-upstream';
import { FileDownloads } from './file-downloads';

/** A server whose handler is set per test. */
function server(handle: Parameters<typeof createServer>[1]) {
  const srv: Server = createServer(handle);
  return new Promise<{ origin: string; close: () => void }>((resolve) =>
    srv.listen(0, '127.0.0.1', () =>
      resolve({
        origin: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
        close: () => {
          srv.closeAllConnections();
          srv.close();
        },
      }),
    ),
  );
}

describe('FileDownloads', () => {
  const upstream = createTestUpstream();
  const downloads = new FileDownloads(upstream.agents);
  let up: { origin: string; close: () => void };
  let hits: string[] = [];
  beforeAll(async () => {
    up = await server((req, res) => {
      hits.push(req.url ?? '');
      const url = new URL(req.url ?? '/', 'http://x');
      const hop = Number(url.searchParams.get('hop') ?? 0);
      if (url.pathname === '/relative') res.writeHead(302, { location: '/file.mp4' }).end();
      else if (url.pathname === '/absolute') res.writeHead(307, { location: `${up.origin}/relative` }).end();
      else if (url.pathname === '/loop') res.writeHead(301, { location: `/loop?hop=${hop + 1}` }).end();
      else if (url.pathname === '/file.mp4' && req.headers.range === 'bytes=0-4')
        res.writeHead(206, { 'content-range': 'bytes 0-4/11' }).end('video');
      else if (url.pathname === '/file.mp4') res.writeHead(200, { 'content-type': 'video/mp4' }).end('video bytes');
      else if (url.pathname === '/gone')
        res.writeHead(403, { 'content-type': 'application/xml' }).end('<Error><Code>AccessDenied</Code></Error>');
      else if (url.pathname === '/silent')
        return; // never answers
      else if (url.pathname === '/stall') res.writeHead(200, { 'content-length': 100 }).write('only part');
      else if (url.pathname === '/cut') {
        res.writeHead(200, { 'content-length': 100 }).write('only part');
        setTimeout(() => res.destroy(), 20);
      } else res.writeHead(404).end();
    });
  });
  beforeEach(() => (hits = []));
  afterAll(() => {
    upstream.close();
    up.close();
  });

  it('follows relative and absolute redirects to the file', async () => {
    const answer = await downloads.open(`${up.origin}/absolute`, 5000);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('video/mp4');
    expect((await readWhole(answer.body)).toString()).toBe('video bytes');
    answer.close();
    expect(hits).toEqual(['/absolute', '/relative', '/file.mp4']);
  });

  it('passes HEAD and a byte range on', async () => {
    const head = await downloads.open(`${up.origin}/file.mp4`, 5000, { method: 'HEAD' });
    expect([head.status, head.headers['content-type'], (await readWhole(head.body)).length]).toEqual([
      200,
      'video/mp4',
      0,
    ]);
    head.close();
    const part = await downloads.open(`${up.origin}/relative`, 5000, { range: 'bytes=0-4' });
    expect([part.status, (await readWhole(part.body)).toString()]).toEqual([206, 'video']);
    part.close();
  });

  it('gives up after five redirects', async () => {
    await expect(downloads.open(`${up.origin}/loop`, 5000)).rejects.toThrow('Maximum number of redirects exceeded');
    expect(hits).toHaveLength(6);
  });

  it('holds the whole download to its time limit: the answer and the body', async () => {
    await expect(downloads.open(`${up.origin}/silent`, 100)).rejects.toThrow('longer than 100 ms');
    const answer = await downloads.open(`${up.origin}/stall`, 100);
    await expect(readWhole(answer.body)).rejects.toThrow('longer than 100 ms');
    answer.close();
  });

  it('fails a body cut before its declared length', async () => {
    const answer = await downloads.open(`${up.origin}/cut`, 5000);
    await expect(readWhole(answer.body)).rejects.toThrow();
    answer.close();
  });

  it("downloads on the upstream agents' file pool (connect time limit), never on the API calls' sockets", async () => {
    const answer = await downloads.open(`${up.origin}/file.mp4`, 5000);
    await readWhole(answer.body);
    answer.close();
    await new Promise((resolve) => setImmediate(resolve));
    const host = new URL(up.origin).host;
    const holds = (pool: NodeJS.ReadOnlyDict<unknown[]>) => Object.keys(pool).some((name) => name.startsWith(host));
    expect(holds(upstream.agents.files.http.freeSockets)).toBe(true);
    expect(holds(upstream.agents.http.freeSockets) || holds(upstream.agents.http.sockets)).toBe(false);
  });

  it.each([
    ['a refusal whose body is not read', '/gone', 'GET'],
    ['a file given up unread', '/file.mp4', 'GET'],
    ['a HEAD', '/file.mp4', 'HEAD'],
  ] as const)('gives the socket back on close after %s', async (_case, path, method) => {
    const host = new URL(up.origin).host;
    const inUse = () =>
      Object.entries(upstream.agents.files.http.sockets)
        .filter(([name]) => name.startsWith(host))
        .reduce((sum, [, sockets]) => sum + (sockets?.length ?? 0), 0);
    for (let i = 0; i < 3; i++) {
      const answer = await downloads.open(`${up.origin}${path}`, 5000, { method });
      // The whole (small) answer is in before it is given up.
      await new Promise((resolve) => setTimeout(resolve, 20));
      answer.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(inUse()).toBe(0);
  });

  it('refuses what is not http or https', async () => {
    await expect(downloads.open('ftp://example.com/file.mp4', 5000)).rejects.toThrow('cannot download a ftp: URL');
  });
});
