import { toCreateBody } from './create-body';

const channel = { id: 'c', family: 'vd', baseUrl: 'http://x', modelMap: { vdq3: 'viduq3' } };

describe('toCreateBody', () => {
  it("maps the model and puts the gateway's own fields in place of the caller's, in their order", () => {
    const body = { model: 'vdq3', external_task_id: 'own', prompt: 'p', callback_url: 'https://client.example/cb' };
    const wire = toCreateBody(body, channel, { callback_url: 'https://gw.example/cb', external_task_id: 'pub-1' });
    expect(wire).toEqual({
      model: 'viduq3',
      prompt: 'p',
      callback_url: 'https://gw.example/cb',
      external_task_id: 'pub-1',
    });
    expect(Object.keys(wire)).toEqual(['model', 'prompt', 'callback_url', 'external_task_id']);
    expect(body).toMatchObject({ model: 'vdq3', callback_url: 'https://client.example/cb' });
  });

  it('drops a caller’s field the gateway has no value for', () => {
    const body = { model: 'vdq1', callback_url: 'https://client.example/cb', external_task_id: 'own' };
    expect(toCreateBody(body, channel, { callback_url: undefined, external_task_id: '' })).toEqual({ model: 'vdq1' });
  });
});
