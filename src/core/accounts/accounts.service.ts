import { randomBytes } from 'crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { GatewayError } from '../../platform/errors';
import { newId } from '../../platform/ids/ids';
import { Clock } from '../../platform/time/clock';
import { AuditTrail } from '../audit/audit.service';
import { ChangeOrigin } from '../audit/audit.types';
import { Capability, ModelCatalogue } from '../models/model-catalogue';
import { hashApiKey, newApiKeySecret, shownPrefix } from './api-key-secret';
import { AccountEntity } from './entities/account.entity';
import { ApiKeyEntity } from './entities/api-key.entity';
import { ModelGrantEntity } from './entities/model-grant.entity';
import { PrincipalService } from './principal.service';
import { AccountsRepository } from './repositories/accounts.repository';
import { ApiKeysRepository } from './repositories/api-keys.repository';
import { ModelGrantsRepository } from './repositories/model-grants.repository';
import { isoTimestamp } from '../../platform/time/formats';

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

/**
 * Operator-side account management: accounts, keys and grants (money is billing's: `AccountFunding`).
 * Each change is written with its audit entry in one transaction, then every instance's principal
 * cache is dropped.
 */
@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly keys: ApiKeysRepository,
    private readonly grants: ModelGrantsRepository,
    private readonly catalogue: ModelCatalogue,
    private readonly principals: PrincipalService,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
  ) {}

  /** A new account row, inside the caller's transaction (which records its creation: `AccountFunding.open`). */
  create(input: NewAccount, tx: EntityManager): Promise<AccountEntity> {
    const now = this.clock.nowMs();
    return this.accounts.save(
      {
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
      },
      tx,
    );
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

  async update(accountId: string, changes: AccountChanges, origin: ChangeOrigin): Promise<AccountDetails> {
    await this.transactions.run(async (tx) => {
      const account = await this.require(accountId, tx);
      const before = accountSnapshot(account);
      Object.assign(account, stripUndefined(changes), { updatedAt: this.clock.nowMs() });
      await this.accounts.save(account, tx);
      await this.audit.record(tx, origin, {
        action: 'account.update',
        target: { type: 'account', id: accountId },
        before,
        after: accountSnapshot(account),
      });
    });
    await this.principals.invalidate();
    return this.details(accountId);
  }

  /** Issues a key; the secret is returned only here. */
  async issueKey(
    accountId: string,
    input: { name?: string; expiresAt?: number | null; models?: string[] | null },
    origin: ChangeOrigin,
  ): Promise<{ key: ApiKeyEntity; secret: string }> {
    await this.require(accountId);
    for (const [i, model] of (input.models ?? []).entries()) {
      if (!this.catalogue.find(model)) throw GatewayError.modelNotFound(model, `models[${i}]`);
    }
    const secret = newApiKeySecret();
    const key: ApiKeyEntity = {
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
    };
    await this.transactions.run(async (tx) => {
      await this.keys.save(key, tx);
      await this.audit.record(tx, origin, {
        action: 'key.create',
        target: { type: 'key', id: key.id, accountId: key.accountId },
        before: null,
        after: keySnapshot(key),
      });
    });
    return { key, secret };
  }

  /** Revokes a key (a key already revoked stays as it was; the request is still recorded). */
  async revokeKey(keyId: string, origin: ChangeOrigin): Promise<ApiKeyEntity> {
    const revoked = await this.transactions.run(async (tx) => {
      const key = await this.keys.findById(keyId, tx);
      if (!key) throw GatewayError.notFound('API key');
      const before = keySnapshot(key);
      if (key.revokedAt === null) {
        key.revokedAt = this.clock.nowMs();
        await this.keys.save(key, tx);
      }
      await this.audit.record(tx, origin, {
        action: 'key.revoke',
        target: { type: 'key', id: key.id, accountId: key.accountId },
        before,
        after: keySnapshot(key),
      });
      return key;
    });
    await this.principals.invalidate();
    return revoked;
  }

  /** Replaces the account's enabled models; no capabilities means all of that model's. */
  async replaceGrants(accountId: string, requested: GrantRequest[], origin: ChangeOrigin): Promise<AccountDetails> {
    await this.require(accountId);
    const seen = new Set<string>();
    const now = this.clock.nowMs();
    const grants = requested.map((g, i) => {
      const model = this.catalogue.find(g.model);
      if (!model) throw GatewayError.modelNotFound(g.model, `models[${i}].model`);
      if (seen.has(g.model))
        throw GatewayError.invalid(`The model '${g.model}' is listed twice.`, `models[${i}].model`);
      seen.add(g.model);
      const caps = g.capabilities ?? [];
      for (const [j, cap] of caps.entries()) {
        if (!model.capabilities.includes(cap)) {
          throw GatewayError.invalid(
            `The model '${g.model}' has no capability '${cap}'.`,
            `models[${i}].capabilities[${j}]`,
          );
        }
        if (caps.indexOf(cap) !== j)
          throw GatewayError.invalid(
            `The capability '${cap}' is listed twice for '${g.model}'.`,
            `models[${i}].capabilities[${j}]`,
          );
      }
      return {
        id: newId('grant'),
        accountId,
        model: g.model,
        capabilities: [...(g.capabilities ?? model.capabilities)],
        createdAt: now,
      };
    });
    await this.transactions.run(async (tx) => {
      const before = await this.grants.listForAccount(accountId, tx);
      await this.grants.replaceForAccount(accountId, grants, tx);
      await this.audit.record(tx, origin, {
        action: 'grant.update',
        target: { type: 'account', id: accountId },
        before: grantsSnapshot(before),
        after: grantsSnapshot(grants),
      });
    });
    await this.principals.invalidate();
    return this.details(accountId);
  }

  /** 404 unless the account exists (read in `tx` when given). */
  async require(accountId: string, tx?: EntityManager): Promise<AccountEntity> {
    const account = await this.accounts.findById(accountId, tx);
    if (!account) throw GatewayError.notFound('Account');
    return account;
  }
}

/** What the audit trail keeps of an account's settings and money (never its webhook secret). */
export function accountSnapshot(account: AccountEntity): object {
  return {
    id: account.id,
    name: account.name,
    disabled: account.disabled,
    rate_limit_rpm: account.rateLimitRpm,
    max_concurrent_tasks: account.maxConcurrentTasks,
    balance: account.balance,
  };
}

/** What the audit trail keeps of a key: never its secret or hash; times as the API writes them (ISO 8601). */
function keySnapshot(key: ApiKeyEntity): object {
  return {
    id: key.id,
    account_id: key.accountId,
    name: key.name,
    prefix: key.prefix,
    models: key.models,
    expires_at: key.expiresAt === null ? null : isoTimestamp(key.expiresAt),
    revoked_at: key.revokedAt === null ? null : isoTimestamp(key.revokedAt),
  };
}

function grantsSnapshot(grants: ModelGrantEntity[]): object {
  return { models: grants.map((g) => ({ model: g.model, capabilities: g.capabilities })) };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
