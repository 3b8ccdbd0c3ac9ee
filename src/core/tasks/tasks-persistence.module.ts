import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { HoldGate } from '../billing/hold-gate';
import { CallbackDeliveryEntity } from './entities/callback-delivery.entity';
import { IdempotencyRecordEntity } from './entities/idempotency-record.entity';
import { TaskEntity } from './entities/task.entity';
import { TasksRepository } from './tasks.repository';

/**
 * Task records and their entities. Global because the ledger closes a task's hold through the
 * `HoldGate` port the tasks repository implements (billing never imports tasks).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([TaskEntity, IdempotencyRecordEntity, CallbackDeliveryEntity])],
  providers: [TasksRepository, { provide: HoldGate, useExisting: TasksRepository }],
  exports: [TypeOrmModule, TasksRepository, HoldGate],
})
export class TasksPersistenceModule {}
