#!/usr/bin/env node
// Demo against a running gateway: one task per family (kl: session, selection, editing task), progress while waiting, result URLs.
// Usage: API_KEY=vgw_... [GATEWAY_URL=http://localhost:3000] npm run demo
//        npm run demo -- --new-key   (a new demo account and key through the admin API, then the demo)
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const base = (process.env.GATEWAY_URL || 'http://localhost:3000').replace(/\/$/, '');
const newKey = process.argv.includes('--new-key');
let key = process.env.API_KEY;
if (!key && !newKey) {
  console.error(
    'Set API_KEY to a gateway API key: the demo key `npm start` printed at its first start, or run `npm run demo -- --new-key` to create a new demo account with its own key.',
  );
  process.exit(2);
}

/** fetch, with an unreachable gateway reported as what to check rather than "fetch failed". */
async function request(method, urlPath, headers, body) {
  const url = `${base}${urlPath}`;
  try {
    return await fetch(url, { method, headers, body: body ? JSON.stringify(body) : undefined });
  } catch (error) {
    const cause = error && error.cause ? error.cause.code || error.cause.message : error.message;
    const now = process.env.GATEWAY_URL
      ? `GATEWAY_URL is ${process.env.GATEWAY_URL}`
      : 'GATEWAY_URL is unset, so http://localhost:3000';
    throw new Error(
      `Cannot reach the gateway at ${url} (${cause}). Is it running (npm start)? If it listens elsewhere, set GATEWAY_URL (${now}).`,
    );
  }
}

async function call(method, urlPath, body) {
  const res = await request(
    method,
    urlPath,
    { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body,
  );
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${method} ${urlPath} -> ${res.status} ${JSON.stringify(json.error || json)}`);
  return json;
}

/** ADMIN_TOKEN, else the token file the gateway keeps (ADMIN_TOKEN_FILE, default data/admin-token). */
function adminToken() {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const file = path.resolve(process.env.ADMIN_TOKEN_FILE || 'data/admin-token');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    throw new Error(
      `--new-key needs the admin token: set ADMIN_TOKEN, or run from the directory where the gateway keeps ${path.relative(process.cwd(), file) || file} (or set ADMIN_TOKEN_FILE).`,
    );
  }
}

/** A new demo account (10,000 credits, every priced model) and its key, through the admin API. */
async function issueDemoKey() {
  const token = adminToken();
  const admin = async (method, urlPath, body) => {
    const res = await request(
      method,
      urlPath,
      { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body,
    );
    const json = await res.json().catch(() => ({}));
    if (res.status === 401)
      throw new Error(
        `${method} ${urlPath} -> 401: the admin token is not this gateway's (check ADMIN_TOKEN or the token file).`,
      );
    if (!res.ok) throw new Error(`${method} ${urlPath} -> ${res.status} ${JSON.stringify(json.error || json)}`);
    return json;
  };
  const models = Object.keys((await admin('GET', '/admin/v1/prices')).models || {});
  const account = await admin('POST', '/admin/v1/accounts', { name: 'demo', balance: 10000000 });
  await admin('PUT', `/admin/v1/accounts/${account.id}/models`, { models: models.map((model) => ({ model })) });
  const issued = await admin('POST', `/admin/v1/accounts/${account.id}/keys`, { name: 'demo' });
  console.log(
    `new demo account ${account.id} (every model enabled); its API key, shown only now:\nexport API_KEY=${issued.key}\n`,
  );
  return issued.key;
}

const families = [
  {
    name: 'ax (wx2.7-r2v)',
    create: () =>
      call('POST', '/ax/api/v1/services/aigc/video-generation/video-synthesis', {
        model: 'wx2.7-r2v',
        input: {
          prompt: 'Image 1 walks along the beach at sunset',
          media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }],
        },
        parameters: { resolution: '720P', duration: 5 },
      }).then((r) => r.output.task_id),
    poll: async (id) => {
      const r = await call('GET', `/ax/api/v1/tasks/${id}`);
      const s = r.output.task_status;
      return { status: s, done: ['SUCCEEDED', 'FAILED', 'CANCELED'].includes(s), url: r.output.video_url };
    },
  },
  {
    name: 'vd (vdq3, subject mode)',
    create: () =>
      call('POST', '/vd/ent/v2/reference2video', {
        model: 'vdq3',
        subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }],
        prompt: '@cat chases a butterfly in the garden',
      }).then((r) => r.task_id),
    poll: async (id) => {
      const r = await call('GET', `/vd/ent/v2/tasks/${id}/creations`);
      return {
        status: r.state,
        done: ['success', 'failed'].includes(r.state),
        url: r.creations[0] && r.creations[0].url,
      };
    },
  },
  {
    name: 'kl editing (kl-v1-6)',
    // Session first: initialise a video (any URL the simulator accepts), mark an element on frame 0, then edit.
    create: async () => {
      const base = '/kl/v1/videos/multi-elements';
      const init = await call('POST', `${base}/init-selection`, { video_url: 'https://example.com/clip.mp4' });
      const sessionId = init.data.session_id;
      await call('POST', `${base}/add-selection`, {
        session_id: sessionId,
        frame_index: 0,
        points: [{ x: 0.42, y: 0.61 }],
      });
      const created = await call('POST', base, {
        session_id: sessionId,
        edit_mode: 'removal',
        prompt: 'Delete the cup from <<<video_1>>>',
        duration: '5',
      });
      return created.data.task_id;
    },
    poll: async (id) => {
      const r = await call('GET', `/kl/v1/videos/multi-elements/${id}`);
      const s = r.data.task_status;
      const video = r.data.task_result.videos[0];
      return { status: s, done: ['succeed', 'failed'].includes(s), url: video && video.url };
    },
  },
];

async function run() {
  if (newKey) key = await issueDemoKey();
  const started = await Promise.all(families.map(async (f) => ({ ...f, id: await f.create() })));
  for (const f of started) console.log(`created ${f.name}: ${f.id}`);
  const pending = new Set(started);
  const deadline = Date.now() + 120000;
  while (pending.size > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1000));
    for (const f of [...pending]) {
      const p = await f.poll(f.id);
      process.stdout.write(`  ${f.name}: ${p.status}\n`);
      if (p.done) {
        pending.delete(f);
        console.log(`${f.name} finished: ${p.status}${p.url ? ` -> ${p.url}` : ''}`);
      }
    }
  }
  if (pending.size > 0) throw new Error('timed out waiting for tasks');
}

run().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
