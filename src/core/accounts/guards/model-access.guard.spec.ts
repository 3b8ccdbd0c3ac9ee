import { Controller, ExecutionContext, Get, Post } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GatewayError } from '../../../platform/errors';
import { Capability } from '../../models/model-catalogue';
import { Principal } from '../principal';
import { AuthenticatedRequest } from './authenticated-request';
import { FAMILY_REGISTRY } from '../../../../test/support/families';
import { klModelSelection } from '../../../families/kl/kl-model-selection';
import {
  CapabilityRequirement,
  ModelAccessGuard,
  ModelSelection,
  RequiresCapability,
  modelFromBody,
} from './model-access.guard';

function principal(grants: Record<string, Capability[]>, keyModels: string[] | null = null): Principal {
  return {
    account: { id: 'acct_1', name: 'a', rateLimitRpm: null, maxConcurrentTasks: null },
    apiKey: { id: 'key_1', prefix: 'vgw_x', models: keyModels },
    grants: new Map(Object.entries(grants)),
  };
}

function run(selection: ModelSelection, capability: Capability, body: unknown, who: Principal): AuthenticatedRequest {
  const req = { body, principal: who } as AuthenticatedRequest;
  const reflector = {
    getAllAndOverride: () => ({ capability, selection }) as CapabilityRequirement,
  } as unknown as Reflector;
  const context = {
    getHandler: () => null,
    getClass: () => null,
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
  new ModelAccessGuard(reflector, FAMILY_REGISTRY).canActivate(context);
  return req;
}

function errorOf(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (e) {
    return e as GatewayError;
  }
  throw new Error('expected an error');
}

const ALL_KL: Capability[] = ['editing.selection', 'editing.task', 'voices'];

describe('ModelAccessGuard: kl model rule (model_name, then model, then kl-v1)', () => {
  const both = principal({ 'kl-v1': ALL_KL, 'kl-v1-6': ALL_KL });

  it('reads model_name first', () => {
    expect(run(klModelSelection, 'voices', { model_name: 'kl-v1-6', model: 'kl-v1' }, both).selectedModel?.name).toBe(
      'kl-v1-6',
    );
  });

  it('falls back to model when model_name is absent', () => {
    expect(run(klModelSelection, 'voices', { model: 'kl-v1-6' }, both).selectedModel?.name).toBe('kl-v1-6');
  });

  it('uses kl-v1 when both are absent, and that default must be enabled too', () => {
    expect(run(klModelSelection, 'voices', {}, both).selectedModel?.name).toBe('kl-v1');
    const only16 = principal({ 'kl-v1-6': ALL_KL });
    expect(errorOf(() => run(klModelSelection, 'voices', {}, only16))).toMatchObject({
      status: 404,
      code: 'model_not_found',
      param: 'model_name',
    });
  });

  it('checks the capability even when the endpoint lists no model field', () => {
    const voicesOnly = principal({ 'kl-v1': ['voices'] });
    expect(errorOf(() => run(klModelSelection, 'editing.selection', {}, voicesOnly))).toMatchObject({
      status: 403,
      code: 'permission_denied',
    });
  });

  it('names the field that carried an unknown model', () => {
    expect(errorOf(() => run(klModelSelection, 'voices', { model: 'kl-v9' }, both))).toMatchObject({
      status: 404,
      code: 'model_not_found',
      param: 'model',
    });
    expect(errorOf(() => run(klModelSelection, 'voices', { model_name: 7 }, both))).toMatchObject({
      status: 400,
      code: 'invalid_request',
      param: 'model_name',
    });
  });
});

describe('ModelAccessGuard: body model and routes without a model', () => {
  it('403 when the key is restricted away from an enabled model', () => {
    const who = principal({ vdq3: ['reference2video'], vdq2: ['reference2video'] }, ['vdq2']);
    expect(errorOf(() => run(modelFromBody, 'reference2video', { model: 'vdq3' }, who))).toMatchObject({
      status: 403,
      code: 'permission_denied',
      param: 'model',
    });
    expect(run(modelFromBody, 'reference2video', { model: 'vdq2' }, who).selectedModel?.family).toBe('vd');
  });

  it('a body that is not a JSON object is said to be so, not to lack its model', () => {
    const who = principal({ vdq3: ['reference2video'] });
    for (const body of [null, [], [{ model: 'vdq3' }], 'vdq3', 5]) {
      expect(errorOf(() => run(modelFromBody, 'reference2video', body, who))).toMatchObject({
        status: 400,
        param: null,
        message: 'The request body must be a JSON object.',
      });
    }
    expect(errorOf(() => run(modelFromBody, 'reference2video', {}, who))).toMatchObject({ param: 'model' });
  });

  it('routes without a model need some usable model with the capability', () => {
    expect(() => run('none', 'voices', {}, principal({ 'kl-v1': ['voices'] }))).not.toThrow();
    expect(errorOf(() => run('none', 'voices', {}, principal({ vdq3: ['reference2video'] })))).toMatchObject({
      status: 403,
    });
    expect(errorOf(() => run('none', 'voices', {}, principal({ 'kl-v1': ['voices'] }, ['vdq3'])))).toMatchObject({
      status: 403,
    });
  });
});

describe('ModelAccessGuard: one rule for reads, messages that say what to do', () => {
  @Controller('ax/api/v1')
  class AxLike {
    @Post('tasks')
    @RequiresCapability('reference2video', modelFromBody)
    create(): void {}
    @Get('tasks/:id')
    @RequiresCapability('reference2video', 'none')
    get(): void {}
  }
  @Controller('vd/ent/v2')
  class VdLike {
    @Post('reference2video')
    @RequiresCapability('reference2video', modelFromBody)
    create(): void {}
    @Get('tasks/:id')
    @RequiresCapability('reference2video', 'none')
    get(): void {}
  }
  @Controller('kl/v1/videos/multi-elements')
  class KlLike {
    @Get()
    @RequiresCapability('editing.task', 'none')
    list(): void {}
  }

  function on(controller: { prototype: object }, method: string, body: unknown, who: Principal): AuthenticatedRequest {
    const req = { body, principal: who } as AuthenticatedRequest;
    const handler = (controller.prototype as Record<string, unknown>)[method];
    const context = {
      getHandler: () => handler,
      getClass: () => controller,
      switchToHttp: () => ({ getRequest: () => req }),
    } as unknown as ExecutionContext;
    new ModelAccessGuard(new Reflector(), FAMILY_REGISTRY).canActivate(context);
    return req;
  }

  const vdOnly = principal({ vdq3: ['reference2video'] });

  it('a read needs a usable model of the route’s own family: vd only reads neither kl nor ax', () => {
    expect(() => on(VdLike, 'get', {}, vdOnly)).not.toThrow();
    expect(errorOf(() => on(AxLike, 'get', {}, vdOnly))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(errorOf(() => on(KlLike, 'list', {}, vdOnly))).toMatchObject({ status: 403, code: 'permission_denied' });
  });

  it('an unknown model suggests the closest name the key may use', () => {
    const error = errorOf(() => on(VdLike, 'create', { model: 'vdq-3' }, vdOnly));
    expect(error).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    expect(error.message).toContain("Did you mean 'vdq3'?");
  });

  it('a model of another family names the path that serves it', () => {
    const both = principal({ vdq3: ['reference2video'], 'wx2.7-r2v': ['reference2video'] });
    const error = errorOf(() => on(VdLike, 'create', { model: 'wx2.7-r2v' }, both));
    expect(error).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    expect(error.message).toMatch(/family ax model; send it to POST \/ax\/api\/v1\//);
  });

  @Controller()
  class NoFamilyLike {
    @Post('v1/videos')
    @RequiresCapability('reference2video', modelFromBody)
    create(): void {}
  }

  it('a model without the route’s capability is 404 naming its own family, granted or not, never 403', () => {
    const kl = principal({ 'kl-v1': ALL_KL, vdq3: ['reference2video'] });
    for (const [controller, who] of [
      [AxLike, kl],
      [VdLike, kl],
      [NoFamilyLike, kl],
      [VdLike, vdOnly],
    ] as const) {
      const error = errorOf(() => on(controller, 'create', { model: 'kl-v1' }, who));
      expect(error).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
      expect(error.message).toContain("The model 'kl-v1' is not served on this path: it is a family kl model");
    }
  });

  it('a model of the catalogue the account was not given is 404 saying so, with no guess', () => {
    const error = errorOf(() => on(VdLike, 'create', { model: 'vdq2' }, vdOnly));
    expect(error).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    expect(error.message).toBe(
      "The model 'vdq2' exists but is not enabled for this account; ask the operator to enable it.",
    );
  });

  it('an unknown model is said not to exist', () => {
    expect(errorOf(() => on(VdLike, 'create', { model: 'zz-top' }, vdOnly)).message).toMatch(
      /^The model 'zz-top' does not exist\./,
    );
  });

  it('a list of the models a key may use says how many it leaves out', () => {
    const names = ['vdq3-mix', 'vdq3-turbo', 'vdq3', 'vdq2-pro', 'vdq2', 'vdq1', 'vd2.0', 'wx2.7-r2v', 'wx2.6-r2v'];
    const many = principal(
      Object.fromEntries([...names, 'wx2.6-r2v-flash', 'wx2.7-r2v-2026-06-12'].map((n) => [n, ['reference2video']])),
    );
    const error = errorOf(() => on(NoFamilyLike, 'create', { model: 'completely-different-name' }, many));
    expect(error.message).toMatch(/Models this key may use here: (?:[\w.-]+, ){9}[\w.-]+ and 1 more\.$/);
  });
});
