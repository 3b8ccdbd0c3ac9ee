import { simulatorChannels } from '../../src/bootstrap/resolve-channels';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator';
import { Harness, TestAccount, startGateway } from '../support/gateway-harness';
import { captureGatewayLogs } from '../support/log-capture';
import { FAST_ENV, bearer, createAxTask, eventually } from '../support/simulated-gateway';
import { SwitchableUpstream, startSwitchableUpstream } from '../support/switchable-upstream';

const INIT_SELECTION = '/kl/v1/videos/multi-elements/init-selection';
/** What a proxy in front of an upstream answers when the upstream is not there. */
const HTML_PAGE = '<html><body>502 Bad Gateway</body></html>';

/**
 * One WARN line for each upstream call that failed or whose answer the gateway could not read, as
 * for task creates: family, channel, what the upstream said (never its body), and the request or
 * task it was for. The upstreams are doors in front of the simulator that answer what a test says.
 */
describe('WARN lines of failed and unreadable upstream answers', () => {
  let sim: RunningSimulator;
  let klDoor: SwitchableUpstream;
  let axDoor: SwitchableUpstream;
  let gw: Harness;
  let acct: TestAccount;
  let logs: ReturnType<typeof captureGatewayLogs>;

  beforeAll(async () => {
    logs = captureGatewayLogs();
    sim = await startSimulator({ taskMs: 150 });
    klDoor = await startSwitchableUpstream(sim.endpoints.kl.baseUrl);
    axDoor = await startSwitchableUpstream(sim.endpoints.ax.baseUrl);
    const [kl, ax] = [simulatorChannels(sim, ['kl'])[0], simulatorChannels(sim, ['ax'])[0]];
    gw = await startGateway({
      channels: [
        { ...kl, baseUrl: klDoor.baseUrl },
        { ...ax, baseUrl: axDoor.baseUrl },
      ],
      env: { ...FAST_ENV, LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
    });
    // Nest holds its Logger's lines back until the app listens, which the harness never asks of it.
    gw.app.flushLogs();
    acct = await gw.admin.account({ models: ['kl-v1', 'wx2.7-r2v'] });
  });
  afterAll(async () => {
    await gw?.close();
    await klDoor?.close();
    await axDoor?.close();
    await sim?.close();
    logs.restore();
  });
  afterEach(() => {
    klDoor.mode = 'proxy';
    axDoor.mode = 'proxy';
    delete klDoor.answer.text;
    delete axDoor.answer.text;
  });

  const warnings = (msg: string) => logs.lines().filter((l) => l.level === 40 && l.msg === msg);
  const initSelection = () =>
    gw
      .http()
      .post(INIT_SELECTION)
      .set(...bearer(acct))
      .send({ video_url: 'https://example.com/clip.mp4' });

  it('a failed session call: one WARN line with the channel, the status, the operation and the request', async () => {
    klDoor.mode = '503';
    const res = await initSelection().expect(503);
    const lines = warnings('upstream session call failed');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      context: 'KlSessions',
      family: 'kl',
      channel: 'kl-default',
      status: 503,
      outcome: 'unavailable',
      operation: '/v1/videos/multi-elements/init-selection',
      req: { id: res.headers['x-request-id'] },
    });
    // A refusal is a failed call too, with the upstream's code.
    klDoor.mode = 'answer';
    klDoor.answer = { status: 400, body: { code: 1201, message: 'video too long', request_id: 'r', data: null } };
    await initSelection().expect(400);
    expect(warnings('upstream session call failed')[1]).toMatchObject({ status: 400, code: 1201, outcome: 'rejected' });
  });

  it('a session answer that is not an envelope, or whose data is not an object: 503 and one WARN line each', async () => {
    const before = warnings('upstream session call failed').length;
    klDoor.mode = 'answer';
    klDoor.answer = { status: 200, body: null, text: HTML_PAGE };
    await initSelection().expect(503);
    klDoor.answer = { status: 200, body: { code: 0, message: 'SUCCEED', request_id: 'r', data: null } };
    await initSelection().expect(503);
    const lines = warnings('upstream session call failed').slice(before);
    expect(lines).toHaveLength(2);
    expect(lines[0].message).toMatch(/without a kl envelope/);
    expect(lines[1].message).toMatch(/without a data object/);
    expect(JSON.stringify(lines)).not.toContain('Bad Gateway');
  });

  it('a task query answered with something that is not a task: the task is polled on, with a WARN line', async () => {
    const taskId = await createAxTask(gw, acct);
    axDoor.mode = 'answer';
    axDoor.answer = { status: 200, body: null, text: HTML_PAGE };
    const [line] = await eventually(async () => {
      const found = warnings('upstream task answer not understood; will poll again');
      return found.length > 0 ? found : null;
    });
    expect(line).toMatchObject({
      context: 'TaskSync',
      family: 'ax',
      channel: 'ax-default',
      taskId,
      nativeStatus: '',
      answer: `text, not JSON (${HTML_PAGE.length} characters)`,
    });
    expect(JSON.stringify(line)).not.toContain('Bad Gateway');
    // Once the upstream answers again, the task ends as usual.
    axDoor.mode = 'proxy';
    await eventually(async () => {
      const q = await gw
        .http()
        .get(`/ax/api/v1/tasks/${taskId}`)
        .set(...bearer(acct));
      return q.body.output?.task_status === 'SUCCEEDED';
    });
  });

  it('a preset voice list that is not a list: an empty page and a WARN line', async () => {
    klDoor.mode = 'answer';
    klDoor.answer = { status: 200, body: { code: 0, message: 'SUCCEED', request_id: 'r', data: { voices: 'soon' } } };
    const res = await gw
      .http()
      .get('/kl/v1/general/presets-voices?pageNum=7&pageSize=3')
      .set(...bearer(acct))
      .expect(200);
    expect(res.body.data).toEqual([]);
    expect(warnings('upstream preset voices answer not understood; none listed')).toEqual([
      expect.objectContaining({
        family: 'kl',
        channel: 'kl-default',
        answer: 'a JSON object',
        req: { id: res.headers['x-request-id'] },
      }),
    ]);
  });
});
