import { redactRequest } from './request-redaction';

describe('redactRequest', () => {
  it('masks credential fields at any depth and the callback token inside any string', () => {
    const snapshot = {
      model: 'vdq3',
      api_key: 'sk-live',
      nested: [{ accessKey: 'AK', Authorization: 'Bearer x', prompt: 'a cat' }],
      callback_url: 'https://gw.example/callbacks/upstream/vd/tok_123?x=1',
      count: 3,
      none: null,
    };
    expect(redactRequest(snapshot, 'tok_123')).toEqual({
      model: 'vdq3',
      api_key: '***',
      nested: [{ accessKey: '***', Authorization: '***', prompt: 'a cat' }],
      callback_url: 'https://gw.example/callbacks/upstream/vd/***?x=1',
      count: 3,
      none: null,
    });
  });

  it('leaves strings alone when the task has no callback token', () => {
    expect(redactRequest({ prompt: 'tok_123' }, null)).toEqual({ prompt: 'tok_123' });
  });
});
