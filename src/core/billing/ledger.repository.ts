import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { HotSql } from '../../platform/database/hot-sql';
import { AccountEntity } from '../accounts/entities/account.entity';
import { LedgerEntryEntity, LedgerKind } from './entities/ledger-entry.entity';
import { UsageRecordEntity } from './entities/usage-record.entity';
import { MAX_ACCOUNT_FUNDS } from './pricing/units';

export interface LedgerTotals {
  accountId: string;
  totals: Record<LedgerKind, number>;
}

/** The SQL of money: conditional balance updates, entries, usage rows and the reconciliation sums. */
@Injectable()
export class LedgerRepository {
  /** Fixed SQL, amounts as parameters: one prepared statement serves every call (see HotSql). */
  private readonly hot: HotSql;

  constructor(private readonly dataSource: DataSource) {
    this.hot = HotSql.of(dataSource);
  }

  /** Moves `amount` from available to held only if available covers it. */
  async takeHold(tx: EntityManager, accountId: string, amount: number): Promise<boolean> {
    const a = Math.trunc(amount);
    const sql =
      'UPDATE "accounts" SET "balance" = "balance" - ?, "held" = "held" + ? WHERE "id" = ? AND "balance" >= ?';
    return (await this.hot.run(tx, sql, [a, a, accountId, a])) === 1;
  }

  /**
   * Gives back a hold and takes the charge (0 on failure) in one statement; with `freeTaskSlot`
   * the same statement frees the task's concurrency slot. On PostgreSQL it goes out with the
   * transaction's COMMIT (`HotSql.runAtCommit`), so the account row is locked only while the two run.
   */
  async closeHold(
    tx: EntityManager,
    accountId: string,
    held: number,
    charge: number,
    freeTaskSlot = false,
  ): Promise<void> {
    const h = Math.trunc(held);
    const slot = freeTaskSlot
      ? ', "in_flight_tasks" = CASE WHEN "in_flight_tasks" > 0 THEN "in_flight_tasks" - 1 ELSE "in_flight_tasks" END'
      : '';
    await this.hot.runAtCommit(
      tx,
      `UPDATE "accounts" SET "balance" = "balance" + ?, "held" = "held" - ?${slot} WHERE "id" = ?`,
      [h - Math.trunc(charge), h, accountId],
    );
  }

  /**
   * Credit (positive) or debit (negative); a debit never takes the available balance below zero,
   * a credit never takes the account's funds (balance and holds) above MAX_ACCOUNT_FUNDS.
   */
  async adjustBalance(tx: EntityManager, accountId: string, delta: number): Promise<boolean> {
    const qb = tx
      .createQueryBuilder()
      .update(AccountEntity)
      .set({ balance: () => 'balance + :delta' });
    const amount = Math.trunc(delta);
    const result = await (
      amount >= 0
        ? qb.where('id = :accountId AND balance + held <= :room', {
            accountId,
            delta: amount,
            room: MAX_ACCOUNT_FUNDS - amount,
          })
        : qb.where('id = :accountId AND balance >= :need', { accountId, delta: amount, need: -amount })
    ).execute();
    return (result.affected ?? 0) === 1;
  }

  /**
   * Entries and usage rows are written, never read back, in the transaction that moves the money:
   * on PostgreSQL they go out with its COMMIT (`HotSql.insertAtCommit`), not a round trip each.
   * Call them before `closeHold`, which must stay the last statement (see there).
   */
  async addEntry(tx: EntityManager, entry: LedgerEntryEntity): Promise<void> {
    await this.hot.insertAtCommit(tx, LedgerEntryEntity, entry);
  }

  /** Several entries in one INSERT (a settlement's release and charge). */
  async addEntries(tx: EntityManager, entries: LedgerEntryEntity[]): Promise<void> {
    await this.hot.insertManyAtCommit(tx, LedgerEntryEntity, entries);
  }

  async addUsage(tx: EntityManager, usage: UsageRecordEntity): Promise<void> {
    await this.hot.insertAtCommit(tx, UsageRecordEntity, usage);
  }

  /** Sums of every entry kind per account, for reconciliation. */
  async totalsByAccount(manager?: EntityManager): Promise<LedgerTotals[]> {
    const rows: Array<{ account_id: string; kind: LedgerKind; total: string | number }> = await (
      manager ?? this.dataSource.manager
    )
      .createQueryBuilder()
      .select('e.account_id', 'account_id')
      .addSelect('e.kind', 'kind')
      .addSelect('SUM(e.amount)', 'total')
      .from(LedgerEntryEntity, 'e')
      .groupBy('e.account_id')
      .addGroupBy('e.kind')
      .getRawMany();
    const byAccount = new Map<string, LedgerTotals>();
    for (const row of rows) {
      const entry = byAccount.get(row.account_id) ?? {
        accountId: row.account_id,
        totals: { credit: 0, debit: 0, hold: 0, release: 0, charge: 0 },
      };
      entry.totals[row.kind] = Number(row.total);
      byAccount.set(row.account_id, entry);
    }
    return [...byAccount.values()];
  }
}
