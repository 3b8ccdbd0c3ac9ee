import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GatewayError } from '../../../platform/errors';
import { Capability, KL_DEFAULT_MODEL, findModel } from '../../models/catalogue';
import { AuthenticatedRequest } from './authenticated-request';

/**
 * How a route names its model:
 * - `body`: the body's `model` (families B and C; required).
 * - `kl`: family A's rule: `model_name`, else `model`, else `kl-v1`.
 * - `none`: no model; the account needs some model with the capability (family A reads).
 */
export type ModelSelection = 'body' | 'kl' | 'none';

export interface CapabilityRequirement {
  capability: Capability;
  selection: ModelSelection;
}

export const CAPABILITY_KEY = 'gateway:capability';
export const RequiresCapability = (capability: Capability, selection: ModelSelection) =>
  SetMetadata(CAPABILITY_KEY, { capability, selection } satisfies CapabilityRequirement);

/** May this account (and this key) use this model here? 404 `model_not_found` / 403 `permission_denied` (CONTRACT §3). */
@Injectable()
export class ModelAccessGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const requirement = this.reflector.getAllAndOverride<CapabilityRequirement | undefined>(CAPABILITY_KEY, [context.getHandler(), context.getClass()]);
    if (!requirement) return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const { grants, apiKey } = req.principal;
    if (requirement.selection === 'none') {
      const usable = [...grants.entries()].some(([model, caps]) => caps.includes(requirement.capability) && keyAllows(apiKey.models, model));
      if (!usable) throw GatewayError.forbidden(`This key has no model enabled for ${requirement.capability}.`);
      return true;
    }
    const { name, param } = selectModelName(req.body, requirement.selection);
    const model = findModel(name);
    const capabilities = grants.get(name);
    if (!model || !capabilities) throw GatewayError.modelNotFound(name, param);
    if (!model.capabilities.includes(requirement.capability) || !capabilities.includes(requirement.capability)) {
      throw GatewayError.forbidden(`The model '${name}' is not enabled for ${requirement.capability} on this account.`, param);
    }
    if (!keyAllows(apiKey.models, name)) throw GatewayError.forbidden(`This API key may not use the model '${name}'.`, param);
    req.selectedModel = model;
    return true;
  }
}

function keyAllows(keyModels: string[] | null, model: string): boolean {
  return keyModels === null || keyModels.includes(model);
}

function selectModelName(body: unknown, selection: 'body' | 'kl'): { name: string; param: string } {
  const fields = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  if (selection === 'kl') {
    for (const param of ['model_name', 'model']) {
      const value = fields[param];
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string' || value === '') throw GatewayError.invalid(`${param} must be a non-empty string.`, param);
      return { name: value, param };
    }
    return { name: KL_DEFAULT_MODEL, param: 'model_name' };
  }
  const value = fields.model;
  if (value === undefined || value === null || value === '') throw GatewayError.invalid('model is required.', 'model');
  if (typeof value !== 'string') throw GatewayError.invalid('model must be a string.', 'model');
  return { name: value, param: 'model' };
}
