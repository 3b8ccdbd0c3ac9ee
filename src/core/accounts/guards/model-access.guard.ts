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
export const RequiresCapability = (capability: Capability, selection: ModelSelection) => SetMetadata(CAPABILITY_KEY, { capability, selection } satisfies CapabilityRequirement);

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
  constructor(
    private readonly reflector: Reflector,
    private readonly catalogue: ModelCatalogue,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const requirement = this.reflector.getAllAndOverride<CapabilityRequirement | undefined>(CAPABILITY_KEY, [context.getHandler(), context.getClass()]);
    if (!requirement) return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const { grants, apiKey } = req.principal;
    if (requirement.selection === 'none') {
      const usable = [...grants.entries()].some(([model, caps]) => caps.includes(requirement.capability) && keyAllowsModel(apiKey.models, model));
      if (!usable) throw GatewayError.forbidden(`This key has no model enabled for ${requirement.capability}.`);
      return true;
    }
    const { name, param } = requirement.selection(req.body);
    const model = this.catalogue.find(name);
    const capabilities = grants.get(name);
    if (!model || !capabilities) throw GatewayError.modelNotFound(shownModelName(name), param);
    if (!model.capabilities.includes(requirement.capability) || !capabilities.includes(requirement.capability)) {
      throw GatewayError.forbidden(`The model '${name}' is not enabled for ${requirement.capability} on this account.`, param);
    }
    if (!keyAllowsModel(apiKey.models, name)) throw GatewayError.forbidden(`This API key may not use the model '${name}'.`, param);
    req.selectedModel = model;
    return true;
  }
}

/** A key restricted to some models reaches nothing else, reads included. */
export function keyAllowsModel(keyModels: readonly string[] | null, model: string): boolean {
  return keyModels === null || keyModels.includes(model);
}
