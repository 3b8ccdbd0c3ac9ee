import {
  accountFactory,
  callbackDeliveryFactory,
  FIXED_NOW,
  keyFactory,
  ledgerEntryFactory,
  resultFileFactory,
  succeededTask,
} from '../../../test/factories';
import { InMemoryCallbackOutboxRepository, InMemoryResultFiles, offline } from '../../../test/fakes';
import { AccountEntity } from '../../core/accounts/entities/account.entity';
import { ApiKeyEntity } from '../../core/accounts/entities/api-key.entity';
import { LedgerEntryEntity } from '../../core/billing/entities/ledger-entry.entity';
import { TaskEntity } from '../../core/tasks/entities/task.entity';
import { loadConfig } from '../../platform/config/app-config';
import { AdminReadsRepository, DailyUsageFilter, DailyUsageRow } from './admin-reads.repository';
import { AdminReadsService } from './admin-reads.service';

/** The console's reads over rows in memory (the searches themselves are the repository's, tested on SQL). */
class InMemoryReads extends AdminReadsRepository {
  accounts: AccountEntity[] = [];
  keys: ApiKeyEntity[] = [];
  tasks: TaskEntity[] = [];
  ledger: LedgerEntryEntity[] = [];
  usage: DailyUsageRow[] = [];
  constructor() {
    super(offline);
  }
  override async accountById(id: string) {
    return this.accounts.find((a) => a.id === id) ?? null;
  }
  override async keyById(id: string) {
    return this.keys.find((k) => k.id === id) ?? null;
  }
  override async keysOfAccount(accountId: string) {
    return this.keys.filter((k) => k.accountId === accountId);
  }
  override async taskById(id: string) {
    return this.tasks.find((t) => t.id === id) ?? null;
  }
  override async ledgerOfTask(taskId: string) {
    return this.ledger.filter((e) => e.taskId === taskId);
  }
  override async dailyUsage(_filter: DailyUsageFilter) {
    return this.usage;
  }
}

const at = (seconds: number) => FIXED_NOW + seconds * 1000;

function setup() {
  const reads = new InMemoryReads();
  const outbox = new InMemoryCallbackOutboxRepository();
  const files = new InMemoryResultFiles();
  const service = new AdminReadsService(reads, outbox, files, loadConfig({ CALLBACK_MAX_ATTEMPTS: '5' }));
  reads.accounts.push(accountFactory.build({ id: 'acct_1', name: 'Acme' }));
  reads.keys.push(keyFactory.build({ id: 'key_1', accountId: 'acct_1', prefix: 'sk-abcdef' }));
  return { service, reads, outbox, files };
}

describe('AdminReadsService', () => {
  it('tells one task’s whole story in time order, from the times that are recorded', async () => {
    const f = setup();
    f.reads.tasks.push(
      succeededTask({ id: 'task_1', apiKeyId: 'key_1', channelId: 'ax-a', createdAt: at(0), finishedAt: at(30) }),
    );
    f.reads.ledger.push(
      ledgerEntryFactory.build({ taskId: 'task_1', kind: 'charge', amount: 80, createdAt: at(30) }),
      ledgerEntryFactory.build({ taskId: 'task_1', kind: 'hold', amount: 100, createdAt: at(0) }),
    );
    await f.outbox.add(
      undefined,
      callbackDeliveryFactory.build({ taskId: 'task_1', status: 'delivered', updatedAt: at(31) }),
    );
    f.files.rows.set(
      'task_1.v0',
      resultFileFactory.build({ id: 'task_1.v0', taskId: 'task_1', status: 'stored', storedAt: at(40) }),
    );
    const detail = await f.service.task('task_1');
    expect(detail).toMatchObject({ id: 'task_1', account_name: 'Acme', key_prefix: 'sk-abcdef' });
    expect(detail.timeline.map((e) => [e.event, e.detail])).toEqual([
      ['created', 'ax r2v on ax-a'],
      ['hold', '100'],
      ['charge', '80'],
      ['finished', 'succeeded'],
      ['callback_delivered', null],
      ['result_stored', 'v0'],
    ]);
    expect(detail.videos).toEqual([{ slot: 'v0', url: 'https://upstream.test/v.mp4' }]);
  });

  it('never shows the gateway’s callback token or a credential of the request', async () => {
    const f = setup();
    f.reads.tasks.push(
      succeededTask({
        id: 'task_1',
        callbackToken: 'tok123',
        requestSnapshot: { prompt: 'p', callback_url: 'https://gw.test/callbacks/tok123', api_key: 'sk-live' },
      }),
    );
    const detail = await f.service.task('task_1');
    expect(detail.upstream_request).toEqual({
      prompt: 'p',
      callback_url: 'https://gw.test/callbacks/***',
      api_key: '***',
    });
  });

  it('a deleted task gives no file URL, and its deletion is the last event', async () => {
    const f = setup();
    f.reads.tasks.push(succeededTask({ id: 'task_1', finishedAt: at(30), deletedAt: at(90) }));
    const detail = await f.service.task('task_1');
    expect(detail.videos).toEqual([]);
    expect(detail.timeline.at(-1)).toEqual({ at: new Date(at(90)).toISOString(), event: 'deleted', detail: null });
  });

  it('404 for an unknown task, and for the keys of an unknown account', async () => {
    const f = setup();
    await expect(f.service.task('task_none')).rejects.toMatchObject({ status: 404 });
    await expect(f.service.keys('acct_none')).rejects.toMatchObject({ status: 404 });
    await expect(f.service.keys('acct_1')).resolves.toMatchObject({ account_id: 'acct_1', items: [{ id: 'key_1' }] });
  });

  it('refuses a period that ends before it starts, on `to`', async () => {
    const f = setup();
    // Thrown before the search starts (synchronously): awaited as the controller does.
    await expect(
      Promise.resolve().then(() => f.service.tasks({ fromMs: at(10), toMs: at(5), limit: 10 })),
    ).rejects.toMatchObject({
      status: 400,
      param: 'to',
    });
    await expect(f.service.dailyUsage({ fromMs: at(10), toMs: at(5) })).rejects.toMatchObject({
      status: 400,
      param: 'to',
    });
  });

  it('reports daily usage by UTC day', async () => {
    const f = setup();
    f.reads.usage = [{ dayMs: Date.UTC(2026, 0, 2), model: 'ax-model', tasks: 3, amount: 240, operations: 1 }];
    await expect(f.service.dailyUsage({})).resolves.toEqual([
      { day: '2026-01-02', model: 'ax-model', tasks: 3, amount: 240, operations: 1 },
    ]);
  });
});
