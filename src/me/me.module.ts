import { Module } from '@nestjs/common';
import { AccountsModule } from '../core/accounts/accounts.module';
import { TasksModule } from '../core/tasks/tasks.module';
import { MeController } from './me.controller';
import { MeRepository } from './me.repository';
import { MeService } from './me.service';
import { TaskCancelController } from './task-cancel.controller';

/**
 * Self-service for key holders under the gateway's own prefix, whatever the family: `GET /gateway/v1/me`, and
 * `POST /gateway/v1/tasks/{task_id}/cancel`.
 */
@Module({
  imports: [AccountsModule, TasksModule],
  controllers: [MeController, TaskCancelController],
  providers: [MeRepository, MeService],
})
export class MeModule {}
