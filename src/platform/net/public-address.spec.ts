import { Agent } from 'http';
import { RequestFilteringHttpAgent } from 'request-filtering-agent';
import { isPublicAddress } from './public-address';

describe('isPublicAddress', () => {
  const refused = [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '198.18.0.1',
    '203.0.113.9',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    '::ffff:7f00:1',
    '64:ff9b::a00:1',
    '2001:db8::1',
    'fc00::1',
    'fe80::1',
    'ff02::1',
  ];

  it.each(refused)('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.4.4', '2606:4700::1111'])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(['', 'example.com', '127.1', '[::1]', '1.2.3.4.5'])('%j is no IP literal, so not public', (value) => {
    expect(isPublicAddress(value)).toBe(false);
  });

  // Contract: every address called non-public here is one the delivery agent refuses before it connects.
  it.each(refused)('the delivery agent refuses %s too', (address) => {
    // Were the agent to let it through, the test fails here instead of opening a connection.
    const connect = jest.spyOn(Agent.prototype, 'createConnection' as never).mockImplementation((() => {
      throw new Error('the agent let it through');
    }) as never);
    const agent = new RequestFilteringHttpAgent();
    try {
      expect(() => agent.createConnection({ host: address, port: 9 })).toThrow(/is not allowed/);
    } finally {
      agent.destroy();
      connect.mockRestore();
    }
  });
});
