import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountEntity } from './entities/account.entity';
import { ApiKeyEntity } from './entities/api-key.entity';
import { ModelGrantEntity } from './entities/model-grant.entity';
import { AccountsRepository } from './repositories/accounts.repository';
import { ApiKeysRepository } from './repositories/api-keys.repository';
import { ModelGrantsRepository } from './repositories/model-grants.repository';

/** Account repositories alone, so billing and accounts can both use them without a cycle. */
@Module({
  imports: [TypeOrmModule.forFeature([AccountEntity, ApiKeyEntity, ModelGrantEntity])],
  providers: [AccountsRepository, ApiKeysRepository, ModelGrantsRepository],
  exports: [AccountsRepository, ApiKeysRepository, ModelGrantsRepository],
})
export class AccountsPersistenceModule {}
