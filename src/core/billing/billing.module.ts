import { Module } from '@nestjs/common';
import { AccountsPersistenceModule } from '../accounts/accounts-persistence.module';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';

@Module({
  imports: [AccountsPersistenceModule],
  providers: [LedgerRepository, LedgerService],
  exports: [LedgerService],
})
export class BillingModule {}
