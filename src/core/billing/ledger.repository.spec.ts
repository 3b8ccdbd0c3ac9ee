import { DataSource, EntityManager } from 'typeorm';
import { databaseTargets, openTestDataSource } from '../../../test/support/db-targets';
import { HotSql } from '../../platform/database/hot-sql';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { AccountEntity } from '../accounts/entities/account.entity';
import { LedgerEntryEntity } from './entities/ledger-entry.entity';
import { UsageRecordEntity } from './entities/usage-record.entity';
import { LedgerRepository } from './ledger.repository';
import { accountFactory } from '../../../test/factories/accounts';

/**
 * The account row's update at the close of a hold (`closeHold`): part of its transaction, and on
 * PostgreSQL sent with the COMMIT in one round trip, so the row lock every create and settlement of
 * the account needs is never held across the gateway's event loop. The ledger entries and usage row
 * written before it go out in that same round trip. On PostgreSQL too in CI's second pass
 * (DATABASE_URL, schema re-created) or with TEST_PG_URL.
 */
const targets = databaseTargets();

describe.each(targets)('LedgerRepository.closeHold on %s', (name, url) => {
  let ds: DataSource;
  let ledger: LedgerRepository;
  let transactions: TransactionRunner;
  /** SQL texts sent on the transactions' connections (PostgreSQL). */
  let sent: string[];

  beforeAll(async () => {
    ds = await openTestDataSource(url, [AccountEntity, LedgerEntryEntity, UsageRecordEntity]);
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
    await ds.query('DELETE FROM "usage_records"');
    await ds.query('DELETE FROM "accounts"');
    await ds
      .getRepository(AccountEntity)
      .insert(accountFactory.build({ id: 'acct_1', name: 'a', balance: 9_000, held: 1_000, inFlightTasks: 1 }));
  });

  const account = () => ds.getRepository(AccountEntity).findOneByOrFail({ id: 'acct_1' });

  const settlementRows = async (tx: EntityManager, suffix: string): Promise<void> => {
    const entries = [
      ['r', 'release', 1_000, "hold closed at 'settlement'", 3],
      ['c', 'charge', 400, null, null],
    ] as const;
    for (const [prefix, kind, amount, reason, priceVersion] of entries)
      await ledger.addEntry(tx, {
        id: `led_${prefix}${suffix}`,
        accountId: 'acct_1',
        kind,
        amount,
        taskId: 't',
        reason,
        priceVersion,
        createdAt: 1,
      });
    await ledger.addUsage(tx, {
      id: `use_${suffix}`,
      taskId: 't',
      accountId: 'acct_1',
      model: 'm',
      action: 'a',
      amount: 400,
      priceVersion: 3,
      usage: { seconds: 5, note: 'it\'s "quoted" \\ ?' },
      createdAt: 2,
    });
    await ledger.closeHold(tx, 'acct_1', 1_000, 400, true);
  };

  it('closes the hold, takes the charge and frees the slot with its transaction', async () => {
    sent = [];
    await transactions.run((tx) => settlementRows(tx, '1'));
    const inTransaction = [...sent];
    expect(await account()).toMatchObject({ balance: 9_600, held: 0, inFlightTasks: 0 });
    expect(await ds.getRepository(LedgerEntryEntity).findOneByOrFail({ id: 'led_r1' })).toMatchObject({
      amount: 1_000,
      reason: "hold closed at 'settlement'",
      priceVersion: 3,
    });
    expect(await ds.getRepository(LedgerEntryEntity).findOneByOrFail({ id: 'led_c1' })).toMatchObject({
      amount: 400,
      reason: null,
      priceVersion: null,
    });
    expect(await ds.getRepository(UsageRecordEntity).findOneByOrFail({ id: 'use_1' })).toMatchObject({
      amount: 400,
      usage: { seconds: 5, note: 'it\'s "quoted" \\ ?' },
    });
    if (name === 'PostgreSQL') {
      // BEGIN, then everything in one round trip with the COMMIT: the entries and the usage row,
      // the account row last, so its lock is held only while PostgreSQL runs them.
      expect(inTransaction).toHaveLength(2);
      expect(inTransaction[0]).toBe('START TRANSACTION');
      expect(inTransaction[1]).toMatch(
        /^INSERT INTO "ledger_entries" .*; INSERT INTO "ledger_entries" .*; INSERT INTO "usage_records" .*; UPDATE "accounts" SET .* WHERE "id" = 'acct_1'; COMMIT$/,
      );
    }
  });

  it('rolls the whole transaction back when an entry sent with the COMMIT is refused', async () => {
    await transactions.run((tx) => settlementRows(tx, '1'));
    // The same ledger entry ID again: the primary key refuses it only when it runs, at the COMMIT.
    await expect(transactions.run((tx) => settlementRows(tx, '1'))).rejects.toThrow();
    expect(await account()).toMatchObject({ balance: 9_600, held: 0, inFlightTasks: 0 });
    expect(await ds.getRepository(LedgerEntryEntity).count()).toBe(2);
    expect(await ds.getRepository(UsageRecordEntity).count()).toBe(1);
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
        await ledger.addEntry(tx, {
          id: 'led_2',
          accountId: 'acct_1',
          kind: 'release',
          amount: 1_000,
          taskId: 't',
          reason: null,
          priceVersion: null,
          createdAt: 1,
        });
        // Fails only when it runs: division by zero on PostgreSQL, NULL into a NOT NULL column on SQLite.
        await HotSql.of(ds).runAtCommit(tx, 'UPDATE "accounts" SET "balance" = "balance" / ? WHERE "id" = ?', [
          0,
          'acct_1',
        ]);
      }),
    ).rejects.toThrow();
    expect(await ds.getRepository(LedgerEntryEntity).countBy({ id: 'led_2' })).toBe(0);
    expect(await account()).toMatchObject({ balance: 9_000, held: 1_000 });
  });
});
