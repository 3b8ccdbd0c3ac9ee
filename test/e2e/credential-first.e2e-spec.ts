import { request as httpRequest } from 'http';
import { AddressInfo } from 'net';
import type { Response } from 'supertest';
import { AdminAuthThrottle } from '../../src/admin/admin-auth-throttle';
import { PrincipalService } from '../../src/core/accounts/principal.service';
import { ADMIN_TOKEN, Harness, TestAccount, startGateway } from '../support/gateway-harness';

const AX_CREATE = '/ax/api/v1/services/aigc/video-generation/video-synthesis';
const VD_CREATE = '/vd/ent/v2/reference2video';
const KL_CREATE = '/kl/v1/videos/multi-elements';
const KL_SESSION = '/kl/v1/videos/multi-elements/init-selection';
const OPENAI_CREATE = '/v1/videos';
const CALLBACK = '/callbacks/upstream/0123456789abcdefghij0123';

/** What a refusal says, less what differs between any two answers (request IDs, timing, date). */
function refusal(res: Response) {
  const headers = { ...res.headers };
  for (const name of ['x-request-id', 'server-timing', 'date']) delete headers[name];
  const body = JSON.parse(JSON.stringify(res.body), (key, value) =>
    key === 'request_id' || key === 'trace_id' ? 'ID' : value,
  );
  return { status: res.status, headers, body };
}

/** A JSON object of `members` members: millions of them held the event loop for seconds when parsed. */
function manyMembers(members: number): Buffer {
  const parts = new Array<string>(members);
  for (let i = 0; i < members; i++) parts[i] = `"k${i}":1`;
  return Buffer.from(`{${parts.join(',')}}`);
}

describe('credentials before bodies', () => {
  let gw: Harness;
  let caller: TestAccount;
  beforeAll(async () => {
    gw = await startGateway();
    caller = await gw.admin.account({ models: ['kl-v1', 'kl-v1-6', 'wx2.7-r2v', 'vdq3'] });
  });
  afterAll(() => gw.close());

  const post = (path: string, authorization: string | null, type: string, body: string) => {
    const req = gw.http().post(path).set('Content-Type', type);
    return (authorization ? req.set('Authorization', authorization) : req).send(body);
  };
  /** Bodies a route would refuse (400, 413) with a good credential. */
  const unreadable: Array<[string, string, string]> = [
    ['malformed JSON', 'application/json', '{"model": "vdq3",'],
    ['an empty body', 'application/json', ''],
    ['another type', 'text/plain', 'model=vdq3'],
    ['too many values', 'application/json', `[${new Array(20_000).fill('0').join(',')}]`],
  ];

  it.each([AX_CREATE, VD_CREATE, KL_CREATE, KL_SESSION, OPENAI_CREATE])(
    'a wrong API key on %s is 401 whatever the body, the same answer as with a good body',
    async (path) => {
      const wrong = 'Bearer sk-not-a-key-0123456789';
      const expected = refusal(await post(path, wrong, 'application/json', '{"model": "vdq3"}'));
      expect(expected.status).toBe(401);
      expect(expected.body.error).toMatchObject({ code: 'invalid_api_key' });
      for (const [, type, body] of unreadable) expect(refusal(await post(path, wrong, type, body))).toEqual(expected);
      // A good key on the same route: the body's own answer.
      const good = await post(path, `Bearer ${caller.key}`, 'application/json', '{"model": "vdq3",');
      expect(good.status).toBe(400);
      expect(good.body.error.message).toMatch(/not valid JSON/);
    },
  );

  it('tells a missing API key from an Authorization header not of the Bearer form', async () => {
    const me = (authorization?: string) => {
      const req = gw.http().get('/gateway/v1/me');
      return authorization === undefined ? req : req.set('Authorization', authorization);
    };
    expect((await me().expect(401)).body.error.message).toBe('Missing API key: send Authorization: Bearer <API key>.');
    for (const header of [`Bearer ${caller.key} extra`, `Basic ${caller.key}`, `Token ${caller.key}`, caller.key])
      expect((await me(header).expect(401)).body.error).toMatchObject({
        code: 'invalid_api_key',
        message: 'The Authorization header is not of the form "Bearer <API key>".',
      });
    await me(`bearer  ${caller.key} `).expect(200);
  });

  it('a wrong admin token is 401 whatever the body, the same answer as with a good body', async () => {
    const wrong = 'Bearer not-the-admin-token';
    for (const [method, path] of [
      ['post', '/admin/v1/accounts'],
      ['put', '/admin/v1/prices'],
      ['patch', '/admin/v1/accounts/acc_unknown'],
    ] as const) {
      const send = (type: string, body: string) =>
        gw.http()[method](path).set('Authorization', wrong).set('Content-Type', type).send(body);
      const expected = refusal(await send('application/json', '{"name": "x"}'));
      expect(expected.status).toBe(401);
      expect(expected.body.error).toMatchObject({
        code: 'invalid_api_key',
        message: 'Missing or invalid admin token.',
      });
      for (const [, type, body] of unreadable) expect(refusal(await send(type, body))).toEqual(expected);
    }
    const good = await post('/admin/v1/accounts', `Bearer ${ADMIN_TOKEN}`, 'application/json', '{"name": ');
    expect(good.status).toBe(400);
    expect(good.body.error.message).toMatch(/not valid JSON/);
  });

  it('checks a credential once per request: the guard reuses what the body step found', async () => {
    const resolve = jest.spyOn(gw.app.get(PrincipalService), 'resolve');
    const throttle = jest.spyOn(gw.app.get(AdminAuthThrottle), 'standing');
    try {
      await post(VD_CREATE, `Bearer ${caller.key}`, 'application/json', '{"model": "vdq3"}').expect(400);
      expect(resolve).toHaveBeenCalledTimes(1);
      await post('/admin/v1/accounts', `Bearer ${ADMIN_TOKEN}`, 'application/json', '{"name": "once"}').expect(201);
      expect(throttle).toHaveBeenCalledTimes(1);
    } finally {
      resolve.mockRestore();
      throttle.mockRestore();
    }
  });

  it('never reads an upstream callback’s body: any type or content is answered by its token alone', async () => {
    for (const [, type, body] of unreadable) {
      const res = await post(CALLBACK, null, type, body).expect(404);
      expect(res.body.error).toMatchObject({ code: 'not_found' });
    }
  });

  it('gives routes without Base64 media the small limit, and media routes the large one', async () => {
    const over = JSON.stringify({ model_name: 'kl-v1', video_url: `https://example.com/${'a'.repeat(1024 * 1024)}` });
    const small = await post(KL_SESSION, `Bearer ${caller.key}`, 'application/json', over).expect(413);
    expect(small.body.error).toMatchObject({
      code: 'request_too_large',
      message: `The request body exceeds ${gw.config.SMALL_BODY_LIMIT_BYTES} bytes.`,
    });
    const admin = await post('/admin/v1/accounts', `Bearer ${ADMIN_TOKEN}`, 'application/json', over).expect(413);
    expect(admin.body.error.code).toBe('request_too_large');
    // The same size on a media route is read, and its rules answer.
    const media = await post(VD_CREATE, `Bearer ${caller.key}`, 'application/json', over);
    expect(media.status).toBe(400);
    expect(media.body.error.code).toBe('invalid_request');
  });
});

describe('admin sign-in failures with unreadable bodies', () => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway({ env: { ADMIN_AUTH_MAX_FAILURES: '3' } });
  });
  afterAll(() => gw.close());

  it('count one failure each, and a blocked address is 429 before its body is read', async () => {
    const wrong = () =>
      gw.http().post('/admin/v1/accounts').set('Authorization', 'Bearer wrong').set('Content-Type', 'application/json');
    for (let i = 0; i < 3; i++) await wrong().send('{"name": ').expect(401);
    const blocked = await wrong().send('{"name": ').expect(429);
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/);
    // Blocked even with the right token, before its body is read.
    await gw
      .http()
      .post('/admin/v1/accounts')
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .set('Content-Type', 'application/json')
      .send('{"name": ')
      .expect(429);
  });
});

describe('large bodies and the event loop', () => {
  let gw: Harness;
  let base: string;
  let caller: TestAccount;
  /** ~15 MB: unchecked, parsing it held every other request for seconds. */
  const flood = manyMembers(1_000_000);
  beforeAll(async () => {
    gw = await startGateway();
    caller = await gw.admin.account({ models: ['vdq3', 'kl-v1'] });
    await gw.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(gw.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => gw.close());

  /** Sends `body` to `path`; resolves with the answer's status once the exchange is over. */
  function send(path: string, authorization: string | null): Promise<number | string> {
    return new Promise((resolve) => {
      const headers: Record<string, string | number> = {
        'content-type': 'application/json',
        'content-length': flood.length,
        ...(authorization ? { authorization } : {}),
      };
      const req = httpRequest(`${base}${path}`, { method: 'POST', headers, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      // The gateway may answer, and stop reading, before the whole body is sent.
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      req.end(flood);
    });
  }

  /** The longest `/healthz` took (from asking to its answer) while `work` ran. */
  async function longestHealthWait(work: Promise<unknown>): Promise<number> {
    let done = false;
    let longest = 0;
    const probing = (async () => {
      while (!done) {
        const started = performance.now();
        const res = await fetch(`${base}/healthz`);
        await res.text();
        longest = Math.max(longest, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    await work.finally(() => (done = true));
    await probing;
    return longest;
  }

  it.each([
    ['a wrong API key', 'POST', KL_SESSION, 'Bearer sk-not-a-key-0123456789', 401],
    ['a body over the route’s limit', 'POST', KL_SESSION, 'GOOD', 413],
    ['a DELETE with a wrong admin token', 'DELETE', '/admin/v1/keys/key_x', 'Bearer not-the-admin-token', 401],
    ['a GET with a body over the small limit', 'GET', '/gateway/v1/me', 'GOOD', 413],
    [
      'a route that reads no body, with a wrong admin token',
      'POST',
      '/admin/v1/tasks/task_x/cancel',
      'Bearer not-the-admin-token',
      401,
    ],
    ['a route that reads no body, with a good key', 'POST', '/gateway/v1/tasks/task_x/cancel', 'GOOD', 404],
    ['a path no route serves', 'POST', '/no/such/route', null, 404],
    ['a URL holding a NUL character', 'POST', '/admin/v1/tasks/%00/cancel', null, 400],
    ['a path parameter that is not valid percent-encoding', 'POST', '/admin/v1/tasks/%E0%A4%A/cancel', null, 400],
  ])(
    'answers %s once the client has finished sending, so it reads the answer, not a reset',
    async (_k, method, path, auth, status) => {
      const body = Buffer.alloc(2 * 1024 * 1024, 0x20);
      const headers = {
        'content-type': 'application/json',
        'content-length': body.length,
        ...(auth ? { authorization: auth === 'GOOD' ? `Bearer ${caller.key}` : auth } : {}),
      };
      let answeredEarly = false;
      const answered = new Promise<number | string>((resolve) => {
        const req = httpRequest(`${base}${path}`, { method, headers, agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('response', () => (answeredEarly = !sentAll));
        req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
        let sentAll = false;
        req.write(body.subarray(0, 64 * 1024));
        setTimeout(() => {
          sentAll = true;
          req.end(body.subarray(64 * 1024));
        }, 500);
      });
      expect(await answered).toBe(status);
      expect(answeredEarly).toBe(false);
    },
  );

  it.each([
    ['a client route with a wrong API key', VD_CREATE, 'Bearer sk-not-a-key-0123456789', 401],
    ['an admin route with a wrong admin token', '/admin/v1/accounts', 'Bearer not-the-admin-token', 401],
    ['the upstream callback route (no credential)', CALLBACK, null, 404],
    ['a media route with a good key', VD_CREATE, 'GOOD', 413],
    ['a small route with a good key', KL_SESSION, 'GOOD', 413],
  ])(
    '/healthz answers within 1 s while a 1,000,000-member body arrives at %s',
    async (_kind, path, authorization, status) => {
      const credential = authorization === 'GOOD' ? `Bearer ${caller.key}` : authorization;
      let answered: number | string = 0;
      const wait = await longestHealthWait(
        (async () => {
          for (let i = 0; i < 2; i++) answered = await send(path, credential);
        })(),
      );
      expect(answered).toBe(status);
      expect(wait).toBeLessThan(1000);
    },
    60_000,
  );
});
