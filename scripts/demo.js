#!/usr/bin/env node
// Demo against a running gateway: one task per family, progress while waiting, result URLs.
// Usage: API_KEY=vgw_... [GATEWAY_URL=http://localhost:3000] npm run demo
'use strict';

const base = (process.env.GATEWAY_URL || 'http://localhost:3000').replace(/\/$/, '');
const key = process.env.API_KEY;
if (!key) {
  console.error('Set API_KEY to a gateway API key (npm start prints a demo key on first start).');
  process.exit(2);
}
const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };

async function call(method, path, body) {
  const res = await fetch(`${base}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(json.error || json)}`);
  return json;
}

const families = [
  {
    name: 'family B (wx2.7-r2v)',
    create: () =>
      call('POST', '/ax/api/v1/services/aigc/video-generation/video-synthesis', {
        model: 'wx2.7-r2v',
        input: { prompt: 'Image 1 walks along the beach at sunset', media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }] },
        parameters: { resolution: '720P', duration: 5 },
      }).then((r) => r.output.task_id),
    poll: async (id) => {
      const r = await call('GET', `/ax/api/v1/tasks/${id}`);
      const s = r.output.task_status;
      return { status: s, done: ['SUCCEEDED', 'FAILED', 'CANCELED'].includes(s), url: r.output.video_url };
    },
  },
  {
    name: 'family C (vdq3, subject mode)',
    create: () =>
      call('POST', '/vd/ent/v2/reference2video', {
        model: 'vdq3',
        subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }],
        prompt: '@cat chases a butterfly in the garden',
      }).then((r) => r.task_id),
    poll: async (id) => {
      const r = await call('GET', `/vd/ent/v2/tasks/${id}/creations`);
      return { status: r.state, done: ['success', 'failed'].includes(r.state), url: r.creations[0] && r.creations[0].url };
    },
  },
];

async function run() {
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
