import { accountFactory } from '../../../test/factories';
import { FakeLedgerRepository, OWNER_ORIGIN, newAccountsFakes } from '../../../test/fakes';
import { AccountFunding } from './account-funding.service';
import { LedgerService } from './ledger.service';
import { MAX_ACCOUNT_FUNDS } from './pricing/units';

/** The real AccountFunding, AccountsService and LedgerService over in-memory accounts and ledger. */
function setup(account: { held?: number } = {}) {
  const f = newAccountsFakes({ accounts: [accountFactory.build({ id: 'acct_1', balance: 300, ...account })] });
  const ledgerRepository = new FakeLedgerRepository(f.accounts);
  const ledger = new LedgerService(ledgerRepository, f.accounts, f.transactions, f.clock);
  const funding = new AccountFunding(f.service, ledger, f.transactions, f.audit.trail);
  return { ...f, funding, ledgerRepository };
}

describe('AccountFunding', () => {
  it('opens an account with its opening balance as a ledger credit, audited with the balance it opened with', async () => {
    const f = setup();
    const { account } = await f.funding.open({ name: 'New', balance: 2500, rateLimitRpm: 30 }, OWNER_ORIGIN);
    expect(account).toMatchObject({ name: 'New', balance: 2500, held: 0, rateLimitRpm: 30 });
    expect(f.ledgerRepository.entries).toEqual([
      expect.objectContaining({ accountId: account.id, kind: 'credit', amount: 2500, reason: 'opening balance' }),
    ]);
    expect(f.audit.entries()).toEqual([
      expect.objectContaining({
        action: 'account.create',
        before: null,
        after: expect.objectContaining({ id: account.id, name: 'New', balance: 2500 }),
      }),
    ]);
  });

  it('opens an account with no balance without a ledger entry', async () => {
    const f = setup();
    const { account } = await f.funding.open({ name: 'Empty' }, OWNER_ORIGIN);
    expect(account.balance).toBe(0);
    expect(f.ledgerRepository.entries).toEqual([]);
    expect(f.audit.entries().map((e) => e.action)).toEqual(['account.create']);
  });

  it('credits and debits through the ledger, auditing the balance before and after with the reason', async () => {
    const f = setup();
    await f.funding.adjust('acct_1', 200, 'top-up', OWNER_ORIGIN);
    const { account } = await f.funding.adjust('acct_1', -450, 'refund', OWNER_ORIGIN);
    expect(account.balance).toBe(50);
    expect(f.ledgerRepository.entries.map((e) => [e.kind, e.amount, e.reason])).toEqual([
      ['credit', 200, 'top-up'],
      ['debit', 450, 'refund'],
    ]);
    expect(f.audit.entries().map((e) => [e.before, e.after])).toEqual([
      [{ balance: 300 }, { balance: 500, delta: 200, reason: 'top-up' }],
      [{ balance: 500 }, { balance: 50, delta: -450, reason: 'refund' }],
    ]);
  });

  it('refuses a debit beyond the available balance (400 on delta): no entry, no audit, balance unchanged', async () => {
    const f = setup();
    await expect(f.funding.adjust('acct_1', -301, 'too much', OWNER_ORIGIN)).rejects.toMatchObject({
      status: 400,
      param: 'delta',
    });
    expect(f.accounts.account('acct_1').balance).toBe(300);
    expect(f.ledgerRepository.entries).toEqual([]);
    expect(f.audit.repository.entries).toEqual([]);
  });

  it('refuses a credit that would take the funds past MAX_ACCOUNT_FUNDS (400 on delta), counting open holds', async () => {
    const f = setup({ held: 100 });
    const room = MAX_ACCOUNT_FUNDS - 300 - 100;
    await expect(f.funding.adjust('acct_1', room + 1, 'too much', OWNER_ORIGIN)).rejects.toMatchObject({
      status: 400,
      param: 'delta',
    });
    expect(f.ledgerRepository.entries).toEqual([]);
    const { account } = await f.funding.adjust('acct_1', room, 'to the brim', OWNER_ORIGIN);
    expect(account.balance + account.held).toBe(MAX_ACCOUNT_FUNDS);
  });

  it('answers 404 for an unknown account and moves no money', async () => {
    const f = setup();
    await expect(f.funding.adjust('acct_nope', 100, 'x', OWNER_ORIGIN)).rejects.toMatchObject({ status: 404 });
    expect(f.ledgerRepository.entries).toEqual([]);
  });
});
