import { ExecutionContext, HttpCode, Post } from '@nestjs/common';
import { HTTP_CODE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { IdempotencyKeyTakenError, IdempotencyService, IdempotencyStart } from '../../core/tasks/idempotency.service';
import { TaskFamilies } from '../../core/tasks/task-families';
import { GatewayError } from '../../platform/errors';
import { Ctx } from '../../platform/http/ctx.decorator';
import { CONTEXT, RequestContext } from '../../platform/http/request-context';
import { routeGuards } from '../../platform/internals/nest-internals';
import { IdempotencyGuard, Idempotent } from './idempotency.guard';

class Controller {
  calls = 0;

  @Post('create')
  @HttpCode(200)
  @Idempotent()
  async create(@Ctx() _ctx: RequestContext, body: { prompt: string }): Promise<{ id: string }> {
    this.calls++;
    if (body.prompt === 'taken') throw new IdempotencyKeyTakenError();
    return { id: `task-${this.calls}` };
  }
}

function fakeService(starts: IdempotencyStart[]) {
  const begin = jest.fn(async () => starts.shift() ?? { kind: 'proceed' as const });
  const complete = jest.fn(async () => undefined);
  return { service: { begin, complete } as unknown as IdempotencyService, begin, complete };
}

function exchange(ctx: RequestContext, key?: string) {
  const headers: Record<string, string> = {};
  const res = {
    statusCode: 200,
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value),
    getHeader: (name: string) => headers[name.toLowerCase()],
    status(code: number) {
      this.statusCode = code;
      return this;
    },
  };
  const req = {
    method: 'POST',
    path: '/create',
    body: { prompt: 'x' },
    headers: key === undefined ? {} : { 'idempotency-key': key },
    principal: { account: { id: 'acct_1' } },
    [CONTEXT]: ctx,
  };
  return { req, res, headers };
}

/** Runs the guard then the handler as Nest would, the handler given the request's context. */
async function call(guard: IdempotencyGuard, controller: Controller, key: string | undefined, prompt = 'x') {
  const ctx: RequestContext = { requestId: 'req-1', startedAt: 0n };
  const { req, res, headers } = exchange(ctx, key);
  const context = {
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
    getHandler: () => Controller.prototype.create,
  } as unknown as ExecutionContext;
  expect(guard.canActivate(context)).toBe(true);
  const result = await controller.create(ctx, { prompt });
  return { result, res, headers, seen: ctx.idempotency };
}

describe('Idempotent (guard and wrapped handler)', () => {
  const families = {
    presentCreated: () => ({ body: { id: 'from-task' }, headers: { deprecation: 'true' } }),
  } as unknown as TaskFamilies;

  it('keeps the route metadata on the handler Nest calls, with the guard', () => {
    expect(Reflect.getMetadata(PATH_METADATA, Controller.prototype.create)).toBe('create');
    expect(Reflect.getMetadata(HTTP_CODE_METADATA, Controller.prototype.create)).toBe(200);
    expect(routeGuards(Controller, Controller.prototype.create)).toEqual([IdempotencyGuard]);
    expect(Controller.prototype.create.name).toBe('create');
  });

  it('refuses, when the class is defined, a handler that does not take the request context (a key would go unseen)', () => {
    expect(() => {
      class Careless {
        @Post('create')
        @Idempotent()
        async create(body: unknown): Promise<unknown> {
          return body;
        }
      }
      return Careless;
    }).toThrow('@Idempotent() handler Careless.create must take @Ctx()');
  });

  it('without the header: the handler runs as it is, the store is never asked', async () => {
    const { service, begin } = fakeService([]);
    const controller = new Controller();
    const { result, seen } = await call(new IdempotencyGuard(service, families), controller, undefined);
    expect(result).toEqual({ id: 'task-1' });
    expect(begin).not.toHaveBeenCalled();
    expect(seen).toBeUndefined();
  });

  it('with a new key: runs the handler with the claim in the context, then stores its answer', async () => {
    const { service, begin, complete } = fakeService([{ kind: 'proceed' }]);
    const { result, seen } = await call(new IdempotencyGuard(service, families), new Controller(), 'k-1');
    expect(result).toEqual({ id: 'task-1' });
    expect(begin).toHaveBeenCalledWith(
      'acct_1',
      'k-1',
      IdempotencyService.fingerprint('POST', '/create', { prompt: 'x' }),
    );
    expect(seen).toEqual({ key: 'k-1', requestHash: expect.any(String) });
    expect(complete).toHaveBeenCalledWith('acct_1', 'k-1', { status: 200, body: { id: 'task-1' }, headers: {} });
  });

  it('replays a stored answer, or the created answer rebuilt from the task, without running the handler', async () => {
    const { service, complete } = fakeService([
      { kind: 'replay', status: 200, body: { id: 'stored' }, headers: { location: '/x' } },
      { kind: 'task', task: {} as never },
    ]);
    const guard = new IdempotencyGuard(service, families);
    const controller = new Controller();
    const replay = await call(guard, controller, 'k-2');
    expect(replay.result).toEqual({ id: 'stored' });
    expect(replay.headers).toEqual({ location: '/x', 'idempotent-replayed': 'true' });
    const rebuilt = await call(guard, controller, 'k-2');
    expect(rebuilt.result).toEqual({ id: 'from-task' });
    expect(rebuilt.headers).toEqual({ deprecation: 'true', 'idempotent-replayed': 'true' });
    expect(complete).toHaveBeenCalledWith('acct_1', 'k-2', {
      status: 200,
      body: { id: 'from-task' },
      headers: { deprecation: 'true' },
    });
    expect(controller.calls).toBe(0);
  });

  it('another request tied the key first: answered as a retry (409 while that one is in flight)', async () => {
    const answered = fakeService([
      { kind: 'proceed' },
      { kind: 'replay', status: 200, body: { id: 'theirs' }, headers: {} },
    ]);
    expect(
      (await call(new IdempotencyGuard(answered.service, families), new Controller(), 'k-3', 'taken')).result,
    ).toEqual({ id: 'theirs' });
    const pending = fakeService([{ kind: 'proceed' }, { kind: 'proceed' }]);
    await expect(
      call(new IdempotencyGuard(pending.service, families), new Controller(), 'k-3', 'taken'),
    ).rejects.toMatchObject({ status: 409, code: 'idempotency_in_progress' });
  });

  it('refuses an empty or over-long key', async () => {
    const { service } = fakeService([]);
    for (const key of ['', 'k'.repeat(256)]) {
      await expect(call(new IdempotencyGuard(service, families), new Controller(), key)).rejects.toBeInstanceOf(
        GatewayError,
      );
    }
  });
});
