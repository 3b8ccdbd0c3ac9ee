import type { IncomingMessage } from 'http';
import { CONTEXT } from '../http/request-context';
import { NO_LABEL, noteRequestSubject, requestLabels } from './request-labels';

const request = (fields: Record<string | symbol, unknown>) => fields as unknown as IncomingMessage;
const principal = { account: { id: 'acct_1' } };

describe('requestLabels', () => {
  it('takes the family and model the task layer noted for the request', () => {
    const context = { requestId: 'r', startedAt: 0n };
    noteRequestSubject(context, 'kl', 'kling-v2');
    expect(requestLabels(request({ [CONTEXT]: context, principal, route: { path: '/v1/videos' } }))).toEqual({
      family: 'kl',
      model: 'kling-v2',
      accountId: 'acct_1',
    });
  });

  it("otherwise reads a client route's family from its first segment, with no model", () => {
    const context = { requestId: 'r', startedAt: 0n };
    expect(requestLabels(request({ [CONTEXT]: context, principal, route: { path: '/vd/ent/v2/tasks/:id' } }))).toEqual({
      family: 'vd',
      model: NO_LABEL,
      accountId: 'acct_1',
    });
  });

  it('labels no family for requests without a client key (admin, health, unmatched)', () => {
    expect(requestLabels(request({ route: { path: '/admin/v1/accounts' } }))).toEqual({
      family: NO_LABEL,
      model: NO_LABEL,
      accountId: undefined,
    });
    expect(requestLabels(request({ principal }))).toMatchObject({ family: NO_LABEL });
  });
});
