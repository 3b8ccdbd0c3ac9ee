import { Module } from '@nestjs/common';
import { AccountsPersistenceModule } from '../accounts/accounts-persistence.module';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';

/**
 * The ledger alone (no pricing, no config file): what `npm run ledger:verify` boots, so the
 * command proves the books with exactly the code the admin API uses.
 */
@Module({
  imports: [AccountsPersistenceModule],
  providers: [LedgerRepository, LedgerService],
  exports: [LedgerService],
})
export class LedgerModule {}
