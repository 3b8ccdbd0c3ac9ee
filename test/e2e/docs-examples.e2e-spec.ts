import { MediaServer, png, serveMedia } from '../fixtures/media';
import { SimulatedGateway, eventually, startSimulatedGateway } from '../support/simulated-gateway';
import { FAMILY_REGISTRY } from '../support/families';
import { ADMIN_TOKEN, TestAccount } from '../support/gateway-harness';

/**
 * The request bodies `/docs` shows are sent to a running gateway, which must answer them with the
 * status the document gives. A body is what the document states: every required field and every
 * field with an example, each with its example (else its first enum value or its default). IDs of
 * the caller's own resources (`session_id`, `voice_id`) are replaced by real ones, made beforehand;
 * image URLs by one the gateway can fetch and measure; a price table is completed with the current
 * entries of the models its example does not show (a table names every model of the catalogue).
 */

type Schema = {
  $ref?: string;
  example?: unknown;
  enum?: unknown[];
  default?: unknown;
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};
type Operation = {
  requestBody?: { content?: Record<string, { schema?: Schema; example?: unknown }> };
  responses?: Record<string, unknown>;
};
type OpenApi = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

const ALL_MODELS = FAMILY_REGISTRY.all().map((model) => model.name);

describe('the request examples of /docs-json', () => {
  let gw: SimulatedGateway;
  let caller: TestAccount;
  let managed: TestAccount;
  let operatorId: string;
  let spec: OpenApi;
  let media: MediaServer;

  beforeAll(async () => {
    media = await serveMedia({ '/image.png': png(400, 400) });
    gw = await startSimulatedGateway({ env: { MEDIA_FETCH_ALLOW_PRIVATE: 'true' } });
    caller = await gw.admin.account({ models: ALL_MODELS });
    managed = await gw.admin.account({ models: ALL_MODELS });
    operatorId = (await gw.admin.operator('viewer')).id;
    spec = (await gw.http().get('/docs-json').expect(200)).body as OpenApi;
  });
  afterAll(async () => {
    await gw.close();
    await media.close();
  });

  const resolve = (schema: Schema): Schema => {
    let s = schema;
    while (s.$ref) s = spec.components.schemas[s.$ref.split('/').pop() as string];
    return s;
  };

  const exampleOf = (schema: Schema): unknown => {
    const s = resolve(schema);
    if (s.example !== undefined) return s.example;
    if (s.allOf) return Object.assign({}, ...s.allOf.map((part) => exampleOf(part)));
    const alternative = s.oneOf?.[0] ?? s.anyOf?.[0];
    if (alternative) return exampleOf(alternative);
    if (s.enum) return s.enum[0];
    if (s.default !== undefined) return s.default;
    if (s.properties) {
      const body: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(s.properties)) {
        const p = resolve(property);
        if (s.required?.includes(name) || p.example !== undefined) body[name] = exampleOf(property);
      }
      return body;
    }
    if (s.type === 'array' && s.items) return [exampleOf(s.items)];
    return undefined;
  };

  /** Every documented route with a JSON body, as `METHOD /path`. */
  const jsonBodyRoutes = () =>
    Object.entries(spec.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        // A body that documents no field (an action named by its path) has nothing to send.
        .filter(([, op]) => {
          const content = op.requestBody?.content?.['application/json'];
          return content && (content.example !== undefined || resolve(content.schema ?? {}).properties);
        })
        .map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, method, path, op })),
    );

  /** A session of the caller's with one mark on frame 0 (what preview and the editing task need). */
  const markedSession = async (): Promise<string> => {
    const auth = `Bearer ${caller.key}`;
    const init = await gw
      .http()
      .post('/kl/v1/videos/multi-elements/init-selection')
      .set('Authorization', auth)
      .send({ video_url: 'https://example.com/clip.mp4' })
      .expect(200);
    const session = init.body.data.session_id as string;
    await gw
      .http()
      .post('/kl/v1/videos/multi-elements/add-selection')
      .set('Authorization', auth)
      .send({ session_id: session, frame_index: 0, points: [{ x: 0.5, y: 0.5 }] })
      .expect(200);
    return session;
  };

  /** A custom voice of the caller's, once its task has succeeded. */
  const ownVoice = async (): Promise<string> => {
    const auth = `Bearer ${caller.key}`;
    const created = await gw
      .http()
      .post('/kl/v1/general/custom-voices')
      .set('Authorization', auth)
      .send({ voice_name: 'Docs', voice_url: 'https://example.com/voice.mp3' })
      .expect(200);
    const task = created.body.data.task_id as string;
    return eventually(async () => {
      const res = await gw.http().get(`/kl/v1/general/custom-voices/${task}`).set('Authorization', auth);
      return res.body.data?.task_result?.voices?.[0]?.voice_id as string | undefined;
    });
  };

  /** The documented body with the caller's own resources in place of the example IDs, and a fetchable image. */
  const withOwnIds = async (body: unknown): Promise<unknown> => {
    if (!body || typeof body !== 'object') return body;
    const own: Record<string, unknown> = { ...(body as Record<string, unknown>) };
    if ('session_id' in own) own.session_id = await markedSession();
    if ('voice_id' in own) own.voice_id = await ownVoice();
    if (Array.isArray(own.image_list))
      own.image_list = own.image_list.map((item: Record<string, unknown>) => ({
        ...item,
        image: media.url('/image.png'),
      }));
    return own;
  };

  /** A documented price table with the current entries of the models it does not show. */
  const completedTable = async (body: unknown): Promise<unknown> => {
    const shown = body as { models: Record<string, unknown> };
    const current = (await gw.admin.get('/admin/v1/prices').expect(200)).body as { models: Record<string, unknown> };
    return { ...shown, models: { ...current.models, ...shown.models } };
  };

  it('sends every example and gets the documented status', async () => {
    const results: Array<{ route: string; documented: number; got: number; body: unknown }> = [];
    for (const { route, method, path, op } of jsonBodyRoutes()) {
      const content = op.requestBody?.content?.['application/json'];
      const documentedBody = content?.example ?? exampleOf(content?.schema ?? {});
      const body =
        route === 'PUT /admin/v1/prices' ? await completedTable(documentedBody) : await withOwnIds(documentedBody);
      const documented = Number(Object.keys(op.responses ?? {}).find((status) => /^2\d\d$/.test(status)));
      const admin = path.startsWith('/admin/');
      const owner = path.startsWith('/admin/v1/channels')
        ? 'ax-default'
        : path.startsWith('/admin/v1/operators')
          ? operatorId
          : managed.id;
      const url = path.replace('{id}', owner);
      const res = await gw
        .http()
        [method as 'post' | 'put' | 'patch'](url)
        .set('Authorization', `Bearer ${admin ? ADMIN_TOKEN : caller.key}`)
        .send(body as object);
      results.push({ route, documented, got: res.status, body: res.status === documented ? null : res.body });
    }
    expect(results.length).toBeGreaterThan(5);
    expect(results.filter((r) => r.got !== r.documented)).toEqual([]);
  });

  it("the editing task's documented model is one its route takes", async () => {
    const op = spec.paths['/kl/v1/videos/multi-elements'].post;
    const documented = exampleOf(op.requestBody?.content?.['application/json']?.schema ?? {}) as Record<
      string,
      unknown
    >;
    const res = await gw
      .http()
      .post('/kl/v1/videos/multi-elements')
      .set('Authorization', `Bearer ${caller.key}`)
      .send({
        model_name: documented.model_name,
        session_id: await markedSession(),
        edit_mode: 'removal',
        prompt: 'Delete the marked object from <<<video_1>>>',
        duration: '5',
      });
    expect({ status: res.status, body: res.status === 200 ? null : res.body }).toEqual({ status: 200, body: null });
  });

  it('the price table example shows only models of the catalogue, each entry as stored', async () => {
    const op = spec.paths['/admin/v1/prices'].put;
    const shown = exampleOf(op.requestBody?.content?.['application/json']?.schema ?? {}) as {
      models: Record<string, unknown>;
    };
    expect(Object.keys(shown.models).length).toBeGreaterThan(0);
    for (const model of Object.keys(shown.models)) expect(ALL_MODELS).toContain(model);
    await gw.admin.put('/admin/v1/prices', await completedTable(shown)).expect(200);
    const stored = (await gw.admin.get('/admin/v1/prices').expect(200)).body as { models: Record<string, unknown> };
    for (const [model, entry] of Object.entries(shown.models))
      expect(stored.models[model]).toMatchObject(entry as object);
  });
});
