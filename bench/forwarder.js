'use strict';
/**
 * The ceiling the gateway is measured against: a minimal reverse proxy on Node's own `http`
 * module. It relays each request as it came (method, path minus the family prefix, headers,
 * body) to the same simulator the gateway uses, adds the upstream's auth header (and ax's
 * async header, as the gateway's client does), and streams the upstream's answer back. No
 * validation, no persistence, no logging, no metrics.
 *
 *   /ax/<path> -> FWD_AX_BASE_URL/<path>  with Authorization: Bearer FWD_AX_API_KEY, X-DashScope-Async: enable
 *   /vd/<path> -> FWD_VD_BASE_URL/<path>  with Authorization: Token FWD_VD_API_KEY
 *
 * Run as its own process by bench/run.js (so it gets a core of its own, like the gateway).
 */
const http = require('node:http');

const port = Number(process.env.FWD_PORT || 0);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256, scheduling: 'lifo' });

const routes = {
  ax: {
    base: new URL(process.env.FWD_AX_BASE_URL),
    headers: { authorization: `Bearer ${process.env.FWD_AX_API_KEY}`, 'x-dashscope-async': 'enable' },
  },
  vd: { base: new URL(process.env.FWD_VD_BASE_URL), headers: { authorization: `Token ${process.env.FWD_VD_API_KEY}` } },
};

const server = http.createServer((req, res) => {
  const match = /^\/(ax|vd)(\/.*)$/.exec(req.url || '');
  const route = match && routes[match[1]];
  if (!route) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":"no route"}');
    return;
  }
  const headers = { ...req.headers, ...route.headers, host: route.base.host };
  const upstream = http.request(
    { agent, hostname: route.base.hostname, port: route.base.port, method: req.method, path: match[2], headers },
    (answer) => {
      res.writeHead(answer.statusCode || 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(503, { 'content-type': 'application/json' });
    res.end('{"error":"upstream unavailable"}');
  });
  req.pipe(upstream);
});
server.keepAliveTimeout = 65_000;

server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`forwarder listening on ${server.address().port}\n`);
});
// Keep-alive sockets would hold close() open: stop at once. And never outlive the benchmark.
process.once('SIGTERM', () => process.exit(0));
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 1000).unref();
