'use strict';
/**
 * What downloading one small result file costs in CPU, by HTTP client: the keeper's
 * (`FileDownloads`: follow-redirects over Node's http client on the upstream agents, one timer for
 * the time limit),
 * `fetch` (undici), axios (the upstream calls' client), and Node's bare `http.get` (no redirects, no
 * time limit: the floor). A local server answers a 2,236-byte video (the simulator's sample) with
 * keep-alive; 4 downloads at a time; process CPU per download (the server's share included, the
 * same for all).
 *
 *   npm run build && node bench/downloads.js [--downloads 4000]
 */
const http = require('node:http');
const axios = require('axios');
const lib = require('./lib');

const { readWhole } = lib.requireDist('core/result-keeping/result-download.js');
const { FileDownloads } = lib.requireDist('upstream/http/file-downloads.js');
const { UpstreamAgents } = lib.requireDist('upstream/http/upstream-agents.js');
const { resolveHttpOptions } = lib.requireDist('upstream/http/upstream-http-options.js');
const argv = process.argv.slice(2);
const at = argv.indexOf('--downloads');
const DOWNLOADS = Number(at >= 0 ? argv[at + 1] : 4000);
const TIMEOUT_MS = 30_000;
const body = Buffer.alloc(2236, 7);
const agent = new http.Agent({ keepAlive: true });
const upstreamAgents = new UpstreamAgents(resolveHttpOptions({}));
const keeper = new FileDownloads(upstreamAgents);
const viaAxios = axios.create({ httpAgent: agent, maxRedirects: 5, responseType: 'arraybuffer', timeout: TIMEOUT_MS });

const collect = (res) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    res.on('data', (chunk) => chunks.push(chunk));
    res.on('end', () => resolve(Buffer.concat(chunks).length));
    res.on('error', reject);
  });

const WAYS = {
  'FileDownloads (follow-redirects, a timer)': async (url) => {
    const answer = await keeper.open(url, TIMEOUT_MS);
    try {
      return (await readWhole(answer.body)).length;
    } finally {
      answer.close();
    }
  },
  'fetch (undici), AbortSignal.timeout': async (url) => {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'follow' });
    return Buffer.from(await res.arrayBuffer()).length;
  },
  'axios (arraybuffer)': async (url) => (await viaAxios.get(url)).data.length,
  'http.get (no redirects, no time limit)': (url) =>
    new Promise((resolve, reject) => {
      http.get(url, { agent }, (res) => collect(res).then(resolve, reject)).on('error', reject);
    }),
};

const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': body.length });
  res.end(body);
});

server.listen(0, '127.0.0.1', async () => {
  const url = `http://127.0.0.1:${server.address().port}/sample.mp4`;
  const results = Object.fromEntries(Object.keys(WAYS).map((name) => [name, []]));
  for (let round = 0; round < 3; round++)
    for (const [name, download] of Object.entries(WAYS)) {
      for (let i = 0; i < 300; i++) await download(url); // warm-up
      let next = 0;
      const before = process.cpuUsage();
      await Promise.all(
        [...Array(4)].map(async () => {
          while (next++ < DOWNLOADS) await download(url);
        }),
      );
      const used = process.cpuUsage(before);
      results[name].push((used.user + used.system) / DOWNLOADS);
    }
  const { median } = lib;
  const base = median(results['fetch (undici), AbortSignal.timeout']);
  console.log(
    `| ${DOWNLOADS} downloads of 2,236 bytes, 4 at a time | CPU µs per download (median of 3) | against fetch |`,
  );
  console.log('| --- | --- | --- |');
  for (const [name, xs] of Object.entries(results))
    console.log(
      `| ${name} | ${median(xs).toFixed(0)} (${xs.map((x) => x.toFixed(0)).join(', ')}) | ${(median(xs) / base).toFixed(2)} |`,
    );
  upstreamAgents.destroy();
  agent.destroy();
  server.close();
});
