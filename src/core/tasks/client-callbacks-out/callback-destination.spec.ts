import { assertCallbackUrlAllowed } from './callback-destination';

describe('assertCallbackUrlAllowed', () => {
  it.each(['https://hooks.example.com/x', 'http://93.184.215.14:8080/cb', 'http://[2606:4700::1111]/cb'])(
    'accepts public %s',
    (url) => {
      expect(() => assertCallbackUrlAllowed(url, false)).not.toThrow();
    },
  );

  it.each([
    'http://127.0.0.1/cb',
    'http://localhost:3000/cb',
    'http://10.1.2.3/cb',
    'http://172.16.0.1/cb',
    'http://192.168.1.1/cb',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/cb',
    'http://[fd00::1]/cb',
    'http://metadata.google.internal/',
    'http://LOCALHOST./cb',
    'http://metadata.google.internal../',
    // IP literals in the other ranges the delivery agent refuses
    'http://198.18.0.1/cb',
    'http://203.0.113.9:8080/cb',
    'http://224.0.0.1/cb',
    'http://255.255.255.255/cb',
    'http://192.0.0.8/cb',
    'http://0.0.0.0/cb',
    'http://2130706433/cb',
    'http://[::]/cb',
    'http://[::ffff:7f00:1]/cb',
    'http://[64:ff9b::a00:1]/cb',
    'http://[2001:db8::1]/cb',
    'http://[ff02::1]/cb',
    'http://[fe80::1]/cb',
  ])('refuses private %s unless allowed', (url) => {
    expect(() => assertCallbackUrlAllowed(url, false)).toThrow(
      expect.objectContaining({ status: 400, param: 'callback_url' }),
    );
    expect(() => assertCallbackUrlAllowed(url, true)).not.toThrow();
  });

  it('says how an operator allows a private destination', () => {
    expect(() => assertCallbackUrlAllowed('http://127.0.0.1:9000/cb', false)).toThrow(/CALLBACK_ALLOW_PRIVATE=true/);
  });

  it.each(['ftp://example.com/x', 'not a url', 'https://user:pw@example.com/'])('refuses malformed %s', (url) => {
    expect(() => assertCallbackUrlAllowed(url, true)).toThrow(expect.objectContaining({ param: 'callback_url' }));
  });
});
