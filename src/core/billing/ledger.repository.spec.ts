import { DataSource } from 'typeorm';
import { databaseTargets, emptySchema } from '../../../test/support/db-targets';
import { dataSourceOptions } from '../../platform/database/data-source-options';
import { HotSql } from '../../platform/database/hot-sql';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { AccountEntity } from '../accounts/entities/account.entity';
import { LedgerEntryEntity } from './entities/ledger-entry.entity';
import { LedgerRepository } from './ledger.repository';

/**
 * The account row's update at the close of a hold (`closeHold`): part of its transaction, and on
 * PostgreSQL sent with the COMMIT in one round trip, so the row lock every create and settlement of
 * the account needs is never held across the gateway's event loop. On PostgreSQL too in CI's second
 * pass (DATABASE_URL, schema re-created) or with TEST_PG_URL.
 */
const targets = databaseTargets();

describe.each(targets)('LedgerRepository.closeHold on %s', (name, url) => {
  let ds: DataSource;
  let ledger: LedgerRepository;
  let transactions: TransactionRunner;
  /** SQL texts sent on the transactions' connections (PostgreSQL). */
  let sent: string[];

  beforeAll(async () => {
    await emptySchema(url);
    ds = new DataSource({ ...dataSourceOptions(url, true, [AccountEntity, LedgerEntryEntity]) } as never);
    await ds.initialize();
    ledger = new LedgerRepository(ds);
    transactions = new TransactionRunner(ds);
    // Every statement a transaction's connection sends, in order.
    const createRunner = ds.createQueryRunner.bind(ds);
    jest.spyOn(ds, 'createQueryRunner').mockImplementation((mode) => {
      const runner = createRunner(mode);
      const connect = runner.connect.bind(runner);
      runner.connect = async () => {
        const client = (await connect()) as { query: (...args: unknown[]) => unknown } | undefined;
        if (client && typeof client.query === 'function' && !(client as { spied?: boolean }).spied) {
          const query = client.query.bind(client);
          Object.assign(client, {
            spied: true,
            query: (...args: unknown[]) => {
              const first = args[0] as string | { text: string };
              sent.push(typeof first === 'string' ? first : first.text);
              return query(...args);
            },
          });
        }
        return client;
      };
      return runner;
    });
  });
  afterAll(() => ds.destroy());

  beforeEach(async () => {
    sent = [];
    await ds.query('DELETE FROM "ledger_entries"');
    await ds.query('DELETE FROM "accounts"');
    await ds
      .getRepository(AccountEntity)
      .insert({ id: 'acct_1', name: 'a', balance: 9_000, held: 1_000, disabled: false, inFlightTasks: 1, webhookSecret: 'w', createdAt: 1, updatedAt: 1 } as never);
  });

  const account = () => ds.getRepository(AccountEntity).findOneByOrFail({ id: 'acct_1' });

  it('closes the hold, takes the charge and frees the slot with its transaction', async () => {
    sent = [];
    await transactions.run(async (tx) => {
      await ledger.closeHold(tx, 'acct_1', 1_000, 400, true);
      await ledger.addEntry(tx, { id: 'led_1', accountId: 'acct_1', kind: 'release', amount: 1_000, taskId: 't', reason: null, priceVersion: null, createdAt: 1 });
    });
    const inTransaction = [...sent];
    expect(await account()).toMatchObject({ balance: 9_600, held: 0, inFlightTasks: 0 });
    expect(await ds.getRepository(LedgerEntryEntity).countBy({ id: 'led_1' })).toBe(1);
    if (name === 'PostgreSQL') {
      // The entry first, then the account row with the COMMIT: one round trip holds the row lock.
      const last = inTransaction[inTransaction.length - 1];
      expect(last).toMatch(/^UPDATE "accounts" SET .* WHERE "id" = 'acct_1'; COMMIT$/);
      expect(inTransaction.slice(0, -1).some((text) => text.includes('"accounts"'))).toBe(false);
      expect(inTransaction.some((text) => text.startsWith('INSERT INTO "ledger_entries"'))).toBe(true);
    }
  });

  it('is undone with the rest of its transaction', async () => {
    await expect(
      transactions.run(async (tx) => {
        await ledger.closeHold(tx, 'acct_1', 1_000, 400, true);
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await account()).toMatchObject({ balance: 9_000, held: 1_000, inFlightTasks: 1 });
  });

  it('rolls the whole transaction back when the statement sent with the COMMIT fails', async () => {
    await expect(
      transactions.run(async (tx) => {
        await ledger.addEntry(tx, { id: 'led_2', accountId: 'acct_1', kind: 'release', amount: 1_000, taskId: 't', reason: null, priceVersion: null, createdAt: 1 });
        // Fails only when it runs: division by zero on PostgreSQL, NULL into a NOT NULL column on SQLite.
        await HotSql.of(ds).runAtCommit(tx, 'UPDATE "accounts" SET "balance" = "balance" / ? WHERE "id" = ?', [0, 'acct_1']);
      }),
    ).rejects.toThrow();
    expect(await ds.getRepository(LedgerEntryEntity).countBy({ id: 'led_2' })).toBe(0);
    expect(await account()).toMatchObject({ balance: 9_000, held: 1_000 });
  });
});
