import { GatewayError } from '../../platform/errors';
import { isPublicHost } from '../../platform/net/public-address';
import { PUBLIC_MEDIA_URLS, checkPublicHost, mediaUrlPolicy } from './media-url-policy';

describe('media URL hosts', () => {
  it.each([
    'https://example.com/a.png',
    'http://cdn.example.com:8080/a.mp4',
    'http://8.8.8.8/a.png',
    'http://[2606:4700::1111]/a.png',
    'https://localhost.example.com/a.png',
  ])('takes the public host of %s', (url) => expect(isPublicHost(new URL(url))).toBe(true));

  it.each([
    'http://127.0.0.1/a.png',
    'http://127.1/a.png',
    'http://2130706433/a.png',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://localhost/',
    'http://LOCALHOST./',
    'http://app.localhost/',
    'http://metadata.google.internal/',
    'http://metadata/',
  ])('refuses %s', (url) => {
    expect(isPublicHost(new URL(url))).toBe(false);
    let error: unknown;
    try {
      checkPublicHost(new URL(url), 'images[0]', PUBLIC_MEDIA_URLS);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_request', param: 'images[0]' });
  });

  it('takes any host when the operator allows private addresses', () => {
    const open = mediaUrlPolicy({ MEDIA_FETCH_ALLOW_PRIVATE: true });
    expect(() => checkPublicHost(new URL('http://127.0.0.1/a.png'), 'images[0]', open)).not.toThrow();
    expect(mediaUrlPolicy({ MEDIA_FETCH_ALLOW_PRIVATE: false })).toEqual(PUBLIC_MEDIA_URLS);
  });
});
