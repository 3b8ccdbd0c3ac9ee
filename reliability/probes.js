'use strict';
/**
 * Security probes: every ID-taking route with another account's IDs (404, never the data), a key
 * restricted to one model reading tasks of other models, callback URLs aimed at loopback, private,
 * link-local and metadata addresses in every spelling (400 unless the operator allows them), an
 * over-long model name (capped in the message), a Base64 payload never echoed. Every answer also
 * goes through the common checks (no 5xx, no secret, error object).
 */
const { KINDS, drain } = require('./tasks');

const BASE64 = Buffer.from(`probe-base64-payload-${'y'.repeat(200)}`).toString('base64');

const PRIVATE_CALLBACKS = [
  'http://127.0.0.1/hook',
  'http://127.1/hook',
  'http://localhost/hook',
  'http://sub.localhost/hook',
  'http://0.0.0.0/hook',
  'http://0/hook',
  'http://10.1.2.3/hook',
  'http://172.16.0.1/hook',
  'http://192.168.1.1/hook',
  'http://100.64.0.1/hook',
  'http://169.254.169.254/latest/meta-data/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://metadata/computeMetadata/v1/',
  'http://[::1]/hook',
  'http://[::]/hook',
  'http://[fd00::1]/hook',
  'http://[fe80::1]/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://[::ffff:169.254.169.254]/hook',
  'http://[::ffff:10.0.0.1]/hook',
  'http://[0:0:0:0:0:ffff:7f00:1]/hook',
  'http://2130706433/hook',
  'http://017700000001/hook',
  'http://0177.0.0.1/hook',
  'http://0x7f.0.0.1/hook',
  'http://0x7f000001/hook',
  'http://0xa9fea9fe/hook',
  'http://2852039166/hook',
  'http://127.0.0.1.:8080/hook',
  'http://LOCALHOST./hook',
  'http://user:pass@hooks.example.com/hook',
  'file:///etc/passwd',
  'gopher://127.0.0.1:6379/_INFO',
];

async function run(ctx) {
  const { lib, report } = ctx;
  const gw = await ctx.startGateway('probes', { CALLBACK_ALLOW_PRIVATE: 'false' });
  const admin = lib.adminClient(gw.url);
  const a = await admin.account('probe-owner');
  const b = await admin.account('probe-other');
  const restricted = await admin.post(`/admin/v1/accounts/${a.id}/keys`, { name: 'restricted', models: ['wx2.7-r2v'] });
  for (const [n, k] of [
    ['owner key', a.key],
    ['other key', b.key],
    ['restricted key', restricted.key],
    ['probe base64 payload', BASE64],
  ])
    ctx.secret(n, k);
  const call = async (method, path, key, body, label = 'probe') => {
    const res = await lib.request(method, `${gw.url}${path}`, {
      headers: key ? { authorization: `Bearer ${key}` } : {},
      body,
      timeoutMs: 10_000,
    });
    ctx.observe(label, res, { path: path.split('?')[0] });
    return res;
  };

  // The owner's things: one task per kind, a session, a voice.
  const owned = [];
  for (const kind of Object.keys(KINDS)) {
    const res = await call('POST', KINDS[kind].path, a.key, KINDS[kind].body('probe'));
    const id = KINDS[kind].idOf(res.json);
    if (id) owned.push({ id, kind });
    else throw new Error(`probes: could not create a ${kind} task: ${res.status} ${res.text}`);
  }
  const session = await call('POST', '/kl/v1/videos/multi-elements/init-selection', a.key, {
    video_url: 'https://example.com/clip.mp4',
  });
  const sessionId = session.json && session.json.data && session.json.data.session_id;
  await drain(lib, gw.url, a.key, owned, 30_000);
  const voiceTask = owned.find((t) => t.kind === 'kl-voice');
  const voice = await call('GET', KINDS['kl-voice'].query(voiceTask.id), a.key);
  const voiceId =
    voice.json &&
    voice.json.data &&
    voice.json.data.task_result &&
    voice.json.data.task_result.voices &&
    voice.json.data.task_result.voices[0].voice_id;
  report.tasksCreated += owned.length;
  report.tasksEnded += owned.length;

  let probes = 0;
  const expect404 = async (method, path, body, key = b.key, what = 'cross-account read') => {
    probes++;
    const res = await call(method, path, key, body);
    // Another account's ID: 404 only (403 would tell it exists). A restricted key: any refusal.
    if (key === b.key ? res.status !== 404 : res.status < 400) {
      if (key === b.key) report.crossAccountLeaks++;
      else report.restrictedKeyReads++;
      ctx.example(what, `${method} ${path} -> ${res.status} ${(res.text || '').slice(0, 160)}`);
    }
  };
  const ids = owned.map((t) => t.id);
  for (const id of [...ids, voiceId, sessionId].filter(Boolean)) {
    await expect404('GET', `/ax/api/v1/tasks/${id}`);
    await expect404('GET', `/vd/ent/v2/tasks/${id}/creations`);
    await expect404('GET', `/kl/v1/general/custom-voices/${id}`);
    await expect404('GET', `/kl/v1/videos/multi-elements/${id}`);
  }
  for (const list of ['/kl/v1/general/custom-voices', '/kl/v1/videos/multi-elements']) {
    probes++;
    const res = await call('GET', `${list}?pageSize=500&${ids.map((id) => `filter.task_ids=${id}`).join('&')}`, b.key);
    if (ids.some((id) => (res.text || '').includes(id))) {
      report.crossAccountLeaks++;
      ctx.example('cross-account read', `list ${list} shows the other account's task`);
    }
  }
  if (sessionId) {
    const point = { frame_index: 0, points: [{ x: 0.5, y: 0.5 }] };
    await expect404('POST', '/kl/v1/videos/multi-elements/add-selection', { session_id: sessionId, ...point });
    await expect404('POST', '/kl/v1/videos/multi-elements/delete-selection', { session_id: sessionId, ...point });
    await expect404('POST', '/kl/v1/videos/multi-elements/clear-selection', { session_id: sessionId });
    await expect404('POST', '/kl/v1/videos/multi-elements/preview-selection', { session_id: sessionId });
    await expect404('POST', '/kl/v1/videos/multi-elements', {
      session_id: sessionId,
      edit_mode: 'removal',
      prompt: 'remove it',
      duration: '5',
    });
  }
  if (voiceId) await expect404('POST', '/kl/v1/general/delete-voices', { voice_id: voiceId });
  await expect404('POST', '/kl/v1/general/custom-voices', {
    voice_name: 'stolen',
    video_id: `video_${voiceTask.id}_0`,
  });
  await expect404('POST', '/kl/v1/videos/multi-elements/init-selection', { video_id: `video_${voiceTask.id}_0` });

  // A key restricted to wx2.7-r2v reading the same account's tasks of other models.
  for (const t of owned.filter((x) => x.kind !== 'ax-new'))
    await expect404('GET', KINDS[t.kind].query(t.id), undefined, restricted.key, 'restricted-key read');

  // Callback destinations: refused (400 naming callback_url) in every spelling.
  for (const url of PRIVATE_CALLBACKS) {
    for (const kind of ['vd', 'kl-voice']) {
      probes++;
      const res = await call('POST', KINDS[kind].path, a.key, KINDS[kind].body(`cb`, url));
      if (res.status !== 400) {
        report.privateCallbacks++;
        ctx.example('private callback accepted', `${kind} ${url} -> ${res.status}`);
        const id = KINDS[kind].idOf(res.json);
        if (id) owned.push({ id, kind });
      }
    }
  }

  // Over-long model names and echoed values are capped; a Base64 payload is never echoed.
  const long = `LONGVALUE${'m'.repeat(100_000)}`;
  const longBodies = [
    ['/ax/api/v1/services/aigc/video-generation/video-synthesis', { ...KINDS['ax-new'].body('x'), model: long }],
    ['/vd/ent/v2/reference2video', { ...KINDS.vd.body('x'), model: long }],
    ['/vd/ent/v2/reference2video', { ...KINDS.vd.body('x'), aspect_ratio: long }],
    ['/kl/v1/general/custom-voices', { ...KINDS['kl-voice'].body('x'), model_name: long }],
    ['/kl/v1/general/custom-voices', { ...KINDS['kl-voice'].body('x'), voice_url: `https://example.com/${long}.txt` }],
    [
      '/kl/v1/videos/multi-elements',
      { session_id: sessionId, edit_mode: 'swap', prompt: 'p', image_list: [{ image: BASE64 }] },
    ],
    [
      '/kl/v1/videos/multi-elements',
      {
        session_id: sessionId,
        edit_mode: 'swap',
        prompt: 'p',
        image_list: [{ image: `data:image/png;base64,${BASE64}` }],
      },
    ],
    [
      '/vd/ent/v2/reference2video',
      { model: 'vdq3', images: [`data:image/png;base64,${BASE64}`], prompt: 'x', duration: 'five' },
    ],
    [
      '/ax/api/v1/services/aigc/video-generation/video-synthesis',
      {
        model: 'wx2.6-r2v',
        input: { prompt: 'x', reference_urls: [`data:image/png;base64,${BASE64}`] },
        parameters: { size: long },
      },
    ],
  ];
  for (const [path, body] of longBodies) {
    probes++;
    const res = await call('POST', path, a.key, body);
    if (res.status < 400) {
      const id = Object.values(KINDS)
        .find((k) => k.path === path)
        ?.idOf(res.json);
      if (id) owned.push({ id, kind: Object.keys(KINDS).find((k) => KINDS[k].path === path) });
    }
    if ((res.text || '').length > 4000 || (res.text || '').includes('m'.repeat(600))) {
      report.uncappedEchoes++;
      ctx.example(
        'uncapped echo',
        `${path} ${Object.keys(body).join(',')}: ${res.status}, answer of ${(res.text || '').length} chars: ${(res.text || '').slice(0, 150)}`,
      );
    }
  }

  const final = await ctx.settled(admin, [a.id, b.id], null, 30_000);
  ctx.account(final, 'probes');
  ctx.detail('probes', { probes, privateSpellings: PRIVATE_CALLBACKS.length });
  await gw.stop();
}

module.exports = { name: 'probes', run };
