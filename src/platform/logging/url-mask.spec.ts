import { maskUrl, maskUrlsInText, registerSecretPath } from './url-mask';

describe('maskUrl', () => {
  beforeAll(() => {
    registerSecretPath('/results/');
    registerSecretPath('/callbacks/upstream/');
  });

  it('masks the token segment of a registered path, in a path or an absolute URL, whatever its case', () => {
    expect(maskUrl('/results/dGFza18x.c2lnbmF0dXJl')).toBe('/results/[redacted]');
    expect(maskUrl('/results/p.c2VhbGVk.c2ln?download=1')).toBe('/results/[redacted]?download=1');
    expect(maskUrl('/callbacks/upstream/Zm9vYmFyYmF6cXV4cXV1eA')).toBe('/callbacks/upstream/[redacted]');
    expect(maskUrl('/Callbacks/Upstream/Zm9vYmFyYmF6cXV4cXV1eA/extra')).toBe('/Callbacks/Upstream/[redacted]/extra');
    expect(maskUrl('http://gw.example:3000/results/dGFza18x.c2ln#t=1')).toBe(
      'http://gw.example:3000/results/[redacted]#t=1',
    );
  });

  it('masks the segment of a registered path spelled another way (no route, the same credential)', () => {
    for (const path of [
      '//results/dGFza18x.c2ln',
      '/results//dGFza18x.c2ln',
      '/./results/dGFza18x.c2ln',
      '/x/../results/dGFza18x.c2ln',
      '/%72esults/dGFza18x.c2ln',
      '/%2E/RESULTS/dGFza18x.c2ln',
    ])
      expect(maskUrl(`${path}?download=1`)).toMatch(
        /^\/results\/\[redacted\]\?download=1$|^\/RESULTS\/\[redacted\]\?download=1$/,
      );
    expect(maskUrl('http://gw.example//results/dGFza18x.c2ln')).toBe('http://gw.example/results/[redacted]');
    // Other paths keep their spelling, odd or not.
    expect(maskUrl('//healthz')).toBe('//healthz');
    expect(maskUrl('/v1/videos/%74ask_1')).toBe('/v1/videos/%74ask_1');
  });

  it('leaves other paths, and a registered prefix with no segment, as they are', () => {
    expect(maskUrl('/admin/v1/tasks/task_1/results/')).toBe('/admin/v1/tasks/task_1/results/');
    expect(maskUrl('/results/')).toBe('/results/');
    expect(maskUrl('/vd/ent/v2/tasks/task_1/creations')).toBe('/vd/ent/v2/tasks/task_1/creations');
    expect(maskUrl('https://upstream.example/results')).toBe('https://upstream.example/results');
  });

  it('masks credential query values, any case, and keeps the others', () => {
    expect(maskUrl('/ax/api/v1/tasks/t1?token=secret&x=1')).toBe('/ax/api/v1/tasks/t1?token=[redacted]&x=1');
    expect(maskUrl('/x?a=1&API_KEY=k1&monkey=2')).toBe('/x?a=1&API_KEY=[redacted]&monkey=2');
    expect(maskUrl('https://s3.example/b/o?X-Amz-Signature=abc&X-Amz-Credential=def')).toBe(
      'https://s3.example/b/o?X-Amz-Signature=[redacted]&X-Amz-Credential=[redacted]',
    );
    expect(maskUrl('/results/tok.sig?key=k')).toBe('/results/[redacted]?key=[redacted]');
  });

  it('masks every URL credential inside a longer text, up to where each URL ends', () => {
    const sql =
      `INSERT INTO "callback_deliveries" ("url", "body") VALUES ('https://hooks.example/h?token=abc&x=1', ` +
      `'{"url":"http://localhost:3000/results/dGFza18x.c2ln","cover_url":"http://localhost:3000/RESULTS/cDI.c2"}'); COMMIT`;
    expect(maskUrlsInText(sql)).toBe(
      `INSERT INTO "callback_deliveries" ("url", "body") VALUES ('https://hooks.example/h?token=[redacted]&x=1', ` +
        `'{"url":"http://localhost:3000/results/[redacted]","cover_url":"http://localhost:3000/RESULTS/[redacted]"}'); COMMIT`,
    );
    expect(maskUrlsInText('SELECT 1 FROM "tasks" WHERE "id" = $1')).toBe('SELECT 1 FROM "tasks" WHERE "id" = $1');
  });
});
