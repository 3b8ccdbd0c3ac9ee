import { createServer, request, ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import { responseInFlight } from './node-http-internals';

// Contract: what the gateway relies on in the running Node's HTTP server.
describe('Node HTTP server internals', () => {
  it("keeps the response under way as its socket's, until it is finished", async () => {
    const seen: Array<{ during: boolean; after: ServerResponse | undefined }> = [];
    const server = createServer((req, res) => {
      const during = responseInFlight(req.socket) === res;
      res.on('finish', () => setImmediate(() => seen.push({ during, after: responseInFlight(req.socket) })));
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve, reject) => {
        request({ port, host: '127.0.0.1', path: '/', agent: false }, (res) => {
          res.resume();
          res.on('end', resolve);
        })
          .on('error', reject)
          .end();
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen).toEqual([{ during: true, after: undefined }]);
    } finally {
      server.close();
    }
  });
});
