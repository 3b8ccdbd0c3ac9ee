import {
  UpstreamChannel,
  UpstreamCredentialsRefusedError,
  UpstreamOutcomeUnknownError,
  UpstreamRejectedError,
  UpstreamUnavailableError,
} from '../upstream.types';
import { upstreamFailureFields } from './upstream-failure';

const channel = { id: 'kl-main', family: 'kl', apiKey: 'sk-secret-123', baseUrl: 'http://x' } as UpstreamChannel;

describe('upstreamFailureFields', () => {
  it('a refusal: family, channel, HTTP status, the upstream code and its message with credentials masked', () => {
    const error = new UpstreamRejectedError(429, 1302, 'too fast for key sk-secret-123');
    expect(upstreamFailureFields(error, channel)).toEqual({
      family: 'kl',
      channel: 'kl-main',
      status: 429,
      code: 1302,
      message: 'too fast for key ***',
      outcome: 'rejected',
    });
  });

  it("the channel's credentials refused: its status and the vendor's code, told apart from a refusal of the request", () => {
    const error = new UpstreamCredentialsRefusedError('refused its credentials: bad key sk-secret-123', 401, 1000);
    expect(upstreamFailureFields(error, channel)).toMatchObject({
      status: 401,
      code: 1000,
      message: 'refused its credentials: bad key ***',
      outcome: 'credentials_refused',
    });
  });

  it('no answer, or a 5xx: the status when one came, no code', () => {
    expect(upstreamFailureFields(new UpstreamUnavailableError('answered HTTP 502', 502), channel)).toMatchObject({
      status: 502,
      code: null,
      outcome: 'unavailable',
    });
    expect(upstreamFailureFields(new UpstreamOutcomeUnknownError('timed out'), channel)).toMatchObject({
      status: null,
      outcome: 'unknown',
    });
  });
});
