'use strict';
/**
 * Fuzzing driven by the OpenAPI document (`GET /docs-json`): every route, with bodies, query
 * strings, path parameters and headers generated from its schemas by fast-check, then broken
 * (wrong types, missing and extra fields, huge and negative numbers, NaN-like strings, deep
 * nesting, long odd Unicode, prototype keys, duplicated query parameters, empty and huge bodies).
 * Property: never a 5xx, never a hang, always the gateway error object with the family's native
 * fields, nothing charged beyond the tasks a fuzz request really created, nothing leaked.
 * Admin routes are fuzzed without the admin token (401), and their GETs with it.
 */
const fc = require('fast-check');
const { KINDS, drain } = require('./tasks');

const BODY_LIMIT = 1024 * 1024;
const BASE64 = Buffer.from(`reliability-base64-payload-${'x'.repeat(120)}`).toString('base64');
const LONG_MARK = 'LONGVALUE';

/**
 * The longest JSON string tail that starts at an echoed long value: from each LONG_MARK to the end of
 * the string it sits in. A capped echo followed by a helpful sentence stays short; a value echoed whole
 * does not.
 */
function longestEcho(text) {
  let longest = 0;
  for (let at = text.indexOf(LONG_MARK); at >= 0; at = text.indexOf(LONG_MARK, at + 1)) {
    let end = at;
    while (end < text.length && !(text[end] === '"' && text[end - 1] !== '\\')) end++;
    longest = Math.max(longest, end - at);
  }
  return longest;
}

/** Bodies of the routes the document does not describe (kl sessions). */
const FALLBACK_BODIES = {
  '/kl/v1/videos/multi-elements/init-selection': { video_url: 'https://example.com/clip.mp4' },
  '/kl/v1/videos/multi-elements/add-selection': { session_id: 'sess_x', frame_index: 0, points: [{ x: 0.5, y: 0.5 }] },
  '/kl/v1/videos/multi-elements/delete-selection': {
    session_id: 'sess_x',
    frame_index: 0,
    points: [{ x: 0.5, y: 0.5 }],
  },
  '/kl/v1/videos/multi-elements/clear-selection': { session_id: 'sess_x' },
  '/kl/v1/videos/multi-elements/preview-selection': { session_id: 'sess_x' },
};

function resolve(doc, schema) {
  let s = schema;
  for (let i = 0; s && s.$ref && i < 10; i++) s = doc.components.schemas[s.$ref.split('/').pop()];
  return s || {};
}

/** A fast-check arbitrary of values fitting a JSON schema (loosely: the point is realistic shapes). */
function arbitraryOf(doc, schema, depth = 0) {
  const s = resolve(doc, schema);
  if (depth > 6) return fc.constant(null);
  const withExample = (arb) => (s.example !== undefined ? fc.oneof(fc.constant(s.example), arb) : arb);
  if (s.oneOf || s.anyOf) return fc.oneof(...(s.oneOf || s.anyOf).map((x) => arbitraryOf(doc, x, depth + 1)));
  if (s.allOf)
    return fc
      .tuple(...s.allOf.map((x) => arbitraryOf(doc, x, depth + 1)))
      .map((parts) => Object.assign({}, ...parts.filter((p) => p && typeof p === 'object')));
  if (s.enum) return fc.constantFrom(...s.enum);
  switch (s.type) {
    case 'string':
      if (s.format === 'uri' || /url/i.test(s.description || ''))
        return fc.constantFrom(
          'https://example.com/a.png',
          'https://example.com/b.mp4',
          'https://example.com/v.mp3',
          'https://hooks.example.com/x',
        );
      if (s.format === 'date-time')
        return fc.date({ min: new Date(2020, 0, 1), max: new Date(2030, 0, 1) }).map((d) => d.toISOString());
      return withExample(fc.string({ minLength: s.minLength || 0, maxLength: Math.min(s.maxLength || 40, 40) }));
    case 'integer':
      return withExample(fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 100000 }));
    case 'number':
      return withExample(fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 100000, noNaN: true }));
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(arbitraryOf(doc, s.items || {}, depth + 1), {
        minLength: Math.min(s.minItems || 0, 3),
        maxLength: Math.min(s.maxItems ?? 3, 3),
      });
    case 'object':
    default: {
      const props = s.properties || {};
      const keys = Object.keys(props);
      if (!keys.length)
        return s.type === 'object'
          ? fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
          : fc.jsonValue({ maxDepth: 2 });
      const record = Object.fromEntries(keys.map((k) => [k, arbitraryOf(doc, props[k], depth + 1)]));
      return withExample(fc.record(record, { requiredKeys: (s.required || []).filter((k) => keys.includes(k)) }));
    }
  }
}

/** Paths to every value inside `value` (including the root, as []). */
function pathsOf(value, prefix = [], out = []) {
  out.push(prefix);
  if (value && typeof value === 'object' && prefix.length < 6)
    for (const k of Object.keys(value)) pathsOf(value[k], [...prefix, k], out);
  return out;
}

function setAt(root, p, fn) {
  if (!p.length) return fn(root);
  const copy = structuredClone(root);
  let node = copy;
  for (const k of p.slice(0, -1)) node = node[k];
  const last = p[p.length - 1];
  const next = fn(node[last]);
  if (next === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = next;
  return copy;
}

const DEEP_TOKEN = '__RELIABILITY_DEEP__';
/** Deep nesting is spliced into the JSON text (a value this deep would overflow JSON.stringify here). */
function deepText(levels) {
  const open = [];
  const close = [];
  for (let i = 0; i < levels; i++) {
    open.push(i % 2 ? '[' : '{"a":');
    close.push(i % 2 ? ']' : '}');
  }
  return `${open.join('')}"bottom"${close.reverse().join('')}`;
}

const ODD = [
  '\u202e',
  '\u200b',
  '\ufeff',
  '\u0000',
  '\ud800',
  '\udfff',
  'e\u0301',
  '𝕏',
  '🧪',
  '\u2028',
  'ﷺ',
  '\u00a0',
  '%00',
  '../../etc/passwd',
  "'; DROP TABLE tasks; --",
  '${7*7}',
  '{{7*7}}',
  '<script>',
];

/** Breakers: each takes (value, random) and returns a broken copy. */
const BREAKERS = {
  wrongType: (v, r) => {
    const ps = pathsOf(v);
    const p = ps[Math.floor(r() * ps.length)];
    const alts = [42, -1, 'text', true, null, [], {}, [1, 2], { x: 1 }, 1.5];
    return setAt(v, p, () => alts[Math.floor(r() * alts.length)]);
  },
  dropField: (v, r) => {
    const ps = pathsOf(v).filter((p) => p.length);
    return ps.length ? setAt(v, ps[Math.floor(r() * ps.length)], () => undefined) : {};
  },
  extraField: (v, r) => {
    const ps = pathsOf(v).filter(
      (p) => p.length === 0 || (typeof getAt(v, p) === 'object' && getAt(v, p) !== null && !Array.isArray(getAt(v, p))),
    );
    const p = ps[Math.floor(r() * ps.length)] || [];
    return setAt(v, p, (node) => ({
      ...(node && typeof node === 'object' ? node : {}),
      zz_unknown_field: r() < 0.5 ? 1 : 'extra',
    }));
  },
  hugeNumber: (v, r) => {
    const nums = [1e308, -1e308, 2 ** 53 + 1, -(2 ** 63), -1, 0, -0, 1e-320, 999999999999, 4294967296];
    const ps = pathsOf(v).filter((p) => typeof getAt(v, p) === 'number');
    const all = ps.length ? ps : pathsOf(v);
    return setAt(v, all[Math.floor(r() * all.length)], () => nums[Math.floor(r() * nums.length)]);
  },
  nanString: (v, r) => {
    const strs = [
      'NaN',
      'Infinity',
      '-Infinity',
      '1e309',
      '0x10',
      ' 5 ',
      '',
      'null',
      'undefined',
      'true',
      '5.0',
      '05',
      '+5',
      '٥',
    ];
    const ps = pathsOf(v);
    return setAt(v, ps[Math.floor(r() * ps.length)], () => strs[Math.floor(r() * strs.length)]);
  },
  deepNesting: (v, r) => {
    const ps = pathsOf(v);
    return setAt(v, ps[Math.floor(r() * ps.length)], () => `${DEEP_TOKEN}${r() < 0.5 ? 200 : 5000}`);
  },
  oddUnicode: (v, r) => {
    const ps = pathsOf(v).filter((p) => p.length);
    const s =
      LONG_MARK + Array.from({ length: r() < 0.5 ? 200 : 3000 }, () => ODD[Math.floor(r() * ODD.length)]).join('');
    return ps.length ? setAt(v, ps[Math.floor(r() * ps.length)], () => s) : s;
  },
  longModel: (v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? { ...v, model: LONG_MARK + 'm'.repeat(20000), model_name: LONG_MARK + 'k'.repeat(5000) }
      : v,
  base64: (v, r) => {
    const ps = pathsOf(v).filter((p) => typeof getAt(v, p) === 'string');
    const all = ps.length ? ps : pathsOf(v).filter((p) => p.length);
    return all.length
      ? setAt(v, all[Math.floor(r() * all.length)], () => (r() < 0.5 ? BASE64 : `data:image/png;base64,${BASE64}`))
      : v;
  },
  nullify: (v, r) => {
    const ps = pathsOf(v);
    return setAt(v, ps[Math.floor(r() * ps.length)], () => null);
  },
};
const BREAKER_NAMES = Object.keys(BREAKERS);

function getAt(root, p) {
  let node = root;
  for (const k of p) node = node == null ? undefined : node[k];
  return node;
}

/** Serialises with prototype keys as real own keys (JSON.stringify would drop a `__proto__` set by assignment). */
function withProtoKeys(text, r) {
  const inject = [
    '"__proto__":{"isAdmin":true,"balance":1,"toString":1}',
    '"constructor":{"prototype":{"polluted":1}}',
    '"prototype":{"x":1}',
    '"hasOwnProperty":1',
  ];
  const pick = inject[Math.floor(r() * inject.length)];
  if (text.startsWith('{') && text.length > 2) return `{${pick},${text.slice(1)}`;
  if (text === '{}') return `{${pick}}`;
  return text;
}

/** Raw bodies that are broken as text, not as JSON values. */
const RAW_BODIES = [
  '',
  'null',
  '[]',
  '"text"',
  '123',
  '{',
  '{"a":',
  'true',
  '\u0000',
  '{"model":"a","model":"b"}',
  '\ufeff{}',
  '[{"__proto__":{"x":1}}]',
];

function queryStringFor(doc, op, r) {
  const parts = [];
  for (const param of (op.parameters || []).filter((p) => p.in === 'query')) {
    const s = resolve(doc, param.schema || {});
    const good = s.type === 'integer' ? String(1 + Math.floor(r() * 20)) : s.enum ? s.enum[0] : 'x';
    const bad = [
      '-1',
      '0',
      'NaN',
      '1e309',
      '99999999999999999999',
      '',
      '%00',
      encodeURIComponent('🧪'.repeat(50)),
      'true',
      '[]',
      '1.5',
      encodeURIComponent("' OR 1=1 --"),
    ];
    const value = r() < 0.5 ? good : bad[Math.floor(r() * bad.length)];
    const name = encodeURIComponent(param.name);
    parts.push(`${name}=${value}`);
    if (r() < 0.3) parts.push(`${name}=${bad[Math.floor(r() * bad.length)]}`); // duplicated
    if (param.name === 'filter.task_ids' && r() < 0.2) for (let i = 0; i < 150; i++) parts.push(`${name}=task_${i}`);
  }
  if (r() < 0.15) parts.push('__proto__[polluted]=1', 'constructor[prototype][x]=1');
  if (r() < 0.1) parts.push(`zz_unknown=${'q'.repeat(2000)}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

function pathParamValue(r, ownIds) {
  const values = [
    'x',
    '0',
    '-1',
    'task_',
    'task_00000000000000000000000000',
    '%00',
    '..%2F..%2Fadmin',
    encodeURIComponent('🧪\u202e'),
    'a'.repeat(3000),
    'NaN',
    '%E0%A4%A',
    'null',
    encodeURIComponent("1' OR '1'='1"),
    ...ownIds,
  ];
  return values[Math.floor(r() * values.length)];
}

const HEADER_VARIANTS = [
  (h) => ({ ...h, authorization: undefined }),
  (h) => ({ ...h, authorization: 'Bearer ' }),
  (h) => ({ ...h, authorization: `Bearer ${'z'.repeat(4000)}` }),
  (h) => ({ ...h, authorization: 'Basic dXNlcjpwYXNz' }),
  (h) => ({ ...h, authorization: 'Bearer vgw_\u00e9\u00e9' }),
  (h) => ({ ...h, authorization: [h.authorization, 'Bearer other'] }),
  (h) => ({ ...h, 'content-type': undefined }),
  (h) => ({ ...h, 'content-type': 'text/plain' }),
  (h) => ({ ...h, 'content-type': 'application/json; charset=utf-16' }),
  (h) => ({ ...h, 'content-type': 'multipart/form-data; boundary=x' }),
  (h) => ({ ...h, 'idempotency-key': 'k'.repeat(300) }),
  (h) => ({ ...h, 'idempotency-key': '' }),
  (h) => ({ ...h, 'idempotency-key': ['a', 'b'] }),
  (h) => ({ ...h, 'content-encoding': 'gzip' }),
  (h) => ({ ...h, accept: 'text/csv' }),
  (h) => ({ ...h, 'x-request-id': 'r'.repeat(5000) }),
];

async function run(ctx) {
  const { lib, report } = ctx;
  const total = ctx.short ? 500 : 5000;
  const { gw, admin, acct } = await ctx.gatewayWithAccount('fuzz', { BODY_LIMIT_BYTES: String(BODY_LIMIT) });
  ctx.secret('base64 payload', BASE64);
  const auth = `Bearer ${acct.key}`;
  const docRes = await lib.request('GET', `${gw.url}/docs-json`);
  if (docRes.status !== 200 || !docRes.json || !docRes.json.paths)
    throw new Error(`GET /docs-json -> ${docRes.status}`);
  const doc = docRes.json;

  // A few real tasks of the fuzz account, so path parameters sometimes name something that exists.
  const ownTasks = [];
  for (const kind of Object.keys(KINDS)) {
    const res = await lib.request('POST', `${gw.url}${KINDS[kind].path}`, {
      headers: { authorization: auth },
      body: KINDS[kind].body('fuzz-seed'),
    });
    const id = KINDS[kind].idOf(res.json);
    if (id) ownTasks.push({ id, kind });
  }
  const before = await admin.get(`/admin/v1/accounts/${acct.id}`);
  const ownIds = [...ownTasks.map((t) => t.id), acct.id];

  const ops = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const schema =
        op.requestBody &&
        op.requestBody.content &&
        op.requestBody.content['application/json'] &&
        op.requestBody.content['application/json'].schema;
      const fallback = FALLBACK_BODIES[template];
      const arb = schema ? arbitraryOf(doc, schema) : fallback ? fc.constant(fallback) : null;
      ops.push({ template, method: method.toUpperCase(), op, arb, admin: template.startsWith('/admin/') });
    }
  }
  const samples = new Map(
    ops
      .filter((o) => o.arb)
      .map((o) => [o, fc.sample(o.arb, { numRuns: Math.ceil(total / ops.length) + 5, seed: ctx.seed })]),
  );
  const random = lib.rng(ctx.seed + 3);
  const created = []; // tasks a fuzz request really created (2xx on a create route)
  const deleted = new Set(); // own tasks a fuzz DELETE really deleted (2xx): gone by the client's own hand
  const perRoute = new Map();

  const cases = Array.from({ length: total }, (_, i) => i);
  await lib.pool(cases, 6, async (i) => {
    const o = ops[i % ops.length];
    const r = lib.rng(ctx.seed * 7919 + i);
    const path = o.template.replace(/\{[^}]+\}/g, () => (r() < 0.85 ? pathParamValue(r, ownIds) : 'x'));
    let headers = {
      authorization: o.admin ? (r() < 0.5 ? undefined : `Bearer ${r() < 0.5 ? lib.ADMIN_TOKEN : acct.key}`) : auth,
    };
    // The admin token only for reads: fuzzing admin writes with it would move money on purpose.
    if (o.admin && o.method !== 'GET' && headers.authorization === `Bearer ${lib.ADMIN_TOKEN}`)
      headers.authorization = `Bearer ${acct.key}`;
    let body;
    let query = '';
    const mode = r();
    if (o.arb && mode < 0.7) {
      const list = samples.get(o);
      let value = list[Math.floor(r() * list.length)];
      const n = 1 + Math.floor(r() * 3);
      const used = [];
      for (let k = 0; k < n; k++) {
        const name = BREAKER_NAMES[Math.floor(r() * BREAKER_NAMES.length)];
        used.push(name);
        value = BREAKERS[name](value, r);
      }
      body = JSON.stringify(value === undefined ? {} : value).replace(
        new RegExp(`"${DEEP_TOKEN}(\\d+)"`, 'g'),
        (_, n) => deepText(Number(n)),
      );
      if (r() < 0.15) body = withProtoKeys(body, r);
    } else if (o.method !== 'GET' && mode < 0.8) {
      body =
        r() < 0.15 ? `{"pad":"${'p'.repeat(BODY_LIMIT + 1000)}"}` : RAW_BODIES[Math.floor(r() * RAW_BODIES.length)];
    } else if (mode < 0.9) {
      headers = HEADER_VARIANTS[Math.floor(r() * HEADER_VARIANTS.length)](headers);
      if (o.arb) body = JSON.stringify(samples.get(o)[0]);
    } else {
      query = queryStringFor(doc, o.op, r);
    }
    if (!query && r() < 0.3) query = queryStringFor(doc, o.op, r);
    if (body !== undefined && headers['content-type'] === undefined && !('content-type' in headers))
      headers['content-type'] = 'application/json';
    for (const k of Object.keys(headers)) if (headers[k] === undefined) delete headers[k];
    if (o.arb && body === undefined && o.method !== 'GET') body = '';
    const res = await lib.request(o.method, `${gw.url}${path}${query}`, {
      headers,
      body,
      timeoutMs: 10_000,
      noAgent: true,
    });
    report.casesFuzzed++;
    perRoute.set(`${o.method} ${o.template}`, (perRoute.get(`${o.method} ${o.template}`) || 0) + 1);
    const pathname = path.split('?')[0];
    // Node's own HTTP parser answers 431 (headers too large) before the gateway sees the request.
    ctx.observe('fuzz', res, { path: pathname, skipShape: res.status === 431 || res.status === 0 });
    if (res.status === 0 && !res.timedOut) {
      report.fiveXx++;
      ctx.example('connection dropped', `${o.method} ${o.template}: ${res.error}`);
    }
    if (res.text && res.status >= 400) {
      const echoed = longestEcho(res.text);
      if (echoed > 600) {
        report.uncappedEchoes++;
        ctx.example('uncapped echo', `${o.method} ${o.template}: ${echoed} chars of one string from the long value on`);
      }
    }
    if (res.status >= 200 && res.status < 300 && o.method === 'DELETE') {
      for (const id of ownIds) if (pathname.includes(id)) deleted.add(id);
    }
    if (res.status >= 200 && res.status < 300 && o.method === 'POST') {
      const kind = Object.keys(KINDS).find(
        (k) => KINDS[k].path === o.template && (k !== 'ax-old' || /reference_urls/.test(body || '')),
      );
      const id = kind && KINDS[kind].idOf(res.json);
      if (id) created.push({ id, kind });
      else if (kind) ctx.example('fuzz 2xx without task', `${o.template}: ${(res.text || '').slice(0, 120)}`);
    }
  });
  lib.log(
    `fuzz: ${report.casesFuzzed} cases over ${perRoute.size} routes; ${created.length} broken-looking requests were still valid creates`,
  );

  // Nothing charged: after the tasks fuzz input really created have ended, the account moved
  // exactly their charges, no more.
  const kept = [...created, ...ownTasks].filter((t) => !deleted.has(t.id));
  const ended = await drain(lib, gw.url, acct.key, kept, 40_000);
  // A deleted task is over for its client: it must answer 404 from its own query from then on.
  for (const task of ownTasks.filter((t) => deleted.has(t.id))) {
    const res = await lib.request('GET', `${gw.url}${KINDS[task.kind].query(task.id)}`, {
      headers: { authorization: auth },
    });
    if (res.status === 404) ended.ended++;
    else {
      ended.open++;
      ctx.example('deleted task still readable', `${task.kind} ${task.id}: ${res.status}`);
    }
  }
  const final = await ctx.settled(admin, [acct.id], null, 30_000);
  const after = await admin.get(`/admin/v1/accounts/${acct.id}`);
  const rows = await lib.usageRows(admin, acct.id);
  const fuzzIds = new Set(created.map((t) => t.id));
  const legit = rows.filter((row) => fuzzIds.has(row.task_id)).reduce((s, row) => s + Number(row.amount), 0);
  const seedIds = new Set(ownTasks.map((t) => t.id));
  const seedCharges = rows.filter((row) => seedIds.has(row.task_id)).reduce((s, row) => s + Number(row.amount), 0);
  const moved =
    Number(before.balance) + Number(before.held) - (Number(after.balance) + Number(after.held)) - legit - seedCharges;
  report.fuzzCharged += Math.abs(moved);
  report.tasksCreated += created.length + ownTasks.length;
  report.tasksEnded += ended.ended;
  report.tasksLost += ended.missing + ended.open;
  ctx.account(final, 'fuzz');
  ctx.detail('fuzz', { cases: report.casesFuzzed, routes: perRoute.size, validCreates: created.length, moved });
  await gw.stop();
}

module.exports = { name: 'fuzz', run };
