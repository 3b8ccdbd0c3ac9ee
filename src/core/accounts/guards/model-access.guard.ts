import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GatewayError } from '../../../platform/errors';
import { refuseUnusableBody } from '../../../platform/validation/validate-dto';
import { Capability, ModelCatalogue, ModelDescriptor } from '../../models/model-catalogue';
import { AuthenticatedRequest } from './authenticated-request';
import { closestName } from './closest-name';
import { noteModelRoute, routeFamily, routeFor } from './model-routes';

/** Which model a request names, and the body field it came from (for `param`). */
export interface SelectedModelName {
  name: string;
  param: string;
}

/**
 * How a route names its model: a selector reading the body (each family brings its own rule;
 * `modelFromBody` is the common one), or `none` for reads (lists and queries), where the account
 * and the key need some model of the route's family with the capability: the one rule of every read.
 */
export type ModelSelector = (body: unknown) => SelectedModelName;
export type ModelSelection = ModelSelector | 'none';

export interface CapabilityRequirement {
  capability: Capability;
  selection: ModelSelection;
}

export const CAPABILITY_KEY = 'gateway:capability';
export function RequiresCapability(
  capability: Capability,
  selection: ModelSelection,
): MethodDecorator & ClassDecorator {
  const requirement = SetMetadata(CAPABILITY_KEY, { capability, selection } satisfies CapabilityRequirement);
  const decorator = (target: object, key?: string | symbol, descriptor?: PropertyDescriptor): void => {
    // A route that takes a model is where a model of its family belongs: named to callers who sent it elsewhere.
    if (selection !== 'none' && descriptor) noteModelRoute(capability, target, descriptor.value);
    if (key !== undefined && descriptor) requirement(target, key, descriptor);
    else requirement(target as () => void);
  };
  return decorator as MethodDecorator & ClassDecorator;
}

/** The common rule: the body's `model`, required, in a body that is a JSON object. */
export const modelFromBody: ModelSelector = (body) => {
  // A body that is not a JSON object gets the answer every route gives it, not "model is required".
  refuseUnusableBody(body, { allowUnknown: true });
  const value = bodyFields(body).model;
  if (value === undefined || value === null || value === '') throw GatewayError.invalid('model is required.', 'model');
  if (typeof value !== 'string') throw GatewayError.invalid('model must be a string.', 'model');
  return { name: value, param: 'model' };
};

export function bodyFields(body: unknown): Record<string, unknown> {
  return (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
}

/** Caps a caller-chosen model name before it is echoed in a message (a junk value may be a Base64 blob). */
export function shownModelName(name: string): string {
  return name.length > 64 ? `${name.slice(0, 64)}...` : name;
}

/** May this account (and this key) use this model here? 404 `model_not_found` / 403 `permission_denied`. */
@Injectable()
export class ModelAccessGuard implements CanActivate {
  private readonly requirements = new WeakMap<object, CapabilityRequirement | null>();

  constructor(
    private readonly reflector: Reflector,
    private readonly catalogue: ModelCatalogue,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const requirement = this.requirementOf(context);
    if (!requirement) return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const { grants, apiKey } = req.principal;
    const family = routeFamily(context.getClass());
    if (requirement.selection === 'none') {
      if (!this.hasUsableModel(req, requirement.capability, family))
        throw GatewayError.forbidden(
          `This key has no model enabled for ${requirement.capability}${family ? ` in family ${family}` : ''}.`,
        );
      return true;
    }
    const { name, param } = requirement.selection(req.body);
    const model = this.catalogue.find(name);
    if (!model) throw this.unknownModel(req, name, param, requirement.capability, family);
    // A model this route cannot serve is pointed at its own route, granted or not: the catalogue is public.
    if (!model.capabilities.includes(requirement.capability) || (family && model.family !== family))
      throw wrongRoute(model, requirement.capability, param);
    const capabilities = grants.get(name);
    if (!capabilities) throw notEnabled(model, param);
    if (!capabilities.includes(requirement.capability)) {
      throw GatewayError.forbidden(
        `The model '${name}' is enabled on this account, but not for ${requirement.capability}.`,
        param,
      );
    }
    if (!keyAllowsModel(apiKey.models, name))
      throw GatewayError.forbidden(`This API key may not use the model '${name}'.`, param);
    req.selectedModel = model;
    return true;
  }

  /** Some model of the account (of the route's family, when it has one) has the capability and the key may use it. */
  private hasUsableModel(req: AuthenticatedRequest, capability: Capability, family: string | undefined): boolean {
    for (const [model, caps] of req.principal.grants)
      if (this.usable(req, model, caps, capability, family)) return true;
    return false;
  }

  private usableNames(req: AuthenticatedRequest, capability: Capability, family: string | undefined): string[] {
    const names: string[] = [];
    for (const [model, caps] of req.principal.grants)
      if (this.usable(req, model, caps, capability, family)) names.push(model);
    return names;
  }

  private usable(
    req: AuthenticatedRequest,
    model: string,
    caps: readonly string[],
    capability: Capability,
    family: string | undefined,
  ): boolean {
    if (!caps.includes(capability) || !keyAllowsModel(req.principal.apiKey.models, model)) return false;
    return !family || this.catalogue.find(model)?.family === family;
  }

  /** 404 `model_not_found`, suggesting the closest name this key may use here. */
  private unknownModel(
    req: AuthenticatedRequest,
    name: string,
    param: string,
    capability: Capability,
    family: string | undefined,
  ): GatewayError {
    const error = GatewayError.modelNotFound(shownModelName(name), param);
    const usable = this.usableNames(req, capability, family);
    const suggestion = closestName(name, usable);
    const hint = suggestion
      ? ` Did you mean '${suggestion}'?`
      : usable.length > 0
        ? ` Models this key may use here: ${listed(usable)}.`
        : ' This key has no model enabled here.';
    return new GatewayError(error.status, error.code, error.message + hint, param);
  }

  /** The route's requirement, read from its metadata once per handler (the metadata does not change after start). */
  private requirementOf(context: ExecutionContext): CapabilityRequirement | undefined {
    const handler = context.getHandler();
    if (typeof handler !== 'function')
      return this.reflector.getAllAndOverride<CapabilityRequirement | undefined>(CAPABILITY_KEY, [
        handler,
        context.getClass(),
      ]);
    let requirement = this.requirements.get(handler);
    if (requirement === undefined) {
      requirement =
        this.reflector.getAllAndOverride<CapabilityRequirement | undefined>(CAPABILITY_KEY, [
          handler,
          context.getClass(),
        ]) ?? null;
      this.requirements.set(handler, requirement);
    }
    return requirement ?? undefined;
  }
}

/** At most this many model names in a message; the rest are counted. */
const LISTED_MODELS = 10;

function listed(names: readonly string[]): string {
  const shown = names.slice(0, LISTED_MODELS).join(', ');
  return names.length > LISTED_MODELS ? `${shown} and ${names.length - LISTED_MODELS} more` : shown;
}

/**
 * 404 `model_not_found` here: the model is served by another route (another family's path, or a
 * capability this route does not offer), which the message names.
 */
function wrongRoute(model: ModelDescriptor, capability: Capability, param: string): GatewayError {
  const wanted = model.capabilities.includes(capability) ? [capability] : model.capabilities;
  const routes = [...new Set(wanted.map((c) => routeFor(model.family, c)).filter((r) => r !== undefined))];
  const where =
    routes.length === 0
      ? `send it under /${model.family}/`
      : `send it to ${routes.slice(0, -1).join(', ')}${routes.length > 1 ? ' or ' : ''}${routes[routes.length - 1]}`;
  return new GatewayError(
    404,
    'model_not_found',
    `The model '${model.name}' is not served on this path: it is a family ${model.family} model; ${where}.`,
    param,
  );
}

/** 404 `model_not_found`: a model of the catalogue that the account has not been given. */
function notEnabled(model: ModelDescriptor, param: string): GatewayError {
  return new GatewayError(
    404,
    'model_not_found',
    `The model '${model.name}' exists but is not enabled for this account; ask the operator to enable it.`,
    param,
  );
}

/** A key restricted to some models reaches nothing else, reads included. */
export function keyAllowsModel(keyModels: readonly string[] | null, model: string): boolean {
  return keyModels === null || keyModels.includes(model);
}
