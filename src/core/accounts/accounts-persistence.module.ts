import { Module } from '@nestjs/common';
import { AccountsRepository } from './repositories/accounts.repository';
import { ApiKeysRepository } from './repositories/api-keys.repository';
import { ModelGrantsRepository } from './repositories/model-grants.repository';

/** Account repositories alone, so billing and accounts can both use them without a cycle. */
@Module({
  providers: [AccountsRepository, ApiKeysRepository, ModelGrantsRepository],
  exports: [AccountsRepository, ApiKeysRepository, ModelGrantsRepository],
})
export class AccountsPersistenceModule {}
