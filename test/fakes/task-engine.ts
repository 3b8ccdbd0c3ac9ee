/**
 * One typed fake factory for unit tests of the task engine, the lifecycle and the sync service.
 *
 * Every fake is a subclass of the real class (or of the abstract port) with the methods those
 * services call replaced by in-memory versions, so the real constructors take them with no cast.
 * The constructors of the real classes only store their TypeORM arguments; those come from a
 * DataSource that is never connected, so no database is opened and any method not overridden
 * here fails loudly instead of silently passing.
 */
import { EntityManager, Repository } from 'typeorm';
import { AccountEntity } from '../../src/core/accounts/entities/account.entity';
import { Principal } from '../../src/core/accounts/principal';
import { AccountsRepository } from '../../src/core/accounts/repositories/accounts.repository';
import { BillableUsage, TaskOutcome } from '../../src/core/billing/billable-usage';
import { LedgerEntryEntity } from '../../src/core/billing/entities/ledger-entry.entity';
import { PriceVersionEntity } from '../../src/core/billing/entities/price-version.entity';
import { UsageRecordEntity } from '../../src/core/billing/entities/usage-record.entity';
import { LedgerRepository } from '../../src/core/billing/ledger.repository';
import { LedgerService } from '../../src/core/billing/ledger.service';
import { PricingService } from '../../src/core/billing/pricing.service';
import { Charge, PriceTable, PricingCatalogue, PricingRule } from '../../src/core/billing/pricing/index';
import { MAX_ACCOUNT_FUNDS } from '../../src/core/billing/pricing/units';
import { ModelDescriptor } from '../../src/core/models/model-catalogue';
import { CallbackOutbox } from '../../src/core/tasks/client-callbacks-out/callback-outbox.service';
import { CallbackOutboxRepository } from '../../src/core/tasks/client-callbacks-out/callback-outbox.repository';
import { CallbackDeliveryEntity } from '../../src/core/tasks/entities/callback-delivery.entity';
import { TaskEntity } from '../../src/core/tasks/entities/task.entity';
import { TaskDraft } from '../../src/core/tasks/task-draft';
import { TaskEngine } from '../../src/core/tasks/task-engine.service';
import { CreatedAnswer, FamilyStatusWords, TaskFamilies } from '../../src/core/tasks/task-families';
import { TaskLifecycle } from '../../src/core/tasks/task-lifecycle.service';
import { TaskSyncService } from '../../src/core/tasks/task-sync.service';
import { OpenOutcome, TaskListQuery, TasksRepository } from '../../src/core/tasks/tasks.repository';
import { UpstreamDirectory } from '../../src/core/tasks/upstream-directory';
import { AppConfig, loadConfig } from '../../src/platform/config/app-config';
import { MetricsService } from '../../src/platform/metrics/metrics.service';
import { ManualClock } from '../../src/platform/time/clock';
import {
  FetchOptions,
  SubmitOptions,
  UpstreamChannel,
  UpstreamSubmitResult,
  UpstreamTaskClient,
  UpstreamTaskSnapshot,
} from '../../src/upstream/upstream.types';
import { taskFactory } from '../factories/tasks';
import { offline, offlineManager } from './offline';
import { FakeTransactionRunner } from './transactions';

const OPEN_PHASES = new Set(['submitting', 'active']);

/** A method of the fake task repository that a test can make fail once. */
type TasksFault = 'insert' | 'update' | 'updateIfOpen' | 'renewLease';

export class FakeTasksRepository extends TasksRepository {
  readonly rows = new Map<string, TaskEntity>();
  /** Scripted failures: the next call of the named method throws this error (once). */
  readonly faults = new Map<TasksFault, Error>();
  /** Every plain (unconditional) `update`, for assertions. */
  readonly plainUpdates: Array<{ id: string; changes: Partial<TaskEntity> }> = [];

  constructor() {
    super(new Repository(TaskEntity, offlineManager), offline);
  }

  /** The stored row (a copy), or throws: tests read state through this. */
  row(id: string): TaskEntity {
    const row = this.rows.get(id);
    if (!row) throw new Error(`no task ${id} in the fake repository`);
    return Object.assign(new TaskEntity(), row);
  }

  put(task: TaskEntity): void {
    this.rows.set(task.id, Object.assign(new TaskEntity(), task));
  }

  private fault(method: TasksFault): void {
    const error = this.faults.get(method);
    if (!error) return;
    this.faults.delete(method);
    throw error;
  }

  /** Where `open` takes the slot and the hold (the account and ledger fakes, wired by `newFakes`). */
  opener: ((task: TaskEntity, hold: LedgerEntryEntity, cap: number) => OpenOutcome) | null = null;

  /** Slot, hold, hold entry and record, or nothing: the cap first, then the balance, as the SQL does. */
  override async open(task: TaskEntity, hold: LedgerEntryEntity, cap: number): Promise<OpenOutcome> {
    if (!this.opener) throw new Error('FakeTasksRepository.open needs an opener (newFakes wires one)');
    const outcome = this.opener(task, hold, cap);
    if (outcome === 'opened') await this.insert(task);
    return outcome;
  }

  override async insert(task: TaskEntity): Promise<void> {
    this.fault('insert');
    if (this.rows.has(task.id)) throw new Error(`duplicate task ${task.id}`);
    this.put(task);
  }

  override async close(
    _tx: EntityManager,
    taskId: string,
    to: 'settled' | 'released',
    finalCharge: number | null,
    priceVersion: number | null,
  ): Promise<boolean> {
    const row = this.rows.get(taskId);
    if (!row || row.billingState !== 'held') return false;
    Object.assign(row, { billingState: to, finalCharge }, priceVersion !== null ? { priceVersion } : {});
    return true;
  }

  override async findById(id: string): Promise<TaskEntity | null> {
    return this.rows.has(id) ? this.row(id) : null;
  }

  override async findForAccount(id: string, accountId: string): Promise<TaskEntity | null> {
    const row = this.rows.get(id);
    return row && row.accountId === accountId ? this.row(id) : null;
  }

  /** The owner's page as the SQL reads it: no rejected or deleted task, newest first, ties by ID. */
  override async list(query: TaskListQuery): Promise<{ items: TaskEntity[]; total: number }> {
    const hits = [...this.rows.values()]
      .filter(
        (t) =>
          t.accountId === query.accountId &&
          t.family === query.family &&
          t.action === query.action &&
          t.phase !== 'rejected' &&
          (t.deletedAt === null || t.deletedAt === undefined) &&
          (query.model === undefined || t.model === query.model) &&
          (query.models === undefined || query.models.includes(t.model)) &&
          (query.ids === undefined || query.ids.includes(t.id)),
      )
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return {
      items: hits.slice(query.offset, query.offset + query.limit).map((t) => this.row(t.id)),
      total: hits.length,
    };
  }

  override async externalIdHolder(
    accountId: string,
    externalTaskId: string,
  ): Promise<Pick<TaskEntity, 'id' | 'model'> | null> {
    const holder = [...this.rows.values()].find(
      (t) => t.accountId === accountId && t.externalTaskId === externalTaskId,
    );
    return holder ? { id: holder.id, model: holder.model } : null;
  }

  override async update(id: string, changes: Partial<TaskEntity>): Promise<void> {
    this.fault('update');
    this.plainUpdates.push({ id, changes });
    const row = this.rows.get(id);
    if (row) Object.assign(row, changes);
  }

  /** Only a finished task, once. */
  override async markDeleted(id: string, now: number): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.deletedAt !== null || (row.phase !== 'succeeded' && row.phase !== 'failed')) return false;
    Object.assign(row, { deletedAt: now, updatedAt: now });
    return true;
  }

  override async countOpen(): Promise<number> {
    return [...this.rows.values()].filter((t) => OPEN_PHASES.has(t.phase)).length;
  }

  override async updateIfOpen(id: string, changes: Partial<TaskEntity>): Promise<boolean> {
    this.fault('updateIfOpen');
    const row = this.rows.get(id);
    if (!row || !OPEN_PHASES.has(row.phase)) return false;
    Object.assign(row, changes);
    return true;
  }

  /** Due tasks no live lease holds, soonest due first, leased to `owner`: as the SQL does. */
  override async claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<TaskEntity[]> {
    const due = [...this.rows.values()]
      .filter((t) => t.syncDueAt !== null && t.syncDueAt <= now && (t.leaseUntil === null || t.leaseUntil < now))
      .sort((a, b) => Number(a.syncDueAt) - Number(b.syncDueAt))
      .slice(0, limit);
    for (const row of due) Object.assign(row, { leaseOwner: owner, leaseUntil });
    return due.map((t) => this.row(t.id));
  }

  override async renewLease(id: string, owner: string, leaseUntil: number): Promise<boolean> {
    this.fault('renewLease');
    const row = this.rows.get(id);
    if (!row || row.leaseOwner !== owner) return false;
    row.leaseUntil = leaseUntil;
    return true;
  }
}

export interface FakeAccount {
  balance: number;
  held: number;
  inFlightTasks: number;
}

/** Account balances and slots, shared by the accounts and ledger fakes. */
export class FakeAccountsRepository extends AccountsRepository {
  readonly state = new Map<string, FakeAccount>();

  constructor() {
    super(new Repository(AccountEntity, offlineManager));
  }

  account(id: string): FakeAccount {
    const account = this.state.get(id);
    if (!account) throw new Error(`no account ${id} in the fake repository`);
    return account;
  }

  override async findById(id: string): Promise<AccountEntity | null> {
    const account = this.state.get(id);
    return account ? Object.assign(new AccountEntity(), { id, balance: account.balance, held: account.held }) : null;
  }

  override async releaseTaskSlot(accountId: string): Promise<void> {
    const account = this.account(accountId);
    if (account.inFlightTasks > 0) account.inFlightTasks -= 1;
  }
}

/** Where the fake ledger finds the money of an account: the engine's balances or whole account rows. */
export interface AccountBalances {
  account(id: string): FakeAccount;
}

/** The SQL of money over the fake accounts; the real LedgerService runs on top of it. */
export class FakeLedgerRepository extends LedgerRepository {
  readonly entries: LedgerEntryEntity[] = [];
  readonly usage: UsageRecordEntity[] = [];

  constructor(private readonly accounts: AccountBalances) {
    super(offline);
  }

  /** An operator's credit or debit, within the SQL's guards: never below zero, never above MAX_ACCOUNT_FUNDS. */
  override async adjustBalance(_tx: EntityManager, accountId: string, delta: number): Promise<boolean> {
    const account = this.accounts.account(accountId);
    if (account.balance + delta < 0 || account.balance + account.held + delta > MAX_ACCOUNT_FUNDS) return false;
    account.balance += Math.trunc(delta);
    return true;
  }

  override async takeHold(_tx: EntityManager, accountId: string, amount: number): Promise<boolean> {
    const account = this.accounts.account(accountId);
    if (account.balance < amount) return false;
    account.balance -= amount;
    account.held += amount;
    return true;
  }

  override async closeHold(
    _tx: EntityManager,
    accountId: string,
    held: number,
    charge: number,
    freeTaskSlot = false,
  ): Promise<void> {
    const account = this.accounts.account(accountId);
    account.balance += held - charge;
    account.held -= held;
    if (freeTaskSlot && account.inFlightTasks > 0) account.inFlightTasks -= 1;
  }

  override async addEntry(_tx: EntityManager, entry: LedgerEntryEntity): Promise<void> {
    this.entries.push(entry);
  }

  override async addEntries(_tx: EntityManager, entries: LedgerEntryEntity[]): Promise<void> {
    this.entries.push(...entries);
  }

  override async addUsage(_tx: EntityManager, usage: UsageRecordEntity): Promise<void> {
    this.usage.push(usage);
  }

  kinds(taskId: string): string[] {
    return this.entries.filter((e) => e.taskId === taskId).map((e) => e.kind);
  }
}

/** A catalogue with no models: the fake pricing never consults it. */
class EmptyPricingCatalogue extends PricingCatalogue {
  all(): readonly ModelDescriptor[] {
    return [];
  }
  find(): ModelDescriptor | undefined {
    return undefined;
  }
  capabilities(): readonly never[] {
    return [];
  }
  pricingRule(): PricingRule<BillableUsage> | undefined {
    return undefined;
  }
  priceEntryClass(): undefined {
    return undefined;
  }
}

/** Flat prices: every estimate is `estimateAmount`, every final charge `finalAmount`. */
export class FakePricingService extends PricingService {
  estimateAmount = 100;
  finalAmount = 80;
  priceVersion = 1;

  constructor(config: AppConfig, clock: ManualClock) {
    super(new Repository(PriceVersionEntity, offlineManager), config, clock, new EmptyPricingCatalogue());
  }

  override table(): PriceTable {
    throw new Error('the fake pricing has no table');
  }

  override estimate(): Charge {
    return { amount: this.estimateAmount, priceVersion: this.priceVersion, breakdown: { base: this.estimateAmount } };
  }

  override async final(): Promise<Charge> {
    return { amount: this.finalAmount, priceVersion: this.priceVersion, breakdown: { base: this.finalAmount } };
  }

  override billedSeconds(_usage: BillableUsage, outcome: TaskOutcome): { seconds: number; reported: boolean } {
    return { seconds: outcome.outputSeconds ?? 5, reported: outcome.outputSeconds !== undefined };
  }
}

/** Records the queued callbacks instead of writing outbox rows. */
export class FakeCallbackOutbox extends CallbackOutbox {
  readonly queued: TaskEntity[] = [];

  constructor(families: TaskFamilies, clock: ManualClock) {
    super(
      new CallbackOutboxRepository(new Repository(CallbackDeliveryEntity, offlineManager), offline),
      families,
      clock,
    );
  }

  override async enqueue(task: TaskEntity): Promise<void> {
    if (task.callbackUrl) this.queued.push(Object.assign(new TaskEntity(), task));
  }

  for(taskId: string): TaskEntity[] {
    return this.queued.filter((t) => t.id === taskId);
  }
}

export class FakeTaskFamilies extends TaskFamilies {
  lookUpByReference = false;

  statusWords(): FamilyStatusWords {
    return { submitted: 'SUBMITTED', succeeded: 'SUCCEEDED', failed: 'FAILED' };
  }
  present(task: TaskEntity): unknown {
    return { id: task.id, status: task.nativeStatus };
  }
  presentCreated(task: TaskEntity): CreatedAnswer {
    return { body: { id: task.id, created: true } };
  }
  upstreamOperation(_family: string, action: string): string {
    return action;
  }
  canLookUpByReference(): boolean {
    return this.lookUpByReference;
  }
}

/** What the scripted client answers; each call records its arguments. */
export class FakeUpstreamClient implements UpstreamTaskClient {
  readonly family = 'ax';
  readonly submits: Array<{ operation: string; body: Record<string, unknown>; options?: SubmitOptions }> = [];
  readonly fetches: Array<{ operation: string; id: string }> = [];
  onSubmit: () => Promise<UpstreamSubmitResult> = async () => ({
    upstreamTaskId: 'up-1',
    snapshot: snapshot({ state: 'queued', nativeStatus: 'QUEUED' }),
  });
  onFetch: (id: string) => Promise<UpstreamTaskSnapshot> = async () =>
    snapshot({ state: 'running', nativeStatus: 'RUNNING' });

  submit(
    _channel: UpstreamChannel,
    operation: string,
    body: Record<string, unknown>,
    options?: SubmitOptions,
  ): Promise<UpstreamSubmitResult> {
    this.submits.push({ operation, body, options });
    return this.onSubmit();
  }

  fetch(
    _channel: UpstreamChannel,
    operation: string,
    id: string,
    _options?: FetchOptions,
  ): Promise<UpstreamTaskSnapshot> {
    this.fetches.push({ operation, id });
    return this.onFetch(id);
  }
}

export const CHANNEL: UpstreamChannel = {
  id: 'ax-default',
  family: 'ax',
  baseUrl: 'http://upstream.test',
  apiKey: 'k',
};

export class FakeUpstreamDirectory extends UpstreamDirectory {
  readonly client_ = new FakeUpstreamClient();
  channels: UpstreamChannel[] = [CHANNEL];

  pick(family: string): UpstreamChannel | null {
    return this.channels.find((c) => c.family === family) ?? null;
  }
  channel(id: string): UpstreamChannel | undefined {
    return this.channels.find((c) => c.id === id);
  }
  client(): UpstreamTaskClient {
    return this.client_;
  }
}

export function snapshot(
  overrides: Partial<UpstreamTaskSnapshot> & Pick<UpstreamTaskSnapshot, 'state'>,
): UpstreamTaskSnapshot {
  return { nativeStatus: overrides.state.toUpperCase(), videos: [], voices: [], raw: { fake: true }, ...overrides };
}

export const ACCOUNT_ID = 'acct_1';

/** The caller of `ACCOUNT_ID` (the factories' default account), with a key that may use every model unless `keyModels`. */
export function principal(
  overrides: Partial<Principal['account']> = {},
  keyModels: string[] | null = null,
  grants: Principal['grants'] = new Map(),
): Principal {
  return {
    account: { id: ACCOUNT_ID, name: 'Test', rateLimitRpm: null, maxConcurrentTasks: null, ...overrides },
    apiKey: { id: 'key_1', prefix: 'sk-test', models: keyModels },
    grants,
  };
}

export const MODEL: ModelDescriptor = { name: 'ax-model', family: 'ax', protocol: 'v1', capabilities: [] };

export function draft(overrides: Partial<TaskDraft> = {}): TaskDraft {
  return {
    family: 'ax',
    action: 'r2v',
    model: MODEL,
    upstreamBody: { prompt: 'a cat' },
    snapshot: { prompt: 'a cat' },
    billing: { kind: 'ax-r2v', durationSeconds: 5 },
    callbackUrl: 'https://client.example.com/hook',
    ...overrides,
  };
}

/** The whole engine over in-memory fakes: real TaskEngine, TaskLifecycle, TaskSyncService and LedgerService. */
export function newFakes(env: Record<string, string> = {}) {
  const config = loadConfig(env);
  const clock = new ManualClock();
  const tasks = new FakeTasksRepository();
  const accounts = new FakeAccountsRepository();
  accounts.state.set(ACCOUNT_ID, { balance: 1000, held: 0, inFlightTasks: 0 });
  const ledgerRepository = new FakeLedgerRepository(accounts);
  const transactions = new FakeTransactionRunner();
  const ledger = new LedgerService(ledgerRepository, accounts, transactions, clock, tasks);
  tasks.opener = (task, hold, cap) => {
    const account = accounts.account(task.accountId);
    if (account.inFlightTasks >= cap) return 'at-capacity';
    if (account.balance < hold.amount) return 'insufficient-balance';
    account.inFlightTasks += 1;
    account.balance -= hold.amount;
    account.held += hold.amount;
    ledgerRepository.entries.push(hold);
    return 'opened';
  };
  const pricing = new FakePricingService(config, clock);
  const families = new FakeTaskFamilies();
  const callbacks = new FakeCallbackOutbox(families, clock);
  const metrics = new MetricsService();
  const upstreams = new FakeUpstreamDirectory();
  const lifecycle = new TaskLifecycle(
    tasks,
    accounts,
    ledger,
    pricing,
    callbacks,
    metrics,
    transactions,
    families,
    clock,
    config,
  );
  const engine = new TaskEngine(
    tasks,
    accounts,
    ledger,
    pricing,
    lifecycle,
    upstreams,
    transactions,
    metrics,
    families,
    clock,
    config,
  );
  const sync = new TaskSyncService(tasks, lifecycle, upstreams, ledger, families, clock, transactions, config);
  const client = upstreams.client_;

  /** Stores a task as the engine would have left it (held estimate, slot taken), in the given state. */
  function seedTask(overrides: Partial<TaskEntity> = {}): TaskEntity {
    const now = clock.nowMs();
    const task = taskFactory.build({
      id: `task_${tasks.rows.size + 1}`,
      accountId: ACCOUNT_ID,
      model: MODEL.name,
      channelId: CHANNEL.id,
      upstreamTaskId: 'up-1',
      requestSnapshot: {},
      callbackUrl: 'https://client.example.com/hook',
      createdAt: now,
      updatedAt: now,
      syncDueAt: now,
      leaseOwner: 'worker-1',
      leaseUntil: now + 30_000,
      deadlineAt: now + config.TASK_DEADLINE_MS,
      ...overrides,
    });
    const account = accounts.account(task.accountId);
    if (task.billingState === 'held') {
      account.balance -= task.estimatedCharge;
      account.held += task.estimatedCharge;
    }
    if (task.phase === 'submitting' || task.phase === 'active') account.inFlightTasks += 1;
    tasks.put(task);
    return Object.assign(new TaskEntity(), task);
  }

  return {
    config,
    clock,
    tasks,
    accounts,
    ledgerRepository,
    ledger,
    transactions,
    pricing,
    families,
    callbacks,
    metrics,
    upstreams,
    client,
    lifecycle,
    engine,
    sync,
    seedTask,
    account: () => accounts.account(ACCOUNT_ID),
  };
}

export type Fakes = ReturnType<typeof newFakes>;
