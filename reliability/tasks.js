'use strict';
/**
 * The task kinds the load phases create (one per family protocol, and the OpenAI-shaped route), how
 * to read them back, and the leak scanner.
 */

const KINDS = {
  'ax-new': {
    path: '/ax/api/v1/services/aigc/video-generation/video-synthesis',
    body: (tag) => ({
      model: 'wx2.7-r2v',
      input: {
        prompt: `Image 1 walks on the beach ${tag}`,
        media: [{ type: 'reference_image', url: 'https://example.com/cat.png' }],
      },
      parameters: { resolution: '720P', duration: 5 },
    }),
    idOf: (json) => json && json.output && json.output.task_id,
    query: (id) => `/ax/api/v1/tasks/${id}`,
    statusOf: (json) => json && json.output && json.output.task_status,
    terminal: ['SUCCEEDED', 'FAILED', 'CANCELED'],
  },
  'ax-old': {
    path: '/ax/api/v1/services/aigc/video-generation/video-synthesis',
    body: (tag) => ({
      model: 'wx2.6-r2v-flash',
      input: {
        prompt: `character1 dances ${tag}`,
        reference_urls: ['https://example.com/a.png', 'https://example.com/b.mp4'],
      },
      parameters: { size: '1280*720', duration: 5, audio: false },
    }),
    idOf: (json) => json && json.output && json.output.task_id,
    query: (id) => `/ax/api/v1/tasks/${id}`,
    statusOf: (json) => json && json.output && json.output.task_status,
    terminal: ['SUCCEEDED', 'FAILED', 'CANCELED'],
  },
  vd: {
    path: '/vd/ent/v2/reference2video',
    body: (tag, callbackUrl) => ({
      model: 'vdq3',
      subjects: [{ name: 'cat', images: ['https://example.com/cat.png'] }],
      prompt: `@cat chases a butterfly ${tag}`,
      ...(callbackUrl ? { callback_url: callbackUrl } : {}),
    }),
    idOf: (json) => json && json.task_id,
    query: (id) => `/vd/ent/v2/tasks/${id}/creations`,
    statusOf: (json) => json && json.state,
    terminal: ['success', 'failed'],
  },
  'kl-voice': {
    path: '/kl/v1/general/custom-voices',
    body: (tag, callbackUrl) => ({
      voice_name: `Narrator ${tag}`.slice(0, 20),
      voice_url: 'https://example.com/voice.mp3',
      ...(callbackUrl ? { callback_url: callbackUrl } : {}),
    }),
    idOf: (json) => json && json.data && json.data.task_id,
    query: (id) => `/kl/v1/general/custom-voices/${id}`,
    statusOf: (json) => json && json.data && json.data.task_status,
    terminal: ['succeed', 'failed'],
  },
  // The OpenAI-shaped surface over vd: its own create route, read back as a video object.
  oa: {
    path: '/v1/videos',
    body: (tag) => ({
      model: 'vdq3',
      prompt: `A cat plays in a sunny garden ${tag}`,
      size: '1280x720',
      seconds: '5',
      input_reference: { image_url: 'https://example.com/cat.png' },
    }),
    idOf: (json) => json && json.object === 'video' && json.id,
    query: (id) => `/v1/videos/${id}`,
    statusOf: (json) => json && json.status,
    terminal: ['completed', 'failed'],
  },
};
const KIND_NAMES = Object.keys(KINDS);

/** Reads every task back until all are terminal (or the time is up); returns {ended, missing, open}. */
async function drain(lib, url, key, tasks, timeoutMs) {
  const pending = new Map(tasks.map((t) => [t.id, t]));
  let missing = 0;
  const until = Date.now() + timeoutMs;
  while (pending.size && Date.now() < until) {
    await lib.pool([...pending.values()], 8, async (task) => {
      const res = await lib.request('GET', `${url}${KINDS[task.kind].query(task.id)}`, {
        headers: { authorization: `Bearer ${task.key || key}` },
        timeoutMs: 5000,
      });
      if (res.status === 404) {
        pending.delete(task.id);
        missing++;
      } else if (res.status === 200 && KINDS[task.kind].terminal.includes(KINDS[task.kind].statusOf(res.json))) {
        pending.delete(task.id);
      }
    });
    if (pending.size) await lib.sleep(500);
  }
  return {
    ended: tasks.length - pending.size - missing,
    missing,
    open: pending.size,
    openIds: [...pending.keys()].slice(0, 5),
  };
}

/**
 * What a response must never carry: the secrets given (API keys, upstream credentials, the admin
 * token), a Base64 payload we sent, a stack trace. Returns the reasons found (empty: clean).
 */
function leaksIn(text, secrets) {
  if (!text) return [];
  const found = [];
  for (const [name, value] of secrets) if (value && text.includes(value)) found.push(name);
  if (
    /\n\s+at [\w.<>$[\] ]+ \(?[^()\n]*:\d+:\d+\)?/.test(text) ||
    /\\n\s+at [\w.<>$[\] ]+ \(?[^()\n]*:\d+:\d+\)?/.test(text)
  )
    found.push('stack trace');
  if (/(node_modules|dist\/src|src\/\w+\/[\w-]+\.ts)/.test(text)) found.push('source path');
  return found;
}

module.exports = { KINDS, KIND_NAMES, drain, leaksIn };
