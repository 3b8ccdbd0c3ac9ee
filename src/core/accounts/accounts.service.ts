import { randomBytes } from 'crypto';
import { Injectable } from '@nestjs/common';
import { GatewayError } from '../../platform/errors';
import { newId } from '../../platform/ids/ids';
import { Clock } from '../../platform/time/clock';
import { Capability, ModelCatalogue } from '../models/model-catalogue';
import { hashApiKey, newApiKeySecret, shownPrefix } from './api-key-secret';
import { AccountEntity } from './entities/account.entity';
import { ApiKeyEntity } from './entities/api-key.entity';
import { ModelGrantEntity } from './entities/model-grant.entity';
import { PrincipalService } from './principal.service';
import { AccountsRepository } from './repositories/accounts.repository';
import { ApiKeysRepository } from './repositories/api-keys.repository';
import { ModelGrantsRepository } from './repositories/model-grants.repository';

export interface AccountDetails {
  account: AccountEntity;
  grants: ModelGrantEntity[];
  keys: ApiKeyEntity[];
}

export interface NewAccount {
  name: string;
  rateLimitRpm?: number | null;
  maxConcurrentTasks?: number | null;
}

export interface AccountChanges {
  name?: string;
  disabled?: boolean;
  rateLimitRpm?: number | null;
  maxConcurrentTasks?: number | null;
}

export interface GrantRequest {
  model: string;
  capabilities?: Capability[];
}

/** Operator-side account management: accounts, keys and grants (money is billing's: `AccountFunding`). */
@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly keys: ApiKeysRepository,
    private readonly grants: ModelGrantsRepository,
    private readonly catalogue: ModelCatalogue,
    private readonly principals: PrincipalService,
    private readonly clock: Clock,
  ) {}

  async create(input: NewAccount): Promise<AccountDetails> {
    const now = this.clock.nowMs();
    const account = await this.accounts.save({
      id: newId('acct'),
      name: input.name,
      balance: 0,
      held: 0,
      disabled: false,
      rateLimitRpm: input.rateLimitRpm ?? null,
      maxConcurrentTasks: input.maxConcurrentTasks ?? null,
      inFlightTasks: 0,
      webhookSecret: `whsec_${randomBytes(24).toString('base64')}`,
      createdAt: now,
      updatedAt: now,
    });
    return this.details(account.id);
  }

  async details(accountId: string): Promise<AccountDetails> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw GatewayError.notFound('Account');
    const [grants, keys] = await Promise.all([
      this.grants.listForAccount(accountId),
      this.keys.listForAccount(accountId),
    ]);
    return { account, grants, keys };
  }

  async update(accountId: string, changes: AccountChanges): Promise<AccountDetails> {
    const account = await this.require(accountId);
    Object.assign(account, stripUndefined(changes), { updatedAt: this.clock.nowMs() });
    await this.accounts.save(account);
    await this.principals.invalidate();
    return this.details(accountId);
  }

  /** Issues a key; the secret is returned only here. */
  async issueKey(
    accountId: string,
    input: { name?: string; expiresAt?: number | null; models?: string[] | null },
  ): Promise<{ key: ApiKeyEntity; secret: string }> {
    await this.require(accountId);
    for (const [i, model] of (input.models ?? []).entries()) {
      if (!this.catalogue.find(model)) throw GatewayError.modelNotFound(model, `models[${i}]`);
    }
    const secret = newApiKeySecret();
    const key = await this.keys.save({
      id: newId('key'),
      accountId,
      name: input.name ?? null,
      prefix: shownPrefix(secret),
      keyHash: hashApiKey(secret),
      models: input.models ?? null,
      createdAt: this.clock.nowMs(),
      lastUsedAt: null,
      expiresAt: input.expiresAt ?? null,
      revokedAt: null,
    });
    return { key, secret };
  }

  async revokeKey(keyId: string): Promise<ApiKeyEntity> {
    const key = await this.keys.findById(keyId);
    if (!key) throw GatewayError.notFound('API key');
    if (key.revokedAt === null) {
      key.revokedAt = this.clock.nowMs();
      await this.keys.save(key);
    }
    await this.principals.invalidate();
    return key;
  }

  /** Replaces the account's enabled models; no capabilities means all of that model's. */
  async replaceGrants(accountId: string, requested: GrantRequest[]): Promise<AccountDetails> {
    await this.require(accountId);
    const seen = new Set<string>();
    const now = this.clock.nowMs();
    const grants = requested.map((g, i) => {
      const model = this.catalogue.find(g.model);
      if (!model) throw GatewayError.modelNotFound(g.model, `models[${i}].model`);
      if (seen.has(g.model))
        throw GatewayError.invalid(`The model '${g.model}' is listed twice.`, `models[${i}].model`);
      seen.add(g.model);
      for (const [j, cap] of (g.capabilities ?? []).entries()) {
        if (!model.capabilities.includes(cap)) {
          throw GatewayError.invalid(
            `The model '${g.model}' has no capability '${cap}'.`,
            `models[${i}].capabilities[${j}]`,
          );
        }
      }
      return {
        id: newId('grant'),
        accountId,
        model: g.model,
        capabilities: [...(g.capabilities ?? model.capabilities)],
        createdAt: now,
      };
    });
    await this.grants.replaceForAccount(accountId, grants);
    await this.principals.invalidate();
    return this.details(accountId);
  }

  /** 404 unless the account exists. */
  async require(accountId: string): Promise<AccountEntity> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw GatewayError.notFound('Account');
    return account;
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
