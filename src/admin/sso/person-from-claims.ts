import { createHash } from 'crypto';
import type { Actor } from '../../core/audit/audit.types';
import { OPERATOR_ROLES, OperatorRole, isOperatorRole } from '../../core/operators/operator-roles';

/** Why a person the issuer vouched for is still not let in. */
export class SignInRefused extends Error {}

export interface RoleRules {
  /** The claim naming the role: a role name, or a list of values among which the strongest role counts. */
  claim: string;
  /** The role of a person whose claim names none; undefined: such a person is refused. */
  defaultRole?: OperatorRole;
}

/**
 * The operator a signed-in person is: an ID stable per issuer and subject (what the audit trail
 * files their changes under), the name they go by there, and the role their claim names.
 */
export function personFromClaims(issuer: string, claims: Record<string, unknown>, rules: RoleRules): Actor {
  const subject = typeof claims.sub === 'string' ? claims.sub : '';
  if (!subject) throw new SignInRefused('The issuer named no subject.');
  const role = strongestRole(claims[rules.claim]) ?? rules.defaultRole;
  if (!role) throw new SignInRefused(`Your sign-in carries no gateway role (claim '${rules.claim}').`);
  const id = `sso_${createHash('sha256').update(`${issuer}\n${subject}`).digest('hex').slice(0, 24)}`;
  return { id, name: displayName(claims, subject), role };
}

function strongestRole(value: unknown): OperatorRole | undefined {
  const values = Array.isArray(value) ? value : [value];
  const roles = values.filter(isOperatorRole);
  return roles.sort((a, b) => OPERATOR_ROLES.indexOf(b) - OPERATOR_ROLES.indexOf(a))[0];
}

function displayName(claims: Record<string, unknown>, subject: string): string {
  const name = [claims.name, claims.preferred_username, claims.email].find(
    (v): v is string => typeof v === 'string' && v.trim() !== '',
  );
  const email = typeof claims.email === 'string' && claims.email !== name ? ` <${claims.email}>` : '';
  return `${(name ?? subject).trim()}${email}`.slice(0, 200);
}
