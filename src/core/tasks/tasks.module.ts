import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { AuditModule } from '../audit/audit.module';
import { BillingModule } from '../billing/billing.module';
import { CallbackDeliveryWorker } from './client-callbacks-out/callback-delivery.worker';
import { CallbackOutboxRepository } from './client-callbacks-out/callback-outbox.repository';
import { CallbackOutbox } from './client-callbacks-out/callback-outbox.service';
import { CallbackRedelivery } from './client-callbacks-out/callback-redelivery.service';
import { IdempotencyService } from './idempotency.service';
import { ReconciliationRepository } from './reconciliation/reconciliation.repository';
import { ReconciliationSweeper } from './reconciliation/reconciliation.sweeper';
import { TaskCancellation } from './task-cancellation.service';
import { TaskDeletion } from './task-deletion.service';
import { TaskEngine } from './task-engine.service';
import { TaskLifecycle } from './task-lifecycle.service';
import { TaskQueries } from './task-queries.service';
import { TaskSyncService } from './task-sync.service';
import { TaskSyncWorker } from './task-sync.worker';
import { TasksPersistenceModule } from './tasks-persistence.module';

/** A task's whole life: creation, sync, settlement, callbacks. The UpstreamDirectory comes from the app root. */
@Module({
  imports: [TasksPersistenceModule, AccountsModule, BillingModule, AuditModule],
  providers: [
    TaskEngine,
    TaskLifecycle,
    TaskSyncService,
    TaskQueries,
    TaskDeletion,
    TaskCancellation,
    TaskSyncWorker,
    IdempotencyService,
    CallbackOutboxRepository,
    CallbackOutbox,
    CallbackRedelivery,
    CallbackDeliveryWorker,
    ReconciliationRepository,
    ReconciliationSweeper,
  ],
  exports: [
    TasksPersistenceModule,
    TaskEngine,
    TaskQueries,
    TaskDeletion,
    TaskCancellation,
    TaskSyncWorker,
    IdempotencyService,
    CallbackDeliveryWorker,
    CallbackOutboxRepository,
    CallbackRedelivery,
    AccountsModule,
  ],
})
export class TasksModule {}
