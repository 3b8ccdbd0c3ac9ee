import { Module } from '@nestjs/common';
import { AccountsPersistenceModule } from '../accounts/accounts-persistence.module';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';
import { PricingService } from './pricing.service';

@Module({
  imports: [AccountsPersistenceModule],
  providers: [LedgerRepository, LedgerService, PricingService],
  exports: [LedgerService, PricingService],
})
export class BillingModule {}
