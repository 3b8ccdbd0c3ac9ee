import { EntityManager } from 'typeorm';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { ManualClock } from '../../platform/time/clock';
import { AccountEntity } from '../accounts/entities/account.entity';
import { AccountsRepository } from '../accounts/repositories/accounts.repository';
import { LedgerKind } from './entities/ledger-entry.entity';
import { LedgerRepository, LedgerTotals } from './ledger.repository';
import { HoldGate } from './hold-gate';
import { LedgerService } from './ledger.service';

const account = (id: string, balance: number, held: number) => ({ id, balance, held }) as AccountEntity;
const totals = (accountId: string, t: Partial<Record<LedgerKind, number>>): LedgerTotals => ({
  accountId,
  totals: { credit: 0, debit: 0, hold: 0, release: 0, charge: 0, ...t },
});

function ledgerWith(accounts: AccountEntity[], sums: LedgerTotals[], repo: Partial<LedgerRepository> = {}) {
  const ledger = { totalsByAccount: async () => sums, ...repo } as unknown as LedgerRepository;
  const accountsRepo = {
    all: async () => accounts,
    findById: async (id: string) => accounts.find((a) => a.id === id) ?? null,
  } as unknown as AccountsRepository;
  const transactions = {
    run: (work: (tx: EntityManager) => Promise<unknown>) => work({} as EntityManager),
  } as unknown as TransactionRunner;
  const openGate: HoldGate = { close: async () => true };
  return new LedgerService(ledger, accountsRepo, transactions, new ManualClock(), openGate);
}

describe('LedgerService.verify: balance = credits - debits - charges - open holds; held = open holds', () => {
  it('accepts books that reconcile, including an account with no entries', async () => {
    // credits 10000, debit 500, one task settled (hold 3000, release 3000, charge 2500), one open (hold 1200)
    const books = totals('a', { credit: 10_000, debit: 500, hold: 4200, release: 3000, charge: 2500 });
    const result = await ledgerWith(
      [account('a', 10_000 - 500 - 2500 - 1200, 1200), account('empty', 0, 0)],
      [books],
    ).verify();
    expect(result).toEqual({ ok: true, accounts_checked: 2, mismatches: [] });
  });

  it('reads the entries and the accounts in one transaction (one snapshot on PostgreSQL)', async () => {
    const tx = {
      query: jest.fn(async () => []),
      connection: { options: { type: 'postgres' } },
    } as unknown as EntityManager;
    const seen: unknown[] = [];
    const ledger = { totalsByAccount: async (m: unknown) => (seen.push(m), []) } as unknown as LedgerRepository;
    const accountsRepo = { all: async (m: unknown) => (seen.push(m), []) } as unknown as AccountsRepository;
    const transactions = {
      run: (work: (m: EntityManager) => Promise<unknown>) => work(tx),
    } as unknown as TransactionRunner;
    await new LedgerService(ledger, accountsRepo, transactions, new ManualClock(), {
      close: async () => true,
    }).verify();
    expect(seen).toEqual([tx, tx]);
    expect(tx.query).toHaveBeenCalledWith('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
  });

  it('names the account and field of every mismatch with the stored and expected figures', async () => {
    const books = [totals('a', { credit: 10_000, hold: 1000 }), totals('b', { credit: 500 })];
    const result = await ledgerWith(
      [account('a', 9000, 999), account('b', 501, 0), account('c', 7, 0)],
      books,
    ).verify();
    expect(result.ok).toBe(false);
    expect(result.mismatches).toEqual([
      { account_id: 'a', field: 'held', stored: 999, expected: 1000 },
      { account_id: 'b', field: 'balance', stored: 501, expected: 500 },
      { account_id: 'c', field: 'balance', stored: 7, expected: 0 },
    ]);
  });
});

describe('LedgerService amounts', () => {
  const gate = {
    closeHold: async () => undefined,
    addEntry: async () => undefined,
    addEntries: async () => undefined,
    addUsage: async () => undefined,
  };
  const charge = (amount: number) => ({ amount, priceVersion: 1, model: 'wx2.7-r2v', action: 'r2v', usage: {} });

  it('accepts a held amount read raw from PostgreSQL (digits as text) as its number', async () => {
    const closeHold = jest.fn(async () => undefined);
    const service = ledgerWith([], [], { ...gate, closeHold });
    await service.release('a', 't', '5200' as unknown as number, 'failed');
    expect(closeHold).toHaveBeenCalledWith(expect.anything(), 'a', 5200, 0, undefined);
  });

  it.each([[5.5], [-1], [Number.NaN], ['52x' as unknown as number]])('refuses %p as an amount', async (amount) => {
    const service = ledgerWith([], [], gate);
    await expect(service.release('a', 't', amount, 'failed')).rejects.toThrow(/must be a non-negative integer/);
    await expect(service.settle('a', 't', 1000, charge(amount))).rejects.toThrow(/must be a non-negative integer/);
  });

  it('refuses a charge above its hold', async () => {
    const service = ledgerWith([], [], gate);
    await expect(service.settle('a', 't', 1000, charge(1001))).rejects.toThrow(/exceeds the hold/);
    await expect(service.settle('a', 't', 1000, charge(1000))).resolves.toBe(true);
  });
});

describe('LedgerService.chargeCall: priced synchronous calls', () => {
  const charge = (amount: number) => ({
    amount,
    priceVersion: 3,
    model: 'kl-v1',
    action: 'session_add',
    usage: { kind: 'kl-session-op', operation: 'add' },
  });
  function recording(takeHold = true) {
    const calls: string[] = [];
    const repo = {
      takeHold: jest.fn(async () => {
        calls.push('takeHold');
        return takeHold;
      }),
      closeHold: jest.fn(async (_tx: unknown, _a: string, held: number, taken: number, freeTaskSlot?: boolean) => {
        calls.push(`closeHold ${held} ${taken}${freeTaskSlot ? ' +slot' : ''}`);
      }),
      addEntry: jest.fn(async (_tx: unknown, e: { kind: string; amount: number }) => {
        calls.push(`entry ${e.kind} ${e.amount}`);
      }),
      addEntries: jest.fn(async (_tx: unknown, entries: Array<{ kind: string; amount: number }>) => {
        calls.push(`entries ${entries.map((e) => `${e.kind} ${e.amount}`).join(', ')}`);
      }),
      addUsage: jest.fn(async (_tx: unknown, u: { action: string; amount: number; taskId: string }) => {
        calls.push(`usage ${u.action} ${u.amount} ${u.taskId}`);
      }),
    };
    return { calls, service: ledgerWith([], [], repo as unknown as Partial<LedgerRepository>) };
  }

  it('holds, runs the call, then charges (release and charge in one INSERT) and writes the usage row, the account row last', async () => {
    const { calls, service } = recording();
    await expect(service.chargeCall('a', 'ref1', charge(40), async () => 'ok')).resolves.toBe('ok');
    expect(calls).toEqual([
      'takeHold',
      'entry hold 40',
      'entries release 40, charge 40',
      'usage session_add 40 ref1',
      'closeHold 40 40',
    ]);
  });

  it('a task settlement writes the entries and usage first and the account row last, with the slot when asked', async () => {
    const { calls, service } = recording();
    await expect(service.settle('a', 't1', 50, charge(40), undefined, { freeTaskSlot: true })).resolves.toBe(true);
    // The release and the charge in one INSERT.
    expect(calls).toEqual(['entries release 50, charge 40', 'usage session_add 40 t1', 'closeHold 50 40 +slot']);
  });

  it('a task release writes its entry first and the account row last; without the option the slot stays', async () => {
    const { calls, service } = recording();
    await expect(service.release('a', 't1', 50, 'failed')).resolves.toBe(true);
    expect(calls).toEqual(['entry release 50', 'closeHold 50 0']);
  });

  it('charges nothing and gives the hold back when the call fails, the account row last', async () => {
    const { calls, service } = recording();
    await expect(
      service.chargeCall('a', 'ref1', charge(40), async () => {
        throw new Error('upstream down');
      }),
    ).rejects.toThrow('upstream down');
    expect(calls).toEqual(['takeHold', 'entry hold 40', 'entry release 40', 'closeHold 40 0']);
  });

  it('refuses with insufficient_quota before the call when the balance cannot cover it', async () => {
    const { calls, service } = recording(false);
    const work = jest.fn(async () => 'ok');
    await expect(service.chargeCall('a', 'ref1', charge(40), work)).rejects.toMatchObject({
      code: 'insufficient_quota',
    });
    expect(work).not.toHaveBeenCalled();
    expect(calls).toEqual(['takeHold']);
  });

  it('insufficient_quota says the available balance, the amount held and the price of the call', async () => {
    const service = ledgerWith([account('a', 25, 60)], [], { takeHold: async () => false });
    const refusal = service.chargeCall('a', 'ref1', charge(40), async () => 'ok');
    await expect(refusal).rejects.toMatchObject({
      code: 'insufficient_quota',
      message: expect.stringContaining('available balance 25, held for tasks in flight 60, price of this request 40'),
    });
  });

  it('a free call holds nothing but is still in the usage log; a failed free call leaves no trace', async () => {
    const { calls, service } = recording();
    await service.chargeCall('a', 'ref1', charge(0), async () => 'ok');
    expect(calls).toEqual(['usage session_add 0 ref1']);
    calls.length = 0;
    await expect(
      service.chargeCall('a', 'ref2', charge(0), async () => {
        throw new Error('x');
      }),
    ).rejects.toThrow('x');
    expect(calls).toEqual([]);
  });
});
