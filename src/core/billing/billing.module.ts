import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PriceVersionEntity } from './entities/price-version.entity';
import { UsageRecordEntity } from './entities/usage-record.entity';
import { AccountsModule } from '../accounts/accounts.module';
import { AuditModule } from '../audit/audit.module';
import { AccountFunding } from './account-funding.service';
import { LedgerModule } from './ledger.module';
import { PricingService } from './pricing.service';
import { UsageLog } from './usage-log.service';
import { UsageRepository } from './usage.repository';

@Module({
  imports: [
    LedgerModule,
    AccountsModule,
    AuditModule,
    TypeOrmModule.forFeature([PriceVersionEntity, UsageRecordEntity]),
  ],
  providers: [PricingService, UsageRepository, UsageLog, AccountFunding],
  exports: [LedgerModule, PricingService, UsageLog, AccountFunding],
})
export class BillingModule {}
