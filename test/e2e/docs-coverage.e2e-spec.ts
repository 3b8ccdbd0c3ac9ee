import { FAMILY_REGISTRY } from '../support/families';
import { ADMIN_TOKEN, Harness, TestAccount, startGateway } from '../support/gateway-harness';

/**
 * `/docs-json` covers the API: every route the gateway serves (but the few below that are not a
 * client's), each with its success answer and its error answers described, every body documented,
 * and the documented error answers shaped as the gateway really answers on that route family.
 */

type Schema = Record<string, unknown>;
type Media = { schema?: Schema; examples?: Record<string, { value: unknown }> };
type Response = { content?: Record<string, Media> };
type Operation = { responses: Record<string, Response>; requestBody?: { content?: Record<string, Media> } };
type OpenApi = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

/** Routes served but not documented, and why. */
const UNDOCUMENTED: Record<string, string> = {
  'POST /callbacks/upstream/{token}': "the upstreams' task events, not a client API",
  'GET /console': "the operators' console page",
  'GET /console/vendor/{file}': "the console's scripts",
  'GET /console/{file}': "the console's assets",
  'GET /console/sso/status': 'whether the console offers single sign-on',
  'GET /console/sso/login': "the console's single sign-on: a browser redirect to the issuer",
  'GET /console/sso/callback': "the issuer's redirect back to the console",
  'POST /console/sso/logout': "the console's sign-out of a single sign-on session",
  'GET /metrics': 'the Prometheus scrape, plain text',
};

/** The vendor's routes that no family here serves: documented as the 400 they answer, with no success. */
const NOT_OFFERED = [
  'POST /v1/videos/{video_id}/remix',
  'POST /v1/videos/edits',
  'POST /v1/videos/extensions',
  'POST /v1/videos/characters',
  'GET /v1/videos/characters',
  'GET /v1/videos/characters/{character_id}',
];

/** Actions whose path names everything: they read no body (`@NoBody()`), so none is documented nor refused. */
const TAKES_NO_BODY = ['POST /gateway/v1/tasks/{task_id}/cancel', 'POST /admin/v1/tasks/{taskId}/cancel'];

/** Probes take neither input nor a key: they have no client error to give. */
const NO_CLIENT_ERROR = ['GET /healthz', 'GET /readyz'];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('/docs-json covers the API', () => {
  let gw: Harness;
  let caller: TestAccount;
  let doc: OpenApi;

  beforeAll(async () => {
    gw = await startGateway();
    caller = await gw.admin.account({ models: FAMILY_REGISTRY.all().map((m) => m.name) });
    doc = (await gw.http().get('/docs-json').expect(200)).body as OpenApi;
  });
  afterAll(() => gw.close());

  /** Every documented operation as `METHOD /path`. */
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })),
    );

  /** Every route the Express app serves, as `METHOD /path` with `{param}`s. */
  const servedRoutes = (): string[] => {
    const stack = (
      gw.app.getHttpAdapter().getInstance() as {
        router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
      }
    ).router.stack;
    return stack.flatMap((layer) =>
      layer.route && !layer.route.path.startsWith('/docs')
        ? Object.keys(layer.route.methods)
            .filter((method) => METHODS.includes(method))
            .map((method) => `${method.toUpperCase()} ${layer.route!.path.replace(/:(\w+)/g, '{$1}')}`)
        : [],
    );
  };

  /** Whether `value` fits `schema`: the fields it requires, none it does not name, each of its type. */
  const conforms = (value: unknown, schema: Schema): boolean => {
    if (typeof schema.$ref === 'string') return conforms(value, doc.components.schemas[schema.$ref.split('/').pop()!]);
    if (value === null) return schema.nullable === true;
    const properties = schema.properties as Record<string, Schema> | undefined;
    switch (schema.type) {
      case 'integer':
        return Number.isInteger(value);
      case 'number':
      case 'string':
      case 'boolean':
        return typeof value === schema.type;
      case 'object': {
        if (typeof value !== 'object' || Array.isArray(value)) return false;
        if (!properties) return true;
        const fields = value as Record<string, unknown>;
        return (
          ((schema.required as string[] | undefined) ?? []).every((key) => key in fields) &&
          Object.entries(fields).every(([key, v]) => key in properties && conforms(v, properties[key]))
        );
      }
      default:
        return properties ? conforms(value, { ...schema, type: 'object' }) : true;
    }
  };

  const jsonErrors = (op: Operation) =>
    Object.entries(op.responses).filter(([status, r]) => /^[45]\d\d$/.test(status) && r.content?.['application/json']);

  it('documents every route the gateway serves, and only those', () => {
    const served = servedRoutes();
    const documented = operations().map((o) => o.route);
    expect(served.filter((r) => !(r in UNDOCUMENTED) && !documented.includes(r))).toEqual([]);
    expect(documented.filter((r) => !served.includes(r))).toEqual([]);
    for (const route of Object.keys(UNDOCUMENTED)) expect(served).toContain(route);
  });

  it('documents the whole numbers of the admin bodies as integers, as the routes check them', () => {
    const integers: Record<string, string[]> = {
      CreateAccountDto: ['balance', 'rate_limit_rpm', 'max_concurrent_tasks'],
      UpdateAccountDto: ['rate_limit_rpm', 'max_concurrent_tasks'],
      BalanceAdjustmentDto: ['delta'],
      UpdateChannelDto: ['weight', 'priority'],
    };
    const typed = Object.entries(integers).flatMap(([name, fields]) =>
      fields.map(
        (field) =>
          `${name}.${field}: ${(doc.components.schemas[name].properties as Record<string, Schema>)[field].type}`,
      ),
    );
    expect(typed.filter((line) => !line.endsWith(': integer'))).toEqual([]);
  });

  it('every operation has a success answer with a schema', () => {
    const missing = operations()
      .filter(({ route }) => !NOT_OFFERED.includes(route))
      .filter(({ op }) =>
        Object.entries(op.responses).every(
          ([status, r]) => !/^2\d\d$/.test(status) || !Object.values(r.content ?? {}).some((m) => m.schema),
        ),
      )
      .map((o) => o.route);
    expect(missing).toEqual([]);
  });

  it('every operation documents its client errors, each with a schema and an example', () => {
    const missing = operations()
      .filter(({ route }) => !NO_CLIENT_ERROR.includes(route))
      .filter(({ op }) => !jsonErrors(op).some(([status]) => status.startsWith('4')))
      .map((o) => o.route);
    expect(missing).toEqual([]);
    const bare = operations().flatMap(({ route, op }) =>
      jsonErrors(op)
        .filter(([, r]) => {
          const media = r.content!['application/json'];
          return !media.schema || Object.keys(media.examples ?? {}).length === 0;
        })
        .map(([status]) => `${route} ${status}`),
    );
    expect(bare).toEqual([]);
    // Each example is an instance of its schema.
    const unfit = operations().flatMap(({ route, op }) =>
      jsonErrors(op).flatMap(([status, r]) => {
        const media = r.content!['application/json'];
        return Object.entries(media.examples ?? {})
          .filter(([, example]) => !conforms(example.value, media.schema!))
          .map(([name]) => `${route} ${status} ${name}`);
      }),
    );
    expect(unfit).toEqual([]);
    // Readiness says when a dependency is down.
    expect(doc.paths['/readyz'].get.responses['503']?.content?.['application/json']?.schema).toBeDefined();
  });

  it('documents the routes that are not offered as the errors they answer, and no success', async () => {
    for (const route of NOT_OFFERED) {
      const [method, path] = route.split(' ');
      const op = doc.paths[path][method.toLowerCase()];
      expect(Object.keys(op.responses).filter((s) => s.startsWith('2'))).toEqual([]);
      expect(op.responses['400']).toBeDefined();
      const real = await gw
        .http()
        [method.toLowerCase() as 'get' | 'post'](path.replace(/\{\w+\}/, 'x'))
        .set('Authorization', `Bearer ${caller.key}`)
        .send(method === 'POST' ? {} : undefined);
      expect({ route, status: real.status, offered: !/is not offered/.test(real.body.error?.message) }).toEqual({
        route,
        status: 400,
        offered: false,
      });
    }
  });

  it('documents the body of every route that takes one', () => {
    const takesBody = (route: string) =>
      /^(POST|PUT|PATCH) /.test(route) && !NOT_OFFERED.includes(route) && !TAKES_NO_BODY.includes(route);
    const bodyless = operations()
      .filter(({ route }) => takesBody(route))
      .filter(({ op }) => !op.requestBody?.content?.['application/json']?.schema)
      .map((o) => o.route);
    expect(bodyless).toEqual([]);
    // The JSON reader's own answers: a body that is not JSON (400) or is too large (413).
    const unreadable = operations()
      .filter(({ route }) => takesBody(route))
      .filter(({ op }) => !op.responses['400'] || !op.responses['413'])
      .map((o) => o.route);
    expect(unreadable).toEqual([]);
  });

  /**
   * One wrong request per route family; the answer must have the shape (keys and value types) of the
   * example documented for that status and error code on that route, with the same codes and words.
   */
  describe('documented error answers match real ones, per family dialect', () => {
    type Probe = {
      dialect: string;
      method: 'get' | 'post';
      documented: string;
      path: string;
      auth: 'none' | 'key' | 'admin';
      body?: string | object;
      query?: string;
      status: number;
    };
    const PROBES: Probe[] = [
      { dialect: 'kl', method: 'post', documented: '/kl/v1/general/custom-voices', auth: 'none', status: 401 },
      {
        dialect: 'kl',
        method: 'post',
        documented: '/kl/v1/videos/multi-elements/init-selection',
        auth: 'key',
        body: '{"model": ',
        status: 400,
      },
      { dialect: 'kl', method: 'get', documented: '/kl/v1/videos/multi-elements/{id}', auth: 'key', status: 404 },
      {
        dialect: 'kl',
        method: 'get',
        documented: '/kl/v1/videos/multi-elements',
        query: '?pageSize=0',
        auth: 'key',
        status: 400,
      },
      {
        dialect: 'ax',
        method: 'post',
        documented: '/ax/api/v1/services/aigc/video-generation/video-synthesis',
        auth: 'key',
        body: { model: 'wx2.7-r2v-x', input: { prompt: 'a cat' } },
        status: 404,
      },
      { dialect: 'ax', method: 'get', documented: '/ax/api/v1/tasks/{task_id}', auth: 'none', status: 401 },
      {
        dialect: 'vd',
        method: 'post',
        documented: '/vd/ent/v2/reference2video',
        auth: 'key',
        body: '{"model": ',
        status: 400,
      },
      { dialect: 'vd', method: 'get', documented: '/vd/ent/v2/tasks/{id}/creations', auth: 'key', status: 404 },
      {
        dialect: 'openai',
        method: 'post',
        documented: '/v1/videos',
        auth: 'key',
        body: { model: 'wx2.7-r2v-x', prompt: 'a cat' },
        status: 404,
      },
      { dialect: 'openai', method: 'get', documented: '/v1/videos/{video_id}', auth: 'key', status: 404 },
      { dialect: 'openai', method: 'get', documented: '/v1/videos', auth: 'none', status: 401 },
      { dialect: 'openai', method: 'get', documented: '/v1/videos', query: '?limit=0', auth: 'key', status: 400 },
      { dialect: 'gateway', method: 'get', documented: '/gateway/v1/me', auth: 'none', status: 401 },
      { dialect: 'admin', method: 'get', documented: '/admin/v1/accounts/{id}', auth: 'admin', status: 404 },
      { dialect: 'admin', method: 'post', documented: '/admin/v1/accounts', auth: 'none', body: {}, status: 401 },
      {
        dialect: 'admin',
        method: 'post',
        documented: '/admin/v1/accounts',
        auth: 'admin',
        body: { nmae: 'x' },
        status: 400,
      },
      { dialect: 'results', method: 'get', documented: '/results/{token}', auth: 'none', status: 403 },
    ].map((p) => ({ ...p, path: p.documented.replace(/\{\w+\}/, 'tsk_missing0001') + (p.query ?? '') }) as Probe);

    /** Keys and value types, recursively; `error.param` is a string or null either way. */
    const shape = (value: unknown, at = ''): unknown => {
      if (at === 'error.param') return 'string|null';
      if (value === null) return 'null';
      if (Array.isArray(value)) return value.map((v) => shape(v, at));
      if (typeof value === 'object')
        return Object.fromEntries(
          Object.entries(value as Record<string, unknown>)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, v]) => [k, shape(v, at ? `${at}.${k}` : k)]),
        );
      return typeof value;
    };
    /** The codes an answer carries (the gateway's and the family's native ones). */
    const codes = (body: Record<string, unknown>) => {
      const error = body.error as Record<string, unknown>;
      return { native: body.code, reason: body.reason, type: error.type, code: error.code };
    };

    it.each(PROBES)('$dialect: $method $documented answers $status as documented', async (probe) => {
      let req = gw.http()[probe.method](probe.path);
      if (probe.auth !== 'none')
        req = req.set('Authorization', `Bearer ${probe.auth === 'key' ? caller.key : ADMIN_TOKEN}`);
      if (typeof probe.body === 'string') req = req.set('Content-Type', 'application/json').send(probe.body);
      else if (probe.body) req = req.send(probe.body);
      const real = await req;
      expect(real.status).toBe(probe.status);
      const documented = doc.paths[probe.documented][probe.method].responses[String(probe.status)];
      const examples = Object.values(documented?.content?.['application/json']?.examples ?? {}).map(
        (e) => e.value as Record<string, unknown>,
      );
      // Of the examples with the answer's code (a status may document several causes), the probe's own.
      const sameCode = examples.filter(
        (e) => (e.error as { code: string }).code === (real.body as { error: { code: string } }).error.code,
      );
      const example =
        sameCode.find((e) => (e.error as { message: string }).message === real.body.error.message) ?? sameCode[0];
      expect(example).toBeDefined();
      expect(shape(real.body)).toEqual(shape(example));
      expect(codes(real.body)).toEqual(codes(example!));
      // Each probe is the very case its example shows: the words match too.
      const message = (body: Record<string, unknown>) => (body.error as { message: string }).message;
      expect(message(real.body)).toBe(message(example!));
    });
  });
});
