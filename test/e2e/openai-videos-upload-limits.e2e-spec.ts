import { TestAccount } from '../support/gateway-harness';
import { SimulatedGateway, bearer, startSimulatedGateway } from '../support/simulated-gateway';

/**
 * A multipart `POST /v1/videos` over one of its limits is 413 `request_too_large`, as any body over
 * its limit, saying which limit and naming the field where there is one; a file in another field
 * than `input_reference` is 400 naming that field.
 */
describe('/v1/videos multipart limits', () => {
  let gw: SimulatedGateway;
  let acct: TestAccount;

  beforeAll(async () => {
    gw = await startSimulatedGateway({ taskMs: 100 });
    acct = await gw.admin.account({ models: ['vdq3'] });
  });
  afterAll(() => gw.close());

  const create = () =>
    gw
      .http()
      .post('/v1/videos')
      .set(...bearer(acct))
      .field('model', 'vdq3');

  const tooLarge = (message: string, param: string | null) => ({
    status: 413,
    body: { error: { message, type: 'invalid_request_error', param, code: 'request_too_large' } },
  });
  const answer = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });

  it('more than 64 fields', async () => {
    let req = create();
    for (let i = 0; i < 64; i++) req = req.field(`parameters[x${i}]`, '1');
    expect(answer(await req)).toEqual(tooLarge('A multipart create may carry at most 64 fields.', null));
  });

  it("a field's value over 1 MiB, naming the field", async () => {
    const res = await create().field('prompt', 'a'.repeat(1024 * 1024 + 1));
    expect(answer(res)).toEqual(tooLarge("A form field's value may be at most 1 MiB.", 'prompt'));
  });

  it("a field's name over 100 bytes", async () => {
    const res = await create().field('x'.repeat(101), '1');
    expect(answer(res)).toEqual(tooLarge("A form field's name may be at most 100 bytes.", null));
  });

  it('an uploaded file over 20 MiB, naming its field', async () => {
    const res = await create().attach('input_reference', Buffer.alloc(20 * 1024 * 1024 + 1), {
      filename: 'ref.png',
      contentType: 'image/png',
    });
    expect(answer(res)).toEqual(tooLarge('An uploaded file may be at most 20 MiB.', 'input_reference'));
  });

  it('a file in another field is 400 naming it; a second input_reference file is 400 naming input_reference', async () => {
    const other = await create().attach('other', Buffer.from('x'), 'x.png');
    expect(answer(other)).toEqual({
      status: 400,
      body: {
        error: {
          message: 'Only input_reference may be a file; got a file in other.',
          type: 'invalid_request_error',
          param: 'other',
          code: 'invalid_request',
        },
      },
    });
    const second = await create()
      .attach('input_reference', Buffer.from('x'), 'a.png')
      .attach('input_reference', Buffer.from('y'), 'b.png');
    expect(second.status).toBe(400);
    expect(second.body.error).toMatchObject({ code: 'invalid_request', param: 'input_reference' });
  });
});
