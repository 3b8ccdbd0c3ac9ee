import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GatewayError } from '../../../platform/errors';
import { Capability, ModelCatalogue } from '../../models/model-catalogue';
import { AuthenticatedRequest } from './authenticated-request';

/** Which model a request names, and the body field it came from (for `param`). */
export interface SelectedModelName {
  name: string;
  param: string;
}

/**
 * How a route names its model: a selector reading the body (each family brings its own rule;
 * `modelFromBody` is the common one), or `none` for reads, where the account needs some model
 * with the capability.
 */
export type ModelSelector = (body: unknown) => SelectedModelName;
export type ModelSelection = ModelSelector | 'none';

export interface CapabilityRequirement {
  capability: Capability;
  selection: ModelSelection;
}

export const CAPABILITY_KEY = 'gateway:capability';
export const RequiresCapability = (capability: Capability, selection: ModelSelection) =>
  SetMetadata(CAPABILITY_KEY, { capability, selection } satisfies CapabilityRequirement);

/** The common rule: the body's `model`, required. */
export const modelFromBody: ModelSelector = (body) => {
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

/** May this account (and this key) use this model here? 404 `model_not_found` / 403 `permission_denied` (CONTRACT §3). */
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
    if (requirement.selection === 'none') {
      if (!hasUsableModel(grants, apiKey.models, requirement.capability))
        throw GatewayError.forbidden(`This key has no model enabled for ${requirement.capability}.`);
      return true;
    }
    const { name, param } = requirement.selection(req.body);
    const model = this.catalogue.find(name);
    const capabilities = grants.get(name);
    if (!model || !capabilities) throw GatewayError.modelNotFound(shownModelName(name), param);
    if (!model.capabilities.includes(requirement.capability) || !capabilities.includes(requirement.capability)) {
      throw GatewayError.forbidden(
        `The model '${name}' is not enabled for ${requirement.capability} on this account.`,
        param,
      );
    }
    if (!keyAllowsModel(apiKey.models, name))
      throw GatewayError.forbidden(`This API key may not use the model '${name}'.`, param);
    req.selectedModel = model;
    return true;
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

/** Some model of the account has the capability and the key may use it. */
function hasUsableModel(
  grants: ReadonlyMap<string, readonly Capability[]>,
  keyModels: readonly string[] | null,
  capability: Capability,
): boolean {
  for (const [model, caps] of grants) if (caps.includes(capability) && keyAllowsModel(keyModels, model)) return true;
  return false;
}

/** A key restricted to some models reaches nothing else, reads included. */
export function keyAllowsModel(keyModels: readonly string[] | null, model: string): boolean {
  return keyModels === null || keyModels.includes(model);
}
