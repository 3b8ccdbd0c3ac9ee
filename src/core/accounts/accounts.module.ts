import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AccountsPersistenceModule } from './accounts-persistence.module';
import { AccountsService } from './accounts.service';
import { ApiKeyGuard } from './guards/api-key.guard';
import { ModelAccessGuard } from './guards/model-access.guard';
import { RateLimitGuard } from './guards/rate-limit.guard';
import { PrincipalService } from './principal.service';

@Module({
  imports: [AccountsPersistenceModule, AuditModule],
  providers: [PrincipalService, AccountsService, ApiKeyGuard, RateLimitGuard, ModelAccessGuard],
  exports: [
    PrincipalService,
    AccountsService,
    ApiKeyGuard,
    RateLimitGuard,
    ModelAccessGuard,
    AccountsPersistenceModule,
  ],
})
export class AccountsModule {}
