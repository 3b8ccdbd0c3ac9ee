'use strict';
/**
 * What tracing costs: gateway CPU per create and per query with tracing off and on (100% sampling,
 * the SDK's batch exporter, OTLP/HTTP to a local receiver that only counts). Runs bench/cost.js on
 * two variants of the same build: `untraced` starts dist/src/main.js as it is, `traced` starts it with
 * the OTEL_* variables set. Needs `npm run build` first.
 *
 *   node bench/tracing.js [--protocol http/protobuf|http/json] [any bench/cost.js option, e.g. --rounds 3 --pg URL]
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { spawn } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const argv = process.argv.slice(2);
const at = argv.indexOf('--protocol');
const protocol = at >= 0 ? argv.splice(at, 2)[1] : 'http/protobuf';

function variant(name, env) {
  const dir = path.join(__dirname, '.ab', name, 'src');
  fs.mkdirSync(dir, { recursive: true });
  const lines = Object.entries(env).map(([k, v]) => `process.env.${k} = ${JSON.stringify(v)};`);
  lines.push(`require(${JSON.stringify(path.join(ROOT, 'dist/src/main.js'))});`);
  fs.writeFileSync(path.join(dir, 'main.js'), `'use strict';\n${lines.join('\n')}\n`);
}

async function main() {
  let batches = 0;
  let bytes = 0;
  const sink = http.createServer((req, res) => {
    req.on('data', (c) => (bytes += c.length));
    req.on('end', () => {
      batches++;
      res.setHeader('content-type', req.headers['content-type'] || 'application/json');
      res.end(String(req.headers['content-type']).includes('json') ? '{}' : '');
    });
  });
  await new Promise((r) => sink.listen(0, '127.0.0.1', r));
  variant('untraced', {});
  variant('traced', {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sink.address().port}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_TRACES_SAMPLER: 'always_on',
    OTEL_SERVICE_NAME: 'video-gateway-bench',
  });
  const args = ['--variants', 'untraced,traced', '--only', 'b-create,b-query,c-create,c-query', ...argv];
  const child = spawn(process.execPath, [path.join(__dirname, 'cost.js'), ...args], {
    cwd: ROOT,
    stdio: 'inherit',
    env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_'))),
  });
  const code = await new Promise((r) => child.on('exit', r));
  sink.close();
  process.stdout.write(`traced: ${protocol}, ${batches} export batches (${(bytes / 1e6).toFixed(1)} MB) received\n`);
  process.exit(code ?? 1);
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
