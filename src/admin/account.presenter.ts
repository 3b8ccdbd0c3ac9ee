import { AccountDetails } from '../core/accounts/accounts.service';
import { ApiKeyEntity } from '../core/accounts/entities/api-key.entity';
import { AccountResponse, ApiKeyResponse } from './admin.responses';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function presentKey(key: ApiKeyEntity): ApiKeyResponse {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    models: key.models,
    created_at: iso(key.createdAt),
    last_used_at: iso(key.lastUsedAt),
    expires_at: iso(key.expiresAt),
    revoked_at: iso(key.revokedAt),
  };
}

/**
 * The operator's view of an account: balance (available), held, limits, grants, keys (prefix only),
 * and the webhook secret unless `withSecrets` is false (a viewer's view).
 */
export function presentAccount({ account, grants, keys }: AccountDetails, withSecrets = true): AccountResponse {
  return {
    id: account.id,
    name: account.name,
    balance: account.balance,
    held: account.held,
    disabled: account.disabled,
    rate_limit_rpm: account.rateLimitRpm,
    max_concurrent_tasks: account.maxConcurrentTasks,
    in_flight_tasks: account.inFlightTasks,
    ...(withSecrets ? { webhook_secret: account.webhookSecret } : {}),
    models: grants.map((g) => ({ model: g.model, capabilities: g.capabilities })),
    keys: keys.map(presentKey),
    created_at: iso(account.createdAt),
    updated_at: iso(account.updatedAt),
  };
}
