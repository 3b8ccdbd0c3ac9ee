import { ManualClock } from '../../src/platform/time/clock';
import { reservePort } from '../support/ports';
import { Harness, startGateway } from '../support/gateway-harness';
import { TestIssuer, startTestIssuer } from '../support/oidc-issuer';

jest.setTimeout(60_000);

const CLIENT = { id: 'gateway-console', secret: 'console-secret-0123456789' };
/** Who the test issuer knows: a role claim each (Eve has none); the issuer cannot read Mallory's userinfo. */
const PEOPLE = {
  alice: { name: 'Alice Ops', email: 'alice@example.com', gateway_role: 'admin' },
  bob: { name: 'Bob Watch', gateway_role: ['viewer', 'staff'] },
  eve: { name: 'Eve Nobody' },
  mallory: { name: 'Mallory Flaky', gateway_role: 'admin', userinfo_fails: true },
};

/** Cookies by name, as a browser would keep them for one site. */
type Jar = Map<string, string>;

interface Hop {
  status: number;
  location: string;
  setCookies: string[];
  text: string;
}

/** One request, no redirect followed, cookies sent from the jar and kept in it. */
async function hop(
  url: string,
  jar: Jar,
  init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<Hop> {
  const headers: Record<string, string> = { ...init.headers };
  if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const res = await fetch(url, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
  const setCookies = res.headers.getSetCookie();
  for (const line of setCookies) {
    const [pair] = line.split(';');
    const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
    if (value === '' || /max-age=0/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
  const location = res.headers.get('location') ?? '';
  return {
    status: res.status,
    location: location && new URL(location, url).toString(),
    setCookies,
    text: await res.text(),
  };
}

describe('console single sign-on (OpenID Connect, authorization code with PKCE)', () => {
  let testIssuer: TestIssuer;
  let issuer: string;
  let gw: Harness;
  let base: string;
  const clock = new ManualClock(new Date());

  /** The whole browser round: gateway -> issuer's login form -> issuer -> gateway callback. */
  async function signIn(login: string, tamper?: (callbackUrl: string) => string): Promise<{ landed: Hop; jar: Jar }> {
    const jar: Jar = new Map();
    const issuerJar: Jar = new Map();
    const start = await hop(`${base}/console/sso/login`, jar);
    expect(start.status).toBe(302);
    const auth = new URL(start.location);
    expect(auth.origin).toBe(issuer);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    let step = await hop(start.location, issuerJar);
    step = await hop(step.location, issuerJar, { method: 'POST', form: { prompt: 'login', login, password: 'any' } });
    while (step.location.startsWith(issuer)) step = await hop(step.location, issuerJar);
    expect(step.location.startsWith(`${base}/console/sso/callback?`)).toBe(true);
    const landed = await hop(tamper ? tamper(step.location) : step.location, jar);
    return { landed, jar };
  }

  const withSession = (jar: Jar, extra: Record<string, string> = {}) => ({
    cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    ...extra,
  });

  beforeAll(async () => {
    const { port, release } = await reservePort();
    base = `http://127.0.0.1:${port}`;
    testIssuer = await startTestIssuer({
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      redirectUri: `${base}/console/sso/callback`,
      people: PEOPLE,
    });
    issuer = testIssuer.url;
    gw = await startGateway({
      clock,
      env: {
        PUBLIC_BASE_URL: base,
        OIDC_ISSUER_URL: issuer,
        OIDC_CLIENT_ID: CLIENT.id,
        OIDC_CLIENT_SECRET: CLIENT.secret,
        CONSOLE_SESSION_TTL_S: '3600',
      },
    });
    await release();
    await gw.app.listen(port, '127.0.0.1');
  });
  afterAll(async () => {
    await gw?.close();
    testIssuer?.stop();
  });

  it('signs a person in with the issuer and gives the console an HttpOnly, SameSite=Strict session', async () => {
    expect((await gw.http().get('/console/sso/status').expect(200)).body).toEqual({ enabled: true });
    const { landed, jar } = await signIn('alice');
    expect(landed.status).toBe(302);
    expect(landed.location).toBe(`${base}/console/`);
    const session = landed.setCookies.find((c) => c.startsWith('gw_console='))!;
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Strict/);
    expect(session).toMatch(/Max-Age=3600/);
    expect(session).not.toMatch(/Secure/); // plain http here; Secure whenever the console is reached over https
    expect(landed.setCookies.find((c) => c.startsWith('gw_console_csrf='))).not.toMatch(/HttpOnly/);
    expect(jar.has('gw_sso_flow')).toBe(false);

    const me = await gw.http().get('/admin/v1/me').set(withSession(jar)).expect(200);
    expect(me.body).toEqual({
      id: expect.stringMatching(/^sso_[0-9a-f]{24}$/),
      name: 'Alice Ops <alice@example.com>',
      role: 'admin',
    });
  });

  it('a change needs the CSRF header as well as the cookie; made, it is on the audit trail by name', async () => {
    const { jar } = await signIn('alice');
    const before = (await gw.admin.get('/admin/v1/accounts').expect(200)).body.items.length;
    const refused = await gw
      .http()
      .post('/admin/v1/accounts')
      .set(withSession(jar))
      .send({ name: 'Forged Studio' })
      .expect(403);
    expect(refused.body.error).toMatchObject({ code: 'permission_denied', param: 'x-csrf-token' });
    await gw
      .http()
      .post('/admin/v1/accounts')
      .set(withSession(jar, { 'x-csrf-token': 'not-the-token' }))
      .send({ name: 'Forged Studio' })
      .expect(403);
    expect((await gw.admin.get('/admin/v1/accounts').expect(200)).body.items).toHaveLength(before);

    const made = await gw
      .http()
      .post('/admin/v1/accounts')
      .set(withSession(jar, { 'x-csrf-token': jar.get('gw_console_csrf')! }))
      .send({ name: 'SSO Studio' })
      .expect(201);
    const trail = (await gw.admin.get(`/admin/v1/audit?target_id=${made.body.id}`).expect(200)).body.items;
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({
      action: 'account.create',
      actor: { name: 'Alice Ops <alice@example.com>', role: 'admin' },
    });
    const signIns = (await gw.admin.get('/admin/v1/audit?action=operator.sign_in').expect(200)).body.items;
    expect(signIns[0]).toMatchObject({
      actor: { name: 'Alice Ops <alice@example.com>' },
      after: { via: 'sso', role: 'admin' },
    });
  });

  it('gives each person the role their claim names: a viewer reads but may not change', async () => {
    const { jar } = await signIn('bob');
    expect((await gw.http().get('/admin/v1/me').set(withSession(jar)).expect(200)).body).toMatchObject({
      name: 'Bob Watch',
      role: 'viewer',
    });
    const refused = await gw
      .http()
      .post('/admin/v1/accounts')
      .set(withSession(jar, { 'x-csrf-token': jar.get('gw_console_csrf')! }))
      .send({ name: 'Viewer Studio' })
      .expect(403);
    expect(refused.body.error.message).toMatch(/needs the 'admin' role/);
  });

  it('refuses a person whose claim names no role, and returns to the console saying why', async () => {
    const { landed, jar } = await signIn('eve');
    expect(landed.status).toBe(302);
    expect(decodeURIComponent(landed.location)).toContain('/console/?sso_error=Your sign-in carries no gateway role');
    expect(jar.has('gw_console')).toBe(false);
  });

  it('refuses a sign-in whose userinfo the issuer cannot give, and returns to the console saying why', async () => {
    const { landed, jar } = await signIn('mallory');
    expect(landed.status).toBe(302);
    expect(decodeURIComponent(landed.location)).toContain(
      "/console/?sso_error=The issuer's account details could not be read",
    );
    expect(jar.has('gw_console')).toBe(false);
  });

  it('refuses a return whose state is not the one this browser started with', async () => {
    const { landed, jar } = await signIn('alice', (url) => url.replace(/state=[^&]+/, 'state=forged'));
    expect(decodeURIComponent(landed.location)).toMatch(/sso_error=The sign-in could not be completed: state mismatch/);
    expect(jar.has('gw_console')).toBe(false);
    const noFlow = await hop(`${base}/console/sso/callback?code=x&state=y`, new Map());
    expect(decodeURIComponent(noFlow.location)).toMatch(/sso_error=The sign-in expired/);
  });

  it('a session ends at sign-out, everywhere, and by itself when it expires', async () => {
    const first = await signIn('alice');
    await gw.http().post('/console/sso/logout').set(withSession(first.jar)).expect(403);
    const out = await gw
      .http()
      .post('/console/sso/logout')
      .set(withSession(first.jar, { 'x-csrf-token': first.jar.get('gw_console_csrf')! }))
      .expect(204);
    expect(out.headers['set-cookie']).toEqual(
      expect.arrayContaining([expect.stringMatching(/^gw_console=;.*Max-Age=0/)]),
    );
    await gw.http().get('/admin/v1/me').set(withSession(first.jar)).expect(401);

    const second = await signIn('alice');
    await gw.http().get('/admin/v1/me').set(withSession(second.jar)).expect(200);
    clock.advance(3600 * 1000);
    await gw.http().get('/admin/v1/me').set(withSession(second.jar)).expect(401);
  });

  it('a bearer token is still taken as before, and a cookie never stands in for an API key', async () => {
    const { jar } = await signIn('alice');
    await gw.admin.get('/admin/v1/me').expect(200);
    await gw.http().get('/gateway/v1/me').set(withSession(jar)).expect(401);
  });
});

describe('console single sign-on, issuer unreachable', () => {
  let gw: Harness;
  beforeAll(
    async () =>
      (gw = await startGateway({
        env: { OIDC_ISSUER_URL: 'http://127.0.0.1:1', OIDC_CLIENT_ID: CLIENT.id, OIDC_CLIENT_SECRET: CLIENT.secret },
      })),
  );
  afterAll(() => gw?.close());

  it('answers the sign-in 503; a browser returning from it lands on the console saying why', async () => {
    const login = await gw.http().get('/console/sso/login').expect(503);
    expect(login.body.error).toMatchObject({ code: 'service_unavailable' });
    // A browser coming back with a flow it started before the issuer went away (or on another instance).
    const flow = Buffer.from(JSON.stringify({ state: 's', nonce: 'n', verifier: 'v'.repeat(43) })).toString(
      'base64url',
    );
    const back = await gw.http().get('/console/sso/callback?code=x&state=s').set('Cookie', `gw_sso_flow=${flow}`);
    expect(back.status).toBe(302);
    expect(decodeURIComponent(back.headers.location)).toBe(
      '/console/?sso_error=The sign-in issuer cannot be reached; sign in again shortly.',
    );
  });
});

describe('console single sign-on, not configured', () => {
  let gw: Harness;
  beforeAll(async () => (gw = await startGateway()));
  afterAll(() => gw?.close());

  it('is off: the console offers no button and its routes are 404', async () => {
    expect((await gw.http().get('/console/sso/status').expect(200)).body).toEqual({ enabled: false });
    await gw.http().get('/console/sso/login').expect(404);
    await gw.http().get('/console/sso/callback?code=x').expect(404);
  });
});
