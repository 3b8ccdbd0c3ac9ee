import { Injectable } from '@nestjs/common';
import { AccountDetails, AccountsService, NewAccount } from '../accounts/accounts.service';
import { LedgerService } from './ledger.service';

/** Opening balances and operator credits/debits: accounts plus the ledger, which records every move. */
@Injectable()
export class AccountFunding {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
  ) {}

  async open(input: NewAccount & { balance?: number }): Promise<AccountDetails> {
    const { account } = await this.accounts.create(input);
    if (input.balance) await this.ledger.adjust(account.id, input.balance, 'opening balance');
    return this.accounts.details(account.id);
  }

  async adjust(accountId: string, delta: number, reason: string): Promise<AccountDetails> {
    await this.accounts.require(accountId);
    await this.ledger.adjust(accountId, delta, reason);
    return this.accounts.details(accountId);
  }
}
