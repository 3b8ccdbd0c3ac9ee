import { DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '../core/accounts/accounts.module';
import { BillingModule } from '../core/billing/billing.module';
import { TasksModule } from '../core/tasks/tasks.module';
import { AuditModule } from '../core/audit/audit.module';
import { OperatorsModule } from '../core/operators/operators.module';
import { AdminCredentialsModule } from './admin-credentials';
import { AuditAdminController } from './audit/audit-admin.controller';
import { OperatorsAdminController } from './operators/operators-admin.controller';
import { AdminAuthModule } from './admin-auth-throttle';
import { AdminReadsRepository } from './reads/admin-reads.repository';
import { AdminReadsService } from './reads/admin-reads.service';
import { TaskActionsAdminController } from './task-actions-admin.controller';
import { TasksAdminController } from './reads/tasks-admin.controller';
import { AccountsAdminController } from './accounts-admin.controller';
import { AdminGuard } from './admin.guard';
import { CallbacksAdminController } from './callbacks-admin.controller';
import { ChannelsAdminController } from './channels-admin.controller';
import { ModelsAdminController } from './models-admin.controller';
import { ChannelSettingsModule } from '../core/channel-settings/channel-settings.module';
import { LedgerAdminController } from './ledger-admin.controller';
import { PricesAdminController } from './prices-admin.controller';
import { UsageAdminController } from './usage-admin.controller';
import { OidcSignIn } from './sso/oidc-sign-in';
import { SsoController } from './sso/sso.controller';

@Module({})
export class AdminModule {
  static forRoot(adminToken: string): DynamicModule {
    return {
      module: AdminModule,
      imports: [
        AccountsModule,
        BillingModule,
        TasksModule,
        ChannelSettingsModule,
        OperatorsModule,
        AuditModule,
        AdminAuthModule,
        AdminCredentialsModule.forRoot(adminToken),
      ],
      controllers: [
        AccountsAdminController,
        LedgerAdminController,
        PricesAdminController,
        UsageAdminController,
        CallbacksAdminController,
        TasksAdminController,
        TaskActionsAdminController,
        ChannelsAdminController,
        ModelsAdminController,
        OperatorsAdminController,
        AuditAdminController,
        SsoController,
      ],
      providers: [AdminGuard, AdminReadsRepository, AdminReadsService, OidcSignIn],
    };
  }
}
