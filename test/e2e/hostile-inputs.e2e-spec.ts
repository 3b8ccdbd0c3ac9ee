import { ADMIN_TOKEN, TestAccount } from '../support/gateway-harness';
import { SimulatedGateway, bearer, createAxTask, startSimulatedGateway } from '../support/simulated-gateway';

/**
 * Nothing a client or an operator can send is answered with a 5xx. Every operation of the served
 * OpenAPI document is called with a valid body whose fields (at every depth) are set in turn to
 * each hostile value below, with odd bodies, odd query parameters and odd path IDs. Afterwards
 * every read still answers and the ledger still balances: nothing refused was stored half-way.
 *
 * 503 `service_unavailable` is allowed: it is the gateway's declared answer when no channel can
 * take a task, which a mutated channel weight may cause.
 */
type Json = unknown;
type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  example?: Json;
  default?: Json;
  enum?: Json[];
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  minimum?: number;
  format?: string;
  /** Of a parameter. */
  in?: string;
  name?: string;
};
type Operation = {
  parameters?: Schema[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};
type Doc = { paths: Record<string, Record<string, Operation>>; components: unknown };

const HOSTILE_VALUES: Json[] = [
  null,
  -1,
  0,
  1.5,
  1e308,
  2 ** 53,
  '',
  'x'.repeat(10_000),
  '\ud800',
  '😀',
  true,
  [],
  [null],
  {},
  JSON.parse('{"constructor":{"prototype":{"x":1}}}'),
  JSON.parse('{"__proto__":{"x":1}}'),
  'file:///etc/passwd',
  'http://127.0.0.1:1/a.png',
  'data:image/png;base64,AAAA',
  '1e999',
  ' 5 ',
  Array.from({ length: 1000 }, () => 'a'),
];
const HOSTILE_BODIES = ['null', '[]', '7', '"x"', 'true', '{"a":', '{"__proto__":{"x":1}}', '{"constructor":1}'];
const HOSTILE_QUERY = ['-1', 'abc', '1e99', '', '%00', '99999999999999999999', 'a'.repeat(3000), '2026-13-45', '%ZZ'];
const ODD_IDS = ['x', '%00', '%E2%82', 'a'.repeat(3000), '..%2F..', '%F0%9F%98%80', '-1', '%ZZ'];
/** Thousands of requests one after another: room for a slow CI worker. */
const REQUESTS_TIMEOUT_MS = 300_000;

describe('hostile inputs on every operation', () => {
  let gw: SimulatedGateway;
  let caller: TestAccount;
  let doc: Doc;
  /** A real ID for each path whose operations act on one; the caller's own account is never the target. */
  let realIds: Array<[RegExp, string]>;
  let sessionId: string;
  let priceTable: Json;

  beforeAll(async () => {
    gw = await startSimulatedGateway();
    doc = (await gw.http().get('/docs-json').expect(200)).body;
    const models = (await gw.admin.get('/admin/v1/models').expect(200)).body.data.map((m: { name: string }) => m.name);
    caller = await gw.admin.account({ models });
    const victim = await gw.admin.account({ models: ['vdq3'] });
    const spareKey = await gw.admin.post(`/admin/v1/accounts/${victim.id}/keys`, { name: 'spare' }).expect(201);
    const operator = await gw.admin.post('/admin/v1/operators', { name: 'victim', role: 'viewer' }).expect(201);
    const channel = (await gw.admin.get('/admin/v1/channels').expect(200)).body.data[0].id;
    const axTaskId = await createAxTask(gw, caller);
    const vd = await gw
      .http()
      .post('/vd/ent/v2/reference2video')
      .set(...bearer(caller))
      .send({ model: 'vdq3', images: ['https://example.com/a.png'], prompt: 'a cat' })
      .expect(200);
    const session = await gw
      .http()
      .post('/kl/v1/videos/multi-elements/init-selection')
      .set(...bearer(caller))
      .send({ video_url: 'https://example.com/clip.mp4' })
      .expect(200);
    sessionId = session.body.data.session_id;
    priceTable = (await gw.admin.get('/admin/v1/prices').expect(200)).body;
    realIds = [
      [/^\/admin\/v1\/accounts\//, victim.id],
      [/^\/admin\/v1\/keys\//, spareKey.body.id],
      [/^\/admin\/v1\/operators\//, operator.body.id],
      [/^\/admin\/v1\/channels\//, channel],
      [/^\/ax\//, axTaskId],
      [/^\/(vd|v1|gateway|admin\/v1\/tasks)\//, vd.body.task_id],
    ];
  });
  afterAll(() => gw.close());

  const resolve = (schema: Schema | undefined): Schema => {
    let s = schema ?? {};
    while (s.$ref)
      s = s.$ref
        .split('/')
        .slice(1)
        .reduce((node: any, key) => node[key], doc) as Schema;
    return s;
  };

  /** A value of the schema: its example where it has one, else the simplest valid-looking value. */
  const sample = (schema: Schema | undefined, depth = 0): Json => {
    const s = resolve(schema);
    if (s.example !== undefined) return s.example;
    if (s.default !== undefined) return s.default;
    if (s.enum) return s.enum[0];
    if (s.allOf) return Object.assign({}, ...s.allOf.map((part) => sample(part, depth + 1)));
    if (s.oneOf || s.anyOf) return sample((s.oneOf ?? s.anyOf ?? [])[0], depth + 1);
    if (s.type === 'object' || s.properties) {
      const out: Record<string, Json> = {};
      if (depth < 4) for (const [k, v] of Object.entries(s.properties ?? {})) out[k] = sample(v, depth + 1);
      return out;
    }
    if (s.type === 'array') return depth < 4 ? [sample(s.items, depth + 1)] : [];
    if (s.type === 'integer' || s.type === 'number') return s.minimum ?? 1;
    if (s.type === 'boolean') return true;
    return s.format === 'uri' ? 'https://example.com/a.png' : 'x';
  };

  /**
   * The body an operation is fuzzed from: the document's example, made valid where it needs live
   * IDs or is not valid as it stands.
   */
  const baseBody = (method: string, path: string, schema: Schema): Json => {
    const body = sample(schema) as Record<string, Json>;
    if (path.startsWith('/kl/v1/videos/multi-elements')) {
      if (path.endsWith('/init-selection')) delete body.video_id;
      else body.session_id = sessionId;
    }
    if (path === '/kl/v1/general/custom-voices') delete body.video_id;
    if (method === 'patch' && path === '/admin/v1/accounts/{id}') return { name: 'victim', rate_limit_rpm: 100 };
    if (path === '/admin/v1/prices') return priceTable;
    return body;
  };

  const pathFor = (template: string, id?: string): string => {
    const real = realIds.find(([prefix]) => prefix.test(template))?.[1] ?? 'x';
    return template.replace(/\{[^}]+\}/g, id ?? real);
  };

  /** Sends one request; the line describing it when it was answered with a 5xx, else null. */
  const call = async (
    method: string,
    template: string,
    url: string,
    body?: string,
    what = body?.slice(0, 200) ?? '',
  ): Promise<string | null> => {
    const auth = template.startsWith('/admin') ? `Bearer ${ADMIN_TOKEN}` : `Bearer ${caller.key}`;
    let req = (gw.http() as any)[method](url).set('Authorization', auth);
    if (body !== undefined) req = req.set('Content-Type', 'application/json').send(body);
    const res = await req;
    const allowed = res.status === 503 && res.body?.error?.code === 'service_unavailable';
    if (res.status < 500 || allowed) return null;
    return `${method.toUpperCase()} ${url.slice(0, 120)} ${what} -> ${res.status}`;
  };

  /** Every path into a JSON value, the value itself first. */
  const fieldPaths = (value: Json, prefix: string[] = []): string[][] => {
    const out = [prefix];
    if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) out.push(...fieldPaths((value as any)[key], [...prefix, key]));
    }
    return out;
  };
  const withField = (value: Json, path: string[], replacement: Json): Json => {
    if (path.length === 0) return replacement;
    const copy = JSON.parse(JSON.stringify(value));
    const parent = path.slice(0, -1).reduce((node: any, key) => node[key], copy);
    parent[path[path.length - 1]] = replacement;
    return copy;
  };

  const operations = (): Array<[string, string, Operation]> =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => [method, path, op] as [string, string, Operation]),
    );

  it(
    'answers every mutated body, query and path without a 5xx',
    async () => {
      const failures: string[] = [];
      let requests = 0;
      const send = async (...args: Parameters<typeof call>) => {
        const failure = await call(...args);
        if (failure) failures.push(failure);
        requests++;
      };
      for (const [method, template, op] of operations()) {
        const hasBody = method !== 'get' && method !== 'delete';
        if (template.includes('{')) {
          for (const id of ODD_IDS) {
            await send(method, template, pathFor(template, id), hasBody ? '{}' : undefined);
          }
        }
        const url = pathFor(template);
        for (const param of (op.parameters ?? []).map(resolve).filter((p) => p.in === 'query')) {
          for (const value of [...HOSTILE_QUERY, `1&${param.name}=2`, `x&constructor=1`]) {
            await send(method, template, `${url}?${param.name}=${value}`);
          }
        }
        const schema = op.requestBody?.content?.['application/json']?.schema;
        if (!schema) continue;
        for (const raw of HOSTILE_BODIES) {
          await send(method, template, url, raw);
        }
        const base = baseBody(method, template, schema);
        for (const field of fieldPaths(base)) {
          for (const value of HOSTILE_VALUES) {
            const what = `${field.join('.') || 'the body'} = ${JSON.stringify(value).slice(0, 40)}`;
            await send(method, template, url, JSON.stringify(withField(base, field, value)), what);
          }
        }
      }
      expect(failures).toEqual([]);
      expect(requests).toBeGreaterThan(3000);
    },
    REQUESTS_TIMEOUT_MS,
  );

  it('refuses an unknown query parameter on every admin operation, naming it', async () => {
    const ignored: string[] = [];
    for (const [method, template] of operations().filter(([, path]) => path.startsWith('/admin/'))) {
      const hasBody = method !== 'get' && method !== 'delete';
      let req = (gw.http() as any)
        [method](`${pathFor(template)}?zz_unknown=1`)
        .set('Authorization', `Bearer ${ADMIN_TOKEN}`);
      if (hasBody) req = req.send({});
      const res = await req;
      if (res.status !== 400 || res.body.error?.param !== 'zz_unknown')
        ignored.push(`${method.toUpperCase()} ${template} -> ${res.status} ${res.body.error?.param ?? ''}`);
    }
    expect(ignored).toEqual([]);
    // The credential is still checked first.
    await gw.http().get('/admin/v1/prices?zz_unknown=1').set('Authorization', 'Bearer wrong').expect(401);
  });

  it('still answers every read afterwards, and the ledger balances', async () => {
    const failures: string[] = [];
    for (const [method, template] of operations()) {
      const failure = method === 'get' ? await call(method, template, pathFor(template)) : null;
      if (failure) failures.push(failure);
    }
    expect(failures).toEqual([]);
    expect((await gw.admin.get('/admin/v1/ledger/verify').expect(200)).body).toMatchObject({ ok: true });
  });
});
