import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '../../platform/database/transaction-runner';
import { AccountDetails, AccountsService, NewAccount, accountSnapshot } from '../accounts/accounts.service';
import { AuditTrail } from '../audit/audit.service';
import { ChangeOrigin } from '../audit/audit.types';
import { LedgerService } from './ledger.service';

/**
 * Opening balances and operator credits/debits: accounts plus the ledger, which records every move.
 * Each is one transaction with its audit entry.
 */
@Injectable()
export class AccountFunding {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
  ) {}

  async open(input: NewAccount & { balance?: number }, origin: ChangeOrigin): Promise<AccountDetails> {
    const id = await this.transactions.run(async (tx) => {
      const account = await this.accounts.create(input, tx);
      if (input.balance) await this.ledger.adjust(account.id, input.balance, 'opening balance', tx);
      const opened = await this.accounts.require(account.id, tx);
      await this.audit.record(tx, origin, {
        action: 'account.create',
        target: { type: 'account', id: account.id },
        before: null,
        after: accountSnapshot(opened),
      });
      return account.id;
    });
    return this.accounts.details(id);
  }

  async adjust(accountId: string, delta: number, reason: string, origin: ChangeOrigin): Promise<AccountDetails> {
    await this.transactions.run(async (tx) => {
      const before = await this.accounts.require(accountId, tx);
      await this.ledger.adjust(accountId, delta, reason, tx);
      const after = await this.accounts.require(accountId, tx);
      await this.audit.record(tx, origin, {
        action: 'balance.adjust',
        target: { type: 'account', id: accountId },
        before: { balance: before.balance },
        after: { balance: after.balance, delta, reason },
      });
    });
    return this.accounts.details(accountId);
  }
}
