import { CHANNEL, draft, newFakes, principal } from '../../../test/fakes';
import { GatewayError } from '../../platform/errors';
import { UpstreamChannel } from '../../upstream/upstream.types';

const SECOND: UpstreamChannel = { id: 'ax-second', family: 'ax', baseUrl: 'http://second.test', apiKey: 'k2' };

describe('TaskEngine.create: the draft’s channel', () => {
  it('without a channel, the family’s usual pick', async () => {
    const f = newFakes();
    f.upstreams.channels.push(SECOND);
    const task = await f.engine.create(principal(), draft());
    expect(task.channelId).toBe(CHANNEL.id);
  });

  it('with a channel, the task is created and sent there, not to the usual pick', async () => {
    const f = newFakes();
    f.upstreams.channels.push(SECOND);
    const sentTo: string[] = [];
    const submit = f.client.submit.bind(f.client);
    f.client.submit = (channel, ...rest) => {
      sentTo.push(channel.id);
      return submit(channel, ...rest);
    };
    const task = await f.engine.create(principal(), draft({ channelId: SECOND.id }));
    expect(task).toMatchObject({ phase: 'active', channelId: SECOND.id });
    expect(f.tasks.row(task.id).channelId).toBe(SECOND.id);
    expect(sentTo).toEqual([SECOND.id]);
  });

  it.each([
    ['no longer configured', 'ax-gone'],
    ['of another family', 'kl-elsewhere'],
  ])('a channel %s: 503, nothing held, no slot taken, nothing sent', async (_name, channelId) => {
    const f = newFakes();
    f.upstreams.channels.push({
      id: 'kl-elsewhere',
      family: 'kl',
      baseUrl: 'http://kl.test',
      accessKey: 'a',
      secretKey: 's',
    });
    const error = await f.engine.create(principal(), draft({ channelId })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(503);
    expect(f.tasks.rows.size).toBe(0);
    expect(f.client.submits).toHaveLength(0);
    expect(f.account()).toEqual({ balance: 1000, held: 0, inFlightTasks: 0 });
  });
});
