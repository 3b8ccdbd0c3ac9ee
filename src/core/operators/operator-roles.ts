import { GatewayError } from '../../platform/errors';

/**
 * The roles of the people who run the gateway, weakest first; each role may do everything a weaker
 * one may. viewer: reads, never a secret; operator: also task and delivery actions, and turning
 * channels on and off; admin: also accounts, keys, grants, balances, prices and channel weights;
 * owner: also the operators themselves.
 */
export const OPERATOR_ROLES = ['viewer', 'operator', 'admin', 'owner'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export function isOperatorRole(value: unknown): value is OperatorRole {
  return (OPERATOR_ROLES as readonly unknown[]).includes(value);
}

/** Whether `role` may do what `needed` may. */
export function hasRole(role: OperatorRole, needed: OperatorRole): boolean {
  return OPERATOR_ROLES.indexOf(role) >= OPERATOR_ROLES.indexOf(needed);
}

/** 403 `permission_denied` naming the role needed, unless `role` has it; `param` names the field that asks for more. */
export function requireRole(role: OperatorRole, needed: OperatorRole, param: string | null = null): void {
  if (!hasRole(role, needed))
    throw GatewayError.forbidden(
      `This needs the '${needed}' role${param ? ` (to change ${param})` : ''}; your role is '${role}'.`,
      param,
    );
}

/** Only a viewer is kept from secrets (webhook secrets, key material, upstream credentials). */
export function seesSecrets(role: OperatorRole): boolean {
  return role !== 'viewer';
}
