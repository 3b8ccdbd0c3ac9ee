import { AX_ERRORS } from '../ax/ax.errors';
import { KL_ERRORS } from '../kl/kl.errors';
import { VD_ERRORS } from '../vd/vd.errors';
import { GatewayError } from '../../platform/errors';
import { nativeCodeAndMessage } from './native-error';

const TABLE = { byStatus: { 400: 'Bad', 500: 'Internal' }, modelNotFound: 'NoModel', resourceNotFound: 'NoThing' };
const rejected = GatewayError.invalid('The upstream rejected the request: nope', null, {
  native: { code: 'Upstream.Code', message: 'nope' },
});

describe('nativeCodeAndMessage', () => {
  it("an upstream refusal keeps the upstream's own code and message", () => {
    expect(nativeCodeAndMessage(rejected, TABLE, String)).toEqual({ code: 'Upstream.Code', message: 'nope' });
  });

  it("otherwise the family's code for the status and the gateway's message", () => {
    expect(nativeCodeAndMessage(GatewayError.invalid('bad', 'x'), TABLE, String)).toEqual({
      code: 'Bad',
      message: 'bad',
    });
    expect(nativeCodeAndMessage(GatewayError.modelNotFound('m', 'model'), TABLE, String).code).toBe('NoModel');
  });

  it('an upstream code the family cannot read falls back to the table, the message stays the upstream one', () => {
    expect(nativeCodeAndMessage(rejected, TABLE, () => undefined)).toEqual({ code: 'Bad', message: 'nope' });
  });
});

describe('family error dialects', () => {
  it('each family shapes the same refusal in its own fields', () => {
    expect(AX_ERRORS.nativeFields(rejected, 'r1')).toEqual({
      code: 'Upstream.Code',
      message: 'nope',
      request_id: 'r1',
    });
    expect(VD_ERRORS.nativeFields(rejected, 'r1')).toEqual({
      code: 400,
      reason: 'Upstream.Code',
      message: 'nope',
      metadata: { trace_id: 'r1' },
    });
    // kl envelope codes are integers: a word from the upstream gives way to the table's 1201.
    expect(KL_ERRORS.nativeFields(rejected, 'r1')).toEqual({
      code: 1201,
      message: 'nope',
      request_id: 'r1',
      data: null,
    });
    const numeric = GatewayError.invalid('x', null, { native: { code: '1304', message: 'n' } });
    expect(KL_ERRORS.nativeFields(numeric, 'r1')).toMatchObject({ code: 1304, message: 'n' });
  });
});
