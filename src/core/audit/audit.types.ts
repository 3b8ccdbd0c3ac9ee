import type { OperatorRole } from '../operators/operator-roles';

/** Who made a change: an operator, the bootstrap owner (`ADMIN_TOKEN`) or the gateway itself. */
export interface Actor {
  id: string;
  name: string;
  role: OperatorRole;
}

/** Where a change came from: the actor and, for a change made through the API, its request. */
export interface ChangeOrigin {
  actor: Actor;
  requestId: string | null;
  ip: string | null;
}

/** The kinds of change the audit trail records. */
export const AUDIT_ACTIONS = [
  'account.create',
  'account.update',
  'balance.adjust',
  'grant.update',
  'key.create',
  'key.revoke',
  'price.update',
  'channel.update',
  'task.callback_redeliver',
  'task.results_keep',
  'operator.create',
  'operator.update',
  'operator.token_rotate',
  'operator.sign_in',
  'task.cancel',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What a change can be made to (an entry's `target.type`). */
export const AUDIT_TARGET_TYPES = ['account', 'key', 'channel', 'prices', 'operator', 'task'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** An actor's ID: an operator's (`op_…`), the bootstrap owner's or the gateway's own. */
export const ACTOR_ID_PATTERN = /^(op_[0-9A-Za-z]+|bootstrap|system)$/;

/** What a change did, as its service describes it; `before`/`after` are plain JSON values. */
export interface AuditChange {
  action: AuditAction;
  /** `accountId`: the account the target belongs to (a key's), or is; so an account's whole story is one filter. */
  target: { type: AuditTargetType; id: string; accountId?: string };
  before: unknown;
  after: unknown;
}

/** Changes the gateway makes by itself at start (the demo account), recorded under this actor. */
export const SYSTEM_ORIGIN: ChangeOrigin = {
  actor: { id: 'system', name: 'gateway start-up', role: 'owner' },
  requestId: null,
  ip: null,
};
