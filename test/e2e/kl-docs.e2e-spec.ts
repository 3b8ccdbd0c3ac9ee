import { Harness, startGateway } from '../support/gateway-harness';

/**
 * `/docs-json`: every kl route documents its 200 answer with a typed schema; the documentation routes sit after
 * the API's.
 */
const ROUTES: Array<[string, 'get' | 'post']> = [
  ['/kl/v1/videos/multi-elements/init-selection', 'post'],
  ['/kl/v1/videos/multi-elements/add-selection', 'post'],
  ['/kl/v1/videos/multi-elements/delete-selection', 'post'],
  ['/kl/v1/videos/multi-elements/clear-selection', 'post'],
  ['/kl/v1/videos/multi-elements/preview-selection', 'post'],
  ['/kl/v1/videos/multi-elements', 'post'],
  ['/kl/v1/videos/multi-elements', 'get'],
  ['/kl/v1/videos/multi-elements/{id}', 'get'],
  ['/kl/v1/general/custom-voices', 'post'],
  ['/kl/v1/general/custom-voices', 'get'],
  ['/kl/v1/general/custom-voices/{id}', 'get'],
  ['/kl/v1/general/presets-voices', 'get'],
  ['/kl/v1/general/delete-voices', 'post'],
];

interface Schema {
  $ref?: string;
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
}

describe('kl in /docs-json', () => {
  let gw: Harness;
  let doc: {
    paths: Record<
      string,
      Record<string, { responses: Record<string, { content?: Record<string, { schema?: Schema }> }> }>
    >;
    components: { schemas: Record<string, Schema> };
  };

  beforeAll(async () => {
    gw = await startGateway();
    doc = (await gw.http().get('/docs-json').expect(200)).body;
  });
  afterAll(() => gw.close());

  it("registers the documentation's routes after the API's and before the 404 handler", async () => {
    const stack = (gw.app.getHttpAdapter().getInstance() as { router: { stack: Array<{ route?: { path: string } }> } })
      .router.stack;
    const at = (path: string) => stack.findIndex((layer) => layer.route?.path === path);
    const lastApiRoute = Math.max(
      ...stack.map((layer, i) => (layer.route && !layer.route.path.startsWith('/docs') ? i : -1)),
    );
    expect(at('/docs-json')).toBeGreaterThan(lastApiRoute);
    expect(at('/ax/api/v1/tasks/:task_id')).toBeGreaterThan(0);
    // Still served, and an unknown path still gets the gateway's 404 after them.
    await gw.http().get('/docs').expect(200);
    const missing = await gw.http().get('/no-such-route').expect(404);
    expect(missing.body.error).toBeDefined();
  });

  /** A schema with its $ref and allOf (inheritance) resolved to one property map. */
  const properties = (schema: Schema | undefined): Record<string, Schema> => {
    if (!schema) return {};
    if (schema.$ref) return properties(doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')]);
    return Object.assign({}, ...(schema.allOf ?? []).map(properties), schema.properties ?? {});
  };

  it('lists every kl path, and no other kl path', () => {
    const kl = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/kl/'))
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`));
    expect(kl.sort()).toEqual(ROUTES.map(([path, method]) => `${method} ${path}`).sort());
  });

  it.each(ROUTES)('%s (%s) has a typed 200 answer in the common envelope', (path, method) => {
    const schema = doc.paths[path][method].responses['200']?.content?.['application/json']?.schema;
    expect(schema?.$ref).toMatch(/^#\/components\/schemas\/Kl\w+Response$/);
    const envelope = properties(schema);
    expect(Object.keys(envelope).sort()).toEqual(['code', 'data', 'message', 'request_id']);
    const data = envelope.data.items ?? envelope.data;
    expect(Object.keys(properties(data)).length).toBeGreaterThan(1);
  });
});
