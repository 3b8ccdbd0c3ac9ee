import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LedgerEntryEntity } from './entities/ledger-entry.entity';
import { UsageRecordEntity } from './entities/usage-record.entity';
import { AccountsPersistenceModule } from '../accounts/accounts-persistence.module';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';

/**
 * The ledger alone (no pricing, no config file): what `npm run ledger:verify` boots, so the
 * command proves the books with exactly the code the admin API uses.
 */
@Module({
  imports: [AccountsPersistenceModule, TypeOrmModule.forFeature([LedgerEntryEntity, UsageRecordEntity])],
  providers: [LedgerRepository, LedgerService],
  exports: [LedgerService],
})
export class LedgerModule {}
