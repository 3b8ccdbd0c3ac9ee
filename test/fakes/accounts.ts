import { EntityManager, Repository } from 'typeorm';
import { AccountsService } from '../../src/core/accounts/accounts.service';
import { AccountEntity } from '../../src/core/accounts/entities/account.entity';
import { ApiKeyEntity } from '../../src/core/accounts/entities/api-key.entity';
import { ModelGrantEntity } from '../../src/core/accounts/entities/model-grant.entity';
import { PrincipalService } from '../../src/core/accounts/principal.service';
import { AccountsRepository } from '../../src/core/accounts/repositories/accounts.repository';
import { ApiKeysRepository } from '../../src/core/accounts/repositories/api-keys.repository';
import { ModelGrantsRepository } from '../../src/core/accounts/repositories/model-grants.repository';
import { ModelCatalogue } from '../../src/core/models/model-catalogue';
import { ManualClock } from '../../src/platform/time/clock';
import { inMemoryAuditTrail } from './audit';
import { FixedModelCatalogue } from './model-catalogue';
import { offlineManager } from './offline';
import { FakeTransactionRunner } from './transactions';

const copy = <T extends object>(row: T): T => Object.assign(Object.create(Object.getPrototypeOf(row) as object), row);

/** Whole account rows in memory (what `AccountsService` reads and writes); rows handed out are copies. */
export class InMemoryAccountsRepository extends AccountsRepository {
  readonly rows = new Map<string, AccountEntity>();

  constructor(...accounts: AccountEntity[]) {
    super(new Repository(AccountEntity, offlineManager));
    for (const account of accounts) this.rows.set(account.id, copy(account));
  }

  /** The stored row itself (for the fake ledger, which moves its money), or throws. */
  account(id: string): AccountEntity {
    const row = this.rows.get(id);
    if (!row) throw new Error(`no account ${id} in the fake repository`);
    return row;
  }

  override async findById(id: string): Promise<AccountEntity | null> {
    const row = this.rows.get(id);
    return row ? copy(row) : null;
  }

  override async findByIds(ids: string[]): Promise<AccountEntity[]> {
    return ids.flatMap((id) => (this.rows.has(id) ? [copy(this.rows.get(id)!)] : []));
  }

  override async save(account: AccountEntity): Promise<AccountEntity> {
    this.rows.set(account.id, copy(account));
    return account;
  }

  override async count(): Promise<number> {
    return this.rows.size;
  }

  override async all(): Promise<AccountEntity[]> {
    return [...this.rows.values()].sort((a, b) => a.createdAt - b.createdAt).map(copy);
  }
}

export class InMemoryApiKeysRepository extends ApiKeysRepository {
  readonly rows = new Map<string, ApiKeyEntity>();

  constructor(...keys: ApiKeyEntity[]) {
    super(new Repository(ApiKeyEntity, offlineManager));
    for (const key of keys) this.rows.set(key.id, copy(key));
  }

  override async findByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    const row = [...this.rows.values()].find((key) => key.keyHash === keyHash);
    return row ? copy(row) : null;
  }

  override async findById(id: string): Promise<ApiKeyEntity | null> {
    const row = this.rows.get(id);
    return row ? copy(row) : null;
  }

  override async listForAccount(accountId: string): Promise<ApiKeyEntity[]> {
    return [...this.rows.values()].filter((key) => key.accountId === accountId).map(copy);
  }

  override async save(key: ApiKeyEntity): Promise<ApiKeyEntity> {
    this.rows.set(key.id, copy(key));
    return key;
  }
}

export class InMemoryModelGrantsRepository extends ModelGrantsRepository {
  rows: ModelGrantEntity[] = [];

  constructor(...grants: ModelGrantEntity[]) {
    super(new Repository(ModelGrantEntity, offlineManager), new FakeTransactionRunner());
    this.rows = grants.map(copy);
  }

  override async listForAccount(accountId: string): Promise<ModelGrantEntity[]> {
    return this.rows
      .filter((grant) => grant.accountId === accountId)
      .sort((a, b) => a.model.localeCompare(b.model))
      .map(copy);
  }

  override async replaceForAccount(accountId: string, grants: ModelGrantEntity[], _tx?: EntityManager): Promise<void> {
    this.rows = [...this.rows.filter((grant) => grant.accountId !== accountId), ...grants.map(copy)];
  }
}

/** Counts the cache drops an admin change asks for; resolves nothing. */
export class RecordingPrincipals extends PrincipalService {
  invalidations = 0;

  constructor(clock = new ManualClock()) {
    super(
      new InMemoryAccountsRepository(),
      new InMemoryApiKeysRepository(),
      new InMemoryModelGrantsRepository(),
      clock,
    );
  }

  override async invalidate(): Promise<void> {
    this.invalidations += 1;
  }
}

/** The real AccountsService over in-memory accounts, keys and grants, the audit chain and a fixed catalogue. */
export function newAccountsFakes(options: { accounts?: AccountEntity[]; catalogue?: ModelCatalogue } = {}) {
  const clock = new ManualClock();
  const accounts = new InMemoryAccountsRepository(...(options.accounts ?? []));
  const keys = new InMemoryApiKeysRepository();
  const grants = new InMemoryModelGrantsRepository();
  const principals = new RecordingPrincipals(clock);
  const audit = inMemoryAuditTrail(clock);
  const transactions = new FakeTransactionRunner();
  const catalogue = options.catalogue ?? new FixedModelCatalogue();
  const service = new AccountsService(accounts, keys, grants, catalogue, principals, clock, transactions, audit.trail);
  return { service, clock, accounts, keys, grants, principals, audit, transactions, catalogue };
}
