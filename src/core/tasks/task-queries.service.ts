import { Injectable } from '@nestjs/common';
import { GatewayError } from '../../platform/errors';
import { keyAllowsModel } from '../accounts/guards/model-access.guard';
import { Principal } from '../accounts/principal';
import type { FamilyId } from '../models/model-catalogue';
import { TaskEntity } from './entities/task.entity';
import { TasksRepository } from './tasks.repository';

export interface TaskListRequest {
  family: FamilyId;
  action: string;
  /** 1-based. */
  page: number;
  pageSize: number;
  model?: string;
  ids?: string[];
}

/** Whether the owner deleted the task: it is then gone from every client read. */
export function isDeleted(task: Pick<TaskEntity, 'deletedAt'>): boolean {
  return task.deletedAt !== null && task.deletedAt !== undefined;
}

/**
 * Reads of task records as their owner may see them: scoped to the account, to the family (and
 * action) of the route, to the models the key may use; a rejected creation is no task to the
 * caller, nor is one the caller deleted. Anything else is 404: never reveal that it exists.
 */
@Injectable()
export class TaskQueries {
  constructor(private readonly tasks: TasksRepository) {}

  async findVisible(principal: Principal, family: FamilyId, id: string, action?: string): Promise<TaskEntity> {
    const task = await this.findOwned(principal, id);
    if (task.family !== family || (action !== undefined && task.action !== action)) throw GatewayError.notFound('Task');
    return task;
  }

  /** The caller's task whatever its family (the gateway's own routes), on the same terms as `findVisible`. */
  async findOwned(principal: Principal, id: string): Promise<TaskEntity> {
    const task = await this.tasks.findForAccount(id, principal.account.id);
    const visible =
      task !== null &&
      task.phase !== 'rejected' &&
      !isDeleted(task) &&
      keyAllowsModel(principal.apiKey.models, task.model);
    if (!visible) throw GatewayError.notFound('Task');
    return task;
  }

  /**
   * A page of the caller's tasks of one action, newest first (ties by ID, so pages never overlap), with the exact
   * total.
   */
  list(principal: Principal, request: TaskListRequest): Promise<{ items: TaskEntity[]; total: number }> {
    return this.tasks.list({
      accountId: principal.account.id,
      family: request.family,
      action: request.action,
      model: request.model,
      models: principal.apiKey.models ?? undefined,
      ids: request.ids,
      offset: (request.page - 1) * request.pageSize,
      limit: request.pageSize,
    });
  }
}
