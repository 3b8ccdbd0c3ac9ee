import express from 'express';
import type { Request, Response } from 'express';
import { request as httpRequest } from 'http';
import { AddressInfo } from 'net';
import { gzipSync } from 'zlib';
import request from 'supertest';
import { ErrorWriter, GatewayError } from '../errors';
import { BodyRules, readRequestBody } from './json-body';
import { MAX_BODY_VALUES } from './json-values';

/** An Express app whose route reads its body as the body step does, and shows what it read. */
function bodyApp(rules: Partial<BodyRules> = {}) {
  const app = express();
  const errors = new ErrorWriter();
  app.post('/echo/:id', (req: Request, res: Response) => {
    readRequestBody(req, res, { limitBytes: 1024, ...rules }).then(
      () => res.json({ body: req.body ?? null }),
      (error: GatewayError) => errors.write(req, res, error),
    );
  });
  return app;
}

/**
 * A JSON POST through Node's own client: without Content-Length (sent chunked, as streaming clients
 * send it) unless `headers` give one.
 */
function postRaw(
  app: express.Express,
  body: string | Buffer,
  headers: Record<string, string | number> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const server = app.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const sent = { 'content-type': 'application/json', ...headers };
      const req = httpRequest({ port, method: 'POST', path: '/echo/1', headers: sent }, (res) => {
        let answer = '';
        res.on('data', (c) => (answer += c));
        res.on('end', () => {
          server.close();
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(answer) });
        });
      });
      req.on('error', reject);
      req.write(body); // written before end(): without a Content-Length header, the body goes chunked
      req.end();
    });
  });
}

/** `n` values in one object, one member each. */
const members = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')}}`;

describe('readRequestBody', () => {
  it('reads JSON bodies', async () => {
    const app = bodyApp();
    const plain = await request(app)
      .post('/echo/1')
      .set('Content-Type', 'application/json')
      .send('{"a":[1,{"b":"c"}]}')
      .expect(200);
    expect(plain.body).toEqual({ body: { a: [1, { b: 'c' }] } });
    const withBom = await request(app)
      .post('/echo/1')
      .set('Content-Type', 'application/json; charset=utf-8')
      .send('\ufeff"text"')
      .expect(200);
    expect(withBom.body.body).toBe('text');
    // Other spellings go through body-parser.
    const other = await request(app)
      .post('/echo/1')
      .set('Content-Type', 'Application/JSON;  Charset="UTF-8"')
      .send('{"x":1}')
      .expect(200);
    expect(other.body).toEqual({ body: { x: 1 } });
  });

  it('says where a body stops being JSON, without quoting it', async () => {
    const app = bodyApp();
    const send = (text: string) => request(app).post('/echo/1').set('Content-Type', 'application/json').send(text);
    const cases: Array<[string, string]> = [
      ['{"model": "secret-value",}', "expected a double-quoted property name, found '}' at line 1, column 26"],
      [
        '{\n  "model": "x"\n  "prompt": "y"\n}',
        "expected ',' or '}' after a property value, found '\"' at line 3, column 3",
      ],
      ['{"model": tru}', "expected 'true', found '}' at line 1, column 14"],
      ['{"a": 1} trailing', "unexpected 't' after the JSON value at line 1, column 10"],
    ];
    for (const [text, where] of cases) {
      const res = await send(text).expect(400);
      expect(res.body.error.message).toContain(where);
      expect(res.body.error.message).not.toContain('secret-value');
    }
  });

  it('says the body is empty when it is, with or without a length, chunked or blank', async () => {
    const app = bodyApp();
    const empty = { code: 'invalid_request', message: 'The request body is empty; send a JSON object.', param: null };
    const json = () => request(app).post('/echo/1').set('Content-Type', 'application/json');
    expect((await json().send('').expect(400)).body.error).toEqual(expect.objectContaining(empty));
    expect((await json().send('  \n ').expect(400)).body.error).toEqual(expect.objectContaining(empty));
    expect((await json().expect(400)).body.error).toEqual(expect.objectContaining(empty));
    const chunked = await postRaw(app, '');
    expect(chunked.status).toBe(400);
    expect(chunked.body.error).toEqual(expect.objectContaining(empty));
    // A chunked body with content is read as usual.
    expect(await postRaw(app, '{"a":1}')).toMatchObject({ status: 200, body: { body: { a: 1 } } });
    // The wrong type on an empty body is still the type's error.
    const text = await request(app).post('/echo/1').set('Content-Type', 'text/plain');
    expect(text.body.error.message).toMatch(/Content-Type/);
  });

  it('refuses what it cannot read with the gateway errors', async () => {
    const app = bodyApp({ limitBytes: 64 });
    const broken = await request(app).post('/echo/1').set('Content-Type', 'application/json').send('{"a":').expect(400);
    expect(broken.body.error).toMatchObject({
      code: 'invalid_request',
      message:
        'The request body is not valid JSON: expected a value, found the end of the body at line 1, column 6 (character 6).',
      param: null,
    });
    const text = await request(app).post('/echo/1').set('Content-Type', 'text/plain').send('x').expect(400);
    expect(text.body.error.message).toMatch(/Content-Type/);
    const large = await request(app)
      .post('/echo/1')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ a: 'x'.repeat(100) }))
      .expect(413);
    expect(large.body.error).toMatchObject({
      code: 'request_too_large',
      message: 'The request body exceeds 64 bytes.',
    });
    const nul = await request(app)
      .post('/echo/1')
      .set('Content-Type', 'application/json')
      .send('{"a":"x\\u0000"}')
      .expect(400);
    expect(nul.body.error.param).toBe('a');
    const charset = await request(app)
      .post('/echo/1')
      .set('Content-Type', 'application/json; charset=latin1')
      .send('{}')
      .expect(400);
    expect(charset.body.error.message).toBe('Unsupported body encoding or charset.');
  });

  it('refuses a body of more values than MAX_BODY_VALUES with 413 before parsing it, however it arrives', async () => {
    const app = bodyApp({ limitBytes: 1024 * 1024 });
    const tooMany = {
      code: 'request_too_large',
      message: `The request body holds more than ${MAX_BODY_VALUES} JSON values (array elements and object members).`,
    };
    const json = (type = 'application/json') => request(app).post('/echo/1').set('Content-Type', type);
    // The most a body may hold is read; one more is refused, as an object, an array or nested.
    expect((await json().send(members(MAX_BODY_VALUES)).expect(200)).body.body.k9999).toBe(1);
    expect(
      (
        await json()
          .send(members(MAX_BODY_VALUES + 1))
          .expect(413)
      ).body.error,
    ).toMatchObject(tooMany);
    const array = `[${new Array(MAX_BODY_VALUES + 1).fill('0').join(',')}]`;
    expect((await json().send(array).expect(413)).body.error).toMatchObject(tooMany);
    expect(
      (
        await json()
          .send(`{"a":[${members(MAX_BODY_VALUES)}]}`)
          .expect(413)
      ).body.error,
    ).toMatchObject(tooMany);
    // Through body-parser: another spelling of the type, a compressed body, a chunked one, UTF-16.
    expect((await json('Application/JSON').send(array).expect(413)).body.error).toMatchObject(tooMany);
    const gzipped = gzipSync(array);
    const inflated = await postRaw(app, gzipped, { 'content-encoding': 'gzip', 'content-length': gzipped.length });
    expect(inflated).toMatchObject({ status: 413, body: { error: tooMany } });
    expect(await postRaw(app, array)).toMatchObject({ status: 413, body: { error: tooMany } });
    const utf16 = Buffer.from(`\ufeff${array}`, 'utf16le');
    const wide = await postRaw(app, utf16, {
      'content-type': 'application/json; charset=utf-16le',
      'content-length': utf16.length,
    });
    expect(wide).toMatchObject({ status: 413, body: { error: tooMany } });
    const fewer = Buffer.from('\ufeff{"a":[1,2]}', 'utf16le');
    const read = await postRaw(app, fewer, {
      'content-type': 'application/json; charset=utf-16le',
      'content-length': fewer.length,
    });
    expect(read).toMatchObject({ status: 200, body: { body: { a: [1, 2] } } });
  });

  it('leaves a multipart body to the route’s own reader, within the route’s limit', async () => {
    const multipart = jest.fn(async (req: Request) => void (req.body = { read: 'by the route' }));
    const app = bodyApp({ limitBytes: 4096, multipart });
    const res = await request(app).post('/echo/1').field('model', 'x').expect(200);
    expect(res.body.body).toEqual({ read: 'by the route' });
    await request(app).post('/echo/1').attach('file', Buffer.alloc(8192), 'big.png').expect(413);
    expect(multipart).toHaveBeenCalledTimes(1);
    // JSON to such a route is read here.
    expect((await request(app).post('/echo/1').send({ a: 1 }).expect(200)).body.body).toEqual({ a: 1 });
  });
});
