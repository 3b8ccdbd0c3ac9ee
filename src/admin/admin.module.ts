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
import { AdminReadsRepository } from './console-api/admin-reads.repository';
import { AdminReadsService } from './console-api/admin-reads.service';
import { TasksAdminController } from './console-api/tasks-admin.controller';
import { AccountsAdminController } from './accounts-admin.controller';
import { AdminGuard } from './admin.guard';
import { CallbacksAdminController } from './callbacks-admin.controller';
import { ChannelsAdminController } from './channels-admin.controller';
import { ChannelsModule } from '../core/channels/channels.module';
import { LedgerAdminController } from './ledger-admin.controller';
import { PricesAdminController } from './prices-admin.controller';
import { UsageAdminController } from './usage-admin.controller';

@Module({})
export class AdminModule {
  static forRoot(adminToken: string): DynamicModule {
    return {
      module: AdminModule,
      imports: [
        AccountsModule,
        BillingModule,
        TasksModule,
        ChannelsModule,
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
        ChannelsAdminController,
        OperatorsAdminController,
        AuditAdminController,
      ],
      providers: [AdminGuard, AdminReadsRepository, AdminReadsService],
    };
  }
}
