import { Injectable, Optional } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { GatewayError } from '../../platform/errors';
import { newId } from '../../platform/ids/ids';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { Clock } from '../../platform/time/clock';
import { AccountsRepository } from '../accounts/repositories/accounts.repository';
import { LedgerEntryEntity, LedgerKind } from './entities/ledger-entry.entity';
import { HoldGate } from './hold-gate';
import { insufficientQuota } from './insufficient-quota';
import { LedgerRepository } from './ledger.repository';
import { MAX_ACCOUNT_FUNDS, wholeNumber } from './pricing/units';

export interface SettlementCharge {
  amount: number;
  priceVersion: number;
  model: string;
  action: string;
  usage: Record<string, unknown>;
}

/**
 * How a task's hold is closed. The account row is written last, in one statement with the hold and,
 * with `freeTaskSlot`, the task's concurrency slot: on PostgreSQL every create and settlement of an
 * account takes that row's lock, and it is then held only from that statement to the commit.
 */
export interface CloseOptions {
  /** Free the task's concurrency slot in the same statement (only when the hold is closed). */
  freeTaskSlot?: boolean;
}

export interface LedgerMismatch {
  account_id: string;
  field: 'balance' | 'held';
  stored: number;
  expected: number;
}

/**
 * Money moves only here. Invariant per account, proven by `verify()`:
 * balance = credits - debits - charges - open holds; held = open holds (holds - releases).
 */
@Injectable()
export class LedgerService {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly accounts: AccountsRepository,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    // Absent only where nothing is settled (the ledger:verify command).
    @Optional() private readonly gate?: HoldGate,
  ) {}

  /** Admin credit (delta > 0) or debit (delta < 0), in the caller's transaction when given. */
  async adjust(accountId: string, delta: number, reason: string, inTransaction?: EntityManager): Promise<void> {
    await this.within(inTransaction, async (tx) => {
      if (!(await this.ledger.adjustBalance(tx, accountId, delta))) {
        throw GatewayError.invalid(
          delta < 0
            ? 'The debit exceeds the available balance.'
            : `The credit would take the account's funds (balance and holds) above ${MAX_ACCOUNT_FUNDS}.`,
          'delta',
        );
      }
      await this.ledger.addEntry(
        tx,
        this.entry(accountId, delta >= 0 ? 'credit' : 'debit', Math.abs(delta), null, reason, null),
      );
    });
  }

  /**
   * The ledger entry of a hold taken at creation, shaped here so money rows have one author; the
   * caller writes it in the same statement that takes the hold (`TasksRepository.open`).
   */
  holdEntry(accountId: string, taskId: string, estimate: number, priceVersion: number): LedgerEntryEntity {
    return this.entry(
      accountId,
      'hold',
      units(estimate, 'hold amount'),
      taskId,
      'estimated charge held at creation',
      priceVersion,
    );
  }

  /** Releases a task's hold in full (failure, rejection, deadline). Returns false if it was already closed. */
  async release(
    accountId: string,
    taskId: string,
    held: number,
    reason: string,
    inTransaction?: EntityManager,
    options: CloseOptions = {},
  ): Promise<boolean> {
    const heldAmount = units(held, 'held amount');
    return this.within(inTransaction, async (tx) => {
      if (!(await this.requireGate().close(tx, taskId, 'released', null, null))) return false;
      await this.ledger.addEntry(tx, this.entry(accountId, 'release', heldAmount, taskId, reason, null));
      // The account row last (see CloseOptions).
      await this.ledger.closeHold(tx, accountId, heldAmount, 0, options.freeTaskSlot);
      return true;
    });
  }

  /** Releases the hold and takes the final charge, writing the usage log row. Once only. */
  async settle(
    accountId: string,
    taskId: string,
    held: number,
    final: SettlementCharge,
    inTransaction?: EntityManager,
    options: CloseOptions = {},
  ): Promise<boolean> {
    const heldAmount = units(held, 'held amount');
    const charge = { ...final, amount: units(final.amount, 'charge amount') };
    // A charge above its hold would take money the account never had available.
    if (charge.amount > heldAmount)
      throw new Error(`Charge ${charge.amount} exceeds the hold ${heldAmount} of task ${taskId}.`);
    return this.within(inTransaction, async (tx) => {
      if (!(await this.requireGate().close(tx, taskId, 'settled', charge.amount, charge.priceVersion))) return false;
      await this.ledger.addEntries(tx, [
        this.entry(accountId, 'release', heldAmount, taskId, 'hold closed at settlement', charge.priceVersion),
        this.entry(accountId, 'charge', charge.amount, taskId, 'final charge', charge.priceVersion),
      ]);
      await this.ledger.addUsage(tx, {
        id: newId('use'),
        taskId,
        accountId,
        model: charge.model,
        action: charge.action,
        amount: charge.amount,
        priceVersion: charge.priceVersion,
        usage: charge.usage,
        createdAt: this.clock.nowMs(),
      });
      // The account row last (see CloseOptions).
      await this.ledger.closeHold(tx, accountId, heldAmount, charge.amount, options.freeTaskSlot);
      return true;
    });
  }

  /**
   * A priced synchronous call (no task record): holds `charge.amount` (403 insufficient_quota when
   * the balance cannot cover it), runs `work`, then takes the charge and writes the usage row under
   * `reference` when it succeeds, or gives the hold back in full when it throws. A zero price holds
   * nothing but still writes the usage row, so every call is in the usage log.
   */
  async chargeCall<T>(
    accountId: string,
    reference: string,
    charge: SettlementCharge,
    work: () => Promise<T>,
  ): Promise<T> {
    const amount = units(charge.amount, 'charge amount');
    if (amount > 0) {
      const held = await this.transactions.run(async (tx) => {
        if (!(await this.ledger.takeHold(tx, accountId, amount))) return false;
        await this.ledger.addEntry(
          tx,
          this.entry(accountId, 'hold', amount, reference, `held for ${charge.action}`, charge.priceVersion),
        );
        return true;
      });
      if (!held) throw insufficientQuota(await this.accounts.findById(accountId).catch(() => null), amount);
    }
    let result: T;
    try {
      result = await work();
    } catch (error) {
      if (amount > 0) {
        await this.transactions.run(async (tx) => {
          await this.ledger.addEntry(
            tx,
            this.entry(accountId, 'release', amount, reference, `${charge.action} failed`, charge.priceVersion),
          );
          await this.ledger.closeHold(tx, accountId, amount, 0);
        });
      }
      throw error;
    }
    await this.transactions.run(async (tx) => {
      if (amount > 0) {
        await this.ledger.addEntries(tx, [
          this.entry(accountId, 'release', amount, reference, 'hold closed at settlement', charge.priceVersion),
          this.entry(accountId, 'charge', amount, reference, charge.action, charge.priceVersion),
        ]);
      }
      await this.ledger.addUsage(tx, {
        id: newId('use'),
        taskId: reference,
        accountId,
        model: charge.model,
        action: charge.action,
        amount,
        priceVersion: charge.priceVersion,
        usage: charge.usage,
        createdAt: this.clock.nowMs(),
      });
      // The account row last (see CloseOptions).
      if (amount > 0) await this.ledger.closeHold(tx, accountId, amount, amount);
    });
    return result;
  }

  /** Proves the invariant from the entries for every account. */
  async verify(): Promise<{ ok: boolean; accounts_checked: number; mismatches: LedgerMismatch[] }> {
    // One snapshot for both reads: a settlement committing between them would read as a mismatch.
    const [totals, accounts] = await this.transactions.run(async (tx) => {
      if (tx.connection?.options.type === 'postgres') await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      return [await this.ledger.totalsByAccount(tx), await this.accounts.all(tx)] as const;
    });
    const byAccount = new Map(totals.map((t) => [t.accountId, t.totals]));
    const mismatches: LedgerMismatch[] = [];
    for (const account of accounts) {
      const t = byAccount.get(account.id) ?? { credit: 0, debit: 0, hold: 0, release: 0, charge: 0 };
      const openHolds = t.hold - t.release;
      const expectedBalance = t.credit - t.debit - t.charge - openHolds;
      if (account.balance !== expectedBalance)
        mismatches.push({
          account_id: account.id,
          field: 'balance',
          stored: account.balance,
          expected: expectedBalance,
        });
      if (account.held !== openHolds)
        mismatches.push({ account_id: account.id, field: 'held', stored: account.held, expected: openHolds });
    }
    return { ok: mismatches.length === 0, accounts_checked: accounts.length, mismatches };
  }

  private requireGate(): HoldGate {
    if (!this.gate) throw new Error('No HoldGate is registered: holds cannot be closed in this context.');
    return this.gate;
  }

  /** Joins the caller's transaction when given (so a task's ending and its billing commit together), else opens one. */
  private within<T>(tx: EntityManager | undefined, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return tx ? work(tx) : this.transactions.run(work);
  }

  private entry(
    accountId: string,
    kind: LedgerKind,
    amount: number,
    taskId: string | null,
    reason: string | null,
    priceVersion: number | null,
  ): LedgerEntryEntity {
    return { id: newId('led'), accountId, kind, amount, taskId, reason, priceVersion, createdAt: this.clock.nowMs() };
  }
}

/**
 * Amounts enter the ledger as whole units. A bigint read raw from PostgreSQL arrives as digits
 * in a string and is accepted as its number; anything else (fractions, NaN, negatives) is a bug.
 */
function units(value: number | string, what: string): number {
  return wholeNumber(typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value, what);
}
