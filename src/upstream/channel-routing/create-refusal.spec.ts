import {
  UpstreamCredentialsRefusedError,
  UpstreamOutcomeUnknownError,
  UpstreamRejectedError,
  UpstreamUnavailableError,
} from '../upstream.types';
import { UPSTREAM_VENDORS, vendorOf } from '../vendors';
import { classifyCreateFailure } from './create-refusal';

describe('classifyCreateFailure', () => {
  it('a fault before the upstream took the create (503, refused connection, open breaker) may go elsewhere', () => {
    expect(classifyCreateFailure(new UpstreamUnavailableError('answered HTTP 503', 503), undefined)).toBe('refused');
    expect(classifyCreateFailure(new UpstreamUnavailableError('could not connect (ECONNREFUSED)'), undefined)).toBe(
      'refused',
    );
  });

  it('an unknown outcome never goes elsewhere', () => {
    expect(classifyCreateFailure(new UpstreamOutcomeUnknownError('sent, no answer'), undefined)).toBe('final');
    expect(classifyCreateFailure(new Error('bug'), undefined)).toBe('final');
  });

  it('a throttle (429) may go elsewhere; another 4xx is the answer', () => {
    expect(classifyCreateFailure(new UpstreamRejectedError(429, 'Throttling.RateQuota', 'slow'), undefined)).toBe(
      'refused',
    );
    expect(classifyCreateFailure(new UpstreamRejectedError(400, 'InvalidParameter', 'bad'), undefined)).toBe('final');
  });

  it.each([
    ['kl', 429, 1102],
    ['kl', 429, 1101],
    ['ax', 400, 'Arrearage'],
    ['vd', 403, 'CreditInsufficient'],
  ])('%s: the vendor’s own out-of-balance code (HTTP %s, %s)', (family, status, code) => {
    const vendor = vendorOf(family, UPSTREAM_VENDORS);
    expect(classifyCreateFailure(new UpstreamRejectedError(status, code, 'no balance'), vendor)).toBe('out-of-balance');
    expect(classifyCreateFailure(new UpstreamRejectedError(400, 'InvalidParameter', 'no'), vendor)).toBe('final');
  });

  it("the channel's own credential refused: another channel may be tried", () => {
    const refused = new UpstreamCredentialsRefusedError('refused its credentials', 401, 'InvalidApiKey');
    expect(classifyCreateFailure(refused, vendorOf('ax', UPSTREAM_VENDORS))).toBe('credentials-refused');
  });
});
