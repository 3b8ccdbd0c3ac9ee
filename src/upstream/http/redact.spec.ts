import { redactCredentials } from './redact';

const channel = { id: 'c', family: 'vd' as const, baseUrl: 'http://x', apiKey: 'sk-live-123456' };

describe('redactCredentials', () => {
  it('masks the channel secrets and bearer JWTs in upstream messages', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJhayJ9.c2lnbmF0dXJl';
    const text = redactCredentials(`invalid key sk-live-123456 or token ${jwt}`, channel);
    expect(text).not.toContain('sk-live-123456');
    expect(text).not.toContain(jwt);
    expect(text).toBe('invalid key *** or token ***');
  });
});
