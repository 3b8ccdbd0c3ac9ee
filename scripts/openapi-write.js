#!/usr/bin/env node
// Writes the OpenAPI document the gateway serves at /docs-json to a file, for linters and client
// generators. Usage: node scripts/openapi-write.js [out-file] (default dist/openapi.json; run
// `npm run build` first). It starts the built gateway on a free loopback port with an in-memory
// database, nothing kept and no workers, reads the document and stops it: nothing is written but
// the file.
'use strict';

const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { freePort } = require('./free-port');

const ROOT = path.resolve(__dirname, '..');
const START_TIMEOUT_MS = 60_000;
const out = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist', 'openapi.json'));

async function fetchDocument(url, gateway, log) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (gateway.exitCode !== null) break;
    try {
      const answer = await fetch(url);
      if (answer.ok) return await answer.json();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the gateway did not serve ${url}:\n${log.join('')}`);
}

async function main() {
  const main = path.join(ROOT, 'dist', 'src', 'main.js');
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
  const port = await freePort();
  const gateway = spawn(process.execPath, [main], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      DATABASE_URL: 'sqlite::memory:',
      ADMIN_TOKEN: randomBytes(24).toString('hex'),
      RESULT_STORE: 'off',
      WORKERS_ENABLED: 'false',
      DEMO_SEED: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = [];
  gateway.stdout.on('data', (chunk) => log.push(chunk));
  gateway.stderr.on('data', (chunk) => log.push(chunk));
  try {
    const document = await fetchDocument(`http://127.0.0.1:${port}/docs-json`, gateway, log);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
    console.log(`wrote ${path.relative(process.cwd(), out)}`);
  } finally {
    if (gateway.exitCode === null) gateway.kill('SIGTERM');
  }
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
