import { requestOrigin, resultUrlsOnRequestHost } from './request-origin';

const req = (host: string | undefined, protocol = 'http') =>
  ({ protocol, headers: host === undefined ? {} : { host } }) as never;

describe('requestOrigin', () => {
  it('takes plain host names, IPv4 and bracketed IPv6, with a port', () => {
    expect(requestOrigin(req('gw.example.com'))).toBe('http://gw.example.com');
    expect(requestOrigin(req('127.0.0.1:3000', 'https'))).toBe('https://127.0.0.1:3000');
    expect(requestOrigin(req('[::1]:8080'))).toBe('http://[::1]:8080');
  });

  it('refuses anything that is not a plain host', () => {
    for (const host of [undefined, '', 'a"b', 'a b', 'x/y', 'under_score.test', 'h:port', `${'a'.repeat(300)}.test`])
      expect(requestOrigin(req(host))).toBeUndefined();
  });
});

describe('resultUrlsOnRequestHost', () => {
  const rewrite = resultUrlsOnRequestHost('http://localhost:3000');
  const answer = JSON.stringify({ a: 'http://localhost:3000/results/t.s', b: ['http://localhost:3000/results/u.v'] });

  it('moves every result URL of an answer to the request host, and nothing else', () => {
    const out = rewrite(req('videos.example.test:8443'), answer);
    expect(JSON.parse(out)).toEqual({
      a: 'http://videos.example.test:8443/results/t.s',
      b: ['http://videos.example.test:8443/results/u.v'],
    });
    const other = JSON.stringify({ a: 'http://localhost:3000/docs' });
    expect(rewrite(req('videos.example.test'), other)).toBe(other);
  });

  it('keeps the fallback origin when the Host header is not plain', () => {
    expect(rewrite(req('bad host'), answer)).toBe(answer);
  });
});
