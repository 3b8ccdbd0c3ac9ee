import { UpstreamRejectedError } from '../../upstream/upstream.types';
import { upstreamRejection } from './upstream-rejection';

describe('upstreamRejection', () => {
  const refusal = new UpstreamRejectedError(400, 'InvalidParameter', 'prompt is too long');

  it("is the client's 400 carrying the upstream's own code and message", () => {
    const error = upstreamRejection(refusal);
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_request',
      param: null,
      message: 'The upstream rejected the request: prompt is too long',
      options: { native: { code: 'InvalidParameter', message: 'prompt is too long' } },
    });
  });

  it('names the refused thing and the field when the caller knows them', () => {
    expect(upstreamRejection(refusal, 'deletion', 'voice_id')).toMatchObject({
      param: 'voice_id',
      message: 'The upstream rejected the deletion: prompt is too long',
    });
  });
});

describe('upstreamRejection: upstream throttling', () => {
  it.each([
    [1302, 'API request too fast, exceeded rate limit'],
    ['Throttling.RateQuota', 'Requests rate limit exceeded, please try again later.'],
    [429, 'too many requests'],
  ])('%s is 429 with Retry-After and the native code, not 400', (code, message) => {
    const error = upstreamRejection(new UpstreamRejectedError(429, code, message));
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
      options: { native: { code, message }, headers: { 'Retry-After': '5' } },
    });
  });
});
